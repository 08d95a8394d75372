/**
 * Issue 20, seventeenth attack run: the text the host itself journals when a run's `evaluate` RPC rejects
 * (src/backends/worker-javascript/run.ts `#launch`: `catch (err) { … this.#append("stderr", encoder.encode(`${message}\n`)) }`).
 * Tried: a run (JavaScript backend, `maxStdioBytes: 1024`) whose code replaces `TextEncoder.prototype.encode` with
 * a function that throws an Error of a 3,000,000-character message, then throws. The runner's failure path
 * (`fail` → `out.write` → `toBytes` → `enc.encode`) throws that error, so `evaluate` rejects with it, and the host
 * writes `err.message` to stderr with `#append` — past `StdioBudget` (the host's own per-stream bound, "which code in
 * the isolate cannot talk its way past"), in one event row. Held: output written the ordinary way is cut at
 * maxStdioBytes (+ the 16 KiB reserve) by the runner and again by the host.
 * Found (medium — the per-stream bound bypassed, and a row production refuses; 3 of 3 runs): the run fails (exit 1)
 * with ONE `__ws_exec_events` stderr row of 3,000,001 bytes although maxStdioBytes is 1,024 (the host's own bound is
 * 1,024 + 16,384). In production Durable Object SQLite refuses a value past 2 MB (SQLITE_TOOBIG), `#write` swallows
 * the failed append, and the run ends exit 1 with no message at all; within 2 MB it is kept, so any run can journal
 * up to an RPC message (32 MiB) of stderr per run whatever maxStdioBytes says. The replay runs' `outcome.diverged`
 * string (`#divergence`, appended the same way) is the isolate's text too.
 * Suggested fix: pass every text the host writes on a run's behalf that comes from the isolate (an `evaluate`
 * rejection's message, `outcome.diverged`) through the run's StdioBudget, or clip it first (e.g. to
 * STDIO_RESERVE_BYTES, as MAX_HOST_ERROR_CHARS clips host errors), on a UTF-8 boundary with a marker.
 * Fixed: run.ts clips an `evaluate` rejection's message and a replay's `outcome.diverged` finding with `clipMessage`
 * (stdio.ts) to MAX_RUN_MESSAGE_BYTES (16,384 = STDIO_RESERVE_BYTES) bytes of UTF-8, cut on a character boundary,
 * followed by `… [<n> more bytes cut]`.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { MAX_RUN_MESSAGE_BYTES, STDIO_RESERVE_BYTES } from "../../../src/backends/worker-javascript/stdio.js";

const SRC = `export default async () => {
  TextEncoder.prototype.encode = function () { throw new Error("E".repeat(3_000_000)); };
  throw new Error("go");
};`;

it("an evaluate rejection's message is bounded like the run's stderr (was: one 3,000,001-byte row past maxStdioBytes 1024)", { timeout: 60_000 }, async () => {
  await runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
    const ws = new Workspace({ storage: state.storage, backends: [new WorkerJavaScriptBackend({ loader: env.LOADER, maxStdioBytes: 1024 })] });
    try {
      await ws.fs.mkdir("/workspace", { recursive: true });
      const r = await (await ws.runtime.exec(SRC, { id: "e", encoding: "utf8", timeoutMs: 30_000 })).result();
      const rows = state.storage.sql
        .exec<{ name: string; n: number | null }>("SELECT name, length(data) AS n FROM __ws_exec_events WHERE id = 'e' ORDER BY seq")
        .toArray();
      const stderr = rows.filter((e) => e.name === "stderr").map((e) => e.n ?? 0);
      // Holds today: the run fails, and says so on stderr with the isolate's message.
      expect([r.status, r.exitCode]).toEqual(["failed", 1]);
      expect(String(r.stderr).startsWith("EEEE")).toBe(true);
      // Was: stderr rows [3000001]. Fixed: at most maxStdioBytes + the reserve, plus a marker line (under 200 bytes).
      expect(stderr.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1024 + STDIO_RESERVE_BYTES + 200);
      // Exactly: the first MAX_RUN_MESSAGE_BYTES of the message, then the marker with the bytes cut.
      expect(r.stderr).toBe(`${"E".repeat(MAX_RUN_MESSAGE_BYTES)}… [${3_000_000 - MAX_RUN_MESSAGE_BYTES} more bytes cut]\n`);
      expect(stderr).toEqual([MAX_RUN_MESSAGE_BYTES + new TextEncoder().encode(`… [${3_000_000 - MAX_RUN_MESSAGE_BYTES} more bytes cut]\n`).byteLength]);
    } finally {
      await ws.close();
    }
  });
});

it("the clipped message is cut on a UTF-8 character boundary (3-byte characters: 5,461 whole ones kept)", { timeout: 60_000 }, async () => {
  await runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
    const ws = new Workspace({ storage: state.storage, backends: [new WorkerJavaScriptBackend({ loader: env.LOADER, maxStdioBytes: 1024 })] });
    try {
      await ws.fs.mkdir("/workspace", { recursive: true });
      const src = SRC.replace(`"E".repeat(3_000_000)`, `"\u20ac".repeat(1_000_000)`);
      const r = await (await ws.runtime.exec(src, { id: "u", encoding: "utf8", timeoutMs: 30_000 })).result();
      const kept = Math.floor(MAX_RUN_MESSAGE_BYTES / 3);
      expect([r.status, r.exitCode]).toEqual(["failed", 1]);
      expect(r.stderr).toBe(`${"\u20ac".repeat(kept)}… [${3_000_000 - kept * 3} more bytes cut]\n`);
    } finally {
      await ws.close();
    }
  });
});
