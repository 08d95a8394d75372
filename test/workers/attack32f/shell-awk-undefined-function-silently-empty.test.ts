/**
 * Issue 20, thirty-second attack run: awk calls a function that is neither built in nor defined — a typo, or a gawk
 * extension the interpreter lacks (`asort`, `asorti`, `strtonum`, `patsplit`) — as if it returned "": the program
 * runs on, prints blanks and exits 0, where gawk 5.2.1 and mawk 1.3.4 refuse the program (`function `g' not defined`,
 * `$?` 2) before running anything.
 * Tried: side by side with gawk 5.2.1 and mawk 1.3.4: `asort(a)`, `asort(a, b)`, `asorti(a, b)`, `strtonum("0x1A")`,
 * `patsplit(...)`, a misspelt user function next to a defined one; srand/rand, printf formats, substr, split, int,
 * CONVFMT/OFMT, sums of floats.
 * Held: user-defined functions, `gensub`, the documented "not implemented" refusals (`strftime`, `systime`,
 * `mktime` exit 2 with a message), a printf with too few arguments (exit 2).
 * Found (medium — an agent's `n = asort(vals)` or a typo in a function name silently computes blanks / a wrong
 * order with status 0, so the script goes on with wrong numbers; 2 of 2 runs).
 * Suggested fix: the awk parser/interpreter (just-bash's awk chunk, src/backends/worker-shell/isolate/awk*.ts):
 * after parsing, check every `call` node's name against the built-ins and the program's `function`s, and fail with
 * `awk: function `NAME' not defined`, exit 2, before BEGIN runs (or implement asort/asorti/strtonum as gawk).
 *
 * Fixed: src/backends/worker-shell/isolate/awk-funcs.ts (patched in by scripts/gen-shell.mjs, AW32_PATCHES, fixer AW,
 * run 32): `asort`, `asorti` and `strtonum` are built in as gawk's (numbers before strings; asorti by index strings;
 * `0x` hex, leading-0 octal); a call of a function neither built in nor defined is gawk's fatal error when the call is
 * reached (`awk: function `g' not defined`, status 2; the output before it stays, and a call in dead code is not an
 * error, as gawk 5.2.1 — mawk refuses the whole program). Siblings in test/workers/fix32/awk-power-funcs-rand.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("awk refuses a call to an undefined function with exit 2 instead of returning blanks", async () => {
  const out = await shellCases({ files: { "nums.txt": "3\n1\n2\n" } }, [
    `awk 'function f(x) { return x*2 } BEGIN { print f(3), g(2) }'; echo rc=$?`,
    `awk '{ a[NR] = $1 } END { n = asort(a); for (i = 1; i <= n; i++) print a[i] }' nums.txt; echo rc=$?`,
    `awk 'BEGIN { print strtonum("0x1A") + 1 }'; echo rc=$?`,
  ]);
  expect(out.map(([c, o, e]) => [c, o, e === "" ? "" : "error"])).toEqual([
    // Was: "6 \nrc=0\n", no stderr (gawk: "awk: cmd. line:1: fatal: function `g' not defined")
    [`awk 'function f(x) { return x*2 } BEGIN { print f(3), g(2) }'; echo rc=$?`, "rc=2\n", "error"],
    // Was: "rc=0\n" (gawk prints 1 2 3; mawk: "function asort never defined", 2)
    [`awk '{ a[NR] = $1 } END { n = asort(a); for (i = 1; i <= n; i++) print a[i] }' nums.txt; echo rc=$?`, expect.stringMatching(/^(1\n2\n3\nrc=0|rc=2)\n$/), expect.anything()],
    // Was: "1\nrc=0\n" (gawk: 27; mawk refuses, 2)
    [`awk 'BEGIN { print strtonum("0x1A") + 1 }'; echo rc=$?`, expect.stringMatching(/^(27\nrc=0|rc=2)\n$/), expect.anything()],
  ]);
});
