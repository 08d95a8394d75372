/**
 * Issue 20, twenty-seventh attack run: `grep -o` with a pattern that can match the empty string (`[0-9]*`, `b*`, `X*`)
 * fails instead of printing the non-empty matches: on stdin it prints `grep: start index out of bounds: N`, status 1;
 * on a file operand the same exception is reported as `grep: n.txt: No such file or directory`, status 2 — a false
 * reason for a file that is there. `grep -o '[0-9]*'` is a common way to pull numbers out of text.
 * Tried: side by side with GNU grep 3.8 (C locale) — `-o` with `*`-patterns on a file, on stdin, with -n, with -E;
 * `-c` with the same patterns.
 * Held: `-o` with patterns that cannot match empty (`foo`, `-ow`, `-io`), `-c 'X*'`, `-o '[^X]*'` is the same defect.
 * Found (medium — a common extraction idiom fails with a wrong error and status 2 on a file that exists; 2 of 2 runs).
 * Suggested fix: the grep command's `-o` loop (just-bash grep, patched by scripts/gen-shell.mjs): skip empty matches
 * as GNU does and step past the end of line without calling the RE2JS matcher's `find(start)` with start > length;
 * do not map a non-fs exception to `No such file or directory` (the "grep failure reason" patch).
 *
 * Fixed: the shell's grep searches with its own loop (src/backends/worker-shell/isolate/grep-gnu.ts `search`, patched in
 * by scripts/gen-shell.mjs, entries `// SG`): `-o` steps over an empty match and never asks the matcher to start past
 * the end of the line; the "grep failure reason" patch names a file system reason only for a file system error, any
 * other failure keeps its own text (`grep-gnu.ts` `failure`).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("grep -o prints the non-empty matches of a pattern that can match empty, as GNU grep", async () => {
  const out = await shellCases(
    { files: { "n.txt": "abc123def45\n", "b.txt": "abc\nabbc\nac\nfoo bar\nfoobar\n" } },
    [
      "grep -o '[0-9]*' n.txt; echo $?",
      "grep -o 'b*' b.txt; echo $?",
      "echo aXb | grep -o 'X*'; echo $?",
      "grep -on '[0-9]*' n.txt; echo $?",
      "printf 'x=1, y=22\\n' | grep -oE '[0-9]*'; echo $?",
    ],
  );
  expect(out).toEqual([
    // Was: "2\n", "grep: n.txt: No such file or directory\n".
    ["grep -o '[0-9]*' n.txt; echo $?", "123\n45\n0\n", ""],
    ["grep -o 'b*' b.txt; echo $?", "b\nbb\nb\nb\n0\n", ""],
    // Was: "1\n", "grep: start index out of bounds: 4\n".
    ["echo aXb | grep -o 'X*'; echo $?", "X\n0\n", ""],
    ["grep -on '[0-9]*' n.txt; echo $?", "1:123\n1:45\n0\n", ""],
    ["printf 'x=1, y=22\\n' | grep -oE '[0-9]*'; echo $?", "1\n22\n0\n", ""],
  ]);
});
