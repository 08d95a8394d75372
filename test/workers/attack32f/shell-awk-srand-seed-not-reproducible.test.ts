/**
 * Issue 20, thirty-second attack run: awk's `srand(seed)` does not seed `rand()`: two runs with the same seed (or
 * `srand(1)` twice in one program) give different numbers, and `srand(x)` returns x (then a clock value) instead of
 * the previous seed, so a "reproducible" random sample or shuffle silently differs every run.
 * Tried: side by side with gawk 5.2.1 and mawk 1.3.4 (they agree on all of these): `srand(1); a=rand(); srand(1);
 * b=rand(); a==b`, the same seeded program run twice and its output compared with cmp, `srand(7); print srand(9);
 * print srand()`.
 * Held: rand() in [0,1), `int(rand()*100)` ranges, srand() with no argument accepted.
 * Found (medium — a seeded sample (`BEGIN{srand(42)} rand()<0.1`) or shuffle computes a different result on every
 * run with status 0, and the documented return value of srand is wrong; 2 of 2 runs).
 * Suggested fix: the awk interpreter's rand/srand (just-bash's awk chunk, patched in
 * src/backends/worker-shell/isolate/awk*.ts): keep a seeded PRNG (for example a 48-bit LCG or xorshift) in the awk
 * context, reset it on srand(seed), return the previous seed (0 before the first call), and seed srand() from the
 * time of day.
 *
 * Fixed: src/backends/worker-shell/isolate/awk-funcs.ts (patched in by scripts/gen-shell.mjs, AW32_PATCHES, fixer AW,
 * run 32): a seeded generator per awk run (mulberry32 of the seed), reset by `srand(seed)`, which returns the previous
 * seed — 1 before the first call, as gawk 5.2.1 (`gawk 'BEGIN{print srand(5)}'` prints 1; rand() before srand is the
 * srand(1) sequence); `srand()` seeds with the time of day in seconds. The numbers are not gawk's own sequence.
 * Siblings in test/workers/fix32/awk-power-funcs-rand.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("awk srand(seed) makes rand() reproducible and returns the previous seed", async () => {
  const same = `awk 'BEGIN { srand(42); for (i = 0; i < 3; i++) printf "%d ", int(rand() * 1000000); print "" }'`;
  const out = await shellCases({}, [
    `awk 'BEGIN { srand(1); a = rand(); srand(1); b = rand(); print (a == b) }'`,
    `${same} > a; ${same} > b; cmp -s a b && echo same || echo differ`,
    `awk 'BEGIN { srand(7); print srand(9); print srand() }'`,
  ]);
  expect(out).toEqual([
    // Was: "0\n"
    [`awk 'BEGIN { srand(1); a = rand(); srand(1); b = rand(); print (a == b) }'`, "1\n", ""],
    // Was: "differ\n"
    [`${same} > a; ${same} > b; cmp -s a b && echo same || echo differ`, "same\n", ""],
    // Was: "9\n<a clock value>\n"
    [`awk 'BEGIN { srand(7); print srand(9); print srand() }'`, "7\n9\n", ""],
  ]);
});
