/**
 * Issue 20, run 28, fixer JF: git rewriting an existing tracked executable keeps (or sets) the tree entry's mode
 * (100755 → 0o755), as real git 2.39 does — checked for `stash` (push: the reset to HEAD), `stash pop`, `checkout` and a
 * fast-forward `merge` (the route `pull` takes once fetched) over an executable. stash.ts/network.ts write only
 * git metadata (the stash reflog, saved refs) without a mode, never a working-tree file.
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "T", email: "t@e" } } };

it("stash, stash pop, checkout and a fast-forward merge (pull's) keep a tracked executable's mode 0755, as real git", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/r", { recursive: true });
    const setup = "git init -q -b main; printf '#!/bin/sh\\necho 1\\n' > run.sh; chmod 755 run.sh; git add run.sh; git commit -q -m i; ";
    const stash = await sh(ws, `${setup}echo 'echo 2' >> run.sh; git stash -q; stat -c %a run.sh; git stash pop -q; stat -c %a run.sh; git diff --stat | tail -1; git checkout -q -b b; git commit -qam two; git checkout -q main; stat -c %a run.sh; git merge -q --ff-only b; stat -c %a run.sh; cat run.sh`, { cwd: "/workspace/r" });
    const after = (await ws.fs.stat("/workspace/r/run.sh")).mode;
    return { stdout: stash.stdout, exitCode: stash.exitCode, after };
  }, withGit);
  expect(out).toEqual({ stdout: "755\n755\n 1 file changed, 1 insertion(+)\n755\n755\n#!/bin/sh\necho 1\necho 2\n", exitCode: 0, after: 0o755 });
});
