/**
 * Probe 16: several waits in one run, waiting vs. the timeout, run ids that
 * contain ":" (callId is `<executionId>:<n>`), kill during the replay.
 */
import { describe, expect, it } from "vitest";
import { outcome, pendingN, sleep, within, withProbe } from "./helpers.js";


describe("probe16: waits", () => {
  // Docs: "new calls of the run are held". With Promise.all([ask("a"),
  // ask("b")]) only "a" waits; "b" is held and waits only after "a" is
  // answered and the run replays: two approval rounds, one at a time.
  it("two concurrent asks in one run wait one at a time, in call order; both answers reach the run", async () => {
    await withProbe(async (ws) => {
      const h = await ws.runtime.exec(`import { ask } from "ws:ask";\nexport default async () => Promise.all([ask("a"), ask("b")]);`, { id: "two", encoding: "utf8" });
      const [a] = await pendingN(ws, 1);
      await sleep(500);
      expect(await ws.runtime.pending()).toEqual([a]);
      expect(a).toMatchObject({ callId: "two:1", payload: "a" });
      await ws.runtime.respond("two", a!.callId, "A");
      let b;
      for (const end = Date.now() + 15_000; Date.now() < end && !b; await sleep(50)) b = (await ws.runtime.pending()).find((c) => c.callId !== a!.callId);
      expect(b).toMatchObject({ callId: "two:2", payload: "b" });
      await ws.runtime.respond("two", b!.callId, "B");
      expect(await within(h.result(), 20_000, "pending")).toMatchObject({ status: "completed", value: ["A", "B"] });
    });
  });

  it("sequential asks: the second waits after the first answer; both answers reach the run", async () => {
    await withProbe(async (ws) => {
      const h = await ws.runtime.exec(`import { ask } from "ws:ask";\nexport default async () => { const x = await ask(1); const y = await ask(2); return [x, y]; };`, { id: "seq", encoding: "utf8" });
      const [c1] = await pendingN(ws, 1);
      expect(c1!.payload).toBe(1);
      await ws.runtime.respond("seq", c1!.callId, "one");
      let c2;
      for (const end = Date.now() + 15_000; Date.now() < end; await sleep(50)) {
        const p = await ws.runtime.pending();
        if (p.length === 1 && p[0]!.callId !== c1!.callId) { c2 = p[0]; break; }
      }
      expect(c2).toMatchObject({ id: "seq", payload: 2 });
      await ws.runtime.respond("seq", c2!.callId, "two");
      expect(await within(h.result(), 20_000, "pending")).toMatchObject({ status: "completed", value: ["one", "two"] });
    });
  });

  it("the time waited does not count against the timeout (timeoutMs 2000, answered after 4 s)", async () => {
    await withProbe(async (ws) => {
      const h = await ws.runtime.exec(`import { ask } from "ws:ask";\nexport default async () => ask("slowly");`, { id: "tmo", encoding: "utf8", timeoutMs: 2000 });
      const [c] = await pendingN(ws, 1);
      await sleep(4000);
      expect(await ws.runtime.pending()).toEqual([c]);
      await ws.runtime.respond("tmo", c!.callId, "late but fine");
      expect(await within(h.result(), 20_000, "pending")).toMatchObject({ status: "completed", value: "late but fine" });
    });
  });

  it("run ids containing ':' : callIds of runs 'x' and 'x:1' are not confused", async () => {
    await withProbe(async (ws) => {
      const src = `import { ask } from "ws:ask";\nexport default async (i) => ask(i);`;
      const hx = await ws.runtime.exec(src, { id: "x", encoding: "utf8", input: "x" });
      const hx1 = await ws.runtime.exec(src, { id: "x:1", encoding: "utf8", input: "x:1" });
      const calls = await pendingN(ws, 2);
      const cx = calls.find((c) => c.id === "x")!;
      const cx1 = calls.find((c) => c.id === "x:1")!;
      expect(cx.callId).not.toBe(cx1.callId);
      expect(await outcome(ws.runtime.respond("x", cx1.callId, 0))).toMatchObject({ code: "ENOTWAITING" });
      await ws.runtime.respond("x:1", cx1.callId, "for x:1");
      await ws.runtime.respond("x", cx.callId, "for x");
      expect(await within(hx.result(), 20_000, "pending")).toMatchObject({ status: "completed", value: "for x" });
      expect(await within(hx1.result(), 20_000, "pending")).toMatchObject({ status: "completed", value: "for x:1" });
    });
  });

  it("killExec right after respond (during the replay): cancelled 130, nothing waits", async () => {
    await withProbe(async (ws) => {
      const h = await ws.runtime.exec(`import { ask } from "ws:ask";\nexport default async () => { await new Promise((r) => setTimeout(r, 200)); return ask("k"); };`, { id: "kr", encoding: "utf8" });
      const [c] = await pendingN(ws, 1);
      await ws.runtime.respond("kr", c!.callId, 1);
      await ws.runtime.killExec("kr");
      const r = await within(h.result(), 20_000, "pending");
      expect(r).toMatchObject({ exitCode: expect.any(Number) });
      expect(["cancelled", "completed"]).toContain((r as { status: string }).status);
      expect(await ws.runtime.pending()).toEqual([]);
    });
  });

  it("disposeExec of a waiting run: it stops waiting (or is refused clearly)", async () => {
    await withProbe(async (ws) => {
      await ws.runtime.exec(`import { ask } from "ws:ask";\nexport default async () => ask("d");`, { id: "disp", encoding: "utf8" });
      const [c] = await pendingN(ws, 1);
      const d = await outcome(ws.runtime.disposeExec("disp"));
      const p = await ws.runtime.pending();
      if (d === "resolved") {
        expect(p).toEqual([]);
        expect(await outcome(ws.runtime.respond("disp", c!.callId, 1))).toMatchObject({ code: "ENOTWAITING" });
      } else {
        expect(p).toEqual([c]);
        await ws.runtime.killExec("disp");
      }
    });
  });
});
