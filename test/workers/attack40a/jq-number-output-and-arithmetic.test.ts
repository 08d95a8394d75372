/**
 * OPEN (run 40, not fixed yet): `it.fails` until the engine is fixed; the assertions below are jq 1.6's output.
 * Issue 20, run 40, attacker a: jq numbers are written and computed as JavaScript does, not as jq 1.6 (C's
 * `%.17g`, `round()`, integer `%`).
 * Reproduction: `jq -c . <<< '[1e17, 1.5e-7, 1e-5, 1e16, 100000000000000000000]'` prints
 * `[100000000000000000,1.5e-7,0.00001,10000000000000000,100000000000000000000]` today; jq 1.6 prints
 * `[1e+17,1.5e-07,1e-05,1e+16,1e+20]`. `[1.5,-1.5,2.5,-2.5,0.5,-0.5] | map(round)` is `[2,-1,3,-2,1,0]` (jq: halves away
 * from zero, `[2,-2,3,-3,1,-1]`); `5.5 % 2, -5.5 % 2, 5 % 1.5` are `1.5 -1.5 0.5` (jq 1.6 truncates both operands
 * to integers: `1 -1 0`); `-0` is `0` (jq `-0`); `1e1000` and `infinite` are `null` (jq `1.7976931348623157e+308`).
 * Reference: Debian's jq 1.6 on this machine via `bash --norc --noprofile -c` in a temp dir; EXPECTED is its
 * stdout and status.
 * Severity: low/medium — silently different numbers (a rounded negative total, a remainder) and text that a
 * diff or `grep` against jq's output does not match.
 * Cause (likely): just-bash's jq output (JSON.stringify of doubles) and its round/`%` builtins
 * (src/shell/generated/jq.ts; scripts/gen-shell.mjs JQ_PATCHES).
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";
import jq from "../../../src/shell/jq.js";

async function run(cases: readonly string[], files: Record<string, string> = {}) {
  return inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    for (const [name, text] of Object.entries(files)) await ws.fs.writeFile(`/workspace/${name}`, text);
    const out: Record<string, { stdout: string; exitCode: number }> = {};
    for (const c of cases) {
      const r = await sh(ws, c, { cwd: "/workspace" });
      out[c] = { stdout: r.stdout, exitCode: r.exitCode };
    }
    return out;
  }, { shell: { commands: [jq] } });
}

const FILES: Record<string, string> = {};
// What jq 1.6 (/usr/bin/jq, Debian jq 1.6) prints for each command, run with `bash --norc --noprofile -c` (bash 5.2.15)
// in a temp dir holding FILES: stdout and the exit status, copied from that run.
const EXPECTED: Record<string, { stdout: string; exitCode: number }> = {
  "jq -c . <<< '[1e17, 1.5e-7, 1e-5, 1e16, 100000000000000000000]'": {
    "stdout": "[1e+17,1.5e-07,1e-05,1e+16,1e+20]\n",
    "exitCode": 0
  },
  "jq -nc '1e17, 0.00001234, 123456789012'": {
    "stdout": "1e+17\n1.234e-05\n123456789012\n",
    "exitCode": 0
  },
  "jq -nc '[1.5, -1.5, 2.5, -2.5, 0.5, -0.5] | map(round)'": {
    "stdout": "[2,-2,3,-3,1,-1]\n",
    "exitCode": 0
  },
  "jq -nc '5.5 % 2, -5.5 % 2, 5 % 1.5'": {
    "stdout": "1\n-1\n0\n",
    "exitCode": 0
  },
  "jq . <<< '-0'": {
    "stdout": "-0\n",
    "exitCode": 0
  },
  "jq -c . <<< '[1e1000]'": {
    "stdout": "[1.7976931348623157e+308]\n",
    "exitCode": 0
  },
  "jq -nc '[infinite, -infinite]'": {
    "stdout": "[1.7976931348623157e+308,-1.7976931348623157e+308]\n",
    "exitCode": 0
  }
};

it.fails("jq writes numbers and computes round and % as jq 1.6", async () => {
  expect(await run(Object.keys(EXPECTED), FILES)).toEqual(EXPECTED);
}, 120_000);
