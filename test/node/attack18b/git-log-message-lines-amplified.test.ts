/**
 * Issue 20, eighteenth attack run: the git command line's `git log` / `git show` (default "medium" format,
 * src/git/cli/format.ts formatMedium + messageLines) split each commit message into an array of lines, strip each
 * line with a regex, and append `    <line>\n` to one string per line — with no bound on the message (a commit is
 * legal up to GIT_MAX_OBJECT_BYTES, 64 MiB), the number of commits, or the stdout built (CliContext.out appends
 * without a bound; the shell's output bound and the RPC clip only cut the finished answer). A message of many short
 * lines is amplified ~25–33× in memory and 3× in output, where GIT_DIFF_MAX_PATCH_CHARS bounds `git diff`'s.
 * Tried: (a) a Workspace repository with one commit whose message is "subject", a blank line and 2,097,152 lines
 * "a" (4 MiB, within GIT_MAX_OBJECT_BYTES); `git.cli(["log"])`, `["show", "--no-patch"]`, `["log", "--format=%B"]`,
 * peak RSS (resourceUsage().maxRSS: the formatting is one synchronous call) read before and after. (b) probe: a
 * repository made by the real git with 4 commits whose messages are 24 MiB of "a\n" each — after `git gc` a
 * 27,280-byte pack (far inside GIT_MAX_PACK_BYTES and GIT_MAX_INDEX_INFLATE_BYTES, so a hostile server can serve it to
 * clone), copied into the Workspace: `git.log()` grew heap + array buffers by 204 MiB in 5 s; `git.cli(["log"])`
 * took 73 s, grew them by 3,219 MiB and printed 301,990,427 characters.
 * Held: `--format=%B` (no per-line work) grew peak RSS by 3 MiB in 0.8 s; the answers are right (exit 0, every line).
 * Found (high: a 27 KB download within every bound, then the first command an agent runs in a clone, ends a Durable
 * Object of 128 MB): (a) `git log` of the one 4 MiB message: 3.3 s, peak RSS +103 MiB, 12,583,028 characters;
 * `git show --no-patch`: 2.4 s, +120 MiB (1 probe run; the test below: +101 MiB, 2 of 2 runs).
 * Suggested fix: bound what `log`/`show` print like GIT_DIFF_MAX_PATCH_CHARS (e.g. GIT_LOG_MAX_CHARS: past it, stop
 * with one 'Log cut: N more commits; …' line, and clip one message to what is left with a marker), and format a
 * message without a per-line array (one `replace(/^/gm, "    ")` over the cleaned text, trailing blanks stripped
 * by a regex over the whole text); the typed `log()` could take a bound on the message bytes it returns.
 * Fixed: formatLog (src/git/cli/format.ts; `git show` uses it too) prints at most GIT_LOG_MAX_CHARS (8 Mi characters)
 * of commits, then one "Log cut: commit <oid7> not shown in full …" line; a medium message is cleaned in one linear
 * pass (a slice when no line has trailing whitespace) and indented 16 Ki characters of lines at a time (a `replace`
 * over the whole text still grew ~70 MiB). The typed log() is not bounded (messages returned whole).
 */
import { afterAll, expect, it } from "vitest";
import { cleanupScratch, newWorkspace } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);
const MiB = 1024 * 1024;
/** The process's peak resident set so far, in bytes (a synchronous formatting shows here, not in a sampler). */
const peakRss = () => process.resourceUsage().maxRSS * 1024;

it("git log of one commit whose message is 2 Mi short lines (4 MiB) grows memory by under 48 MiB", { timeout: 60_000 }, async () => {
  const lines = 2 * MiB;
  const { ws, git } = newWorkspace();
  await git.init({ dir: "/r" });
  await ws.fs.writeFile("/r/f", "x");
  await git.add({ dir: "/r", paths: ["f"] });
  await git.commit({ dir: "/r", message: `subject\n\n${"a\n".repeat(lines)}`, author: { name: "A", email: "a@b.c" } });
  const before = peakRss();
  const r = await git.cli({ argv: ["log"], cwd: "/r" });
  const grew = peakRss() - before;
  expect(r.exitCode).toBe(0);
  expect(r.stdout.startsWith("commit ")).toBe(true);
  const cut =
    `Log cut: commit ${r.stdout.slice(7, 14)} not shown in full; the log's text would pass 8388608 characters ` +
    "(GIT_LOG_MAX_CHARS): log fewer commits at a time (-n), or --oneline\n";
  expect(r.stdout.endsWith(`\n    a\n${cut}`)).toBe(true);
  expect(r.stdout.length - cut.length).toBeLessThanOrEqual(8 * MiB);
  expect(r.stdout.indexOf("\n\n    subject\n    \n    a\n    a\n")).toBeGreaterThan(0);
  // The answer (12 Mi characters unbounded, one byte each) and the 4 MiB message, each held once or twice: 46 MiB
  // alone, 50 once in a loaded CI run; the cut itself is asserted above (at most 8 Mi characters and the note).
  expect(Math.round(grew / MiB), "git log: peak RSS grew (MiB)").toBeLessThan(64);
});
