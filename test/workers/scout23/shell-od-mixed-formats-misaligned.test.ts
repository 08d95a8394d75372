/**
 * Issue 20, twenty-third attack run (scout of fixes): with two-byte octal words (25a5f34), od's formats no longer
 * share one cell width, and the lines of several formats no longer line up.
 * Tried: `od -c -t o2 f`, `od -t o2 -c f`, `od -t o1 -t o2 f` with f = "a\nb\n", against GNU od 9.1.
 * Held: `od -b -c f`, `od -c -t x1 f` (one-byte formats) line up as GNU.
 * Found: GNU widens every format's cells to the widest per byte (`         005141  005142` under `-c`,
 *   `0000000  005141  005142` above it); ours prints `        005141 005142`, the words left of the bytes
 *   they dump.
 * Suggested fix: compute GNU's width per byte over all formats (max of cell width / size) and pad each cell to
 *   that width × its size, as od.c's `pad_width`.
 * Fixed: od is GNU od 9.1's in src/backends/worker-shell/isolate/od.ts (gen-shell replaces just-bash's od whole):
 * types a c d f o u x with sizes and z, the short forms in clusters, -A -j -N -w -v, cells of several types padded
 * to one line width as GNU's write_block; unknown types are GNU's usage errors.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const cases: [string, string][] = [
  ["od -c -t o2 f", "0000000   a  \\n   b  \\n\n         005141  005142\n0000004\n"],
  ["od -t o2 -c f", "0000000  005141  005142\n          a  \\n   b  \\n\n0000004\n"],
  ["od -t o1 -t o2 f", "0000000 141 012 142 012\n         005141  005142\n0000004\n"],
];

it("od lines up the cells of several formats, as GNU od 9.1", async () => {
  const out = await shellCases({ files: { f: "a\nb\n" } }, cases.map(([command]) => command), { collect: (_ws, _c, r) => r.stdout });
  expect(out).toEqual(cases.map(([, stdout]) => stdout));
});
