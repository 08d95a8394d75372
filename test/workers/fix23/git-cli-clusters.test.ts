/**
 * Issue 20, twenty-third attack run (lead engineer): the git CLI clustered single-letter flags only for `commit
 * -am` and `clean -fdn`, so `git commit -qm msg` failed with `unknown option '-qm'` (nothing committed) and
 * `git branch -fd x`, `git status -suno` were refused; git's parse-options clusters them in every command. Also
 * run 22's left-alone `\[ab\].txt` (an escaped glob naming `[ab].txt` literally) — it matches as git does. Each
 * expectation is what git 2.39.5 printed for the same commands on this machine.
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { shellCases } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "T", email: "t@e" } } };
const setup = `git init -q -b main; for x in a.txt b.txt "[ab].txt"; do echo 1 > "$x"; done; git add -A; git commit -qm i; echo 2 > a.txt; echo 2 > "[ab].txt"; `;
const cases: [string, string][] = [
  [`${setup}git commit -qam x; git log --oneline | wc -l; git status -suno; git branch x; git branch -fd x | sed 's/was [0-9a-f]*/was OID/'; git branch`, "2\nDeleted branch x (was OID).\n* main\n"],
  [`${setup}git checkout -- "\\[ab\\].txt"; cat a.txt "[ab].txt"`, "2\n1\n"],
  [`${setup}git add "\\[ab\\].txt"; git status --porcelain=v1`, "M  [ab].txt\n M a.txt\n"],
  [`${setup}git ls-files "\\[ab\\].txt"; git diff --name-only -- "\\[ab\\].txt"; git rm -q --cached "\\[ab\\].txt"; git status --porcelain=v1`, "[ab].txt\n[ab].txt\nD  [ab].txt\n M a.txt\n?? [ab].txt\n"],
];

it("single-letter flags cluster in every git command, and an escaped glob names its file literally, as git", async () => {
  const out = await shellCases({}, cases.map(([command]) => command), { collect: (_ws, _c, r) => r.stdout + r.stderr, workspace: withGit });
  expect(out).toEqual(cases.map(([, expected]) => expected));
});
