/**
 * Issue 20, run 37, fixer SH — sibling of test/workers/attack37d/sort-key-g-modifier-sorts-as-text.test.ts: sort's
 * general-numeric ordering `g` in keys (`-k2g`, `-k2,2gr`, `-t: -k2,2g`, `-k2gb,2`) and globally (`-g`,
 * `--general-numeric-sort`, `-gr`, `-gu`, `-c -g`), with what strtold reads (leading blanks, `+`, exponents,
 * hexadecimal floats, `inf`/`INFINITY`, `nan`/`-nan`, keys without a number first, `-0` = `0`, ties to the
 * last-resort comparison), and GNU's refusal of incompatible orderings (`-gn`, `-k2d,2g`, `-k2fgn`, a key inheriting
 * `-gh`). Each expected stdout/stderr/status is GNU sort 9.1's (coreutils 9.1, C.UTF-8) on this machine for the same
 * script; the `R`/`i` orderings, which this shell does not implement, are refused (status 2), never sorted as text.
 */
import { describe, expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

async function run(script: string) {
  const r = await inShellWorkspace((ws) => sh(ws, script, { cwd: "/workspace" }));
  return [r.stdout, r.stderr, r.exitCode];
}

describe("sort", () => {
  it("-k2g: blanks, hex, inf, nan, non-numbers, exponents", async () => {
    expect(await run("printf 'x 1e3\\nx 0x10\\nx -inf\\nx inf\\nx nan\\nx -nan\\nx abc\\nx \\nx 1e\\nx .5\\nx -0\\nx 0\\nx +2\\nx  3\\nx 0x1p3\\nx 1,5\\nx 2.5e-1\\nx INFINITY\\nx 10\\nx 9\\n' > g.txt; sort -k2g g.txt; echo ---; sort -k2,2gr g.txt; echo ---; sort -s -k2g g.txt")).toEqual(["x \nx abc\nx nan\nx -nan\nx -inf\nx -0\nx 0\nx 2.5e-1\nx .5\nx 1,5\nx 1e\nx +2\nx  3\nx 0x1p3\nx 9\nx 10\nx 0x10\nx 1e3\nx INFINITY\nx inf\n---\nx INFINITY\nx inf\nx 1e3\nx 0x10\nx 10\nx 9\nx 0x1p3\nx  3\nx +2\nx 1,5\nx 1e\nx .5\nx 2.5e-1\nx -0\nx 0\nx -inf\nx -nan\nx nan\nx \nx abc\n---\nx abc\nx \nx nan\nx -nan\nx -inf\nx -0\nx 0\nx 2.5e-1\nx .5\nx 1e\nx 1,5\nx +2\nx  3\nx 0x1p3\nx 9\nx 10\nx 0x10\nx 1e3\nx inf\nx INFINITY\n", "", 0]);
  });
  it("-t: -k2,2g, -g -k2 inherits, -k2gb", async () => {
    expect(await run("printf 'a:1e2:x\\nb:-3:y\\nc:7.5:z\\nd::w\\n' > c.txt; sort -t: -k2,2g c.txt; echo ---; sort -g -t: -k2 c.txt; echo ---; sort -t: -k2gb,2 c.txt")).toEqual(["d::w\nb:-3:y\nc:7.5:z\na:1e2:x\n---\nd::w\nb:-3:y\nc:7.5:z\na:1e2:x\n---\nd::w\nb:-3:y\nc:7.5:z\na:1e2:x\n", "", 0]);
  });
  it("global -g, --general-numeric-sort, -gr, -gu, -g -c", async () => {
    expect(await run("printf '10\\n9\\n1e1\\n-2.5\\n0x1A\\n' > n.txt; sort -g n.txt; echo ---; sort --general-numeric-sort n.txt; echo ---; sort -gr n.txt; echo ---; sort -gu n.txt; echo ---; sort -g n.txt | sort -c -g; echo c=$?; sort -c -g n.txt; echo c=$?")).toEqual(["-2.5\n9\n10\n1e1\n0x1A\n---\n-2.5\n9\n10\n1e1\n0x1A\n---\n0x1A\n1e1\n10\n9\n-2.5\n---\n-2.5\n9\n10\n0x1A\n---\nc=0\nc=1\n", "sort: n.txt:2: disorder: 9\n", 0]);
  });
  it("options after POS1 count (-k2n,2, -k2gr,2, -k2Vr,3)", async () => {
    expect(await run("printf 'a 10\\nb 9\\nc 1e1\\nd 9.5\\n' > p.txt; sort -k2n,2 p.txt; echo ---; sort -k2gr,2 p.txt; echo ---; sort -k2Vr,3 p.txt")).toEqual(["c 1e1\nb 9\nd 9.5\na 10\n---\na 10\nc 1e1\nd 9.5\nb 9\n---\na 10\nd 9.5\nb 9\nc 1e1\n", "", 0]);
  });
  it("incompatible orderings", async () => {
    expect(await run("echo 'a 1' > i.txt; sort -k2,2gn i.txt; echo s=$?; sort -gn i.txt; echo s=$?; sort -k2d,2g i.txt; echo s=$?; sort -k2fgn i.txt; echo s=$?; sort -gn -k2,2n i.txt; echo s=$?; sort -gh -k2 i.txt; echo s=$?")).toEqual(["s=2\ns=2\ns=2\ns=2\na 1\ns=0\ns=2\n", "sort: options '-gn' are incompatible\nsort: options '-gn' are incompatible\nsort: options '-dg' are incompatible\nsort: options '-fgn' are incompatible\nsort: options '-gh' are incompatible\n", 0]);
  });
  it("R and i orderings are refused, not sorted as text (not implemented here)", async () => {
    expect(await run("printf 'b 2\\na 1\\n' > r.txt; sort -k2R r.txt; echo s=$?; sort -k1,1i r.txt; echo s=$?")).toEqual(["s=2\ns=2\n", "sort: ordering option 'R' (random sort) is not supported\nsort: ordering option 'i' (ignore nonprinting) is not supported\n", 0]);
  });
});
