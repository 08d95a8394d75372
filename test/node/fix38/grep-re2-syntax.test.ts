/**
 * Sibling of test/node/attack38c/grep-re2-syntax-silently-finds-nothing.test.ts (issue 20, run 38, fixer GR).
 *
 * grep's `regex: true` is "RE2 syntax, written as in JavaScript": RE2's own spellings that JavaScript without the
 * `u` flag would read as literals now mean what RE2 (and GNU grep, PCRE, ripgrep) mean, in both engines (V8 for
 * patterns proven safe, RE2 for the rest, and RE2 for a V8 pattern's lines past V8_LINE_LIMIT):
 * - POSIX classes inside brackets, all 14 of RE2 (`[[:alpha:]]`, `[^[:space:]]`, `[[:digit:]_-]`,
 *   `[^[:alnum:][:space:]]`, `[[:^alpha:]]`, `[[:word:]]`, `[[:ascii:]]`), ASCII only as in RE2 — checked against
 *   GNU grep 3.8 `-nE` run with LC_ALL=C (in a UTF-8 locale GNU's classes take in non-ASCII letters; RE2's and
 *   ripgrep's do not), or `-nP` (PCRE2 without UCP, also ASCII) for `[:^name:]`, `[:word:]`, `[:ascii:]`;
 * - Unicode classes `\pL`, `\p{L}`, `\p{Lu}`, `\p{Greek}`, `\p{Latin}`, `\p{Any}`, `\PL`, `\P{Greek}`, `\p{^L}`,
 *   inside and outside brackets; `\A`, `\z`; `\Q…\E`; `\x{3b1}` — against GNU grep 3.8 `-nP` (LC_ALL=C.UTF-8);
 * - with ignoreCase (POSIX classes only: PCRE2 does not fold `\p{Lu}` under -i, RE2 does, so `\p` with ignoreCase
 *   is not compared), with context lines, and on the error side: each escape RE2 does not know, an unknown POSIX
 *   or Unicode class name and `[:alpha:]` outside brackets are an error result naming the construct (GNU grep -E
 *   refuses the last two as well, status 2) — never a silent count 0.
 * Characters outside the BMP are left out: the pattern matches UTF-16 units, so `\pL` does not match `𝐀` (two
 * surrogate units) as RE2 does — documented in docs/tools.md.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compileGrepRegex, MAX_CLASS_EXPANSION, V8_LINE_LIMIT } from "../../../src/fs/grep-regex.js";
import { grepDefinition } from "../../../src/tools/core/grep.js";
import { setup } from "../tools/helpers.js";

const LONG = `Ωmega ${"β".repeat(300)} 7`;
const LINES = [
  "int main(void) {",
  "remain here",
  "version 123",
  "cafe au lait",
  "foo bar",
  "Αλφα βήτα",
  "\tx",
  "A.B and a.b",
  "x_y-z",
  "CAFÉ 42",
  "TODO: fix",
  LONG,
  "bell \u0007 rings",
];
const TEXT = LINES.join("\n") + "\n";

const dir = mkdtempSync(join(tmpdir(), "fix38-gr-"));
writeFileSync(join(dir, "a.txt"), TEXT);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Hit = { line: number; text: string };
type Mode = "-E" | "-P";

/** GNU grep's output lines (`grep -n <mode> [-i] [extra] -- pattern a.txt`); status 1 is none, 2 is `null`. */
function gnu(mode: Mode, pattern: string, ignoreCase: boolean, extra: string[] = []): Hit[] | null {
  let out: string;
  try {
    out = execFileSync("grep", ["-n", mode, ...(ignoreCase ? ["-i"] : []), ...extra, "--", pattern, "a.txt"], {
      cwd: dir,
      encoding: "utf8",
      // -E: the C locale, whose classes are ASCII as RE2's; -P: UTF-8 so that \p reads characters.
      env: { ...process.env, LC_ALL: mode === "-E" ? "C" : "C.UTF-8" },
      stdio: ["ignore", "pipe", "ignore"],
    });
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status === 1) return [];
    if (status === 2) return null;
    throw error;
  }
  return out
    .split("\n")
    .slice(0, -1)
    .filter((l) => l !== "--")
    .map((l) => {
      const [, n, sep, text] = /^(\d+)([:-])([\s\S]*)$/.exec(l)!;
      return { line: Number(n), text: sep === ":" ? text! : `-${text}` };
    });
}

async function tool(query: string, ignoreCase: boolean, context = 0) {
  const { workspace } = await setup({ "/workspace/a.txt": TEXT });
  return (await grepDefinition({ workspace, maxLineLength: 10_000 }).execute({ path: "/workspace/a.txt", query, regex: true, ignoreCase, context, limit: 100 })) as {
    matches?: { line: number; text: string; context?: { line: number; text: string; isMatch: boolean }[] }[];
    error?: string;
  };
}

/** [query, GNU mode, GNU's spelling when it differs (a capturing group for `(?:…)`)]. */
const CASES: [string, Mode, string?][] = [
  ["[[:digit:]]{3}", "-E"],
  ["^[[:space:]]*int", "-E"],
  ["[[:alpha:]]+ [[:digit:]]+$", "-E"],
  ["^[[:alpha:]]+$", "-E"],
  ["[[:punct:]]", "-E"],
  ["[^[:alnum:][:space:]]", "-E"],
  ["[[:digit:]_-]", "-E"],
  ["[[:upper:]]{2}", "-E"],
  ["^[[:lower:]]+ [[:lower:]]+$", "-E"],
  ["[[:xdigit:]]{3}", "-E"],
  ["^[[:blank:]]", "-E"],
  ["[[:cntrl:]]", "-E"],
  ["[^[:print:]]", "-E"],
  ["^[[:graph:]]+$", "-E"],
  ["[[:upper:]][[:punct:]][[:upper:]]", "-E"],
  ["^[^[:space:]]+$", "-E"],
  ["^(?:[[:alpha:]]+ )+[[:digit:]]+$", "-E", "^([[:alpha:]]+ )+[[:digit:]]+$"],
  ["[[:^alpha:]]{3}", "-P"],
  ["^[[:word:]-]+$", "-P"],
  ["[^[:ascii:]]", "-P"],
  ["\\Aint", "-P"],
  ["bar\\z", "-P"],
  ["^\\pL+ \\d+$", "-P"],
  ["^\\p{L}+ \\d+$", "-P"],
  ["\\p{Greek}+", "-P"],
  ["^\\PL", "-P"],
  ["\\p{Lu}{2}", "-P"],
  ["\\p{Lu}\\p{Ll}", "-P"],
  ["[^\\pL\\s]", "-P"],
  ["\\Qa.b\\E", "-P"],
  ["\\Q(void)\\E", "-P"],
  ["\\Q(void", "-P"],
  ["\\x{3b1}", "-P"],
  ["\\x{41}\\.", "-P"],
  ["^\\p{Ll}+ \\p{Ll}+$", "-P"],
  ["\\p{^L}\\p{N}", "-P"],
  ["\\P{Greek}\\p{Greek}", "-P"],
  ["[\\p{Nd}\\p{Greek}]{3}", "-P"],
  ["[\\P{L}]x", "-P"],
  ["\\p{Any}", "-P"],
  ["\\pN{2}", "-P"],
  ["\\p{Latin}+É", "-P"],
  ["^\\pL+ \\p{Greek}+ \\d$", "-P"],
  ["\\a", "-P"],
  ["^(?:\\pL|\\s)+\\z", "-P"],
  // A `-` right after a spelt-out class inside brackets is a literal, as RE2 reads it (run 38, lead; found by the
  // run's review: `[[:space:]-z]` matched `A` and `Q` as a range, `[[:cntrl:]-z]` failed "Range out of order").
  // GNU grep refuses these spellings (-E "Invalid range end", -P "invalid range in character class"), so it is
  // given the same class with the `-` last.
  ["^[[:blank:]-z]", "-E", "^[[:blank:]z-]"],
  ["[[:digit:]-z]{2}", "-E", "[[:digit:]z-]{2}"],
  ["[[:cntrl:]-z]", "-E", "[[:cntrl:]z-]"],
  ["^[[:space:]-z]", "-E", "^[[:space:]z-]"],
  ["^[\\p{Greek}-z]", "-P", "^[\\p{Greek}z-]"],
  ["[\\pN-z]{2}", "-P", "[\\pNz-]{2}"],
];

describe("grep regex: RE2's spellings mean what RE2 and GNU grep 3.8 read", () => {
  it.each(CASES)("%s (GNU %s)", async (query, mode, spelling) => {
    const expected = gnu(mode, spelling ?? query, false);
    expect(expected).not.toBeNull();
    const result = await tool(query, false);
    expect(result.error).toBeUndefined();
    expect(result.matches!.map(({ line, text }) => ({ line, text }))).toEqual(expected);
  });

  it.each(CASES.filter(([query, mode]) => mode === "-E" || !/\\[pP]/.test(query)))("%s with ignoreCase (GNU %s -i)", async (query, mode, spelling) => {
    const result = await tool(query, true);
    expect(result.error).toBeUndefined();
    expect(result.matches!.map(({ line, text }) => ({ line, text }))).toEqual(gnu(mode, spelling ?? query, true));
  });

  it("the cases run on both engines, and the long line moves a V8 pattern's test to RE2", () => {
    const engines = new Set(CASES.map(([query]) => compileGrepRegex(query, false).analysis.engine));
    expect([...engines].sort()).toEqual(["re2", "v8"]);
    expect(compileGrepRegex("^\\pL+ \\p{Greek}+ \\d$", false).analysis).toEqual({ engine: "v8", quantified: true });
    expect(LONG.length).toBeGreaterThan(V8_LINE_LIMIT);
  });

  it("context lines around `[[:digit:]]{3}` are GNU's `grep -nE -C1`", async () => {
    const expected = gnu("-E", "[[:digit:]]{3}", false, ["-C1"]);
    const seen = new Map<number, string>();
    for (const match of (await tool("[[:digit:]]{3}", false, 1)).matches!) {
      for (const c of match.context!) seen.set(c.line, c.isMatch ? c.text : `-${c.text}`);
    }
    expect([...seen].sort((x, y) => x[0] - y[0]).map(([line, text]) => ({ line, text }))).toEqual(expected);
  });

  it("workspace.fs.grep itself reads them too", async () => {
    const { workspace } = await setup({ "/workspace/a.txt": TEXT });
    const got = await workspace.fs.grep("[[:digit:]]{2}\\z", "/workspace/a.txt", { regex: true });
    expect(got.map(({ line, text }) => ({ line, text }))).toEqual(gnu("-P", "[[:digit:]]{2}\\z", false));
  });
});

describe("grep regex: what RE2 does not read is an error naming it, never a silent count 0", () => {
  /** [query, the construct the error names]. */
  const REFUSED: [string, string][] = [
    ["foo\\Z", "escape \\Z"],
    ["\\C", "escape \\C"],
    ["\\h+", "escape \\h"],
    ["\\Gfoo", "escape \\G"],
    ["foo\\Kbar", "escape \\K"],
    ["\\e", "escape \\e"],
    ["a\\Eb", "escape \\E"],
    ["\\N", "escape \\N"],
    ["\\R", "escape \\R"],
    ["\\X", "escape \\X"],
    ["\\i", "escape \\i"],
    ["\\y", "escape \\y"],
    ["\\9", "escape \\9"],
    ["\\xZZ", "\\x without two hex digits"],
    ["\\u00", "\\u without four hex digits"],
    ["[[:foo:]]", "POSIX class [:foo:]"],
    ["[[:Alpha:]]", "POSIX class [:Alpha:]"],
    ["[:alpha:]", "[:alpha:] outside a bracket expression"],
    ["x[:space:]+", "[:space:] outside a bracket expression"],
    ["\\p{Foo}", "Unicode class \\p{Foo}"],
    ["\\pQ", "Unicode class \\pQ"],
    ["[\\A]", "\\A inside a bracket expression"],
    ["[\\x{1F600}]", "\\x{1F600} (a character outside the Basic Multilingual Plane) inside a bracket expression"],
  ];
  it.each(REFUSED)("%s → an error naming %s", async (query, construct) => {
    for (const ignoreCase of [false, true]) {
      const result = await tool(query, ignoreCase);
      expect(result.error).toContain(`/${query}/: ${construct} is not supported`);
      expect(() => compileGrepRegex(query, ignoreCase)).toThrow(TypeError);
    }
  });

  it("GNU grep -E refuses an unknown POSIX class and [:alpha:] outside brackets too (status 2)", () => {
    expect(gnu("-E", "[[:foo:]]", false)).toBeNull();
    expect(gnu("-E", "[:alpha:]", false)).toBeNull();
  });

  it("escapes JavaScript and RE2 read alike are kept: \\d \\w \\s \\b \\x41 \\t \\. \\- \\/ \\cI, and \\u00e9 (JavaScript)", async () => {
    for (const [query, mode] of [
      ["\\d\\b", "-P"],
      ["^\\w+ \\w+$", "-P"],
      ["\\x41\\.", "-P"],
      ["^\\t", "-P"],
      ["\\w\\-\\w", "-P"],
    ] as const) {
      expect((await tool(query, false)).matches!.map((m) => m.line)).toEqual(gnu(mode, query, false)!.map((m) => m.line));
    }
    expect((await tool("^\\cIx", false)).matches!.map((m) => m.line)).toEqual([7]);
    expect((await tool("CAF\\u00c9", false)).matches!.map((m) => m.line)).toEqual(gnu("-P", "CAF\\x{c9}", false)!.map((m) => m.line));
  });
});

describe("grep regex: spelt-out classes are bounded", () => {
  it("a query of 2,000 `\\pL` (about 8.6 MB spelt out; 21 s to compile before the cap) is an error naming the limit", async () => {
    const query = "\\pL".repeat(2000);
    const result = await tool(query, true);
    expect(result.error).toContain(`too many Unicode or POSIX classes for grep's linear-time engine (spelt out they pass ${MAX_CLASS_EXPANSION} characters`);
    // Seven fit: the same lines as GNU grep -P.
    const seven = "\\pL".repeat(7);
    expect((await tool(seven, false)).matches!.map(({ line, text }) => ({ line, text }))).toEqual(gnu("-P", seven, false));
  });
});
