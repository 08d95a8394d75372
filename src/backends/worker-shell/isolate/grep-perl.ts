/**
 * `grep -P` patterns (PCRE2's syntax, as GNU grep 3.8 reads them) for the shell's regex engines (issue 20, run 31,
 * fixer GS; used by grep-gnu.ts's `compile`).
 *
 * just-bash ran every `-P` pattern on RE2, which has no lookaround and no back-references, so `grep -oP '(?<=x=)\w+'`
 * — common in scripts — failed `invalid regular expression`, status 2. {@link perlPattern} reads the pattern once:
 *
 * - a pattern with a lookaround (`(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`) or a back-reference (`\1`, `\g{1}`, `\g{-1}`,
 *   `\k<n>`, `\k{n}`, `(?P=n)`) is `native`: grep runs it on V8's backtracking engine, which has them with PCRE's
 *   meaning (PCRE2 backtracks too); anything else stays on RE2 (linear time);
 * - PCRE escapes JavaScript reads otherwise are spelt out: `\h` `\H` `\v` `\V` `\R` `\N` (PCRE's horizontal/vertical
 *   space, newline sequence, not-newline; JavaScript's `\v` is one character), `\s` `\S` as PCRE2 without UCP (ASCII
 *   space only), `\e` `\a`, `\A` `\z` `\Z` (a line is the subject), `\x{…}`, `\o{…}`, `(?'n'…)`, `(?#…)`;
 * - what neither engine can do as PCRE does is refused with a message that names it (status 2): possessive
 *   quantifiers, atomic groups, recursion, conditionals, branch reset, backtracking verbs, `\G`, `\X`, `\C`, `\p`,
 *   `\u` `\U` `\l` `\L` (PCRE2's own error), and an unknown letter after `\` (PCRE2's error).
 *
 * Pure: it is bundled into the shell's Dynamic Worker.
 *
 * @module
 */

/** PCRE2's `\s` without UCP: space, \t \n \v \f \r. */
const SPACE = "\\t\\n\\x0b\\f\\r ";
const HSPACE = "\\t \\xa0\\u1680\\u180e\\u2000-\\u200a\\u202f\\u205f\\u3000";
const VSPACE = "\\n\\x0b\\f\\r\\x85\\u2028\\u2029";

/**
 * A `-P` pattern read: `source` for just-bash's Perl-mode translation (RE2), `nativeSource` the same for V8 (GP:
 * overlapping one-character alternatives made one class), `native` when only V8 can run it; or `error`.
 */
export type PerlPattern = { source: string; nativeSource: string; native: boolean; nested: boolean; error?: undefined } | { error: string };

/**
 * The refusal of a pattern V8 would backtrack on exponentially: a repeated group holding an unbounded repeat, on the
 * V8 path (a lookaround, a back-reference, or `-w`). The shell cannot stop a regex in the middle of a match.
 */
export const NESTED_REPEAT_REFUSAL =
  "grep: a -P pattern with a lookaround or back-reference (or -P with -w) runs on a backtracking engine, where a repeated group holding an unbounded repeat (`(a+)+`, `(?:x*y)*`) or parts that can match the same text (`(a|ab)*`, `(?:a?a)*`) can take exponential time; it is not supported: write the repeat without nesting or overlap\n";

const refuse = (what: string): PerlPattern => ({ error: `grep: ${what} is not supported by the shell's grep -P (no JavaScript or RE2 equivalent)\n` });

/** A code point as a JavaScript escape (a pair of `\u` escapes beyond the BMP; `inClass`: only one unit may stand there). */
function codePoint(value: number, inClass: boolean): string | null {
  if (value <= 0xffff) return `\\u${value.toString(16).padStart(4, "0")}`;
  if (value > 0x10ffff || inClass) return null;
  const s = String.fromCodePoint(value);
  return `\\u${s.charCodeAt(0).toString(16)}\\u${s.charCodeAt(1).toString(16)}`;
}

/** Reads `pattern` (one `-P` pattern) as GNU grep 3.8 with PCRE2 does; see the module comment. */
export function perlPattern(pattern: string): PerlPattern {
  let out = "";
  let native = false;
  let groups = 0;
  let i = 0;
  let inClass = false;
  /** Whether the last token was a quantifier (a `+` after it is possessive). */
  let quantified = false;
  /** Open groups: whether each holds an unbounded quantifier (`*`, `+`, `{n,}`). */
  const frames: boolean[] = [];
  /** A group holding an unbounded quantifier is itself repeated without bound (`(a+)+`, `(?:x*y)*`). */
  let nested = false;
  const unbounded = (at: number): boolean => {
    const q = pattern[at];
    return q === "*" || q === "+" || (q === "{" && /^\{[0-9]*,\}/.test(pattern.slice(at)));
  };
  const n = pattern.length;
  while (i < n) {
    const c = pattern[i] as string;
    const wasQuantified = quantified;
    quantified = false;
    if (c === "\\") {
      const d = pattern[i + 1];
      if (d === undefined) {
        out += c;
        i++;
        continue;
      }
      if (d === "Q") {
        // \Q…\E: literal text (just-bash quotes it).
        const end = pattern.indexOf("\\E", i + 2);
        const stop = end === -1 ? n : end + 2;
        out += pattern.slice(i, stop);
        i = stop;
        continue;
      }
      i += 2;
      if (/[1-9]/.test(d) && !inClass) {
        // \1 … \9 and on (PCRE reads all the digits as one number).
        const more = /^[0-9]*/.exec(pattern.slice(i)) as RegExpExecArray;
        i += more[0].length;
        native = true;
        out += `(?:\\${d}${more[0]})`;
        continue;
      }
      switch (d) {
        case "E": // a stray \E: nothing
          continue;
        case "g": {
          const m = /^(?:\{(-?[0-9]+)\}|(-?[0-9]+)|\{([A-Za-z_][A-Za-z0-9_]*)\})/.exec(pattern.slice(i));
          if (m === null) return refuse("`\\g` other than a back-reference");
          i += m[0].length;
          native = true;
          if (m[3] !== undefined) {
            out += `\\k<${m[3]}>`;
            continue;
          }
          let k = Number(m[1] ?? m[2]);
          if (k < 0) k = groups + 1 + k;
          if (k <= 0) return { error: "grep: a relative group reference is before the first group\n" };
          out += `(?:\\${k})`;
          continue;
        }
        case "k": {
          const m = /^(?:<([A-Za-z_]\w*)>|\{([A-Za-z_]\w*)\}|'([A-Za-z_]\w*)')/.exec(pattern.slice(i));
          if (m === null) return { error: "grep: \\k is not followed by a braced, angle-bracketed, or quoted name\n" };
          i += m[0].length;
          native = true;
          out += `\\k<${m[1] ?? m[2] ?? m[3]}>`;
          continue;
        }
        case "s":
          out += inClass ? SPACE : `[${SPACE}]`;
          continue;
        case "S":
          out += inClass ? "\\S" : `[^${SPACE}]`;
          continue;
        case "h":
          out += inClass ? HSPACE : `[${HSPACE}]`;
          continue;
        case "v":
          out += inClass ? VSPACE : `[${VSPACE}]`;
          continue;
        case "H":
        case "V":
        case "R":
        case "N":
          if (inClass) return refuse(`\`\\${d}\` inside a bracket expression`);
          if (d === "N" && pattern[i] === "{") return refuse("`\\N{…}`");
          out += d === "H" ? `[^${HSPACE}]` : d === "V" ? `[^${VSPACE}]` : d === "R" ? `(?:\\r\\n|[${VSPACE}])` : "[^\\n]";
          continue;
        case "e":
          out += "\\x1b";
          continue;
        case "a":
          out += "\\x07";
          continue;
        case "A":
          if (inClass) return refuse("`\\A` inside a bracket expression");
          out += "^";
          continue;
        case "z":
        case "Z":
          if (inClass) return refuse(`\`\\${d}\` inside a bracket expression`);
          out += "$";
          continue;
        case "x":
        case "o": {
          const m = d === "x" ? /^\{([0-9A-Fa-f]+)\}/.exec(pattern.slice(i)) : /^\{([0-7]+)\}/.exec(pattern.slice(i));
          if (m === null) {
            if (d === "o") return { error: "grep: missing opening brace after \\o\n" };
            out += "\\x";
            continue;
          }
          i += m[0].length;
          const escaped = codePoint(parseInt(m[1] as string, d === "x" ? 16 : 8), inClass);
          if (escaped === null) return refuse("a character beyond U+FFFF inside a bracket expression");
          out += escaped;
          continue;
        }
        case "u":
        case "U":
        case "l":
        case "L":
        case "F":
          return { error: "grep: PCRE2 does not support \\F, \\L, \\l, \\N{name}, \\U, or \\u\n" };
        case "G":
        case "X":
        case "C":
        case "p":
        case "P":
          return refuse(`\`\\${d}\``);
        case "K":
          out += "\\K";
          continue;
        case "0": {
          // \0 and up to two more octal digits.
          const m = /^[0-7]{0,2}/.exec(pattern.slice(i)) as RegExpExecArray;
          i += m[0].length;
          out += codePoint(parseInt(`0${m[0]}`, 8), inClass) as string;
          continue;
        }
        default:
          if (/[A-Za-z]/.test(d) && !/[bBdDwWtnrfc]/.test(d)) return { error: "grep: unrecognized character follows \\\n" };
          if (/[bB]/.test(d) && inClass) {
            out += d === "b" ? "\\x08" : "B";
            continue;
          }
          out += `\\${d}`;
          continue;
      }
    }
    if (inClass) {
      if (c === "[" && pattern[i + 1] === ":") {
        const end = pattern.indexOf(":]", i + 2);
        if (end !== -1) {
          out += pattern.slice(i, end + 2);
          i = end + 2;
          continue;
        }
      }
      if (c === "]") inClass = false;
      out += c;
      i++;
      continue;
    }
    if (c === "[") {
      inClass = true;
      let j = i + 1;
      if (pattern[j] === "^") j++;
      // A `]` first in the list is a member.
      if (pattern[j] === "]") j++;
      // GP: a `!` first is a member (just-bash's translation would read `[!…]` as a negation).
      if (j === i + 1 && pattern[j] === "!") {
        out += "[\\!";
        i = j + 1;
        continue;
      }
      out += pattern.slice(i, j).replace(/\]$/, "\\]");
      i = j;
      continue;
    }
    if (c === "(") {
      if (pattern[i + 1] === "*") return refuse("a backtracking control verb `(*…)`");
      if (pattern[i + 1] !== "?" || !/^\?(?:#|P=)/.test(pattern.slice(i + 1))) frames.push(false);
      if (pattern[i + 1] !== "?") {
        groups++;
        out += c;
        i++;
        continue;
      }
      const rest = pattern.slice(i + 2);
      if (rest.startsWith("#")) {
        const end = pattern.indexOf(")", i);
        if (end === -1) return { error: "grep: missing ) at end of comment\n" };
        i = end + 1;
        continue;
      }
      if (/^(?:=|!|<=|<!)/.test(rest)) {
        native = true;
        out += "(?";
        i += 2;
        continue;
      }
      const named = /^(?:P?<([A-Za-z_]\w*)>|'([A-Za-z_]\w*)')/.exec(rest);
      if (named !== null) {
        groups++;
        out += `(?<${named[1] ?? named[2]}>`;
        i += 2 + named[0].length;
        continue;
      }
      const ref = /^P=([A-Za-z_]\w*)\)/.exec(rest);
      if (ref !== null) {
        native = true;
        out += `\\k<${ref[1]}>`;
        i += 2 + ref[0].length;
        continue;
      }
      if (rest.startsWith(">")) return refuse("an atomic group `(?>…)`");
      if (rest.startsWith("|")) return refuse("a branch reset group `(?|…)`");
      if (rest.startsWith("(")) return refuse("a conditional group `(?(…)…)`");
      if (/^(?:R|[+-]?[0-9]|&|P>)/.test(rest)) return refuse("a recursive pattern or subroutine call");
      if (rest.startsWith("C")) return refuse("a callout `(?C…)`");
      // (?:…), (?i), (?i:…): just-bash reads them.
      out += "(?";
      i += 2;
      continue;
    }
    if (c === ")" && frames.length > 0) {
      const holds = frames.pop() as boolean;
      if (holds && unbounded(i + 1)) nested = true;
      if (holds && frames.length > 0) frames[frames.length - 1] = true;
    }
    if (c === "+" && wasQuantified) return refuse("a possessive quantifier (`*+`, `++`, `?+`, `{n,m}+`)");
    if (frames.length > 0 && !wasQuantified && unbounded(i)) frames[frames.length - 1] = true;
    if (c === "*" || c === "+" || c === "?") {
      out += c;
      i++;
      // A lazy `?` is part of the quantifier; a possessive `+` would follow it directly.
      if (pattern[i] === "?") {
        out += "?";
        i++;
      } else quantified = true;
      continue;
    }
    if (c === "{") {
      const m = /^\{[0-9]*(?:,[0-9]*)?\}/.exec(pattern.slice(i));
      if (m !== null && m[0] !== "{}" && m[0] !== "{,}") {
        out += m[0];
        i += m[0].length;
        if (pattern[i] === "?") {
          out += "?";
          i++;
        } else quantified = true;
        continue;
      }
    }
    // PCRE2's `.` is any character but a newline; JavaScript's also misses \r, U+2028 and U+2029 (GP).
    out += c === "." ? "[^\\n]" : c;
    i++;
  }
  // GP: for V8, an alternation of single characters that overlap is made one class, and a repeated part that can
  // match the same text in two ways counts as nested (see {@link disambiguate}); RE2 runs `out` in linear time.
  const read = disambiguate(out);
  if (read.ambiguous) nested = true;
  // V8 backtracks without bound on a repeated group that repeats inside (`(a+)+$` on "aaa…!" takes 2^n steps) and
  // the shell cannot stop a regex mid-match: such a pattern is refused on the V8 path (RE2 runs it in linear time).
  if (native && nested) return { error: NESTED_REPEAT_REFUSAL };
  return { source: out, nativeSource: read.source, native, nested };
}

/*
 * GP (issue 20, run 32): V8 backtracks exponentially not only on a repeated group holding an unbounded repeat, but on
 * any repeated part that can match the same text in two ways — `(.|\s)*`, `(?:a|a)*`, `(a|aa)+`, `(?:a?a)*`,
 * `(\s?,\s?)+` — because on failure it tries every way. {@link disambiguate} reads the translated source once.
 */

/** A quantifier: `min`, `max` (Infinity when unbounded) and its text (with a lazy `?`). */
interface Quant {
  min: number;
  max: number;
  text: string;
}
/** One item of a branch: a one-character atom (`a`, `\w`, `[…]`), a group, or anything else (`^`, `\b`, `\1`, `(?i)`). */
type Item =
  | { kind: "char"; src: string; q?: Quant }
  | { kind: "group"; open: string; body: Item[][]; q?: Quant }
  | { kind: "other"; src: string; q?: Quant };

/** Parses a translated (JavaScript-syntax) source into branches of items; null when it cannot be read. */
function parseSource(src: string): Item[][] | null {
  let i = 0;
  const n = src.length;
  const quant = (): Quant | undefined => {
    const c = src[i];
    let q: Quant | undefined;
    if (c === "*") q = { min: 0, max: Infinity, text: "*" };
    else if (c === "+") q = { min: 1, max: Infinity, text: "+" };
    else if (c === "?") q = { min: 0, max: 1, text: "?" };
    else if (c === "{") {
      const m = /^\{([0-9]+)(,([0-9]*))?\}/.exec(src.slice(i));
      if (m === null) return undefined;
      const min = Number(m[1]);
      q = { min, max: m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]), text: m[0] };
    } else return undefined;
    i += q.text.length;
    if (src[i] === "?") {
      q.text += "?";
      i++;
    }
    return q;
  };
  const alt = (depth: number): Item[][] | null => {
    const branches: Item[][] = [[]];
    while (i < n) {
      const c = src[i] as string;
      if (c === ")") {
        if (depth === 0) return null;
        return branches;
      }
      if (c === "|") {
        branches.push([]);
        i++;
        continue;
      }
      let item: Item;
      if (c === "(") {
        const m = /^\((?:\?(?::|=|!|<=|<!|<[A-Za-z_]\w*>|[imsx]*(?:-[imsx]*)?:))?/.exec(src.slice(i)) as RegExpExecArray;
        const flagsOnly = /^\(\?[imsx]*(?:-[imsx]*)?\)/.exec(src.slice(i));
        if (m[0] === "(" && src[i + 1] === "?") {
          if (flagsOnly === null) return null;
          i += flagsOnly[0].length;
          item = { kind: "other", src: flagsOnly[0] };
        } else {
          i += m[0].length;
          const body = alt(depth + 1);
          if (body === null || src[i] !== ")") return null;
          i++;
          item = { kind: "group", open: m[0], body };
        }
      } else if (c === "[") {
        let j = i + 1;
        if (src[j] === "^") j++;
        while (j < n && src[j] !== "]") {
          if (src[j] === "\\") j += 2;
          else if (src[j] === "[" && src[j + 1] === ":" && src.indexOf(":]", j + 2) !== -1) j = src.indexOf(":]", j + 2) + 2;
          else j++;
        }
        if (j >= n) return null;
        item = { kind: "char", src: src.slice(i, j + 1) };
        i = j + 1;
      } else if (c === "\\") {
        const rest = src.slice(i);
        const m = /^\\(?:u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2}|c[A-Za-z]|k<[^>]*>|[1-9][0-9]*|[^])/.exec(rest);
        if (m === null) return null;
        i += m[0].length;
        const d = m[0][1] as string;
        item = /^[bBK1-9k]$/.test(d) ? { kind: "other", src: m[0] } : { kind: "char", src: m[0] };
      } else if (c === "^" || c === "$") {
        i++;
        item = { kind: "other", src: c };
      } else {
        i++;
        item = { kind: "char", src: c };
      }
      const q = quant();
      if (q !== undefined) item.q = q;
      (branches[branches.length - 1] as Item[]).push(item);
    }
    return depth === 0 ? branches : null;
  };
  return alt(0);
}

const WORDS = 2048;
/** What just-bash puts for a POSIX class inside a bracket expression (its `[:name:]` table). */
const POSIX_CLASSES: Record<string, string> = {
  alpha: "a-zA-Z",
  digit: "0-9",
  alnum: "a-zA-Z0-9",
  lower: "a-z",
  upper: "A-Z",
  xdigit: "0-9A-Fa-f",
  space: " \\t\\n\\r\\f\\v",
  blank: " \\t",
  punct: "!-/:-@\\[-`{-~",
  graph: "!-~",
  print: " -~",
  cntrl: "\\x00-\\x1F\\x7F",
  ascii: "\\x00-\\x7F",
  word: "a-zA-Z0-9_",
};
let units: string | undefined;
/** Every UTF-16 unit, once. */
const allUnits = (): string => {
  if (units === undefined) {
    const codes: string[] = [];
    for (let u = 0; u < 0x10000; u += 4096) codes.push(String.fromCharCode(...Array.from({ length: 4096 }, (_, k) => u + k)));
    units = codes.join("");
  }
  return units;
};
const setCache = new Map<string, Uint32Array>();
/**
 * The UTF-16 units a one-character atom can match (grep -P's V8 regex has no `u` flag); `fold`: with case folded in,
 * for the overlap tests (more overlap is the safe side).
 */
function unitSet(src: string, fold = true): Uint32Array | null {
  const key = `${fold ? "i" : "-"}${src}`;
  const known = setCache.get(key);
  if (known !== undefined) return known;
  const set = new Uint32Array(WORDS);
  const add = (u: number): void => {
    set[u >>> 5] = (set[u >>> 5] as number) | (1 << (u & 31));
  };
  const literal = src.length === 1 ? src : /^\\[^A-Za-z0-9]$/.test(src) ? (src[1] as string) : null;
  if (literal !== null) {
    for (const v of fold ? [literal, literal.toLowerCase(), literal.toUpperCase()] : [literal]) if (v.length === 1) add(v.charCodeAt(0));
  } else {
    // Every unit the atom does not match is left: the set is the rest.
    let rest: string | null = null;
    try {
      const js = src.replace(/\[:([a-z]+):\]/g, (all, name: string) => POSIX_CLASSES[name] ?? all);
      if (!js.includes("[:")) rest = allUnits().replace(new RegExp(js, fold ? "gi" : "g"), "");
    } catch {
      rest = null;
    }
    if (rest === null) return null;
    set.fill(0xffffffff);
    for (let k = 0; k < rest.length; k++) {
      const u = rest.charCodeAt(k);
      set[u >>> 5] = (set[u >>> 5] as number) & ~(1 << (u & 31));
    }
  }
  if (setCache.size >= 512) setCache.clear();
  setCache.set(key, set);
  return set;
}
/** Whether two sets share a unit (an unknown set, null, shares every unit). */
const overlap = (a: Uint32Array | null, b: Uint32Array | null): boolean => {
  if (a === null || b === null) return true;
  for (let w = 0; w < WORDS; w++) if (((a[w] as number) & (b[w] as number)) !== 0) return true;
  return false;
};
const full = (a: Uint32Array): boolean => a.every((w) => w === 0xffffffff);
/** A bracket expression of the units in `set`. */
function classOf(set: Uint32Array): string {
  const has = (u: number): boolean => (((set[u >>> 5] as number) >>> (u & 31)) & 1) === 1;
  const hex = (u: number): string => `\\u${u.toString(16).padStart(4, "0")}`;
  let out = "";
  for (let u = 0; u < 0x10000; u++) {
    if (!has(u)) continue;
    let end = u;
    while (end + 1 < 0x10000 && has(end + 1)) end++;
    out += end === u ? hex(u) : `${hex(u)}-${hex(end)}`;
    u = end;
  }
  return `[${out}]`;
}

/** The units an item's match starts with (a group: its branches' first items), or null when not known / empty. */
function firstSet(item: Item | undefined): Uint32Array | null {
  if (item === undefined || (item.q !== undefined && item.q.min === 0)) return null;
  if (item.kind === "char") return unitSet(item.src);
  if (item.kind === "other" || !/^\((?:\?:|\?<[A-Za-z_]|[^?])/.test(`${item.open}x`)) return null;
  const union = new Uint32Array(WORDS);
  for (const branch of item.body) {
    const s = firstSet(branch[0]);
    if (s === null) return null;
    for (let w = 0; w < WORDS; w++) union[w] = (union[w] as number) | (s[w] as number);
  }
  return union;
}

/** Whether no text starts both branches: at some position both have one character, and the two sets are disjoint. */
function disjoint(a: Item[], b: Item[]): boolean {
  for (let k = 0; k < a.length && k < b.length; k++) {
    const x = a[k] as Item;
    const y = b[k] as Item;
    if (x.kind === "group" || y.kind === "group") {
      const fx = firstSet(x);
      const fy = firstSet(y);
      return fx !== null && fy !== null && !overlap(fx, fy);
    }
    if (x.kind !== "char" || y.kind !== "char" || (x.q !== undefined && x.q.min === 0) || (y.q !== undefined && y.q.min === 0)) return false;
    if (!overlap(unitSet(x.src), unitSet(y.src))) return true;
    if (x.q !== undefined || y.q !== undefined) return false;
  }
  return false;
}

/** How many times a quantifier repeats (1 without one). */
const times = (q: Quant | undefined): number => (q === undefined ? 1 : q.max);
/** A part repeated more than this many times (all its enclosing counts multiplied) is checked for ambiguity. */
const REPEATED = 8;

/**
 * Makes an alternation of one-character branches deterministic — `[\s\S]` when together they match every character
 * (`(.|\s)`, `(.|\n)`, `(\s|\S)`), else each later branch behind a lookahead refusing the earlier ones (same match,
 * one way to make it) — and reports a repeated part that can still match the same text in two ways: an alternation
 * whose branches are not provably disjoint (`(a|aa)+`), or a variable-length character (`a?`, `a{1,3}`) whose set
 * overlaps what can follow it inside the repeat (`(?:a?a)*`, `(\s?,\s?)+`). Exact where it rewrites, conservative
 * where it reports.
 */
export function disambiguate(source: string): { source: string; ambiguous: boolean } {
  const tree = parseSource(source);
  if (tree === null) return { source, ambiguous: false };
  let ambiguous = false;
  const rewrite = (branches: Item[][]): void => {
    if (branches.length < 2 || !branches.every((b) => b.length === 1 && b[0]?.kind === "char" && b[0].q === undefined)) return;
    const atoms = branches.map((b) => (b[0] as { src: string }).src);
    // Exact sets (no folding): an -i match folds the class as it folded each branch. An unknown set: left as it is.
    const union = new Uint32Array(WORDS);
    for (const a of atoms) {
      const s = unitSet(a, false);
      if (s === null) return;
      for (let w = 0; w < WORDS; w++) union[w] = (union[w] as number) | (s[w] as number);
    }
    const every = full(union);
    const sets = atoms.map((a) => unitSet(a));
    if (!every && !sets.some((s, x) => sets.some((t, y) => y > x && overlap(s, t)))) return;
    const replaced = every ? "[\\s\\S]" : classOf(union);
    branches.length = 1;
    branches[0] = [{ kind: "other", src: replaced }];
  };
  /** The sets that can follow item k of `branch` (inside a group whose branches are `around`), or null if unknown. */
  const follows = (branch: Item[], k: number, around: Item[][], again: boolean): (Uint32Array | null)[] | null => {
    const found: (Uint32Array | null)[] = [];
    const walk = (items: Item[], from: number): boolean | null => {
      for (let j = from; j < items.length; j++) {
        const it = items[j] as Item;
        if (it.kind !== "char") return null;
        found.push(unitSet(it.src));
        if (it.q === undefined || it.q.min > 0) return true;
      }
      return false;
    };
    const inBranch = walk(branch, k + 1);
    if (inBranch === null) return null;
    if (inBranch) return found;
    // The end of a repeated group's body: the next round starts one of its branches (else: not known here).
    if (!again) return null;
    for (const b of around) if (walk(b, 0) !== true) return null;
    return found;
  };
  const visit = (branches: Item[][], factor: number, own: Quant | undefined): void => {
    rewrite(branches);
    const repeated = factor > REPEATED;
    if (repeated && branches.length > 1) {
      for (let x = 0; x < branches.length && !ambiguous; x++)
        for (let y = x + 1; y < branches.length; y++)
          if (!disjoint(branches[x] as Item[], branches[y] as Item[])) {
            ambiguous = true;
            break;
          }
    }
    for (const branch of branches) {
      branch.forEach((it, k) => {
        if (repeated && it.q !== undefined && it.q.min < it.q.max) {
          if (it.kind !== "char") ambiguous = true;
          else {
            const after = follows(branch, k, branches, times(own) > 1);
            if (after === null || after.some((s) => overlap(s, unitSet(it.src)))) ambiguous = true;
          }
        }
        if (it.kind === "group") visit(it.body, factor * times(it.q), it.q);
      });
    }
  };
  for (const branch of tree) for (const it of branch) if (it.kind === "group") visit(it.body, times(it.q), it.q);
  const text = (branches: Item[][]): string =>
    branches
      .map((b) => b.map((it) => (it.kind === "group" ? `${it.open}${text(it.body)})` : it.src) + (it.q?.text ?? "")).join(""))
      .join("|");
  return { source: text(tree), ambiguous };
}
