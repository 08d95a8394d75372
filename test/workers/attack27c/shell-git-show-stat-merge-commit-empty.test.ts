/**
 * Issue 20, twenty-seventh attack run: `git show --stat` of a merge commit prints the header and no stat at all; git
 * 2.39 prints the diffstat against the first parent (`b.txt | 2 +-` / `1 file changed, …`) — so "what did this merge
 * bring in" reads as "nothing", exit 0.
 *
 * Tried: in the shell with git configured, `main` and a branch `f` from `HEAD~1` changing another file, `git merge -q
 * -m M f` (a true merge), then `git show --stat --format=%s` and `git show --format=%s`; the same in git 2.39.5.
 * Held: `git show` of the merge (no patch: a clean merge's combined diff is empty, as git), `Merge:` line of the
 * default format, `--stat` of an ordinary commit, `%p`/`%P` of the merge.
 *
 * Found (low — silently empty answer for merges, which agents inspect after a pull; 2 of 2 runs).
 *
 * Suggested fix: the CLI's `show --stat` (src/git/cli/commands.ts `show`): for a commit with several parents,
 * compute the stat against the first parent (git's `--cc --stat` shows the first-parent diffstat), as for one parent.
 *
 * Fixed: src/git/cli/commands.ts `show` follows git's log-tree.c/combine-diff.c: a merge's `--stat` is against
 * its first parent, after the blank line git prints for a merge even with `--oneline` (none for an empty format);
 * `format:` formats end without a newline and take no blank line before the diff, `--pretty=oneline` none either.
 * Siblings: test/node/fix27/git-cli-gd.test.ts.
 */
import { describe, expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "Shell User", email: "shell@example.com" } } };

describe("attack27c: git show --stat of a merge", () => {
  it("prints the diffstat against the first parent, as git 2.39", { timeout: 120_000 }, async () => {
    const r = await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace/r", { recursive: true });
      return sh(
        ws,
        [
          "git init -q -b main; echo one > a.txt; echo b > b.txt; git add .; git commit -q -m first",
          "echo two > a.txt; git commit -q -am second",
          "git checkout -q -b f HEAD~1; echo bb > b.txt; git commit -q -am fb; git checkout -q main; git merge -q -m M f",
          "git show --stat --format=%s",
        ].join("\n"),
        { cwd: "/workspace/r" },
      );
    }, withGit);
    // Was: "M\n".
    expect(r.stdout).toBe("M\n\n b.txt | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n");
    expect(r.stderr).toBe("");
  });
});
