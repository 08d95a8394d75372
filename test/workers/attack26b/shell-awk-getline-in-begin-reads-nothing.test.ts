/**
 * Issue 20, twenty-sixth attack run: plain `getline` / `getline var` (from the main input) in awk's BEGIN reads
 * nothing — POSIX (and gawk, mawk) open the first input operand there, so `BEGIN { getline h; print "header:", h }`
 * reads the header line and the main loop starts at line 2. Ours leaves h empty, `while ((getline line) > 0) n++`
 * counts nothing (prints an empty n), and the header is then processed as data.
 * Tried: side by side with GNU awk 5.2.1 — getline, getline var, in BEGIN and in a main rule (NR==1 { getline }),
 * getline < file, "cmd" | getline.
 * Held: getline in a main rule, getline var < file, cmd | getline.
 * Found (low — a header-skipping idiom silently fails; 2 of 2 runs).
 * Suggested fix: let plain getline in BEGIN open the input operands (assignments before the first file applied) and
 * take records from them, sharing the reader with the main loop, as POSIX awk.
 * Fixed: plain getline and getline var take the next record from the reader the main loop uses (isolate/awk.ts
 * AwkInput), created before BEGIN: operand assignments are made as reached, files are crossed, NR and FNR counted
 * (just-bash counted only NR), END's getline returns 0. Siblings in test/workers/fix26/shell-awk-records-options.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("getline in BEGIN reads the first input record, as POSIX awk", async () => {
  const out = await shellCases({ files: { "w.txt": "b 2 x\na 10 y\nc 2 a\n" } }, [
    "awk 'BEGIN { getline h; print \"header:\", h } { print NR \": \" $1 }' w.txt",
    "awk 'BEGIN { while ((getline line) > 0) n++; print n }' w.txt",
    "awk 'BEGIN { getline; print \"first:\", $0 } { print \"main:\", $0 }' w.txt",
  ]);
  expect(out).toEqual([
    ["awk 'BEGIN { getline h; print \"header:\", h } { print NR \": \" $1 }' w.txt", "header: b 2 x\n2: a\n3: c\n", ""],
    // Was: "\n".
    ["awk 'BEGIN { while ((getline line) > 0) n++; print n }' w.txt", "3\n", ""],
    // Was: "first: \nmain: b 2 x\nmain: a 10 y\nmain: c 2 a\n".
    ["awk 'BEGIN { getline; print \"first:\", $0 } { print \"main:\", $0 }' w.txt", "first: b 2 x\nmain: a 10 y\nmain: c 2 a\n", ""],
  ]);
});
