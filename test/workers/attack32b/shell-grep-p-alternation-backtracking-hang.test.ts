/**
 * Issue 20, thirty-second attack run: grep -P's guard against exponential backtracking on V8 (NESTED_REPEAT_REFUSAL,
 * a repeated group holding an unbounded repeat) misses a repeated alternation whose branches overlap — `(.|\s)*`,
 * `(?:a|a)*`, `(a|aa)+` — so `grep -oP '(?<=<b>)(.|\s)*(?=</b>)'` on a line of 28–30 spaces after `<b>` runs for
 * seconds, and the time doubles with every two or so characters (40 spaces: hours). The match is synchronous in the
 * isolate, so `timeoutMs` does not stop it: with `timeoutMs: 2000` the exec answers only when the regex is done.
 * GNU grep 3.8 (PCRE2) answers the same command at once, status 1 (and `(?:a|a)*b` on 40 a's is `exceeded PCRE's
 * backtracking limit`, status 2, at once).
 *
 * Tried: `(?=x)|(?:a|a)*b` on 20/22/24/30 a's (0.04 s, 0.09 s, 0.32 s, 29 s — past a 5 s timeoutMs, the result
 * came at 29 s as `timed out`, 124), `-Pw '(?:a|a)*b'`, `(a|aa)*\1b`, `(?:a{1,9}){1,9}b`, `(.|\s)*` between
 * lookarounds on 20/24 spaces (0.02 s, 0.2 s), `(\w|\s)*` (fast: the branches do not overlap); GNU grep 3.8 on the
 * host for each.
 * Held: the documented refusal of `(a+)+`/`(?=(a+)+$)` (status 2 before any line is read); lookbehinds with
 * alternations and variable length, back-references, `-oP` of several matches a line.
 * Found (medium — a grep form agents write (`(.|\s)*` / `(.|\n)*` between lookarounds to grab text) holds the
 * command, and the Durable Object, past its timeoutMs for minutes to hours on an ordinary line of spaces; 1 of 1
 * runs, timings above).
 * Suggested fix: src/backends/worker-shell/isolate/grep-perl.ts (`perlPattern`): count a repeated group whose
 * alternatives can match the same character (any `|` inside a group with an unbounded quantifier, at least when a
 * branch is `.`, a class or overlaps another) as `nested` and refuse it as `(a+)+` is refused — or rewrite
 * `(.|\s)`/`(.|\n)` to a single class (`[\s\S]`) before compiling; better, run the V8 path with a step budget.
 *
 * Fixed (run 32, fixer GP): src/backends/worker-shell/isolate/grep-perl.ts `disambiguate` reads the translated pattern
 * once for V8: a group of one-character alternatives that overlap (or together match every character) becomes one
 * class — `(.|\s)`, `(.|\n)`, `(\s|\S)`, `(.|[\r\n])` are `[\s\S]`, `(a|a)` is `[a]` (same matches, one way to make
 * them) — and a part repeated more than 8 times that can still match the same text two ways (alternatives not
 * provably disjoint, `(a|aa)+`; a variable-length character overlapping what follows it, `(?:a?a)*`) counts as
 * nested and is refused with NESTED_REPEAT_REFUSAL, status 2. `.` is PCRE2's (not a newline; JavaScript's also
 * missed \r, U+2028, U+2029). Siblings: test/workers/fix32/grep-p-overlap.test.ts.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("grep -oP '(?<=<b>)(.|\\s)*(?=</b>)' on 28 spaces answers at once, status 1, as GNU grep 3.8", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    await ws.fs.writeFile("/workspace/f", `<b>${" ".repeat(28)}\n`);
    const started = Date.now();
    const r = await sh(ws, "grep -oP '(?<=<b>)(.|\\s)*(?=</b>)' f", { cwd: "/workspace", timeoutMs: 2000 });
    return { result: [r.stdout, r.stderr, r.exitCode], inTime: Date.now() - started < 2000 };
  });
  // GNU grep 3.8: no output, status 1, in milliseconds. A refusal naming the pattern (status 2), as `(a+)+` is
  // refused, would be acceptable too; what is not is running past timeoutMs.
  // Was: { result: ["", "Execution timed out after 2000 ms\n", 124], inTime: false } (answered after 10-30 s on a loaded machine; 30 spaces took 30.7 s).
  expect(out.inTime).toBe(true);
  expect([["", "", 1]]).toContainEqual(out.result);
}, 120000);
