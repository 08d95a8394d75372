/**
 * Issue 20, twenty-second attack run: two small git CLI differences from git 2.39.5 beside run 21's -q fixes:
 * `git merge -q f` (a fast-forward) still prints `Fast-forward to <oid7>` on stdout (git prints nothing with -q);
 * a tracked symbolic link replaced by a regular file shows as ` M l` in `status --porcelain=v1` and `-s` (git:
 * ` T l`, a type change), so a script looking for type changes never sees one.
 * Tried: side by side with git 2.39.5: `merge -q` (fast-forward), `checkout -q`, `switch`, `stash -q`/`stash pop
 * -q` (held, run 21), status of `rm l; echo plain > l` for a committed link l -> a (`--porcelain=v1`, `-s`), `git
 * diff` of the same (held: deleted file mode 120000 / new file mode 100644, as git).
 * Held: checkout -q, stash -q, diff of the type change.
 * Found (low — output only; 2 of 2 runs): stdout of `git merge -q f` is `Fast-forward to 1234567\n`; status gives
 * ` M l` twice.
 * Suggested fix: merge honours -q (QUIET in its spec, no "Fast-forward to"/"Merge commit" lines); status reports
 * `T` when the index entry's mode is 120000 and the working tree holds a regular file (and the reverse).
 * Fixed: `merge -q` and `pull -q` print nothing (src/git/cli/commands.ts); status gives `T` in either column when
 * the file type changes (link ↔ file; src/git/ops/repo.ts changeLetter), the long format says `typechange:`, and
 * `diffSummary`/`diff --name-status` give `T` for the merged entry of a type change (src/git/ops/diff.ts).
 * Siblings: test/workers/fix22/git-cli-typechange.test.ts.
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "T", email: "t@e" } } };

it("merge -q prints nothing and a link turned file is a type change, as git", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/m", { recursive: true });
    await ws.fs.mkdir("/workspace/t", { recursive: true });
    const merge = await sh(
      ws,
      "git init -q -b main; echo x > a; git add a; git commit -q -m i; git checkout -q -b f; echo y > a; git commit -q -a -m y; git checkout -q main; git merge -q f; echo rc=$?; cat a",
      { cwd: "/workspace/m" },
    );
    const type = await sh(
      ws,
      "git init -q -b main; echo x > a; ln -s a l; git add -A; git commit -q -m i; rm l; echo plain > l; git status --porcelain=v1; git status -s",
      { cwd: "/workspace/t" },
    );
    return [merge.stdout, type.stdout];
  }, withGit);
  expect(out).toEqual(["rc=0\ny\n", " T l\n T l\n"]);
});
