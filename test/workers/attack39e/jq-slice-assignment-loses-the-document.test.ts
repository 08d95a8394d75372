/**
 * Issue 20, thirty-ninth attack run: jq's assignment to an array slice returns the assigned value, not the updated
 * document: with cfg.json `{"items":[1,2,3,4],"name":"x"}`, `jq -c '.items[1:3] = ["x"]' cfg.json` prints `["x"]`
 * (jq 1.6: `{"items":[1,"x",4],"name":"x"}`), `.items[:1] = []` prints `[]`, `.items[2:] |= map(. * 10)` prints
 * `null` (jq: `{"items":[1,2,30,40],"name":"x"}`), all with exit 0. The usual `jq '…' f > t && mv t f` then replaces
 * the whole file with the slice (or `null`).
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
 * Found (high — a file edited through jq loses all its content but the slice, silently, exit 0; 1 of 1 runs,
 * deterministic): the outputs above.
 * Suggested fix: jq's path-update evaluation (src/shell/generated/jq.ts from just-bash, patched in
 * scripts/gen-shell.mjs): handle a `Slice` path in `=`/`|=`/`+=`… by splicing the value into the array at
 * [start, end) of its parent, as jq's setpath with a `{"start","end"}` key does, instead of returning the value.
 * Fixed: a `Slice` case in the engine's path update splices `update(slice)` into the array at [start, end) (`__jq.sliceUpdate`), and `del` of a slice removes it (`__jq.sliceDelete`) — JQ_PATCHES in scripts/gen-shell.mjs, helpers in src/backends/worker-shell/isolate/jq-fixes.ts (issue 20, run 39, fixer JQ). Siblings: test/workers/fix39/shell-jq-vs-jq.test.ts.
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

const FILES: Record<string, string> = {"cfg.json": "{\"items\":[1,2,3,4],\"name\":\"x\"}\n"};
// What jq 1.6 (/usr/bin/jq here) prints for each command, with bash 5.2.
const EXPECTED: Record<string, { stdout: string; exitCode: number }> = {
  "jq -c '.items[1:3] = [\"x\"]' cfg.json": {
    "stdout": "{\"items\":[1,\"x\",4],\"name\":\"x\"}\n",
    "exitCode": 0
  },
  "jq -c '.items[:1] = []' cfg.json": {
    "stdout": "{\"items\":[2,3,4],\"name\":\"x\"}\n",
    "exitCode": 0
  },
  "jq -c '.items[2:] |= map(. * 10)' cfg.json": {
    "stdout": "{\"items\":[1,2,30,40],\"name\":\"x\"}\n",
    "exitCode": 0
  },
  "jq -c '.[1:] = [0]' <<< '[5,6,7]'": {
    "stdout": "[5,0]\n",
    "exitCode": 0
  }
};

it("jq assigns to a slice inside the document as jq 1.6 does", async () => {
  expect(await run(Object.keys(EXPECTED), FILES)).toEqual(EXPECTED);
}, 120_000);
