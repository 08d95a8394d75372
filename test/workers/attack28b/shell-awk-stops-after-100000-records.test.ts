/**
 * Issue 20, twenty-eighth attack run: the shell's awk stops at the 100,001st input record — `awk: record limit
 * exceeded (100000)`, status 126 — and its `END` block never runs, so `awk '{s+=$2} END{print s}' big.log` on a file
 * of 150,000 lines prints nothing, and in a pipeline (`awk '{print $1}' f | wc -l`) the next command silently gets
 * only the first 100,000 lines' output and the pipeline exits 0. gawk 5.2 and mawk 1.3.4 read any
 * number of records. The limit is just-bash's `maxIterations` reused as a record count; docs/runtime.md names no such
 * bound (its limits are 100,000 commands and loop iterations), and sed, grep, sort, cut, tr and wc read the same file
 * whole.
 * Tried: a 320,000-line and a 150,000-line file through `awk '{s+=$2} END{print s, NR}'`, `awk '{print $1}' | sort
 * -n | tail -1`, `awk 'NR==150000'`, a `getline` loop in BEGIN, and `sort -u`, `uniq`, `grep -c`, `sed -n '$='`,
 * `cut`, `tr` on the same file, against gawk 5.2.1 and mawk 1.3.4.
 * Held: sed, grep, sort, uniq, cut, tr and wc on 320,000 lines; awk on 100,000 lines.
 * Found (high — `awk '{s+=$2} END{print s}'` over a log or CSV of more than 100,000 lines, one of the commonest agent
 * one-liners, prints nothing, and piped on it silently computes over a truncated input with status 0; 2 of 2 runs).
 * Suggested fix: in just-bash's awk `executeLine` (patched by scripts/gen-shell.mjs) do not count records against
 * `maxIterations`: the input is already bounded by the shell's 64 MiB read bound and the run by its timeout; if a
 * bound is kept, make it far larger than any file the shell can read and document it in docs/runtime.md's Limits.
 *
 * Fixed: awk's records no longer count against `maxAwkIterations` (nor join's lines, seq's numbers, strings'
 * strings against `maxLoopIterations`): scripts/gen-shell.mjs LM_PATCHES; awk's own for/while/do loops keep the
 * documented 100,000-iteration cap (test/workers/fix28/input-limits.test.ts).
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("awk reads every record of a 150,000-line file, as gawk and mawk", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    let text = "";
    for (let i = 1; i <= 150_000; i++) text += `${i} 2\n`;
    await ws.fs.writeFile("/workspace/t", text);
    const results = [];
    for (const command of ["awk '{s+=$2} END{print s, NR}' t", "awk '{print $1}' t | wc -l", "awk 'NR==150000' t"]) {
      const r = await sh(ws, command, { cwd: "/workspace" });
      results.push([command, r.exitCode, r.stdout, r.stderr]);
    }
    return results;
  });
  expect(out).toEqual([
    // Was: 126, "", "awk: record limit exceeded (100000)\n".
    ["awk '{s+=$2} END{print s, NR}' t", 0, "300000 150000\n", ""],
    // Was: 0, "100000\n", "awk: record limit exceeded (100000)\n".
    ["awk '{print $1}' t | wc -l", 0, "150000\n", ""],
    // Was: 126, "", "awk: record limit exceeded (100000)\n".
    ["awk 'NR==150000' t", 0, "150000 2\n", ""],
  ]);
});
