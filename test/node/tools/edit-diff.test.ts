import { describe, expect, it } from "vitest";
import { editReport, numberedDiff, unifiedPatch } from "../../../src/tools/core/edit-diff.js";
import { prng } from "../../shared/fs/harness.js";

/** Deterministic PRNG (mulberry32), so a failure names its seed. */
const random = prng;

/** Lines drawn from a tiny alphabet, so the diff has many equally short answers to choose from. */
function text(rand: () => number, lines: number, alphabet: string[]): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(alphabet[Math.floor(rand() * alphabet.length)]!);
  return out.join("\n") + (rand() < 0.7 ? "\n" : "");
}

/** Replaces 1–3 disjoint random spans of `before`, as the edit tool does (right to left). */
function edit(rand: () => number, before: string, alphabet: string[]) {
  const cuts = Array.from({ length: 2 * (1 + Math.floor(rand() * 3)) }, () => Math.floor(rand() * (before.length + 1))).sort((a, b) => a - b);
  let after = before;
  for (let k = cuts.length - 2; k >= 0; k -= 2) {
    const insert = text(rand, Math.floor(rand() * 4), alphabet).slice(0, rand() < 0.5 ? undefined : -1);
    after = after.slice(0, cuts[k]) + insert + after.slice(cuts[k + 1]);
  }
  // The span that changed: the shared prefix and suffix around every cut.
  const start = cuts[0]!;
  const beforeEnd = cuts[cuts.length - 1]!;
  return { after, span: { start, beforeEnd, afterEnd: beforeEnd + after.length - before.length } };
}

describe("edit: the windowed diff equals the whole-file diff", () => {
  const alphabets = [["a", "b"], ["a", "b", "c", "", "}"], ["x"], ["  return;", "}", "", "{", "foo()"]];
  it("matches numberedDiff and unifiedPatch on 3,000 random edits with repetitive lines", () => {
    let compared = 0;
    for (let seed = 1; seed <= 3000; seed++) {
      const rand = random(seed);
      const alphabet = alphabets[seed % alphabets.length]!;
      const before = text(rand, Math.floor(rand() * 120), alphabet);
      const { after, span } = edit(rand, before, alphabet);
      if (after === before) continue;
      const whole = numberedDiff(before, after);
      const expected = { diff: whole.diff, patch: unifiedPatch("/f.txt", before, after), firstChangedLine: whole.firstChangedLine };
      const got = editReport("/f.txt", before, after, span);
      expect({ seed, ...got, firstChangedLine: got.firstChangedLine }).toEqual({ seed, ...expected });
      compared++;
    }
    expect(compared).toBeGreaterThan(2500);
  });

  it("matches on a 20,000-line file edited in the middle, with and without a final newline", () => {
    const lines = Array.from({ length: 20000 }, (_, i) => (i % 7 === 0 ? "}" : `line ${i}`));
    for (const ending of ["\n", ""]) {
      const before = lines.join("\n") + ending;
      const start = before.indexOf("line 10001\n");
      const after = before.slice(0, start) + "line 10001 changed\n}\n" + before.slice(start + "line 10001\n".length);
      const span = { start, beforeEnd: start + "line 10001\n".length, afterEnd: start + "line 10001 changed\n}\n".length };
      const whole = numberedDiff(before, after);
      expect(editReport("/big.txt", before, after, span)).toEqual({
        diff: whole.diff,
        patch: unifiedPatch("/big.txt", before, after),
        firstChangedLine: whole.firstChangedLine,
      });
      expect(whole.firstChangedLine).toBe(10002);
    }
  });
});
