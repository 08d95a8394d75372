/**
 * Issue 20, fix of attack 18a (replay-resume-loads-output-whole): a resumed replay attempt compares the output it
 * prints again with the journal a row at a time (src/backends/worker-javascript/recorded.ts), not with a copy of the
 * run's whole output. These check the comparison itself across journal rows: a Workspace over a nodeSqliteStorage
 * file whose JavaScript backend (Node has no Worker Loader: a stand-in isolate printing through the real bridge, as
 * test/node/runtime/run-ownership.test.ts) prints 200,000 bytes of stdout (rows of up to 64 KiB) and 3,000 of stderr,
 * then runs on; its owner is gone (lease lapsed) and a second Workspace takes the run over and replays it, printing
 * in pieces of 10,007 bytes (across every row boundary) the same bytes, one byte changed, or too few.
 */
import { expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { unregisterOwner } from "../../../src/backends/worker-javascript/ownership.js";
import { openWorkspace, storageFile } from "../runtime/temp-storage.js";
import { standInLoader, until } from "../runtime/loader-standin.js";

const OUT = 200_000;
const ERR = 3_000;
const text = (n: number, salt: number) => Array.from({ length: n }, (_, i) => String.fromCharCode(97 + ((i * 7 + (i >> 9) + salt) % 26))).join("");
const STDOUT = text(OUT, 0);
const STDERR = text(ERR, 5);
const encoder = new TextEncoder();

type Mode = "same" | "differs" | "short";

/** The first attempt prints STDOUT (pieces of 40,000) and STDERR, then runs on; the replay prints per `mode` and returns "ok". */
function loader(state: { attempts: number; printed: boolean; mode: Mode }) {
  return standInLoader(async (_input, bridge) => {
    state.attempts++;
    const err = encoder.encode(STDERR);
    if (state.attempts === 1) {
      const out = encoder.encode(STDOUT);
      for (let at = 0; at < out.byteLength; at += 40_000) {
        const piece = out.subarray(at, at + 40_000);
        await bridge.output(piece, [piece.byteLength]);
        if (at === 80_000) await bridge.output(err, [-err.byteLength]);
      }
      state.printed = true;
      return new Promise(() => {}); // runs on
    }
    const out = encoder.encode(STDOUT);
    if (state.mode === "differs") out[150_000] = 0x41; // "A"
    const end = state.mode === "short" ? 100_000 : out.byteLength;
    await bridge.output(err, [-err.byteLength]);
    for (let at = 0; at < end; at += 10_007) {
      const piece = out.subarray(at, Math.min(end, at + 10_007));
      await bridge.output(piece, [piece.byteLength]);
    }
    return { code: 0, value: JSON.stringify("ok") };
  });
}


async function replayed(mode: Mode) {
  const path = storageFile();
  const state = { attempts: 0, printed: false, mode };
  const open = () => openWorkspace(path, (storage) => new Workspace({ storage, backends: [new WorkerJavaScriptBackend({ loader: loader(state) as never, onInterrupt: "replay" })] }));
  const a = open();
  await a.ws.fs.mkdir("/workspace", { recursive: true });
  await a.ws.runtime.exec("export default () => null;", { id: "r", encoding: "utf8" });
  await until(() => state.printed, "the run to print");
  await new Promise((r) => setTimeout(r, 400)); // its last output window is journaled
  const rows = a.storage.sql.exec("SELECT name, count(*) AS n, sum(length(data)) AS bytes FROM __ws_exec_events WHERE id = 'r' GROUP BY name ORDER BY name").toArray();
  expect(rows).toEqual([
    { name: "stderr", n: 1, bytes: ERR },
    { name: "stdout", n: Math.ceil(OUT / 65_536), bytes: OUT },
  ]);
  const owner = (a.storage.sql.exec("SELECT owner FROM __ws_exec_runs WHERE id = 'r'").toArray()[0] as { owner: string }).owner;
  unregisterOwner(owner);
  a.storage.sql.exec("UPDATE __ws_exec_runs SET lease_until = ? WHERE id = 'r'", Date.now() - 1);
  const b = open();
  const r = await (await b.ws.runtime.getExec("r", { encoding: "utf8" })).result();
  // The whole journal, per stream (a result keeps only the tail of a long stream).
  const journaled = { stdout: "", stderr: "" };
  const decoder = new TextDecoder();
  for (const row of b.storage.sql.exec("SELECT name, data FROM __ws_exec_events WHERE id = 'r' AND name != 'exit' ORDER BY seq").toArray() as { name: "stdout" | "stderr"; data: ArrayBuffer }[]) {
    journaled[row.name] += decoder.decode(new Uint8Array(row.data));
  }
  return { attempts: state.attempts, status: r.status, exitCode: r.exitCode, value: r.value, stdout: journaled.stdout, stderr: journaled.stderr };
}

it("a replay that prints the same output again across journal rows completes, each byte journaled once", { timeout: 60_000 }, async () => {
  const r = await replayed("same");
  expect(r.attempts).toBe(2);
  expect([r.status, r.exitCode, r.value, r.stdout === STDOUT, r.stderr === STDERR]).toEqual(["completed", 0, "ok", true, true]);
});

it("a replay that prints one byte differently (inside the third journal row) fails naming that byte", { timeout: 60_000 }, async () => {
  const r = await replayed("differs");
  expect([r.status, r.exitCode, r.stdout === STDOUT]).toEqual(["failed", 1, true]);
  expect(r.stderr).toBe(`${STDERR}The execution took a different path when it resumed after an interruption: it printed different output on stdout (byte 150001 differs).\n`);
});

it("a replay that prints less than was journaled fails saying how much it printed", { timeout: 60_000 }, async () => {
  const r = await replayed("short");
  expect([r.status, r.exitCode, r.stdout === STDOUT]).toEqual(["failed", 1, true]);
  expect(r.stderr).toBe(`${STDERR}The execution took a different path when it resumed after an interruption: it finished without printing all it had printed before (stdout: 100000 of 200000 bytes).\n`);
});
