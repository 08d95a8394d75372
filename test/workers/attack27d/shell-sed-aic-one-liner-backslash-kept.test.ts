/**
 * Issue 20, twenty-seventh attack run: sed's one-line `a\text`, `i\text` and `c\text` (GNU's one-liner form of the
 * POSIX `a\` + newline + text) keep the backslash in the text: `sed '2c\changed'` writes `\changed`, `sed '$a\end'`
 * appends `\end`, and `sed '2i\  indented'` drops a leading blank that the backslash is there to keep. The script file
 * form (`2c\` newline `changed`) is right.
 * Tried: side by side with GNU sed 4.9 — `a`, `i`, `c` with text after a space, after `\` on the same line, after
 * `\` + newline (from -f), with leading blanks, with a range and `!`.
 * Held: `a text`, `$a end`, `2,3!c X`, the two-line form from a file, `-e 'a\' -e 'foo'`.
 * Found (medium — silently wrong file contents from a common one-liner (`sed -i '/x/a\line' f`); 2 of 2 runs).
 * Suggested fix: sed's parser of a/i/c text (just-bash sed, patched in src/backends/worker-shell/isolate/sort-sed.ts
 * or gen-shell.mjs): after the command letter skip blanks, then one `\`; if a newline follows skip it too; then keep
 * the rest as written (its leading blanks included when it came after the `\`).
 *
 * Fixed: sed's a/i/c text is read as GNU sed 4.9's read_text (src/backends/worker-shell/isolate/sed-gnu.ts readText,
 * patched over just-bash's readTextCommand in scripts/gen-shell.mjs, entries `// SH`): blanks skipped, one `\`
 * dropped with a newline right after it, the rest kept as written; `2c\` alone has no text and writes nothing; a -f
 * script keeps its lines' leading blanks.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("sed a\\text, i\\text and c\\text take the text after the backslash, as GNU sed", async () => {
  const out = await shellCases({ files: { "a.txt": "one\ntwo\nthree\nfour\nfive\n" } }, [
    "sed '2c\\changed' a.txt",
    "sed '/two/a\\added' a.txt",
    "sed '$a\\end' a.txt",
    "sed '2i\\  indented' a.txt",
    "sed '2c\\' a.txt",
  ]);
  expect(out).toEqual([
    // Was: "one\n\\changed\nthree\nfour\nfive\n".
    ["sed '2c\\changed' a.txt", "one\nchanged\nthree\nfour\nfive\n", ""],
    // Was: "one\ntwo\n\\added\n…".
    ["sed '/two/a\\added' a.txt", "one\ntwo\nadded\nthree\nfour\nfive\n", ""],
    // Was: "…five\n\\end\n".
    ["sed '$a\\end' a.txt", "one\ntwo\nthree\nfour\nfive\nend\n", ""],
    // Was: "one\n indented\n…" (one blank).
    ["sed '2i\\  indented' a.txt", "one\n  indented\ntwo\nthree\nfour\nfive\n", ""],
    // Was: "one\n\\\nthree\n…".
    ["sed '2c\\' a.txt", "one\nthree\nfour\nfive\n", ""],
  ]);
});
