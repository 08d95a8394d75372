/**
 * Parameter expansion as bash 5.2 does it, where just-bash 3.4.2 differed (issue 20, run 30, fixer PX).
 *
 * - A nameref (`local -n ref=$1`, `declare -n ref=arr`) stands for the variable it names in every expansion and
 *   compound assignment: `"${ref[@]}"`, `${#ref[@]}`, `${!ref[@]}`, `${ref[*]: -1}`, `for x in "${ref[@]}"`,
 *   `ref=(a b c)`, `ref+=(new)`. just-bash resolved it only for a scalar or one element, so `"${ref[@]}"` was the
 *   target's NAME and a compound assignment made an array named `ref` that vanished with the function.
 *   `${!ref}` (the name itself) is left alone.
 * - `${v: -N}` whose negative offset reaches before the start of the value is empty (bash's "substring expression
 *   < 0" case for an offset), not the whole value.
 * - A `$(( … ))` in an array subscript (`${arr[$((${#arr[@]}-1))]}`) is an arithmetic expansion; just-bash's
 *   subscript reader took it for a `$( … )` running the command `( … )`, and the empty result was `${arr[]}: bad
 *   substitution`.
 *
 * scripts/gen-shell.mjs patches just-bash to call these (namespace `__paramExpansion`, entries marked `// PX`).
 * Pure: bundled into the shell's Dynamic Worker.
 *
 * @module
 */

/** The part of just-bash's interpreter context these helpers read. */
interface Ctx {
  state: { namerefs?: Set<string> };
}

/** just-bash's nameref resolver (`resolveNameref`): the final name, or undefined for a cycle. */
type Resolve = (ctx: Ctx, name: string) => string | undefined;

interface ParamPart {
  type: "ParameterExpansion";
  parameter: string;
  operation?: { type: string; array?: string } | null;
}
interface QuotedPart {
  type: "DoubleQuoted";
  parts: unknown[];
}

const NAME_WITH_SUBSCRIPT = /^([a-zA-Z_][a-zA-Z0-9_]*)(\[.*\])?$/s;
const PLAIN_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** The variable nameref `name` leads to when that is a plain variable name (not `arr[i]`, not a cycle); else null. */
export function arrayTarget(ctx: Ctx, name: string, resolve: Resolve): string | null {
  if (!ctx.state.namerefs?.has(name)) return null;
  const target = resolve(ctx, name);
  return target !== undefined && target !== name && PLAIN_NAME.test(target) ? target : null;
}

/** Compound assignment `name=(…)`/`name+=(…)`: the array it assigns (a nameref's target), else `name`. */
export function assignTarget(ctx: Ctx, name: string, resolve: Resolve): string {
  return arrayTarget(ctx, name, resolve) ?? name;
}

/** `part` (a ParameterExpansion) with a nameref in its name (or `${!ref[@]}`'s) replaced by the variable it names. */
export function resolveParam<P>(ctx: Ctx, part: P, resolve: Resolve): P {
  if (!ctx.state.namerefs?.size) return part;
  const p = part as unknown as ParamPart;
  const op = p.operation;
  if (op && (op.type === "Indirection" || op.type === "VarNamePrefix")) return part;
  if (op && op.type === "ArrayKeys" && typeof op.array === "string") {
    const target = arrayTarget(ctx, op.array, resolve);
    return target === null ? part : ({ ...p, operation: { ...op, array: target } } as unknown as P);
  }
  const m = NAME_WITH_SUBSCRIPT.exec(p.parameter);
  if (!m) return part;
  const target = arrayTarget(ctx, m[1], resolve);
  if (target === null) return part;
  // A plain `${ref}` is left to just-bash, which resolves it already (and a nameref to `arr[i]`).
  if (m[2] === undefined) return part;
  return { ...p, parameter: `${target}${m[2]}` } as unknown as P;
}

/** A word's `parts` with {@link resolveParam} applied to each parameter expansion, in double quotes too. */
export function resolveParts<T>(ctx: Ctx, parts: T[], resolve: Resolve): T[] {
  if (!ctx.state.namerefs?.size) return parts;
  let out: T[] | null = null;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as unknown as ParamPart | QuotedPart;
    let next: unknown = part;
    if (part.type === "ParameterExpansion") next = resolveParam(ctx, part, resolve);
    else if (part.type === "DoubleQuoted") {
      const inner = resolveParts(ctx, part.parts, resolve);
      if (inner !== part.parts) next = { ...part, parts: inner };
    }
    if (next !== part) {
      out ??= parts.slice();
      out[i] = next as T;
    }
  }
  return out ?? parts;
}

/** The start index of a `$(( … ))` at `pos` of `text` whose `$(` the subscript reader took to end at `end`. */
export function isArithmeticAt(text: string, pos: number, end: number): boolean {
  return text[pos] === "$" && text[pos + 1] === "(" && text[pos + 2] === "(" && text[end - 1] === ")" && text[end - 2] === ")";
}

/** just-bash's word parser and word-part expander. */
interface WordParser {
  parseWordFromString(value: string, quoted?: boolean, singleQuoted?: boolean): { parts: unknown[] };
}
type ExpandPart<C> = (ctx: C, part: never, inDoubleQuotes?: boolean) => Promise<string>;

/** The value of the `$(( … ))` text `text` expanded by just-bash's word expander (as in double quotes). */
export async function arithmetic<C>(ctx: C, text: string, Parser: new () => WordParser, expand: ExpandPart<C>): Promise<string> {
  const word = new Parser().parseWordFromString(text, true, false);
  let out = "";
  for (const part of word.parts) out += await expand(ctx, part as never, true);
  return out;
}
