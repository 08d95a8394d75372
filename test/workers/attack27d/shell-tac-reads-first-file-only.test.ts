/**
 * Issue 20, twenty-seventh attack run: `tac` with several file operands prints only the first file reversed and
 * silently drops the rest (`tac a.txt b.txt` is `hello`, GNU `hello` then b.txt reversed), and its options `-s SEP`,
 * `-r`, `-b` are taken as file names (`tac: -s: No such file or directory`, status 1).
 * Tried: side by side with GNU coreutils 9.1 tac — several files, `-` among them, `-s`, `-r -s REGEX`, `-b`.
 * Held: one file, stdin, a last record without a newline, empty lines.
 * Found (medium — the other files' lines are lost with status 0; the options fail loudly; 2 of 2 runs).
 * Suggested fix: the tac command (just-bash tac, "tac last record" patch in scripts/gen-shell.mjs): reverse each
 * operand in turn (`-` is stdin) and concatenate, as GNU; parse `-s SEP`/`--separator`, `-b`/`--before`,
 * `-r`/`--regex`.
 *
 * Fixed: tac is src/backends/worker-shell/isolate/text-gnu.ts tacCommand (gen-shell patch "tac as GNU tac (SI)",
 * which replaces the "tac last record" one): every operand in turn (`-` stdin), `-s`/`--separator`, `-b`/`--before`,
 * `-r`/`--regex` (a BRE, searched backwards as GNU), GNU's open/read errors; sibling tests in test/workers/fix27/si-text-gnu.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("tac reverses every file operand and takes -s, as GNU tac", async () => {
  const out = await shellCases({ files: { "a.txt": "hello\n", "b.txt": "w1\nw2\n" } }, [
    "tac a.txt b.txt; echo $?",
    "cat b.txt | tac a.txt -",
    "printf 'a,b,c,' | tac -s ,",
  ]);
  expect(out).toEqual([
    // Was: "hello\n0\n".
    ["tac a.txt b.txt; echo $?", "hello\nw2\nw1\n0\n", ""],
    // Was: "hello\n".
    ["cat b.txt | tac a.txt -", "hello\nw2\nw1\n", ""],
    // Was: "", "tac: -s: No such file or directory\n" (status 1).
    ["printf 'a,b,c,' | tac -s ,", "c,b,a,", ""],
  ]);
});
