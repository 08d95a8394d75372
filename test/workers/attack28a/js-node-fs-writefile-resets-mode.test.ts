/**
 * Issue 20, twenty-eighth attack run: the JavaScript backend's `node:fs` `writeFile` over an existing file resets
 * its mode to 0644 — the bridge calls `workspace.fs.writeFile(p, data, { exclusive })` without the file's mode, and
 * `workspace.fs` documents that an overwrite without `mode` resets it. Node's `writeFile` (open(2) with `O_TRUNC`)
 * keeps an existing file's mode, as do the Workspace's own node:fs provider (`workspace.provider().writeFile`),
 * the write and edit tools and the shell's `>`. A run that rewrites a script (`readFile` → `replace` → `writeFile`)
 * silently drops its execute bits: `./run.sh` in the shell afterwards is `Permission denied`.
 *
 * Tried: `workspace.runtime.exec` on a WorkerJavaScriptBackend: `writeFile` (string and bytes) over a 0755 script
 * and a 0600 file, against Node 22's `fs.promises.writeFile` on Linux (mode kept) and `workspace.provider()`.
 * Held: a new file gets 0644 (Node: 0666 & ~022); `flag: "wx"` over an existing file is EEXIST; the provider keeps
 * the mode ("An existing file keeps its mode, as open(2) with O_TRUNC does").
 * Found (medium — a file's permission bits change silently on an ordinary read-modify-write, unlike node:fs and
 * every other write route of the Workspace; 2 of 2 runs).
 * Suggested fix: src/backends/worker-javascript/bridge.ts, `case "writeFile"` — without `wx`, stat the resolved path
 * (following no link, as it is confined already) and pass `mode: stat.mode & 0o7777` when a regular file is there
 * (or `ifInode` with it, so the mode read is the mode of the file replaced).
 *
 * Fixed (run 28, fixer JF): src/backends/worker-javascript/bridge.ts `case "writeFile"` writes over an existing
 * regular file with its mode (`last.mode & 0o7777`) bound to that file (`ifInode`), a missing one `exclusive` with
 * the mode asked less the umask (default 0o644), and looks again (up to 3 times) when the file changed in between.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

it("node:fs writeFile over an existing file keeps its mode, as Node's does", async () => {
  const out = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    await ws.fs.writeFile("/workspace/run.sh", "#!/bin/sh\necho one\n", { mode: 0o755 });
    await ws.fs.writeFile("/workspace/secret.txt", "k=1\n", { mode: 0o600 });
    const handle = await ws.runtime.exec(
      `import { readFile, writeFile, stat } from "node:fs/promises";
       export default async function () {
         const s = await readFile("run.sh", "utf8");
         await writeFile("run.sh", s.replace("one", "two"));
         await writeFile("secret.txt", new TextEncoder().encode("k=2\\n"));
         return [(await stat("run.sh")).mode & 0o7777, (await stat("secret.txt")).mode & 0o7777];
       }`,
    );
    const result = await handle.result();
    return {
      status: result.status,
      value: result.value,
      text: await ws.fs.readFile("/workspace/run.sh", "utf8"),
      modes: [(await ws.fs.stat("/workspace/run.sh")).mode, (await ws.fs.stat("/workspace/secret.txt")).mode],
    };
  });
  expect(out.status).toBe("completed");
  expect(out.text).toBe("#!/bin/sh\necho two\n");
  // Was: [0o644, 0o644] (420, 420) in both the run's stat and the store.
  expect(out.value).toEqual([0o755, 0o600]);
  expect(out.modes).toEqual([0o755, 0o600]);
});
