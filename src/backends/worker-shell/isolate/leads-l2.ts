/**
 * Shell behaviour bash 5.2 has and just-bash lacked, found by the lead of issue 20's twenty-seventh run (fixer L2).
 * scripts/gen-shell.mjs patches just-bash to call these, imported as the namespace `__leadsL2` (entries marked
 * `// L2`). Pure: it is bundled into the shell's Dynamic Worker.
 *
 * extglob `!(pattern-list)`: just-bash compiled every shell pattern to a regular expression and `!(…)` to a
 * lookahead, which the RE2 engine it uses refuses ("Lookahead … not supported"), so `[[ x == !(*.md) ]]`, `case`
 * and `ls !(*.md)` failed or never matched. {@link globMatch} matches a pattern that has one without any regular
 * expression: it computes, for each element of the pattern, the set of text positions it can end at (polynomial in
 * the lengths, no backtracking blow-up), with bash's meaning of `!(…)` — any string the list does not match.
 *
 * @module
 */

/** One element of a shell pattern. */
type Node =
  | { kind: "char"; c: string }
  | { kind: "any" }
  | { kind: "star" }
  | { kind: "class"; test: (c: string) => boolean }
  | { kind: "ext"; op: string; alts: Node[][] };

/** Whether `pattern` has an extglob `!(…)` (not escaped). */
export function hasExtNegation(pattern: string): boolean {
  for (let i = 0; i < pattern.length - 1; i++) {
    if (pattern[i] === "\\") i++;
    else if (pattern[i] === "!" && pattern[i + 1] === "(") return true;
  }
  return false;
}

/** just-bash's pathname-expansion form (quoted parts between NUL markers) as a pattern with backslash escapes. */
export function unquoteMarkers(pattern: string): string {
  return pattern.replace(/\0QUOTE_START\0([^]*?)\0QUOTE_END\0/g, (_all, quoted: string) => quoted.replace(/[^]/gu, (c) => `\\${c}`));
}

const CLASS_TESTS: Record<string, (c: string) => boolean> = {
  alnum: (c) => /^[\p{L}\p{Nd}]$/u.test(c),
  alpha: (c) => /^\p{L}$/u.test(c),
  ascii: (c) => c.codePointAt(0)! < 128,
  blank: (c) => c === " " || c === "\t",
  cntrl: (c) => /^\p{Cc}$/u.test(c),
  digit: (c) => c >= "0" && c <= "9",
  graph: (c) => /^[^\p{Cc}\p{Z}]$/u.test(c) && c !== " ",
  lower: (c) => /^\p{Ll}$/u.test(c),
  print: (c) => /^[^\p{Cc}]$/u.test(c),
  punct: (c) => /^[!-/:-@[-`{-~]$/.test(c),
  space: (c) => /^[ \t\n\v\f\r]$/.test(c),
  upper: (c) => /^\p{Lu}$/u.test(c),
  word: (c) => /^[\p{L}\p{Nd}_]$/u.test(c),
  xdigit: (c) => /^[0-9A-Fa-f]$/.test(c),
};

/**
 * The bracket expression of `chars` opening at `start` (a `[`), read as bash's matcher does (`!`/`^` negates, a
 * first `]` is a member, `\x` is x, ranges, `[:class:]`, `[=c=]`, `[.c.]`); null when it has no closing `]`.
 */
function bracket(chars: string[], start: number): { test: (c: string) => boolean; end: number } | null {
  let i = start + 1;
  let negated = false;
  if (chars[i] === "!" || chars[i] === "^") {
    negated = true;
    i++;
  }
  const tests: ((c: string) => boolean)[] = [];
  const readChar = (): string | null => {
    if (i >= chars.length) return null;
    if (chars[i] === "\\" && i + 1 < chars.length) i++;
    else if (chars[i] === "[" && (chars[i + 1] === "=" || chars[i + 1] === ".")) {
      const mark = chars[i + 1];
      for (let j = i + 2; j + 1 < chars.length; j++) {
        if (chars[j] === mark && chars[j + 1] === "]") {
          const name = chars.slice(i + 2, j);
          i = j + 2;
          return name.length === 1 ? name[0] : "";
        }
      }
    }
    return chars[i++];
  };
  for (let first = true; ; first = false) {
    if (i >= chars.length) return null;
    if (chars[i] === "]" && !first) break;
    if (chars[i] === "[" && chars[i + 1] === ":") {
      let close = -1;
      for (let j = i + 2; j + 1 < chars.length; j++) {
        if (chars[j] === ":" && chars[j + 1] === "]") {
          close = j;
          break;
        }
      }
      if (close !== -1) {
        const test = CLASS_TESTS[chars.slice(i + 2, close).join("")];
        if (test) tests.push(test);
        i = close + 2;
        continue;
      }
    }
    const lo = readChar();
    if (lo === null) return null;
    if (chars[i] === "-" && i + 1 < chars.length && chars[i + 1] !== "]") {
      i++;
      const hi = readChar();
      if (hi === null) return null;
      if (lo !== "" && hi !== "") {
        const a = lo.codePointAt(0)!;
        const b = hi.codePointAt(0)!;
        tests.push((c) => c.codePointAt(0)! >= a && c.codePointAt(0)! <= b);
      }
      continue;
    }
    if (lo !== "") tests.push((c) => c === lo);
  }
  return { test: (c) => tests.some((t) => t(c)) !== negated, end: i };
}

/** The index of the `)` closing the group whose `(` is at `open`, or -1. */
function groupEnd(chars: string[], open: number): number {
  let depth = 0;
  for (let i = open; i < chars.length; i++) {
    if (chars[i] === "\\") i++;
    else if (chars[i] === "[") {
      const b = bracket(chars, i);
      if (b) i = b.end;
    } else if (chars[i] === "(") depth++;
    else if (chars[i] === ")" && --depth === 0) return i;
  }
  return -1;
}

/** `chars[from, to)` as a sequence of pattern elements (extglob groups when `extglob`). */
function parse(chars: string[], from: number, to: number, extglob: boolean): Node[] {
  const out: Node[] = [];
  for (let i = from; i < to; i++) {
    const c = chars[i];
    if (extglob && "@*+?!".includes(c) && chars[i + 1] === "(") {
      const end = groupEnd(chars, i + 1);
      if (end !== -1 && end < to) {
        const alts: Node[][] = [];
        let start = i + 2;
        let depth = 0;
        for (let j = i + 2; j <= end; j++) {
          if (j === end || (chars[j] === "|" && depth === 0)) {
            alts.push(parse(chars, start, j, extglob));
            start = j + 1;
          } else if (chars[j] === "\\") j++;
          else if (chars[j] === "[") {
            const b = bracket(chars, j);
            if (b && b.end < end) j = b.end;
          } else if (chars[j] === "(") depth++;
          else if (chars[j] === ")") depth--;
        }
        out.push({ kind: "ext", op: c, alts });
        i = end;
        continue;
      }
    }
    if (c === "\\" && i + 1 < to) out.push({ kind: "char", c: chars[++i] });
    else if (c === "*") {
      if (out.at(-1)?.kind !== "star") out.push({ kind: "star" });
    } else if (c === "?") out.push({ kind: "any" });
    else if (c === "[") {
      const b = bracket(chars, i);
      if (b && b.end < to) {
        out.push({ kind: "class", test: b.test });
        i = b.end;
      } else out.push({ kind: "char", c });
    } else out.push({ kind: "char", c });
  }
  return out;
}

/**
 * Whether `text` matches the shell pattern `pattern` whole, as bash's `[[ == ]]`, `case` and pathname expansion
 * (one name) match, extglob groups included; `nocase` compares without case (nocasematch, nocaseglob).
 */
export function globMatch(text: string, pattern: string, nocase = false, extglob = true): boolean {
  const fold = (c: string) => (nocase ? c.toLowerCase() : c);
  const t = Array.from(text);
  const n = t.length;
  const top = parse(Array.from(pattern), 0, Array.from(pattern).length, extglob);
  const memo = new Map<Node[], (number[] | undefined)[]>();
  /** The positions `seq[i…]` starting at `pos` can end at, ascending and without repeats. */
  const seqEnds = (seq: Node[], i: number, pos: number): number[] => {
    if (i === seq.length) return [pos];
    let table = memo.get(seq);
    if (!table) memo.set(seq, (table = []));
    const key = i * (n + 1) + pos;
    const known = table[key];
    if (known) return known;
    const seen = new Uint8Array(n + 1);
    for (const mid of nodeEnds(seq[i], pos)) for (const end of seqEnds(seq, i + 1, mid)) seen[end] = 1;
    const out: number[] = [];
    for (let p = pos; p <= n; p++) if (seen[p]) out.push(p);
    table[key] = out;
    return out;
  };
  const altEnds = (alts: Node[][], pos: number): number[] => {
    const seen = new Uint8Array(n + 1);
    for (const alt of alts) for (const end of seqEnds(alt, 0, pos)) seen[end] = 1;
    const out: number[] = [];
    for (let p = pos; p <= n; p++) if (seen[p]) out.push(p);
    return out;
  };
  const nodeEnds = (node: Node, pos: number): number[] => {
    switch (node.kind) {
      case "char":
        return pos < n && fold(t[pos]) === fold(node.c) ? [pos + 1] : [];
      case "any":
        return pos < n ? [pos + 1] : [];
      case "star":
        return Array.from({ length: n - pos + 1 }, (_v, k) => pos + k);
      case "class": {
        if (pos >= n) return [];
        const c = t[pos];
        return node.test(c) || (nocase && (node.test(c.toLowerCase()) || node.test(c.toUpperCase()))) ? [pos + 1] : [];
      }
      case "ext": {
        if (node.op === "@") return altEnds(node.alts, pos);
        if (node.op === "!") {
          const once = new Set(altEnds(node.alts, pos));
          const out: number[] = [];
          for (let p = pos; p <= n; p++) if (!once.has(p)) out.push(p);
          return out;
        }
        if (node.op === "?") return [...new Set([pos, ...altEnds(node.alts, pos)])].sort((a, b) => a - b);
        // + and *: one or more (zero or more) repetitions.
        const reached = new Uint8Array(n + 1);
        const queue = altEnds(node.alts, pos);
        while (queue.length > 0) {
          const p = queue.pop()!;
          if (reached[p]) continue;
          reached[p] = 1;
          for (const q of altEnds(node.alts, p)) if (!reached[q]) queue.push(q);
        }
        if (node.op === "*") reached[pos] = 1;
        const out: number[] = [];
        for (let p = pos; p <= n; p++) if (reached[p]) out.push(p);
        return out;
      }
    }
  };
  return seqEnds(top, 0, 0).includes(n);
}

/**
 * Whether bash would parse `!(` at `pos` of `input` as an extglob pattern: extglob is on when the line is parsed,
 * that is, a `shopt -s … extglob` on an earlier line (not undone by a later `shopt -u … extglob`). bash parses a
 * line before it runs it, so `shopt -s extglob; echo !(x)` on one line is a syntax error there too. `previous` is
 * the token before it.
 */
export function extglobAtParse(input: string, pos: number, previous?: string): boolean {
  // The pattern operand of `[[ x == … ]]` / `!=` / `=` is always read with extglob.
  if (previous === "==" || previous === "!=" || previous === "=") return true;
  const lineStart = input.lastIndexOf("\n", pos - 1);
  if (lineStart < 0) return false;
  let on = false;
  for (const m of input.slice(0, lineStart).matchAll(/(?:^|[\s;&|(){}])shopt((?:[ \t]+[^\s;&|()<>#]+)+)/g)) {
    const words = m[1].trim().split(/[ \t]+/);
    if (!words.includes("extglob")) continue;
    const flags = words.filter((w) => w.startsWith("-")).join("");
    if (flags.includes("s")) on = true;
    else if (flags.includes("u")) on = false;
  }
  return on;
}

/** What `test`/`[` throws, from inside an expression of four or more arguments, for an operand that is not an integer. */
class TestIntegerError extends Error {
  constructor(readonly operand: string) {
    super(`${operand}: integer expression expected`);
  }
}

/**
 * `test`/`[` with `-a`, `-o`, `!` or `( )` and an integer comparison (`[ a -eq 1 -o b = b ]`): an operand that is
 * not an integer makes the whole test fail with status 2, as bash (just-bash took the comparison as false).
 */
export function testIntegerError(operand: string): never {
  throw new TestIntegerError(operand);
}

/** The message `test`/`[` named `name` prints for `error` thrown by {@link testIntegerError}, or null for another. */
export function testErrorText(error: unknown, name: string): string | null {
  return error instanceof TestIntegerError ? `bash: ${name}: ${error.operand}: integer expression expected\n` : null;
}

/** The `{ … }` groups the shell wraps each command's source in (src/backends/worker-shell/worker.ts). */
const topGroups = new WeakSet<object>();

interface StatementNode {
  pipelines?: { commands?: unknown[] }[];
  sourceText?: string;
}

/** Marks the group `script` is made of, when it is one `{ … }` group: its statements are the script's lines. */
export function markTop(script: { statements?: StatementNode[] }): void {
  const only = script.statements?.length === 1 ? script.statements[0] : undefined;
  const command = only?.pipelines?.length === 1 && only.pipelines[0].commands?.length === 1 ? only.pipelines[0].commands[0] : undefined;
  if (typeof command === "object" && command !== null && (command as { type?: string }).type === "Group") topGroups.add(command);
}

/** Whether `group` is the script's own group ({@link markTop}). */
export function isTop(group: object): boolean {
  return topGroups.has(group);
}

/** The line a statement starts on: the first `line` found in it, depth first (statements carry none). */
function startLine(node: unknown, depth = 0): number | undefined {
  if (typeof node !== "object" || node === null || depth > 12) return undefined;
  const line = (node as { line?: unknown }).line;
  if (typeof line === "number") return line;
  for (const value of Object.values(node)) {
    const found = startLine(value, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The line `statement` ends on (its start plus the newlines of its text), or null when unknown. */
export function endLine(statement: StatementNode): number | null {
  const start = startLine(statement);
  if (start === undefined) return null;
  return start + (statement.sourceText?.match(/\n/g)?.length ?? 0);
}

/**
 * Whether `statement` starts on `line` (or before it): after an arithmetic expansion error, bash discards the rest of
 * the line it read (`echo $((1/0)) more; echo next` runs neither; the next line runs, `$?` 1).
 */
export function startsOnLine(statement: StatementNode, line: number): boolean {
  const start = startLine(statement);
  return start !== undefined && start <= line;
}

/**
 * An ArithmeticError from `$(( text ))` with bash's text: `bash: line N: 5/0: division by 0 (error token is "0")`
 * (just-bash's said `division by 0`). Other errors, and one already given its text, are returned as they are.
 */
export function arithExpansionError(error: unknown, text: string | undefined, line: number | undefined): unknown {
  if (!(error instanceof Error) || error.name !== "ArithmeticError" || (error as { l2?: boolean }).l2 || text === undefined) return error;
  const expr = text.replace(/^\s+/, "");
  let message = error.message;
  if (!message.includes("(error token is")) {
    let at = -1;
    if (message === "division by 0") at = Math.max(expr.lastIndexOf("/"), expr.lastIndexOf("%")) + 1;
    else if (message === "exponent less than 0") at = expr.lastIndexOf("**") + 2;
    if (at > 0) message += ` (error token is "${expr.slice(at).replace(/^[\s+-]+/, "")}")`;
  }
  const e = error as Error & { stdout?: string; stderr?: string; fatal?: boolean };
  const Ctor = error.constructor as new (message: string, stdout: string, stderr: string, fatal?: boolean) => Error;
  // A base error names its number already (`08: value too great for base (error token is "08")`), as bash prints it.
  const where = /^\S+: value too great for base/.test(message) ? "" : `${expr}: `;
  const out = new Ctor(error.message, e.stdout ?? "", `bash: line ${line ?? 1}: ${where}${message}\n`, e.fatal);
  (out as { l2?: boolean }).l2 = true;
  return out;
}

/** The text an arithmetic error that ends a line prints: just-bash's `bash: MESSAGE` gets bash's `line N: `. */
export function lineErrorText(error: { message: string; stderr: string; l2?: boolean }, line: number | undefined): string {
  if (error.l2 || error.stderr !== `bash: ${error.message}\n`) return error.stderr;
  return `bash: line ${line ?? 1}: ${error.message}\n`;
}
