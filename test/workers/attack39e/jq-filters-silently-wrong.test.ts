/**
 * Issue 20, thirty-ninth attack run: several jq filters give another answer than jq 1.6, exit 0: with d.json
 * `{"a":[1,2,{"b":null}],"n":3}`, `walk(if type == "number" then . + 1 else . end)` returns the input unchanged
 * (jq: `{"a":[2,3,{"b":null}],"n":4}`; walk does not apply f to scalars); `[match("a"; "g").offset]` of `"xaa"` is
 * `[1]` (jq: `[1,2]`: the global flag is lost); `[label $f | .[] | if . > 1 then ., break $f else . end]` of `[1,2,3]`
 * is `[1]` (jq: `[1,2]`: output before `break` is lost); `jq -j '.[]'` of `["a",1,"b"]` prints `"a"1"b"` (jq: `a1b`,
 * -j is raw output without newlines); `@sh` of `[1,"a b",null,true]` is `null` (jq: `1 'a b' null true`);
 * `@tsv` of `["C:\\dir","x"]` keeps the backslash bare (`C:\dir<TAB>x`; jq 1.6 writes `C:\\dir<TAB>x`).
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
 * Found (medium — each is a silently wrong tool result an agent acts on: a config transformed with walk is written
 * back unchanged, a -j or @sh command line is built with quotes or `null`; 1 of 1 runs, deterministic): the outputs
 * above.
 * Suggested fix: src/shell/generated/jq.ts (just-bash's jq, patched in scripts/gen-shell.mjs): walk applies f to
 * every value bottom-up (scalars too); match with "g" yields every match; label keeps the outputs produced before a
 * break; -j implies -r; @sh formats numbers, booleans and null as their JSON text and arrays element by element;
 * @tsv escapes `\\` (jq 1.6 also `\t \n \r`).
 * Fixed: walk applies f bottom-up to every value (`__jq.walk`), match with g yields every match, a break keeps the outputs of a comma and of a map before it, -j implies -r, @sh/@tsv/@csv format as jq 1.6 — JQ_PATCHES in scripts/gen-shell.mjs, helpers in src/backends/worker-shell/isolate/jq-fixes.ts (issue 20, run 39, fixer JQ). Siblings: test/workers/fix39/shell-jq-vs-jq.test.ts.
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

const FILES: Record<string, string> = {"d.json": "{\"a\":[1,2,{\"b\":null}],\"n\":3}\n"};
// What jq 1.6 (/usr/bin/jq here) prints for each command, with bash 5.2.
const EXPECTED: Record<string, { stdout: string; exitCode: number }> = {
  "jq -c 'walk(if type == \"number\" then . + 1 else . end)' d.json": {
    "stdout": "{\"a\":[2,3,{\"b\":null}],\"n\":4}\n",
    "exitCode": 0
  },
  "jq -c 'walk(if type == \"null\" then 0 else . end)' d.json": {
    "stdout": "{\"a\":[1,2,{\"b\":0}],\"n\":3}\n",
    "exitCode": 0
  },
  "jq -c '[match(\"a\"; \"g\").offset]' <<< '\"xaa\"'": {
    "stdout": "[1,2]\n",
    "exitCode": 0
  },
  "jq -c '[label $f | .[] | if . > 1 then ., break $f else . end]' <<< '[1,2,3]'": {
    "stdout": "[1,2]\n",
    "exitCode": 0
  },
  "jq -j '.[]' <<< '[\"a\",1,\"b\"]'": {
    "stdout": "a1b",
    "exitCode": 0
  },
  "jq -r '@sh' <<< '[1,\"a b\",null,true]'": {
    "stdout": "1 'a b' null true\n",
    "exitCode": 0
  },
  "jq -r '@tsv' <<< '[\"C:\\\\\\\\dir\",\"x\"]'": {
    "stdout": "C:\\\\\\\\dir\tx\n",
    "exitCode": 0
  }
};

it("jq's walk, match g, label/break, -j, @sh and @tsv as jq 1.6", async () => {
  expect(await run(Object.keys(EXPECTED), FILES)).toEqual(EXPECTED);
}, 120_000);
