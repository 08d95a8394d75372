/**
 * Fixed in run 40 by fixer f40jq: to_entries of arrays, add of objects, @base64/@uri/@html/@text of non-strings take their JSON text.
 * Issue 20, run 40, attacker a: several jq builtins answer `null` (status 0) for inputs jq 1.6 handles.
 * Reproduction: `jq -nc '[1,2] | to_entries'` prints `null` today; jq 1.6 prints
 * `[{"key":0,"value":1},{"key":1,"value":2}]`. `{"a":1,"b":2} | add` is `null` (jq: `3`; add sums the values of
 * an object as of an array); `{"a":"x","b":"y"} | add` `null` (jq `"xy"`); `{"a":1} | @html`, `@uri`, `@base64`
 * are `null` (jq formats the value's JSON text: `{&quot;a&quot;:1}`, `%7B%22a%22%3A1%7D`, `eyJhIjoxfQ==`);
 * `[1,[2]] | @text` is `1,2` (jq: `[1,[2]]`, @text is tostring).
 * Reference: Debian's jq 1.6 on this machine via `bash --norc --noprofile -c` in a temp dir; EXPECTED is its
 * stdout and status.
 * Severity: medium — silently wrong data, status 0 (`to_entries` over an array is how jq numbers items;
 * `@uri`/`@base64` of a structured value builds a URL or a header).
 * Cause (likely): just-bash's jq builtins (src/shell/generated/jq.ts; scripts/gen-shell.mjs JQ_PATCHES):
 * to_entries handles objects only, add arrays only, and @html/@uri/@base64/@text take strings only instead of
 * applying tostring first.
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
  "jq -nc '[1,2] | to_entries'": {
    "stdout": "[{\"key\":0,\"value\":1},{\"key\":1,\"value\":2}]\n",
    "exitCode": 0
  },
  "jq -nc '[\"a\",\"b\"] | to_entries | map(\"\\(.key)=\\(.value)\")'": {
    "stdout": "[\"0=a\",\"1=b\"]\n",
    "exitCode": 0
  },
  "jq -nc '{\"a\":1,\"b\":2} | add'": {
    "stdout": "3\n",
    "exitCode": 0
  },
  "jq -nc '{\"a\":\"x\",\"b\":\"y\"} | add'": {
    "stdout": "\"xy\"\n",
    "exitCode": 0
  },
  "jq -rn '{\"a\":1} | @html, @uri, @base64'": {
    "stdout": "{&quot;a&quot;:1}\n%7B%22a%22%3A1%7D\neyJhIjoxfQ==\n",
    "exitCode": 0
  },
  "jq -rn '[1,\"<\"] | @html'": {
    "stdout": "[1,&quot;&lt;&quot;]\n",
    "exitCode": 0
  },
  "jq -rn '[1,[2]] | @text'": {
    "stdout": "[1,[2]]\n",
    "exitCode": 0
  }
};

it("jq's to_entries of an array, add of an object and the @formats of arrays/objects give jq 1.6's values", async () => {
  expect(await run(Object.keys(EXPECTED), FILES)).toEqual(EXPECTED);
}, 120_000);
