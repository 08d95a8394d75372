/**
 * sed's bracket expressions as GNU sed 4.9 reads them (issue 20, run 29,
 * fixer SB; wired into just-bash's sed by scripts/gen-shell.mjs, entries
 * marked `// SB`, imported as the namespace `__sedBracket`).
 *
 * just-bash read a backslash inside `[...]` as an escape, so `[&/\]` (the
 * class of `&`, `/` and `\`) never closed and the usual escaping idiom
 * `sed 's/[&/\]/\\&/g'` failed "unterminated substitution pattern"; and its
 * BRE conversion kept `\.` `\w` `\]` … as JavaScript escapes. As POSIX and
 * GNU sed:
 *
 * - the delimiter scan ({@link scan}): a `[` (not escaped) opens a bracket
 *   expression; a `]` right after `[` or `[^` is a member; `[:…:]`, `[.….]`
 *   and `[=…=]` are read whole; inside, a backslash is an ordinary character
 *   and the delimiter does not end the regex; only the `]` that closes the
 *   bracket ends it. Outside, `\` + the delimiter is the delimiter;
 * - the translation ({@link regex}): each bracket expression becomes a
 *   JavaScript class with its members escaped — a backslash is a member
 *   (`[a\]` matches `a` or `\`), except the escapes GNU sed turns into
 *   characters first: `\n` `\t` `\r` `\a` `\f` `\v` (and `\d` `\o` `\x`
 *   without digits are the letter), read in pairs as GNU (`[\\n]` is `\` or
 *   `n`); `[:class:]`, `[.c.]`, `[=c=]` and ranges
 *   as POSIX (C locale). The rest of the regex goes through just-bash's own
 *   BRE/ERE conversion unchanged (each bracket stands in it as one
 *   placeholder character);
 * - `\%regex%` addresses (any delimiter) are read ({@link customAddress}), and
 *   an address regex under `-E` is an ERE (just-bash read it as a BRE).
 *
 * Pure: bundled into the shell's Dynamic Worker.
 *
 * @module
 */

/** What {@link scan} needs of just-bash's sed lexer. */
export interface SedLexer {
  input: string;
  pos: number;
  peek(offset?: number): string;
  advance(): string;
}

/** POSIX classes (C locale), as JavaScript class contents; just-bash's table. */
const CLASSES: Record<string, string> = {
  alnum: "a-zA-Z0-9",
  alpha: "a-zA-Z",
  ascii: "\\x00-\\x7F",
  blank: " \\t",
  cntrl: "\\x00-\\x1F\\x7F",
  digit: "0-9",
  graph: "!-~",
  lower: "a-z",
  print: " -~",
  punct: "!-/:-@\\[-`{-~",
  space: " \\t\\n\\r\\f\\v",
  upper: "A-Z",
  word: "a-zA-Z0-9_",
  xdigit: "0-9A-Fa-f",
};

/**
 * The end (index after the `]`) of the `[:…:]`, `[.….]` or `[=…=]` that
 * starts at `i` of `text` (a `[` followed by `:`, `.` or `=`), or -1 when
 * it is not one (then the `[` is an ordinary member).
 */
function specialEnd(text: string, i: number): number {
  const kind = text[i + 1];
  if (kind !== ":" && kind !== "." && kind !== "=") return -1;
  for (let j = i + 2; j + 1 < text.length; j++) {
    if (text[j] === "\n") return -1;
    if (text[j] === kind && text[j + 1] === "]") return j + 2;
  }
  return -1;
}

/**
 * Reads a sed regex from `lexer` (just after its opening delimiter) up to
 * the delimiter `delim` that ends it, and leaves the lexer on that
 * delimiter (or on a newline / the end when there is none: the caller
 * reports the regex unterminated). Outside a bracket expression `\` +
 * `delim` stands for `delim`, any other `\x` is kept; inside one every
 * character (`\` and `delim` too) is a member until the closing `]`.
 */
export function scan(lexer: SedLexer, delim: string): string {
  let out = "";
  while (lexer.pos < lexer.input.length) {
    const c = lexer.peek();
    if (c === "\n" || c === delim) break;
    if (c === "\\") {
      lexer.advance();
      if (lexer.pos < lexer.input.length && lexer.peek() !== "\n") {
        if (lexer.peek() === delim) out += lexer.advance();
        else out += "\\" + lexer.advance();
      } else out += "\\";
      continue;
    }
    if (c !== "[") {
      out += lexer.advance();
      continue;
    }
    out += lexer.advance();
    if (lexer.peek() === "^") out += lexer.advance();
    if (lexer.peek() === "]") out += lexer.advance();
    while (lexer.pos < lexer.input.length) {
      const m = lexer.peek();
      if (m === "\n") return out;
      if (m === "]") {
        out += lexer.advance();
        break;
      }
      if (m === "[") {
        const end = specialEnd(lexer.input, lexer.pos);
        if (end !== -1) {
          while (lexer.pos < end) out += lexer.advance();
          continue;
        }
      }
      out += lexer.advance();
    }
  }
  return out;
}

/**
 * Whether the lexer is on a `\cREGEXc` address (a backslash and a
 * delimiter that is not a newline or a backslash); just-bash's
 * `readPattern` then reads it with that delimiter.
 */
export function customAddress(lexer: SedLexer): boolean {
  const delim = lexer.input[lexer.pos + 1];
  return lexer.peek() === "\\" && delim !== undefined && delim !== "\n" && delim !== "\\";
}

const ESCAPED_IN_CLASS = new Set(["\\", "]", "[", "^", "-"]);

/** `c` as a member of a JavaScript class. */
function member(c: string): string {
  return ESCAPED_IN_CLASS.has(c) ? `\\${c}` : c;
}

/** The GNU sed escapes turned into characters before the regex is compiled, inside a bracket. */
const BRACKET_ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", a: "\x07", f: "\f", v: "\v", d: "d", o: "o", x: "x" };

/**
 * The bracket expression of `text` starting at `i` (its `[`) as a
 * JavaScript class, and the index after its `]`; null when it does not
 * close (the `[` is then a literal).
 */
function bracket(text: string, i: number): { js: string; end: number } | null {
  let j = i + 1;
  let negated = false;
  if (text[j] === "^") {
    negated = true;
    j++;
  }
  const parts: string[] = [];
  let first = true;
  /** One character at j (a collating element `[.c.]`/`[=c=]`, a GNU escape, or the character), or null. */
  const atom = (): string | null => {
    const c = text[j]!;
    if (c === "[" && (text[j + 1] === "." || text[j + 1] === "=")) {
      const end = specialEnd(text, j);
      if (end !== -1) {
        const name = text.slice(j + 2, end - 2);
        if ([...name].length === 1) {
          j = end;
          return name;
        }
      }
    }
    if (c === "\\" && text[j + 1] === "\\") {
      j += 2;
      return "\\";
    }
    if (c === "\\" && j + 1 < text.length && BRACKET_ESCAPES[text[j + 1]!] !== undefined) {
      j += 2;
      return BRACKET_ESCAPES[text[j - 1]!]!;
    }
    const cp = text.codePointAt(j)!;
    const ch = String.fromCodePoint(cp);
    j += ch.length;
    return ch;
  };
  while (j < text.length) {
    const c = text[j]!;
    if (c === "]" && !first) {
      return { js: `[${negated ? "^" : ""}${parts.join("")}]`, end: j + 1 };
    }
    first = false;
    if (c === "[" && text[j + 1] === ":") {
      const end = specialEnd(text, j);
      const cls = end === -1 ? undefined : CLASSES[text.slice(j + 2, end - 2)];
      if (cls !== undefined) {
        parts.push(cls);
        j = end;
        continue;
      }
    }
    const lo = atom();
    if (lo === null) return null;
    if (text[j] === "-" && j + 1 < text.length && text[j + 1] !== "]") {
      j++;
      const hi = atom();
      if (hi === null) return null;
      parts.push(`${member(lo)}-${member(hi)}`);
      continue;
    }
    parts.push(member(lo));
  }
  return null;
}

/** The placeholder a bracket expression stands as while just-bash's conversion runs: a noncharacter `text` does not hold. */
function placeholder(text: string): string {
  for (let c = 0xfdd0; c <= 0xfdef; c++) {
    const p = String.fromCharCode(c);
    if (!text.includes(p)) return p;
  }
  return "\ufdd0";
}

/**
 * The JavaScript regex for the sed regex `pattern` (`extended`: an ERE, as
 * `-E`), given just-bash's own conversions `bre` (BRE → JavaScript) and
 * `ere` (the fix-ups both go through): bracket expressions are translated
 * here ({@link bracket}); the rest as just-bash does.
 */
export function regex(pattern: string, extended: boolean | undefined, bre: (p: string) => string, ere: (p: string) => string): string {
  if (typeof pattern !== "string" || !pattern.includes("[")) return ere(extended ? pattern : bre(pattern));
  const mark = placeholder(pattern);
  const classes: string[] = [];
  let text = "";
  for (let i = 0; i < pattern.length; ) {
    const c = pattern[i]!;
    if (c === "\\" && i + 1 < pattern.length) {
      text += pattern.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (c === "[") {
      const b = bracket(pattern, i);
      if (b !== null) {
        classes.push(b.js);
        text += mark;
        i = b.end;
        continue;
      }
      text += "\\[";
      i++;
      continue;
    }
    text += c;
    i++;
  }
  const converted = ere(extended ? text : bre(text));
  let k = 0;
  return converted.replace(new RegExp(mark, "g"), () => classes[k++] ?? "");
}
