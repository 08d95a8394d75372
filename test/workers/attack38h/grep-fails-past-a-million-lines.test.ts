/**
 * Issue 20, thirty-eighth attack run: the shell's `grep` gives up on a file of more than 1,000,000 lines, far below
 * the 64 MiB read bound: `grep -c x f` on 1,100,000 short lines (8.6 MB) prints nothing, `grep: f: matching work
 * limit exceeded (1000000)` and exits 2, and in a pipeline (`grep x f | wc -l`) the script goes on with `0` and
 * status 0. docs/runtime.md "Limits" says lines of input are not iterations (bounded by the 64 MiB read bound and
 * maxOutputBytes) and names no grep bound; GNU grep 3.8 counts 1100000 (exit 0).
 * Tried: files of 50k…400k lines (1.7–14 MB) with grep -c/-n/-v/-F/-E/-i/-o/-w, grep -r over 2,000 files, sed s///g,
 * -n p, ranges, `$!N`, -i, awk sums and arrays, sort -n/-k/-u, uniq -c, cut, tr, wc, head/tail, md5sum/sha256sum,
 * base64 round trip, gzip/gunzip, tar, xargs; each output compared by md5 with GNU on the same data here; 1.1M lines
 * for grep, rg, awk and sed.
 * Held: every output above matched GNU at every size; times grew linearly (≤ ~2.2× per doubling); awk and sed read the
 * 1.1M-line file whole (1100000).
 * Found (medium — an agent counting or filtering a large log gets an error, or in a pipeline a silent 0 it acts on;
 * 1 of 1 runs, deterministic): 90,000 and 110,000 lines → 90000/110000; 1,100,000 lines → exit 2, `grep: f:
 * matching work limit exceeded (1000000)`; `grep x f | wc -l` → `0`, status 0; `grep -v -c y f` and `grep -o x f`
 * the same; `grep -o "key[0-9]*"` (one match a line) already fails at 400,000 lines (14 MB): `0`, same message.
 * Suggested fix: scripts/gen-shell.mjs (patch SG) passes grep's search a maxWork of 10 × maxLoopIterations
 * (1,000,000) that src/backends/worker-shell/isolate/grep-gnu.ts `search` charges once per line; charge lines against
 * the input's byte bound (or not at all: the input is already capped at 64 MiB) and keep the work limit for
 * backtracking only, as awk and sed do.
 *
 * Fixed: grep's search (src/backends/worker-shell/isolate/grep-gnu.ts) bounds its work by
 * searchWorkBound: the base (1,000,000) plus 8 units per character of the input, so lines and matches are bounded by
 * the 64 MiB read bound, not by a fixed count (issue 20, run 38, fixer SG2). Siblings: test/workers/fix38/shell-grep-rg-scale.test.ts.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const pick = (r: { stdout: string; stderr: string; exitCode: number }) => ({ stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode });

it("grep counts and filters a 1,100,000-line file as GNU grep does", async () => {
  await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const parts: string[] = [];
    for (let i = 0; i < 1_100_000; i++) parts.push(`x${i}\n`);
    await ws.fs.writeFile("/workspace/f", parts.join(""));
    const count = await sh(ws, "grep -c x f", { cwd: "/workspace", timeoutMs: 240_000 });
    const piped = await sh(ws, "grep x f | wc -l", { cwd: "/workspace", timeoutMs: 240_000 });
    expect({ count: pick(count), piped: pick(piped) }).toEqual({
      // Was: { stdout: "", stderr: "grep: f: matching work limit exceeded (1000000)\n", exitCode: 2 }
      count: { stdout: "1100000\n", stderr: "", exitCode: 0 },
      // Was: { stdout: "0\n", stderr: "grep: f: matching work limit exceeded (1000000)\n", exitCode: 0 }
      piped: { stdout: "1100000\n", stderr: "", exitCode: 0 },
    });
  });
}, 600_000);
