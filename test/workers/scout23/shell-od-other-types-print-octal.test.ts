/**
 * Issue 20, twenty-third attack run (scout of fixes): od (25a5f34) now dumps two-byte octal words by default,
 * and every format it does not know silently falls back to that default.
 * Tried: `od -x f`, `od -t x2 f`, `od -d f`, `od -t u1 f`, `od -t d2 f` with f = "a\nb\n", against GNU od 9.1.
 * Held: `od f`, `-b`, `-t o1/o2/o4`, `-c`, `-t x1` print as GNU (fix23 test).
 * Found: GNU prints `0a61 0a62` (hex words), ` 2657  2658`, ` 97  10  98  10`, `  2657   2658`; ours prints
 *   `0000000 005141 005142` for all of them with status 0 — octal read as hex/decimal, no error.
 * Suggested fix: implement the x/d/u sizes (1, 2, 4) beside odOctal (and -x/-d/-h/-s/-i as their -t forms), or
 *   reject any type string od does not implement with `od: invalid type string` and status 1, never the default.
 * Fixed: od is GNU od 9.1's in src/backends/worker-shell/isolate/od.ts (gen-shell replaces just-bash's od whole):
 * types a c d f o u x with sizes and z, the short forms in clusters, -A -j -N -w -v, cells of several types padded
 * to one line width as GNU's write_block; unknown types are GNU's usage errors.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const cases: [string, string][] = [
  ["od -x f", "0000000 0a61 0a62\n0000004\n"],
  ["od -t x2 f", "0000000 0a61 0a62\n0000004\n"],
  ["od -d f", "0000000  2657  2658\n0000004\n"],
  ["od -t u1 f", "0000000  97  10  98  10\n0000004\n"],
  ["od -t d2 f", "0000000   2657   2658\n0000004\n"],
];

it("od -x / -t x2 / -d / -t u1 / -t d2 dump hex or decimal, not the default octal words, as GNU od 9.1", async () => {
  const out = await shellCases({ files: { f: "a\nb\n" } }, cases.map(([command]) => command), { collect: (_ws, _c, r) => r.stdout });
  expect(out).toEqual(cases.map(([, stdout]) => stdout));
});
