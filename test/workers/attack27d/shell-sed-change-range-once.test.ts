/**
 * Issue 20, twenty-seventh attack run: sed's `c` on a range prints its text once per line of the range instead of
 * once at the range's end: `sed '2,3c gone'` gives `gone` twice and `sed '/start/,/end/c\…'` one copy per line, where
 * GNU sed (and POSIX: "with a 2-address, write text at the end of the range") replaces the whole block by one copy.
 * Tried: side by side with GNU sed 4.9 — `c` with one address, a line range, a regex range, `!`.
 * Held: `2c text`, `2,3!c X` (negated: one per line, as GNU), `c` from a script file.
 * Found (medium — replacing a block (`/BEGIN/,/END/c …`) silently writes N copies into the file; 2 of 2 runs).
 * Suggested fix: sed's `c` command (just-bash sed): with a two-address range (not negated), delete the pattern space
 * and print the text only when the range ends (or at the last line if it does not).
 *
 * Fixed: sed's `c` asks sed-gnu.ts changeWrites whether the range (not negated) ends on this line and writes its text
 * only then (nothing when the input ends inside it); range states are kept per command, not per address text
 * (scripts/gen-shell.mjs, `// SH`).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("sed c on a range prints its text once, as GNU sed", async () => {
  const out = await shellCases({ files: { "a.txt": "one\ntwo\nthree\nfour\nfive\n" } }, [
    "sed '2,3c gone' a.txt",
    "sed '/two/,/four/c gone' a.txt",
  ]);
  expect(out).toEqual([
    // Was: "one\ngone\ngone\nfour\nfive\n".
    ["sed '2,3c gone' a.txt", "one\ngone\nfour\nfive\n", ""],
    // Was: "one\ngone\ngone\ngone\nfive\n".
    ["sed '/two/,/four/c gone' a.txt", "one\ngone\nfive\n", ""],
  ]);
});
