/**
 * Issue 20, twenty-fifth attack run: shell arithmetic is not bash's 64-bit signed integers. Shifts and bitwise
 * operators work on 32 bits and everything else on doubles clamped to ±(2^53 − 1):
 * `echo $((1<<31))` is `-2147483648` (bash 5.2: `2147483648`), `$((1<<32))` `1` (`4294967296`), `$((2**53+1))`
 * `9007199254740992` (`…993`), `$((9223372036854775807))` and `$((0x7fffffffffffffff))` `9007199254740991`,
 * `$((123456789012345678 * 10))` `90071992547409900` (`1234567890123456780`), `$((9007199254740993 % 10))` `1`
 * (`3`); `printf '%d' 9007199254740993` and `[ 9007199254740993 -gt 9007199254740992 ]` (false) go the same way, and
 * `$((2**63))` prints `9223372036854776000` (bash wraps: `-9223372036854775808`). All with status 0, so masks, sizes
 * in bytes past 8 PiB, nanosecond timestamps (`date +%s%N` is ~1.7e18) and ids are silently wrong.
 * Related: `seq 9007199254740992 9007199254740994` never advances (the double does not change) and ends the whole
 * run with `bash: seq: iteration limit exceeded (100000)`, exit 126 (GNU seq prints the three numbers) — not asserted.
 * Tried: + - * / % ** << >> & | ~, hex, let, $(( )) on variables, printf %d/%u/%x, test -gt, seq, expr.
 * Held: expr (exact digits), results within ±2^31 for shifts and ±2^53 otherwise, ~0, -1 >> 1, division by 0 and
 * a negative exponent refused.
 * Found (medium — silently wrong numbers, exit 0; 2 of 2 runs).
 * Suggested fix: evaluate shell arithmetic (and printf's integer conversions, test's -eq/-gt…) with BigInt wrapped
 * to 64-bit two's complement (BigInt.asIntN(64, …)), as bash's intmax_t; shifts by the count mod 64.
 * Fixed: src/backends/worker-shell/isolate/arith64.ts (patched in by scripts/gen-shell.mjs, marker SZ) evaluates
 * the operators, number literals (wrapped: 9223372036854775808 is -9223372036854775808), numbers read from variables,
 * ++/-- and op= on int64: numbers while safe, BigInt wrapped by BigInt.asIntN(64, …) past 2^53; `$(( ))`,
 * `declare -i` and `[[ a -gt b ]]` get the exact value, indexes and offsets a number as before. `test`'s -eq…-ge
 * read int64 operands (out of range is invalid, status 2), printf's %d %i take a signed and %u %o %x %X an
 * unsigned 64-bit argument (-1 is 18446744073709551615, ffffffffffffffff), length modifiers %ld %lld %jd work,
 * and every invalid argument is reported. Siblings: test/workers/fix25/shell-arith64.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("shell arithmetic is 64-bit signed, as bash", async () => {
  const out = await shellCases({}, [
    "echo $((1<<31)) $((1<<32)) $((1<<62))",
    "echo $((2**53+1)) $((9223372036854775807)) $((0x7fffffffffffffff))",
    "echo $((123456789012345678 * 10)) $((9007199254740993 % 10)) $((2**63))",
    "x=9007199254740993; printf '%d\\n' \"$x\"; [ \"$x\" -gt 9007199254740992 ] && echo greater",
  ]);
  expect(out).toEqual([
    // Was: "-2147483648 1 1073741824\n".
    ["echo $((1<<31)) $((1<<32)) $((1<<62))", "2147483648 4294967296 4611686018427387904\n", ""],
    // Was: "9007199254740992 9007199254740991 9007199254740991\n".
    ["echo $((2**53+1)) $((9223372036854775807)) $((0x7fffffffffffffff))", "9007199254740993 9223372036854775807 9223372036854775807\n", ""],
    // Was: "90071992547409900 1 9223372036854776000\n".
    ["echo $((123456789012345678 * 10)) $((9007199254740993 % 10)) $((2**63))", "1234567890123456780 3 -9223372036854775808\n", ""],
    // Was: "9007199254740992\n".
    ["x=9007199254740993; printf '%d\\n' \"$x\"; [ \"$x\" -gt 9007199254740992 ] && echo greater", "9007199254740993\ngreater\n", ""],
  ]);
});
