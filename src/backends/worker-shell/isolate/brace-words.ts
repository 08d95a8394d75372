/**
 * Brace expansion with quoted and escaped text inside, as bash 5.2 does it (issue 20, run 39, fixer SA).
 *
 * bash's brace_gobbler finds a brace expression's closing `}` and its alternatives' commas only outside quotes and
 * backslash escapes: `{"1,2",3}` is `1,2` and `3`, `{a,b\,c}` is `a` and `b,c`, `{x,\{,\}}` is `x`, `{`, `}`, and
 * `a{b\,c}d` (no unquoted comma) is not a brace expression at all. Each alternative keeps its quoting, so a quoted
 * `*` (`{'*',b}`) is not globbed and a quoted blank does not split. just-bash 3.4.2's parser split at every comma and
 * brace (quotes kept as text) and its expander globbed every alternative of an unquoted word.
 *
 * - {@link close}, {@link split}, {@link hasComma}: the parser's brace reader (`parseBraceExpansion`), quote-aware.
 * - {@link expandWords}: a brace word holding quoted or escaped text or an expansion (`{'*',b}`, `{$v,x}`,
 *   `{a,b}$v`) expands as one word per combination of alternatives, each expanded (parameters, splitting, globbing)
 *   on its own as bash does after brace expansion; just-bash made the words' text first and never split it.
 *
 * scripts/gen-shell.mjs patches just-bash to call these (namespace `__braceWords`, entries marked `// SA39`). Pure:
 * bundled into the shell's Dynamic Worker.
 *
 * @module
 */

/** The index just past the quoted string, `${…}`, `$(…)` or backquoted text starting at `i` of `text`, or -1 when none starts there. */
function skipQuoted(text: string, i: number): number {
  const c = text[i];
  if (c === "\\") return Math.min(i + 2, text.length);
  if (c === "'") {
    const end = text.indexOf("'", i + 1);
    return end === -1 ? text.length : end + 1;
  }
  if (c === '"' || c === "`") {
    let j = i + 1;
    while (j < text.length && text[j] !== c) j += text[j] === "\\" ? 2 : 1;
    return Math.min(j + 1, text.length);
  }
  if (c === "$" && text[i + 1] === "(") {
    let depth = 0;
    let j = i + 1;
    while (j < text.length) {
      const d = text[j];
      if (d === "\\" || d === "'" || d === '"' || d === "`") {
        j = skipQuoted(text, j);
        continue;
      }
      if (d === "(") depth++;
      else if (d === ")" && --depth === 0) return j + 1;
      j++;
    }
    return text.length;
  }
  return -1;
}

/**
 * The index of the `}` closing the brace expression whose `{` is at `open` in `text`, skipping quoted strings,
 * backslash escapes, `$(…)` and backquotes (nested `{…}` and `${…}` counted); -1 when it is not closed.
 */
export function close(text: string, open: number): number {
  let depth = 1;
  let i = open + 1;
  while (i < text.length) {
    const skip = skipQuoted(text, i);
    if (skip !== -1) {
      i = skip;
      continue;
    }
    const c = text[i];
    if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i;
    i++;
  }
  return -1;
}

/** The alternatives of brace text `inner` (between the braces): split at the commas outside quotes, escapes and nested braces. */
export function split(inner: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  let i = 0;
  while (i < inner.length) {
    const skip = skipQuoted(inner, i);
    if (skip !== -1) {
      i = skip;
      continue;
    }
    const c = inner[i];
    if (c === "{") depth++;
    else if (c === "}") depth--;
    else if (c === "," && depth === 0) {
      out.push(inner.slice(start, i));
      start = i + 1;
    }
    i++;
  }
  out.push(inner.slice(start));
  return out;
}

/** Whether brace text `inner` has a comma outside quotes, escapes and nested braces (so the braces expand). */
export function hasComma(inner: string): boolean {
  return split(inner).length > 1;
}

/** A just-bash word part, as far as these helpers look into it. */
export interface Part {
  type: string;
  items?: ({ type: "Word"; word: { parts: Part[] } } | { type: "Range" })[];
  parts?: Part[];
}

/** Parts just-bash's brace expander turns into text as bash would: plain text, globs, tildes, braces. */
const PLAIN = new Set(["Literal", "Glob", "TildeExpansion", "BraceExpansion"]);

/** Whether the word made of `parts` (brace alternatives too) holds quoted or escaped text or an expansion. */
function quotedOrExpanded(parts: Part[]): boolean {
  for (const part of parts) {
    if (!PLAIN.has(part.type)) return true;
    if (part.type !== "BraceExpansion") continue;
    for (const item of part.items ?? []) if (item.type === "Word" && quotedOrExpanded(item.word.parts)) return true;
  }
  return false;
}

/** What {@link expandWords} uses of just-bash. */
export interface Deps {
  /** Brace expansion of a word (just-bash's `expandWordWithBracesAsync`), used for a `{1..3}` range alone. */
  braces(word: { type: "Word"; parts: Part[] }): Promise<string[] | null>;
  /** The rest of word expansion (just-bash's `expandWordWithGlob`) of a word without braces. */
  expand(word: { type: "Word"; parts: Part[] }): Promise<{ values: string[] }>;
  /** Throws just-bash's limit error when `count` words exceed the limit. */
  tooMany(count: number): void;
  /** just-bash's limit error (status 126) with `message`. */
  limitError(message: string): Error;
}

/**
 * The fields of the word made of `parts` when it holds quoted or escaped text or an expansion: each
 * combination of alternatives is a word of its own, expanded (parameters, splitting, globbing) as bash does after
 * brace expansion. null for other words (just-bash's brace expander gets those right). `limit` bounds the words
 * made (the caller's brace expansion of the same word has already checked that count).
 */
export async function expandWords(parts: Part[], limit: number, deps: Deps): Promise<{ values: string[]; quoted: boolean } | null> {
  if (!quotedOrExpanded(parts)) return null;
  const words = await combinations(parts, limit, deps);
  const values: string[] = [];
  for (const word of words) {
    const got = (await deps.expand({ type: "Word", parts: word })).values;
    deps.tooMany(values.length + got.length);
    values.push(...got);
  }
  return { values, quoted: false };
}

/** Every combination of the alternatives of the brace expressions in `parts`, as part lists; at most `limit`. */
async function combinations(parts: Part[], limit: number, deps: Deps): Promise<Part[][]> {
  let words: Part[][] = [[]];
  for (const part of parts) {
    let alternatives: Part[][];
    if (part.type !== "BraceExpansion") alternatives = [[part]];
    else {
      alternatives = [];
      for (const item of part.items ?? []) {
        if (item.type === "Word") alternatives.push(...(await combinations(item.word.parts, limit, deps)));
        else {
          const range = (await deps.braces({ type: "Word", parts: [{ type: "BraceExpansion", items: [item] }] })) ?? [];
          for (const value of range) alternatives.push([{ type: "Literal", value } as Part]);
        }
        if (alternatives.length > limit) throw deps.limitError(`brace expansion result limit exceeded (${limit})`);
      }
    }
    if (words.length * alternatives.length > limit) throw deps.limitError(`brace expansion result limit exceeded (${limit})`);
    const next: Part[][] = [];
    for (const word of words) for (const alt of alternatives) next.push([...word, ...alt]);
    words = next;
  }
  return words;
}
