/**
 * Issue 20, twenty-seventh attack run: the shell's `printf` builtin prints `%g` wrong whenever C would use an
 * exponent or a value has trailing zeros in its integer part: `printf %g 100000` is `1` (bash `100000`), `120000`
 * is `12`, `-100000` is `-1`, `1e10` is `1e+01`, `1e-10` is `1e-01`, `1e100` is `1e+01`, `%G 1e-10` is `1E-01`;
 * `0.00001` is `0.00001` (C: `1e-05`). The trailing-zero trimming of `%g` eats the zeros of the integer part and of
 * the exponent — a number off by powers of ten, status 0. awk's printf (fixed in run 24) is right.
 * Tried: side by side with GNU bash 5.2.15 — `%g`/`%G` of 10…1234567, 100000, 200000, 120000, 1e5, 1e6, 1e10,
 * 3e20, 1e100, 1e-10, 1e-20, 2.5e-30, 0.0001, 0.00001, -100000; `%.3g %.10g %#g %-8g %08g %.2g %.1g`; `%e %E`;
 * awk's printf `%g` of the same.
 * Held: `%g` of 10, 100, 1000, 10000, 99999, 1234567, 0.5, 3, 0.0001, 1e6, 123456789; precision and flags on
 * 3.14159/1/2.5; `%e`/`%E`; awk.
 * Found (medium — a number printed wrong by powers of ten, silently; 2 of 2 runs).
 * Suggested fix: in the shell printf's `%g` (just-bash's printf builtin, patched by scripts/gen-shell.mjs), strip
 * trailing zeros only from the fraction (after the `.` and before any `e`) and choose the style by the exponent as
 * C does (`P > X ≥ -4` → `%f` with precision P-1-X, else `%e` with P-1); awk.ts's C-style formatter already does
 * this and could be shared.
 * Fixed: printf's `%e %E %f %F %g %G` go to src/backends/worker-shell/isolate/glob-printf.ts `printfFloat`, which reads
 * the argument as bash's long double (strtold: inf, nan, hex floats, `'c`, invalid numbers and range warnings) and
 * prints it with awk.ts's exact C formatter (`formatExact`, shared; `%.1g` of 99 is now `1e+02` there too).
 * Siblings in test/workers/fix27/shell-glob-printf-sk.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("printf %g and %G as C: exponent and integer zeros kept", async () => {
  const out = await shellCases({}, [
    "printf '%g|' 100000 200000 120000 -100000 1e5; echo",
    "printf '%g|' 1e10 3e20 1e100 1e-10 1e-20 2.5e-30 0.00001; echo",
    "printf '%G|%G\\n' 100000 1e-10",
  ]);
  expect(out).toEqual([
    // Was: "1|2|12|-1|1|\n".
    ["printf '%g|' 100000 200000 120000 -100000 1e5; echo", "100000|200000|120000|-100000|100000|\n", ""],
    // Was: "1e+01|3e+02|1e+01|1e-01|1e-02|2.5e-03|0.00001|\n".
    ["printf '%g|' 1e10 3e20 1e100 1e-10 1e-20 2.5e-30 0.00001; echo", "1e+10|3e+20|1e+100|1e-10|1e-20|2.5e-30|1e-05|\n", ""],
    // Was: "1|1E-01\n".
    ["printf '%G|%G\\n' 100000 1e-10", "100000|1E-10\n", ""],
  ]);
});
