/**
 * Issue 20, twenty-fourth attack run: the shell's `sort` orders lines with `String.prototype.localeCompare` (an ICU
 * locale collation: case folded, punctuation ignored at first), while everything else in the shell — `ls`, globs,
 * `comm`, `join`, `sort -c`'s GNU meaning — is the C locale's byte order the shell documents ("as in GNU's C
 * locale"). So `sort` disagrees with GNU sort (`B` after `a`, `_x` first, `ä` before `z`), `sort -c` accepts input
 * GNU reports as disordered, and the standard set idiom `sort a > a.s; sort b > b.s; comm a.s b.s` answers wrong:
 * a line present in both files (`B`) is listed as only in the first AND only in the second.
 * Tried: side by side with GNU coreutils 9.1 sort/comm/join under LC_ALL=C.UTF-8 (the shell's locale): plain sort,
 * -f, -n, -h, -k2,2n, -u, -o in place, -V, -s -k1,1, -c, then comm/join/uniq of sorted files; ls/echo * ordering.
 * Held: -h, -k2,2n, -u, -o, -V, -s, uniq -c; ls and globs sort in byte order.
 * Found (medium — silent wrong answers from a common pipeline; 2 of 2 runs): see the expectations (also `sort -n`
 * reads `1e3` as 1000 where GNU reads 1, and `sort -k 0` is accepted where GNU exits 2 — not asserted here).
 * Suggested fix: in just-bash's sort comparator (the `I`/`B` functions of the sort chunk, patched in gen-shell)
 * compare the strings by UTF-8 bytes (code points; surrogate-escaped bytes as their byte) instead of
 * localeCompare, for the main comparison and the last-resort one; `-f` folds to upper case first, as GNU's C locale.
 * Fixed (fixer SS): scripts/gen-shell.mjs patches just-bash's sort to compare with `compareBytes` of
 * src/backends/worker-shell/isolate/sort-sed.ts (UTF-8 bytes; a byte escape U+DC80…U+DCFF as its byte) for the keys
 * and the last resort; `-f` folds ASCII to upper case (`foldCase`), `-n` reads numbers as GNU (`compareNumbers`: no
 * exponent, no `+`, exact digits — `1e3` is 1), `-u` keeps the first line of each run equal by the keys and `-c -u`
 * reports equal lines as disorder. `comm` compares by the same bytes (it compared UTF-16 code units), `uniq -i` and
 * `join -i` fold ASCII only and `join -i` prints file 1's field (it printed it lower-cased). Siblings in
 * test/workers/fix24/shell-sort-sed.test.ts. `sort -k 0` is still accepted (left alone).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("sort orders by bytes, as GNU sort in the C locale, so comm of sorted files is right", async () => {
  const out = await shellCases({ files: { a: "B\na\nb\n", b: "a\nB\nc\n" } }, [
    "printf 'b\\nB\\n_x\\n-y\\na\\nä\\nz\\n' | sort",
    "printf 'b\\nA\\na\\nB\\n' | sort -f",
    "printf 'a\\nB\\n' | sort -c; echo rc=$?",
    "sort a > a.s; sort b > b.s; comm a.s b.s",
  ]);
  expect(out).toEqual([
    // Was: "_x\n-y\na\nä\nb\nB\nz\n".
    ["printf 'b\\nB\\n_x\\n-y\\na\\nä\\nz\\n' | sort", "-y\nB\n_x\na\nb\nz\nä\n", ""],
    // Was: "a\nA\nb\nB\n" (GNU -f folds to upper case; equal keys keep byte order: A before a).
    ["printf 'b\\nA\\na\\nB\\n' | sort -f", "A\na\nB\nb\n", ""],
    // Was: "rc=0\n", nothing on stderr.
    ["printf 'a\\nB\\n' | sort -c; echo rc=$?", "rc=1\n", "sort: -:2: disorder: B\n"],
    // Was: "\t\ta\n\tB\nb\nB\n\tc\n" — B "only in a.s" and "only in b.s".
    ["sort a > a.s; sort b > b.s; comm a.s b.s", "\t\tB\n\t\ta\nb\n\tc\n", ""],
  ]);
});
