/**
 * Issue 20, run 33, fixer AA — the array index of src/backends/worker-shell/isolate/array-index.ts, against just-bash
 * 3.4.2's own way of answering (the oracle below is its `getArrayIndices` / `getAssocArrayKeys` / `Math.max` code,
 * run on a plain Map given the same operations). A seeded sequence of sets, deletes and clears — in order, out of
 * order, of keys that are indices and keys that are not, as `a+=(…)`, `a[i]=v`, `unset 'a[i]'` and associative
 * arrays make them — must leave the same indices, sorted keys, count and largest index after every step; a
 * checkpoint rolled back must leave the array exactly as it was (entries, indices, keys), nested or not, and one
 * settled must keep every change. Sibling of test/workers/fix33/shell-array-linear.test.ts.
 */
import { describe, expect, it } from "vitest";
import { ShellArrayElements, assertKeysFit, checkpoint, restore, settle, type ShellArray } from "../../../src/backends/worker-shell/isolate/array-index.js";

/** just-bash 3.4.2's answers from a plain Map. */
function oracle(map: Map<string, string>) {
  const indices = Array.from(map.keys()).filter((r) => /^(0|[1-9]\d*)$/.test(r)).map(Number).sort((r, s) => r - s);
  return { indices, keys: Array.from(map.keys()).sort(), count: indices.length, max: indices.length > 0 ? Math.max(...indices) : -1 };
}
function answers(map: ShellArrayElements) {
  return { indices: map.indices(), keys: map.sortedKeys(), count: map.indexCount(), max: map.maxIndex() };
}

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KEYS = ["0", "1", "2", "7", "10", "99", "100", "007", "-1", "x", "alpha", "Zed", "", "1e3"];

describe("ShellArrayElements", () => {
  it("answers as just-bash's scans after each of 3,000 mixed operations", () => {
    const next = random(33);
    const plain = new Map<string, string>();
    const kept = new ShellArrayElements();
    let top = 0;
    for (let step = 0; step < 3000; step++) {
      const r = next();
      if (r < 0.45) {
        const key = String(top++); // an append
        plain.set(key, `v${step}`);
        kept.set(key, `v${step}`);
      } else if (r < 0.7) {
        const key = next() < 0.5 ? KEYS[Math.floor(next() * KEYS.length)]! : String(Math.floor(next() * (top + 5)));
        plain.set(key, `w${step}`);
        kept.set(key, `w${step}`);
      } else if (r < 0.97) {
        const key = next() < 0.5 ? String(top - 1) : String(Math.floor(next() * (top + 2)));
        expect(kept.delete(key)).toBe(plain.delete(key));
        if (key === String(top - 1) && next() < 0.5) top--;
      } else {
        plain.clear();
        kept.clear();
        top = 0;
      }
      expect(answers(kept)).toEqual(oracle(plain));
      expect([...kept]).toEqual([...plain]);
    }
  });

  it("a copy keeps the entries and their order, and answers the same", () => {
    const a = new ShellArrayElements([["5", "e"], ["1", "a"], ["k", "v"]]);
    const b = new ShellArrayElements(a);
    expect([...b]).toEqual([...a]);
    expect(answers(b)).toEqual(oracle(new Map(a)));
  });

  it("a rolled-back checkpoint leaves the array as it was; a settled one keeps the changes", () => {
    const map = new ShellArrayElements([["0", "a"], ["1", "b"], ["3", "d"]]);
    const array: ShellArray = { kind: "indexed", elements: map };
    const before = [...map];
    const outer = checkpoint(array);
    map.set("4", "e");
    map.set("0", "A");
    const inner = checkpoint(array);
    map.delete("1");
    map.set("9", "z");
    map.clear();
    map.set("2", "c");
    expect(restore(inner)).toBe(array);
    expect([...map].sort()).toEqual([["0", "A"], ["1", "b"], ["3", "d"], ["4", "e"]]);
    expect(answers(map)).toEqual(oracle(new Map(map)));
    restore(outer);
    expect([...map].sort()).toEqual([...before].sort());
    expect(answers(map)).toEqual(oracle(new Map(map)));
    settle(outer); // a no-op once restored

    const kept = checkpoint(array);
    map.set("7", "g");
    map.delete("0");
    settle(kept);
    expect([...map].sort()).toEqual([["1", "b"], ["3", "d"], ["7", "g"]]);
    expect(answers(map)).toEqual(oracle(new Map(map)));
  });

  it("assertKeysFit throws only when the new keys pass the limit", () => {
    const map = new Map([["0", "a"], ["1", "b"]]);
    const err = (m: string) => new Error(m);
    expect(() => assertKeysFit(map, [1, 2], false, 3, err)).not.toThrow();
    expect(() => assertKeysFit(map, [2, 3], false, 3, err)).toThrow("array element limit exceeded (3)");
    expect(() => assertKeysFit(map, [0, 1, 2], true, 3, err)).not.toThrow();
    expect(() => assertKeysFit(map, [0, 1, 2, 3], true, 3, err)).toThrow("array element limit exceeded (3)");
  });
});
