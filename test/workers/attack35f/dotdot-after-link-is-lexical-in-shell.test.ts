/**
 * Issue 20, thirty-fifth attack run: in the shell a `..` that follows a symbolic link to a directory is applied
 * lexically, so `cat lnk/../f`, `echo > lnk/../g` and `rm lnk/../f` (lnk -> a/b) reach `/workspace/f` where bash 5.2
 * and the kernel reach `a/f` (the parent of where lnk leads); the same from a cwd inside the link (`cd lnk && rm ../f`:
 * bash's `cd` is logical, but `../f` is resolved by the kernel from the real directory). The agent reads, writes or
 * removes a different file than the one it named. workspace.fs documents its lexical `..` (filesystem.md "Paths");
 * neither runtime.md nor porting.md says the shell departs from bash here (runtime.md only: a last `..`, `f.txt/..`).
 * Tried: `cat lnk/../f`, `echo new > lnk/../g`, `ls lnk/..`, `cd lnk && cat ../f`, `cd lnk && cat $(pwd -P)/../f`,
 * `rm lnk/../f`; the same on this machine with bash 5.2.15 / coreutils 9.1.
 * Held: `$(pwd -P)/../f` reads the right file; `pwd` stays logical (`/workspace/lnk`), as bash.
 * Found (high — `rm lnk/../f` deletes /workspace/f, a file the agent did not name, and keeps a/f; reads and writes go
 * to the wrong file silently, exit 0; 3 of 3 runs): bash prints INNER, INNER and removes a/f; we print OUTER, OUTER and
 * remove /workspace/f.
 * Suggested fix: the shell's fs adapter (src/backends/worker-shell/fs-adapter.ts, where paths are resolved before
 * reaching workspace.fs) — resolve a path holding `..` physically: walk it segment by segment, replacing each prefix
 * that is a link by its realpath before applying the following `..` (as `readlink -f` already does), and pass the
 * resulting real path on; or give workspace.fs a physical-`..` resolution mode the adapter uses.
 * Not fixed (run 35): fixer DD kept each `..` in the adapter's resolvePath and walked the prefix physically in every
 * path-taking method (f858b74e); the clean-clone CI then showed the tree walkers still joining and slicing paths
 * lexically — `du -a d/..` named `d/../t` for a.txt (fix22/shell-grep-r-gnu) — and a scratch run of the walkers on
 * `lnk/..` operands (find, ls -R, grep -r, du, cp -r, chmod -R, tar, rg) ran workerd out of heap. Reverted by the
 * lead; the next fix must give the walkers (deep-walks, cp -r, tar, du) physical start points and keep their
 * into-itself checks on real paths. The lexical `..` is documented in docs/runtime.md meanwhile.
 * Fixed: the adapter's resolvePath keeps a `..` after a name and every method walks it physically
 * (src/backends/worker-shell/fs-adapter.ts physicalPath, run 35's fixer DD's code reinstated), each command's
 * arguments holding such a `..` are resolved physically once before it runs (isolate/dot-dots.ts, wired by
 * scripts/gen-shell.mjs `// DD2`) so the walkers start from real directories and print operand-text names, and rg's
 * ignore loader walks up lexically — its `resolvePath(dir, "..")` loop never reached `/` once `..` was kept, which is
 * what ran workerd out of heap in run 35 (issue 20, run 36, fixer DD2). Siblings: test/workers/fix36/shell-dotdot-after-link.test.ts.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("`..` after a link to a directory goes up from where the link leads, as bash (cat, cd+cat, rm)", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/a/b", { recursive: true });
    await ws.fs.writeFile("/workspace/a/f", "INNER");
    await ws.fs.writeFile("/workspace/f", "OUTER");
    await ws.fs.symlink("a/b", "/workspace/lnk");
    const cat = (await sh(ws, "cat lnk/../f", { cwd: "/workspace" })).stdout;
    const cdCat = (await sh(ws, "cd lnk && cat ../f", { cwd: "/workspace" })).stdout;
    const rm = await sh(ws, "rm lnk/../f; echo $?", { cwd: "/workspace" });
    const inner = await ws.fs.readFile("/workspace/a/f", "utf8").catch((e: { code: string }) => e.code);
    const outer = await ws.fs.readFile("/workspace/f", "utf8").catch((e: { code: string }) => e.code);
    return { cat, cdCat, rm: rm.stdout, inner, outer };
  });
  // Was: { cat: "OUTER", cdCat: "OUTER", rm: "0\n", inner: "INNER", outer: "ENOENT" } — /workspace/f deleted.
  expect(out).toEqual({ cat: "INNER", cdCat: "INNER", rm: "0\n", inner: "ENOENT", outer: "OUTER" });
}, 120000);
