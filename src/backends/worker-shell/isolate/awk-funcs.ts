/**
 * awk's functions as gawk 5.2.1 (mawk 1.3.4 where they share them), for just-bash's awk:
 *
 * - `srand(seed)` seeds `rand()` (a deterministic generator per awk run: the same seed gives the same sequence)
 *   and returns the previous seed; the first seed is 1, as gawk 5.2.1's (rand() before any srand is srand(1)'s
 *   sequence); `srand()` seeds with the time of day (seconds). The numbers are not gawk's own sequence (gawk uses
 *   its copy of BSD `random()`), only as reproducible.
 * - `asort(src[, dest])`, `asorti(src[, dest])` (gawk): numbers before strings, strings by their characters;
 *   asorti sorts the indices as strings; `strtonum(s)` (gawk): `0x` hexadecimal, a leading `0` octal, else decimal.
 * - a call to a function that is neither built in nor defined by the program is gawk's fatal error when it is
 *   reached (`awk: function `g' not defined`, status 2; mawk refuses the program); just-bash gave "".
 *
 * scripts/gen-shell.mjs patches just-bash's awk to call these, imported as the namespace `__awkFn` (entries marked
 * `// AW`, issue 20 run 32). Pure: bundled into the shell's Dynamic Worker.
 *
 * @module
 */

import { AwkString, UNINIT, arrayKey, arrayOf, awkNumber, looksNumeric } from "./awk.js";

interface Node {
  type: string;
  name?: string;
  [key: string]: unknown;
}

/** The interpreter state these read and write (just-bash's awk runtime context). */
interface State {
  arrays: Record<string, Record<string, unknown> | undefined>;
  arrayAliases: Map<string, string>;
  arrayElementCount?: number;
  vars: Record<string, unknown>;
  awkSeed?: number;
  awkRandom?: () => number;
}

type Builtin = (args: Node[], state: State, helper: { evalExpr(node: Node): Promise<unknown>; str(x: unknown): string }) => unknown;

/** Adds this module's functions to just-bash's awk built-ins `map`. */
export function install(map: Map<string, Builtin>): void {
  map.set("rand", rand);
  map.set("srand", srand);
  map.set("asort", (args, state, helper) => sortArray(args, state, helper, "asort"));
  map.set("asorti", (args, state, helper) => sortArray(args, state, helper, "asorti"));
  map.set("strtonum", strtonum);
}

/** A call of `name`, neither built in nor defined by the program: gawk's fatal error when the call is reached. */
export function notDefined(name: string): never {
  throw new Error(`function \`${name}' not defined`);
}

// ---------------------------------------------------------------- rand, srand

/** A generator of numbers in [0, 1) from a 32-bit seed (mulberry32; two draws make 53 bits). */
function generator(seed: number): () => number {
  let s = seed >>> 0;
  const next = (): number => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  return () => ((next() >>> 5) * 67108864 + (next() >>> 6)) / 9007199254740992;
}

function seeded(state: State): () => number {
  return (state.awkRandom ??= generator(mix(state.awkSeed ?? 1)));
}

/** The 32-bit generator seed of awk seed `n` (an integer; both halves of a larger one count). */
function mix(n: number): number {
  const lo = n >>> 0;
  const hi = Math.floor(n / 4294967296) >>> 0;
  return (lo ^ Math.imul(hi, 0x9e3779b9)) >>> 0;
}

function rand(_args: Node[], state: State): number {
  return seeded(state)();
}

async function srand(args: Node[], state: State, helper: { evalExpr(node: Node): Promise<unknown> }): Promise<number> {
  const previous = state.awkSeed ?? 1;
  const seed = args.length > 0 ? Math.trunc(awkNumber(await helper.evalExpr(args[0]!))) : Math.floor(Date.now() / 1000);
  state.awkSeed = Number.isFinite(seed) ? seed : 0;
  state.awkRandom = generator(mix(state.awkSeed));
  return previous;
}

// ---------------------------------------------------------------- asort, asorti, strtonum

/** Is stored value `v` a number to a sort (a number, or input text that looks like one)? Then its value. */
function sortNumber(v: unknown): number | undefined {
  if (typeof v === "number") return v;
  if (typeof v === "string" && looksNumeric(v)) return awkNumber(v);
  return undefined;
}

function text(v: unknown): string {
  if (v === undefined || v === UNINIT) return "";
  return v instanceof AwkString ? v.value : String(v);
}

function compareValues(a: unknown, b: unknown): number {
  const x = sortNumber(a), y = sortNumber(b);
  if (x !== undefined && y !== undefined) return x < y ? -1 : x > y ? 1 : 0;
  if (x !== undefined) return -1;
  if (y !== undefined) return 1;
  const s = text(a), t = text(b);
  return s < t ? -1 : s > t ? 1 : 0;
}

function compareIndices(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

async function sortArray(args: Node[], state: State, _helper: unknown, name: "asort" | "asorti"): Promise<number> {
  if (args.length < 1 || args.length > 2) throw new Error(`${name}: called with ${args.length} arguments`);
  const arrayName = (n: Node | undefined, which: string): string => {
    if (n?.type !== "variable" || typeof n.name !== "string" || (state.vars[n.name] !== undefined && arrayOf(state as never, n.name) === undefined)) {
      throw new Error(`${name}: ${which} argument is not an array`);
    }
    return n.name;
  };
  const source = arrayName(args[0], "first");
  const dest = args.length > 1 ? arrayName(args[1], "second") : source;
  const elements = arrayOf(state as never, source) ?? {};
  const keys = Object.keys(elements);
  const sorted: unknown[] = name === "asorti" ? keys.sort(compareIndices) : keys.map((k) => elements[k]).sort(compareValues);
  const target: Record<string, unknown> = Object.create(null);
  sorted.forEach((v, i) => {
    target[String(i + 1)] = v === UNINIT ? "" : v;
  });
  const key = arrayKey(state as never, dest);
  const before = state.arrays[key] ? Object.keys(state.arrays[key]!).length : 0;
  state.arrays[key] = target;
  if (typeof state.arrayElementCount === "number") state.arrayElementCount += sorted.length - before;
  return sorted.length;
}

/** gawk's strtonum: a string `0x…` is hexadecimal, a leading `0` octal (unless an 8 or 9 follows), else decimal. */
async function strtonum(args: Node[], _state: State, helper: { evalExpr(node: Node): Promise<unknown> }): Promise<number> {
  if (args.length !== 1) throw new Error(`strtonum: called with ${args.length} arguments`);
  const v = await helper.evalExpr(args[0]!);
  if (typeof v === "number") return v;
  const s = text(v).replace(/^[ \t\n\r\f\v]+/, "");
  const hex = /^0[xX]([0-9a-fA-F]+)/.exec(s);
  if (hex) return parseInt(hex[1]!, 16);
  const oct = /^0([0-7]*)(?![0-9.eE])/.exec(s);
  if (oct) return oct[1] ? parseInt(oct[1], 8) : 0;
  return awkNumber(s);
}
