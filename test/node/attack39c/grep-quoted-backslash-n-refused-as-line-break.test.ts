/**
 * Issue 20, thirty-ninth attack run: a regex query quoting source text with RE2's `\Q…\E` — documented in
 * docs/tools.md as "`\Q…\E` (literal text)" — is refused whenever the quoted text holds the two characters `\n`
 * (a C/JS/Python string's escape: `printf("\n")`, `"\n".join`), with the error that "every match of this regex
 * needs a line break (\n), so it could never match". Inside `\Q…\E`, `\n` is a backslash and an `n`, which are on
 * the line. The line-break check (src/tools/core/grep-line-break.ts `lineBreakError`) scans the query as plain
 * JavaScript regex syntax, before `rewriteRe2Syntax` (src/fs/grep-regex.ts) turns `\Q…\E` into escaped literals,
 * so it reads `\Q` as an identity escape and `\n` as LF.
 * Reproduction: file `printf("\n");\nputs("a\tb");\nx\ty\n` (backslash-n as two characters on line 1); grep
 * { query: '\Q\n\E', regex: true } → { error: "grep matches within one line at a time, and every match of this
 * regex needs a line break (\n), so it could never match. …" }; likewise '\Q("\n")\E' and 'printf\("\Q\n\E'.
 * GNU grep 3.8 `grep -nP '\Q\n\E' f.c` → `1:printf("\n");` (also for the other two); the tool's own fs.grep (the
 * same query through `workspace.fs.grep`) finds line 1 too, and '\Q\t\E' (no line-break check) finds line 2.
 * Tried: RE2 spellings through the tool's line-break check — `\Q\n\E`, `\Q\t\E`, `\\n`, `[[:cntrl:]]`, `\p{Cc}`,
 * `\Q\E\n?x`; the grep regex's V8 and RE2 paths against each other (4,000 random patterns of classes, POSIX and
 * Unicode classes, case-variant letters such as ſ, K, ß, Σ/σ/ς, İ/ı, µ, with and without ignoreCase: no
 * difference); flags and repeat bounds against re2js.
 * Held: everything but `\Q…\E` holding `\n` (and the known `\x{0a}`).
 * Found (medium — a documented spelling of literal text gets a false "could never match" for text that is on the
 * line, so the agent is told the quoted code cannot be found; 3 of 3 runs).
 * Suggested fix: src/tools/core/grep-line-break.ts — have the Scanner read `\Q…\E` as RE2 does (the quoted
 * characters are literals; a quoted `\n` is `\` and `n`, never LF; no `\E` quotes to the end), or leave any query
 * holding `\Q` to fs.grep (answer "can match within a line" when unsure, as the scanner already promises).
 * Fixed: the line-break Scanner (src/tools/core/grep-line-break.ts) reads `\Q…\E` as fs.grep's rewrite does — quoted characters are literals, a quantifier after `\E` repeats the last — and `\x{…}` as the character it names (issue 20, run 39, fixer GX). Siblings: test/node/fix39/grep-re2-classes-fold.test.ts.
 */
import { expect, it } from "vitest";
import { grepDefinition } from "../../../src/tools/core/grep.js";
import { setup } from "../tools/helpers.js";

const FILE = 'printf("\\n");\nputs("a\\tb");\nx\ty\n';

it("\\Q…\\E quoting a backslash-n is literal text on the line, not a line break", async () => {
  const { workspace } = await setup({ "/workspace/f.c": FILE });
  const grep = grepDefinition({ workspace });
  // GNU grep 3.8 -nP: line numbers printed for each query.
  const cases: [string, number[]][] = [
    ["\\Q\\n\\E", [1]],
    ['\\Q("\\n")\\E', [1]],
    ['printf\\("\\Q\\n\\E', [1]],
    ["\\Q\\t\\E", [2]],
  ];
  const got: Record<string, unknown> = {};
  const want: Record<string, unknown> = {};
  for (const [query, lines] of cases) {
    // The filesystem's own grep already reads them as RE2 does.
    const fsLines = (await workspace.fs.grep(query, "/workspace/f.c", { regex: true })).map((m) => m.line);
    expect(fsLines).toEqual(lines);
    const r = (await grep.execute({ path: "/workspace/f.c", query, regex: true })) as { error: string } | { matches: { line: number }[] };
    got[query] = "error" in r ? r.error : r.matches.map((m) => m.line);
    want[query] = lines;
  }
  // Was: the first three → "grep matches within one line at a time, and every match of this regex needs a line break (\n), so it could never match. …"
  expect(got).toEqual(want);
});
