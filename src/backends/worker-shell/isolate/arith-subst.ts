/**
 * Command substitutions inside shell arithmetic, as bash 5.2 runs them
 * (issue 20, run 29, fixer AX).
 *
 * just-bash parsed a `$( … )` inside `$(( … ))`, `(( … ))`, `$[ … ]`,
 * `for (( … ))`, `${s:…}` offsets and array subscripts by counting
 * parentheses, and ran its text through the Bash object's `exec` — a new
 * shell with none of the script's variables, functions or working directory,
 * so `$(( $(wc -l < "$f") + 1 ))` read the file `` and gave 1. Here the body
 * is parsed by just-bash's own command-substitution parser (quotes, `case`,
 * here-documents, nested `$( )`) and run by the same code as a `$( … )` in a
 * word: a subshell of the running shell, its stderr joined to the command's,
 * `$?` set. In `$(( … ))` (and `(( … ))`) the substitutions are expanded in the
 * text before it is evaluated, as bash does, so `$(( $(echo 1 + 2) * 3 ))` is
 * 7 and `$(( $(printf '%s+' 1 2) 0 ))` is 3.
 *
 * scripts/gen-shell.mjs patches just-bash's arithmetic parser and evaluator to
 * call these (imported as the namespace `__arithSubst`, entries marked
 * `// AX`). Pure: it is bundled into the shell's Dynamic Worker.
 *
 * @module
 */

/** A `$( … )` or backquoted command substitution as just-bash's word parser makes it. */
export interface SubstitutionPart {
  type: "CommandSubstitution";
  body: unknown;
  legacy?: boolean;
}

/** The parts of just-bash's Parser these helpers use. */
export interface SubstitutionParser {
  parseCommandSubstitution(value: string, start: number): { part: SubstitutionPart; endIndex: number };
  parseBacktickSubstitution(value: string, start: number, inDoubleQuotes?: boolean): { part: SubstitutionPart; endIndex: number };
}

/** just-bash's word-part expander (`$( … )` in a word): the output without trailing newlines. */
export type ExpandPart<C> = (ctx: C, part: SubstitutionPart) => Promise<string>;

/** An ArithCommandSubst node; `part` is set when the body was parsed by the full parser. */
export interface ArithCommandSubst {
  type: "ArithCommandSubst";
  command: string;
  part?: SubstitutionPart;
}

/** Whether `text[pos]` starts a command substitution: `$(` not followed by `(`, or a backquote. */
export function startsSubstitution(text: string, pos: number): boolean {
  return (text[pos] === "$" && text[pos + 1] === "(" && text[pos + 2] !== "(") || text[pos] === "`";
}

/**
 * Whether arithmetic text `text` holds a substitution to make before it is evaluated: a command substitution, or
 * (AE, run 30) a parameter expansion `${ … }`, which bash expands in the text as it does `$( … )`.
 */
export function hasSubstitution(text: string): boolean {
  return /\$\((?!\()|`|\$\{/.test(text);
}

/** just-bash's word parser, for a `${ … }` (AE). */
export interface WordParser {
  parseWordFromString(value: string, quoted?: boolean, singleQuoted?: boolean): { parts: unknown[] };
}

/** just-bash's word-part expander with its in-double-quotes flag (AE). */
export type ExpandQuotedPart<C> = (ctx: C, part: never, inDoubleQuotes?: boolean) => Promise<string>;

/** The index just after the `${ … }` that starts at `pos` of `text` (braces counted, as just-bash's reader). */
export function bracedEnd(text: string, pos: number): number {
  let depth = 1;
  let i = pos + 2;
  for (; i < text.length && depth > 0; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}") depth--;
  }
  return i;
}

/**
 * The value of the parameter expansion `${content}` in the running shell `ctx`, expanded by just-bash's own word
 * expander as inside double quotes (no splitting or globbing, as bash expands arithmetic text): every operator,
 * array element, `${#…}`, `${!…}`, nested `$( … )` / `$(( … ))`, `:=` assigning, `:?` and `set -u` ending the
 * shell (AE, run 30). just-bash read `${name[sub]op…}` in arithmetic by hand, looking the whole `name[sub]` up as a
 * plain variable, so `$(( ${count[$k]:-0} + 1 ))` was 1.
 */
export async function braced<C>(ctx: C, content: string, Parser: new () => WordParser, expand: ExpandQuotedPart<C>): Promise<string> {
  const word = new Parser().parseWordFromString(`\${${content}}`, true, false);
  let out = "";
  for (const part of word.parts) out += await expand(ctx, part as never, true);
  return out;
}

/**
 * The command substitution starting at `pos` of `text` (`$(` or a backquote), parsed by `parser` as in a word, and
 * the index just after it; null when it is not one or does not parse (the caller keeps its old reading).
 */
export function scan(parser: SubstitutionParser, text: string, pos: number): { expr: ArithCommandSubst; end: number } | null {
  if (!startsSubstitution(text, pos)) return null;
  try {
    const legacy = text[pos] === "`";
    const { part, endIndex } = legacy ? parser.parseBacktickSubstitution(text, pos, false) : parser.parseCommandSubstitution(text, pos);
    if (endIndex <= pos || endIndex > text.length) return null;
    return { expr: { type: "ArithCommandSubst", command: text.slice(pos + (legacy ? 1 : 2), endIndex - 1), part }, end: endIndex };
  } catch {
    return null;
  }
}

/**
 * Runs the substitution `node` (its parsed part, else its text parsed now, as `$( … )` or, if `legacy`, backquotes)
 * in the running shell `ctx`, as `$( … )` in a word: `{ stdout, stderr }` with stderr already joined to the
 * command's (just-bash's expansionStderr), so the caller's own joining adds nothing.
 */
export async function run<C>(
  ctx: C,
  node: ArithCommandSubst | string,
  Parser: new () => SubstitutionParser,
  expand: ExpandPart<C>,
  legacy = false,
): Promise<{ stdout: string; stderr: string }> {
  let part = typeof node === "string" ? undefined : node.part;
  if (part === undefined) {
    const command = typeof node === "string" ? node : node.command;
    const text = legacy ? `\`${command}\`` : `$(${command})`;
    // A body that does not parse raises the parser's syntax error, as the same text in a word would.
    const parser = new Parser();
    part = (legacy ? parser.parseBacktickSubstitution(text, 0, false) : parser.parseCommandSubstitution(text, 0)).part;
  }
  return { stdout: await expand(ctx, part), stderr: "" };
}

/**
 * For just-bash's textual expansion of `$(( … ))` text: when `text[pos]` starts a command substitution that parses,
 * its output (run as in a word) and the index after it; a `${ … }` there, its value ({@link braced}); otherwise null.
 */
export async function expandAt<C>(
  ctx: C,
  text: string,
  pos: number,
  Parser: new () => SubstitutionParser,
  expand: ExpandPart<C>,
): Promise<{ text: string; end: number } | null> {
  if (text[pos] === "$" && text[pos + 1] === "{") {
    // AE: a `${ … }` is expanded in the text too, as bash does, before the text is evaluated.
    const end = bracedEnd(text, pos);
    return { text: await braced(ctx, text.slice(pos + 2, end - 1), Parser as unknown as new () => WordParser, expand as ExpandQuotedPart<C>), end };
  }
  const found = scan(new Parser(), text, pos);
  if (found === null || found.expr.part === undefined) return null;
  return { text: await expand(ctx, found.expr.part), end: found.end };
}

/**
 * The value of arithmetic expression `arith` (a `(( … ))` command's or a `for (( … ))` clause's): when its text
 * holds a command substitution or a `${ … }` ({@link hasSubstitution}), the text expanded first (`expandText`,
 * just-bash's textual expansion of `$(( … ))`) and parsed again (`parseArith`), as bash substitutes before it
 * evaluates; otherwise its parsed expression.
 */
export async function evaluate<C, E, R>(
  ctx: C,
  arith: { originalText?: string; expression: E },
  evaluateExpression: (expression: E) => Promise<R>,
  expandText: (ctx: C, text: string) => Promise<string>,
  Parser: new () => unknown,
  parseArith: (parser: unknown, text: string) => { expression: E },
): Promise<R> {
  const text = arith.originalText;
  if (text === undefined || !hasSubstitution(text)) return evaluateExpression(arith.expression);
  return evaluateExpression(parseArith(new Parser(), await expandText(ctx, text)).expression);
}
