/**
 * OPEN (run 40, not fixed yet): `it.fails` until the engine is fixed; the assertions below are jq 1.6's output.
 * Issue 20, run 40, attacker a: jq 1.6 builtins are missing: `input`, `inputs`, `input_filename`, `halt`,
 * `halt_error` fail `jq: error: Unknown function: …`, status 3, and `$__loc__` is null.
 * Reproduction: `jq -Rn '[inputs]' -c lines.txt` (read a text file's lines into an array) fails today with
 * `jq: error: Unknown function: inputs`, status 3; jq 1.6 prints `["a","b","c"]`. Also `jq -n 'reduce inputs as
 * $x (0; . + $x)' two.json` (jq: `6`), `jq -n 'input' two.json` (jq: `1`), `jq -c 'input_filename' d.json` (jq:
 * `"d.json"`), `jq -n '"oops\n" | halt_error'` (jq: `oops` on stderr, status 5), `halt_error(3)` (status 3),
 * `jq -n halt` (status 0, no output), `jq -nc '$__loc__'` prints `null` (jq: `{"file":"<top-level>","line":1}`).
 * Reference: Debian's jq 1.6 on this machine via `bash --norc --noprofile -c` in a temp dir; EXPECTED is its
 * stdout and status.
 * Severity: medium — `jq -n '[inputs]'`, `jq -Rn '[inputs]'` and `reduce inputs` are the idioms for streaming
 * or slurping inputs, and `halt_error` is how a jq program sets the exit status; each is refused (loudly).
 * Cause (likely): just-bash's jq (src/shell/generated/jq.ts, scripts/gen-shell.mjs JQ_PATCHES) evaluates each
 * input apart with no access to the input stream, and has no halt/halt_error/input_filename/$__loc__.
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

const FILES: Record<string, string> = {"two.json":"1 2 3\n","lines.txt":"a\nb\nc\n","d.json":"{\"n\":3}\n"};
// What jq 1.6 (/usr/bin/jq, Debian jq 1.6) prints for each command, run with `bash --norc --noprofile -c` (bash 5.2.15)
// in a temp dir holding FILES: stdout and the exit status, copied from that run.
const EXPECTED: Record<string, { stdout: string; exitCode: number }> = {
  "jq -Rn '[inputs]' -c lines.txt": {
    "stdout": "[\"a\",\"b\",\"c\"]\n",
    "exitCode": 0
  },
  "jq -R -n 'reduce inputs as $l (0; . + 1)' lines.txt": {
    "stdout": "3\n",
    "exitCode": 0
  },
  "jq -n 'reduce inputs as $x (0; . + $x)' two.json": {
    "stdout": "6\n",
    "exitCode": 0
  },
  "jq -c -n '[inputs]' two.json d.json": {
    "stdout": "[1,2,3,{\"n\":3}]\n",
    "exitCode": 0
  },
  "jq -n 'input' two.json": {
    "stdout": "1\n",
    "exitCode": 0
  },
  "jq -c '[., input]' <<< '1 2 3 4'": {
    "stdout": "[1,2]\n[3,4]\n",
    "exitCode": 0
  },
  "jq -c 'input_filename' d.json": {
    "stdout": "\"d.json\"\n",
    "exitCode": 0
  },
  "jq -nc '$__loc__'": {
    "stdout": "{\"file\":\"<top-level>\",\"line\":1}\n",
    "exitCode": 0
  },
  "jq -nc 'halt'; echo \"status $?\"": {
    "stdout": "status 0\n",
    "exitCode": 0
  },
  "jq -nc '\"oops\\n\" | halt_error'; echo \"status $?\"": {
    "stdout": "status 5\n",
    "exitCode": 0
  },
  "jq -nc '\"bye\\n\" | halt_error(3)'; echo \"status $?\"": {
    "stdout": "status 3\n",
    "exitCode": 0
  }
};

it.fails("jq has input, inputs, input_filename, $__loc__, halt and halt_error, as jq 1.6", async () => {
  expect(await run(Object.keys(EXPECTED), FILES)).toEqual(EXPECTED);
}, 120_000);
