/**
 * Issue 20, twenty-ninth attack run: after `git rm --cached secret.env` and adding `secret.env` to `.gitignore` (the
 * usual "stop tracking a file" steps), `git status --short` lists `secret.env` as untracked besides its staged deletion;
 * git 2.39 shows only `D  secret.env`, since a path absent from the index is untracked — and ignored here — whatever
 * HEAD holds. The same after `git add -A` and for `git rm -r --cached d` with a `*.env` rule: the agent is told the
 * secret is an untracked file to add.
 *
 * Tried: in the shell with git configured, side by side with git 2.39.5 (fixed dates): `git rm --cached -q
 * secret.env; echo secret.env >> .gitignore; git status --short`, then `git add -A; git status --short`; `git rm -r
 * --cached -q d` with `*.env` ignored; counting the `secret.env` lines (the ` ?`/`??` column layout is a known,
 * separate difference).
 * Held: `git add -A` / `git add .` do not stage the ignored file and the commit drops it (`git ls-files` as git); an
 * ignored file never tracked is left out of status; a tracked file matching a new ignore rule still shows ` M`.
 * Found (medium — `git status` reports an ignored file as untracked in a common workflow; 2 of 2 runs).
 * Suggested fix: src/git/ops/walk.ts (the row filter near `const untracked = !head && !stage && work`): apply the
 * `.gitignore` check to the working-tree side of any path absent from the index, also when HEAD has it — keep the
 * HEAD→index deletion, drop only the untracked working-tree entry.
 *
 * Fixed: src/git/ops/walk.ts (walkWorktree) asks the ignore rules of every path the index lacks, also when HEAD has
 * it; an ignored one loses only its working-tree side (the row keeps HEAD's blob: the staged deletion), and a
 * directory HEAD has is still entered for its deletions. status (every format), add, diff and commit -a agree with
 * git 2.39.5 — siblings in test/node/fix29/git-status-ignored-removed.test.ts (fixer GI).
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { shellCases } from "../shell/helpers.js";

const withGit = { git: createGitClient(), defaultGitIdentity: { name: "Shell User", email: "shell@example.com" } };
const setup =
  "export GIT_AUTHOR_DATE='1700000000 +0000' GIT_COMMITTER_DATE='1700000000 +0000'; git init -q -b main .; git add .; git commit -qm init; ";

it("a path removed from the index and ignored is not listed as untracked, as git", { timeout: 120_000 }, async () => {
  const out = await shellCases(
    { dirs: ["d"], files: { "a.txt": "1\n", "secret.env": "k\n", "d/s.env": "k\n", "d/k.txt": "k\n" } },
    [
      "git rm --cached -q secret.env; echo secret.env >> .gitignore; git status --short | grep secret",
      "git rm --cached -q secret.env; echo secret.env >> .gitignore; git add -A; git status --short | grep secret",
      "git rm -r --cached -q d; echo '*.env' > .gitignore; git add .; git status --short | grep 's.env'",
    ],
    { wrap: (c) => setup + c, collect: (_ws, command, r) => [command, r.stdout], workspace: { workspace: withGit } },
  );
  expect(out).toEqual([
    // Was: "D  secret.env\n ? secret.env\n".
    ["git rm --cached -q secret.env; echo secret.env >> .gitignore; git status --short | grep secret", "D  secret.env\n"],
    // Was: "D  secret.env\n ? secret.env\n".
    ["git rm --cached -q secret.env; echo secret.env >> .gitignore; git add -A; git status --short | grep secret", "D  secret.env\n"],
    // Was: "D  d/s.env\n ? d/s.env\n".
    ["git rm -r --cached -q d; echo '*.env' > .gitignore; git add .; git status --short | grep 's.env'", "D  d/s.env\n"],
  ]);
});
