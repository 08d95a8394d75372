/**
 * Fixed in run 40 by fixer f40jq: sub/gsub evaluate the replacement on the named-captures object (__jq.substitute).
 * Issue 20, run 40, attacker a: `sub`/`gsub` run their replacement on a string, not on the object of named
 * captures, so any replacement that uses a capture fails.
 * Reproduction: `jq -nc '"2023-01-15" | sub("(?<y>\\d+)-(?<m>\\d+)-(?<d>\\d+)"; "\(.d)/\(.m)/\(.y)")'` fails
 * today with `jq: error (at <unknown>): Cannot index string with string "d"`, status 5; jq 1.6 prints
 * `"15/01/2023"`, status 0. Same for `gsub("(?<n>[0-9])"; "<\(.n)>")` (jq: `"a<1>b<2>"`).
 * Reference: Debian's jq 1.6 on this machine via `bash --norc --noprofile -c` in a temp dir; EXPECTED is its
 * stdout and status.
 * Severity: medium — named captures are jq's only way to reuse matched text in a replacement (it has no `\1`).
 * Cause (likely): just-bash's jq sub/gsub builtin (src/shell/generated/jq.ts; scripts/gen-shell.mjs JQ_PATCHES)
 * evaluates the replacement with `.` = the input string instead of the capture object `{name: text}`.
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
  "jq -nc '\"abc\" | sub(\"(?<x>b)\"; \"[\\(.x)]\")'": {
    "stdout": "\"a[b]c\"\n",
    "exitCode": 0
  },
  "jq -nc '\"2023-01-15\" | sub(\"(?<y>\\\\d+)-(?<m>\\\\d+)-(?<d>\\\\d+)\"; \"\\(.d)/\\(.m)/\\(.y)\")'": {
    "stdout": "\"15/01/2023\"\n",
    "exitCode": 0
  },
  "jq -nc '\"a1b2\" | gsub(\"(?<n>[0-9])\"; \"<\\(.n)>\")'": {
    "stdout": "\"a<1>b<2>\"\n",
    "exitCode": 0
  },
  "jq -nc '\"aBc\" | gsub(\"(?<l>[a-z])\"; \"\\(.l|ascii_upcase)\")'": {
    "stdout": "\"ABC\"\n",
    "exitCode": 0
  },
  "jq -nc '\"foo bar\" | gsub(\"\\\\s\"; \"_\")'": {
    "stdout": "\"foo_bar\"\n",
    "exitCode": 0
  }
};

it("jq's sub/gsub replacement sees the named captures as an object, as jq 1.6", async () => {
  expect(await run(Object.keys(EXPECTED), FILES)).toEqual(EXPECTED);
}, 120_000);
