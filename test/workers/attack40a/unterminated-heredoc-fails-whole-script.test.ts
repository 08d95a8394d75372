/**
 * Fixed in run 40 by fixer f40sh: an open here-document stops where the caller's script ends (isolate/heredoc-eof.ts GROUP_END), with bash's warning after the script's stderr.
 * Issue 20, run 40, attacker a: a here-document whose end line is missing (or not exactly the delimiter — `EOF ` with
 * a trailing blank, an indented ` EOF`) makes the whole script a syntax error naming a brace the script never had;
 * nothing runs, exit 2.
 * Reproduction: `echo before\ncat <<EOF\nhello\nEOF ` (note the blank after the last EOF) prints nothing today, exit 2,
 * stderr `bash: syntax error: Parse error at 6:2: Expected RBRACE, got EOF`; bash 5.2.15 prints `before`, `hello`,
 * `EOF ` and exits 0, with the warning `bash: line 4: warning: here-document at line 2 delimited by end-of-file
 * (wanted `EOF')` — the document runs to the end of the script. Also `cat <<EOF\nno end`, `cat <<'END'\nx`,
 * `echo ok <<EOF`, `cat <<-X\n\ty` and `cat <<EOF\nhello\n EOF\necho after`.
 * Reference: `bash --norc --noprofile -c SCRIPT` (GNU bash 5.2.15) on this machine; the rows are its stdout and
 * status, copied from that run; stderr is checked to carry bash's here-document warning and no RBRACE.
 * Severity: medium — an agent writing a file with `cat > f <<EOF … EOF` and one stray blank after the end word
 * gets a misleading parse error about a `}` it never wrote, and none of its earlier commands run.
 * Cause: src/backends/worker-shell/worker.ts runShell wraps the source as `{ SOURCE\n\n}`; an open here-document
 * reads the closing `}` as its text, so the group is never closed. (just-bash's parser also has no end-of-file
 * end for a here-document.)
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

type Row = [string, string, number, boolean];
const collect = (_ws: unknown, command: string, r: { stdout: string; stderr: string; exitCode: number }): Row => [
  command,
  r.stdout,
  r.exitCode,
  /here-document at line \d+ delimited by end-of-file/.test(r.stderr) && !/RBRACE/.test(r.stderr),
];

// Expected: bash 5.2.15, `bash --norc --noprofile -c SCRIPT` — stdout, exit status, and its stderr warning.
const ROWS: Row[] = [
  ["echo before\ncat <<EOF\nhello\nEOF ", "before\nhello\nEOF \n", 0, true],
  ["cat <<EOF\nno end", "no end\n", 0, true],
  ["cat <<EOF\nhello\n EOF\necho after", "hello\n EOF\necho after\n", 0, true],
  ["cat <<'END'\nx", "x\n", 0, true],
  ["echo start; cat <<-X\n\ty", "start\ny\n", 0, true],
  ["echo ok <<EOF", "ok\n", 0, true],
];

it("a here-document without its end line runs to the end of the script with a warning, as bash 5.2", async () => {
  const out = await shellCases({ files: {} }, ROWS.map((r) => r[0]), { collect });
  expect(out).toEqual(ROWS);
});
