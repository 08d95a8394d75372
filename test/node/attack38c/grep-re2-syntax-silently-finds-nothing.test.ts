/**
 * Issue 20, thirty-eighth attack run: the grep tool tells the model its `regex` field is "RE2 syntax, written as in
 * JavaScript", but reads the query as `new RegExp(query)` without the `u` flag, so RE2's (and GNU grep's, PCRE's,
 * ripgrep's) own spellings — POSIX classes `[[:digit:]]`, `[[:space:]]`, `[[:alpha:]]`, Unicode classes `\pL` /
 * `\p{L}`, the text anchors `\A` / `\z` — are silently read as something else (`[[:digit:]]` is the class
 * `[:digt]` then a literal `]`; `\p` is `p`, `\A` is `A`, `\z` is `z`) and the tool answers a plain `{ count: 0,
 * matches: [] }`, no note, no error, for lines that match. The agent concludes the text is absent and acts on it.
 * Tried: 25 regex queries over one file against GNU grep 3.8 `-nE` / `-nP` (LC_ALL=C.UTF-8): `\<main\>`, `main\b`,
 * `foo\|bar`, `(?i)TAB`, `(?i:tab)`, `(?P<n>b)`, `x{,3}`, `\w+é`, `[[:digit:]]{3}`, `^\s+\S`, `\d{2}\b`, `é\b`, `\bé`,
 * `caf\w`, `[\w]+`, `\Qa.b\E`, `\x41`, `\u00e9`, `\p{L}+`, `\pL`, `[^[:space:]]+$`, `a{2,1}`, `\Afoo`, `bar\z`.
 * Held: `(?i)`, `(?i:…)`, `(?P<n>…)`, `a{2,1}` are loud errors; `\b`, `\w`, `\d`, `\s`, `\x41`, `\u00e9`, `x{,3}`
 * (literal, as RE2) as GNU -P / RE2; `\w`/`\b` ASCII-only as PCRE without UCP.
 * Found (medium — a wrong "not found" the agent acts on, from syntax the tool's own description invites; 2 of 2
 * runs): over "int main(void) {\nremain here\nversion 123\ncafe au lait\nfoo bar\n", `grep -nE '[[:digit:]]{3}'` → 3,
 * `'^[[:space:]]*int'` → 1, `'[[:alpha:]]+ [[:digit:]]+$'` → 3, `grep -nP '^\pL+ \d+$'` / `'^\p{L}+ \d+$'` → 3,
 * `'\Aint'` → 1, `'bar\z'` → 5; the tool: `{"count":0,"matches":[]}` for every one. (`\<main\>`, GNU -E line 1, is
 * also count 0 here, but `\<` is not RE2: odd, not asserted.)
 * Suggested fix: src/fs/grep-regex.ts (where the query is parsed for V8/RE2) — either accept RE2's spellings (POSIX
 * `[[:name:]]` inside a class, `\pX`/`\p{X}`/`\PX`, `\A`, `\z`) with RE2's meaning, or refuse them (and any other
 * identity escape of a letter, as the `u` flag does) with an error naming the construct and the JavaScript spelling
 * (`\d`, `\s`, `[A-Za-z]`, `^`, `$`); or change the description to say "JavaScript syntax (no u flag)". The test
 * accepts either the lines GNU grep prints or an error result — never a silent count 0.
 * Fixed: src/fs/grep-regex.ts rewriteRe2Syntax reads RE2's spellings with RE2's meaning before either engine sees
 * the pattern — the 14 POSIX classes inside brackets (ASCII, `[:^name:]` too), `\pX`/`\p{X}`/`\PX`/`\p{^X}`
 * (general categories and scripts, BMP characters), `\A`, `\z`, `\Q…\E`, `\x{…}`, `\a` — and refuses by name any
 * other escape of a letter RE2 does not know (`\Z`, `\C`, `\h`, …), an unknown class name and `[:alpha:]` outside
 * brackets (issue 20, run 38, fixer GR). Siblings: test/node/fix38/grep-re2-syntax.test.ts.
 */
import { expect, it } from "vitest";
import { grepDefinition } from "../../../src/tools/core/grep.js";
import { setup } from "../tools/helpers.js";

const FILE = "int main(void) {\nremain here\nversion 123\ncafe au lait\nfoo bar\n";

it("RE2 spellings of classes and anchors are matched (or refused), never a silent count 0", async () => {
  const { workspace } = await setup({ "/workspace/f.txt": FILE });
  const grep = grepDefinition({ workspace });
  // query → line numbers GNU grep 3.8 (-E for POSIX classes, -P for \p and \A/\z) prints
  const cases: [string, number[]][] = [
    ["[[:digit:]]{3}", [3]],
    ["^[[:space:]]*int", [1]],
    ["[[:alpha:]]+ [[:digit:]]+$", [3]],
    ["^\\pL+ \\d+$", [3]],
    ["^\\p{L}+ \\d+$", [3]],
    ["\\Aint", [1]],
    ["bar\\z", [5]],
  ];
  const got: Record<string, unknown> = {};
  const want: Record<string, unknown> = {};
  for (const [query, lines] of cases) {
    const r = (await grep.execute({ path: "/workspace/f.txt", query, regex: true })) as
      | { error: string }
      | { count: number; matches: { line: number }[] };
    // An error result (naming the construct) is as good as the match: either way the agent is not told "absent".
    got[query] = "error" in r ? "error" : r.matches.map((m) => m.line);
    want[query] = "error" in r ? "error" : lines;
  }
  // Was: every query → {"count":0,"matches":[]} (lines [])
  expect(got).toEqual(want);
});
