/**
 * Issue 20, twentieth attack run: the git CLI takes an empty pathspec as the cwd — `git checkout -- ''` (so
 * `git checkout -- "$F"` with F empty) throws away every uncommitted change under it; real git refuses "".
 * Tried: a repository with a.txt and sub/b.txt committed, both edited and new.txt untracked, at the root:
 * `git checkout -- ''`, `git checkout ''`, `git checkout HEAD -- ''`, `git add ''`, `git rm -r --cached ''`,
 * `git reset ''`, `git diff ''`, `git clean -fd ''`; side by side with real git 2.39.5 on the same tree.
 * Held: `git clean -fd ''` is refused (129, unexpected argument).
 * Found (high — silent loss of uncommitted work from an empty variable): `checkout -- ''`, `checkout ''` and
 * `checkout HEAD -- ''` restore every tracked file from HEAD (a.txt and sub/b.txt back to "a\n", "b\n"), exit 0
 * (`checkout ''` prints `Updated 1 path from HEAD`); `add ''` stages everything, `rm -r --cached ''` unstages
 * everything, exit 0 (2 of 2 runs). Real git: `fatal: empty string is not a valid pathspec. please use . instead
 * if you meant to match all paths`, exit 128, nothing changed. CliContext.pathspec("") resolves "" against the
 * cwd (normalizePath) and returns "." at the root.
 * Suggested fix: CliContext.pathspec refuses "" (exit 128 with git's message) before resolving it.
 * Fixed: CliContext.pathspec throws GitError EPATHSPEC (exit 128) with real git's message for "" before resolving
 * it, so every command taking paths refuses it; `git diff ''` (no `--`) is `ambiguous argument ''`, as real git.
 */
import { writeFileSync } from "node:fs";
import { afterAll, expect, it } from "vitest";
import { cleanupScratch, committedRepo, diskCopy, identityEnv, realGitResult, workspaceCopy } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

const argvs = [
  ["checkout", "--", ""],
  ["checkout", ""],
  ["checkout", "HEAD", "--", ""],
  ["add", ""],
  ["rm", "-r", "--cached", "-q", ""],
];
const FATAL = "empty string is not a valid pathspec. please use . instead if you meant to match all paths";
const edits = { "a.txt": "edited\n", "sub/b.txt": "edited b\n", "new.txt": "untracked\n" };

const base = committedRepo({ "a.txt": "a\n", "sub/b.txt": "b\n" }, "one");

it("real git refuses an empty pathspec (128) and changes nothing (the oracle)", () => {
  for (const argv of argvs) {
    const dir = diskCopy(base);
    for (const [name, text] of Object.entries(edits)) writeFileSync(`${dir}/${name}`, text);
    const before = realGitResult(dir, "status", "--porcelain").stdout;
    const r = realGitResult(dir, ...argv);
    expect({ argv, status: r.status, stderr: r.stderr }).toEqual({ argv, status: 128, stderr: `fatal: ${FATAL}\n` });
    expect(realGitResult(dir, "status", "--porcelain").stdout).toBe(before);
  }
});

it("the Workspace git CLI refuses it too: exit 128, edits and index kept", async () => {
  const out: { argv: string[]; exitCode: number; fatal: boolean; files: string[]; status: string }[] = [];
  for (const argv of argvs) {
    const { ws, git } = await workspaceCopy(base);
    for (const [name, text] of Object.entries(edits)) await ws.fs.writeFile(`/repo/${name}`, text);
    const r = await git.cli({ argv, cwd: "/repo", env: identityEnv() });
    const files = await Promise.all(Object.keys(edits).map((name) => ws.fs.readFile(`/repo/${name}`, "utf8")));
    const status = (await git.cli({ argv: ["status", "--porcelain=v1"], cwd: "/repo", env: identityEnv() })).stdout;
    out.push({ argv, exitCode: r.exitCode, fatal: r.stderr.includes(FATAL), files, status });
  }
  expect(out).toEqual(
    argvs.map((argv) => ({ argv, exitCode: 128, fatal: true, files: Object.values(edits), status: " M a.txt\n M sub/b.txt\n?? new.txt\n" })),
  );
});
