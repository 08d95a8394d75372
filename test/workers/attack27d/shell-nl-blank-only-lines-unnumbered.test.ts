/**
 * Issue 20, twenty-seventh attack run: `nl` (default `-b t`) leaves a line of blanks unnumbered — GNU numbers every
 * non-empty line, so `  ` is line 3 and every later number is one lower than GNU's — and pads an unnumbered line
 * with `width` spaces plus the separator (`      \t`) where GNU writes `width + length(separator)` spaces; input
 * without a final newline loses the newline GNU adds.
 * Tried: side by side with GNU coreutils 9.1 nl — `-b a/t/n`, `-n ln/rn/rz`, `-w`, `-s`, `-v`, `-i`, several files,
 * section delimiters, input without a final newline.
 * Held: `-b a`, numbers and widths of numbered lines, `-v`/`-i`, `-n` formats, two files continuing the count.
 * Found (medium — silently wrong line numbers on files with whitespace-only lines; 2 of 2 runs).
 * Suggested fix: the nl command (just-bash nl): `-b t` numbers a line whose length is not 0 (no trim); an unnumbered
 * line is written as `width + separator length` spaces before its text; end the last line with a newline.
 *
 * Fixed: gen-shell patches "nl -b t non-empty", "nl unnumbered line" and "nl last newline" (SI; text-gnu.ts
 * nlBlank): `-b t` numbers every line of length > 0, an unnumbered line gets width + separator-bytes blanks, the last
 * line ends with a newline.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("nl numbers non-empty lines and pads unnumbered ones as GNU nl", async () => {
  const out = await shellCases({ files: { "n.txt": "one\n\ntwo\n  \nthree\n" } }, [
    "nl n.txt",
    "nl -s ': ' n.txt",
    "printf 'x' | nl",
  ]);
  expect(out).toEqual([
    // Was: "     1\tone\n      \t\n     2\ttwo\n      \t  \n     3\tthree\n".
    ["nl n.txt", "     1\tone\n       \n     2\ttwo\n     3\t  \n     4\tthree\n", ""],
    // Was: "     1: one\n      : \n     2: two\n      :   \n     3: three\n".
    ["nl -s ': ' n.txt", "     1: one\n        \n     2: two\n     3:   \n     4: three\n", ""],
    // Was: "     1\tx".
    ["printf 'x' | nl", "     1\tx\n", ""],
  ]);
});
