/**
 * Probe 16: `ctx.interrupt()` misuse (non-JSON payloads, a stored ctx, a
 * non-replay run), odd `onWait` functions, bad `onInterrupt` values,
 * `unsafeToRepeat` on a non-function, and `workspace.close()` while a run
 * waits followed by a new Workspace on the same storage answering it.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { unsafeToRepeat, type Workspace, type WorkspaceRuntimePendingCall } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { outcome, pendingN, probeWorkspace, sleep, within, type Probe, withProbe } from "./helpers.js";



/** Waits until run `id` either settles or has a pending call. */
async function settledOrWaiting(ws: Workspace, h: { result(): Promise<unknown> }, id: string, ms = 15_000) {
  const end = Date.now() + ms;
  const settled = h.result();
  settled.catch(() => {});
  for (;;) {
    const r = await within(settled, 50, undefined);
    if (r !== undefined) return { settled: r };
    const calls = await ws.runtime.pending();
    const c = calls.find((x) => x.id === id);
    if (c) return { waiting: c };
    if (Date.now() > end) return { neither: true };
  }
}

describe("probe16: ctx.interrupt misuse", () => {
  for (const kind of ["function", "map", "bigint", "cyclic", "symbol", "nan", "date", "deep"]) {
    // "deep" (10,000 nested arrays): interrupt() rejects with RangeError
    // "Maximum call stack size exceeded" instead of a message naming the depth.
    it(`a ${kind} payload rejects inside the host function with a clear error; nothing waits`, async () => {
      await withProbe(async (ws) => {
        const h = await ws.runtime.exec(`import { askOdd } from "ws:ask";\nexport default async () => askOdd(${JSON.stringify(kind)});`, { id: `odd-${kind}`, encoding: "utf8" });
        const s = await settledOrWaiting(ws, h, `odd-${kind}`);
        if ("waiting" in s) await ws.runtime.killExec(`odd-${kind}`);
        expect(s).toMatchObject({ settled: { status: "completed", value: { error: { message: expect.stringMatching(/JSON|deep|nest/i) } } } });
      });
    });
  }

  it("an undefined payload: the call waits with payload null", async () => {
    await withProbe(async (ws) => {
      const h = await ws.runtime.exec(`import { askOdd } from "ws:ask";\nexport default async () => askOdd("undefined");`, { id: "odd-undef", encoding: "utf8" });
      const s = await settledOrWaiting(ws, h, "odd-undef");
      if ("waiting" in s) await ws.runtime.respond("odd-undef", s.waiting!.callId, 1);
      expect(s).toMatchObject({ waiting: { payload: null } });
    });
  });

  // Found by probe 16, fixed (ctx.interrupt() rejects once its host call returned). It was: the run WAITED on the returned call's callId (late:1, the
  // `stash` call, whose answer "stashed" is already journaled). respond()
  // resolves, the run replays, and waits on late:1 again with a new `since` —
  // an approval loop that never completes. Expected: interrupt() on a ctx
  // whose call has returned rejects at once (like a second interrupt does).
  it("interrupt on a ctx stored from a host call that already returned rejects; nothing waits", async () => {
    await withProbe(async (ws) => {
      const h = await ws.runtime.exec(`import { stash, late } from "ws:ask";\nexport default async () => { await stash(); return await late(); };`, { id: "late", encoding: "utf8" });
      const s = await settledOrWaiting(ws, h, "late");
      if ("waiting" in s) await ws.runtime.killExec("late");
      expect(s).toMatchObject({ settled: { status: "completed", value: { error: { message: expect.any(String) } } } });
    });
  });

  // Found by probe 16, fixed. It was: the promise never settled; the run hung until its timeout
  // ("JavaScript execution timed out", ~8 s for timeoutMs 3000) and workerd
  // logs "Worker's code had hung". Expected: interrupt() on the ctx of a
  // finished run rejects at once.
  it("interrupt on a ctx stored from a run that already finished rejects; nothing waits", async () => {
    await withProbe(async (ws) => {
      const h1 = await ws.runtime.exec(`import { stash } from "ws:ask";\nexport default async () => stash();`, { id: "first", encoding: "utf8" });
      expect(await h1.result()).toMatchObject({ status: "completed", value: "stashed" });
      const h = await ws.runtime.exec(`import { late } from "ws:ask";\nexport default async () => late();`, { id: "second", encoding: "utf8", timeoutMs: 3000 });
      const s = await settledOrWaiting(ws, h, "second");
      const pend = await ws.runtime.pending();
      for (const c of pend) await ws.runtime.killExec(c.id);
      expect(pend).toEqual([]);
      expect(s).toMatchObject({ settled: { status: "completed", value: { error: { message: expect.any(String) } } } });
    });
  });

  it("interrupt from a run with onInterrupt: \"fail\" (per-run, on a replay backend) rejects naming replay", async () => {
    await withProbe(async (ws) => {
      const h = await ws.runtime.exec(`import { caught } from "ws:ask";\nexport default async () => caught("x");`, { id: "failrun", encoding: "utf8", onInterrupt: "fail" });
      expect(await within(h.result(), 15_000, "pending")).toMatchObject({ status: "completed", value: { error: { message: expect.stringContaining('onInterrupt: "replay"') } } });
    });
  });

  it("exec with onInterrupt: \"bogus\" rejects before any record exists", async () => {
    await withProbe(async (ws) => {
      const r = await outcome(ws.runtime.exec(`export default () => 1`, { id: "bogus", encoding: "utf8", onInterrupt: "bogus" } as never));
      expect(r).toMatchObject({ name: "TypeError", message: expect.stringContaining("onInterrupt") });
      expect(await outcome(ws.runtime.getExec("bogus"))).not.toBe("resolved");
    });
  });

  it("a backend with onInterrupt: \"bogus\" throws at construction naming the option", () => {
    expect(() => new WorkerJavaScriptBackend({ loader: env.LOADER, onInterrupt: "bogus" } as never)).toThrow(/onInterrupt/);
  });

  it("a backend with onWait that is not a function throws at construction", () => {
    expect(() => new WorkerJavaScriptBackend({ loader: env.LOADER, onWait: "yes" } as never)).toThrow(/onWait/);
  });

  it("unsafeToRepeat on a non-function throws a TypeError", () => {
    for (const v of [null, undefined, 1, "f", {}, []]) expect(() => unsafeToRepeat(v as never)).toThrow(TypeError);
  });
});

describe("probe16: onWait oddities", () => {
  it("an onWait that never settles does not block the wait, pending(), respond() or the result", async () => {
    const seen: WorkspaceRuntimePendingCall[] = [];
    await withProbe(
      async (ws) => {
        const h = await ws.runtime.exec(`import { ask } from "ws:ask";\nexport default async () => ask("hang");`, { id: "hang", encoding: "utf8" });
        const [call] = await pendingN(ws, 1);
        expect(seen).toEqual([call]);
        await ws.runtime.respond("hang", call!.callId, "answered");
        expect(await within(h.result(), 15_000, "pending")).toMatchObject({ status: "completed", value: "answered" });
      },
      { onWait: (c) => { seen.push(c); return new Promise<void>(() => {}); } },
    );
  });

  it("a slow onWait (3 s): respond() right after pending() lists the call works", async () => {
    const seen: string[] = [];
    await withProbe(
      async (ws) => {
        const h = await ws.runtime.exec(`import { ask } from "ws:ask";\nexport default async () => ask("slow");`, { id: "slow", encoding: "utf8" });
        const [call] = await pendingN(ws, 1);
        await ws.runtime.respond("slow", call!.callId, "fast answer");
        expect(await within(h.result(), 15_000, "pending")).toMatchObject({ status: "completed", value: "fast answer" });
        expect(seen).toEqual([call!.callId]);
      },
      { onWait: async (c) => { seen.push(c.callId); await sleep(3000); } },
    );
  });

  it("a synchronously throwing onWait: the run still waits", async () => {
    await withProbe(
      async (ws) => {
        const h = await ws.runtime.exec(`import { ask } from "ws:ask";\nexport default async () => ask("throw");`, { id: "throw", encoding: "utf8" });
        const [call] = await pendingN(ws, 1);
        await ws.runtime.respond("throw", call!.callId, 7);
        expect(await within(h.result(), 15_000, "pending")).toMatchObject({ status: "completed", value: 7 });
      },
      { onWait: () => { throw new Error("boom"); } },
    );
  });
});

describe("probe16: close() while a run waits", () => {
  it("workspace.close() leaves the run waiting; a new Workspace on the same storage lists and answers it", async () => {
    const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
    await runInDurableObject(stub, async (_i, state) => {
      const probe: Probe = { calls: [] };
      const ws1 = probeWorkspace(state.storage, probe);
      await ws1.fs.mkdir("/workspace", { recursive: true });
      const h1 = await ws1.runtime.exec(`import { ask } from "ws:ask";\nexport default async () => { console.log("before"); const a = await ask("q"); console.log("after"); return a; };`, { id: "closing", encoding: "utf8" });
      const [call] = await pendingN(ws1, 1);
      await sleep(500);
      await ws1.close();
      // what the old handle says (documented: the run stays running, without an exit)
      const old = await within(h1.result(), 1000, "still running");
      const ws2 = probeWorkspace(state.storage, probe);
      try {
        expect(await ws2.runtime.pending()).toEqual([call]);
        await ws2.runtime.respond("closing", call!.callId, "from ws2");
        using h2 = await ws2.runtime.getExec("closing", { encoding: "utf8" });
        expect(await within(h2.result(), 15_000, "pending")).toMatchObject({ status: "completed", exitCode: 0, value: "from ws2", stdout: "before\nafter\n" });
        expect(await ws2.runtime.pending()).toEqual([]);
        expect(old).toBe("still running");
      } finally {
        await ws2.close();
      }
    });
  });

  // Undocumented: a closed Workspace is not dead. respond(), pending() and even
  // exec() on it resolve (it reconnects); the answer is delivered and the run
  // completes. docs/runtime.md only says close() "leaves it waiting".
  it("runtime calls on a closed Workspace reconnect: respond() answers the waiting call", async () => {
    const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
    await runInDurableObject(stub, async (_i, state) => {
      const probe: Probe = { calls: [] };
      const ws1 = probeWorkspace(state.storage, probe);
      await ws1.fs.mkdir("/workspace", { recursive: true });
      await ws1.runtime.exec(`import { ask } from "ws:ask";\nexport default async () => ask("q");`, { id: "closed", encoding: "utf8" });
      const [call] = await pendingN(ws1, 1);
      await ws1.close();
      expect(await outcome(ws1.runtime.respond("closed", call!.callId, 1))).toBe("resolved");
      const ws2 = probeWorkspace(state.storage, probe);
      try {
        using h = await ws2.runtime.getExec("closed", { encoding: "utf8" });
        expect(await within(h.result(), 15_000, "pending")).toMatchObject({ status: "completed", value: 1 });
        expect(await ws2.runtime.pending()).toEqual([]);
      } finally {
        await ws1.close();
        await ws2.close();
      }
    });
  });
});
