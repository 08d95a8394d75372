/**
 * Issue 20, twenty-sixth attack run: awk's output redirection takes only the first operand of a concatenated file
 * name: `awk '{ print > "out_" $1 }' w.txt` writes every line to a file named `out_` (gawk and POSIX: out_a, out_b,
 * out_c — the idiomatic split of a file by a column); `print $2 > $1 ".txt"` makes files `a`, `b`, `c` without the
 * extension; `>>` and printf likewise. Nothing is reported — the data lands in the wrong file.
 * Tried: side by side with GNU awk 5.2.1 — print/printf with > and >> to "lit" $1, $1 ".txt", "log_" NR, a
 * parenthesised ("out_" $1), a variable holding the name; close() then getline < file.
 * Held: a parenthesised name, a variable name, a plain literal; close and getline < file.
 * Found (medium — output silently written to a wrong, shared file; 2 of 2 runs).
 * Suggested fix: in the awk parser, parse the expression after `>`/`>>` (and `|` if added) as a concatenation of
 * non-unary expressions (POSIX's `unary_expr`/`non_unary_expr` without `>`), as gawk/mawk do, not a single primary.
 * Fixed: the file after `>`/`>>` of print and printf is parsed as a concatenation of additive expressions (SA's
 * print-context concatenation, which stops at `>`, `|`, `,`, `;`…), as gawk's grammar, not one primary.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("print > \"out_\" $1 writes to the concatenated name, as gawk", async () => {
  const out = await shellCases({ files: { "w.txt": "b 2 x\na 10 y\nc 2 a\n" } }, [
    "awk '{ print > \"out_\" $1 }' w.txt; ls out_*; cat out_b",
    "awk '{ print $2 > $1 \".txt\" }' w.txt; cat b.txt c.txt",
    "awk '{ printf \"%s\\n\", $1 >> \"log_\" NR }' w.txt; ls log_*",
  ]);
  expect(out).toEqual([
    // Was: "out_\n" and cat: out_b: No such file or directory.
    ["awk '{ print > \"out_\" $1 }' w.txt; ls out_*; cat out_b", "out_a\nout_b\nout_c\nb 2 x\n", ""],
    ["awk '{ print $2 > $1 \".txt\" }' w.txt; cat b.txt c.txt", "2\n2\n", ""],
    ["awk '{ printf \"%s\\n\", $1 >> \"log_\" NR }' w.txt; ls log_*", "log_1\nlog_2\nlog_3\n", ""],
  ]);
});
