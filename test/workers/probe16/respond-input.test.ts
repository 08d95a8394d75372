/**
 * Probe 16: `respond()` / `pending()` with bad and odd input, used as a new
 * user following docs/runtime.md "Approvals and durable runs".
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Workspace } from "../../../src/index.js";
import { outcome, pendingN, probeWorkspace, within, type Probe } from "./helpers.js";

const ASK = `import { ask } from "ws:ask";
export default async (input) => ({ got: await ask(input ?? { action: "send" }) });`;

/** Runs fn with a fresh DO and a probe Workspace. */
async function withProbe<T>(fn: (ws: Workspace, probe: Probe, state: DurableObjectState) => Promise<T>): Promise<T> {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_i, state) => {
    const probe: Probe = { calls: [] };
    const ws = probeWorkspace(state.storage, probe);
    try {
      return await fn(ws, probe, state);
    } finally {
      await ws.close();
    }
  });
}

async function startWaiting(ws: Workspace, id: string, input?: unknown) {
  await ws.fs.mkdir("/workspace", { recursive: true });
  const h = await ws.runtime.exec(ASK, { id, encoding: "utf8", ...(input !== undefined ? { input } : {}) } as never);
  return h;
}

describe("probe16: respond() input validation", () => {
  it("the docs flow: exec → pending → respond → the run completes with the answer", async () => {
    await withProbe(async (ws) => {
      const h = await startWaiting(ws, "doc");
      const [call] = await pendingN(ws, 1);
      expect(call).toEqual({ id: "doc", backend: "worker-javascript", callId: expect.stringMatching(/^doc:\d+$/), payload: { action: "send" }, since: expect.any(Number) });
      await ws.runtime.respond(call!.id, call!.callId, { approved: true });
      const r = await within(h.result(), 20_000, "pending");
      expect(r).toMatchObject({ status: "completed", exitCode: 0, value: { got: { approved: true } } });
      expect(await ws.runtime.pending()).toEqual([]);
    });
  });

  it("wrong types for id/callId reject with a clear error and leave the call waiting", async () => {
    await withProbe(async (ws) => {
      const h = await startWaiting(ws, "types");
      const [call] = await pendingN(ws, 1);
      const bad: [unknown, unknown][] = [
        [42, call!.callId],
        [null, call!.callId],
        [{ id: "types" }, call!.callId],
        ["", call!.callId],
        ["types", 1],
        ["types", null],
        ["types", { callId: call!.callId }],
        ["types", ""],
        ["x".repeat(1_000_000), call!.callId],
        ["types", "types:" + "9".repeat(1_000_000)],
      ];
      const results = [];
      for (const [id, callId] of bad) results.push(await outcome(ws.runtime.respond(id as string, callId as string, true)));
      for (const r of results) {
        expect(r).not.toBe("resolved");
        // a clear error: a TypeError for a wrong type, ENOTWAITING for a string that names no waiting call
        expect(r).toMatchObject({ name: expect.stringMatching(/TypeError|Error/) });
      }
      // string-typed but unknown: ENOTWAITING (documented)
      for (const i of [3, 7, 8, 9]) expect(results[i]).toMatchObject({ code: "ENOTWAITING" });
      // the call still waits
      expect(await ws.runtime.pending()).toEqual([call]);
      await ws.runtime.respond("types", call!.callId, "ok");
      expect(await within(h.result(), 20_000, "pending")).toMatchObject({ status: "completed", value: { got: "ok" } });
    });
  });

  it("non-string id/callId are rejected with a TypeError (not ENOTWAITING / a crash)", async () => {
    // Found by probe 16, fixed: non-string ids were not type-checked (ENOTWAITING).
    await withProbe(async (ws) => {
      await startWaiting(ws, "types2");
      const [call] = await pendingN(ws, 1);
      for (const [id, callId] of [[42, call!.callId], [null, call!.callId], ["types2", 1], ["types2", null]] as const) {
        const r = await outcome(ws.runtime.respond(id as never, callId as never, true));
        expect(r).toMatchObject({ name: "TypeError" });
      }
      await ws.runtime.killExec("types2");
    });
  });

  it("answers that are not JSON data reject with a clear error; the call keeps waiting", async () => {
    await withProbe(async (ws) => {
      const h = await startWaiting(ws, "answers");
      const [call] = await pendingN(ws, 1);
      const cyclic: Record<string, unknown> = {};
      cyclic.self = cyclic;
      let deep: unknown = 1;
      for (let i = 0; i < 10_000; i++) deep = [deep];
      const cases: Record<string, unknown> = {
        function: () => 1,
        bigint: 10n,
        cyclic,
        deep,
        huge: "x".repeat(262_144),
        symbol: Symbol("s"),
        map: new Map([["a", 1]]),
      };
      const results: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(cases)) results[k] = await outcome(ws.runtime.respond("answers", call!.callId, v as never));
      for (const [k, r] of Object.entries(results)) {
        expect.soft(r, k).not.toBe("resolved");
        expect.soft(r, k).toMatchObject({ message: expect.any(String) });
      }
      expect(await ws.runtime.pending()).toEqual([call]);
      // the largest allowed answer: 262,144 characters of JSON
      const max = "y".repeat(262_142);
      await ws.runtime.respond("answers", call!.callId, max);
      const r = await within(h.result(), 30_000, "pending");
      expect(r).toMatchObject({ status: "completed" });
      expect((r as unknown as { value: { got: string } }).value.got).toBe(max);
    });
  });

  it("an answer 10,000 levels deep is refused with a clear error naming the depth (not a stack overflow)", async () => {
    // Found by probe 16, fixed (depth bound 1,024). It was: respond() rejected with RangeError "Maximum call stack size
    // exceeded" (no code). The call keeps waiting, so no harm, but the message
    // does not say what is wrong; results say "nested deeper than 1024".
    await withProbe(async (ws) => {
      await startWaiting(ws, "deep");
      const [call] = await pendingN(ws, 1);
      let deep: unknown = 1;
      for (let i = 0; i < 10_000; i++) deep = [deep];
      const r = await outcome(ws.runtime.respond("deep", call!.callId, deep as never));
      await ws.runtime.killExec("deep");
      expect(r).toMatchObject({ message: expect.stringMatching(/deep|nest|depth/i) });
    });
  });

  // Undocumented: undefined is accepted and the run gets null (like a run's return value).
  it("respond(id, callId, undefined) is accepted; ctx.interrupt() returns null", async () => {
    await withProbe(async (ws) => {
      const h = await startWaiting(ws, "undef");
      const [call] = await pendingN(ws, 1);
      const r = await outcome(ws.runtime.respond("undef", call!.callId, undefined as never));
      const res = await within(h.result(), 20_000, "pending");
      expect(r).toBe("resolved");
      expect(res).toMatchObject({ status: "completed", value: { got: null } });
    });
  });

  it("a callId of another run → ENOTWAITING, both calls keep waiting", async () => {
    await withProbe(async (ws) => {
      await startWaiting(ws, "a");
      await startWaiting(ws, "b");
      const calls = await pendingN(ws, 2);
      const a = calls.find((c) => c.id === "a")!;
      const b = calls.find((c) => c.id === "b")!;
      expect(await outcome(ws.runtime.respond("a", b.callId, 1))).toMatchObject({ code: "ENOTWAITING" });
      expect(await outcome(ws.runtime.respond("b", a.callId, 1))).toMatchObject({ code: "ENOTWAITING" });
      expect((await ws.runtime.pending()).map((c) => c.id).sort()).toEqual(["a", "b"]);
      await ws.runtime.killExec("a");
      await ws.runtime.killExec("b");
    });
  });

  it("two concurrent respond() to one call: exactly one resolves, the other ENOTWAITING; the run sees the winner", async () => {
    await withProbe(async (ws) => {
      const h = await startWaiting(ws, "race");
      const [call] = await pendingN(ws, 1);
      const [r1, r2] = await Promise.all([
        outcome(ws.runtime.respond("race", call!.callId, "first")),
        outcome(ws.runtime.respond("race", call!.callId, "second")),
      ]);
      expect([r1, r2].filter((r) => r === "resolved")).toHaveLength(1);
      const loser = r1 === "resolved" ? r2 : r1;
      expect(loser).toMatchObject({ code: "ENOTWAITING" });
      const winner = r1 === "resolved" ? "first" : "second";
      expect(await within(h.result(), 20_000, "pending")).toMatchObject({ status: "completed", value: { got: winner } });
    });
  });

  it("respond after killExec → ENOTWAITING; the run is cancelled 130", async () => {
    await withProbe(async (ws) => {
      const h = await startWaiting(ws, "killed");
      const [call] = await pendingN(ws, 1);
      await ws.runtime.killExec("killed");
      expect(await outcome(ws.runtime.respond("killed", call!.callId, true))).toMatchObject({ code: "ENOTWAITING" });
      expect(await within(h.result(), 20_000, "pending")).toMatchObject({ status: "cancelled", exitCode: 130, stderr: "Execution cancelled.\n" });
      expect(await ws.runtime.pending()).toEqual([]);
    });
  });

  it("respond with an unknown backend option rejects clearly", async () => {
    await withProbe(async (ws) => {
      await startWaiting(ws, "bk");
      const [call] = await pendingN(ws, 1);
      const r = await outcome(ws.runtime.respond("bk", call!.callId, true, { backend: "nope" }));
      expect(r).not.toBe("resolved");
      expect(r).toMatchObject({ message: expect.stringContaining("nope") });
      await ws.runtime.killExec("bk");
    });
  });

  it("pending() with 50 waiting runs: all listed, oldest first, quickly; answering all completes all", async () => {
    await withProbe(async (ws) => {
      const handles = [];
      for (let i = 0; i < 50; i++) handles.push(await startWaiting(ws, `r${String(i).padStart(2, "0")}`, { i }));
      const calls = await pendingN(ws, 50, 120_000);
      expect(calls).toHaveLength(50);
      // oldest first: since is non-decreasing
      for (let i = 1; i < calls.length; i++) expect(calls[i]!.since).toBeGreaterThanOrEqual(calls[i - 1]!.since);
      const t0 = Date.now();
      await ws.runtime.pending();
      expect(Date.now() - t0).toBeLessThan(5_000);
      for (const c of calls) await ws.runtime.respond(c.id, c.callId, { n: (c.payload as { i: number }).i });
      const results = await within(Promise.all(handles.map((h) => h.result())), 120_000, "pending");
      expect(results).not.toBe("pending");
      for (const [i, r] of (results as { status: string; value: unknown }[]).entries()) expect(r).toMatchObject({ status: "completed", value: { got: { n: i } } });
    });
  }, 240_000);
});
