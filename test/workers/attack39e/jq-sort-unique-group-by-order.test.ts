/**
 * Issue 20, thirty-ninth attack run: jq orders strings with `localeCompare`, not by code point, and `unique` and
 * `group_by` do not sort: `jq -c sort <<< '["b","a","B","Z","z"]'` prints `["a","b","B","z","Z"]` (jq 1.6:
 * `["B","Z","a","b","z"]`); `unique` of `["b","a","b","B"]` prints `["b","a","B"]`, first-seen order (jq:
 * `["B","a","b"]`, sorted); `group_by(.t)`
 * gives the groups in first-seen order (`b` before `a`; jq sorts them: `a`, `b`); `sort_by`, `min`/`max` and
 * `unique_by` follow `localeCompare` (`min` of `["b","B"]` is `"b"`; jq: `"B"`).
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
 * Found (medium — a jq pipeline that sorts or dedupes names gives another order than jq (and than the shell's own
 * `sort`, which orders by bytes since run 24), so `comm`/`join`/`diff` against it or a binary search on it go wrong,
 * silently; 1 of 1 runs, deterministic): the outputs above.
 * Suggested fix: src/shell/generated/jq.ts (just-bash's jq, patched in scripts/gen-shell.mjs): compare strings by code
 * point (`a < b ? -1 : a > b ? 1 : 0` on UTF-16 is wrong only for astral characters; compare code points) in the
 * value comparator used by sort/sort_by/min/max/unique_by, and make `unique` and `group_by` sort by it as jq does.
 * Fixed: the engine's comparators (sort, sort_by, min/max, unique_by, `<`, `==`) are `__jq.compare`, jq's total order with strings by code point and objects by key sets then values; `unique` and `group_by` sort — JQ_PATCHES in scripts/gen-shell.mjs, helpers in src/backends/worker-shell/isolate/jq-fixes.ts (issue 20, run 39, fixer JQ). Siblings: test/workers/fix39/shell-jq-vs-jq.test.ts.
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
  "jq -c 'sort' <<< '[\"b\",\"a\",\"B\",\"Z\",\"z\"]'": {
    "stdout": "[\"B\",\"Z\",\"a\",\"b\",\"z\"]\n",
    "exitCode": 0
  },
  "jq -c 'unique' <<< '[\"b\",\"a\",\"b\",\"B\"]'": {
    "stdout": "[\"B\",\"a\",\"b\"]\n",
    "exitCode": 0
  },
  "jq -c 'group_by(.t) | map(.[0].t)' <<< '[{\"t\":\"b\"},{\"t\":\"a\"},{\"t\":\"b\"}]'": {
    "stdout": "[\"a\",\"b\"]\n",
    "exitCode": 0
  },
  "jq -c 'sort_by(.k) | map(.k)' <<< '[{\"k\":\"b\"},{\"k\":\"B\"},{\"k\":\"a\"}]'": {
    "stdout": "[\"B\",\"a\",\"b\"]\n",
    "exitCode": 0
  },
  "jq -c '[min, max]' <<< '[\"b\",\"B\"]'": {
    "stdout": "[\"B\",\"b\"]\n",
    "exitCode": 0
  },
  "jq -c 'unique_by(.k) | map(.k)' <<< '[{\"k\":\"b\"},{\"k\":\"B\"}]'": {
    "stdout": "[\"B\",\"b\"]\n",
    "exitCode": 0
  }
};

it("jq sorts, dedupes and groups by code point as jq 1.6 does", async () => {
  expect(await run(Object.keys(EXPECTED), FILES)).toEqual(EXPECTED);
}, 120_000);
