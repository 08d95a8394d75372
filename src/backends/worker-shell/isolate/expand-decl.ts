/**
 * Shell expansions and declarations as bash 5.2 (issue 20, twenty-seventh attack run, fixer SJ):
 *
 * - `${#@}` / `${#*}` are the number of positional parameters (the patch reads `$#`).
 * - `${a[@]^}`, `${a[@],}`, `${a[@]^^}`, `${@^}`, `${*,,}`, with or without a pattern, change every element, and
 *   `"${a[@]^}"` / `"${@^}"` keep the elements separate words ({@link caseModEach}, {@link caseModWords}).
 * - `${v@A}` is the assignment that recreates the variable with its attributes (`declare -i i='3'`), and
 *   `${a[@]@A}` the array's `declare -a a=([0]="1")` line ({@link transformA}, {@link arrayAssignment});
 *   `${v@Q}` quotes as bash (`'a'\''b'`, `$'…'` only for control characters; {@link quoteQ}).
 * - `declare -f [NAME…]` / `typeset -f` print the functions' definitions, and `type f` prints the body of a
 *   function with compound commands instead of `...` ({@link functionText}, {@link declareFunctions}).
 * - `local -` saves the `set` options and the function's return restores them ({@link saveOptions},
 *   {@link popScope}).
 *
 * scripts/gen-shell.mjs patches just-bash to call these (imported as the namespace `__expandDecl`, entries marked
 * `// SJ`). Bundled into the shell's Dynamic Worker.
 *
 * @module
 */

/** The parts of just-bash's interpreter context these helpers read. */
interface Ctx {
  state: {
    env: Map<string, string>;
    options: Record<string, unknown>;
    functions: Map<string, FunctionDef>;
    associativeArrays?: Set<string>;
  };
}

interface FunctionDef {
  name: string;
  body: { type: string; body?: unknown[] };
}

type ArrayReader = (ctx: Ctx, name: string) => [string | number, string][];
type Serializer = (node: unknown) => string;

let readArray: ArrayReader | undefined;
let statementText: Serializer | undefined;
let commandText: Serializer | undefined;

/** Called once at load with just-bash's array reader (index or key, value pairs in order). */
export function useArrays(reader: ArrayReader): void {
  readArray = reader;
}

/** Called once at load with just-bash's AST printer of a statement. */
export function useStatementText(statement: Serializer): void {
  statementText = statement;
}

/** Called once at load with just-bash's AST printer of a command. */
export function useCommandText(command: Serializer): void {
  commandText = command;
}

const NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const LIST = /^([a-zA-Z_][a-zA-Z0-9_]*)\[([@*])\]$/;

/** Whether `parameter` expands to a list: `@`, `*`, `NAME[@]`, `NAME[*]`. */
export function isListParameter(parameter: string): boolean {
  return parameter === "@" || parameter === "*" || LIST.test(parameter);
}

/** Whether list parameter `parameter` is joined into one word (`*`, `NAME[*]`). */
function isStar(parameter: string): boolean {
  return parameter === "*" || parameter.endsWith("[*]");
}

/** The first character of IFS, which joins `$*` and `${a[*]}` (a space when IFS is unset). */
function ifsJoiner(ctx: Ctx): string {
  const ifs = ctx.state.env.get("IFS");
  return ifs === undefined ? " " : ifs.slice(0, 1);
}

/** The elements `parameter` (a list parameter) expands to. */
function listElements(ctx: Ctx, parameter: string): string[] {
  if (parameter === "@" || parameter === "*") {
    const n = Number.parseInt(ctx.state.env.get("#") ?? "0", 10) || 0;
    const out: string[] = [];
    for (let i = 1; i <= n; i++) out.push(ctx.state.env.get(String(i)) ?? "");
    return out;
  }
  const name = LIST.exec(parameter)![1];
  const elements = readArray ? readArray(ctx, name).map(([, v]) => v) : [];
  if (elements.length === 0 && ctx.state.env.has(name)) return [ctx.state.env.get(name)!];
  return elements;
}

/** `${LIST^…}` / `${LIST,…}` as one string: `modify` applied to each element, joined as the list expands. */
export async function caseModEach(ctx: Ctx, parameter: string, modify: (value: string) => string | Promise<string>): Promise<string> {
  const out: string[] = [];
  for (const value of listElements(ctx, parameter)) out.push(await modify(value));
  return out.join(isStar(parameter) ? ifsJoiner(ctx) : " ");
}

interface Part {
  type: string;
  parameter?: string;
  operation?: { type: string } | null;
  parts?: Part[];
}

const ELEMENT = "__sj_case_elem";

/**
 * A word `"…${LIST^…}…"` (double-quoted, one case modification of a list parameter in it): one word per element
 * for `@` (the text before joined to the first, the text after to the last), one word for `*`; null for any other
 * word. `expandPart` is just-bash's expansion of one word part.
 */
export async function caseModWords(ctx: Ctx, parts: Part[], expandPart: (ctx: Ctx, part: Part) => Promise<string>): Promise<{ values: string[]; quoted: boolean } | null> {
  if (parts.length !== 1 || parts[0].type !== "DoubleQuoted") return null;
  const inner = parts[0].parts ?? [];
  const at = inner.findIndex((p) => p.type === "ParameterExpansion" && p.operation?.type === "CaseModification" && isListParameter(p.parameter ?? ""));
  if (at === -1) return null;
  const target = inner[at];
  let before = "";
  for (const p of inner.slice(0, at)) before += await expandPart(ctx, p);
  let after = "";
  for (const p of inner.slice(at + 1)) after += await expandPart(ctx, p);
  const saved = ctx.state.env.get(ELEMENT);
  const values: string[] = [];
  try {
    for (const value of listElements(ctx, target.parameter!)) {
      ctx.state.env.set(ELEMENT, value);
      values.push(await expandPart(ctx, { type: "ParameterExpansion", parameter: ELEMENT, operation: target.operation }));
    }
  } finally {
    if (saved === undefined) ctx.state.env.delete(ELEMENT);
    else ctx.state.env.set(ELEMENT, saved);
  }
  if (isStar(target.parameter!)) return { values: [before + values.join(ifsJoiner(ctx)) + after], quoted: true };
  if (values.length === 0) return { values: before + after === "" ? [] : [before + after], quoted: true };
  values[0] = before + values[0];
  values[values.length - 1] += after;
  return { values, quoted: true };
}

/** `${v@Q}` as bash: `'…'` with `'\''` for a quote, `$'…'` when the value has a control character. */
export function quoteQ(value: string): string {
  if (value === "") return "''";
  if (!/[\x00-\x1f\x7f]/.test(value)) return `'${value.replace(/'/g, "'\\''")}'`;
  return ansiQuote(value);
}

/** `$'…'` quoting, as bash's ansic_quote. */
function ansiQuote(value: string): string {
  let out = "$'";
  for (const c of value) {
    switch (c) {
      case "'": out += "\\'"; break;
      case "\\": out += "\\\\"; break;
      case "\x07": out += "\\a"; break;
      case "\b": out += "\\b"; break;
      case "\x1b": out += "\\E"; break;
      case "\f": out += "\\f"; break;
      case "\n": out += "\\n"; break;
      case "\r": out += "\\r"; break;
      case "\t": out += "\\t"; break;
      case "\v": out += "\\v"; break;
      default: {
        const code = c.charCodeAt(0);
        out += code < 32 || code === 127 ? `\\${code.toString(8).padStart(3, "0")}` : c;
      }
    }
  }
  return `${out}'`;
}

/** An array element's value as `declare -p` writes it: `"…"` (with `\"`, `\\`, `\$`, `` \` ``) or `$'…'`. */
function arrayValue(value: string): string {
  if (/[\x00-\x1f\x7f]/.test(value)) return ansiQuote(value);
  return `"${value.replace(/["\\$`]/g, "\\$&")}"`;
}

/** An associative array's key as `declare -p` writes it: bare when it has no shell metacharacter. */
function arrayKey(key: string): string {
  return key !== "" && /^[A-Za-z0-9_.,:@%+\/-]+$/.test(key) ? key : arrayValue(key);
}

/** The `declare -a NAME=(…)` / `declare -A NAME=(…)` line of array `name` (no newline), as `declare -p`. */
export function arrayAssignment(ctx: Ctx, name: string, attributes: string): string {
  const assoc = ctx.state.associativeArrays?.has(name) ?? false;
  const entries = readArray ? readArray(ctx, name) : [];
  const flags = `-${attributes || (assoc ? "A" : "a")}`;
  if (entries.length === 0) return `declare ${flags} ${name}=()`;
  const items = entries.map(([k, v]) => `[${assoc ? arrayKey(String(k)) : String(k)}]=${arrayValue(v)}`);
  return `declare ${flags} ${name}=(${items.join(" ")}${assoc ? " " : ""})`;
}

/**
 * `${PARAM@A}` as bash: `NAME='value'` for a plain variable, `declare -FLAGS NAME='value'` when it has attributes
 * (an array's element 0 for `${a@A}`, a subscript's element for `${a[1]@A}`), the array's `declare -p` line for
 * `${a[@]@A}`, `set -- 'a' 'b'` for `${@@A}`; empty when unset. `value` is the parameter's value, `attributes` its
 * `${NAME@a}` letters.
 */
export function transformA(ctx: Ctx, parameter: string, value: string, unset: boolean, attributes: (name: string) => string): string {
  if (parameter === "@" || parameter === "*") {
    const args = listElements(ctx, parameter);
    return args.length === 0 ? "" : `set -- ${args.map(quoteQ).join(" ")}`;
  }
  const list = LIST.exec(parameter);
  if (list !== null) {
    const name = list[1];
    const attrs = attributes(name);
    if (!/[aA]/.test(attrs)) return ctx.state.env.has(name) ? transformA(ctx, name, ctx.state.env.get(name)!, false, attributes) : "";
    return arrayAssignment(ctx, name, attrs);
  }
  if (unset) return "";
  const name = /^([a-zA-Z_][a-zA-Z0-9_]*)/.exec(parameter)?.[1] ?? parameter;
  if (!NAME.test(name)) return "";
  const attrs = attributes(name);
  return attrs === "" ? `${name}=${quoteQ(value)}` : `declare -${attrs} ${name}=${quoteQ(value)}`;
}

/**
 * The words of `"${LIST@A}"`: none when the variable is unset; one for `[*]`; for `[@]`, as bash 5.2, `declare`, the
 * flags and the assignment are separate words (`printf '<%s>' "${a[@]@A}"` prints `<declare><-a><a=(…)>`).
 */
export function transformAWords(ctx: Ctx, name: string, star: boolean, attributes: (name: string) => string): string[] {
  const text = transformA(ctx, `${name}[@]`, "", false, attributes);
  if (text === "") return [];
  if (star) return [text];
  const declared = /^declare (-\S+) ([^]*)$/.exec(text);
  return declared === null ? [text] : ["declare", declared[1], declared[2]];
}

/** A function's definition as bash prints it (`f () `, `{ `, each statement indented by four spaces, `}`). */
export function functionText(name: string, fn: FunctionDef): string {
  let lines: string[];
  if (fn.body.type === "Group" && statementText) lines = (fn.body.body ?? []).map((s) => statementText!(s));
  else if (commandText) lines = [commandText(fn.body)];
  else lines = [];
  return `${name} () \n{ \n${lines.map((l) => `    ${l}\n`).join("")}}\n`;
}

/** `declare -f [NAME…]`: the definitions (all, sorted by name, when none is named); status 1 when one is missing. */
export function declareFunctions<R>(ctx: Ctx, names: string[], result: (stdout: string, stderr: string, code: number) => R): R {
  const list = names.length === 0 ? [...ctx.state.functions.keys()].sort() : names;
  let out = "";
  let code = 0;
  for (const name of list) {
    const fn = ctx.state.functions.get(name);
    if (fn === undefined) code = 1;
    else out += functionText(name, fn);
  }
  return result(out, "", code);
}

/** Set options saved by `local -`, by the function's local scope. */
const savedOptions = new WeakMap<object, Record<string, unknown>>();

/** `local -`: remember the `set` options, to be restored when the function (whose local scope is `scope`) returns. */
export function saveOptions(ctx: Ctx, scope: object): void {
  if (!savedOptions.has(scope)) savedOptions.set(scope, { ...ctx.state.options });
}

/** A function's local `scope` as it is popped on return: the options saved by `local -` in it put back. */
export function popScope<T>(ctx: Ctx, scope: T): T {
  if (scope !== null && typeof scope === "object") {
    const saved = savedOptions.get(scope);
    if (saved !== undefined) {
      for (const key of Object.keys(ctx.state.options)) if (!(key in saved)) delete ctx.state.options[key];
      Object.assign(ctx.state.options, saved);
    }
  }
  return scope;
}
