/**
 * Fixed in run 40 by fixer f40jq: `@fmt "…\(x)…"` parses as a format string that formats each interpolated value.
 * Issue 20, run 40, attacker a: a format applied to a string literal (`@sh "…\(x)…"`, `@uri "…"`, `@csv`, `@html`,
 * `@json`, `@base64`, `@text`) is a syntax error, status 3.
 * Reproduction: `jq -rn '"a b" | @sh "rm -- \(.)"'` fails today with `jq: error: Unexpected token STRING at
 * position 12`, status 3; jq 1.6 prints `rm -- 'a b'`, status 0. Likewise `@uri "https://h/?q=\(.)"` (jq:
 * `https://h/?q=a%20b%26c`), `@html "<p>\(.a)</p>"` (`<p>&lt;x&gt;</p>`), `@csv`, `@base64`, `@json "v=\(.)"`.
 * Reference: Debian's jq 1.6 on this machine via `bash --norc --noprofile -c` in a temp dir; EXPECTED is its
 * stdout and status.
 * Severity: medium — `@sh "cmd \(.x)"` is the jq manual's way to build a safely quoted shell command line and
 * `@uri "…\(.q)"` to build a URL; every such program is refused.
 * Cause (likely): just-bash's jq parser (src/shell/generated/jq.ts; scripts/gen-shell.mjs JQ_PATCHES) reads
 * `@name` as a bare format and never a FORMAT STRING term whose interpolations are formatted with it.
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
  "jq -rn '\"a b\" | @sh \"rm -- \\(.)\"'": {
    "stdout": "rm -- 'a b'\n",
    "exitCode": 0
  },
  "jq -rn '[\"x y\", 1] | @sh \"cmd \\(.)\"'": {
    "stdout": "cmd 'x y' 1\n",
    "exitCode": 0
  },
  "jq -rn '\"a b&c\" | @uri \"https://h/?q=\\(.)\"'": {
    "stdout": "https://h/?q=a%20b%26c\n",
    "exitCode": 0
  },
  "jq -rn '{\"a\":\"<x>\"} | @html \"<p>\\(.a)</p>\"'": {
    "stdout": "<p>&lt;x&gt;</p>\n",
    "exitCode": 0
  },
  "jq -rn '[1,\"a\"] | @csv \"row: \\(.)\"'": {
    "stdout": "row: 1,\"a\"\n",
    "exitCode": 0
  },
  "jq -rn '\"hi\" | @base64 \"Basic \\(.)\"'": {
    "stdout": "Basic aGk=\n",
    "exitCode": 0
  },
  "jq -rn '\"<\" | @json \"v=\\(.)\"'": {
    "stdout": "v=\"<\"\n",
    "exitCode": 0
  },
  "jq -rn '@text \"a\\(1+1)b\"'": {
    "stdout": "a2b\n",
    "exitCode": 0
  }
};

it("jq's @format \"…\\(…)…\" strings format each interpolated value, as jq 1.6", async () => {
  expect(await run(Object.keys(EXPECTED), FILES)).toEqual(EXPECTED);
}, 120_000);
