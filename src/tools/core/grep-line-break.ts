/**
 * grep's check for a query that holds a line break (issue 20, run 36, fixer TL).
 *
 * grep matches one line at a time (lines split at LF, without it), so a query that can only match across a line
 * break never matches. Rather than answer a silent `count: 0` for text that is in the file — the agent then
 * writes it again or reports an edit lost — such a query gets an error result, as ripgrep refuses one (`the
 * literal "\n" is not allowed in a regex`, status 2). GNU grep reads a multi-line pattern as several patterns,
 * one per line, an "or" that would report lines the whole text does not match; that reading is not taken.
 *
 * The tool layer imports only `zod`, so the regex is read here by a small scanner of JavaScript regex syntax
 * (no `u` flag, ECMA-262 Annex B), not by the fs layer's parser: it only tells whether EVERY match needs a LF,
 * and answers "can match within a line" whenever it is unsure, so a query is never refused wrongly; what it
 * cannot read (a malformed or unsupported regex) is left to `fs.grep`, whose error names the construct.
 *
 * RE2's `\Q…\E` is read as fs.grep rewrites it (src/fs/grep-regex.ts `rewriteRe2Syntax`): the quoted characters
 * are literals, so a quoted `\n` is a backslash and an `n` on the line, never a LF, and a quantifier after `\E`
 * repeats the last quoted character; RE2's `\x{…}` is the character it names (issue 20, run 39, fixer GX).
 *
 * @module
 */

const LF = 0x0a;
/** A `{n}`, `{n,}` or `{n,m}` quantifier at `lastIndex`. */
const QUANTIFIER = /\{(\d+)(?:,\d*)?\}/y;
/** The head of a `(?…)` group at `lastIndex`: non-capturing, lookaround or named. */
const GROUP_HEAD = /\?(?::|=|!|<=|<!|<[A-Za-z_$][\w$]*>)/y;

/**
 * The error text for a query that can only match across a line break, or `undefined` when it can match within
 * one line. A literal query is refused when it holds LF. A regex is refused when every match needs a LF: `a\nb`,
 * `\x0a`, `\u000A`, `\cJ`, a raw LF, `[\n]`, `foo\r?\n`, `(\n)+` — but not `\s`, `[^\n]`, `[\s\S]`, `.`, `\n?`,
 * `\n*` or `a|\n`, each of which can match (or match nothing) within one line. A regex fs.grep refuses (a
 * backreference, an octal escape, lookaround) is not refused here, so its error stays fs.grep's.
 */
export function lineBreakError(query: string, regex: boolean): string | undefined {
  if (!regex) {
    if (!query.includes("\n")) return undefined;
    const line = query.split("\n").find((l) => l.trim() !== "");
    const hint = line === undefined ? "" : ` (e.g. ${JSON.stringify(line.length > 200 ? line.slice(0, 200) : line)})`;
    return `grep matches within one line at a time, and the query holds a line break, so it could never match. Search for one line of the text${hint}, then read the file around the match to check the lines that follow.`;
  }
  let within: boolean;
  try {
    new RegExp(query); // V8's own error for malformed source comes from fs.grep
    within = new Scanner(query).pattern();
  } catch {
    return undefined;
  }
  if (within) return undefined;
  return "grep matches within one line at a time, and every match of this regex needs a line break (\\n), so it could never match. Search with a regex for one line of the text, then read the file around the match to check the lines that follow.";
}

/** Thrown by {@link Scanner} for syntax it does not read; the query is then not refused. */
class Unread extends Error {}

/** Reads regex source far enough to tell whether some match of it holds no LF. */
class Scanner {
  #at = 0;
  constructor(readonly source: string) {}

  /** The whole pattern: `true` when some match holds no LF. */
  pattern(): boolean {
    const within = this.#alternation();
    if (this.#at !== this.source.length) throw new Unread();
    return within;
  }

  #peek(offset = 0): string | undefined {
    return this.source[this.#at + offset];
  }

  #alternation(): boolean {
    let within = this.#sequence();
    while (this.#peek() === "|") {
      this.#at++;
      within = this.#sequence() || within;
    }
    return within;
  }

  #sequence(): boolean {
    let within = true;
    for (let c = this.#peek(); c !== undefined && c !== "|" && c !== ")"; c = this.#peek()) {
      if (c === "\\" && this.#peek(1) === "Q") {
        within = this.#quoted() && within;
        continue;
      }
      const atom = this.#atom();
      const min = this.#quantifier();
      within = within && (atom || min === 0);
    }
    return within;
  }

  /**
   * RE2's `\Q…\E` (to the end when no `\E` follows), with the quantifier after it: `true` when some match holds
   * no LF — no quoted character is a raw LF, but the last may be when the quantifier lets it repeat 0 times.
   */
  #quoted(): boolean {
    this.#at += 2;
    const end = this.source.indexOf("\\E", this.#at);
    const text = this.source.slice(this.#at, end < 0 ? this.source.length : end);
    this.#at = end < 0 ? this.source.length : end + 2;
    if (text === "") return true; // quotes nothing; a quantifier after it is read as an atom, so never refused
    const min = this.#quantifier();
    return !text.slice(0, -1).includes("\n") && (text.slice(-1) !== "\n" || min === 0);
  }

  /** The least number of repeats a quantifier after an atom asks for, or `undefined` when there is none. */
  #quantifier(): number | undefined {
    const c = this.#peek();
    let min: number | undefined;
    if (c === "*" || c === "?") min = 0;
    else if (c === "+") min = 1;
    else if (c === "{") {
      QUANTIFIER.lastIndex = this.#at;
      const m = QUANTIFIER.exec(this.source);
      if (!m) return undefined; // Annex B: a `{` that opens no quantifier is a literal, read as the next atom
      this.#at += m[0].length - 1;
      min = Number(m[1]);
    } else return undefined;
    this.#at++;
    if (this.#peek() === "?") this.#at++;
    return min;
  }

  /** One atom: `true` when it can match something other than a lone LF (or nothing at all). */
  #atom(): boolean {
    const c = this.#peek();
    if (c === "(") {
      this.#at++;
      if (this.#peek() === "?") {
        GROUP_HEAD.lastIndex = this.#at;
        const head = GROUP_HEAD.exec(this.source);
        // Lookaround is refused by fs.grep (its error names it); a named group is read as a group.
        if (!head || (head[0] !== "?:" && !head[0].endsWith(">"))) throw new Unread();
        this.#at += head[0].length;
      }
      const within = this.#alternation();
      if (this.#peek() !== ")") throw new Unread();
      this.#at++;
      return within;
    }
    if (c === "[") return !this.#classIsLf();
    if (c === "\\") {
      this.#at++;
      return this.#escape() !== LF;
    }
    this.#at++;
    return c !== "\n";
  }

  /** After a `\`: the code unit the escape stands for, or `-1` for a class escape, assertion or backreference. */
  #escape(): number {
    const c = this.#peek();
    if (c === undefined) throw new Unread();
    this.#at++;
    const hex = (n: number) => {
      const digits = this.source.slice(this.#at, this.#at + n);
      if (digits.length !== n || !/^[0-9a-fA-F]+$/.test(digits)) return c.charCodeAt(0); // Annex B: `\x` alone is `x`
      this.#at += n;
      return parseInt(digits, 16);
    };
    if (c === "n") return LF;
    if (c === "x" && this.#peek() === "{") {
      // RE2's `\x{HHHH}`: the character it names (fs.grep refuses a malformed one); outside the BMP, not a LF.
      const m = /\{([0-9A-Fa-f]{1,6})\}/y;
      m.lastIndex = this.#at;
      const found = m.exec(this.source);
      if (!found) throw new Unread();
      this.#at += found[0].length;
      const point = parseInt(found[1]!, 16);
      return point <= 0xffff ? point : -1;
    }
    if (c === "x") return hex(2);
    if (c === "u") return hex(4);
    if (c === "c") {
      const letter = this.#peek();
      if (letter !== undefined && /[A-Za-z]/.test(letter)) {
        this.#at++;
        return letter.charCodeAt(0) % 32;
      }
      return -1; // `\c` not followed by a letter: a literal backslash and `c` (Annex B)
    }
    if (c === "0" && !/[0-9]/.test(this.#peek() ?? "")) return 0;
    if (/[0-9]/.test(c)) throw new Unread(); // backreference or octal: refused by fs.grep, with its own error
    if (/[dDsSwWbBk]/.test(c)) return -1;
    return c.charCodeAt(0);
  }

  /** A character class: `true` when it is a positive class of LF alone (`[\n]`, `[\x0a\n]`). */
  #classIsLf(): boolean {
    this.#at++;
    const negated = this.#peek() === "^";
    if (negated) this.#at++;
    let members = 0;
    let allLf = true;
    const unit = (): number => {
      const c = this.#peek();
      if (c === undefined) throw new Unread();
      this.#at++;
      if (c !== "\\") return c.charCodeAt(0);
      if (this.#peek() === "b") {
        this.#at++;
        return 0x08; // `\b` in a class is backspace
      }
      return this.#escape();
    };
    while (this.#peek() !== "]") {
      const lo = unit();
      let hi = lo;
      if (this.#peek() === "-" && this.#peek(1) !== "]" && this.#peek(1) !== undefined) {
        this.#at++;
        hi = unit();
      }
      members++;
      if (lo !== LF || hi !== LF) allLf = false;
    }
    this.#at++;
    return !negated && members > 0 && allLf;
  }
}
