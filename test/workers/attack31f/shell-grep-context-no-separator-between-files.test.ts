/**
 * Issue 20, thirty-first attack run: grep with context (`-A`/`-B`/`-C`) prints no `--` between groups from different
 * files: `grep -rn -A1 TODO src` runs the last group of one file straight into the first of the next, and with `-h`
 * the groups of two files read as one. GNU grep 3.8 puts `--` between any two groups that are not adjacent, across
 * files too.
 * Tried: side by side with GNU grep 3.8 in a temp dir: `grep -rn -A1`, `grep -rn -B1`, `grep -h -A1`/`-C1` over two
 * named files, `grep -A1` within one file.
 * Held: `--` between groups within one file, `-A`/`-B`/`-C` line markers (`:`/`-`), `-m` with context.
 * Found (medium — `grep -rn -C2 PATTERN .` is one of the most common exploration commands; the context lines of two
 * files run together (with `-h` undistinguishable); 2 of 2 runs).
 * Suggested fix: src/backends/worker-shell/isolate/grep-gnu.ts: keep "a group was printed" across the files of one
 * grep run (not per file) and emit `--` before the first group of a later file when context was asked.
 * Fixed: grep-gnu.ts `search()` marks output made of context groups and `fileOutput()` (called where grep joins the
 * files' outputs, a `// GS` patch in scripts/gen-shell.mjs) puts `--` before a later file's groups once an earlier
 * file printed one; the separator ends with a newline under -z too (issue 20, run 31, fixer GS; siblings with
 * -c/-l/-m/-o/-A0/-v in test/workers/fix31/grep-sed-find-gnu).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("grep puts -- between context groups of different files", async () => {
  const out = await shellCases({ dirs: ["src"], files: { "src/x.txt": "a TODO\nb\nc\n", "src/y.txt": "TODO\nz\n" } }, [
    "grep -rn -A1 TODO src/x.txt src/y.txt",
    "grep -h -C1 TODO src/x.txt src/y.txt",
  ]);
  expect(out).toEqual([
    // Was: "src/x.txt:1:a TODO\nsrc/x.txt-2-b\nsrc/y.txt:1:TODO\nsrc/y.txt-2-z\n"
    ["grep -rn -A1 TODO src/x.txt src/y.txt", "src/x.txt:1:a TODO\nsrc/x.txt-2-b\n--\nsrc/y.txt:1:TODO\nsrc/y.txt-2-z\n", ""],
    // Was: "a TODO\nb\nTODO\nz\n"
    ["grep -h -C1 TODO src/x.txt src/y.txt", "a TODO\nb\n--\nTODO\nz\n", ""],
  ]);
});
