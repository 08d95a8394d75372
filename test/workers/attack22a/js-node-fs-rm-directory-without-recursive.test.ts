/**
 * Issue 20, twenty-second attack run: the JavaScript backend's node:fs `rm` removes a directory without `recursive`.
 * Tried: node:fs/promises in a WorkerJavaScriptBackend run (Durable Object, default options): `rm(dir)` of an empty
 * directory and of a directory holding a file, with and without `force`, then what is left — beside the recent
 * node:fs fixes that answer as Node on Linux (c6e6498, cb13a32, da3a73f: rm of a last "."/".." is EINVAL).
 * Held: `rm(dir, { recursive: true })` removes the tree; `rm(missing)` is ENOENT and `rm(missing, { force: true })`
 * resolves; rm of a file removes it.
 * Found (low — a removal where Node refuses, and an error code code cannot match on; 3 of 3 runs):
 * `rm("/workspace/empty")` resolves and the directory is gone (also with `{ force: true }`); `rm("/workspace/full")`
 * rejects `ENOTEMPTY` (the Workspace's rm, src/backends/worker-javascript/bridge.ts `rm` → fs.rm without a type
 * check). Node 22 on Linux rejects both with code `ERR_FS_EISDIR` ("Path is a directory: rm returned EISDIR (is a
 * directory) <path>") and removes nothing — `fs.rm` without `recursive` never removes a directory (that is
 * `rmdir`'s job). Code that cleans up with `rm(p)` expecting a file there deletes a directory instead.
 * Suggested fix: in the bridge's rm, when `recursive` is false, lstat the path (the resolver's `last` already holds
 * it) and reject a directory with code `ERR_FS_EISDIR` and Node's message, before calling the Workspace's rm.
 * Fixed: the bridge's rm (src/backends/worker-javascript/bridge.ts) without `recursive` lstats the path (the
 * resolver's `last` when it holds it) and rejects a directory with code `ERR_FS_EISDIR` and Node 22's message
 * ("Path is a directory: rm returned EISDIR (is a directory) <path as written>"), before anything is removed — first,
 * as Node checks it (also for the backend root and a last "."/".."); a link to a directory is still removed.
 * The messages are asserted exactly here; siblings (links, `dir/`, relative paths): test/workers/fix22/fjs-node-fs.test.ts.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

it("node:fs rm of a directory without recursive is ERR_FS_EISDIR and removes nothing", async () => {
  const out = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/empty", { recursive: true });
    await ws.fs.mkdir("/workspace/empty2", { recursive: true });
    await ws.fs.mkdir("/workspace/full", { recursive: true });
    await ws.fs.writeFile("/workspace/full/f.txt", "f");
    const h = await ws.runtime.exec(
      `import fs from "node:fs/promises";
       const code = (p, o) => fs.rm(p, o).then(() => "resolved", (e) => e.code + " " + e.message);
       export default async () => ({
         empty: await code("/workspace/empty"),
         emptyForce: await code("/workspace/empty2", { force: true }),
         full: await code("/workspace/full"),
       });`,
    );
    const value = (await h.result()).value;
    const left = (await ws.fs.readdir("/workspace")).map((e) => e.name);
    return { value, left };
  });
  // Found: { empty: "resolved", emptyForce: "resolved", full: "ENOTEMPTY" }, left ["full"].
  expect(out).toEqual({
    value: {
      empty: "ERR_FS_EISDIR Path is a directory: rm returned EISDIR (is a directory) /workspace/empty",
      emptyForce: "ERR_FS_EISDIR Path is a directory: rm returned EISDIR (is a directory) /workspace/empty2",
      full: "ERR_FS_EISDIR Path is a directory: rm returned EISDIR (is a directory) /workspace/full",
    },
    left: ["empty", "empty2", "full"],
  });
}, 120_000);
