/**
 * Issue 20, thirty-ninth attack run: jq drops the backslash of a `\uXXXX` escape in a string literal of the
 * program and keeps the letters: `jq -n '"\u00e9"'` prints `"u00e9"` (jq 1.6: `"é"`), `jq -rn '"caf\u00e9"'` prints
 * `cafu00e9`, `"tab\u0009end"` is `tabu0009end`, a surrogate pair `"\ud83d\ude00"` is `"ud83dude00"`, and
 * `jq -c '.name = "Jos\u00e9"' <<< '{}'` writes `{"name":"Josu00e9"}`, exit 0 each time. Escapes in the JSON input
 * are decoded; only the program's own string literals are wrong (other escapes there — `\t`, `\\`, `\"` — hold).
 * Tried: about 600 commands compared byte for byte (stdout and exit status) with GNU coreutils 9.1 / grep 3.8 / sed
 * 4.9 / gawk 5.2 / diffutils / jq 1.6 on this machine, over binary bytes, NUL bytes, CRLF, no final newline, empty
 * files, Latin-1 and multibyte UTF-8: od/head -c/tail -c on binary, wc, cut, tr, sort (-n -g -h -k -t -u -s -f -c
 * -b -d -V -M), uniq (-c -d -u -i -f -s -w -D), sed (-s, -i on a link, -i.bak, s///Ng, \U\L\u, y, N;P;D, c/i/a,
 * ranges, 0~2), awk (FS/RS/NF, printf, getline, substr, split), xargs (-0 -n -I -L -d -E -s -r), find (-print0
 * -exec {} + and \; statuses, -prune, -regex, -delete), diff, comm, join, paste, split, base64, sha*sum, tee,
 * printf, seq, fold, rev, tac, nl, column, and jq (about 250 programs).
 * Held: every coreutils/grep/sed/awk byte result and status above matched GNU, but for locale choices (cut -c,
 * tr and printf %5s count characters, not bytes), refused options (sort -z/-m, sed -z, diff -y, cut -b), which fail
 * loudly, and two small divergences (wc -w on binary counts 9 words where GNU counts 11; fold -s -w5 breaks
 * `brown` after ` quick`).
 * Found (medium — a jq program that builds or compares text with `\u` escapes silently writes wrong bytes into a
 * file or a comparison fails; 1 of 1 runs, deterministic): the outputs above.
 * Suggested fix: the jq lexer (just-bash's, bundled by scripts/gen-shell.mjs into src/shell/generated/jq.ts): decode
 * `\uXXXX` (and a `\uD8xx\uDCxx` pair) in string tokens as JSON does; patch it in gen-shell.mjs as the other
 * just-bash patches.
 * Fixed: the jq lexer decodes `\uXXXX` (a surrogate pair as two units), `\b` and `\f` in string tokens — JQ_PATCHES in scripts/gen-shell.mjs (issue 20, run 39, fixer JQ). Siblings: test/workers/fix39/shell-jq-vs-jq.test.ts.
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
// What jq 1.6 (/usr/bin/jq here) prints for each command, with bash 5.2.
const EXPECTED: Record<string, { stdout: string; exitCode: number }> = {
  "jq -n '\"\\u00e9\"'": {
    "stdout": "\"é\"\n",
    "exitCode": 0
  },
  "jq -rn '\"caf\\u00e9\"'": {
    "stdout": "café\n",
    "exitCode": 0
  },
  "jq -rn '\"tab\\u0009end\"'": {
    "stdout": "tab\tend\n",
    "exitCode": 0
  },
  "jq -n '\"\\ud83d\\ude00\"'": {
    "stdout": "\"😀\"\n",
    "exitCode": 0
  },
  "jq -c '.name = \"Jos\\u00e9\"' <<< '{}'": {
    "stdout": "{\"name\":\"José\"}\n",
    "exitCode": 0
  }
};

it("jq decodes \\\\uXXXX escapes in the program's strings as jq 1.6 does", async () => {
  expect(await run(Object.keys(EXPECTED), FILES)).toEqual(EXPECTED);
}, 120_000);
