/**
 * Issue 20, twenty-seventh attack run: `git log --format=` / `--pretty=` (and `show --format=`) print git's other
 * placeholders literally: `%x09` (the usual tab separator for parsing), `%ci`/`%ai` (ISO dates), `%ct`/`%at` (Unix
 * times), `%cI`/`%aI`, `%as`/`%cs`, `%d`/`%D` (ref names), `%aN`/`%cE` come out as the two or three characters typed,
 * exit 0 — a script reading `git log --format='%h%x09%ct'` gets `%x09%ct` instead of a tab and a number.
 *
 * Tried: in the shell with git configured and fixed dates, `git log -1 --format='%h%x09%s|%ci|%ai|%ct|%at|%cI|%aI|%as|%cs|%d|%D|%aN|%cE'`
 * after `git tag v1`; the same in git 2.39.5.
 * Held: the documented placeholders `%H %h %T %t %P %p %s %b %B %an %ae %cn %ce %n %%` (`%ad`/`%cd` use the
 * spec's ISO form, deliberately); a placeholder git does not know either (`%x ` alone) stays literal as in git.
 *
 * Found (medium — silently wrong output, exit 0, for placeholders agents and scripts use to parse history; 2 of 2 runs).
 *
 * Suggested fix: src/git/cli/format.ts (the `placeholder` regex and the switch at its top): add `%xNN` (the byte),
 * `%ci %ai` (`YYYY-MM-DD HH:MM:SS ±HHMM`, already `formatDate`), `%ct %at` (seconds), `%cI %aI` (strict ISO 8601),
 * `%cs %as` (`YYYY-MM-DD`), `%d %D` (the refs naming the commit, `HEAD -> b` first, as git's decoration), `%aN %cN
 * %aE %cE` (no mailmap: as `%an`…); or, for any git placeholder left out, refuse the format (exit 128, naming it)
 * rather than print it as text.
 *
 * Fixed: src/git/cli/format.ts reads a format as git's format_commit_one (`tokenize`/`placeholderAt`): every
 * placeholder above plus `%aD %cD %ar %cr %al %cl %aL %aE %f %e %m %S %g… %N %C…` and the `+`/`-`/` ` magic; `%d`/`%D`
 * from the refs (commands.ts `withExtras`: HEAD first, the rest by full name descending, as git); an unknown one stays
 * literal as in git, one git knows that is not implemented (`%<(…)`, `%w(…)`, `%G?`, `%ah`, …) exits 129 naming it.
 * Siblings: test/node/fix27/git-cli-gd.test.ts.
 */
import { describe, expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "Shell User", email: "shell@example.com" } } };

describe("attack27c: git log --format placeholders", () => {
  it("expands %x09, %ci, %ai, %ct, %at, %cI, %aI, %as, %cs, %d, %D, %aN, %cE as git 2.39", { timeout: 120_000 }, async () => {
    const r = await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace/r", { recursive: true });
      return sh(
        ws,
        [
          "export GIT_AUTHOR_DATE='1700000000 +0000' GIT_COMMITTER_DATE='1700000000 +0000' GIT_COMMITTER_NAME='Shell User' GIT_COMMITTER_EMAIL=shell@example.com",
          "git init -q -b main; echo one > a.txt; mkdir -p d/e; echo b > d/b.txt; echo c > d/e/c.txt; git add .; git commit -q -m first; git tag v1",
          "git log -1 --format='%h%x09%s|%ci|%ai|%ct|%at|%cI|%aI|%as|%cs|%d|%D|%aN|%cE'",
        ].join("\n"),
        { cwd: "/workspace/r" },
      );
    }, withGit);
    expect(r.stderr).toBe("");
    // Was: "f4866ac%x09first|%ci|%ai|%ct|%at|%cI|%aI|%as|%cs|%d|%D|%aN|%cE\n".
    expect(r.stdout).toBe(
      "f4866ac\tfirst|2023-11-14 22:13:20 +0000|2023-11-14 22:13:20 +0000|1700000000|1700000000|2023-11-14T22:13:20+00:00|2023-11-14T22:13:20+00:00|2023-11-14|2023-11-14| (HEAD -> main, tag: v1)|HEAD -> main, tag: v1|Shell User|shell@example.com\n",
    );
  });
});
