/**
 * grep regexes in linear time (issue 12 §1): the hostile reproduction, the
 * static "safe for V8" analysis on known ReDoS shapes and on common agent
 * patterns, the errors for constructs a linear-time engine cannot run, and
 * V8 and RE2 giving the same answers for the same pattern.
 * The V8 reference runs with dotAll (`s`), as grep's V8 path does: `.` matches CR, U+2028 and U+2029 (issue 20, run 37, fixer F1).
 */
import { RE2JS } from "re2js";
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../src/index.js";
import { analyzeGrepRegex, compileGrepRegex, parseGrepRegex, re2Text, requiredLiteral, rewriteRe2Syntax, V8_LINE_LIMIT } from "../../src/fs/grep-regex.js"; // rewriteRe2Syntax: fixer GR

const HOSTILE = "x".repeat(40) + "!";

describe("the reproduction", () => {
  it('"(x+x+)+y" over 40 x\'s and "!" returns no match at once, and a timer is not held up', async () => {
    const fs = new Workspace({ storage: nodeSqliteStorage() }).fs;
    await fs.writeFile("/x.txt", HOSTILE);
    // V8 alone takes minutes here (241 ms at 22 x's, doubling with each x).
    let timerLate = 0;
    const timer = new Promise<void>((resolve) => {
      const due = performance.now() + 10;
      setTimeout(() => {
        timerLate = performance.now() - due;
        resolve();
      }, 10);
    });
    const started = performance.now();
    expect(await fs.grep("(x+x+)+y", "/x.txt", { regex: true })).toEqual([]);
    expect(await fs.grep("(x+x+)+y", "/x.txt", { regex: true, ignoreCase: true })).toEqual([]);
    expect(await fs.grep("(x+x+)+!", "/x.txt", { regex: true })).toEqual([{ path: "/x.txt", line: 1, text: HOSTILE }]);
    expect(performance.now() - started).toBeLessThan(2000);
    await timer;
    expect(timerLate).toBeLessThan(2000);
  });

  it("the same shape over a 1 MB line, and a quadratic pattern over a long line, stay linear", () => {
    const long = "x".repeat(1_000_000) + "!";
    const started = performance.now();
    expect(compileGrepRegex("(x+x+)+y", false).test(long)).toBe(false);
    // Safe for V8 on short lines, but .* is quadratic in V8 over one long line: RE2 takes lines past V8_LINE_LIMIT.
    expect(compileGrepRegex(".*y", false).test(long)).toBe(false);
    expect(compileGrepRegex("x+y", false).test(long)).toBe(false);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

/** Known ReDoS shapes: none may be called safe for V8. */
const REDOS: Array<[string, string]> = [
  // nested quantifiers
  ["(x+x+)+y", "repeated"],
  ["(a+)+", "repeated"],
  ["(a*)*b", "repeated"],
  ["(a+)*$", "repeated"],
  ["([a-zA-Z]+)*$", "repeated"],
  ["(\\w+\\s?)+$", "repeated"],
  ["^(([a-z])+.)+[A-Z]([a-z])+$", "repeated"],
  ["(.*a){12}", "repeated"],
  ["^([a-zA-Z0-9_\\.\\-])+\\@(([a-zA-Z0-9\\-])+\\.)+([a-zA-Z0-9]{2,4})+$", "repeated"],
  ["(?:x+){2,100}", "repeated"],
  ["(a{1,20})+b", "repeated"],
  // overlapping alternations under * / +
  ["(a|a)*", "repeated"],
  ["(a|aa)+b", "repeated"],
  ["(a|ab)*c", "repeated"],
  ["(\\w|\\d)+x", "repeated"],
  ["(.|\\s)*end", "repeated"],
  ["(?:a|b|ab)*c", "repeated"],
  ["(?:\\s|\\n|\\r)*$", "repeated"],
  // bounded repeats of groups
  ["(a|a){1,30}b", "repeated"],
  ["(a?){25}a{25}", "repeated"],
  ["(ab|a){2,}", "repeated"],
  ["(?:a|b){20}c", "repeated"],
  // adjacent or separated repeats over the same characters (polynomial)
  ["\\s*\\s*$", "same characters"],
  ["a*a*b", "same characters"],
  [".*.*=.*", "same characters"],
  ["\\d+\\d+x", "same characters"],
  ["a.*b.*c", "same characters"],
  ["\\w+\\s*=\\s*\\w+;", "same characters"],
  ["x+x+y", "same characters"],
  ["[a-z]+[A-Z]+\\d", "same characters"], // ignoreCase below makes these overlap too
  // many optional parts (a?^n a^n)
  ["a?".repeat(10) + "a".repeat(10), "paths"],
  ["(?:a|b)(?:a|b)(?:a|b)(?:a|b)(?:a|b)(?:a|b)(?:a|b)", "paths"],
];

/** Patterns agents write that must stay on V8. */
const COMMON = [
  "function\\s+\\w+",
  "TODO|FIXME",
  "^import .* from",
  "\\bfoo\\(",
  "export (const|function) \\w+",
  "console\\.log\\(",
  "\\d{4}-\\d{2}-\\d{2}",
  "https?://[^\\s\"]+",
  "class \\w+ extends \\w+",
  "^\\s*#include <\\w+\\.h>",
  "useState<.*>\\(",
  "(foo)?bar",
  "[A-Z_]+=",
  "def \\w+\\(self",
  "T.DO",
  "\\.then\\(",
  "a{3}",
];

describe("static analysis", () => {
  it.each(REDOS)("%s is not safe for V8 (%s)", (pattern, why) => {
    const ignoreCase = pattern === "[a-z]+[A-Z]+\\d";
    const analysis = analyzeGrepRegex(parseGrepRegex(pattern, ignoreCase));
    expect(analysis.engine).toBe("re2");
    expect(analysis.reason).toContain(why);
  });

  it("[a-z]+[A-Z]+\\d is safe only without ignoreCase (the sets are disjoint until folded)", () => {
    expect(analyzeGrepRegex(parseGrepRegex("[a-z]+[A-Z]+\\d", false)).engine).toBe("v8");
  });

  it.each(COMMON)("%s stays on V8", (pattern) => {
    expect(analyzeGrepRegex(parseGrepRegex(pattern, false))).toMatchObject({ engine: "v8" });
    expect(analyzeGrepRegex(parseGrepRegex(pattern, true))).toMatchObject({ engine: "v8" });
  });

  it("V8 takes long lines only for patterns without an unbounded repeat", () => {
    expect(analyzeGrepRegex(parseGrepRegex("TODO|FIXME", false))).toEqual({ engine: "v8", quantified: false });
    expect(analyzeGrepRegex(parseGrepRegex("function\\s+\\w+", false))).toEqual({ engine: "v8", quantified: true });
    expect(analyzeGrepRegex(parseGrepRegex("x{16}y", false))).toEqual({ engine: "v8", quantified: false });
    // A wide exact repeat costs its count per start: long lines go to RE2.
    expect(analyzeGrepRegex(parseGrepRegex("x{1000}y", false))).toEqual({ engine: "v8", quantified: true });
    expect(V8_LINE_LIMIT).toBe(256);
  });
});

describe("unsupported constructs are named", () => {
  const SUFFIX = "is not supported (grep uses a linear-time engine: RE2 syntax, no backreferences or lookaround)";
  it.each([
    ["(a)\\1", `Invalid regular expression: /(a)\\1/: backreference \\1 ${SUFFIX}`],
    ["(?<q>['\"]).*\\k<q>", `Invalid regular expression: /(?<q>['"]).*\\k<q>/: backreference \\k<q> ${SUFFIX}`],
    ["foo(?=bar)", `Invalid regular expression: /foo(?=bar)/: lookahead (?=…) ${SUFFIX}`],
    ["foo(?!bar)", `Invalid regular expression: /foo(?!bar)/: negative lookahead (?!…) ${SUFFIX}`],
    ["(?<=\\$)\\d+", `Invalid regular expression: /(?<=\\$)\\d+/: lookbehind (?<=…) ${SUFFIX}`],
    ["(?<!\\\\)n", `Invalid regular expression: /(?<!\\\\)n/: negative lookbehind (?<!…) ${SUFFIX}`],
    ["\\1", `Invalid regular expression: /\\1/: octal escape \\1 ${SUFFIX}`],
    ["[\\012]", `Invalid regular expression: /[\\012]/: octal escape \\012 ${SUFFIX}`],
    ["x{2000}", `Invalid regular expression: /x{2000}/: repeat count {2000} above 1000 ${SUFFIX}`],
    // regexpp sums these digits in floating point (1.0000000000000002e20): the count is read as Number() reads it.
    ["x{99999999999999999999}", `Invalid regular expression: /x{99999999999999999999}/: repeat count {100000000000000000000} above 1000 ${SUFFIX}`],
    ["x{1,9007199254740993}", `Invalid regular expression: /x{1,9007199254740993}/: repeat count {1,9007199254740992} above 1000 ${SUFFIX}`],
    // `\0` directly followed by a digit reads as the start of an octal escape.
    ["\\08", `Invalid regular expression: /\\08/: octal escape \\0 ${SUFFIX}`],
    ["\\400", `Invalid regular expression: /\\400/: octal escape \\400 ${SUFFIX}`],
    ["(a)\\18", `Invalid regular expression: /(a)\\18/: octal escape \\1 ${SUFFIX}`],
    ["(a)(a)(a)(a)(a)(a)(a)(a)(a)(a)(a)(a)\\12", `Invalid regular expression: /(a)(a)(a)(a)(a)(a)(a)(a)(a)(a)(a)(a)\\12/: backreference \\12 ${SUFFIX}`],
    ["(a{100}){100}", "Invalid regular expression: /(a{100}){100}/: too large for grep's linear-time engine (nested repeat counts may multiply to at most 1000)"],
  ])("%s", (pattern, message) => {
    expect(() => compileGrepRegex(pattern, false)).toThrow(new TypeError(message));
  });

  it("a pattern nested deeper than the parser's stack is a TypeError too", () => {
    const deep = "(".repeat(20_000) + "a" + ")".repeat(20_000);
    expect(() => compileGrepRegex(deep, false)).toThrow(new TypeError(`Invalid regular expression: /${"(".repeat(200)}…/ (40001 characters): nested too deeply for grep's linear-time engine`));
  });

  it("an inline modifier group (V8 checks the source first: Node 20 rejects it, newer V8s accept it)", () => {
    for (const [pattern, shown] of [
      ["(?i:a)b", "(?i:…)"],
      ["(?-i:a)", "(?-i:…)"],
      ["(?m-s:a)", "(?m-s:…)"],
    ]) {
      expect(() => parseGrepRegex(pattern!, false)).toThrow(new TypeError(`Invalid regular expression: /${pattern}/: modifier group ${shown} ${SUFFIX}`));
    }
  });

  it("malformed source keeps V8's own message", () => {
    expect(() => compileGrepRegex("(", false)).toThrow(new TypeError("Invalid regular expression: /(/: Unterminated group"));
    expect(() => compileGrepRegex("a**", false)).toThrow(new TypeError("Invalid regular expression: /a**/: Nothing to repeat"));
  });

  it("through workspace.fs.grep: a TypeError", async () => {
    const fs = new Workspace({ storage: nodeSqliteStorage() }).fs;
    await fs.writeFile("/a.txt", "foobar\n");
    await expect(fs.grep("foo(?=bar)", "/a.txt", { regex: true })).rejects.toThrow(new TypeError(`Invalid regular expression: /foo(?=bar)/: lookahead (?=…) ${SUFFIX}`));
    // Literal mode is a plain substring scan: the same text is just text.
    expect(await fs.grep("(?=", "/a.txt")).toEqual([]);
  });
});

/** Sample lines: ASCII, case, Unicode letters and spaces, CRLF leftovers, line separators, astral characters. */
const LINES = [
  "",
  "function foo(a, b) {",
  "export const Bar = 1;",
  "  // TODO: fix this  ",
  "FIXME later",
  "import { x } from 'y'",
  "class Foo extends Bar {}",
  "2024-01-31 https://example.com/a?b=c \"q\"",
  "KELVIN \u212a sign, long s \u017f, ß, İ, ı, Σσς",
  "tab\there\u00a0nbsp\u2003em\ufeffbom",
  "crlf line\r",
  "sep\u2028arator\u2029",
  "emoji 😀 and 𝒳 astral",
  "aaaaaaaaaaaaaaab",
  "xxxxxxxxxxxxxxxxxxxx!",
  "a-b_c]d[e{f}g\\h/i",
  "\u0000\u0001\u001f\u007f",
  "ÀÉÎÕÜ àéîõü",
  "a1b2c3 A1B2C3",
  "foo=bar; baz = qux;",
];

/** Patterns for the differential test: V8 and the RE2 translation must agree on every sample line. */
const PATTERNS = [
  ...COMMON,
  ".",
  "^$",
  "^.$",
  "\\s",
  "\\S+",
  "\\w\\W",
  "\\d\\D",
  "\\bbar\\b",
  "\\Bar",
  "[^a-z]",
  "[^\\s]",
  "[\\s\\S]",
  "[\\w-]+",
  "[\\d-z]",
  "[]a]",
  "[^]",
  "a]",
  "a{",
  "}",
  "{,5}",
  // `\u{41}`, `\c1`, `[\c1]`, `\8`, `\a\e\z`, `\p{L}` were here as JavaScript reads them (literals); they are RE2
  // spellings (`\p{L}`, `\a`, `\z`) or refused escapes now: see "RE2 spellings" below (issue 20, run 38, fixer GR).
  "\\x41\\u0042",
  "\\cJ|\\t",
  "\\0",
  "\\/",
  "sign|s",
  "k",
  "K",
  "ſ",
  "ß",
  "σ",
  "Σ",
  "ı|İ",
  "[à-ü]",
  "é",
  "😀",
  "[😀]",
  "𝒳|😀",
  ".😀",
  "\\r$",
  "line.$",
  "sep.arator",
  "(?<name>foo)|bar",
  "(?:)",
  "a|",
  "x{2}!",
  "x{3,}!",
  "[\\b]",
  "\\f|\\v",
  "a+?b",
  "b{0,3}?$",
];

/** Short lines, for the ReDoS shapes (V8 would take exponential time on long ones). */
const SHORT = ["", "aab", "aaaaab", "xxxx!", "xxy", "a=b;", "a b c", "AbC1", "end", " \r\n", "ab\u212a", "2024-01-31"];

describe("V8 and RE2 agree", () => {
  it.each(REDOS.map(([pattern]) => pattern))("%s (short lines)", (pattern) => {
    for (const ignoreCase of [false, true]) {
      const v8 = new RegExp(pattern, ignoreCase ? "is" : "s"); // grep runs V8 with dotAll: `.` matches CR (issue 20, run 37, fixer F1)
      const compiled = compileGrepRegex(pattern, ignoreCase);
      for (const line of SHORT) expect(compiled.test(line), `${JSON.stringify(pattern)} i=${ignoreCase} on ${JSON.stringify(line)} (RE2 ${compiled.re2Source})`).toBe(v8.test(line));
    }
  });

  it.each(PATTERNS)("%s", (pattern) => {
    for (const ignoreCase of [false, true]) {
      const v8 = new RegExp(pattern, ignoreCase ? "is" : "s"); // grep runs V8 with dotAll: `.` matches CR (issue 20, run 37, fixer F1)
      const compiled = compileGrepRegex(pattern, ignoreCase);
      const re2 = RE2JS.compile(compiled.re2Source);
      for (const line of LINES) {
        const expected = v8.test(line);
        const label = `${JSON.stringify(pattern)} i=${ignoreCase} on ${JSON.stringify(line)} (RE2 ${compiled.re2Source})`;
        expect(re2.test(re2Text(line)), label).toBe(expected);
        expect(compiled.test(line), label).toBe(expected);
        // Past V8_LINE_LIMIT a line goes to RE2 even for a safe pattern: same answer.
        const padded = line + " ".repeat(V8_LINE_LIMIT + 1);
        expect(compiled.test(padded), `${label} padded`).toBe(v8.test(padded));
      }
    }
  });
});

/** RE2 spellings grep rewrites before either engine runs ({@link rewriteRe2Syntax}; issue 20, run 38, fixer GR). */
const RE2_SPELLINGS = ["\\p{L}", "\\pL+", "\\PL", "\\p{^L}", "\\P{Greek}\\p{Greek}", "[\\p{Lu}\\d]+", "[^\\pL\\s]", "[[:alpha:]]+", "[^[:space:]]", "[[:^alpha:]]", "[[:upper:]][[:punct:]]", "\\Ak", "x\\z", "\\Q.*\\E", "\\x{e9}", "\\x{1F600}", "\\a|\\t", "(?:\\pL|\\d)+\\z"]; // fixer GR

describe("RE2 spellings (issue 20, run 38, fixer GR)", () => {
  it.each(RE2_SPELLINGS)("%s: V8 on the rewritten source and the RE2 translation agree", (pattern) => {
    for (const ignoreCase of [false, true]) {
      const v8 = new RegExp(rewriteRe2Syntax(pattern, pattern, ignoreCase), ignoreCase ? "is" : "s"); // fixer GX: folds negated classes first
      const compiled = compileGrepRegex(pattern, ignoreCase);
      const re2 = RE2JS.compile(compiled.re2Source);
      for (const line of [...LINES, "x", "Ωk", "é", "\u0007", "A!", "Ü1"]) {
        const label = `${JSON.stringify(pattern)} i=${ignoreCase} on ${JSON.stringify(line)} (RE2 ${compiled.re2Source.slice(0, 200)})`;
        expect(re2.test(re2Text(line)), label).toBe(v8.test(line));
        expect(compiled.test(line), label).toBe(v8.test(line));
        const padded = line + " ".repeat(V8_LINE_LIMIT + 1);
        expect(compiled.test(padded), `${label} padded`).toBe(v8.test(padded));
      }
    }
  });

  it.each(["\\u{41}", "\\c1", "[\\c1]", "\\8", "\\a\\e\\z"])("%s is refused by name (JavaScript would read a literal, RE2 refuses it)", (pattern) => {
    expect(() => compileGrepRegex(pattern, false)).toThrow(/is not supported by grep's regex syntax/);
  });
});

describe("a repeat count written with many digits", () => {
  it("x{000…01} (over 64 characters) is a repeat, as V8 reads it: no literal braces", () => {
    const pattern = `x{${"0".repeat(70)}1}y`;
    const compiled = compileGrepRegex(pattern, false);
    expect(compiled.re2Source).toBe("x{1}y");
    expect(requiredLiteral(parseGrepRegex(pattern, false))).toBe("y");
    for (const line of ["xy", "x{y", "y"]) expect(compiled.test(line), line).toBe(new RegExp(pattern).test(line));
  });
});

describe("prefilter", () => {
  it.each([
    ["(?:export |async )+function handler_\\d+", false, "function handler_"],
    ["function\\s+\\w+", false, "function"],
    ["TODO|FIXME", false, ""],
    ["(foo)bar(baz)?", false, "foobar"],
    ["x+yz", false, "yz"],
    ["ab?c", false, "a"],
    ["abc", true, ""],
    ["12-34", true, "12-34"],
    ["😀!", false, "😀!"],
  ] as const)("%s (ignoreCase %s) needs %j", (pattern, ignoreCase, literal) => {
    expect(requiredLiteral(parseGrepRegex(pattern, ignoreCase))).toBe(literal);
  });
});

describe("ignoreCase folds as V8 does without u", () => {
  it("every group of code units with one canonical form: each member finds all the others, and nothing else", () => {
    const canonical = (unit: number) => {
      const upper = String.fromCharCode(unit).toUpperCase();
      return upper.length !== 1 || (unit >= 128 && upper.charCodeAt(0) < 128) ? unit : upper.charCodeAt(0);
    };
    const groups = new Map<number, number[]>();
    for (let unit = 0; unit <= 0xffff; unit++) {
      if (unit >= 0xd800 && unit <= 0xdfff) continue;
      const key = canonical(unit);
      groups.set(key, [...(groups.get(key) ?? []), unit]);
    }
    let checked = 0;
    for (const group of groups.values()) {
      if (group.length < 2) continue;
      const source = `\\u${group[0]!.toString(16).padStart(4, "0")}`;
      const re2 = RE2JS.compile(compileGrepRegex(source, true).re2Source);
      const v8 = new RegExp(source, "i");
      for (const unit of [...group, group[0]! + 1, group[0]! - 1]) {
        const text = String.fromCharCode(unit);
        expect(re2.test(re2Text(text)), `${source} on U+${unit.toString(16)}`).toBe(v8.test(text));
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(1000);
  });
});

describe("astral characters are two UTF-16 units on both engines", () => {
  it.each([
    ["^(?:.)+$", "😀", true],
    ["^(?:.){2}$", "😀", true],
    ["^(?:.){3}$", "😀", false],
    ["^(?:[^x]){2}$", "\ud83d\ud83d", true],
    ["(?:\ude00)+", "😀", true],
    ["(?:\ud83d)+$", "😀", false],
  ] as const)("%s on %j: %s", (pattern, line, expected) => {
    const compiled = compileGrepRegex(pattern, false);
    expect(compiled.analysis.engine).toBe("re2");
    expect(new RegExp(pattern).test(line)).toBe(expected);
    expect(compiled.test(line)).toBe(expected);
  });
});

describe("search: where the first match starts", () => {
  it.each([
    ["b+", false, "aabbb", 2],
    ["b+", false, "😀😀bb", 4],
    ["(x+x+)+!", false, "😀xxxx!", 2],
    ["é", true, "aÉé", 1],
    ["^a", false, "ba", -1],
    ["z", false, "abc", -1],
  ] as const)("%s (ignoreCase %s) in %j: %d", (pattern, ignoreCase, line, at) => {
    const compiled = compileGrepRegex(pattern, ignoreCase);
    expect(compiled.search(line)).toBe(at);
    // A line past V8_LINE_LIMIT is searched by RE2: same UTF-16 index.
    expect(compiled.search(line + " ".repeat(V8_LINE_LIMIT))).toBe(at);
  });
});

describe("V8 and RE2 agree on generated patterns", () => {
  it("2,000 random patterns (groups, alternations, repeats, classes, escapes, astral characters, ignoreCase) × 10 random lines, short and past V8_LINE_LIMIT", () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return (seed >>> 12) % n;
    };
    const atoms = ["a", "B", "k", "s", "é", "É", "ſ", "\u212a", ".", "\\w", "\\W", "\\s", "\\S", "\\d", "\\D", "[a-c]", "[^a-c]", "[\\w-]", "[^\\s]", "\\b", "\\B", "^", "$", "-", "\\.", "[K-Z]", "[^k]", "😀", "\\u00e9", "\\x41", "[é-ü]", "\\t", " ", "\u00a0", "\u2028", "\r", "[]", "[^]", "]", "{", "}"];
    const quantifiers = ["", "", "", "*", "+", "?", "{2}", "{1,3}", "*?"];
    const generate = (depth: number): string => {
      let out = "";
      for (let i = 1 + random(4); i > 0; i--) {
        const r = random(10);
        const atom = r < 7 || depth > 1 ? atoms[random(atoms.length)]! : r < 9 ? `(${generate(depth + 1)})` : `(?:${generate(depth + 1)}|${generate(depth + 1)})`;
        const quantifier = quantifiers[random(quantifiers.length)]!;
        out += atom + (["^", "$", "\\b", "\\B"].includes(atom) ? "" : quantifier);
      }
      return out;
    };
    const chars = ["a", "B", "b", "k", "K", "s", "S", "é", "É", "ſ", "\u212a", " ", "\t", "\u00a0", "\u2028", "\r", "1", "-", ".", "😀", "\ud83d", "x", "_", "]", "{", "}", "A", "ü", "Ü"];
    const line = () => Array.from({ length: random(12) }, () => chars[random(chars.length)]).join("");
    const pad = " ".repeat(V8_LINE_LIMIT + 44);
    let checked = 0;
    for (let k = 0; k < 2000; k++) {
      const pattern = generate(0);
      const ignoreCase = random(2) === 1;
      const v8 = new RegExp(pattern, ignoreCase ? "is" : "s"); // grep runs V8 with dotAll: `.` matches CR (issue 20, run 37, fixer F1)
      const compiled = compileGrepRegex(pattern, ignoreCase);
      for (let j = 0; j < 10; j++) {
        const text = line();
        const label = `${JSON.stringify(pattern)} i=${ignoreCase} on ${JSON.stringify(text)} (${compiled.analysis.engine}; RE2 ${compiled.re2Source})`;
        expect(compiled.test(text), label).toBe(v8.test(text));
        // Past V8_LINE_LIMIT, RE2 takes the lines of patterns on V8 (V8 is the reference only where it is safe).
        if (compiled.analysis.engine === "v8") expect(compiled.test(text + pad), `${label} padded`).toBe(v8.test(text + pad));
        checked++;
      }
    }
    expect(checked).toBe(20_000);
  });
});
