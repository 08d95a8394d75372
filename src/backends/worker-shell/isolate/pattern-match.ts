/**
 * Bracket expressions of shell patterns as bash 5.2 reads them, for the
 * matcher of `case` patterns, `[[ str == pattern ]]` / `!=` and `compgen -X`
 * (issue 20, twenty-sixth attack run; fixer SC).
 *
 * just-bash copied a bracket expression into its regular expression as
 * written, up to the first `]`: `[!a]` became the class of `!` and `a` (bash:
 * any character but `a`), so `case b in [!a])` did not match and
 * `case 12 in [!0-9]*)` did; `[!]a]` and `[\]]` were cut at their first `]`.
 * Pathname expansion, `${x#…}` and find/grep globs read them right already.
 * scripts/gen-shell.mjs patches that matcher (and its fixed-length helper for
 * `!(…)`) to call {@link bracket}, imported as the namespace `__patternMatch`
 * (entries marked `// SC`). Pure: it is bundled into the shell's Dynamic Worker.
 *
 * @module
 */

/** POSIX character class names bash knows, each also an RE2 class name. */
const CLASSES = new Set(["alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph", "lower", "print", "punct", "space", "upper", "word", "xdigit"]);

/** `c` (one code point) as an RE2 class member. */
function member(c: string): string {
  return `\\x{${c.codePointAt(0)!.toString(16)}}`;
}

/**
 * The bracket expression of `pattern` opening at `start` (a `[`), read as bash's glob matcher does: `!` or `^` first
 * negates it, a `]` first (after any negation) is a member, `\x` is the character x, `a-z` a range (none when
 * reversed), `[:class:]` a character class (an unknown one matches nothing), `[=c=]` and `[.c.]` the character c.
 * Returns the RE2 class it stands for and the index of its closing `]`, or null when it has none (then `[` is an
 * ordinary character).
 */
export function bracket(pattern: string, start: number): { regex: string; end: number } | null {
  let i = start + 1;
  let negated = false;
  if (pattern[i] === "!" || pattern[i] === "^") {
    negated = true;
    i++;
  }
  const items: string[] = [];
  /** The character at `i` (a `\` escapes the next one, `[=c=]`/`[.c.]` is c), advancing past it; null at the end. */
  const readChar = (): string | null => {
    if (i >= pattern.length) return null;
    if (pattern[i] === "\\" && i + 1 < pattern.length) i++;
    else if (pattern[i] === "[" && (pattern[i + 1] === "=" || pattern[i + 1] === ".")) {
      const close = pattern.indexOf(`${pattern[i + 1]}]`, i + 2);
      if (close !== -1) {
        const name = pattern.slice(i + 2, close);
        i = close + 2;
        return [...name].length === 1 ? name : "";
      }
    }
    const c = String.fromCodePoint(pattern.codePointAt(i)!);
    i += c.length;
    return c;
  };
  for (let first = true; ; first = false) {
    if (i >= pattern.length) return null;
    if (pattern[i] === "]" && !first) break;
    if (pattern[i] === "[" && pattern[i + 1] === ":") {
      const close = pattern.indexOf(":]", i + 2);
      if (close !== -1) {
        const name = pattern.slice(i + 2, close);
        if (CLASSES.has(name)) items.push(`[:${name}:]`);
        i = close + 2;
        continue;
      }
    }
    const lo = readChar();
    if (lo === null) return null;
    if (pattern[i] === "-" && i + 1 < pattern.length && pattern[i + 1] !== "]") {
      i++;
      const hi = readChar();
      if (hi === null) return null;
      if (lo !== "" && hi !== "" && lo.codePointAt(0)! <= hi.codePointAt(0)!) items.push(`${member(lo)}-${member(hi)}`);
      continue;
    }
    if (lo !== "") items.push(member(lo));
  }
  // An empty set (only unknown classes, reversed ranges): nothing matches it, everything its negation.
  const regex = items.length > 0 ? `[${negated ? "^" : ""}${items.join("")}]` : negated ? "[\\x{0}-\\x{10ffff}]" : "[^\\x{0}-\\x{10ffff}]";
  return { regex, end: i };
}

/** The index of the `]` closing the bracket expression of `pattern` opening at `start`, or -1 ({@link bracket}). */
export function bracketEnd(pattern: string, start: number): number {
  return bracket(pattern, start)?.end ?? -1;
}
