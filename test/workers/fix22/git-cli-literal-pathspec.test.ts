/**
 * Issue 20, twenty-second attack run (fixer G2), siblings of test/workers/attack22b/git-glob-pathspec-ignores-
 * literal-match.test.ts in real workerd, each expectation what git 2.39.5 printed for the same commands: git's
 * literal-first rule holds only where git applies it —
 *   - `add`: a glob naming a *directory* still globs (`[ab].txt/f`, `a.txt`, `b.txt` all staged);
 *   - `rm`: `rm '[ab].txt'` is printed alone; once `[ab].txt` is out of the index the same spec globs;
 *   - `checkout --`: a glob whose literal twin is not in the index globs (`a.txt` restored);
 *   - `ls-files`, `status`, `diff` glob as before;
 *   - the typed add, rm and checkout (with a ref) take the literal match alone.
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { inShellWorkspace, sh, shellCases } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "T", email: "t@e" } } };
const setup = `git init -q -b main; for f in a.txt b.txt '[ab].txt'; do echo 1 > "$f"; done; git add -A; git commit -q -m i; `;

it("the CLI takes a glob literally only where git does", async () => {
  const cases: [string, string][] = [
    [`git init -q -b main; echo 1 > a.txt; echo 1 > b.txt; mkdir '[ab].txt'; echo 1 > '[ab].txt/f'; git add '[ab].txt'; git status --porcelain=v1`, "A  [ab].txt/f\nA  a.txt\nA  b.txt\n"],
    [
      `${setup}git rm --cached '[ab].txt'; git rm -q --cached '[ab].txt'; git status --porcelain=v1`,
      "rm '[ab].txt'\nD  [ab].txt\nD  a.txt\nD  b.txt\n?? [ab].txt\n?? a.txt\n?? b.txt\n",
    ],
    [`${setup}git rm -q --cached '[ab].txt'; echo 2 > a.txt; git checkout -- '[ab].txt'; cat a.txt`, "1\n"],
    [`${setup}echo 3 > '[ab].txt'; echo 3 > b.txt; git ls-files '[ab].txt'; git status --porcelain=v1 -- '[ab].txt'; git diff --name-only '[ab].txt'`, "[ab].txt\na.txt\nb.txt\n M [ab].txt\n M b.txt\n[ab].txt\nb.txt\n"],
  ];
  const out = await shellCases({}, cases.map(([command]) => command), { collect: (_ws, _c, r) => r.stdout + r.stderr, workspace: withGit });
  expect(out).toEqual(cases.map(([, expected]) => expected));
});

it("the typed add, rm and checkout take a glob naming a path literally", async () => {
  const out = await inShellWorkspace(async (ws) => {
    const dir = "/workspace/t";
    await ws.fs.mkdir(dir, { recursive: true });
    await sh(ws, `${setup}echo 2 > a.txt; echo 2 > '[ab].txt'`, { cwd: dir });
    await ws.git.add({ dir, paths: ["[ab].txt"] });
    const added = await ws.git.status({ dir });
    await ws.git.checkout({ dir, ref: "HEAD", paths: ["[ab].txt"] });
    const restored = [await ws.fs.readFile(`${dir}/a.txt`, "utf8"), await ws.fs.readFile(`${dir}/[ab].txt`, "utf8")];
    await ws.git.rm({ dir, paths: ["[ab].txt"] });
    return { added, restored, removed: await ws.git.lsFiles({ dir }) };
  }, withGit);
  expect(out).toEqual({
    added: [
      { path: "[ab].txt", index: "M", worktree: " " },
      { path: "a.txt", index: " ", worktree: "M" },
    ],
    restored: ["2\n", "1\n"],
    removed: ["a.txt", "b.txt"],
  });
});
