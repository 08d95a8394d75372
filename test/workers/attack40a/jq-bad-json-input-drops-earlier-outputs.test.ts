/**
 * Fixed in run 40 by fixer f40jq: inputs parsed one value at a time (__jq.jsonValues), status 4 after the earlier outputs; a missing file is reported and the rest read (status 2).
 * Issue 20, run 40, attacker a: a JSON parse error in the input, or one missing file among several, throws away
 * every output jq would have printed for the documents before it, and the status is 5 instead of jq 1.6's.
 * Reproduction: with log.jsonl holding `{"a":1}`, `{"a":2}` and a truncated last line `{"a":`, `jq -c .a log.jsonl;
 * echo "status $?"` prints only `status 5` today (stderr `jq: parse error: Unexpected end of JSON input …`); jq 1.6
 * prints `1`, `2`, then `status 4` (stderr `parse error: Unfinished JSON term at EOF at line 4, column 0`).
 * `printf '1 2 x 3' | jq .` prints nothing, 5 (jq: `1`, `2`, status 4). `jq -c . two.json nope.json d.json`
 * prints nothing, 2 (jq: `1 2 3 {"n":3}` and status 2 — it reports the missing file and goes on).
 * Reference: Debian's jq 1.6 on this machine via `bash --norc --noprofile -c` in a temp dir; EXPECTED is its
 * stdout and status. (docs/runtime.md documents only that a failing input's own outputs are lost, not those
 * of the valid documents before it.)
 * Severity: medium — a JSON-lines log whose last line is being written, or a glob that includes one unreadable
 * file, yields no data at all.
 * Cause (likely): just-bash's jq command (src/shell/generated/jq.ts; scripts/gen-shell.mjs JQ_PATCHES) parses the
 * whole input (and reads every file) before evaluating anything, and maps a parse failure to status 5.
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

const FILES: Record<string, string> = {"log.jsonl":"{\"a\":1}\n{\"a\":2}\n{\"a\":\n","two.json":"1 2 3\n","d.json":"{\"n\":3}\n"};
// What jq 1.6 (/usr/bin/jq, Debian jq 1.6) prints for each command, run with `bash --norc --noprofile -c` (bash 5.2.15)
// in a temp dir holding FILES: stdout and the exit status, copied from that run.
const EXPECTED: Record<string, { stdout: string; exitCode: number }> = {
  "jq -c .a log.jsonl; echo \"status $?\"": {
    "stdout": "1\n2\nstatus 4\n",
    "exitCode": 0
  },
  "printf '1 2 x 3' | jq .; echo \"status $?\"": {
    "stdout": "1\n2\nstatus 4\n",
    "exitCode": 0
  },
  "echo '{' | jq .; echo \"status $?\"": {
    "stdout": "status 4\n",
    "exitCode": 0
  },
  "jq -c . two.json nope.json d.json; echo \"status $?\"": {
    "stdout": "1\n2\n3\n{\"n\":3}\nstatus 2\n",
    "exitCode": 0
  }
};

it("jq prints the documents before a parse error or a missing file and exits as jq 1.6", async () => {
  expect(await run(Object.keys(EXPECTED), FILES)).toEqual(EXPECTED);
}, 120_000);
