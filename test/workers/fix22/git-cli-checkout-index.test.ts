/**
 * Issue 20, twenty-second attack run (fixer G2), siblings of test/workers/attack22b/git-checkout-paths-discards-
 * staged-changes.test.ts in real workerd, each expectation what git 2.39.5 printed for the same commands:
 *   - `git checkout <path>` counts the files it writes (`Updated 0 paths from the index` for a clean file, 2 for two
 *     changed ones, 1 for a deleted one; nothing with `-q`); `git checkout <tree-ish> <path>` (no `--`) restores from that tree into the
 *     index too and prints `Updated 1 path from <tree7>`; `git checkout HEAD <nothing-there>` exits 1;
 *   - a new file staged on an unborn branch comes back from the index;
 *   - the typed `checkout` with `paths` and no `ref` restores from the index and keeps it; without `paths` `ref` is
 *     still required (`EUSAGE`).
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { GitError } from "../../../src/git/errors.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "T", email: "t@e" } } };
const init = "git init -q -b main; echo x > a; echo x > b; git add a b; git commit -q -m i; ";

it("checkout <path> and <tree-ish> <path> without -- print what git prints, counting files written", async () => {
  const cases: [string, [string, string, number]][] = [
    [`${init}git checkout a`, ["", "Updated 0 paths from the index\n", 0]],
    [`${init}echo y > a; echo y > b; git checkout a b; cat a b`, ["x\nx\n", "Updated 2 paths from the index\n", 0]],
    [`${init}rm a; git checkout a; cat a`, ["x\n", "Updated 1 path from the index\n", 0]],
    [
      `${init}echo y > a; git add a; echo z > a; git checkout HEAD a 2>../e; cat a; git status --porcelain=v1; t=$(git rev-parse 'HEAD^{tree}' | cut -c1-7); sed "s/$t/<tree>/" ../e`,
      ["x\nUpdated 1 path from <tree>\n", "", 0],
    ],
    [`${init}echo y > a; git checkout -q a; cat a`, ["x\n", "", 0]],
    [`${init}git checkout HEAD nothing`, ["", "git checkout: pathspec 'nothing' did not match any file(s) known to git\n", 1]],
    [`git init -q -b main; echo new > b; git add b; echo z > b; git checkout b; cat b; git status --porcelain=v1`, ["new\nA  b\n", "Updated 1 path from the index\n", 0]],
  ];
  const out = await inShellWorkspace(async (ws) => {
    const results: [string, string, number][] = [];
    for (const [i, [command]] of cases.entries()) {
      await ws.fs.mkdir(`/workspace/r${i}/w`, { recursive: true });
      const r = await sh(ws, command, { cwd: `/workspace/r${i}/w` });
      results.push([r.stdout, r.stderr, r.exitCode]);
    }
    return results;
  }, withGit);
  expect(out).toEqual(cases.map(([, expected]) => expected));
});

it("the typed checkout with paths and no ref restores from the index and leaves it; without paths ref is required", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/t", { recursive: true });
    await sh(ws, `${init}echo y > a; git add a; echo z > a; rm b`, { cwd: "/workspace/t" });
    await ws.git.checkout({ dir: "/workspace/t", paths: ["a", "b"] });
    const files = [await ws.fs.readFile("/workspace/t/a", "utf8"), await ws.fs.readFile("/workspace/t/b", "utf8")];
    const status = await ws.git.status({ dir: "/workspace/t" });
    const missing = await ws.git.checkout({ dir: "/workspace/t", paths: ["nope"] }).catch((e: GitError) => e.code);
    const noRef = await ws.git.checkout({ dir: "/workspace/t" } as never).catch((e: GitError) => [e.code, e.message]);
    return { files, status, missing, noRef };
  }, withGit);
  expect(out).toEqual({
    files: ["y\n", "x\n"],
    status: [{ path: "a", index: "M", worktree: " " }],
    missing: "EPATHSPEC",
    noRef: ["EUSAGE", "git checkout: ref must be a non-empty string, got undefined"],
  });
});
