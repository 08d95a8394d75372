/**
 * Issue 20, twenty-fifth attack run: `head`/`tail` read a count with a size suffix as its bare digits: `head -c 1k`
 * prints 1 byte (GNU coreutils 9.1: 1024), `head -c 2K` 2 (2048), `head -c 1KiB` 1 (1024), `head -n 1k` 1 line
 * (1024), `tail -n 1k` 1 line, `tail -c 2b` 2 bytes (1024: b is 512), `head -c 1kB` 1 (1000) — status 0 and no
 * message, so `head -c 1M big.bin > part` quietly writes one byte and a log tail shows one line.
 * Tried: head/tail -c/-n with k K KiB kB M b suffixes, negative and +N counts, -N short form.
 * Held: plain numbers, +N for tail, -3 short form; `head -c -2` / `head -n -1` are refused loudly
 * ("invalid number", not reported).
 * Found (medium — silently wrong amount of data, exit 0; 2 of 2 runs).
 * Suggested fix: parse counts as GNU's xdectoumax with the multipliers b=512, kB=1000, k/K/KiB=1024, MB=1000², M/MiB=
 * 1024², G…; refuse any other trailing text with `head: invalid number of bytes: ‘1x’`, status 1.
 * Fixed: head's and tail's option parser is __textTools.headTailOptions (src/backends/worker-shell/isolate/
 * text-tools.ts, SX): counts as xstrtoumax with GNU's suffixes (`k` alone is 1024), a bad count refused as GNU
 * (`head: invalid number of bytes: '1x'`, status 1; past 2^64-1 `: Value too large for defined data type`), head -n/-c
 * -N all but the last N, tail -c +N from byte N, the last of -n/-c wins, grouped short options. Siblings:
 * test/workers/fix25/shell-text-tools.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const lines = Array.from({ length: 3000 }, (_, i) => `${i + 1}\n`).join("");

it("head/tail counts take GNU's size suffixes", async () => {
  const out = await shellCases({ files: { "n.txt": lines } }, [
    "head -c 1k n.txt | wc -c",
    "head -c 2K n.txt | wc -c",
    "head -c 1KiB n.txt | wc -c",
    "head -c 1kB n.txt | wc -c",
    "head -n 1k n.txt | wc -l",
    "tail -n 1k n.txt | wc -l",
    "tail -c 2b n.txt | wc -c",
  ]);
  expect(out).toEqual([
    // Was: "1\n".
    ["head -c 1k n.txt | wc -c", "1024\n", ""],
    ["head -c 2K n.txt | wc -c", "2048\n", ""],
    ["head -c 1KiB n.txt | wc -c", "1024\n", ""],
    ["head -c 1kB n.txt | wc -c", "1000\n", ""],
    ["head -n 1k n.txt | wc -l", "1024\n", ""],
    ["tail -n 1k n.txt | wc -l", "1024\n", ""],
    ["tail -c 2b n.txt | wc -c", "1024\n", ""],
  ]);
});
