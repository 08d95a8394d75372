/**
 * Issue 20, thirty-ninth attack run: jq's type errors are swallowed: the expression gives `null` (or nothing) and jq
 * exits 0 with no message. With d.json `{"n":3,"s":"x","l":[1]}`: `jq '.n + "a"'` prints `null`, status 0 (jq 1.6:
 * `jq: error (at d.json:1): number (3) and string ("a") cannot be added`, status 5, no output); `jq '.s[0]'` prints
 * `null`, 0 (jq: `Cannot index string with number`, 5); `jq '.n[]'` prints nothing, 0 (jq: `Cannot iterate over
 * number (3)`, 5); `.l - {}` `null`, 0; and over `{"a":1}` `{"a":"z"}`, `jq '.a + 1'` prints `2` and `null`, 0 (jq: `2`,
 * then the error, 5).
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
 * Found (medium — a script or agent that checks jq's status (`jq … || fail`, `set -e`) takes a malformed input for a
 * good one and goes on with `null`; 1 of 1 runs, deterministic): the outputs above.
 * Suggested fix: jq's evaluator (src/shell/generated/jq.ts from just-bash, patched in scripts/gen-shell.mjs): throw
 * jq's error from `+ - * / %` on mismatched types, from `.[]` on a scalar and from indexing a string/number, instead
 * of returning null; the command then prints `jq: error (at FILE:N): …` and exits 5.
 * Fixed: `+ - * / %` on values jq cannot combine, `.[]` of a scalar, indexing a string/number/array by the wrong key type and `splits` of a non-string throw jq's message; the command runs each input apart (`__jq.run`), prints the outputs of the others, writes `jq: error (at <unknown>): …` and exits 5 — JQ_PATCHES in scripts/gen-shell.mjs, helpers in src/backends/worker-shell/isolate/jq-fixes.ts (issue 20, run 39, fixer JQ). Siblings: test/workers/fix39/shell-jq-vs-jq.test.ts.
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

const FILES: Record<string, string> = {"d.json": "{\"n\":3,\"s\":\"x\",\"l\":[1]}\n", "lines.json": "{\"a\":1}\n{\"a\":\"z\"}\n"};
// What jq 1.6 (/usr/bin/jq here) prints for each command, with bash 5.2.
const EXPECTED: Record<string, { stdout: string; exitCode: number }> = {
  "jq '.n + \"a\"' d.json; echo \"status $?\"": {
    "stdout": "status 5\n",
    "exitCode": 0
  },
  "jq '.s[0]' d.json; echo \"status $?\"": {
    "stdout": "status 5\n",
    "exitCode": 0
  },
  "jq '.n[]' d.json; echo \"status $?\"": {
    "stdout": "status 5\n",
    "exitCode": 0
  },
  "jq '.l - {}' d.json; echo \"status $?\"": {
    "stdout": "status 5\n",
    "exitCode": 0
  },
  "jq '.a + 1' lines.json; echo \"status $?\"": {
    "stdout": "2\nstatus 5\n",
    "exitCode": 0
  },
  "jq -n '\"x\" | splits(null)'; echo \"status $?\"": {
    "stdout": "status 5\n",
    "exitCode": 0
  }
};

it("jq fails with status 5 on type errors as jq 1.6 does", async () => {
  expect(await run(Object.keys(EXPECTED), FILES)).toEqual(EXPECTED);
}, 120_000);
