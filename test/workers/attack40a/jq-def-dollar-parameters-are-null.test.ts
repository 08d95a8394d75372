/**
 * Fixed in run 40 by fixer f40jq: binds `$name` params per output of the argument and defines `name` (__jq.defContexts); a user def shadows a builtin.
 * Issue 20, run 40, attacker a: a jq function's `$name` parameter is never bound — it reads as null, or the call is
 * refused — so every `def f($x): …` program gives a wrong answer with status 0.
 * Reproduction: `jq -n 'def f($a): $a + 1; f(2)'` prints `1` today (the `$a` is null); jq 1.6 prints `3`.
 * `def f($a; $b): $a + $b; f(1; 2)` prints `null` (jq: `3`); `def f(a; $b): a + $b` `1`; `def f($a; b)` `2`;
 * `def f($a): a + $a; f(5)` fails `jq: error: Unknown function: a`, status 3 (jq: `10` — `$a` also defines `a`);
 * `def addvalue($f): map(. + $f); [[1,2],[10,20]] | addvalue(.[0])` (the jq manual's example) returns the input
 * unchanged (jq: `[[1,2,1,2],[10,20,1,2]]`); `def pick($k): {($k): .[$k]}; pick("a")` fails, status 5 (jq: `{"a":1}`).
 * Reference: Debian's jq 1.6 on this machine, each command run with `bash --norc --noprofile -c` in a temp dir;
 * the EXPECTED table is that run's stdout and status.
 * Severity: high — `def f($x)` is the documented way to write a jq function with a value parameter; the result is
 * silently wrong (null arithmetic), status 0.
 * Cause (likely): just-bash's jq parser/evaluator (bundled into src/shell/generated/jq.ts; patches in
 * scripts/gen-shell.mjs JQ_PATCHES): a `$name` in a def's parameter list is not bound as a variable when called.
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
  "jq -n 'def f($a): $a + 1; f(2)'": {
    "stdout": "3\n",
    "exitCode": 0
  },
  "jq -n 'def f($a; $b): $a + $b; f(1; 2)'": {
    "stdout": "3\n",
    "exitCode": 0
  },
  "jq -n 'def f(a; $b): a + $b; f(1; 2)'": {
    "stdout": "3\n",
    "exitCode": 0
  },
  "jq -n 'def f($a; b): $a + b; f(1; 2)'": {
    "stdout": "3\n",
    "exitCode": 0
  },
  "jq -n 'def f($a): a + $a; f(5)'": {
    "stdout": "10\n",
    "exitCode": 0
  },
  "jq -nc 'def addvalue($f): map(. + $f); [[1,2],[10,20]] | addvalue(.[0])'": {
    "stdout": "[[1,2,1,2],[10,20,1,2]]\n",
    "exitCode": 0
  },
  "jq -c 'def pick($k): {($k): .[$k]}; pick(\"a\")' <<< '{\"a\":1,\"b\":2}'": {
    "stdout": "{\"a\":1}\n",
    "exitCode": 0
  }
};

it("jq binds a def's $name parameters to their arguments, as jq 1.6", async () => {
  expect(await run(Object.keys(EXPECTED), FILES)).toEqual(EXPECTED);
}, 120_000);
