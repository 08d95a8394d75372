/**
 * Issue 20, nineteenth attack run: the git command line's `git log --format=…` / `--pretty=format:…` (and `git show`
 * with a format) expands every placeholder of the format into one string (src/git/cli/format.ts formatCommit: a
 * `format.replace(…)` that returns the whole message for each `%B`, the whole body for each `%b`, the subject for
 * each `%s`, the author for each `%an`) BEFORE formatLog compares it with GIT_LOG_MAX_CHARS; the cut then keeps
 * 8 Mi characters of it. The format is two characters a copy, so a short command multiplies one commit message
 * (legal up to GIT_MAX_OBJECT_BYTES, 64 MiB; the eighteenth run's 27 KB pack carried four 24 MiB messages) by the
 * number of placeholders.
 * Tried: a Workspace repository with one commit whose message is "subject " and 1 MiB of "a" (one line);
 * `git.cli(["log", "--format=" + "%B" × n])` for n = 1, 16, 64; peak RSS (resourceUsage().maxRSS, the formatting is
 * one synchronous call) before and after each.
 * Held: the output is cut (7,340,251 characters and the `Log cut: commit <oid7> not shown in full; …` line for
 * n = 16 and 64; exit 0); n = 1 prints the message whole (1,048,586 characters).
 * Found (medium: a 128-character command makes a Durable Object of 128 MB build a 64 Mi-character string from a
 * 1 MiB message — 256 Mi characters from a 4 MiB one — and a hostile clone's 24 MiB message passes V8's string
 * limit with 22 placeholders): n = 16 grew peak RSS by 43 MiB, n = 64 by 137 MiB in 0.7 s (1 probe run; the test
 * below, n = 64: +147 MiB, 2 of 2 runs over 48 MiB), where the printed text is at most 8 Mi characters.
 * Suggested fix: expand the format into parts and stop at the room left (formatLog passes `room` to formatCommit,
 * which appends placeholder by placeholder and returns `whole: false` once the next part would pass it, cutting the
 * last part at a line as clipLines does), so no commit's text grows past GIT_LOG_MAX_CHARS plus one part.
 * Fixed: formatLog passes the room left to commitWithin (src/git/cli/format.ts), which expands the format part by
 * part (a literal stretch or one placeholder's value) and stops at room + 1 characters (all clipLines reads), so the
 * printed text and the `Log cut` line are as before; %s/%b split the message only when the format uses them.
 */
import { afterAll, expect, it } from "vitest";
import { cleanupScratch, newWorkspace } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);
const MiB = 1024 * 1024;
/** The process's peak resident set so far, in bytes (a synchronous formatting shows here, not in a sampler). */
const peakRss = () => process.resourceUsage().maxRSS * 1024;

it("git log --format=%B×64 of one 1 MiB message grows memory by under 48 MiB (it prints at most 8 Mi characters)", { timeout: 60_000 }, async () => {
  const { ws, git } = newWorkspace();
  await git.init({ dir: "/r" });
  await ws.fs.writeFile("/r/f", "x");
  await git.add({ dir: "/r", paths: ["f"] });
  const message = `subject ${"a".repeat(MiB)}\n`;
  await git.commit({ dir: "/r", message, author: { name: "A", email: "a@b.c" } });
  const before = peakRss();
  const r = await git.cli({ argv: ["log", `--format=${"%B".repeat(64)}`], cwd: "/r" });
  const grew = peakRss() - before;
  expect(r.exitCode).toBe(0);
  const oid7 = (await git.log({ dir: "/r" }))[0]!.oid.slice(0, 7);
  const cut =
    `Log cut: commit ${oid7} not shown in full; the log's text would pass 8388608 characters ` +
    "(GIT_LOG_MAX_CHARS): log fewer commits at a time (-n), or --oneline\n";
  // Today as well: 7 whole lines of the message, then the cut line.
  expect(r.stdout).toBe(message.repeat(7) + cut);
  // The answer (8 Mi characters at most, one byte each) and the 1 MiB message, each held once or twice.
  expect(Math.round(grew / MiB), "git log --format=%B×64: peak RSS grew (MiB)").toBeLessThan(48);
});
