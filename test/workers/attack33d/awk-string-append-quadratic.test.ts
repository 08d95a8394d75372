/**
 * Issue 20, thirty-third attack run: awk's standard join idiom, appending each record to one variable
 * (`awk '{s = s $0 ","} END{print s}'`), takes time super-linear in the number of records: 25,000 lines 0.4 s,
 * 50,000 lines 4.1 s (×11 for ×2 input), 100,000 lines past a 20 s `timeoutMs` (200,000 lines ran 73 s before the
 * 20 s timeout stopped it) — gawk 5.2.1 does 100,000 lines in 0.02 s. The string is only 0.6 MB; the input is an
 * ordinary list (IDs, file names, a column) an agent joins into one line.
 * Tried: a differential run against gawk 5.2.1 of the append at 20,000/25,000/50,000/100,000/200,000 records, an
 * append in an END loop over an array (100,000 records: timed out too); `${x// /,}` on a 1.3 MB string (stopped by the documented
 * pattern_operations work limit, status 126); `sed -n 'H;${x;s/\n/,/g;p}'` and `paste -sd,` over 100,000 lines
 * (0.1–0.7 s, linear); `tr -d '\n'` on 1,000,000 lines.
 * Held: `paste -sd,`, sed's hold-space join, `tr`, awk arrays of 100,000 keys, `sort | uniq -c` of 500,000 lines
 * (5.6 s, linear), awk `gsub` on a 2 MB line.
 * Found (medium — time super-linear in input an agent plausibly gives; the run overshoots its timeout while the
 * awk program computes, holding the shell; 100,000 timed out in 2 of 2 runs, the
 * test's 80,000 in 1 of 1): 20,000 → 0.23 s, 25,000 → 0.38 s, 50,000 → 4.1 s,
 * 100,000 → timed out (124) at the 20 s asked; 200,000 → 73 s then 124.
 * Suggested fix: src/backends/worker-shell/isolate/awk.ts (and the just-bash awk interpreter it wraps): find what
 * each assignment or concatenation does over the whole value (a numeric-string check, a byte-length or memory
 * count, a copy) and make it O(length of the appended part) — e.g. cache the strnum/byte length per value, or
 * count the memory bound incrementally — so appending N records is linear, as gawk.
 * Fixed: storing a string-valued expression no longer tests its text against the numeric-string pattern (which made
 * V8 flatten, i.e. copy, the whole concatenation per assignment); isolate/awk.ts `keep` wraps every string of kind
 * "string" as an AwkString without reading it (issue 20, run 33, fixer AQ). Siblings:
 * test/workers/fix33/awk-append-linear.test.ts.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("awk appending 80,000 records to one string finishes in seconds with gawk's result", async () => {
  const r = await inShellWorkspace(async (ws) => {
    const t = Date.now();
    const res = await sh(ws, `seq 80000 | awk '{s = s $0 ","} END{print length(s)}'`, { cwd: "/workspace", timeoutMs: 10_000 });
    return { out: res.stdout, code: res.exitCode, ms: Date.now() - t };
  });
  // Was: exitCode 124 ("Execution timed out after 10000 ms") after 10–40 s; gawk 5.2.1: 468894 in 0.015 s.
  expect([r.out, r.code, r.ms < 8_000]).toEqual(["468894\n", 0, true]);
}, 180_000);
