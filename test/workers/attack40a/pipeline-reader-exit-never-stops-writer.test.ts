/**
 * OPEN (run 40, not fixed yet): `it.fails` until pipeline stages run concurrently; the rows below are bash's.
 * Issue 20, run 40, attacker a: when the reader of a pipe stops early (`head`), the writer is never stopped (no
 * SIGPIPE): an endless writer runs until the command's time limit and everything is lost; a long finite one runs
 * to completion and can hit the output limit.
 * Reproduction: `f(){ while :; do echo y; done; }; f | head -n 3; echo "rc ${PIPESTATUS[*]}"` with timeoutMs 4000
 * ends today after 4 s with exit 124, `Execution timed out after 4000 ms` and no output; bash 5.2.15 prints `y y y`
 * (one a line) and `rc 141 0` at once, exit 0 (the writer dies of SIGPIPE, status 128+13). Likewise `while :; do
 * echo yyyyyyyy; done | head -c 100 | wc -c` (bash: `100`) and `seq 1 100000000 | head -n 1` (bash: `1`, `rc 141 0`;
 * here the seq runs into `seq: output size limit exceeded (16777216 bytes)`, status 126, or the time limit).
 * Reference: `bash --norc --noprofile -c SCRIPT` (GNU bash 5.2.15, coreutils 9.1) on this machine; the rows are its
 * stdout and status, copied from that run.
 * Severity: medium — `producer | head -n N` is how a script samples a stream; here it costs the whole time limit
 * (a wasted agent step and CPU) and returns nothing.
 * Cause (likely): just-bash runs a pipeline's stages one after another over a buffered string (the isolate's
 * pipeline handling in src/backends/worker-shell/isolate/pipeline-subshell.ts / just-bash's pipeline executor),
 * so a stage cannot see that its reader has gone; there is no early end for the writer.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

// Expected: bash 5.2.15, `bash --norc --noprofile -c SCRIPT` — stdout and exit status.
const ROWS: [string, string, number][] = [
  ['f(){ while :; do echo y; done; }; f | head -n 3; echo "rc ${PIPESTATUS[*]}"', "y\ny\ny\nrc 141 0\n", 0],
  ["while :; do echo yyyyyyyy; done | head -c 100 | wc -c", "100\n", 0],
  ['seq 1 100000000 | head -n 1; echo "rc ${PIPESTATUS[*]}"', "1\nrc 141 0\n", 0],
];

it.fails("a writer into a pipe whose reader has exited stops (SIGPIPE, status 141), as bash 5.2", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const rows: [string, string, number][] = [];
    for (const [script] of ROWS) {
      const r = await sh(ws, script, { cwd: "/workspace", timeoutMs: 4000 });
      rows.push([script, r.stdout, r.exitCode]);
    }
    return rows;
  });
  expect(out).toEqual(ROWS);
}, 60_000);
