/**
 * Issue 20, twenty-seventh attack run: the shell's `printf` builtin rounds `%.Nf` ties away from zero (JavaScript's
 * toFixed) where bash's C printf rounds an exact tie to even: `printf %.0f 2.5` is `3` (bash `2`), `0.5` is `1`
 * (`0`), `%.2f 0.125` is `0.13` (`0.12`), `%.1f 2.25` is `2.3` (`2.2`). `printf '%.0f' "$x"` is the common way to
 * round in a script, so half the ties come out one higher. Also `%f inf` prints `0.000000` (bash `inf`).
 * Tried: side by side with GNU bash 5.2.15 — `%.0f %.1f %.2f` of 2.5 0.5 1.5 0.125 2.25 3.5 (ties exact in binary,
 * so C's result does not depend on long double), `%f` of 1e20, inf; awk's printf of the same ties (fixed in run 24).
 * Held: 1.5, 3.5 (ties that round up to even either way); 1e20; awk.
 * Found (low — an off-by-one in the last digit on exact ties, silently; 2 of 2 runs).
 * Suggested fix: in the shell printf's `%f`/`%e` (just-bash's printf builtin, patched by scripts/gen-shell.mjs),
 * round the exact binary value ties-to-even as awk.ts's C-style formatter does (it could be shared), and print
 * `inf`/`-inf`/`nan` for those inputs.
 * Fixed: as shell-printf-g-drops-exponent-zeros — glob-printf.ts `printfFloat` with awk.ts's `formatExact` (exact
 * value, ties to even, 64-bit long double significand: `%.20f` of 0.1 is 0.10000000000000000000 as bash), `inf`,
 * `-inf`, `nan`, `-nan`. Siblings in test/workers/fix27/shell-glob-printf-sk.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("printf %.Nf rounds exact ties to even and prints inf, as bash", async () => {
  const out = await shellCases({}, [
    "printf '%.0f|' 2.5 0.5 1.5 3.5; echo",
    "printf '%.2f|%.1f\\n' 0.125 2.25",
    "printf '%f|%f\\n' inf -inf",
  ]);
  expect(out).toEqual([
    // Was: "3|1|2|4|\n".
    ["printf '%.0f|' 2.5 0.5 1.5 3.5; echo", "2|0|2|4|\n", ""],
    // Was: "0.13|2.3\n".
    ["printf '%.2f|%.1f\\n' 0.125 2.25", "0.12|2.2\n", ""],
    // Was: "0.000000|0.000000\n".
    ["printf '%f|%f\\n' inf -inf", "inf|-inf\n", ""],
  ]);
});
