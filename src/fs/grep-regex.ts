/**
 * Regular expressions for `workspace.fs.grep` (`regex: true`) in linear time.
 *
 * A backtracking engine (V8's) can take exponential time on patterns such as
 * `(x+x+)+y`, and a Durable Object is single-threaded, so one such search
 * would freeze the object. grep therefore accepts only what a linear-time
 * engine can run — RE2 semantics, written in JavaScript syntax — and picks an
 * engine per pattern:
 *
 * 1. V8 checks the source first (its error for a malformed pattern is kept).
 * 2. {@link parseGrepRegex} parses it as V8 does (no `u` flag, with the web
 *    compatibility syntax of ECMA-262 Annex B) with `@eslint-community/regexpp`
 *    and lowers regexpp's tree to a small one of character sets. A
 *    backreference, lookaround, an octal escape or an inline modifier group
 *    is refused with a TypeError that names the construct.
 * 3. The tree is written out as RE2 syntax (every character class spelt out,
 *    case folding done here with V8's rules, surrogate units moved to Plane
 *    15 so RE2 reads UTF-16 units as V8 does) and compiled with `re2js`, a
 *    port of RE2.
 * 4. {@link analyzeGrepRegex} decides whether V8 may run it: only when no
 *    quantified group, no two unbounded quantifiers whose characters
 *    overlap (unless the first must stop at the end of its run), and at most
 *    {@link MAX_V8_PATHS} paths through alternations and optional parts.
 *    Such a pattern backtracks at most polynomially (degree 2 in the line
 *    length), so V8 runs it on lines up to {@link V8_LINE_LIMIT} characters
 *    and RE2 on longer ones; a pattern without an unbounded (or wide)
 *    repeat runs on V8 for every line. Everything else runs on RE2 only.
 * 5. A line without the literal every match needs ({@link requiredLiteral})
 *    is rejected by `String#includes` before either engine runs.
 *
 * A line is tested without its LF, so `.` matches any character of it: CR
 * (a CRLF file's `…\r`, a progress bar's lone CR), U+2028 and U+2029 too,
 * as RE2's and GNU grep's `.` ("any character but newline") do, not as
 * JavaScript's (which also stops at CR, U+2028 and U+2029): V8 runs with the
 * `s` flag. `$` is the end of the line, so `foo$` does not match `foo\r`
 * (GNU grep 3.8 neither); `[^…]`, `\s` and `\W` match CR as before (issue
 * 20, run 37, fixer F1).
 *
 * RE2's own spellings that JavaScript without `u` would read as literals —
 * POSIX classes `[[:digit:]]`, Unicode classes `\pL` / `\p{Greek}`, `\A`,
 * `\z`, `\Q…\E`, `\x{…}` — are rewritten with RE2's meaning before either
 * engine sees the pattern, and any other escape of a letter RE2 does not
 * know (`\Z`, `\C`, `\h`, …) is refused by name ({@link rewriteRe2Syntax};
 * issue 20, run 38, fixer GR).
 *
 * @module
 */
import { type AST, RegExpParser } from "@eslint-community/regexpp";
import { RE2JS } from "re2js";

/** Longest line V8 tests for a pattern with an unbounded (or wide) repeat; longer lines go to RE2. */
export const V8_LINE_LIMIT = 256;

/**
 * Largest RE2 program (re2js `programSize()`, about one instruction per
 * literal character, class or repeat copy) grep compiles. RE2's time is
 * linear in the text but proportional to the program too, and `{1,1000}` of
 * a group makes the program a thousand times larger: `(a|aa){1,1000}$`
 * (5,002) took 1.2 s over one 10,000-character line.
 */
export const MAX_RE2_PROGRAM_SIZE = 1000;

/**
 * Work one grep call may spend in RE2, in program size × characters
 * scanned (lines the literal prefilter and V8 take do not count): about
 * 0.1–1 s here. Past it the search fails with a `RangeError` that says what
 * to do, instead of holding the Durable Object for minutes.
 */
export const RE2_WORK_BUDGET = 300_000_000;

/** Most paths through alternations, `?` and small bounded repeats that a pattern may have and still run on V8. */
export const MAX_V8_PATHS = 64;

/** A bounded repeat of one character (e.g. `\d{1,3}`) wider than this counts as unbounded. */
const SMALL_REPEAT = 16;

/** Highest code unit (the pattern has no `u` flag, so it matches UTF-16 code units). */
const MAX_UNIT = 0xffff;

/** A set of UTF-16 code units: sorted, disjoint, non-adjacent inclusive ranges `[lo, hi]`. */
export type CharSet = ReadonlyArray<readonly [number, number]>;

/** A node of a parsed grep regex. */
export type RegexNode =
  | { type: "set"; set: CharSet }
  | { type: "assert"; kind: "^" | "$" | "\\b" | "\\B" }
  | { type: "seq"; items: RegexNode[] }
  | { type: "alt"; alternatives: RegexNode[] }
  | { type: "group"; body: RegexNode }
  | { type: "repeat"; min: number; max: number; body: RegexNode };

/** Which engine runs a pattern, and why. */
export interface GrepRegexAnalysis {
  /** `"v8"`: statically safe for V8's backtracking engine; `"re2"`: linear-time engine only. */
  engine: "v8" | "re2";
  /** Why the pattern is not safe for V8 (absent when it is). */
  reason?: string;
  /** Whether the pattern has an unbounded (or wide) quantifier: then V8 runs only lines up to {@link V8_LINE_LIMIT} characters. */
  quantified: boolean;
}

/** A compiled grep regex. */
export interface GrepRegex {
  /** Whether one line matches. */
  test(line: string): boolean;
  /** Where the first match in one line starts (UTF-16 index), or `-1`. */
  search(line: string): number;
  /** The engine choice for the pattern. */
  analysis: GrepRegexAnalysis;
  /** The RE2 source the pattern was translated to. */
  re2Source: string;
}

// ---------------------------------------------------------------------------
// Character sets

const range = (lo: number, hi: number): CharSet => [[lo, hi]];

function normalize(ranges: Array<readonly [number, number]>): CharSet {
  const sorted = ranges.filter(([lo, hi]) => lo <= hi).sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

function union(...sets: CharSet[]): CharSet {
  return normalize(sets.flat());
}

function complement(set: CharSet): CharSet {
  const out: Array<[number, number]> = [];
  let next = 0;
  for (const [lo, hi] of set) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_UNIT) out.push([next, MAX_UNIT]);
  return out;
}

function contains(set: CharSet, unit: number): boolean {
  let low = 0;
  let high = set.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (unit < set[mid][0]) high = mid - 1;
    else if (unit > set[mid][1]) low = mid + 1;
    else return true;
  }
  return false;
}

function intersects(a: CharSet, b: CharSet): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i][1] < b[j][0]) i++;
    else if (b[j][1] < a[i][0]) j++;
    else return true;
  }
  return false;
}

const DIGIT: CharSet = range(0x30, 0x39);
const WORD: CharSet = normalize([
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
]);
/** ECMAScript WhiteSpace and LineTerminator (what `\s` matches). */
const SPACE: CharSet = normalize([
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
]);
/**
 * What `.` matches: every code unit — CR, U+2028 and U+2029 included — as
 * GNU grep (`-E` and `-P`), ripgrep and RE2 itself read `.` as "any
 * character but LF", and grep hands each line to the regex without its LF
 * (a CRLF line keeps its `\r`, a progress bar's lone CR stays mid-line), so
 * "any unit" and "any unit but LF" select the same lines. It is the whole
 * range, not the range less LF, so that both engines agree on any text:
 * V8 runs the pattern with the `s` (dotAll) flag. JavaScript's own `.`
 * without `s` also excludes CR, U+2028 and U+2029, which made `^.*$` find
 * nothing on a CRLF file (issue 20, run 37, fixer F1).
 */
const DOT: CharSet = range(0, MAX_UNIT);

/** V8's case canonicalization without the `u` flag (ECMA-262 Canonicalize, non-Unicode). */
function canonicalize(unit: number): number {
  const upper = String.fromCharCode(unit).toUpperCase();
  if (upper.length !== 1) return unit;
  const code = upper.charCodeAt(0);
  return unit >= 128 && code < 128 ? unit : code;
}

/** Code units that share their canonical form with another, each mapped to its whole group. */
let caseGroups: Map<number, readonly number[]> | undefined;
/** {@link caseGroups}, built once on first use (V8's own `toUpperCase`, 256 units per call). */
function foldGroups(): Map<number, readonly number[]> {
  if (caseGroups) return caseGroups;
  const canon = new Uint16Array(MAX_UNIT + 1);
  for (let block = 0; block <= MAX_UNIT; block += 256) {
    const upper = String.fromCharCode(...Array.from({ length: 256 }, (_, i) => block + i)).toUpperCase();
    for (let unit = block; unit < block + 256; unit++) {
      // No unit uppercases to nothing, so 256 units in 256 out means one each.
      if (upper.length !== 256) canon[unit] = canonicalize(unit);
      else {
        const code = upper.charCodeAt(unit - block);
        canon[unit] = unit >= 128 && code < 128 ? unit : code;
      }
    }
  }
  const byCanon = new Map<number, number[]>();
  for (let unit = 0; unit <= MAX_UNIT; unit++) {
    if (canon[unit] === unit) continue;
    const group = byCanon.get(canon[unit]) ?? (canon[canon[unit]] === canon[unit] ? [canon[unit]] : []);
    group.push(unit);
    byCanon.set(canon[unit], group);
  }
  caseGroups = new Map();
  for (const group of byCanon.values()) {
    if (group.length > 1) for (const unit of group) caseGroups.set(unit, group);
  }
  return caseGroups;
}

/** Every code unit that matches a member of `set` when case is ignored. */
function fold(set: CharSet): CharSet {
  const groups = foldGroups();
  const extra: Array<[number, number]> = [];
  const size = set.reduce((sum, [lo, hi]) => sum + hi - lo + 1, 0);
  const take = (group: readonly number[]) => {
    for (const other of group) if (!contains(set, other)) extra.push([other, other]);
  };
  if (size <= groups.size) {
    for (const [lo, hi] of set) for (let unit = lo; unit <= hi; unit++) take(groups.get(unit) ?? []);
  } else {
    for (const [unit, group] of groups) if (group[0] === unit && group.some((member) => contains(set, member))) take(group);
  }
  return extra.length === 0 ? set : union(set, extra);
}

// ---------------------------------------------------------------------------
// RE2 spellings (issue 20, run 38, fixer GR)

/**
 * RE2's POSIX bracket classes (RE2 syntax, "ASCII character classes"; the
 * same sets as GNU grep's in the C locale): `[[:name:]]` or `[[:^name:]]`
 * inside a bracket expression. Each is a list of inclusive code unit ranges.
 */
const POSIX_CLASSES: Record<string, CharSet> = {
  alnum: normalize([[0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a]]),
  alpha: normalize([[0x41, 0x5a], [0x61, 0x7a]]),
  ascii: range(0x00, 0x7f),
  blank: normalize([[0x09, 0x09], [0x20, 0x20]]),
  cntrl: normalize([[0x00, 0x1f], [0x7f, 0x7f]]),
  digit: DIGIT,
  graph: range(0x21, 0x7e),
  lower: range(0x61, 0x7a),
  print: range(0x20, 0x7e),
  punct: normalize([[0x21, 0x2f], [0x3a, 0x40], [0x5b, 0x60], [0x7b, 0x7e]]),
  space: normalize([[0x09, 0x0d], [0x20, 0x20]]),
  upper: range(0x41, 0x5a),
  word: WORD,
  xdigit: normalize([[0x30, 0x39], [0x41, 0x46], [0x61, 0x66]]),
};

/** RE2's general category names (`\pL`, `\p{Lu}`); `C` is RE2's union of Cc, Cf, Co and Cs (no unassigned Cn). */
const GENERAL_CATEGORIES = new Set(
  "C Cc Cf Co Cs L Ll Lm Lo Lt Lu M Mc Me Mn N Nd Nl No P Pc Pd Pe Pf Pi Po Ps S Sc Sk Sm So Z Zl Zp Zs".split(" "),
);

const unicodeClasses = new Map<string, CharSet | null>();

/**
 * The code units of the Basic Multilingual Plane in RE2's Unicode class
 * `name` (`Any`, a general category, or a script such as `Greek`), read from
 * V8's own Unicode tables (`/\p{…}/u`); `null` for a name RE2 does not know.
 */
function unicodeClass(name: string): CharSet | null {
  const known = unicodeClasses.get(name);
  if (known !== undefined) return known;
  let set: CharSet | null = null;
  if (name === "Any") set = range(0, MAX_UNIT);
  else if (/^[A-Za-z][A-Za-z_]*$/.test(name)) {
    let test: RegExp | undefined;
    try {
      test = name === "C" ? /[\p{gc=Cc}\p{gc=Cf}\p{gc=Co}\p{gc=Cs}]/u : GENERAL_CATEGORIES.has(name) ? new RegExp(`\\p{gc=${name}}`, "u") : new RegExp(`\\p{Script=${name}}`, "u");
    } catch {
      test = undefined;
    }
    if (test) {
      const ranges: Array<[number, number]> = [];
      for (let unit = 0; unit <= MAX_UNIT; unit++) {
        if (!test.test(String.fromCharCode(unit))) continue;
        const last = ranges[ranges.length - 1];
        if (last && last[1] === unit - 1) last[1] = unit;
        else ranges.push([unit, unit]);
      }
      set = ranges;
    }
  }
  if (set !== null) unicodeClasses.set(name, set); // only names V8 knows: a query's made-up names are not kept
  return set;
}

/** A set as the inside of a JavaScript bracket expression: `\uXXXX` or `\uXXXX-\uXXXX` per range. */
function jsRanges(set: CharSet): string {
  const u = (unit: number) => `\\u${unit.toString(16).padStart(4, "0")}`;
  return set.map(([lo, hi]) => (lo === hi ? u(lo) : `${u(lo)}-${u(hi)}`)).join("");
}

/** A set as a JavaScript bracket expression (`[]` matches nothing, `[^]` any unit). */
function jsClass(set: CharSet): string {
  return `[${jsRanges(set)}]`;
}

/**
 * Most characters {@link rewriteRe2Syntax} may add to a pattern by spelling out classes: `\pL` is about 4,300
 * characters of ranges, and each costs parsing and compiling time (about 5 ms), so a query of thousands of
 * `\pL` (6,000 characters: 21 s before this cap) is refused instead; about 7 `\pL` fit (30 took 1.2 s with ignoreCase, 7 about 0.4 s with the tables built).
 */
export const MAX_CLASS_EXPANSION = 32_768;

/** Letters (and `8`, `9`) after `\` that JavaScript without the `u` flag reads as the letter itself, RE2 not at all. */
const IDENTITY_ESCAPE = /^[CEFGHIJKLMNORTUVXYZeghijklmoqy89]$/;

/** What to write instead of a PCRE or Perl escape RE2 does not have, for the refusal. */
const ESCAPE_HINTS: Record<string, string> = {
  Z: "use $ (each line is matched without its LF)",
  C: "RE2's \\C (one byte) is not supported; use . (one character)",
  E: "\\E only ends a \\Q…\\E quotation",
  h: "use [ \\t] or [[:blank:]]",
  R: "each line is matched without its LF",
  K: "lookaround and match resets are not supported",
  G: "use ^",
  X: "use .",
  e: "use \\x1b",
  k: "backreferences are not supported",
};

/** The refusal of an escape or bracket name RE2 does not read as JavaScript without `u` does. */
function re2SyntaxError(shown: string, what: string, hint?: string): TypeError {
  return new TypeError(`Invalid regular expression: ${quoted(shown)}: ${clipped(what)} is not supported by grep's regex syntax (JavaScript, with RE2's \\pL, \\p{Greek}, [[:alpha:]], \\A, \\z, \\Q…\\E, \\x{…})${hint ? `; ${hint}` : ""}`);
}

/**
 * Rewrites RE2's own spellings in grep regex source as the JavaScript (no
 * `u` flag) that means the same, so V8 and the RE2 translation both read
 * them as RE2 (and GNU grep, PCRE, ripgrep) do, not as JavaScript's literals:
 *
 * - `[[:alpha:]]`, `[^[:space:]]`, `[[:digit:]_-]`, `[[:^alpha:]]` — the 14
 *   POSIX classes RE2 has inside a bracket expression (alnum, alpha, ascii,
 *   blank, cntrl, digit, graph, lower, print, punct, space, upper, word,
 *   xdigit; ASCII only, as RE2 and GNU grep in the C locale); an unknown name
 *   is refused, and so is `[:alpha:]` outside brackets (as GNU grep refuses
 *   it: "character class syntax is [[:space:]], not [:space:]").
 * - `\pL`, `\p{Lu}`, `\p{Greek}`, `\p{Any}`, `\PL`, `\P{Lu}`, `\p{^Lu}` —
 *   RE2's Unicode classes (general categories and scripts), inside or
 *   outside brackets, as the characters of the Basic Multilingual Plane in
 *   the class (the pattern matches UTF-16 units: a character outside the BMP
 *   is two surrogate units, which `\pL` does not match and `\PL` does).
 * - `\A` and `\z` — start and end of the text, which for one line is `^`
 *   and `$`. RE2 has no `\Z`.
 * - `\Q…\E` — the characters between quoted literally (to the end when no
 *   `\E` follows).
 * - `\x{1F600}` — a character by code point (outside the BMP: its
 *   surrogate pair, outside brackets only); `\a` — BEL (U+0007).
 *
 * Any other `\` and letter JavaScript would read as the letter itself (`\Z`,
 * `\C`, `\h`, `\G`, `\K`, `\e`, a stray `\E`, `\x` or `\u` without hex
 * digits), and `\8`, `\9`, is refused with a TypeError naming it, as RE2
 * refuses it, instead of silently matching the letter. So is a range whose
 * end is a class (`[!-\pN]`, `[a-[:digit:]]`), which RE2 and GNU `grep -P`
 * refuse too; a class at a range's start is followed by a literal `-`
 * (`[\pN-z]`), as RE2 reads it, and so is a class after `\s-` (`[\s-\pN]`).
 *
 * With `ignoreCase`, a negated class (`[[:^upper:]]`, `\P{Lu}`, `\p{^Ll}`) is
 * spelt out as the complement of the case-folded class, as RE2 folds first
 * and negates after ("build up the group positively, then negate it"): the
 * complement of a case-closed set is case-closed, so the later folding (V8's
 * `i`, or {@link fold} on the RE2 path) adds nothing it excludes, and
 * `[[:^upper:]]` matches no letter (issue 20, run 39, fixer GX).
 * @param source grep regex source as given.
 * @param shown the source an error message quotes (default `source`).
 * @param ignoreCase whether the pattern is matched ignoring case (default `false`).
 * @returns JavaScript regex source (no `u` flag); `source` itself when it holds none of these.
 * @throws TypeError `Invalid regular expression: /…/: <construct> is not supported …`, or `… too many Unicode or
 *   POSIX classes …` when spelling them out adds more than {@link MAX_CLASS_EXPANSION} characters.
 */
export function rewriteRe2Syntax(source: string, shown = source, ignoreCase = false): string {
  if (!/[\\[]/.test(source)) return source;
  let out = "";
  let at = 0;
  let inClass = false;
  const fail = (what: string, hint?: string) => re2SyntaxError(shown, what, hint);
  /** A negated class: under ignoreCase its case-folded set is complemented (RE2's order), else the set itself. */
  const negate = (set: CharSet): CharSet => complement(ignoreCase ? fold(set) : set);
  /** How far the current bracket expression's items have been read ({@link beforeClassInBrackets}), from its `[` or `[^`. */
  let walkAt = 0;
  /** Where the last item read starts when it stands alone (not in a range), else -1. */
  let walkLast = -1;
  /** Where the last `-` {@link literalDashAfterClass} wrote as `\-` is in `source`, else -1. */
  let dashTakenAt = -1;
  /**
   * Before a class spelt out inside brackets at `at` (`length` characters in `source`): reads the bracket's items up
   * to it as RE2 does — an item that is not a class, `-` and another item make a range; a `-` after a class is a
   * literal ({@link literalDashAfterClass}) — and
   * - refuses the class when it ends a range (`[!-\pN]`, `[a-[:digit:]]`): spelt out, its ranges would follow the
   *   `-` and make a wrong range of the first (`!`–`0`, dropping 1–8); RE2 and GNU `grep -P` refuse it too;
   * - escapes a bare `-` right before it (`[\s-\pN]`, a literal `-` after `\s` in RE2), which JavaScript (Annex B)
   *   would otherwise read as a range from `\s` to the class's first character, dropping the next ones.
   * Each item is read once per bracket expression (issue 20, run 39, fixer GX).
   */
  const beforeClassInBrackets = (length: number) => {
    while (walkAt < at) {
      const item = classItem(source, walkAt);
      if (!item.isClass && source[item.end] === "-" && item.end + 1 < source.length && source[item.end + 1] !== "]") {
        if (item.end + 1 === at) {
          const lo = source.slice(walkAt, item.end);
          const shownClass = source.slice(at, at + length);
          throw fail(`the range ${lo}-${shownClass} (a class cannot end a range)`, `for a literal - write \\- (${lo}\\-${shownClass})`);
        }
        walkAt = classItem(source, item.end + 1).end;
        walkLast = -1;
      } else {
        walkLast = walkAt;
        walkAt = item.end;
      }
    }
    // A `-` already written as `\-` by literalDashAfterClass (`[[:digit:]-[:lower:]]`) is left as it is (run 39, lead:
    // escaping it again made `\\-`, a backslash and a range into the class).
    if (walkLast === at - 1 && source[walkLast] === "-" && walkLast !== dashTakenAt && out.endsWith("-")) out = `${out.slice(0, -1)}\\-`;
  };
  /** `\p…`/`\P…` at `at` (the backslash): its set and its length in the source. */
  const property = (): [CharSet, number] => {
    const negated = source[at + 1] === "P";
    let name: string;
    let length: number;
    if (source[at + 2] === "{") {
      const close = source.indexOf("}", at + 3);
      if (close < 0) throw fail(source.slice(at), "write \\p{Name}");
      name = source.slice(at + 3, close);
      length = close + 1 - at;
    } else {
      name = source[at + 2] ?? "";
      length = 3;
    }
    const caret = name.startsWith("^");
    const set = unicodeClass(caret ? name.slice(1) : name);
    if (set === null) throw fail(`Unicode class ${source.slice(at, at + length)}`, "RE2 knows general categories (\\pL, \\p{Lu}, \\p{Nd}) and scripts (\\p{Greek}, \\p{Han})");
    return [negated !== caret ? negate(set) : set, length];
  };
  /**
   * A `-` right after a class spelled out inside brackets (`[[:space:]-z]`, `[\p{Greek}-z]`) is a literal, as RE2
   * (Perl mode) and JavaScript's own `[\s-z]` read it; the spelled-out ranges end in a bare character, which a bare
   * `-` would turn into a range (run 38, lead). Consumes it and returns `\-`, or returns "".
   */
  const literalDashAfterClass = (): string => {
    if (source[at] !== "-" || source[at + 1] === "]" || source[at + 1] === undefined) return "";
    dashTakenAt = at;
    at++;
    return "\\-";
  };
  while (at < source.length) {
    if (out.length - at > MAX_CLASS_EXPANSION) throw tooManyClasses(shown);
    const c = source[at]!;
    if (c === "[" && !inClass) {
      const posix = /^\[:(\^?)([a-z]+):\]/.exec(source.slice(at));
      if (posix && POSIX_CLASSES[posix[2]!]) throw fail(`${posix[0]} outside a bracket expression`, `write [${posix[0]}]`);
      inClass = true;
      out += c;
      at++;
      if (source[at] === "^") {
        out += "^";
        at++;
      }
      walkAt = at;
      walkLast = -1;
      continue;
    }
    if (inClass && c === "]") {
      inClass = false;
      out += c;
      at++;
      continue;
    }
    if (inClass && c === "[" && source[at + 1] === ":") {
      const posix = /^\[:(\^?)([A-Za-z]*):\]/.exec(source.slice(at));
      if (posix) {
        const set = POSIX_CLASSES[posix[2]!];
        if (!set) throw fail(`POSIX class ${posix[0]}`, `RE2 knows [:${Object.keys(POSIX_CLASSES).join(":], [:")}:]`);
        beforeClassInBrackets(posix[0].length);
        out += jsRanges(posix[1] ? negate(set) : set);
        at += posix[0].length;
        out += literalDashAfterClass(); // run 38, lead
        continue;
      }
    }
    if (c !== "\\") {
      out += c;
      at++;
      continue;
    }
    const e = source[at + 1];
    if (e === undefined) break; // V8 reports the trailing backslash
    if (e === "p" || e === "P") {
      const [set, length] = property();
      if (inClass) beforeClassInBrackets(length);
      out += inClass ? jsRanges(set) : jsClass(set);
      at += length;
      if (inClass) out += literalDashAfterClass(); // run 38, lead
      continue;
    }
    if (e === "A" || e === "z") {
      if (inClass) throw fail(`\\${e} inside a bracket expression`);
      out += e === "A" ? "^" : "$";
      at += 2;
      continue;
    }
    if (e === "Q") {
      if (inClass) throw fail("\\Q…\\E inside a bracket expression");
      const end = source.indexOf("\\E", at + 2);
      const text = source.slice(at + 2, end < 0 ? source.length : end);
      out += text.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
      at = end < 0 ? source.length : end + 2;
      continue;
    }
    if (e === "a") {
      out += "\\x07";
      at += 2;
      continue;
    }
    if (e === "x" && source[at + 2] === "{") {
      const m = /^\\x\{([0-9A-Fa-f]{1,6})\}/.exec(source.slice(at));
      const point = m ? parseInt(m[1]!, 16) : NaN;
      if (!m || point > 0x10ffff) throw fail(source.slice(at, at + 12), "write \\x{HHHH} with at most 10FFFF");
      const units = String.fromCodePoint(point);
      if (units.length === 2 && inClass) throw fail(`${m[0]} (a character outside the Basic Multilingual Plane) inside a bracket expression`);
      const esc = Array.from({ length: units.length }, (_, i) => `\\u${units.charCodeAt(i).toString(16).padStart(4, "0")}`).join("");
      out += units.length === 2 ? `(?:${esc})` : esc;
      at += m[0].length;
      continue;
    }
    if ((e === "x" && !/^[0-9A-Fa-f]{2}/.test(source.slice(at + 2))) || (e === "u" && !/^[0-9A-Fa-f]{4}/.test(source.slice(at + 2)))) {
      throw fail(`\\${e} without ${e === "x" ? "two" : "four"} hex digits`, e === "x" ? "write \\xHH or \\x{HHHH}" : "write \\uHHHH");
    }
    if (e === "c" && !/^[A-Za-z]/.test(source.slice(at + 2))) throw fail("\\c without a control letter");
    if (e === "k" && /\(\?<[A-Za-z_$]/.test(source)) {
      out += source.slice(at, at + 2); // a named backreference: refused as such by the parser
      at += 2;
      continue;
    }
    if (IDENTITY_ESCAPE.test(e)) throw fail(`escape \\${e}`, ESCAPE_HINTS[e]);
    out += source.slice(at, at + 2);
    at += 2;
  }
  if (out.length - source.length > MAX_CLASS_EXPANSION) throw tooManyClasses(shown);
  return out;
}

/**
 * One item of a bracket expression in grep regex source at `at`, as RE2 reads it: a POSIX class `[:name:]`, a
 * Unicode class `\pL`/`\p{…}`/`\P…`, a Perl class `\d`…`\W` (`isClass`), or one character — plain, `\x{…}`,
 * `\xHH`, `\uHHHH`, `\cX` or `\` and any other character. `end` is where it ends in `source`.
 */
function classItem(source: string, at: number): { end: number; isClass: boolean } {
  const rest = source.slice(at, at + 16);
  if (source[at] === "[" && source[at + 1] === ":") {
    const posix = /^\[:\^?[A-Za-z]*:\]/.exec(rest);
    if (posix) return { end: at + posix[0].length, isClass: true };
  }
  if (source[at] !== "\\") return { end: at + 1, isClass: false };
  const e = source[at + 1];
  if (e === "p" || e === "P") {
    const close = source[at + 2] === "{" ? source.indexOf("}", at + 3) : -1;
    return { end: close >= 0 ? close + 1 : at + 3, isClass: true };
  }
  if (e !== undefined && "dDsSwW".includes(e)) return { end: at + 2, isClass: true };
  const escape = /^\\(?:x\{[0-9A-Fa-f]*\}|x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|c[A-Za-z])/.exec(rest);
  return { end: escape ? at + escape[0].length : Math.min(at + 2, source.length), isClass: false };
}

/** The refusal of a pattern whose classes, spelt out, pass {@link MAX_CLASS_EXPANSION} characters. */
function tooManyClasses(shown: string): TypeError {
  return new TypeError(
    `Invalid regular expression: ${quoted(shown)}: too many Unicode or POSIX classes for grep's linear-time engine (spelt out they pass ${MAX_CLASS_EXPANSION} characters; about 7 \\pL fit); use fewer, or a narrower class such as [A-Za-z]`,
  );
}

// ---------------------------------------------------------------------------
// Parser: regexpp's syntax tree (V8 without the `u` flag, ECMA-262 Annex B) lowered to a RegexNode

/** Thrown for a construct grep's linear-time engine does not support. */
function unsupported(source: string, what: string): TypeError {
  return new TypeError(`Invalid regular expression: ${quoted(source)}: ${clipped(what)} is not supported (grep uses a linear-time engine: RE2 syntax, no backreferences or lookaround)`);
}

/** Characters of a pattern (or of a part of one) that an error message quotes; past them it is cut, with its length. */
export const QUOTED_PATTERN_CHARS = 200;

/** `text` whole, or its first {@link QUOTED_PATTERN_CHARS} characters (no half surrogate pair), `…` and its length. */
function clipped(text: string): string {
  if (text.length <= QUOTED_PATTERN_CHARS) return text;
  const end = QUOTED_PATTERN_CHARS - ((text.charCodeAt(QUOTED_PATTERN_CHARS - 1) & 0xfc00) === 0xd800 ? 1 : 0);
  return `${text.slice(0, end)}… (${text.length} characters)`;
}

/**
 * Regex source as an error message quotes it: `/source/flags`, or for a
 * source past {@link QUOTED_PATTERN_CHARS} characters its start and length,
 * `/((((…/ (100000 characters)`, so the message stays short whatever the query.
 */
function quoted(source: string, flags = ""): string {
  if (source.length <= QUOTED_PATTERN_CHARS) return `/${source}/${flags}`;
  const cut = clipped(source);
  const at = cut.lastIndexOf("… (");
  return `/${cut.slice(0, at)}…/${flags}${cut.slice(at + 1)}`;
}

/**
 * V8's `Invalid regular expression: /<text>/<flags>: <reason>` for the JavaScript source `text` compiled, with
 * the source as given (`shown`, before {@link rewriteRe2Syntax}) quoted by {@link quoted}.
 */
function v8SyntaxMessage(shown: string, text: string, message: string): string {
  const source = shown;
  const head = `Invalid regular expression: /${text}/`;
  const rest = message.startsWith(head) ? /^([a-z]*)(: [\s\S]*)$/.exec(message.slice(head.length)) : null;
  if (rest) return `Invalid regular expression: ${quoted(source, rest[1])}${clipped(rest[2]!)}`;
  return clipped(message.startsWith("Invalid regular expression") ? message : `Invalid regular expression: ${message}`);
}

/** `\d`, `\w`, `\s` and their negations as sets. */
const CLASS_ESCAPES: Record<AST.EscapeCharacterSet["kind"], readonly [CharSet, CharSet]> = {
  digit: [DIGIT, complement(DIGIT)],
  word: [WORD, complement(WORD)],
  space: [SPACE, complement(SPACE)],
};

/** Lowers regexpp's tree for one source to a {@link RegexNode}, refusing what RE2 cannot run. */
class Lowering {
  /**
   * @param text the JavaScript source regexpp parsed (after {@link rewriteRe2Syntax}), which node offsets index.
   * @param source the source as given, which error messages quote.
   */
  constructor(
    private readonly text: string,
    private readonly source: string,
    private readonly ignoreCase: boolean,
  ) {}

  /** A disjunction: one alternative stands alone, several make an `alt`. */
  alternatives(alternatives: AST.Alternative[]): RegexNode {
    const nodes = alternatives.map((alternative): RegexNode => {
      const items = alternative.elements.map((element) => this.element(element));
      return items.length === 1 ? items[0] : { type: "seq", items };
    });
    return nodes.length === 1 ? nodes[0] : { type: "alt", alternatives: nodes };
  }

  private element(node: AST.Element): RegexNode {
    switch (node.type) {
      case "Character":
        return this.set(range(this.unit(node), this.unit(node)));
      case "CharacterSet":
        return this.set(this.classEscape(node));
      case "CharacterClass": {
        const parts = node.elements.map((element): CharSet => {
          if (element.type === "Character") return range(this.unit(element), this.unit(element));
          if (element.type === "CharacterClassRange") return range(this.unit(element.min), this.unit(element.max));
          if (element.type === "CharacterSet") return this.classEscape(element);
          throw unsupported(this.source, element.raw); // `v`-flag syntax: not parsed without the flag
        });
        let set = union(...parts);
        if (this.ignoreCase) set = fold(set);
        return { type: "set", set: node.negate ? complement(set) : set };
      }
      case "Assertion":
        return this.assertion(node);
      case "Group":
        if (node.modifiers) throw unsupported(this.source, `modifier group (?${node.modifiers.raw}:…)`);
        return { type: "group", body: this.alternatives(node.alternatives) };
      case "CapturingGroup":
        return { type: "group", body: this.alternatives(node.alternatives) };
      case "Quantifier": {
        // A lazy quantifier has the same set of matches. regexpp sums a count's digits in floating
        // point, which drifts past 2^53: such a count is read from its digits, as a refusal names it.
        let { min, max } = node;
        if (!Number.isSafeInteger(min) || (max !== Infinity && !Number.isSafeInteger(max))) {
          const [, low, comma, high] = /^\{(\d+)(,?)(\d*)\}/.exec(this.text.slice(node.element.end, node.end))!;
          [min, max] = [Number(low), comma === "" ? Number(low) : high === "" ? Infinity : Number(high)];
        }
        return { type: "repeat", min, max, body: this.element(node.element) };
      }
      case "Backreference":
        throw unsupported(this.source, `backreference ${node.raw}`);
      default:
        throw unsupported(this.source, node.raw); // `v`-flag syntax: not parsed without the flag
    }
  }

  private assertion(node: AST.Assertion): RegexNode {
    switch (node.kind) {
      case "start":
        return { type: "assert", kind: "^" };
      case "end":
        return { type: "assert", kind: "$" };
      case "word":
        return { type: "assert", kind: node.negate ? "\\B" : "\\b" };
      case "lookahead":
        throw unsupported(this.source, node.negate ? "negative lookahead (?!…)" : "lookahead (?=…)");
      case "lookbehind":
        throw unsupported(this.source, node.negate ? "negative lookbehind (?<!…)" : "lookbehind (?<=…)");
    }
  }

  /**
   * A character's code unit. regexpp reads a legacy octal escape (`\012`,
   * `\1` without that many groups) as the character it names; grep refuses
   * it, and `\0` directly followed by a digit too.
   */
  private unit(node: AST.Character): number {
    if (/^\\[0-7]/.test(node.raw) && (node.raw !== "\\0" || /[0-9]/.test(this.text.charAt(node.end)))) {
      throw unsupported(this.source, `octal escape \\${/^[0-7]{1,3}/.exec(this.text.slice(node.start + 1))![0]}`);
    }
    return node.value;
  }

  private classEscape(node: AST.CharacterSet): CharSet {
    if (node.kind === "any") return DOT;
    if (node.kind === "property") throw unsupported(this.source, node.raw); // `\p{…}` is `p{…}` without the `u` flag
    return CLASS_ESCAPES[node.kind][node.negate ? 1 : 0];
  }

  private set(set: CharSet): RegexNode {
    return { type: "set", set: this.ignoreCase ? fold(set) : set };
  }
}

/**
 * Parses grep regex source: RE2's own spellings rewritten by
 * {@link rewriteRe2Syntax}, then JavaScript read as V8 does without the `u`
 * flag (Annex B syntax, read by `@eslint-community/regexpp`). Character sets
 * come out case-folded when `ignoreCase` is set.
 * @throws TypeError `Invalid regular expression: /…/: <construct> is not supported …` for a
 *   backreference, lookaround, octal escape, modifier group or an escape RE2 does not have.
 */
export function parseGrepRegex(source: string, ignoreCase: boolean): RegexNode {
  const text = rewriteRe2Syntax(source, source, ignoreCase);
  const pattern = new RegExpParser({ ecmaVersion: 2025 }).parsePattern(text, 0, text.length, { unicode: false, unicodeSets: false });
  return new Lowering(text, source, ignoreCase).alternatives(pattern.alternatives);
}

// ---------------------------------------------------------------------------
// Static analysis

/** The set a node must match one character of, when it is a single set or a repeat of one with min ≥ 1. */
function mandatorySet(node: RegexNode | undefined): CharSet | undefined {
  if (node?.type === "set") return node.set;
  if (node?.type === "repeat" && node.min >= 1 && node.body.type === "set") return node.body.set;
  return undefined;
}

/**
 * Decides whether V8 may run a parsed pattern. Safe for V8 only when: no
 * group or alternation is repeated more than once (`(…)?` is allowed, `(…)*`,
 * `(…)+`, `(…){2,}` are not); no two unbounded single-character repeats can
 * match a common character (`a*a*`, `\s*\s*$`, `.*x.*y` are not) unless the
 * earlier one is directly followed by a character it cannot match (`\w+
 * extends \w+`), so it can only go on where its run ends; and the number of paths through
 * alternations, `?` and small bounded repeats is at most {@link MAX_V8_PATHS}.
 */
export function analyzeGrepRegex(node: RegexNode): GrepRegexAnalysis {
  const openLoops: CharSet[] = [];
  let quantified = false;
  let paths = 1;
  let reason: string | undefined;
  const walk = (n: RegexNode, next: RegexNode | undefined): void => {
    switch (n.type) {
      case "set":
      case "assert":
        return;
      case "seq":
        n.items.forEach((item, i) => walk(item, n.items[i + 1]));
        return;
      case "group":
        walk(n.body, undefined);
        return;
      case "alt":
        paths *= n.alternatives.length;
        for (const alternative of n.alternatives) walk(alternative, undefined);
        return;
      case "repeat": {
        if (n.body.type !== "set") {
          if (n.max > 1) reason ??= "a group or alternation is repeated (nested or overlapping repetition can backtrack exponentially)";
          else if (n.min === 0) paths *= 2;
          walk(n.body, undefined);
          return;
        }
        if (n.max === n.min) {
          // Exactly n: no choice, but a wide one costs n steps per start, so long lines go to RE2.
          if (n.max > SMALL_REPEAT) quantified = true;
          return;
        }
        if (n.max - n.min <= SMALL_REPEAT) {
          paths *= n.max - n.min + 1;
          return;
        }
        quantified = true;
        // An earlier repeat that can stop anywhere in its run, and this one over some of the same
        // characters: each stop of the first re-runs the second.
        for (const earlier of openLoops) {
          if (intersects(earlier, n.body.set)) reason ??= "two unbounded repeats can match the same characters (polynomial backtracking)";
        }
        // Followed by a character it cannot match, a repeat can only go on where its run ends.
        const guard = mandatorySet(next);
        if (!guard || intersects(guard, n.body.set)) openLoops.push(n.body.set);
        return;
      }
    }
  };
  walk(node, undefined);
  if (!reason && paths > MAX_V8_PATHS) reason = `more than ${MAX_V8_PATHS} paths through alternations and optional parts`;
  return reason ? { engine: "re2", reason, quantified } : { engine: "v8", quantified };
}

// ---------------------------------------------------------------------------
// RE2 translation

const hex = (unit: number) => `\\x{${unit.toString(16)}}`;

/**
 * RE2 reads code points where V8 (without `u`) reads UTF-16 units. So that
 * both see the same units, RE2 is given each surrogate unit as a character
 * of its own: unit `0xD800 + n` becomes U+F0000 + n (Plane 15, private use),
 * in the pattern's sets and in the text ({@link re2Text}).
 */
const SURROGATE_SHIFT = 0xf0000 - 0xd800;

/** `[lo, hi]` as RE2 class ranges, surrogate units moved to Plane 15. */
function re2Ranges(lo: number, hi: number): string[] {
  const span = (a: number, b: number) => (a === b ? hex(a) : `${hex(a)}-${hex(b)}`);
  const out: string[] = [];
  if (lo < 0xd800) out.push(span(lo, Math.min(hi, 0xd7ff)));
  if (hi >= 0xd800 && lo <= 0xdfff) out.push(span(Math.max(lo, 0xd800) + SURROGATE_SHIFT, Math.min(hi, 0xdfff) + SURROGATE_SHIFT));
  if (hi > 0xdfff) out.push(span(Math.max(lo, 0xe000), hi));
  return out;
}

function re2Set(set: CharSet): string {
  if (set.length === 0) return "[^\\x{0}-\\x{10ffff}]";
  if (set.length === 1 && set[0][0] === set[0][1] && /[A-Za-z0-9_ ]/.test(String.fromCharCode(set[0][0]))) return String.fromCharCode(set[0][0]);
  return `[${set.flatMap(([lo, hi]) => re2Ranges(lo, hi)).join("")}]`;
}

const SURROGATES = /[\ud800-\udfff]/g;

/** A line as RE2 must see it: each surrogate unit as one Plane 15 character (see {@link SURROGATE_SHIFT}). */
export function re2Text(line: string): string {
  SURROGATES.lastIndex = 0;
  if (!SURROGATES.test(line)) return line;
  return line.replace(SURROGATES, (unit) => String.fromCodePoint(unit.charCodeAt(0) + SURROGATE_SHIFT));
}

/** An index into {@link re2Text}`(line)` as an index into `line`. */
function lineIndex(line: string, index: number): number {
  let at = 0;
  for (let mapped = 0; mapped < index; at++) mapped += (line.charCodeAt(at) & 0xf800) === 0xd800 ? 2 : 1;
  return at;
}

/** A one-unit set's unit, or undefined. */
function unitOf(node: RegexNode): number | undefined {
  return node.type === "set" && node.set.length === 1 && node.set[0][0] === node.set[0][1] ? node.set[0][0] : undefined;
}

/** Writes a parsed pattern as RE2 syntax (no flags needed: case folding is already in the sets). */
export function toRe2Source(node: RegexNode): string {
  switch (node.type) {
    case "set":
      return re2Set(node.set);
    case "assert":
      return node.kind;
    case "seq":
      return node.items.map(toRe2Source).join("");
    case "alt":
      return node.alternatives.map(toRe2Source).join("|");
    case "group":
      return `(?:${toRe2Source(node.body)})`;
    case "repeat": {
      const body = toRe2Source(node.body);
      const inner = node.body.type === "seq" || node.body.type === "alt" || node.body.type === "assert" ? `(?:${body})` : body;
      if (node.min > 1000 || (node.max !== Infinity && node.max > 1000)) throw new RangeError(`repeat count {${node.min}${node.max === node.min ? "" : `,${node.max === Infinity ? "" : node.max}`}} above 1000`);
      const quantifier =
        node.min === 0 && node.max === Infinity
          ? "*"
          : node.min === 1 && node.max === Infinity
            ? "+"
            : node.min === 0 && node.max === 1
              ? "?"
              : node.max === Infinity
                ? `{${node.min},}`
                : node.min === node.max
                  ? `{${node.min}}`
                  : `{${node.min},${node.max}}`;
      return `${inner}${quantifier}`;
    }
  }
}

// ---------------------------------------------------------------------------
// Prefilter

/**
 * The longest run of single characters that every match contains (empty when
 * there is none), so a line without it is skipped before either engine runs.
 */
export function requiredLiteral(node: RegexNode): string {
  let best = "";
  let run = "";
  const end = () => {
    if (run.length > best.length) best = run;
    run = "";
  };
  const walk = (n: RegexNode): void => {
    if (n.type === "group") return walk(n.body);
    if (n.type === "seq") return n.items.forEach(walk);
    const unit = unitOf(n);
    if (unit !== undefined) run += String.fromCharCode(unit);
    else end();
  };
  walk(node);
  end();
  return best;
}

// ---------------------------------------------------------------------------

/**
 * Compiles grep regex source (JavaScript syntax, no `u` flag, plus RE2's
 * `[[:alpha:]]`, `\pL`, `\A`, `\z`, `\Q…\E` and `\x{…}`: {@link rewriteRe2Syntax}) for linear-time
 * line tests: RE2 always, V8 (flags `s`, and `i` with `ignoreCase`) where
 * {@link analyzeGrepRegex} proves it safe. `.` matches any UTF-16 unit, CR
 * included (see {@link DOT}): the lines tested never hold a LF.
 * @throws TypeError `Invalid regular expression: …` for malformed source or an unsupported construct.
 */
export function compileGrepRegex(source: string, ignoreCase: boolean): GrepRegex {
  // RE2's spellings (`[[:digit:]]`, `\pL`, `\A`, `\z`, `\Q…\E`) as the JavaScript both engines run (issue 20, run 38, fixer GR).
  const text = rewriteRe2Syntax(source, source, ignoreCase);
  let v8: RegExp;
  try {
    // The error for malformed source names the flags given (`i` or none); `s` changes no syntax.
    new RegExp(text, ignoreCase ? "i" : "");
    // `s` (dotAll): `.` matches CR, U+2028 and U+2029 too, as in RE2 and GNU grep ({@link DOT}; issue 20, run 37, fixer F1).
    v8 = new RegExp(text, ignoreCase ? "is" : "s");
  } catch (error) {
    throw new TypeError(v8SyntaxMessage(source, text, error instanceof Error ? error.message : String(error)));
  }
  let analysis: GrepRegexAnalysis;
  let literal: string;
  let re2Source: string;
  let re2: RE2JS;
  try {
    const tree = parseGrepRegex(source, ignoreCase);
    analysis = analyzeGrepRegex(tree);
    literal = requiredLiteral(tree);
    re2Source = toRe2Source(tree);
    re2 = RE2JS.compile(re2Source);
    const size = re2.programSize();
    if (size > MAX_RE2_PROGRAM_SIZE) {
      throw new TypeError(
        `Invalid regular expression: ${quoted(source)}: too large for grep's linear-time engine (program size ${size}, at most ${MAX_RE2_PROGRAM_SIZE}); use smaller repeat counts or fewer alternatives`,
      );
    }
  } catch (error) {
    if (error instanceof TypeError) throw error;
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      throw new TypeError(`Invalid regular expression: ${quoted(source)}: nested too deeply for grep's linear-time engine`);
    }
    if (error instanceof RangeError) throw unsupported(source, error.message);
    const message = error instanceof Error ? error.message : String(error);
    throw new TypeError(
      /invalid repeat count/.test(message)
        ? `Invalid regular expression: ${quoted(source)}: too large for grep's linear-time engine (nested repeat counts may multiply to at most 1000)`
        : `Invalid regular expression: ${quoted(source)}: not accepted by grep's linear-time engine (${clipped(message)})`,
    );
  }
  const size = re2.programSize();
  let work = 0;
  /** Counts the RE2 work `line` costs; past the budget the whole search fails. */
  const spend = (line: string): string => {
    work += size * line.length;
    if (work > RE2_WORK_BUDGET) {
      throw new RangeError(
        `grep stopped: the regular expression ${quoted(source)} costs too much over this much text (RE2 program size ${size} × characters scanned passed ${RE2_WORK_BUDGET}). Search a narrower path or include, or use a simpler pattern (a literal part every match contains makes other lines free).`,
      );
    }
    return re2Text(line);
  };
  const engineTest =
    analysis.engine === "re2"
      ? (line: string) => re2.test(spend(line))
      : analysis.quantified
        ? (line: string) => (line.length <= V8_LINE_LIMIT ? v8.test(line) : re2.test(spend(line)))
        : (line: string) => v8.test(line);
  const test = literal === "" ? engineTest : (line: string) => line.includes(literal) && engineTest(line);
  const search = (line: string): number => {
    if (literal !== "" && !line.includes(literal)) return -1;
    const onV8 = analysis.engine === "v8" && (!analysis.quantified || line.length <= V8_LINE_LIMIT);
    if (onV8) return v8.exec(line)?.index ?? -1;
    const text = spend(line);
    const found = re2.exec(text) as RegExpExecArray | null; // re2js mirrors RegExpExecArray (a UTF-16 index)
    return found === null ? -1 : text === line ? found.index : lineIndex(line, found.index);
  };
  return { test, search, analysis, re2Source };
}
