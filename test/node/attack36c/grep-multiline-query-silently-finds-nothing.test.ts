/**
 * Issue 20, thirty-sixth attack run: the grep tool matches a query line by line, so a query holding a line break —
 * a literal `"function foo() {\n  return 1;"` (a code block the model copies from a read or from its own write, to
 * check it is there) or a regex `foo\(\) \{\n` — can never match, and the tool answers a plain `{ count: 0,
 * matches: [] }`, no note, no error, for text that IS in the file. The agent concludes the code is absent and acts on
 * it (writes it again, reports an edit as lost, edits elsewhere).
 * Tried: grep (literal and regex) with `\n`, `\r\n`, a bare `"\n"`, `1;$`, `\r$`, `[\s\S]*return` over LF and CRLF
 * files, against GNU grep 3.8 and ripgrep's rules: `grep -F $'function foo() {\n  return 1;'` reads the query as
 * two patterns and prints both lines (status 0); rg refuses it (`the literal "\n" is not allowed in a regex`, status
 * 2). Neither says "no match". Also `^`/`$` on CRLF lines, `\b`, `\s`, `.`, ignoreCase on ß/K(U+212A)/İ/ı/É vs `grep
 * -rnP`/`-rnF -i`, per-match context with overlapping windows.
 * Held: every one-line query above matched the same lines as GNU grep (`[[:space:]]` is a JavaScript class, as
 * documented); context lines and `isMatch` right; CR kept in `text` as GNU prints it.
 * Found (medium — a wrong "not found" the agent acts on; 2 of 2 runs): `grep { query: "function foo() {\n  return
 * 1;" }` and `{ query: "foo\\(\\) \\{\\n", regex: true }` over `/workspace/a.ts` = "function foo() {\n  return
 * 1;\n}\n" → `{"path":"/workspace","query":…,"count":0,"matches":[]}`.
 * Suggested fix: src/tools/core/grep.ts — refuse a query holding `\n` (or, for a regex, a `\n` escape / class that
 * can only match it) before searching, as rg does: `{ error: "grep matches one line at a time; the query holds a
 * line break. Search for one of its lines, or read the file." }` (wording the fixer's; the test checks only that an
 * error names the line break, never a silent count 0). Alternatively GNU's reading (each line a pattern).
 * Fixed: src/tools/core/grep-line-break.ts (called by src/tools/core/grep.ts before searching) — a literal query
 * holding LF, or a regex every match of which needs a LF, gets an error result that says grep matches within one
 * line and to search for one line of the text, then read (issue 20, run 36, fixer TL).
 * Siblings: test/node/fix36/tools-grep-line-break.test.ts.
 */
import { expect, it } from "vitest";
import { grepDefinition } from "../../../src/tools/core/grep.js";
import { setup } from "../tools/helpers.js";

it("a query holding a line break is never a silent 'no match' for text that is in the file", async () => {
  const { workspace } = await setup({ "/workspace/a.ts": "function foo() {\n  return 1;\n}\n" });
  const grep = grepDefinition({ workspace });
  for (const input of [
    { path: "/workspace", query: "function foo() {\n  return 1;" },
    { path: "/workspace", query: "foo\\(\\) \\{\\n", regex: true },
  ]) {
    const result = (await grep.execute(input)) as { error?: string; count?: number };
    // Was: {"path":"/workspace","query":<the query>,"count":0,"matches":[]}
    expect(result.count).toBeUndefined();
    expect(result.error).toMatch(/line break/);
  }
});
