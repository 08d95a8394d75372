/**
 * Issue 20, twenty-eighth attack run: the JavaScript backend's `node:fs` `readdir(dir, { recursive: true })`
 * ignores `recursive` and answers the top-level names only, with status 0. Node 22 lists the whole subtree
 * (`["e", "e/f.txt"]`), so code that walks a tree this way — count files, find every `.ts`, copy a directory —
 * silently sees none of the nested files. The Workspace's node:fs provider (`workspace.provider().readdir`) does
 * list recursively, and the run's own `writeFile` refuses an option it does not support (`flag`) with a TypeError.
 *
 * Tried: `workspace.runtime.exec` on a WorkerJavaScriptBackend: `readdir("d", { recursive: true })` and with
 * `withFileTypes: true`, over `d/e/f.txt`, against Node 22's `fs.promises.readdir` on Linux.
 * Held: `readdir` without options and with `withFileTypes` (names and Dirent-like entries of the directory);
 * `maxDirectoryEntries` refusal.
 * Found (medium — a listing silently misses everything below the first level in a form Node code commonly writes;
 * 2 of 2 runs).
 * Suggested fix: src/backends/worker-javascript/isolate/__modules__/node-fs-promises.js `readdir` — either walk the
 * subtree (each directory through the confined host `readdir`, names joined with `/`, within maxDirectoryEntries
 * in all) or throw a TypeError for `recursive: true` as `writeFile` does for an unsupported flag.
 *
 * Fixed (run 28, fixer JF): `readdir(p, { recursive: true })` walks the subtree on the host
 * (src/backends/worker-javascript/bridge.ts `#readdirRecursive`, each directory through the confined, paged
 * `#readdir`, in Node's order; at most maxDirectoryEntries entries in all, else E2BIG); node-fs-promises.js joins
 * the names (`e/f.txt`) or gives dirents their `parentPath`. Links are listed, never followed.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

it("node:fs readdir with recursive lists the subtree (or refuses), as Node's does", async () => {
  const result = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/d/e", { recursive: true });
    await ws.fs.writeFile("/workspace/d/e/f.txt", "x");
    await ws.fs.writeFile("/workspace/d/top.txt", "y");
    const handle = await ws.runtime.exec(
      `import { readdir } from "node:fs/promises";
       export default async function () {
         try {
           return (await readdir("d", { recursive: true })).sort();
         } catch (e) {
           return e.name;
         }
       }`,
    );
    return handle.result();
  });
  expect(result.status).toBe("completed");
  // Node's answer: the whole subtree; or a TypeError refusing the option. Was: ["e", "top.txt"] — e/f.txt missing.
  expect([["e", "e/f.txt", "top.txt"], "TypeError"]).toContainEqual(result.value);
});
