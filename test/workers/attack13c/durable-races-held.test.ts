/**
 * Issue 20, thirteenth attack run: races on waiting (approval) runs and stops of a replay run's fetch — held.
 *
 * Tried (all held, kept as regression checks on the durable-run test object, test/workers/durable/agent.ts):
 * - two clients answer one waiting call at once: exactly one respond() resolves, the other rejects
 *   ENOTWAITING; the run returns that answer and its side effect (t_sent) is written once;
 * - killExec and respond() of one waiting call at once: the run is cancelled (130, `Execution cancelled.`),
 *   the side effect is never written, nothing is left pending;
 * - six waiting runs answered at once (at most 4 relaunch together, the rest queue) and three of them killed
 *   right away, queued ones included: the killed ones are cancelled, the others complete, side effects only
 *   for the completed ones;
 * - a replay run whose fetch never answers (fetch has no maxHostCallMs deadline): its timeout and killExec
 *   each settle it promptly.
 */
import { describe, expect, it } from "vitest";
import { getWorkspace, type WorkspaceRuntimeResult } from "../../../src/index.js";
import { durable, httpServer, resultOf, sleep, start, waitingCalls, within } from "../durable/helpers.js";

const ASK = `import { ask } from "ws:approve";
export default async (input) => await ask({ q: input.k });`;

const code = (e: unknown) => (e as { code?: string }).code;
const sent = async (stub: ReturnType<ReturnType<typeof durable>["fresh"]>) => (await stub.sentRows()).map((r) => r.callId);

describe("attack13c: waiting runs under racing answers and kills (held)", () => {
  it("two respond() calls for one waiting call: one is taken, the other is ENOTWAITING", { timeout: 60_000 }, async () => {
    const { fresh } = durable();
    await start(fresh(), ASK, { id: "r", onInterrupt: "replay", input: { k: 1 } });
    const [call] = await waitingCalls(fresh, 1, [{ id: "r" }]);
    using a = await getWorkspace(fresh());
    using b = await getWorkspace(fresh());
    const out = await Promise.allSettled([a.runtime.respond("r", call!.callId, { v: "A" }), b.runtime.respond("r", call!.callId, { v: "B" })]);
    const taken = out.findIndex((o) => o.status === "fulfilled");
    expect(out.map((o) => (o.status === "fulfilled" ? "ok" : code(o.reason))).sort()).toEqual(["ENOTWAITING", "ok"]);
    const r = (await resultOf(fresh(), "r")) as WorkspaceRuntimeResult<"utf8">;
    expect(r).toMatchObject({ status: "completed", exitCode: 0, value: { v: taken === 0 ? "A" : "B" } });
    expect(await sent(fresh())).toEqual(["r:1"]);
  });

  it("killExec and respond() of one waiting call at once: cancelled, no side effect, nothing pending", { timeout: 60_000 }, async () => {
    const { fresh } = durable();
    await start(fresh(), ASK, { id: "r", onInterrupt: "replay", input: { k: 1 } });
    const [call] = await waitingCalls(fresh, 1, [{ id: "r" }]);
    using a = await getWorkspace(fresh());
    using b = await getWorkspace(fresh());
    await Promise.allSettled([a.runtime.respond("r", call!.callId, { v: "A" }), b.runtime.killExec("r")]);
    expect(await resultOf(fresh(), "r")).toMatchObject({ status: "cancelled", exitCode: 130, stderr: "Execution cancelled.\n" });
    expect(await sent(fresh())).toEqual([]);
    expect(await a.runtime.pending()).toEqual([]);
  });

  it("six runs answered at once, three killed while relaunching or queued: exactly those are cancelled", { timeout: 90_000 }, async () => {
    const { fresh } = durable();
    const HOLD = `import { ask } from "ws:approve";
import { hold } from "ws:side";
export default async (input) => { const a = await ask({ q: input.k }); await hold(input.k, 2000, 2000); return a; };`;
    for (let i = 0; i < 6; i++) await start(fresh(), HOLD, { id: `r${i}`, onInterrupt: "replay", input: { k: `k${i}` } });
    const calls = await waitingCalls(fresh, 6, []);
    using ws = await getWorkspace(fresh());
    await Promise.all(calls.map((c) => ws.runtime.respond(c.id, c.callId, { ok: c.id })));
    const killed = await Promise.all(["r4", "r5", "r0"].map((id) => within(ws.runtime.killExec(id).then(() => "killed"), 15_000, "kill pending")));
    expect(killed).toEqual(["killed", "killed", "killed"]);
    const results: unknown[] = [];
    for (let i = 0; i < 6; i++) {
      const r = (await resultOf(fresh(), `r${i}`)) as WorkspaceRuntimeResult<"utf8">;
      results.push([r.status, r.exitCode, r.value ?? null]);
    }
    expect(results).toEqual([
      ["cancelled", 130, null],
      ["completed", 0, { ok: "r1" }],
      ["completed", 0, { ok: "r2" }],
      ["completed", 0, { ok: "r3" }],
      ["cancelled", 130, null],
      ["cancelled", 130, null],
    ]);
    expect((await sent(fresh())).sort()).toEqual(["r1:1", "r2:1", "r3:1"]);
  });
});

describe("attack13c: a replay run's fetch that never answers (held)", () => {
  const SLOW = `export default async (input) => { console.log("go"); return await (await fetch(input.url + "/slow/" + input.key + "?ms=100000")).text(); };`;

  it("its timeout settles it", { timeout: 60_000 }, async () => {
    const { fresh } = durable();
    await start(fresh(), SLOW, { id: "t", onInterrupt: "replay", timeoutMs: 2000, input: { url: httpServer(), key: crypto.randomUUID() } });
    expect(await resultOf(fresh(), "t", { ms: 15_000 })).toMatchObject({ status: "failed", exitCode: 1, stdout: "go\n", stderr: "JavaScript execution timed out\n" });
  });

  it("killExec settles it", { timeout: 60_000 }, async () => {
    const { fresh } = durable();
    await start(fresh(), SLOW, { id: "k", onInterrupt: "replay", input: { url: httpServer(), key: crypto.randomUUID() } });
    await sleep(1000);
    using ws = await getWorkspace(fresh());
    expect(await within(ws.runtime.killExec("k").then(() => "killed"), 15_000, "kill pending")).toBe("killed");
    expect(await resultOf(fresh(), "k", { ms: 15_000 })).toMatchObject({ status: "cancelled", exitCode: 130, stdout: "go\n", stderr: "Execution cancelled.\n" });
  });
});
