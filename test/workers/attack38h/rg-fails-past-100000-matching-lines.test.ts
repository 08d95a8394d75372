/**
 * Issue 20, thirty-eighth attack run: the shell's `rg` stops with `bash: search: matching work limit exceeded
 * (100000)`, status 126, on a file of just over 100,000 lines (110,000 lines `x0`…`x109999`, 0.9 MB), and past
 * 1,000,000 lines with `bash: search: line limit exceeded (1000000)`: its search gets maxLoopIterations (the
 * 100,000-iteration bound of shell loops) as its work limit and charges one unit per matching or inverted line, so
 * `rg -c x f`, `rg x f | wc -l`, `rg -n`, `rg -v -c` all fail and the whole script stops. docs/runtime.md "Limits"
 * says lines of input are not iterations (bounded by 64 MiB and maxOutputBytes) and names no rg bound; ripgrep
 * counts 110000 (grep -c here does: 110000).
 * Tried: rg -c, rg | wc -l, rg -v -c, rg -n at 90,000, 110,000 and 1,100,000 lines; grep, awk and sed on the same
 * files.
 * Held: 90,000 lines → 90000 for every form; grep/awk/sed at 110,000 → 110000.
 * Found (medium — an agent searching a log of a few MB with rg gets status 126 and no answer, and the rest of its
 * script is lost; 1 of 1 runs, deterministic): 110,000 lines → exit 126, `bash: search: matching work limit exceeded
 * (100000)`; 1,100,000 lines → 126, `bash: search: line limit exceeded (1000000)`.
 * Suggested fix: scripts/gen-shell.mjs: patch just-bash's rg (chunk with `maxWork: t.limits.maxLoopIterations`,
 * `maxMatches: maxArrayElements`) so lines and matches are bounded by the input's 64 MiB and maxOutputBytes, not by
 * the loop-iteration and array-element limits.
 *
 * Fixed: scripts/gen-shell.mjs patches just-bash's search engine (rg's) so its work bound
 * (searchWorkBound: maxLoopIterations + 8 units per character) and its line/match/result bound (searchItemBound:
 * at least 2 × (characters + 1)) grow with the input (src/backends/worker-shell/isolate/grep-gnu.ts) (issue 20, run 38, fixer SG2). Siblings: test/workers/fix38/shell-grep-rg-scale.test.ts.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const pick = (r: { stdout: string; stderr: string; exitCode: number }) => ({ stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode });

it("rg counts a 110,000-line file", async () => {
  await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const parts: string[] = [];
    for (let i = 0; i < 110_000; i++) parts.push(`x${i}\n`);
    await ws.fs.writeFile("/workspace/f", parts.join(""));
    const count = await sh(ws, "rg -c x f", { cwd: "/workspace", timeoutMs: 120_000 });
    const piped = await sh(ws, "rg x f | wc -l; echo after", { cwd: "/workspace", timeoutMs: 120_000 });
    expect({ count: pick(count), piped: pick(piped) }).toEqual({
      // Was: { stdout: "", stderr: "bash: search: matching work limit exceeded (100000)\n", exitCode: 126 }
      count: { stdout: "110000\n", stderr: "", exitCode: 0 },
      // Was: { stdout: "", stderr: "bash: search: matching work limit exceeded (100000)\n", exitCode: 126 }
      piped: { stdout: "110000\nafter\n", stderr: "", exitCode: 0 },
    });
  });
}, 300_000);
