/**
 * Issue 20, run 36, fixer TL — sibling of test/node/attack36c/grep-multiline-query-silently-finds-nothing.test.ts.
 * grep matches one line at a time, so a query every match of which needs a line break gets an error result (as
 * ripgrep refuses `\n` in a pattern), never a silent `count: 0`; a query that CAN match within a line is searched
 * as before. Oracles: for a refused query, JavaScript's own RegExp (or `includes` for a literal) finds the text in
 * the whole file but on no single line; for an accepted one, the tool's matches are exactly the lines JavaScript's
 * RegExp (no flags) matches one by one, and the lines GNU grep 3.8 prints for the literal cases (`grep -nF`).
 * Every spelling of LF is covered: a raw LF, `\n`, `\x0a`/`\x0A`, `\u000a`, `\cJ`/`\cj`, `[\n]`, `[\x0a\n]`,
 * `(\n)+`, `\n{1,3}`, `(?:a\n|b\n)`, `foo\r?\n`; and the within-a-line forms `\s`, `[^\n]`, `[\s\S]`, `.`, `\n?`,
 * `\n*`, `\n{0,2}`, `a|\n`, `\\n` (a backslash, then n), `[\t-\r]`, `\x0b`, `\c` (no letter).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { grepDefinition } from "../../../src/tools/core/grep.js";
import { setup } from "../tools/helpers.js";

const FILE = "function foo() {\n  return 1;\r\n}\nback\\n slash\\c\n\tx\x0by\nab\n";
const LITERAL_ERROR = (line: string) =>
  `grep matches within one line at a time, and the query holds a line break, so it could never match. Search for one line of the text (e.g. ${JSON.stringify(line)}), then read the file around the match to check the lines that follow.`;
const REGEX_ERROR =
  "grep matches within one line at a time, and every match of this regex needs a line break (\\n), so it could never match. Search with a regex for one line of the text, then read the file around the match to check the lines that follow.";

const lines = FILE.split("\n").slice(0, -1);
const run = async (input: Record<string, unknown>) => {
  const { workspace } = await setup({ "/workspace/a.ts": FILE });
  return grepDefinition({ workspace }).execute({ path: "/workspace/a.ts", ...input } as never);
};

describe("grep: a query that needs a line break is refused", () => {
  it("literal queries holding LF: the error names their first non-blank line; the text is in the file", async () => {
    for (const [query, first] of [
      ["function foo() {\n  return 1;", "function foo() {"],
      ["\n  return 1;", "  return 1;"],
      ["1;\r\n}", "1;\r"],
      ["b\n", "b"],
    ] as const) {
      expect(FILE.includes(query)).toBe(true);
      expect(lines.some((l) => l.includes(query))).toBe(false);
      expect(await run({ query })).toEqual({ error: LITERAL_ERROR(first) });
    }
    expect(await run({ query: "\n" })).toEqual({
      error: "grep matches within one line at a time, and the query holds a line break, so it could never match. Search for one line of the text, then read the file around the match to check the lines that follow.",
    });
  });

  it("regexes every match of which needs LF, in every spelling; JS finds each in the file, on no line", async () => {
    const refused = [
      "foo\\(\\) \\{\\n",
      "\\{\n",
      "\\{\\x0a",
      "\\{\\x0A",
      "\\{\\u000a",
      "\\{\\cJ",
      "\\{\\cj",
      "\\{[\\n]",
      "\\{[\\x0a\\n]",
      "\\{(\\n)+",
      "\\{\\n{1,3}",
      "(?:\\{\\n|1;\\r\\n)",
      "1;\\r?\\n",
      "\\n}",
      "\\n",
    ];
    for (const query of refused) {
      expect(new RegExp(query).test(FILE), query).toBe(true);
      expect(lines.some((l) => new RegExp(query).test(l)), query).toBe(false);
      expect(await run({ query, regex: true }), query).toEqual({ error: REGEX_ERROR });
      expect(await run({ query, regex: true, ignoreCase: true }), query).toEqual({ error: REGEX_ERROR });
    }
  });
});

describe("grep: a query that can match within a line is searched as before", () => {
  it("regexes mentioning a line break but matchable in a line: the lines JS's RegExp matches, one by one", async () => {
    // `\\c` (no control letter) is refused now, as RE2 refuses it; `\\\\c` is the literal (issue 20, run 38, fixer GR).
    const accepted = ["\\{\\s*$", "\\{[^\\n]*", "[\\s\\S]1;", "re.urn", "\\{\\n?$", "\\{\\n*", "\\{\\n{0,2}", "slash|\\n", "back\\\\n", "x[\\t-\\r]y", "x\\x0by", "\\\\c", "ab\\n?"]; // fixer GR
    for (const query of accepted) {
      const want = lines.flatMap((text, i) => (new RegExp(query).test(text) ? [{ path: "/workspace/a.ts", line: i + 1, text }] : []));
      expect(want.length, query).toBeGreaterThan(0);
      const result = (await run({ query, regex: true })) as { matches: unknown[]; count: number };
      expect({ query, count: result.count, matches: result.matches }).toEqual({ query, count: want.length, matches: want });
    }
  });

  it("literal one-line queries give the lines GNU grep -nF prints", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tl-grep-"));
    writeFileSync(join(dir, "a.ts"), FILE);
    for (const query of ["return 1;\r", "back\\n", "{", "\t", "x\x0by"]) {
      const gnu = execFileSync("grep", ["-nF", "--", query, "a.ts"], { cwd: dir, encoding: "utf8" })
        .split("\n")
        .slice(0, -1)
        .map((l) => {
          const colon = l.indexOf(":");
          return { path: "/workspace/a.ts", line: Number(l.slice(0, colon)), text: l.slice(colon + 1) };
        });
      const result = (await run({ query })) as { matches: unknown[] };
      expect({ query, matches: result.matches }).toEqual({ query, matches: gnu });
    }
  });

  it("a malformed or unsupported regex holding \\n keeps fs.grep's own error", async () => {
    expect(await run({ query: "(\\n", regex: true })).toEqual({ error: "Invalid regular expression: /(\\n/: Unterminated group" });
    const back = (await run({ query: "(a)\\n\\1", regex: true })) as { error: string };
    expect(back.error).toMatch(/^Invalid regular expression: .*backreference \\1 is not supported/);
    const look = (await run({ query: "\\{(?!\\n)", regex: true })) as { error: string };
    expect(look.error).toMatch(/^Invalid regular expression: .*lookahead.* is not supported/);
  });
});
