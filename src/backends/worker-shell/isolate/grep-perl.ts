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

/** A `-P` pattern read: `source` for just-bash's Perl-mode translation, `native` when only V8 can run it; or `error`. */
export type PerlPattern = { source: string; native: boolean; nested: boolean; error?: undefined } | { error: string };

/**
 * The refusal of a pattern V8 would backtrack on exponentially: a repeated group holding an unbounded repeat, on the
 * V8 path (a lookaround, a back-reference, or `-w`). The shell cannot stop a regex in the middle of a match.
 */
export const NESTED_REPEAT_REFUSAL =
  "grep: a -P pattern with a lookaround or back-reference (or -P with -w) runs on a backtracking engine, where a repeated group holding an unbounded repeat (`(a+)+`, `(?:x*y)*`) can take exponential time; it is not supported: write the repeat without nesting\n";

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
    out += c;
    i++;
  }
  // V8 backtracks without bound on a repeated group that repeats inside (`(a+)+$` on "aaa…!" takes 2^n steps) and
  // the shell cannot stop a regex mid-match: such a pattern is refused on the V8 path (RE2 runs it in linear time).
  if (native && nested) return { error: NESTED_REPEAT_REFUSAL };
  return { source: out, native, nested };
}
