/**
 * Issue 20, thirty-third attack run: the shell's `git add -A` (also `git add .` / `git add sub`) of a directory that
 * is itself a git repository (a `sub/.git` made by `git init` or `git clone` inside the working tree) stages the
 * nested repository's working files one by one as ordinary blobs (`A  sub/s`), so the next commit of the outer
 * repository holds a copy of another repository's files. git 2.39.5 records the nested repository as one gitlink
 * entry (`160000 commit <its HEAD>	sub`, status `A  sub`) and warns `adding embedded git repository: sub`.
 * Tried: `git init` in `sub` inside a repository with one commit, then `git add -A` in the outer one, with real git
 * 2.39.5 on the same script (`git status --porcelain=v1`, `git ls-tree HEAD` after a commit).
 * Held: `git status` lists the nested repository as `?? sub/` and `git clean -fd` leaves it alone (git: same);
 * `sub/.git` itself is not staged.
 * Found (medium — a commit holding the wrong content: an agent that clones a dependency or a second project into a
 * repository's tree and runs `git add -A && git commit` commits every file of it, thousands for a real clone, where
 * git records one gitlink; 3 of 3 runs): status `A  sub/s` (git `A  sub`), `git ls-tree HEAD` lists
 * `040000 tree … sub` (git `160000 commit <sub's HEAD>	sub`).
 * Suggested fix: in the add walk (src/git, the `add`/`addAll` path that enumerates working-tree files), treat a
 * directory holding a `.git` (directory or file) below the repository root as a gitlink: stage mode 160000 with the
 * oid its HEAD resolves to (as git's `add` does for an embedded repository) and do not descend into it; print git's
 * `warning: adding embedded git repository: sub` and hint.
 *
 * Fixed: the working-tree walk (src/git/ops/walk.ts) no longer enters an untracked directory holding a `.git` with
 * nothing of it in the index; `add` (src/git/ops/repo.ts) stages it as one gitlink at its HEAD (`nestedHead`, an
 * unborn one fails `'sub/' does not have a commit checked out`, exit 128), `status` lists it `?? sub/`, and the CLI's
 * `add` prints git's `warning: adding embedded git repository: sub` and advice (issue 20, run 33, fixer GE).
 * Siblings: test/workers/fix33/git-gitlink-detached.test.ts.
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "Shell User", email: "shell@example.com" } } };

const SCRIPT =
  "mkdir r && cd r && git init -q -b main . && echo a > a && git add . && git commit -qm a && " +
  "mkdir sub && cd sub && git init -q -b main . && echo s > s && git add s && git commit -qm s && cd .. && " +
  "git add -A; echo rc=$?; git status --porcelain=v1; git commit -qm two; " +
  'git ls-tree HEAD sub; echo "160000 commit $(cd sub && git rev-parse HEAD)"';

it("git add -A of a nested repository stages one gitlink, not its files, as git 2.39.5", async () => {
  const r = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/t", { recursive: true });
    return sh(ws, SCRIPT, { cwd: "/t" });
  }, withGit);
  const lines = r.stdout.split("\n");
  // Was: "rc=0\nA  sub/s\n040000 tree <oid>\tsub\n160000 commit <oid>\n"
  expect(lines.slice(0, 2)).toEqual(["rc=0", "A  sub"]);
  expect(lines[2]).toBe(`${lines[3]}\tsub`);
});
