/**
 * Issue 20, twenty-fifth attack run: `cut -f` prints an empty line for a line holding no delimiter, where GNU cut
 * (and POSIX) print the whole line unless `-s`: `printf 'k:v\nplain\n' | cut -d: -f2` gives `v` and an empty line
 * (GNU: `v`, `plain`). A script reading `key:value` lines, or `cut -f2-` over a TSV with a comment/header line,
 * silently loses those lines' text — exit status 0, the line count unchanged, so nothing shows it.
 * Tried: cut -f N / -f N- / -f 1,2 / -d: / default TAB on lines with and without the delimiter, with -s, with
 * --complement / --output-delimiter (unsupported: "unrecognized option", status 1 — a loud refusal, not reported).
 * Held: -s drops the line; lines holding the delimiter are cut as GNU.
 * Found (medium — silent wrong output in a pipeline staple; 2 of 2 runs).
 * Suggested fix: in the gen-shell patch of cut's field mode, print a line without the delimiter whole (and its
 * newline) unless -s, before splitting it — as GNU cut's cut_fields does.
 * Fixed: cut's lines go through __textTools.cutLine (src/backends/worker-shell/isolate/text-tools.ts, patched in by
 * scripts/gen-shell.mjs, SX): a line without the delimiter is printed whole unless -s, and selected fields/characters
 * come out in input order, each once (`-f 2,1` as `-f 1,2`, as GNU). Siblings: test/workers/fix25/shell-text-tools.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("cut -f prints a line without the delimiter whole, as GNU cut", async () => {
  const out = await shellCases({ files: { "c.txt": "k:v\nplain\n", "t.tsv": "a\tb\tc\nnodelim\n1\t2\t3\n" } }, [
    "cut -d: -f2 c.txt",
    "cut -d: -f1,2 c.txt",
    "cut -f2- t.tsv",
    "cut -d: -s -f2 c.txt",
  ]);
  expect(out).toEqual([
    // Was: "v\n\n".
    ["cut -d: -f2 c.txt", "v\nplain\n", ""],
    ["cut -d: -f1,2 c.txt", "k:v\nplain\n", ""],
    // Was: "b\tc\n\n2\t3\n".
    ["cut -f2- t.tsv", "b\tc\nnodelim\n2\t3\n", ""],
    ["cut -d: -s -f2 c.txt", "v\n", ""],
  ]);
});
