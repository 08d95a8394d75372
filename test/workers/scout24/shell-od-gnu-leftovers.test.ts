/**
 * Issue 20, twenty-fourth attack run (scout of fixes): c60cf02 makes `od` GNU od 9.1 (isolate/od.ts); a few GNU
 * behaviours are still off.
 * Tried against coreutils 9.1 od: every -t type/size, z, -A -j -N -w -v, duplicates `*`, several types lined up,
 *   floats (nan, denormals), short forms, a missing file, -w0, GNU's other short options.
 * Held: all -t types and sizes, the short forms the docs list (-b -c -d -x -s -i -l -o -h -a -f), -A/-j/-N/-w/-v,
 *   `*` lines, z columns, mixed types aligned, float output, the documented refusals (-t fL, -S, --endian).
 * Found (low): `od -c nosuch` prints an offset line `0000000` on stdout besides the error (GNU prints nothing);
 *   `od -w0` warns `using 16 instead` and prints 16 per line (GNU: `using 1 instead`, one byte per line);
 *   GNU's `-D -H -O -X -e -F` (same as -t u4, x4, o4, x4, fD, fD) are `invalid option` though docs/porting.md says
 *   the short forms work and only -t fL, -S, --endian are refused.
 * Suggested fix: print no offset when no input was read; clamp -w0 to 1; map -D/-H/-O/-X/-e/-F to their -t types.
 * Fixed: od prints its final offset only when an operand opened (a directory opens; a missing file does not), an
 * invalid -w falls back to the types' least common multiple (1 for bytes) as GNU, and GNU's older short options
 * -B -D -e -F -H -I -L -O -X are taken (isolate/od.ts).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const cases: [string, string, string, number][] = [
  ["od -c nosuch", "", "od: nosuch: No such file or directory\n", 1],
  ["printf 'abc' | od -An -tx1 -w0", " 61\n 62\n 63\n", "od: warning: invalid width 0; using 1 instead\n", 0],
  ["printf 'abcdefgh' | od -X", "0000000 64636261 68676665\n0000010\n", "", 0],
  ["printf 'abcdefgh' | od -D", "0000000 1684234849 1751606885\n0000010\n", "", 0],
];

it("od: no offset line for a missing file, -w0 is one byte a line, GNU's -X/-D short options", async () => {
  const out = await shellCases({}, cases.map(([command]) => command), { collect: (_ws, _c, r) => [r.stdout, r.stderr, r.exitCode] });
  expect(out).toEqual(cases.map(([, stdout, stderr, code]) => [stdout, stderr, code]));
});
