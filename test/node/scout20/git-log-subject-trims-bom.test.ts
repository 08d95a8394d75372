/**
 * Issue 20, scout after the twentieth attack run: git keeps a leading U+FEFF (8e580c6) — checked `git log`.
 * Tried: the same commits in a Workspace repository (git.commit, test/node/git/repo-helpers.ts `twin`) and on disk
 * with the real git, messages `\uFEFFmsg`, `  indented` and `nbsp\u00a0` (one commit each, same dates, so the same
 * oids); `git log --format=%s` and `git log --oneline`.
 * Held: the commit objects are byte-identical (same oids); `%B` and the default `git log` keep the BOM.
 * Found (low — what the agent reads differs from git; 3 of 3 messages): the subject is built with JavaScript's
 * `String.prototype.trim()` (src/git/cli/format.ts, the subject lines), which strips U+FEFF, U+00A0 and leading
 * spaces (the `git stash` line `WIP on main: <oid> <subject>` too): ours prints `msg`, `indented`, `nbsp` where git prints `\uFEFFmsg`, `  indented`, `nbsp\u00a0` (git's
 * pretty.c keeps a line's leading characters and trims only ASCII whitespace at its end).
 * Suggested fix: in format.ts, test blank lines with an ASCII-whitespace regex (`/^[ \t\n\v\f\r]*$/`) and cut only
 * trailing ASCII whitespace from subject lines (`line.replace(/[ \t\n\v\f\r]+$/, "")`).
 * Fixed: splitMessage tests blank lines and cuts trailing whitespace with git's ASCII set (space, tab, LF, CR) only.
 */
import { afterAll, expect, it } from "vitest";
import { at, gitAt, twin, writeBoth } from "../git/repo-helpers.js";
import { TIME, cleanupScratch, realGit } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

it("git log --format=%s and --oneline keep a subject's U+FEFF, leading spaces and U+00A0 as git does", async () => {
  const { ws, git, dir, disk } = await twin();
  const messages = ["\uFEFFmsg", "  indented", "nbsp\u00a0"];
  for (const [i, message] of messages.entries()) {
    await writeBoth(ws, dir, disk, { "a.txt": `${i}\n` });
    await git.add({ dir, all: true });
    await git.commit({ dir, message: `${message}\n`, ...at(TIME + i) });
    gitAt(disk, TIME + i, "add", "-A");
    gitAt(disk, TIME + i, "commit", "-q", "--cleanup=verbatim", "-m", message);
  }
  // Held: the same commits.
  expect((await git.cli({ argv: ["rev-parse", "HEAD"], cwd: dir })).stdout).toBe(realGit(disk, "rev-parse", "HEAD"));
  const subjects = realGit(disk, "log", "--format=%s");
  expect(subjects).toBe("nbsp\u00a0\n  indented\n\uFEFFmsg\n");
  // Today: "nbsp\n" + "indented\n" + "msg\n".
  expect((await git.cli({ argv: ["log", "--format=%s"], cwd: dir })).stdout).toBe(subjects);
  expect((await git.cli({ argv: ["log", "--oneline"], cwd: dir })).stdout).toBe(realGit(disk, "log", "--oneline"));
});
