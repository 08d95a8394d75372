/**
 * Fixed in run 40 by fixer f40jq: __jq.compileCheck after parsing: undefined `$x` and jq 1.6 builtins at another arity are compile errors, status 3.
 * Issue 20, run 40, attacker a: jq programs that jq 1.6 refuses at compile time (status 3) run and succeed: an
 * undefined `$variable` is null, and a builtin called with the wrong number of arguments runs anyway.
 * Reproduction: `jq -nc '[1] | map(.+$delta)'; echo "status $?"` prints `[1]` / `status 0` today (a typo'd or
 * forgotten `--arg delta`, silently null); jq 1.6: `jq: error: $delta is not defined …`, `status 3`. `jq -nc '$nope'`
 * prints `null`, 0; `[1,2] | map` prints `null`, `select` `null`, `"x" | test` `false`, `[1,2] | join` `"12"`,
 * `map(.;.)` `[1,2]`, `ltrimstr` `null`, all status 0 (jq 1.6: `map/0 is not defined`, … status 3, no output).
 * Reference: Debian's jq 1.6 on this machine, `bash --norc --noprofile -c` in a temp dir; EXPECTED is its stdout
 * and status. (The documented differences in docs/runtime.md — positions `<unknown>`, `-0` — are not involved.)
 * Severity: medium — a script that forgets `--arg`/`--argjson` or misspells a variable gets null data and status 0
 * instead of jq's refusal; `jq … || fail` never fires.
 * Cause (likely): just-bash's jq evaluator (src/shell/generated/jq.ts; scripts/gen-shell.mjs JQ_PATCHES) looks a
 * variable up at run time with null as the default and resolves builtins by name only, not name/arity.
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
  "jq -nc '$nope'; echo \"status $?\"": {
    "stdout": "status 3\n",
    "exitCode": 0
  },
  "jq -nc '[1] | map(.+$delta)'; echo \"status $?\"": {
    "stdout": "status 3\n",
    "exitCode": 0
  },
  "jq -nc --arg x 1 '$x, $y'; echo \"status $?\"": {
    "stdout": "status 3\n",
    "exitCode": 0
  },
  "jq -nc '[1,2] | map'; echo \"status $?\"": {
    "stdout": "status 3\n",
    "exitCode": 0
  },
  "jq -nc '[1,2] | map(.;.)'; echo \"status $?\"": {
    "stdout": "status 3\n",
    "exitCode": 0
  },
  "jq -nc 'select'; echo \"status $?\"": {
    "stdout": "status 3\n",
    "exitCode": 0
  },
  "jq -nc '\"x\" | test'; echo \"status $?\"": {
    "stdout": "status 3\n",
    "exitCode": 0
  },
  "jq -nc '[1,2] | join'; echo \"status $?\"": {
    "stdout": "status 3\n",
    "exitCode": 0
  },
  "jq -nc '\"abc\" | ltrimstr'; echo \"status $?\"": {
    "stdout": "status 3\n",
    "exitCode": 0
  }
};

it("jq refuses an undefined $variable and a builtin called with the wrong number of arguments (status 3), as jq 1.6", async () => {
  expect(await run(Object.keys(EXPECTED), FILES)).toEqual(EXPECTED);
}, 120_000);
