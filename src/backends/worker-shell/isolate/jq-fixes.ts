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
