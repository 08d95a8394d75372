/**
 * Shell arrays with an index kept per array (issue 20, run 33, fixer AA).
 *
 * just-bash 3.4.2 keeps an array's elements in a `Map<string, string>` (key → value) and, for every question about
 * the array as a whole, rebuilt its keys: `getArrayIndices` filtered every key with a regular expression and sorted
 * them, `getAssocArrayKeys` sorted every key, and `a+=(x)` (next index), `${#a[@]}` (count), `${a[-1]}` and
 * `unset 'a[-1]'` (largest index) each built the whole `[index, value]` list first. So one append or one length
 * cost time linear in the array (with a sort), and the loops scripts write — `for i in …; do a+=("$i"); done`,
 * `for ((i=0; i<${#a[@]}; i++))` — were quadratic (20,000 appends past 20 s; bash 5.2.15: 0.06 s).
 *
 * {@link ShellArrayElements} is that Map, keeping alongside it, as bash keeps its array's `max_index` and
 * `num_elements`:
 * - the number of index keys (`0` or a decimal without leading zeros, the keys just-bash counts for an indexed
 *   array) and the largest one, in O(1) per insert or delete (a delete of the largest marks it for recomputation
 *   from the sorted indices on the next question);
 * - the indices ascending and the keys in code-unit order (an associative array's order in just-bash), kept while
 *   keys arrive in order (an append pushes, removing the last pops) and rebuilt once after any other change.
 * Answers are the same as just-bash's, element for element; only the work differs. A plain Map (an array made by
 * code this module does not see) is answered the old way.
 *
 * A compound assignment (`a=(…)`, `a+=(…)`) copied the whole array first, to put it back if the assignment failed
 * (a limit, an expansion error); {@link checkpoint} instead records the old value of each key the assignment
 * touches, and {@link restore} puts those back, so an append costs its own elements only.
 *
 * scripts/gen-shell.mjs patches just-bash to build arrays from this class and ask it (namespace `__arrayIndex`,
 * entries marked `// AA`). Pure: bundled into the shell's Dynamic Worker.
 *
 * @module
 */

/** An index key as just-bash's `getArrayIndices` accepts it: `0`, or a decimal numeral without a leading zero. */
const INDEX_KEY = /^(0|[1-9]\d*)$/;

/** One open {@link checkpoint}: each key's value before its first change (undefined: it did not exist). */
type Journal = Map<string, string | undefined>;

/** An array's elements, key → value, with its count of index keys, largest index and sorted keys kept. */
export class ShellArrayElements extends Map<string, string> {
  /** Number of index keys. */
  #count = 0;
  /** Largest index (-1 when none); valid unless {@link #maxStale}. */
  #max = -1;
  #maxStale = false;
  /** The indices ascending (as just-bash's numeric sort gives them), or null until asked again. */
  #indices: number[] | null = [];
  /** Every key in code-unit order (just-bash's `.sort()`), or null until asked again. */
  #keys: string[] | null = [];
  /** Open checkpoints, innermost last. */
  #journals: Journal[] = [];

  constructor(entries?: Iterable<readonly [string, string]> | null) {
    super();
    if (entries) for (const [key, value] of entries) this.set(key, value);
  }

  override set(key: string, value: string): this {
    const had = super.has(key);
    this.#record(key, had);
    super.set(key, value);
    if (!had) this.#added(key);
    return this;
  }

  override delete(key: string): boolean {
    if (!super.has(key)) return false;
    this.#record(key, true);
    super.delete(key);
    this.#removed(key);
    return true;
  }

  override clear(): void {
    if (this.#journals.length > 0) for (const key of super.keys()) this.#record(key, true);
    super.clear();
    this.#count = 0;
    this.#max = -1;
    this.#maxStale = false;
    this.#indices = [];
    this.#keys = [];
  }

  /** How many index keys there are (`${#a[@]}` of an indexed array). */
  indexCount(): number {
    return this.#count;
  }

  /** The largest index, -1 when there is none. */
  maxIndex(): number {
    if (this.#maxStale) {
      const indices = this.#sortedIndices();
      this.#max = indices.length > 0 ? (indices[indices.length - 1] as number) : -1;
      this.#maxStale = false;
    }
    return this.#max;
  }

  /** The indices ascending: a new array each call. */
  indices(): number[] {
    return this.#sortedIndices().slice();
  }

  /** Every key in code-unit order: a new array each call. */
  sortedKeys(): string[] {
    if (this.#keys === null) this.#keys = [...super.keys()].sort();
    return this.#keys.slice();
  }

  /** Starts recording the old value of each key changed from now on (see {@link checkpoint}). */
  openJournal(): void {
    this.#journals.push(new Map());
  }

  /** Closes the innermost journal, keeping the changes (an outer one keeps the oldest values). */
  commitJournal(): void {
    const journal = this.#journals.pop();
    const outer = this.#journals.at(-1);
    if (journal === undefined || outer === undefined) return;
    for (const [key, value] of journal) if (!outer.has(key)) outer.set(key, value);
  }

  /** Closes the innermost journal, putting back the value each key had when it opened. */
  rollbackJournal(): void {
    const journal = this.#journals.pop();
    if (journal === undefined) return;
    // Unrecorded: a key the outer journal has not seen is back to the value it had when that one opened.
    const outer = this.#journals;
    this.#journals = [];
    try {
      for (const [key, value] of journal) {
        if (value === undefined) this.delete(key);
        else this.set(key, value);
      }
    } finally {
      this.#journals = outer;
    }
  }

  #record(key: string, had: boolean): void {
    const journal = this.#journals.at(-1);
    if (journal !== undefined && !journal.has(key)) journal.set(key, had ? super.get(key) : undefined);
  }

  #sortedIndices(): number[] {
    if (this.#indices === null) {
      this.#indices = [...super.keys()].filter((key) => INDEX_KEY.test(key)).map(Number).sort((a, b) => a - b);
    }
    return this.#indices;
  }

  #added(key: string): void {
    const keys = this.#keys;
    if (keys !== null) {
      if (keys.length === 0 || key > (keys[keys.length - 1] as string)) keys.push(key);
      else this.#keys = null;
    }
    if (!INDEX_KEY.test(key)) return;
    const index = Number(key);
    this.#count++;
    const indices = this.#indices;
    if (indices !== null) {
      if (indices.length === 0 || index >= (indices[indices.length - 1] as number)) indices.push(index);
      else this.#indices = null;
    }
    if (!this.#maxStale && index > this.#max) this.#max = index;
  }

  #removed(key: string): void {
    const keys = this.#keys;
    if (keys !== null) {
      if (keys[keys.length - 1] === key) keys.pop();
      else this.#keys = null;
    }
    if (!INDEX_KEY.test(key)) return;
    const index = Number(key);
    this.#count--;
    const indices = this.#indices;
    if (indices !== null) {
      if (indices[indices.length - 1] === index) indices.pop();
      else this.#indices = null;
    }
    if (!this.#maxStale && index === this.#max) {
      if (this.#indices !== null) this.#max = this.#indices.length > 0 ? (this.#indices[this.#indices.length - 1] as number) : -1;
      else this.#maxStale = true;
    }
  }
}

/** An array as just-bash's interpreter state holds it (`ShellArray`). */
export interface ShellArray {
  kind: "indexed" | "associative";
  elements: Map<string, string>;
}

/** The part of just-bash's interpreter context these helpers read. */
interface Ctx {
  state: { arrays?: Map<string, ShellArray>; associativeArrays?: Set<string> };
}

/** just-bash's `getArrayElements`: `[index or key, value]` of array `name`, in order. */
type Elements = (ctx: Ctx, name: string) => Array<[number | string, string]>;

/** The shell's arrays whose elements are not in `state.arrays` (bash's dynamic arrays, as just-bash serves them). */
const DYNAMIC = new Set(["FUNCNAME", "BASH_LINENO", "BASH_SOURCE"]);

/** A new array's elements: empty, or a copy of `from` (a copy never shares an open checkpoint). */
export function elements(from?: Map<string, string>): ShellArrayElements {
  return new ShellArrayElements(from);
}

/** just-bash's `getArrayIndices`: the index keys of `map` ascending, as numbers (none for no array). */
export function indices(map: Map<string, string> | undefined): number[] {
  if (map === undefined) return [];
  if (map instanceof ShellArrayElements) return map.indices();
  return [...map.keys()].filter((key) => INDEX_KEY.test(key)).map(Number).sort((a, b) => a - b);
}

/** just-bash's `getAssocArrayKeys`: every key of `map` in code-unit order (none for no array). */
export function keys(map: Map<string, string> | undefined): string[] {
  if (map === undefined) return [];
  if (map instanceof ShellArrayElements) return map.sortedKeys();
  return [...map.keys()].sort();
}

/** `getArrayIndices(…).length`: how many index keys `map` has (0 for no array). */
export function indexCount(map: Map<string, string> | undefined): number {
  if (map === undefined) return 0;
  return map instanceof ShellArrayElements ? map.indexCount() : indices(map).length;
}

/**
 * `getArrayElements(ctx, name).length` without building the list: `${#name[@]}`. An associative array counts every
 * key; an indexed one its index keys; FUNCNAME, BASH_LINENO and BASH_SOURCE are asked of `elementsOf`.
 */
export function count(ctx: Ctx, name: string, elementsOf: Elements): number {
  if (DYNAMIC.has(name)) return elementsOf(ctx, name).length;
  const map = ctx.state.arrays?.get(name)?.elements;
  if (map === undefined) return 0;
  if (ctx.state.associativeArrays?.has(name)) return map.size;
  return indexCount(map);
}

/**
 * `${#NAME[@]}` / `${#NAME[*]}` of an array with elements, as a string, without expanding its elements (just-bash
 * expanded the whole `"${NAME[@]}"` first, then counted); null for anything else (another parameter, FUNCNAME and
 * the like, no array, no element: the caller's own path, with its `set -u` errors).
 */
export function wholeLength(ctx: Ctx, parameter: string): string | null {
  const match = /^([a-zA-Z_][a-zA-Z0-9_]*)\[[@*]\]$/.exec(parameter);
  if (match === null || DYNAMIC.has(match[1]!)) return null;
  const name = match[1]!;
  const map = ctx.state.arrays?.get(name)?.elements;
  if (map === undefined) return null;
  const n = ctx.state.associativeArrays?.has(name) ? map.size : indexCount(map);
  return n > 0 ? String(n) : null;
}

/**
 * The largest index of array `name`, as just-bash computed it from `getArrayElements` (`Math.max` of each numeric
 * index, a key that is not a number counting as 0), for a negative subscript (`${a[-1]}`, `a[-1]=x`, `unset
 * 'a[-1]'`) and the next index of `a+=(…)` (this + 1). Only asked when the array has an element ({@link count} > 0).
 */
export function maxIndex(ctx: Ctx, name: string, elementsOf: Elements): number {
  if (DYNAMIC.has(name) || ctx.state.associativeArrays?.has(name)) {
    let max = -Infinity;
    for (const [key] of elementsOf(ctx, name)) max = Math.max(max, typeof key === "number" ? key : 0);
    return max;
  }
  const map = ctx.state.arrays?.get(name)?.elements;
  if (map === undefined) return -Infinity;
  if (map instanceof ShellArrayElements) return map.maxIndex();
  const all = indices(map);
  return all.length > 0 ? (all[all.length - 1] as number) : -Infinity;
}

/** The largest of `sorted` (indices ascending, as {@link indices} gives them): `Math.max(...sorted)` without the spread. */
export function last(sorted: readonly number[]): number {
  return sorted.length > 0 ? (sorted[sorted.length - 1] as number) : -Infinity;
}

/**
 * just-bash's `assertArrayKeysFit`: throws `limitError(message, "array_elements")` when storing `newKeys` in `map`
 * (replacing it when `replace`) would pass `max` elements; costs the new keys, not the array.
 */
export function assertKeysFit(map: Map<string, string> | undefined, newKeys: Iterable<string | number>, replace: boolean, max: number, limitError: (message: string) => Error): void {
  const base = replace || map === undefined ? 0 : map.size;
  const fresh = new Set<string>();
  for (const key of newKeys) {
    const k = String(key);
    if (replace || !map!.has(k)) fresh.add(k);
    if (base + fresh.size > max) throw limitError(`array element limit exceeded (${max})`);
  }
}

/** A checkpoint of `array` before a compound assignment: {@link restore} puts it back, {@link settle} keeps the change. */
export interface Checkpoint {
  readonly array: ShellArray;
  readonly kind: ShellArray["kind"];
  /** A whole copy, when the elements are a plain Map. */
  readonly copy?: ShellArray;
  open: boolean;
}

/** Starts a checkpoint of `array` (just-bash copied it whole: `{kind, elements: new Map(elements)}`). */
export function checkpoint(array: ShellArray): Checkpoint {
  const map = array.elements;
  if (map instanceof ShellArrayElements) {
    map.openJournal();
    return { array, kind: array.kind, open: true };
  }
  return { array, kind: array.kind, copy: { kind: array.kind, elements: elements(map) }, open: false };
}

/** The array as it was at `point` (to put back in `state.arrays`); closes the checkpoint. */
export function restore(point: Checkpoint): ShellArray {
  if (point.copy !== undefined) return point.copy;
  if (point.open) {
    point.open = false;
    (point.array.elements as ShellArrayElements).rollbackJournal();
  }
  point.array.kind = point.kind;
  return point.array;
}

/** Keeps what was done since `point` (a no-op once restored or settled). */
export function settle(point: Checkpoint | undefined): void {
  if (point === undefined || !point.open) return;
  point.open = false;
  (point.array.elements as ShellArrayElements).commitJournal();
}
