/**
 * Issue 20, thirteenth attack run: the glob's linear matcher (src/fs/glob.ts, the fix of issue 20 §2)
 * against long names.
 *
 * Tried: globs the docs route to the linear matcher ("at most path length × glob length steps") — a
 * `?` keeps a glob off picomatch — with a long run of `?` after a literal that occurs everywhere in the
 * name: `*a` + 4,000 × `?` + `b` (4,003 characters, within MAX_GLOB_SIZE 4,096), against names of
 * 200,000 characters (docs/filesystem.md: "a 10,000-character name: fine"; attack3/resources: a
 * 200,000-character name works). Each `a` is a place the `*` may end, and each try reads 4,000 `?`
 * before failing: 200,000 × 4,000 = 8·10^8 steps, 7.7 s for ONE name on this machine (10 s for
 * `*` + `a?` × 2,000 + `b`); find over 3 such files took 29 s. The find's plain-suffix prefilter
 * (walk.ts plainSuffix) only needs the name to end in `b`; grep's `include` and `exclude` have no
 * prefilter at all.
 * (Held: the same long literal through picomatch, `*` + `a` × 4,000 + `b`: 1.7 ms.)
 *
 * Found (medium-high): one find/grep call freezes the Durable Object for seconds per walked name —
 * the freeze issue 20 §2 ("finish every call under 2 s") was meant to end, now with long names in
 * place of many stars. Storage needed: 200 KB per name.
 * Reproduction (Node):
 *   await fs.mkdir("/w");
 *   for (const i of [0, 1, 2, 3]) await fs.writeFile(`/w/${i}${"a".repeat(200_000)}b`, "x");
 *   await fs.find("/w", "*a" + "?".repeat(4000) + "b");   // ~8 s per file, synchronously
 * Suggested fix: bound the matcher's work per call (a step budget, e.g. 10^7, past which the call
 * fails with a clear error), or match `?` runs as fixed-width gaps and use a bit-parallel
 * (Shift-And) matcher, so the cost is not name × glob.
 *
 * Fixed: a segment's pieces between `*` runs are matched in place (prefix, suffix) or found by Shift-And,
 * ceil(piece / 32) word operations per code point of the name.
 *
 * The call runs in a worker thread (worker-run.ts) so the bounded wait can see the freeze.
 */
import { describe, expect, it } from "vitest";
import { runInWorker } from "./worker-run.js";

describe("attack13b: the linear glob matcher against 200,000-character names", () => {
  it("find with `*a` + 4,000 × `?` + `b` over four such files settles within 15 s", { timeout: 60_000 }, async () => {
    const run = await runInWorker(
      `const ws = new Workspace({ storage: nodeSqliteStorage() });
await ws.fs.mkdir("/w");
for (const i of [0, 1, 2, 3]) await ws.fs.writeFile("/w/" + i + "a".repeat(200_000) + "b", "x");
const found = await ws.fs.find("/w", "*a" + "?".repeat(4000) + "b").then((r) => r.length, (e) => String(e.message).slice(0, 80));
post({ found });`,
      15_000,
    );
    expect(run.settled).toBe(true);
    // Each name matches: an `a` 4,001 characters before the final `b`.
    expect(run.messages).toEqual([{ found: 4 }]);
  });

  it("find with a middle piece `*a` + 4,000 × `?` + `b*` (searched for, not anchored) settles with exact results", { timeout: 60_000 }, async () => {
    const run = await runInWorker(
      `const ws = new Workspace({ storage: nodeSqliteStorage() });
await ws.fs.mkdir("/w");
for (const i of [0, 1, 2]) await ws.fs.writeFile("/w/" + i + "a".repeat(200_000) + "b", "x");
await ws.fs.writeFile("/w/3" + "a".repeat(200_000), "x");
await ws.fs.writeFile("/w/4" + "a".repeat(10) + "b" + "a".repeat(3_999) + "b" + "a".repeat(10), "x");
const hits = (p) => ws.fs.find("/w", p).then((r) => r.map((e) => e.path.slice(3, 4)).sort().join(""), (e) => String(e.message).slice(0, 80));
post({ b: await hits("*a" + "?".repeat(4000) + "b*"), c: await hits("*a" + "?".repeat(4000) + "c*"), q: await hits("?".repeat(4011) + "b?*") });`,
      15_000,
    );
    expect(run.settled).toBe(true);
    // 0–2: an \`a\` 4,001 before the last \`b\`; 3: no \`b\`; 4: the \`a\` before the first \`b\` is 4,000 code points before the second.
    expect(run.messages).toEqual([{ b: "0124", c: "", q: "4" }]);
  });

  it("grep with include `*a` + 4,000 × `?` + `c` over four such files settles within 15 s", { timeout: 60_000 }, async () => {
    const run = await runInWorker(
      `const ws = new Workspace({ storage: nodeSqliteStorage() });
await ws.fs.mkdir("/w");
for (const i of [0, 1, 2, 3]) await ws.fs.writeFile("/w/" + i + "a".repeat(200_000), "x");
const found = await ws.fs.grep("x", "/w", { include: "*a" + "?".repeat(4000) + "c" }).then((r) => r.length, (e) => String(e.message).slice(0, 80));
post({ found });`,
      15_000,
    );
    expect(run.settled).toBe(true);
    expect(run.messages).toEqual([{ found: 0 }]);
  });
});
