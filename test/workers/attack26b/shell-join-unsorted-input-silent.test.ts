/**
 * Issue 20, twenty-sixth attack run: `join` never checks that its inputs are sorted. GNU join 9.1 (default: check
 * when an unpairable line shows up) prints `join: FILE:N: is not sorted: LINE` and `join: input is not in sorted
 * order`, exit 1; ours prints the pairs it happened to find, says nothing and exits 0 — so `join u3 s3` silently
 * drops the pair for `b`. `--check-order` and `--nocheck-order` are refused as unknown options (exit 1).
 * Run 25 (fixer L1) gave `comm` exactly this check (docs/porting.md "comm checks that its inputs are sorted");
 * join, its sibling merge tool, was left out.
 * Tried: side by side with GNU coreutils 9.1 — join of unsorted file 1 / file 2, -a1 on unsorted input,
 * --check-order on sorted input, --nocheck-order, comm on the same files.
 * Held: comm's order check; join on sorted input, -a/-v/-o/-e merge order.
 * Found (medium — a join silently loses pairs, exit 0; 2 of 2 runs).
 * Suggested fix: in the join merge (gen-shell L1 patch), compare each line's key with the previous one of the same
 * file (same folding as -i) and, as GNU's checkorder, report the first disorder once per file (when an unpairable
 * line has been seen, or always with --check-order, which also stops), end with `input is not in sorted order`,
 * status 1; accept --check-order / --nocheck-order.
 * Fixed (run 26, fixer SD): `joinMerge` (isolate/gnu-extra.ts) is now a port of GNU join 9.1's join(): it reads
 * both files in GNU's order and checks it as check_order (once per file, by default only after an unpairable line,
 * reading the rest of both files to check them; `--check-order` stops at the first; `--nocheck-order` skips it),
 * naming the operand as given (`-` for stdin) and the line's number in its file; join accepts both options.
 * Siblings (-a, -v, stdin, -i, file 2, --check-order stopping): test/workers/fix26/shell-sort-key-join-order.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const tree = { files: { u3: "a 1\nc 3\nb 2\n", s3: "a x\nb y\nc z\n", s1: "a 1\nb 2\n" } };

it("join reports unsorted input as GNU join, status 1", async () => {
  const out = await shellCases(tree, ["join u3 s3; echo st=$?", "join --nocheck-order u3 s3; echo st=$?", "join --check-order s1 s3; echo st=$?"]);
  expect(out).toEqual([
    // Was: "a 1 x\nc 3 z\nst=0\n", "".
    ["join u3 s3; echo st=$?", "a 1 x\nc 3 z\nst=1\n", "join: u3:3: is not sorted: b 2\njoin: input is not in sorted order\n"],
    // Was: "st=1\n", "join: unrecognized option '--nocheck-order'\n".
    ["join --nocheck-order u3 s3; echo st=$?", "a 1 x\nc 3 z\nst=0\n", ""],
    ["join --check-order s1 s3; echo st=$?", "a 1 x\nb 2 y\nst=0\n", ""],
  ]);
});
