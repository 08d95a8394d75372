/**
 * Issue 20, twenty-first attack run: the git CLI takes a pathspec's glob characters literally — `git ls-files
 * '*.txt'`, `git status -s -- '*.txt'` and `git diff --name-only -- 'sub/*'` list NOTHING (exit 0), and `git add
 * '*.txt'` fails 128, where real git matches the pattern (pathspec globbing, `*` crossing `/`).
 * Tried: a repository of a.txt, b.md, sub/c.txt, sub/d.md committed by real git, a.txt and sub/c.txt edited, new.txt
 * untracked; the same argv on a disk copy with real git 2.39.5: ls-files '*.txt', ls-files 'sub/*', status -s --
 * '*.txt', diff --name-only -- 'sub/*', add '*.txt' (then status --porcelain=v1).
 * Held: literal pathspecs (odd names: leading '-', spaces, tab, quote, é, '*star.txt' and '[ab].txt' as literal
 * names) list, diff, add, rm --cached and checkout -- as real git; `diff --stat/--numstat/--name-status` quoting;
 * `./sub/../a.txt` pathspecs.
 * Found (medium — a silent wrong answer: an agent asking which .txt files changed is told none; 2 of 2 runs): ls-files
 * and status and diff print "" exit 0; add '*.txt' prints `git add: pathspec '*.txt' did not match any files`, 128,
 * nothing staged. Real git lists/stages a.txt, sub/c.txt (and new.txt for add). Not in docs/git.md or porting.md.
 * Suggested fix: match a pathspec holding `*`, `?` or `[` as git does (literal prefix, then wildmatch without
 * WM_PATHNAME over the whole path, a literal match first), with the Workspace's bounded glob matcher; or refuse such
 * a pathspec with a clear "glob pathspecs are not supported" error (exit 128) instead of matching nothing.
 * Fixed: src/git/ops/pathspec.ts `matchesSpec` (shared by the typed API's `paths` and the CLI's `specMatches`) tries
 * the literal match, then — for a spec holding `*`, `?`, `[` or `\` — `wildmatch`, a port of git's wildmatch
 * without WM_PATHNAME on UTF-8 bytes (each run between `*`s found by Shift-And: linear in the name); `worthEntering`
 * enters a directory the glob's literal prefix agrees with. The CLI's status collapses an untracked directory only
 * where git does (`u*` → `u/`, `*.txt` → `u/f.txt`), rm prints each removed file. Side by side with real git over 68
 * patterns in test/node/fix21/git-pathspec-glob.test.ts.
 */
import { writeFileSync } from "node:fs";
import { afterAll, expect, it } from "vitest";
import { cleanupScratch, committedRepo, diskCopy, identityEnv, realGitResult, workspaceCopy } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

const argvs = [
  ["ls-files", "*.txt"],
  ["ls-files", "sub/*"],
  ["status", "-s", "--", "*.txt"],
  ["diff", "--name-only", "--", "sub/*"],
  ["add", "*.txt"],
];

it("a glob pathspec matches as in real git (ls-files, status, diff, add)", async () => {
  const base = committedRepo({ "a.txt": "a\n", "b.md": "b\n", "sub/c.txt": "c\n", "sub/d.md": "d\n" }, "one");
  const ours: unknown[] = [];
  const theirs: unknown[] = [];
  for (const argv of argvs) {
    const disk = diskCopy(base);
    const { ws, git } = await workspaceCopy(base);
    for (const [p, c] of [["a.txt", "A\n"], ["sub/c.txt", "C\n"], ["new.txt", "n\n"]] as const) {
      writeFileSync(`${disk}/${p}`, c);
      await ws.fs.writeFile(`/repo/${p}`, c);
    }
    const r = await git.cli({ argv, cwd: "/repo", env: identityEnv() });
    const status = (await git.cli({ argv: ["status", "--porcelain=v1"], cwd: "/repo", env: identityEnv() })).stdout;
    ours.push({ argv, exitCode: r.exitCode, stdout: r.stdout, status });
    const real = realGitResult(disk, ...argv);
    theirs.push({ argv, exitCode: real.status, stdout: real.stdout, status: realGitResult(disk, "status", "--porcelain=v1").stdout });
    // `status -s` prints an untracked file ` ? p` here, `?? p` in real git (docs/git.md, spec 04 §2.5): compared as that.
    if (argv.includes("-s")) ours[ours.length - 1] = { ...(ours[ours.length - 1] as object), stdout: r.stdout.replace(/^ \? /gm, "?? ") };
  }
  const unstaged = " M a.txt\n M sub/c.txt\n?? new.txt\n";
  // real git 2.39.5, pinned
  expect(theirs).toEqual([
    { argv: argvs[0], exitCode: 0, stdout: "a.txt\nsub/c.txt\n", status: unstaged },
    { argv: argvs[1], exitCode: 0, stdout: "sub/c.txt\nsub/d.md\n", status: unstaged },
    { argv: argvs[2], exitCode: 0, stdout: " M a.txt\n M sub/c.txt\n?? new.txt\n", status: unstaged },
    { argv: argvs[3], exitCode: 0, stdout: "sub/c.txt\n", status: unstaged },
    { argv: argvs[4], exitCode: 0, stdout: "", status: "M  a.txt\nA  new.txt\nM  sub/c.txt\n" },
  ]);
  expect(ours).toEqual(theirs);
});
