/**
 * The shell's `jq` as jq 1.6 computes (issue 20, thirty-ninth attack run): scripts/gen-shell.mjs patches just-bash's
 * query engine and its `jq` command (JQ_PATCHES there) to call these helpers, imported as the namespace `__jq`.
 *
 * - {@link compare}: jq's order of values (null < false < true < numbers < strings < arrays < objects; strings by
 *   code point, objects by their sorted key sets, then by their values key by key), used by sort, sort_by, min, max,
 *   unique, unique_by, group_by, `<`, `==` (just-bash ordered strings with `localeCompare` and compared values by
 *   their JSON text, so `{"a":1,"b":2} == {"b":2,"a":1}` was false).
 * - {@link sliceUpdate} / {@link sliceDelete}: `.[a:b] = v`, `|=`, `+=`… and `del(.[a:b])` splice the array in place
 *   (just-bash returned the assigned value as the whole document).
 * - {@link walk}: applies f bottom-up to every value, scalars too.
 * - {@link sh} / {@link tsv} / {@link csv}: `@sh` of arrays and non-strings, `@tsv` escaping `\`, tab, newline and CR,
 *   `@csv` quoting every string.
 * - {@link arithmeticError} / {@link indexError} / {@link iterateError}: jq's type errors, where just-bash gave null.
 * - {@link run} / {@link exitStatus}: the command prints the outputs of the inputs before a failing one, writes
 *   `jq: error (at <unknown>): MESSAGE` for each failing input and exits 5; `-e` exits 4 when there is no output.
 *
 * @module
 */

/** A JSON value as just-bash's query engine holds it (objects may have a null prototype). */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function rank(v: unknown): number {
  if (v === null || v === undefined) return 0;
  if (v === false) return 1;
  if (v === true) return 2;
  if (typeof v === "number") return 3;
  if (typeof v === "string") return 4;
  if (Array.isArray(v)) return 5;
  return 6;
}

/** Compares two strings by Unicode code point (jq compares UTF-8 bytes, which orders the same). */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate (an astral code point) sorts above every other UTF-16 unit, as its code point does.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/** Sorted own keys of an object, by code point (jq's `keys`). */
function sortedKeys(o: object): string[] {
  return Object.keys(o).sort(compareStrings);
}

/** jq's total order of JSON values: negative, 0 or positive. */
export function compare(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if (typeof a === "number" && typeof b === "number") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "string" && typeof b === "string") return compareStrings(a, b);
  if (Array.isArray(a) && Array.isArray(b)) {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
      const c = compare(a[i], b[i]);
      if (c !== 0) return c;
    }
    return a.length - b.length;
  }
  if (ra === 6) {
    const oa = a as Record<string, unknown>;
    const ob = b as Record<string, unknown>;
    const ka = sortedKeys(oa);
    const kb = sortedKeys(ob);
    const c = compare(ka, kb);
    if (c !== 0) return c;
    for (const k of ka) {
      const d = compare(oa[k], ob[k]);
      if (d !== 0) return d;
    }
  }
  return 0;
}

/** A short type name as jq's messages use it. */
export function typeName(v: unknown): string {
  if (v === null || v === undefined) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

/** `v` as jq's messages quote it: its JSON text, cut to 11 bytes with `...`. */
export function dump(v: unknown): string {
  const text = v === undefined ? "null" : JSON.stringify(v) ?? "null";
  return text.length > 11 ? `${text.slice(0, 10)}...` : text;
}

function notArray(v: unknown, what: string): Error {
  return new Error(`${typeName(v)} (${dump(v)}) cannot be ${what}, as it is not an array`);
}

/** `sort`: a sorted copy (stable), or jq's error for a non-array. */
export function sort(v: unknown): Json[] {
  if (!Array.isArray(v)) throw notArray(v, "sorted");
  return [...v].sort(compare);
}

/** `unique`: sorted, each value once. */
export function unique(v: unknown): Json[] {
  const sorted = sort(v);
  const out: Json[] = [];
  for (const x of sorted) if (out.length === 0 || compare(out[out.length - 1], x) !== 0) out.push(x);
  return out;
}

/** `group_by(f)`: the groups of equal keys, in key order, each in input order. */
export function groupBy(v: unknown, key: (x: Json) => unknown): Json[][] {
  if (!Array.isArray(v)) throw notArray(v, "grouped");
  const keyed = v.map((x, i) => ({ x, k: key(x), i }));
  keyed.sort((p, q) => compare(p.k, q.k) || p.i - q.i);
  const out: Json[][] = [];
  let last: unknown;
  for (const { x, k } of keyed) {
    if (out.length > 0 && compare(last, k) === 0) out[out.length - 1]!.push(x);
    else out.push([x]);
    last = k;
  }
  return out;
}

function sliceBounds(length: number, start: unknown, end: unknown): [number, number] {
  const num = (v: unknown, dflt: number, round: (n: number) => number): number => {
    if (v === null || v === undefined) return dflt;
    if (typeof v !== "number") throw new Error(`Start and end indices of an array slice must be numbers`);
    return Number.isNaN(v) ? dflt : round(v);
  };
  let s = num(start, 0, Math.floor);
  let e = num(end, length, Math.ceil);
  if (s < 0) s = Math.max(0, length + s);
  if (e < 0) e = Math.max(0, length + e);
  s = Math.min(s, length);
  e = Math.min(Math.max(e, s), length);
  return [s, e];
}

/**
 * `.[start:end] op v` on `value`: the array with `[start, end)` replaced by `update(the slice)`, as jq's setpath
 * with a slice key. null counts as `[]`; a string or another scalar, or an update that is not an array, is jq's error.
 */
export function sliceUpdate(value: unknown, start: unknown, end: unknown, update: (slice: Json[]) => unknown): Json[] {
  if (value !== null && value !== undefined && !Array.isArray(value)) {
    throw new Error(`Cannot update field at object index of ${typeName(value)}`);
  }
  const arr = (value ?? []) as Json[];
  const [s, e] = sliceBounds(arr.length, start, end);
  const replaced = update(arr.slice(s, e));
  if (!Array.isArray(replaced)) throw new Error("A slice of an array can only be assigned another array");
  return [...arr.slice(0, s), ...(replaced as Json[]), ...arr.slice(e)];
}

/** `del(.[start:end])` on `value`: the array without `[start, end)`; null stays null. */
export function sliceDelete(value: unknown, start: unknown, end: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (!Array.isArray(value)) throw new Error(`Cannot delete field at object index of ${typeName(value)}`);
  const [s, e] = sliceBounds(value.length, start, end);
  return [...value.slice(0, s), ...value.slice(e)];
}

/** The engine's limits `walk` keeps to. */
export interface WalkLimits {
  maxIterations: number;
  maxDepth: number;
}

/**
 * `walk(f)` as jq 1.6 defines it: arrays `map(walk(f)) | f`, objects each value walked (the last output of a
 * value's walk kept, a key whose walk has no output dropped) then `f`, every other value `f`. Returns f's outputs.
 * Throws past `limits` (nodes visited, depth).
 */
export function walk(value: unknown, f: (v: unknown) => unknown[], limits: WalkLimits): unknown[] {
  let visited = 0;
  const go = (v: unknown, depth: number): unknown[] => {
    if (++visited > limits.maxIterations) throw new Error(`query iteration limit exceeded (${limits.maxIterations})`);
    if (depth > limits.maxDepth) throw new Error(`query depth limit exceeded (${limits.maxDepth})`);
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      for (const x of v) for (const y of go(x, depth + 1)) out.push(y);
      return f(out);
    }
    if (v !== null && typeof v === "object") {
      const out: Record<string, unknown> = Object.create(null);
      for (const k of Object.keys(v)) {
        const r = go((v as Record<string, unknown>)[k], depth + 1);
        if (r.length > 0) out[k] = r[r.length - 1];
      }
      return f(out);
    }
    return f(v);
  };
  return go(value, 0);
}

/** Code points in `s`. */
export function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** What `match` needs of just-bash's RE2 wrapper. */
interface MatchRegex {
  exec(s: string): (RegExpExecArray & { index: number }) | null;
  matchAll(s: string): Iterable<RegExpExecArray & { index: number }>;
}

/**
 * `match(re; flags)`: one object per match (every match with `g`), offsets and lengths in code points. `make`
 * builds the engine's regex for a flag string. Capture offsets are not known to the engine's matcher: a capture that
 * took part has offset null (as before), one that did not `{"offset":-1,"length":0,"string":null}` as jq.
 */
export function matches(input: string, flags: string, make: (flags: string) => MatchRegex): unknown[] {
  const global = flags.includes("g");
  const re = make(`${flags.replace(/g/g, "")}${global ? "g" : ""}`);
  const toObject = (m: RegExpExecArray & { index: number }) => ({
    offset: codePoints(input.slice(0, m.index)),
    length: codePoints(m[0] ?? ""),
    string: m[0] ?? "",
    captures: m.slice(1).map((c) =>
      c === null || c === undefined
        ? { offset: -1, length: 0, string: null, name: null }
        : { offset: null, length: codePoints(c), string: c, name: null }),
  });
  if (!global) {
    const m = re.exec(input);
    return m ? [toObject(m)] : [];
  }
  const out: unknown[] = [];
  for (const m of re.matchAll(input)) {
    if (m.index >= input.length && m[0] === "" && input.length > 0) break; // jq: no empty match at the end
    out.push(toObject(m));
  }
  return out;
}

function scalarText(v: unknown): string {
  return typeof v === "string" ? v : JSON.stringify(v);
}

/** `@sh`: a string quoted for a POSIX shell, numbers/booleans/null as their JSON text, arrays element by element. */
export function sh(v: unknown): string {
  const one = (x: unknown): string => {
    if (typeof x === "string") return `'${x.replace(/'/g, "'\\''")}'`;
    if (x !== null && typeof x === "object") throw new Error(`${typeName(x)} (${dump(x)}) can not be escaped for shell`);
    return JSON.stringify(x);
  };
  return Array.isArray(v) ? v.map(one).join(" ") : one(v);
}

/** `@tsv`: an array's values joined with tabs, `\` tab newline CR escaped as jq 1.6 does, null empty. */
export function tsv(v: unknown): string {
  if (!Array.isArray(v)) throw new Error(`${typeName(v)} (${dump(v)}) cannot be tsv-formatted, only an array can be`);
  return v.map((x) => {
    if (x === null) return "";
    if (typeof x === "object") throw new Error(`${typeName(x)} (${dump(x)}) is not valid in a csv row`);
    return scalarText(x).replace(/[\\\t\n\r]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r"));
  }).join("\t");
}

/** `@csv`: an array's values joined with commas, strings always quoted (`"` doubled), null empty. */
export function csv(v: unknown): string {
  if (!Array.isArray(v)) throw new Error(`${typeName(v)} (${dump(v)}) cannot be csv-formatted, only an array can be`);
  return v.map((x) => {
    if (x === null) return "";
    if (typeof x === "string") return `"${x.replace(/"/g, '""')}"`;
    if (typeof x === "object") throw new Error(`${typeName(x)} (${dump(x)}) is not valid in a csv row`);
    return JSON.stringify(x);
  }).join(",");
}

const VERBS: Record<string, string> = { "+": "added", "-": "subtracted", "*": "multiplied", "/": "divided", "%": "divided (remainder)" };

/** jq's error for `a OP b` on values it cannot combine; `3 * "x"` (a number times a string) repeats the string. */
export function arithmeticError(op: string, a: unknown, b: unknown): unknown {
  if (op === "*" && typeof a === "number" && typeof b === "string") return a <= 0 ? null : b.repeat(Math.trunc(a) || 1);
  throw new Error(`${typeName(a)} (${dump(a)}) and ${typeName(b)} (${dump(b)}) cannot be ${VERBS[op] ?? op}`);
}

/** `.[key]` on a value the engine does not index: null gives null, an array by an array its indices, else jq's error. */
export function indexError(value: unknown, key: unknown): unknown[] {
  if (value === null || value === undefined) return [null];
  if (Array.isArray(value) && Array.isArray(key)) {
    const out: number[] = [];
    if (key.length === 0) return [null];
    for (let i = 0; i + key.length <= value.length; i++) {
      if (key.every((k, j) => compare(value[i + j], k) === 0)) out.push(i);
    }
    return [out];
  }
  const what = typeof key === "string" ? `string "${key}"` : typeName(key);
  throw new Error(`Cannot index ${typeName(value)} with ${what}`);
}

/** `.[]` on a scalar: jq's error. */
export function iterateError(value: unknown): never {
  throw new Error(`Cannot iterate over ${typeName(value)}${value === null || value === undefined ? "" : ` (${dump(value)})`}`);
}

/**
 * Runs one input through the program: its outputs, or none and a line `jq: error (at <unknown>): MESSAGE` in
 * `errors` when the program fails on it. `fatal` tells the engine's limit errors, which end the command as before, as
 * does an unknown function.
 */
export function run<A extends unknown[]>(errors: string[], fatal: (e: unknown) => boolean, evaluate: (...args: A) => unknown[], ...args: A): unknown[] {
  try {
    return evaluate(...args);
  } catch (e) {
    // The engine finds an unknown function only when it runs it: that is a compile error (status 3), left to the command.
    if (fatal(e) || (e instanceof Error && e.message.startsWith("Unknown function"))) throw e;
    const value = (e as { value?: unknown }).value;
    const message = e instanceof Error && e.name === "JqError" && value !== undefined && typeof value !== "string"
      ? `${JSON.stringify(value)} (not a string)`
      : e instanceof Error ? e.message : String(e);
    errors.push(`jq: error (at <unknown>): ${message}\n`);
    return [];
  }
}

/** `-e`'s status: 4 with no output, 1 when the last output is null or false, else 0. */
export function exitStatus(outputs: readonly unknown[]): number {
  if (outputs.length === 0) return 4;
  const last = outputs[outputs.length - 1];
  return last === null || last === undefined || last === false ? 1 : 0;
}

/** `v` if it is a string, else jq's error for a regex function's input or pattern. */
export function matchable(v: unknown): string {
  if (typeof v !== "string") throw new Error(`${typeName(v)} (${dump(v)}) cannot be matched, as it is not a string`);
  return v;
}

/** A query AST node, as much of it as {@link commaPaths} reads. */
interface QueryNode {
  type: string;
  left?: QueryNode;
  right?: QueryNode;
}

/**
 * The paths of `del(a, b, …)` when every branch of the comma is a plain path (`.a`, `.b[0]`, `.c.d`), read by the
 * engine's `staticPath`; null for any other form, which the engine's own `del` handles as before.
 */
export function commaPaths(node: QueryNode, staticPath: (node: QueryNode) => unknown[] | null): unknown[][] | null {
  if (node.type !== "Comma") return null;
  const out: unknown[][] = [];
  const stack: QueryNode[] = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.type === "Comma" && n.left && n.right) {
      stack.push(n.right, n.left);
      continue;
    }
    const p = staticPath(n);
    if (p === null || p.length === 0) return null;
    out.push(p);
  }
  return out;
}

/**
 * What the path evaluator needs of just-bash's query engine (issue 20, run 39, fixer JQ2), built inside the engine's
 * chunk by scripts/gen-shell.mjs: its evaluator, its pattern binder, and its limit and break error classes.
 */
export interface PathEngine {
  /** Evaluates `node` on `input` in context `ctx`; every output. */
  evaluate(input: unknown, node: AnyNode, ctx: EngineCtx): unknown[];
  /** Binds a destructuring pattern (`{type:"var"|"array"|"object"}`) to `value`; null when it does not match. */
  bind(ctx: EngineCtx, pattern: unknown, value: unknown): EngineCtx | null;
  /** The engine's limit error class (limits are never caught). */
  limitError: new (...args: never[]) => Error;
  /** The engine's `break $label` error class. */
  breakError: new (label: string) => Error & { label: string };
  /** Counts one step against the engine's iteration limit. */
  step(ctx: EngineCtx): void;
}

/** A node of just-bash's query AST, as the path evaluator reads it. */
export type AnyNode = { type: string } & Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
/** just-bash's evaluation context (vars, funcs, labels, limits…), passed through. */
export type EngineCtx = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A path key: an array index, an object key or a slice `{start, end}`. */
type PathKey = unknown;

class InvalidPath extends Error {}

function invalidPath(value: unknown): InvalidPath {
  return new InvalidPath(`Invalid path expression with result ${value === undefined ? "null" : JSON.stringify(value)}`);
}

const lit = (value: unknown): AnyNode => ({ type: "Literal", value });
const ID: AnyNode = { type: "Identity" };

/** `value[key]` as the engine's `.[key]` gives it (with its errors); slice keys as `.[start:end]`. */
function stepValue(eng: PathEngine, ctx: EngineCtx, value: unknown, key: PathKey): unknown {
  if (key !== null && typeof key === "object" && !Array.isArray(key)) {
    const k = key as { start?: unknown; end?: unknown };
    return eng.evaluate(value, { type: "Slice", start: k.start == null ? undefined : lit(k.start), end: k.end == null ? undefined : lit(k.end) }, ctx)[0] ?? null;
  }
  return eng.evaluate(value, { type: "Index", index: lit(key) }, ctx)[0] ?? null;
}

type Emit = (path: PathKey[] | null, value: unknown) => void;

const PATH_SELECTS: Record<string, (v: unknown) => boolean> = {
  values: (v) => v !== null && v !== undefined,
  nulls: (v) => v === null || v === undefined,
  booleans: (v) => typeof v === "boolean",
  numbers: (v) => typeof v === "number",
  strings: (v) => typeof v === "string",
  arrays: (v) => Array.isArray(v),
  objects: (v) => v !== null && typeof v === "object" && !Array.isArray(v),
  iterables: (v) => v !== null && typeof v === "object",
  scalars: (v) => v === null || v === undefined || typeof v !== "object",
};

const truthy = (v: unknown) => v !== null && v !== undefined && v !== false;

class FirstDone extends Error {}

/**
 * jq's path mode: every `(path, value)` that `node` yields on `(path, value)`, in jq's order, given to `emit`. A path of
 * null marks a value that is not a path (a literal, an arithmetic result, a variable…): applying `.a`, `.[]`… to it is
 * jq's `Invalid path expression with result …` error, and so is returning it from `path(f)`. `.`, `.a`, `.[e]`,
 * `.[a:b]`, `.[]`, `..`, `?`, pipes, commas, `if`, `//`, `try`, `reduce`, `foreach`, `as` bindings, `label`/`break`,
 * `def`s and calls of them, `select`, `recurse`, `first`, `last`, `limit`, `getpath`, `empty`, `error`, and the
 * `values`/`numbers`/… selectors are path expressions; every other form is evaluated and its outputs are not paths.
 */
function pathsOf(eng: PathEngine, ctx: EngineCtx, node: AnyNode, path: PathKey[] | null, value: unknown, emit: Emit): void {
  eng.step(ctx);
  const sub = (n: AnyNode, p: PathKey[] | null, v: unknown, e: Emit, c: EngineCtx = ctx) => pathsOf(eng, c, n, p, v, e);
  const index = (p: PathKey[] | null, v: unknown, key: PathKey) => {
    if (p === null) throw invalidPath(v);
    emit([...p, key], stepValue(eng, ctx, v, key));
  };
  const based = (f: (p: PathKey[] | null, v: unknown) => void) => {
    if (node.base) sub(node.base, path, value, f);
    else f(path, value);
  };
  switch (node.type) {
    case "Identity":
      return emit(path, value);
    case "Paren":
      return sub(node.expr, path, value, emit);
    case "Field":
      return based((p, v) => index(p, v, node.name));
    case "Index":
      return based((p, v) => {
        for (const key of eng.evaluate(value, node.index, ctx)) index(p, v, typeof key === "number" && Number.isInteger(key) ? key : key);
      });
    case "Slice":
      return based((p, v) => {
        const starts = node.start ? eng.evaluate(value, node.start, ctx) : [null];
        const ends = node.end ? eng.evaluate(value, node.end, ctx) : [null];
        for (const s of starts) for (const e of ends) index(p, v, { start: s ?? null, end: e ?? null });
      });
    case "Iterate":
      return based((p, v) => {
        if (p === null) throw invalidPath(v);
        if (Array.isArray(v)) v.forEach((x, i) => emit([...p, i], x));
        else if (v !== null && typeof v === "object") for (const k of Object.keys(v)) emit([...p, k], (v as Record<string, unknown>)[k]);
        else iterateError(v);
      });
    case "Recurse":
      return recurse(eng, ctx, { type: "Optional", expr: { type: "Iterate" } }, null, path, value, emit);
    case "Optional":
      try {
        sub(node.expr, path, value, emit);
      } catch (e) {
        if (e instanceof eng.limitError || e instanceof eng.breakError || e instanceof FirstDone) throw e;
      }
      return;
    case "Pipe":
      return sub(node.left, path, value, (p, v) => sub(node.right, p, v, emit));
    case "Comma":
      sub(node.left, path, value, emit);
      return sub(node.right, path, value, emit);
    case "Cond": {
      const branch = (conds: { cond: AnyNode; then: AnyNode }[]): void => {
        if (conds.length === 0) return node.else ? sub(node.else, path, value, emit) : emit(path, value);
        for (const c of eng.evaluate(value, conds[0]!.cond, ctx)) {
          if (truthy(c)) sub(conds[0]!.then, path, value, emit);
          else branch(conds.slice(1));
        }
      };
      return branch([{ cond: node.cond, then: node.then }, ...(node.elifs ?? [])]);
    }
    case "BinaryOp":
      if (node.op === "//") {
        let any = false;
        try {
          sub(node.left, path, value, (p, v) => {
            if (truthy(v)) (any = true), emit(p, v);
          });
        } catch (e) {
          if (e instanceof eng.limitError || e instanceof eng.breakError || e instanceof FirstDone) throw e;
        }
        if (!any) sub(node.right, path, value, emit);
        return;
      }
      break;
    case "Try": {
      try {
        sub(node.body, path, value, emit);
      } catch (e) {
        if (e instanceof eng.limitError || e instanceof eng.breakError || e instanceof FirstDone) throw e;
        if (node.catch) {
          const msg = (e as { value?: unknown }).value !== undefined && (e as Error).name === "JqError" ? (e as { value: unknown }).value : e instanceof Error ? e.message : String(e);
          sub(node.catch, null, msg, emit);
        }
      }
      return;
    }
    case "VarBind":
      for (const v of eng.evaluate(value, node.value, ctx)) {
        const patterns = [node.pattern ?? { type: "var", name: node.name }, ...(node.alternatives ?? [])];
        let bound: EngineCtx | null = null;
        for (const pat of patterns) if ((bound = eng.bind(ctx, pat, v)) !== null) break;
        if (bound !== null) sub(node.body, path, value, emit, bound);
      }
      return;
    case "Reduce": {
      let acc: [PathKey[] | null, unknown][] = [];
      sub(node.init, path, value, (p, v) => acc.push([p, v]));
      if (acc.length === 0) return;
      let state = acc[acc.length - 1]!;
      for (const x of eng.evaluate(value, node.expr, ctx)) {
        const bound = node.pattern ? eng.bind(ctx, node.pattern, x) : eng.bind(ctx, { type: "var", name: node.varName }, x);
        if (bound === null) continue;
        acc = [];
        sub(node.update, state[0], state[1], (p, v) => acc.push([p, v]), bound);
        state = acc.length > 0 ? acc[acc.length - 1]! : [null, null];
      }
      return emit(state[0], state[1]);
    }
    case "Foreach": {
      const acc: [PathKey[] | null, unknown][] = [];
      sub(node.init, path, value, (p, v) => acc.push([p, v]));
      if (acc.length === 0) return;
      let state = acc[acc.length - 1]!;
      for (const x of eng.evaluate(value, node.expr, ctx)) {
        const bound = node.pattern ? eng.bind(ctx, node.pattern, x) : eng.bind(ctx, { type: "var", name: node.varName }, x);
        if (bound === null) continue;
        const outs: [PathKey[] | null, unknown][] = [];
        sub(node.update, state[0], state[1], (p, v) => outs.push([p, v]), bound);
        for (const [p, v] of outs) {
          state = [p, v];
          if (node.extract) sub(node.extract, p, v, emit, bound);
          else emit(p, v);
        }
      }
      return;
    }
    case "Label":
      try {
        sub(node.body, path, value, emit, { ...ctx, labels: new Set([...(ctx.labels ?? []), node.name]) });
      } catch (e) {
        if (!(e instanceof eng.breakError && e.label === node.name)) throw e;
      }
      return;
    case "Def": {
      const funcs = new Map(ctx.funcs ?? []);
      funcs.set(`${node.name}/${node.params.length}`, { params: node.params, body: node.funcBody, closure: new Map(ctx.funcs ?? []) });
      return sub(node.body, path, value, emit, { ...ctx, funcs });
    }
    case "Call":
      if (callPaths(eng, ctx, node, path, value, emit)) return;
      break;
  }
  for (const v of eng.evaluate(value, node, ctx)) emit(null, v);
}

function recurse(eng: PathEngine, ctx: EngineCtx, f: AnyNode, cond: AnyNode | null, path: PathKey[] | null, value: unknown, emit: Emit): void {
  const depth = ctx.limits?.maxDepth ?? 2000;
  const go = (p: PathKey[] | null, v: unknown, d: number): void => {
    if (d > depth) throw new eng.limitError(...([`query depth limit exceeded (${depth})`, "recursion"] as never[]));
    emit(p, v);
    pathsOf(eng, ctx, f, p, v, (q, w) => {
      if (cond === null || eng.evaluate(w, cond, ctx).some(truthy)) go(q, w, d + 1);
    });
  };
  go(path, value, 0);
}

function callPaths(eng: PathEngine, ctx: EngineCtx, node: AnyNode, path: PathKey[] | null, value: unknown, emit: Emit): boolean {
  const args: AnyNode[] = node.args ?? [];
  const name: string = node.name;
  const user = ctx.funcs?.get(`${name}/${args.length}`);
  if (user) {
    for (const c of defContexts(eng, value, user, `${name}/${args.length}`, args, ctx, true)) pathsOf(eng, c, user.body, path, value, emit);
    return true;
  }
  const sel = PATH_SELECTS[name];
  if (sel && args.length === 0) {
    if (sel(value)) emit(path, value);
    return true;
  }
  switch (`${name}/${args.length}`) {
    case "empty/0":
      return true;
    case "select/1":
      for (const c of eng.evaluate(value, args[0]!, ctx)) if (truthy(c)) emit(path, value);
      return true;
    case "recurse/0":
    case "recurse_down/0":
      recurse(eng, ctx, { type: "Optional", expr: { type: "Iterate" } }, null, path, value, emit);
      return true;
    case "recurse/1":
      recurse(eng, ctx, args[0]!, null, path, value, emit);
      return true;
    case "recurse/2":
      recurse(eng, ctx, args[0]!, args[1]!, path, value, emit);
      return true;
    case "first/0":
      pathsOf(eng, ctx, { type: "Index", index: lit(0) }, path, value, emit);
      return true;
    case "last/0":
      pathsOf(eng, ctx, { type: "Index", index: lit(-1) }, path, value, emit);
      return true;
    case "first/1": {
      const done = new FirstDone();
      try {
        pathsOf(eng, ctx, args[0]!, path, value, (p, v) => {
          emit(p, v);
          throw done;
        });
      } catch (e) {
        if (e !== done) throw e;
      }
      return true;
    }
    case "limit/2": {
      for (const n of eng.evaluate(value, args[0]!, ctx)) {
        if (typeof n !== "number" || n <= 0) {
          if (typeof n === "number" && n < 0) pathsOf(eng, ctx, args[1]!, path, value, emit);
          continue;
        }
        let left = n;
        const done = new FirstDone();
        try {
          pathsOf(eng, ctx, args[1]!, path, value, (p, v) => {
            emit(p, v);
            if (--left <= 0) throw done;
          });
        } catch (e) {
          if (e !== done) throw e;
        }
      }
      return true;
    }
    case "getpath/1":
      for (const p of eng.evaluate(value, args[0]!, ctx)) {
        if (!Array.isArray(p)) throw new Error("Path must be specified as an array");
        if (path === null) throw invalidPath(value);
        let v = value;
        try {
          v = getpath(eng, ctx, value, p);
        } catch {
          v = null;
        }
        emit([...path, ...p], v);
      }
      return true;
    case "while/2": {
      const depth = ctx.limits?.maxDepth ?? 2000;
      const go = (p: PathKey[] | null, v: unknown, d: number): void => {
        if (d > depth) throw new eng.limitError(...([`query depth limit exceeded (${depth})`, "recursion"] as never[]));
        for (const c of eng.evaluate(v, args[0]!, ctx)) {
          if (!truthy(c)) continue;
          emit(p, v);
          pathsOf(eng, ctx, args[1]!, p, v, (q, w) => go(q, w, d + 1));
        }
      };
      go(path, value, 0);
      return true;
    }
    case "error/0":
    case "error/1":
      eng.evaluate(value, node, ctx);
      return true;
  }
  return false;
}

/** Every path `node` yields on `root` (jq's `path(f)`), each checked to be a path. */
export function pathsFor(eng: PathEngine, ctx: EngineCtx, node: AnyNode, root: unknown): PathKey[][] {
  const out: PathKey[][] = [];
  pathsOf(eng, ctx, node, [], root, (p, v) => {
    if (p === null) throw invalidPath(v);
    out.push(p);
  });
  return out;
}

/** jq's `getpath(p)`: null once a step meets null, the engine's index error on a scalar. */
export function getpath(eng: PathEngine, ctx: EngineCtx, value: unknown, path: readonly PathKey[]): unknown {
  let v = value;
  for (const key of path) {
    if (v === null || v === undefined) return null;
    v = stepValue(eng, ctx, v, key);
  }
  return v ?? null;
}

function typeKind(v: unknown): string {
  return typeName(v);
}

function setKey(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

/** jq's `setpath(p; x)`: the value with `x` at `p`, objects and arrays made on the way (null as `{}`/`[]`). */
export function setpath(value: unknown, path: readonly PathKey[], update: (old: unknown) => unknown, i = 0): unknown {
  if (i === path.length) return update(value);
  const key = path[i];
  if (typeof key === "string") {
    if (value !== null && value !== undefined && (typeof value !== "object" || Array.isArray(value))) {
      throw new Error(`Cannot index ${typeKind(value)} with string "${key}"`);
    }
    const o: Record<string, unknown> = Object.create(null);
    if (value) for (const k of Object.keys(value)) setKey(o, k, (value as Record<string, unknown>)[k]);
    setKey(o, key, setpath(Object.hasOwn(o, key) ? o[key] : null, path, update, i + 1));
    return o;
  }
  if (typeof key === "number") {
    if (value !== null && value !== undefined && !Array.isArray(value)) throw new Error(`Cannot index ${typeKind(value)} with number`);
    const arr = [...((value ?? []) as unknown[])];
    let n = Math.trunc(key);
    if (n < 0) n += arr.length;
    if (n < 0) throw new Error("Out of bounds negative array index");
    if (n > 536870911) throw new Error("Array index too large");
    while (arr.length < n) arr.push(null);
    arr[n] = setpath(n < arr.length && arr[n] !== undefined ? arr[n] : null, path, update, i + 1);
    return arr;
  }
  if (key !== null && typeof key === "object" && !Array.isArray(key)) {
    const k = key as { start?: unknown; end?: unknown };
    return sliceUpdate(value, k.start, k.end, (slice) => setpath(slice, path, update, i + 1));
  }
  throw new Error(`Cannot update field at object index of ${typeKind(value)}`);
}

/** jq 1.6's `delpaths(ps)`: the paths sorted, the keys of one container deleted together (`del(.[1,2])`). */
export function delpaths(value: unknown, paths: unknown): unknown {
  if (!Array.isArray(paths)) throw new Error("Paths must be specified as an array");
  for (const p of paths) if (!Array.isArray(p)) throw new Error("Path must be specified as an array");
  const sorted = [...(paths as PathKey[][])].sort(compare);
  if (sorted.length === 0) return value;
  if (sorted[0]!.length === 0) return null;
  return delSorted(value, sorted, 0);
}

function delSorted(value: unknown, paths: PathKey[][], start: number): unknown {
  const delKeys: PathKey[] = [];
  let out = value;
  for (let i = 0; i < paths.length;) {
    const key = paths[i]![start];
    let j = i;
    while (j < paths.length && compare(paths[j]![start], key) === 0) j++;
    if (paths[i]!.length === start + 1) delKeys.push(key);
    else {
      const subValue = out === null || out === undefined ? null : stepOf(out, key);
      if (subValue !== null && subValue !== undefined) {
        const rest = paths.slice(i, j).filter((p) => p.length > start + 1);
        const updated = delSorted(subValue, rest, start + 1);
        out = setpath(out, [key], () => updated);
      }
    }
    i = j;
  }
  return dels(out, delKeys);
}

function stepOf(value: unknown, key: PathKey): unknown {
  if (typeof key === "string") {
    if (value !== null && typeof value === "object" && !Array.isArray(value)) return Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : null;
    throw new Error(`Cannot index ${typeKind(value)} with "${key}"`);
  }
  if (typeof key === "number") {
    if (!Array.isArray(value)) throw new Error(`Cannot index ${typeKind(value)} with number`);
    const n = key < 0 ? value.length + Math.trunc(key) : Math.trunc(key);
    return n >= 0 && n < value.length ? value[n] : null;
  }
  if (key !== null && typeof key === "object" && Array.isArray(value)) {
    const k = key as { start?: unknown; end?: unknown };
    const [s, e] = sliceBounds(value.length, k.start, k.end);
    return value.slice(s, e);
  }
  throw new Error(`Cannot index ${typeKind(value)} with ${typeKind(key)}`);
}

function dels(value: unknown, keys: PathKey[]): unknown {
  if (value === null || value === undefined || keys.length === 0) return value;
  if (Array.isArray(value)) {
    const del = new Set<number>();
    for (const k of keys) {
      if (typeof k === "number") {
        const n = Math.trunc(k) < 0 ? value.length + Math.trunc(k) : Math.trunc(k);
        del.add(n);
      } else if (k !== null && typeof k === "object" && !Array.isArray(k)) {
        const [s, e] = sliceBounds(value.length, (k as { start?: unknown }).start, (k as { end?: unknown }).end);
        for (let i = s; i < e; i++) del.add(i);
      } else throw new Error(`Cannot delete ${typeKind(k)} element of array`);
    }
    return value.filter((_, i) => !del.has(i));
  }
  if (typeof value === "object") {
    const o: Record<string, unknown> = Object.create(null);
    for (const k of keys) if (typeof k !== "string") throw new Error(`Cannot delete ${typeKind(k)} field of object`);
    for (const k of Object.keys(value)) if (!keys.includes(k)) setKey(o, k, (value as Record<string, unknown>)[k]);
    return o;
  }
  throw new Error(`Cannot delete field at index of ${typeKind(value)}`);
}

/** jq's `del(f)`: `delpaths([path(f)])`. */
export function del(eng: PathEngine, ctx: EngineCtx, node: AnyNode, value: unknown): unknown {
  return delpaths(value, pathsFor(eng, ctx, node, value));
}

/** jq 1.6's `paths` / `paths(f)` (a path once per truthy output of f on its value) / `leaf_paths`. */
export function paths(eng: PathEngine, ctx: EngineCtx, value: unknown, filter: AnyNode | null): PathKey[][] {
  const all = pathsFor(eng, ctx, { type: "Recurse" }, value).filter((p) => p.length > 0);
  if (filter === null) return all;
  const out: PathKey[][] = [];
  for (const p of all) for (const o of eng.evaluate(getpath(eng, ctx, value, p), filter, ctx)) if (truthy(o)) out.push(p);
  return out;
}

/**
 * An assignment `lhs OP rhs` as jq 1.6 runs it: `=` sets every path of lhs to each output of rhs (one result per
 * output); `|=` replaces each path's value by the first output of rhs on it, deleting the path when there is none;
 * `+=`, `-=`… `//=` apply `. OP $x` to each path for each output $x of rhs (evaluated on the input).
 */
export function update(eng: PathEngine, ctx: EngineCtx, value: unknown, lhs: AnyNode, op: string, rhs: AnyNode): unknown[] {
  const ps = pathsFor(eng, ctx, lhs, value);
  const modify = (f: (old: unknown) => unknown[]): unknown => {
    let acc = value;
    for (const p of ps) {
      const r = f(getpath(eng, ctx, acc, p));
      acc = r.length > 0 ? setpath(acc, p, () => r[0]) : delpaths(acc, [p]);
    }
    return acc;
  };
  if (op === "|=") return [modify((old) => eng.evaluate(old, rhs, ctx).slice(0, 1))];
  const out: unknown[] = [];
  for (const x of eng.evaluate(value, rhs, ctx)) {
    if (op === "=") {
      let acc = value;
      for (const p of ps) acc = setpath(acc, p, () => x);
      out.push(acc);
    } else {
      const bin = op.slice(0, -1);
      out.push(modify((old) => eng.evaluate(old, { type: "BinaryOp", op: bin, left: ID, right: lit(x) }, ctx)));
    }
  }
  return out;
}

/** `vals` as one filter node: `empty`, a literal, or the literals joined by `,`. */
function literals(vals: readonly unknown[]): AnyNode {
  if (vals.length === 0) return { type: "Call", name: "empty", args: [] };
  let node = lit(vals[vals.length - 1]);
  for (let i = vals.length - 2; i >= 0; i--) node = { type: "Comma", left: lit(vals[i]), right: node };
  return node;
}

/**
 * The contexts a call of the user function `user` (key `key`, its `def` in `user.params`/`user.body`) runs its body
 * in (issue 20, run 40, fixer f40jq): jq's `def f($a): body` is `def f(a): a as $a | body`, so a `$name` parameter
 * binds the variable `$name` to each output of its argument (evaluated on the call's input; one context per output,
 * the first parameter outermost) and also defines `name` as a filter. Other parameters are bound as before: in value
 * mode (`lazy` false) to the argument's outputs on the call's input, in path mode (`lazy`) to the argument itself.
 */
export function defContexts(eng: PathEngine, input: unknown, user: { params: string[]; body: AnyNode; closure?: Map<string, unknown> }, key: string, args: readonly AnyNode[], ctx: EngineCtx, lazy = false): EngineCtx[] {
  const funcs = new Map(user.closure ?? ctx.funcs ?? []);
  funcs.set(key, user);
  let varSets: Map<string, unknown>[] = [new Map(ctx.vars)];
  user.params.forEach((param, i) => {
    const arg = args[i];
    if (!arg) return;
    if (param.startsWith("$")) {
      const vals = eng.evaluate(input, arg, ctx);
      funcs.set(`${param.slice(1)}/0`, { params: [], body: literals(vals) });
      varSets = varSets.flatMap((vars) => vals.map((v) => new Map(vars).set(param, v)));
    } else if (lazy) {
      funcs.set(`${param}/0`, { params: [], body: arg, closure: ctx.funcs ?? new Map() });
    } else {
      funcs.set(`${param}/0`, { params: [], body: literals(eng.evaluate(input, arg, ctx)) });
    }
  });
  return varSets.map((vars) => ({ ...ctx, vars, funcs }));
}

/** jq 1.6's builtins, name/arity (its `jq -n 'builtins'`): a call of one of these names with another arity fails. */
const JQ16_BUILTINS = new Set("IN/1 IN/2 INDEX/1 INDEX/2 JOIN/2 JOIN/3 JOIN/4 acos/0 acosh/0 add/0 all/0 all/1 all/2 any/0 any/1 any/2 arrays/0 ascii_downcase/0 ascii_upcase/0 asin/0 asinh/0 atan/0 atan2/2 atanh/0 booleans/0 bsearch/1 builtins/0 capture/1 capture/2 cbrt/0 ceil/0 combinations/0 combinations/1 contains/1 copysign/2 cos/0 cosh/0 debug/0 del/1 delpaths/1 drem/2 empty/0 endswith/1 env/0 erf/0 erfc/0 error/0 error/1 exp/0 exp10/0 exp2/0 explode/0 expm1/0 fabs/0 fdim/2 finites/0 first/0 first/1 flatten/0 flatten/1 floor/0 fma/3 fmax/2 fmin/2 fmod/2 format/1 frexp/0 from_entries/0 fromdate/0 fromdateiso8601/0 fromjson/0 fromstream/1 gamma/0 get_jq_origin/0 get_prog_origin/0 get_search_list/0 getpath/1 gmtime/0 group_by/1 gsub/2 gsub/3 halt/0 halt_error/0 halt_error/1 has/1 hypot/2 implode/0 in/1 index/1 indices/1 infinite/0 input/0 input_filename/0 input_line_number/0 inputs/0 inside/1 isempty/1 isfinite/0 isinfinite/0 isnan/0 isnormal/0 iterables/0 j0/0 j1/0 jn/2 join/1 keys/0 keys_unsorted/0 last/0 last/1 ldexp/2 leaf_paths/0 length/0 lgamma/0 lgamma_r/0 limit/2 localtime/0 log/0 log10/0 log1p/0 log2/0 logb/0 ltrimstr/1 map/1 map_values/1 match/1 match/2 max/0 max_by/1 min/0 min_by/1 mktime/0 modf/0 modulemeta/0 nan/0 nearbyint/0 nextafter/2 nexttoward/2 normals/0 not/0 now/0 nth/1 nth/2 nulls/0 numbers/0 objects/0 path/1 paths/0 paths/1 pow/2 pow10/0 range/1 range/2 range/3 recurse/0 recurse/1 recurse/2 recurse_down/0 remainder/2 repeat/1 reverse/0 rindex/1 rint/0 round/0 rtrimstr/1 scalars/0 scalars_or_empty/0 scalb/2 scalbln/2 scan/1 select/1 setpath/2 significand/0 sin/0 sinh/0 sort/0 sort_by/1 split/1 split/2 splits/1 splits/2 sqrt/0 startswith/1 stderr/0 strflocaltime/1 strftime/1 strings/0 strptime/1 sub/2 sub/3 tan/0 tanh/0 test/1 test/2 tgamma/0 to_entries/0 todate/0 todateiso8601/0 tojson/0 tonumber/0 tostream/0 tostring/0 transpose/0 trunc/0 truncate_stream/1 type/0 unique/0 unique_by/1 until/2 utf8bytelength/0 values/0 walk/1 while/2 with_entries/1 y0/0 y1/0 yn/2".split(" "));
const JQ16_NAMES = new Set([...JQ16_BUILTINS].map((k) => k.slice(0, k.lastIndexOf("/"))));
/** Variables every program has (`$ENV`, `$__loc__`, `$ARGS`). */
const JQ_GLOBALS = ["$ENV", "$__loc__", "$ARGS"];

/** The `$names` a destructuring pattern (`{type:"var"|"array"|"object"}`) binds. */
function patternVars(pattern: AnyNode | undefined, out: string[] = []): string[] {
  if (!pattern) return out;
  if (pattern.type === "var") out.push(pattern.name);
  else if (pattern.type === "array") for (const p of pattern.elements ?? []) patternVars(p, out);
  else if (pattern.type === "object") for (const f of pattern.fields ?? []) {
    if (f.keyVar) out.push(f.keyVar);
    patternVars(f.pattern, out);
  }
  return out;
}

/**
 * jq 1.6's compile-time checks (issue 20, run 40, fixer f40jq), which just-bash ran without: a `$name` that no
 * binding, `--arg`/`--argjson`/`--slurpfile`/`--rawfile` or global defines, and a call of a jq 1.6 builtin with an
 * arity it lacks (and that no `def` defines), are `NAME is not defined at <top-level>, line 1:` errors, status 3.
 * Returns `ast`; throws an Error with jq's message (the program quoted, `jq: 1 compile error`).
 */
export function compileCheck(ast: AnyNode, program: string, named: Iterable<string>): AnyNode {
  const fail = (what: string): never => {
    throw new Error(`${what} is not defined at <top-level>, line 1:\n${program}\njq: 1 compile error`);
  };
  const visit = (node: unknown, vars: ReadonlySet<string>, funcs: ReadonlySet<string>): void => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const n of node) visit(n, vars, funcs);
      return;
    }
    const n = node as AnyNode;
    const withVars = (names: readonly string[]) => (names.length === 0 ? vars : new Set([...vars, ...names]));
    switch (n.type) {
      case "Literal":
        return;
      case "VarRef":
        if (!vars.has(n.name)) fail(n.name);
        return;
      case "Call": {
        const key = `${n.name}/${(n.args ?? []).length}`;
        if (!funcs.has(key) && !JQ16_BUILTINS.has(key) && JQ16_NAMES.has(n.name)) fail(key);
        visit(n.args, vars, funcs);
        return;
      }
      case "VarBind": {
        visit(n.value, vars, funcs);
        const names = n.pattern || n.alternatives ? [n.pattern, ...(n.alternatives ?? [])].flatMap((p: AnyNode | undefined) => patternVars(p)) : [];
        if (n.name) names.push(n.name);
        visit(n.body, withVars(names), funcs);
        return;
      }
      case "Reduce":
      case "Foreach": {
        visit(n.expr, vars, funcs);
        visit(n.init, vars, funcs);
        const inner = withVars(n.varName ? [n.varName] : patternVars(n.pattern));
        visit(n.update, inner, funcs);
        visit(n.extract, inner, funcs);
        return;
      }
      case "Def": {
        const own = new Set([...funcs, `${n.name}/${n.params.length}`]);
        const inner = new Set(own);
        const params: string[] = [];
        for (const p of n.params as string[]) {
          if (p.startsWith("$")) params.push(p);
          inner.add(`${p.replace(/^\$/, "")}/0`);
        }
        visit(n.funcBody, withVars(params), inner);
        visit(n.body, vars, own);
        return;
      }
      default:
        for (const [k, v] of Object.entries(n)) if (k !== "type" && k !== "pattern") visit(v, vars, funcs);
    }
  };
  visit(ast, new Set([...JQ_GLOBALS, ...[...named].map((k) => `$${k}`)]), new Set());
  return ast;
}

/**
 * `sub(re; str; flags)` / `gsub` as jq 1.6 (issue 20, run 40, fixer f40jq): `str` is evaluated with the match's
 * named captures object (`{"name": "text"}`, null for a group that did not take part) as its input — just-bash
 * evaluated it on the whole input and handed it to `String.replace`, so `"\(.x)"` was null and `$1` was expanded.
 * One result per combination of `str`'s outputs; a non-string output is jq's `cannot be added` error.
 */
export function substitute(input: unknown, re: unknown, flags: string, global: boolean, make: (flags: string) => MatchRegex, replace: (captures: Record<string, unknown>) => unknown[]): unknown[] {
  const s = matchable(input);
  matchable(re);
  const g = global || flags.includes("g");
  const rx = make(`${flags.replace(/g/g, "")}${g ? "g" : ""}`);
  const found: (RegExpExecArray & { index: number })[] = [];
  if (g) {
    for (const m of rx.matchAll(s)) {
      if (m.index >= s.length && m[0] === "" && s.length > 0) break; // jq: no empty match at the end
      found.push(m);
    }
  } else {
    const m = rx.exec(s);
    if (m) found.push(m);
  }
  let results = [""];
  let prev = 0;
  for (const m of found) {
    const captures: Record<string, unknown> = Object.create(null);
    for (const [k, v] of Object.entries(m.groups ?? {})) captures[k] = v ?? null;
    const gap = s.slice(prev, m.index);
    const reps = replace(captures);
    results = results.flatMap((r) => reps.map((x) => {
      if (typeof x !== "string") arithmeticError("+", r + gap, x);
      return r + gap + (x as string);
    }));
    prev = m.index + m[0].length;
  }
  return results.map((r) => r + s.slice(prev));
}

/**
 * The JSON values of one input text, parsed one at a time (issue 20, run 40, fixer f40jq): the values before a
 * malformed one are returned (jq prints their outputs), the failure is added to `bad` as jq's `parse error: …`
 * line and the rest of the text is skipped. `parse` is the engine's parser of a text holding one value; `fatal`
 * tells its limit errors, which are thrown.
 */
export function jsonValues(text: string, parse: (text: string) => unknown[], fatal: (e: unknown) => boolean, bad: string[]): unknown[] {
  const out: unknown[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (i >= text.length) break;
    const start = i;
    const c = text[i]!;
    if (c === "{" || c === "[") {
      let depth = 0;
      let str = false;
      let esc = false;
      for (; i < text.length; i++) {
        const ch = text[i];
        if (esc) esc = false;
        else if (str) {
          if (ch === "\\") esc = true;
          else if (ch === '"') str = false;
        } else if (ch === '"') str = true;
        else if (ch === "{" || ch === "[") depth++;
        else if ((ch === "}" || ch === "]") && --depth === 0) {
          i++;
          break;
        }
      }
    } else if (c === '"') {
      let esc = false;
      for (i++; i < text.length; i++) {
        if (esc) esc = false;
        else if (text[i] === "\\") esc = true;
        else if (text[i] === '"') {
          i++;
          break;
        }
      }
    } else {
      i++;
      while (i < text.length && !/[\s{}[\]"]/.test(text[i]!)) i++;
    }
    try {
      out.push(...parse(text.slice(start, i)));
    } catch (e) {
      if (fatal(e)) throw e;
      bad.push(`jq: error (at <stdin>:0): Cannot parse input: ${e instanceof Error ? e.message : String(e)}\n`);
      break;
    }
  }
  return out;
}

/** jq 1.6's message for input files it could not open, from the file reader's `jq: NAME: No such file…` lines. */
export function openErrors(stderr: string): string {
  return stderr.replace(/^jq: (.*): No such file or directory$/gm, "jq: error: Could not open file $1: No such file or directory");
}
