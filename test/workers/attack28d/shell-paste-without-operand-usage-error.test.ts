/**
 * Issue 20, twenty-eighth attack run: `paste` with no file operand prints `usage: paste [-s] [-d delimiters] file ...`
 * and exits 1 instead of reading standard input; GNU paste 9.1 reads stdin when no FILE is given. So
 * `… | paste -sd,` (join lines with commas), `… | paste -sd+ | bc` and `seq 3 | paste -s` give nothing; only the
 * explicit `-` operand works.
 * Tried: side by side with GNU coreutils 9.1 — `paste -sd,`, `paste -s -d,`, `paste -s`, with and without `-`,
 * and `paste -d: - -`.
 * Held: `paste -sd, -`, `paste -d: - -`, two file operands, `-d '\n'` escapes.
 * Found (medium — the usual "join lines" form fails; in `ids=$(… | paste -sd,)` the variable is silently empty
 * and the pipeline's status 0; 2 of 2 runs).
 * Suggested fix: just-bash's paste (bundled in src/shell/generated/core.ts, patch in scripts/gen-shell.mjs): when
 * there is no positional operand, read stdin as the operand `-` instead of returning the usage text.
 *
 * Fixed: paste with no file operand reads standard input as the operand `-` (scripts/gen-shell.mjs OP_PATCHES
 * "paste reads stdin without operands"; fixer OP, run 28).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("paste with no file operand reads standard input, as GNU paste", async () => {
  const out = await shellCases({}, [
    "seq 1 5 | paste -sd,; echo rc=$?",
    "seq 1 3 | paste -s",
    "ids=$(printf 'a\\nb\\n' | paste -sd,); echo \"[$ids]\"",
  ]);
  expect(out).toEqual([
    // Was: "rc=1\n", "usage: paste [-s] [-d delimiters] file ...\n".
    ["seq 1 5 | paste -sd,; echo rc=$?", "1,2,3,4,5\nrc=0\n", ""],
    // Was: "", usage.
    ["seq 1 3 | paste -s", "1\t2\t3\n", ""],
    // Was: "[]\n", usage.
    ["ids=$(printf 'a\\nb\\n' | paste -sd,); echo \"[$ids]\"", "[a,b]\n", ""],
  ]);
});
