/**
 * Issue 20, twenty-third attack run (scout of fixes): od's new octal sizes (25a5f34: odArgs maps only a lone
 * `-b`; odOctalFormat maps every type but `o1`/`o2` to four-byte words).
 * Tried: `od -vb f`, `od -cb f`, `od -t oC f`, `od -t oS f`, `od -t o2z f` with f = "a\nb\n", against GNU od 9.1.
 * Held: `od -b f`, `od -b -v f`, `-t o1`, `-t o2`, `-t o`, `-t o4`.
 * Found: `-b` in a cluster is dropped (`od -vb`/`-cb` print the default words, `-cb` loses both its lines);
 *   `oC` (char = 1 byte), `oS` (short = 2) and `o2z` print four-byte words `01230405141`.
 * Suggested fix: split od's single-letter clusters in odArgs (`-vb` → `-v -b`, `-cb` → `-c -b`); in
 *   odOctalFormat read the size (digits or C/S/I/L) and strip a trailing `z`, rejecting an unknown size.
 * Fixed: od is GNU od 9.1's in src/backends/worker-shell/isolate/od.ts (gen-shell replaces just-bash's od whole):
 * types a c d f o u x with sizes and z, the short forms in clusters, -A -j -N -w -v, cells of several types padded
 * to one line width as GNU's write_block; unknown types are GNU's usage errors.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const bytes = "0000000 141 012 142 012\n0000004\n";
const words = "0000000 005141 005142\n0000004\n";
const cases: [string, string][] = [
  ["od -vb f", bytes],
  ["od -cb f", "0000000   a  \\n   b  \\n\n        141 012 142 012\n0000004\n"],
  ["od -t oC f", bytes],
  ["od -t oS f", words],
  ["od -t o2z f", "0000000 005141 005142                                            >a.b.<\n0000004\n"],
];

it("od -b in a cluster and -t oC / oS / o2z select the octal size GNU od 9.1 does", async () => {
  const out = await shellCases({ files: { f: "a\nb\n" } }, cases.map(([command]) => command), { collect: (_ws, _c, r) => r.stdout });
  expect(out).toEqual(cases.map(([, stdout]) => stdout));
});
