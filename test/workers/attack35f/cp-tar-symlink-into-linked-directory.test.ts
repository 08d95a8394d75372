/**
 * Issue 20, thirty-fifth attack run: copying or extracting a tree that holds a symbolic link into a directory reached
 * through a link (`cp -a src lnk/` with lnk -> real, `cd lnk && cp -r ../src s3`, `tar -xf x.tar -C lnk/`) fails at
 * the first link with `Not a directory` and leaves a half-made copy: the link and everything after it (here the
 * whole `pkg/` with its file) are missing. The shell's file adapter passes the path as given to the Workspace's
 * `symlink`, whose parent chain must be real directories (spec 01); `ln -s` resolves the parent first
 * (link-operands.ts `throughParentLinks`), `cp`'s link copy and `tar -x`'s link member do not.
 * Tried: `ln -s t lnk/a`, `cd lnk && ln -s t b` (both right), `cp -P lnk/a lnk/copy`, `cp -a`/`cp -r` of a tree with
 * an npm-style `.bin/cli -> ../pkg/cli.js` into `lnk/`, from a cwd inside `lnk`, `tar -x -C lnk/`; git checkout and
 * reset --hard restoring a link in a repo under `lnk` (right). Differential: GNU coreutils 9.1 / GNU tar 1.34 on this
 * machine copy and extract all of it, exit 0 (`real/src/.bin/cli -> ../pkg/cli.js`, `real/src/pkg/cli.js`).
 * Held: plain files and directories through the link; `ln`; `mv`; git.
 * Found (medium — an agent working in a linked directory, a common layout for releases/worktrees, gets a partial
 * copy with exit 1 and has lost the files after the first link; 3 of 3 runs): `cp -a src lnk/` → 1, `cp: cannot
 * create directory 'lnk/src': Not a directory`, `real/src` holds only `.bin`; `cd lnk && cp -r ../src s3` → 1 alike;
 * `tar -x -C l2/` → 2, `tar: src/.bin/cli: Cannot create symlink to '../pkg/cli.js': Not a directory`.
 * Suggested fix: src/backends/worker-shell/fs-adapter.ts — resolve the link path's parent through its links (as
 * isolate/link-operands.ts `throughParentLinks` does for `ln`) in `symlink()` and in `#copy()`'s link branch, so
 * every caller (cp, tar, …) gets symlink(2)'s semantics.
 * Fixed: the shell's file adapter makes every link (`symlink()`, and `#copy()`'s link branch) through
 * `#symlinkThroughParents`: when the Workspace refuses a link among the parents (ENOTDIR), the parent is resolved
 * (realpath) and the link made in the real directory — src/fs/node-errors.ts `symlinkThroughParentLinks`, shared with
 * the provider; `ln` no longer resolves the parent itself (issue 20, run 35, fixer SL).
 * Siblings: test/workers/fix35/link-parent-create.test.ts.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("cp -a / cp -r / tar -x of a tree with a symlink into a linked directory copy everything, exit 0 (GNU)", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/real", { recursive: true });
    await ws.fs.mkdir("/workspace/src/pkg", { recursive: true });
    await ws.fs.writeFile("/workspace/src/pkg/cli.js", "CLI");
    await ws.fs.mkdir("/workspace/src/.bin", { recursive: true });
    await ws.fs.symlink("../pkg/cli.js", "/workspace/src/.bin/cli");
    await ws.fs.symlink("real", "/workspace/lnk");
    const results: [string, number, string][] = [];
    for (const c of [
      "cp -a src lnk/; echo $?",
      "cd lnk && cp -r ../src s3; echo $?",
      "mkdir -p tmp real2 && ln -s real2 l2 && tar -cf tmp/x.tar src && tar -xf tmp/x.tar -C l2/; echo $?",
      "find real real2 | sort; readlink real/src/.bin/cli real/s3/.bin/cli real2/src/.bin/cli",
    ]) {
      const r = await sh(ws, c, { cwd: "/workspace" });
      results.push([c, Number(r.stdout.split("\n")[0]), r.stderr]);
      if (c.startsWith("find")) results.push(["listing", 0, r.stdout]);
    }
    return results;
  });
  // Was: exit 1, 1, 2 with `cp: cannot create directory 'lnk/src': Not a directory` / `tar: src/.bin/cli: Cannot
  // create symlink to '../pkg/cli.js': Not a directory`, and real/src holding only .bin (pkg/cli.js never copied).
  expect(out.slice(0, 3).map(([c, code, err]) => [c, code, err])).toEqual([
    ["cp -a src lnk/; echo $?", 0, ""],
    ["cd lnk && cp -r ../src s3; echo $?", 0, ""],
    ["mkdir -p tmp real2 && ln -s real2 l2 && tar -cf tmp/x.tar src && tar -xf tmp/x.tar -C l2/; echo $?", 0, ""],
  ]);
  expect(out[4][2]).toBe(
    [
      "real", "real/s3", "real/s3/.bin", "real/s3/.bin/cli", "real/s3/pkg", "real/s3/pkg/cli.js",
      "real/src", "real/src/.bin", "real/src/.bin/cli", "real/src/pkg", "real/src/pkg/cli.js",
      "real2", "real2/src", "real2/src/.bin", "real2/src/.bin/cli", "real2/src/pkg", "real2/src/pkg/cli.js",
      "../pkg/cli.js", "../pkg/cli.js", "../pkg/cli.js", "",
    ].join("\n"),
  );
}, 120000);
