/**
 * Issue 20, thirty-second attack run: awk parses `$2^2` as `$(2^2)` — the field whose number is 2^2, here the empty
 * `$4` — instead of `($2)^2`, so a sum of squares (`s += $2^2`), `$1^$2`, `$1^0.5` or `$NF^2` silently computes the
 * wrong number with status 0. POSIX awk's grammar, gawk 5.2.1 and mawk 1.3.4 bind `$` tighter than `^`.
 * Tried: side by side with gawk 5.2.1 and mawk 1.3.4: `$1^2`, `$2^2`, `$1**2`, `($1)^2`, `$NF^2`, `$1^2+$2^2`,
 * `s += $2^2` over records, `for (i...) s += $i^2`, `$1 ^ $2`, `$1^0.5`, `-$1^2`, `$1 ^ 2 / 2`; the other arithmetic
 * on fields. Same root: `$1 ^= 2` and `$1 ^ -1` are refused (`Unexpected token in field index`, exit 1).
 * Held: `($1)^2`, `sqrt($1)`, `$1*$2`, `$1/$2`, `$1%$2`, `$1-$2`, `$1++`/`$2--`, `-$1`, `$(1+1)`.
 * Found (high — the plain awk form of a square or power of a column (variance, distances, compound growth) prints a
 * wrong number and exits 0; 2 of 2 runs).
 * Suggested fix: the awk parser's field index (just-bash's awk chunk, `parseFieldIndex`/`parseFieldIndexPower` in the
 * bundled parser, patched into src/shell/generated/core.ts): a `$` takes only a primary (number, variable,
 * parenthesised expression, `$`, `++`/`--`/unary minus of those) as its index, so `^`/`**` after `$N` applies to the
 * field's value; drop the power step from the field-index grammar.
 *
 * Fixed: scripts/gen-shell.mjs (AW32_PATCHES, fixer AW, run 32) patches just-bash's awk parser: after `$` the field
 * index is a primary (`parseFieldIndexPrimary`; the power step is gone), so `^`/`**` after `$N`/`$i`/`$NF` raise the
 * field's value; a sign or `!` after `$` takes a unary expression (`$-x^2` is `$(-(x^2))`, as gawk); the right operand
 * of `^` may carry a sign (`2^-1`, `$1 ^ -1`, `$x^-1`), and `**=` is `^=`. Siblings in test/workers/fix32/awk-power-funcs-rand.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("awk $N^M is the field to the power M, not field number N^M", async () => {
  const out = await shellCases({ files: { "data.txt": "a 2\nb 3\n" } }, [
    `echo '3 4 5 6' | awk '{print $1^2, $2^2, $1**2, $NF^2, $1^2+$2^2}'`,
    `awk '{s += $2^2} END {print s}' data.txt`,
    `echo '2 3 9' | awk '{print $1 ^ $2, $3^0.5}'`,
    `echo '1 2 3' | awk '{ for (i = 1; i <= NF; i++) s += $i^2; print s }'`,
  ]);
  expect(out).toEqual([
    // Was: "3 6 3  9\n"
    [`echo '3 4 5 6' | awk '{print $1^2, $2^2, $1**2, $NF^2, $1^2+$2^2}'`, "9 16 9 36 25\n", ""],
    // Was: "0\n"
    [`awk '{s += $2^2} END {print s}' data.txt`, "13\n", ""],
    // Was: "2 2\n"
    [`echo '2 3 9' | awk '{print $1 ^ $2, $3^0.5}'`, "8 3\n", ""],
    // Was: "1\n"
    [`echo '1 2 3' | awk '{ for (i = 1; i <= NF; i++) s += $i^2; print s }'`, "14\n", ""],
  ]);
});
