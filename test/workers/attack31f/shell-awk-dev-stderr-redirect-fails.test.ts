/**
 * Issue 20, thirty-first attack run: awk's `print … > "/dev/stderr"` (and `"/dev/stdout"`) fails with
 * `awk: ENOENT: no such file or directory, write '/dev/stderr'`, status 2, ending the program at the first such
 * print — the rest of its output is lost. gawk and mawk write the text to the standard error (output), and the shell's
 * own `echo hi > /dev/stderr` works.
 * Tried: side by side with gawk 5.2.1 and mawk 1.3.4 in a temp dir: `print "x" > "/dev/stderr"`, a filter that warns
 * about bad lines on stderr and prints the good ones, `printf … > "/dev/stdout"`.
 * Held: `print > "file"`, `print >> "file"`, the shell's `> /dev/stderr` redirect.
 * Found (medium — warning on stderr from awk is a common idiom; the filter stops at the first bad line with status 2
 * and prints nothing after it; 2 of 2 runs).
 * Suggested fix: the awk interpreter's output redirection (just-bash's awk chunk, patched in scripts/gen-shell.mjs
 * with src/backends/worker-shell/isolate/awk.ts): send `/dev/stdout`/`-` to the command's stdout and `/dev/stderr` to
 * its stderr, in order with the rest, as gawk and mawk do, instead of opening them as files.
 * Fixed: the output redirection of print/printf (`>` and `>>`) sends `/dev/stdout` and `/dev/fd/1` to awk's stdout and
 * `/dev/stderr` and `/dev/fd/2` to its stderr (kept in the run and returned before any error message) instead of
 * opening a file (isolate/awk-streams.ts `standardStream`/`errText`, the "awk print > /dev/stdout, /dev/stderr (AW)"
 * and "awk stderr … (AW)" patches). `"-"` stays a file named `-` (mawk; gawk writes stdout there).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("awk print > \"/dev/stderr\" writes to stderr and goes on", async () => {
  const out = await shellCases({ files: { "d.txt": "a 1\nbad\nb 2\n" } }, [
    `awk 'NF < 2 { print "bad line " NR > "/dev/stderr"; next } { print $1 }' d.txt; echo "st=$?"`,
    `awk 'BEGIN { printf "%s\\n", "e" > "/dev/stdout" }'`,
  ]);
  expect(out).toEqual([
    // Was: ["a\nst=2\n", "awk: ENOENT: no such file or directory, write '/dev/stderr'\n"]
    [`awk 'NF < 2 { print "bad line " NR > "/dev/stderr"; next } { print $1 }' d.txt; echo "st=$?"`, "a\nb\nst=0\n", "bad line 2\n"],
    // Was: ["", "awk: ENOENT: no such file or directory, write '/dev/stdout'\n"]
    [`awk 'BEGIN { printf "%s\\n", "e" > "/dev/stdout" }'`, "e\n", ""],
  ]);
});
