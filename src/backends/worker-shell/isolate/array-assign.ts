/**
 * Fixer SN (issue 20, run 27): compound array assignments as bash 5.2.
 *
 * 1. An element word of `NAME=(…)` that starts with an unquoted `[` runs to
 *    its matching `]`, blanks included, as bash's lexer reads it with
 *    `skipsubscript`: `declare -A m=([c d]=3)`, `m=([c d]=3)`, `m+=([e f]=4)`
 *    and `local -A m=([a b]=1)` have the key `c d`, and `a=([x y] z)` has
 *    the elements `[x y]` and `z`. just-bash's lexer splits the words at the
 *    blank first; {@link element} joins the tokens back from the source text.
 * 2. An array with the integer attribute (`declare -ai a=(1+1)`, `declare -i
 *    a; a=(2*3)`, `a+=(…)`, `a[3]=4+4`, `a[0]+=3`) stores each element's
 *    arithmetic value, as a scalar with `-i` does.
 */

/** A just-bash token: its type, text and where it is in the parser's input. */
interface Token {
  readonly type: string;
  readonly value: string;
  readonly start: number;
  readonly end: number;
}

/** What {@link element} uses of just-bash's parser. */
interface Parser {
  current(): Token;
  advance(): Token;
  getInput(): string;
  checkIterationLimit(): void;
  parseWordFromString(text: string, quoted?: boolean, singleQuoted?: boolean): unknown;
}

/** Tokens an element word can never run across (the source text would not be the word's). */
const STOPS = new Set(["EOF", "NEWLINE", "COMMENT", "HEREDOC_CONTENT", "RPAREN"]);

/** The index of the `]` that closes the `[` at `open` in `text`, skipping quotes, `\x`, `$(…)`, `${…}` and `` `…` ``; -1 if none. */
export function closingBracket(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") {
      i++;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) return -1;
      i = end;
    } else if (c === '"' || c === "`") {
      let j = i + 1;
      for (; j < text.length && text[j] !== c; j++) if (text[j] === "\\") j++;
      if (j >= text.length) return -1;
      i = j;
    } else if (c === "$" && (text[i + 1] === "(" || text[i + 1] === "{")) {
      const openChar = text[i + 1] as string;
      const closeChar = openChar === "(" ? ")" : "}";
      let nest = 0;
      let j = i + 1;
      for (; j < text.length; j++) {
        const d = text[j];
        if (d === "\\") j++;
        else if (d === openChar) nest++;
        else if (d === closeChar && --nest === 0) break;
      }
      if (j >= text.length) return -1;
      i = j;
    } else if (c === "[") {
      depth++;
    } else if (c === "]") {
      if (--depth === 0) return i;
    }
  }
  return -1;
}

/**
 * The element word at the parser's current token when it starts with an
 * unquoted `[` whose matching `]` lies in a later token (`[c d]=3`, split by
 * the lexer at the blank): the tokens up to the one holding the `]` are taken
 * and the word is parsed from the source text they cover. Otherwise null, and
 * just-bash parses the word itself.
 */
export function element(parser: Parser): unknown {
  const tokens = (parser as unknown as { tokens?: readonly Token[] }).tokens;
  const first = parser.current();
  const input = parser.getInput();
  if (tokens === undefined || first.type !== "WORD" || input.slice(first.start, first.end) !== first.value || !first.value.startsWith("[")) return null;
  const close = closingBracket(input, first.start);
  if (close < first.end) return null;
  let index = tokens.indexOf(first);
  if (index < 0) return null;
  let end = first.end;
  for (; end <= close; ) {
    // The next token, after blanks only, must not end the command's source text (a newline, a comment, the end).
    const next = tokens[++index];
    if (next === undefined || STOPS.has(next.type) || next.end > input.length || !/^[ \t]*$/.test(input.slice(end, next.start))) return null;
    end = next.end;
  }
  while (parser.current().start < end) {
    parser.checkIterationLimit();
    parser.advance();
  }
  return parser.parseWordFromString(input.slice(first.start, end), false, false);
}

/** The interpreter state {@link integerElements} reads. */
interface State {
  readonly state: {
    readonly integerVars?: Set<string>;
    readonly arrays?: Map<string, { readonly elements: Map<string, string> }>;
  };
}

type Arith = (ctx: never, text: string) => Promise<string>;
let arith: Arith | undefined;

/** Registers just-bash's `declare -i` evaluator (text → its arithmetic value as a string, "0" when it fails). */
export function useArith(fn: Arith): void {
  arith = fn;
}

/** `text`'s arithmetic value, as a variable with the integer attribute stores it. */
export async function integerValue(ctx: unknown, text: string): Promise<string> {
  return arith === undefined ? text : arith(ctx as never, text);
}

/**
 * After a compound assignment to array `name` (`a=(…)`, `a+=(…)`, `declare -ai a=(…)`): when it has the integer
 * attribute, each element that is new or changed against `before` (the elements before the assignment; none for a
 * new array) becomes its arithmetic value, as bash evaluates each element's value.
 */
export async function integerElements(ctx: State, name: string, before?: ReadonlyMap<string, string>): Promise<void> {
  if (!ctx.state.integerVars?.has(name)) return;
  const array = ctx.state.arrays?.get(name)?.elements;
  if (array === undefined) return;
  for (const [key, value] of [...array]) {
    if (before?.get(key) === value) continue;
    array.set(key, await integerValue(ctx, value));
  }
}

/**
 * The elements of array `name` now (a copy), for {@link integerElements}; undefined when `name` has no integer
 * attribute, which never reads it (a copy per `a+=(…)` made appending quadratic; issue 20, run 33, fixer AA).
 */
export function snapshot(ctx: State, name: string): Map<string, string> | undefined {
  if (!ctx.state.integerVars?.has(name)) return undefined; // run 33, fixer AA
  const array = ctx.state.arrays?.get(name)?.elements;
  return array === undefined ? undefined : new Map(array);
}

type Builtin<C, R> = (ctx: C, args: string[]) => Promise<R>;

/**
 * The `local` builtin: bash's `local` is `declare` for the function's scope, so a `local` with an attribute
 * just-bash's `local` does not know (`-A`, `-i`, `-r`, `-x`, `-l`, `-u`…) or with an array assignment `NAME=(…)`
 * (keyed elements, an associative array) runs `declare`, which makes function-local variables; anything else, and
 * `local` outside a function, is just-bash's `local`.
 */
export async function local<C extends { state: { localScopes: readonly unknown[] } }, R>(ctx: C, args: string[], localBuiltin: Builtin<C, R>, declareBuiltin: Builtin<C, R>): Promise<R> {
  if (ctx.state.localScopes.length === 0 || args.includes("-")) return localBuiltin(ctx, args);
  let options = true;
  for (const arg of args) {
    if (options && arg === "--") {
      options = false;
    } else if (options && /^[-+][A-Za-z]+$/.test(arg)) {
      if (/[^nap]/.test(arg.slice(1)) || arg.startsWith("+")) return declareBuiltin(ctx, args);
    } else {
      options = false;
      if (/^[A-Za-z_][A-Za-z0-9_]*\+?=\(/.test(arg)) return declareBuiltin(ctx, args);
    }
  }
  return localBuiltin(ctx, args);
}

/**
 * The words of the text `…` of a declaration builtin's `NAME=(…)` (just-bash's splitter: quotes removed, `\x` kept
 * as `x`, split at unquoted blanks), each given to `push`; a word's unquoted leading `[` runs to its matching `]`
 * with the blanks in it, as bash reads a subscript (`[c d]=3`, `[1 + 1]=x` are one word each).
 */
export function splitWords(text: string, push: (word: string) => void): void {
  let word = "";
  let single = false;
  let double = false;
  let has = false;
  let subscriptEnd = -1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === "\\" && i + 1 < text.length) {
      word += text[++i];
      has = true;
      continue;
    }
    if (ch === "\\") continue;
    if (ch === "'" && !double) {
      single = !single;
      has = true;
      continue;
    }
    if (ch === '"' && !single) {
      double = !double;
      has = true;
      continue;
    }
    if (!single && !double) {
      if (ch === "[" && !has) subscriptEnd = closingBracket(text, i);
      if ((ch === " " || ch === "\t" || ch === "\n") && i > subscriptEnd) {
        if (has) push(word);
        word = "";
        has = false;
        continue;
      }
    }
    word += ch;
    has = true;
  }
  if (has) push(word);
}
