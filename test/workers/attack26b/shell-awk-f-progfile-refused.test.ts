/**
 * Issue 20, twenty-sixth attack run: awk refuses `-f progfile` (POSIX; also `--file=`): `awk -f p.awk w.txt` prints
 * `awk: invalid option -- 'f'`, exit 1, so any awk program kept in a file — and every `#!/usr/bin/awk -f` script
 * run through awk — cannot run at all. `sed -f` and `grep -f` work.
 * Tried: side by side with GNU awk 5.2.1 — -f FILE, two -f (programs concatenated), -v with -f, --file=, a missing
 * program file, sed -f, grep -f.
 * Held: sed -f, grep -f.
 * Found (medium — a POSIX option refused, the script's work not done; 2 of 2 runs).
 * Suggested fix: accept `-f FILE` (repeatable, `--file=FILE`): read each file through the Workspace (as other
 * operands), join them with newlines as the program text, and take every operand as an input file/assignment; a
 * missing file is `awk: fatal: cannot open source file 'F' for reading: No such file or directory`, status 2.
 * Fixed: awk's options are parsed by isolate/awk.ts parseOptions: `-f FILE` (repeatable, `-fFILE`, `--file=FILE`,
 * `-f -` for stdin) read through the Workspace and joined by newlines, `--`, `-vNAME=value`, `--assign=`,
 * `--field-separator=`; a missing program file is gawk's `awk: fatal: cannot open source file \`F' for reading: No
 * such file or directory`, status 2; a missing option argument status 2. Siblings in
 * test/workers/fix26/shell-awk-records-options.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const tree = { files: { "w.txt": "b 2 x\na 10 y\nc 2 a\n", "p.awk": "{print \"f:\" $1}\n", "a1.awk": "BEGIN { x = 1 }\n", "a2.awk": "{ print x, $1 }\n" } };

it("awk -f reads the program from a file, as POSIX awk", async () => {
  const out = await shellCases(tree, [
    "awk -f p.awk w.txt",
    "awk -f a1.awk -f a2.awk w.txt",
    "awk -f nope.awk w.txt; echo st=$?",
  ], { collect: (_ws, c, r) => [c, r.stdout, r.stderr] as const });
  expect(out).toEqual([
    // Was: "" (stderr "awk: invalid option -- 'f'", exit 1).
    ["awk -f p.awk w.txt", "f:b\nf:a\nf:c\n", ""],
    ["awk -f a1.awk -f a2.awk w.txt", "1 b\n1 a\n1 c\n", ""],
    // GNU: status 2. Was: st=1 for the option.
    ["awk -f nope.awk w.txt; echo st=$?", "st=2\n", "awk: fatal: cannot open source file `nope.awk' for reading: No such file or directory\n"],
  ]);
});
