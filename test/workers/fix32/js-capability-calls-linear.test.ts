/**
 * Issue 20, run 32, fixer JP — siblings of attack32a/js-many-parallel-fs-calls-quadratic.test.ts: thousands of
 * host calls started at once from the JavaScript backend cost time linear in their number.
 *
 * workerd's RPC costs each call time in proportion to the calls pending on the same stub, so a run that started
 * thousands of `node:fs` calls at once took quadratic time to have them answered (4,000: 13.6 s; 10,000: ~100 s,
 * and its `timeoutMs` fired that late). Now the isolate (isolate/workspace-capabilities.js) keeps at most twice
 * `maxConcurrentCapabilityCalls` (64 by default, at most 1,024) calls on the wire, the rest wait in order; and
 * outside replay runs, once the host refused a call past `maxCapabilityCalls`, the later host and `node:fs` calls
 * are refused in the isolate with the host's very error, without a round trip.
 *
 * Timing: these tests assert outcomes exactly; the only time bounds are generous (tens of seconds, for a shared
 * 2-core machine) and are there to catch the quadratic cost coming back, not to measure speed.
 */
import { describe, expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

const COUNT = "this run made more than maxCapabilityCalls (256) host calls";

describe("thousands of parallel host calls from the JavaScript backend", () => {
  it("10,000 parallel fs.stat calls: 256 fulfil, 9,744 reject E2BIG with the host's message, inside the run's timeout", { timeout: 120_000 }, async () => {
    const out = await inWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace", { recursive: true });
      const t0 = Date.now();
      const h = await ws.runtime.exec(
        `import fs from "node:fs/promises";
         export default async () => {
           const r = await Promise.allSettled(Array.from({ length: 10000 }, () => fs.stat(".")));
           const ok = r.filter((x) => x.status === "fulfilled" && x.value.isDirectory()).length;
           const why = new Map();
           for (const x of r) if (x.status === "rejected") {
             const k = x.reason.constructor.name + " " + x.reason.code + " " + x.reason.message;
             why.set(k, (why.get(k) ?? 0) + 1);
           }
           const after = await fs.stat(".").then(() => "ok", (e) => e.code + " " + e.message);
           return { ok, why: [...why], after };
         }`,
        { encoding: "utf8", timeoutMs: 60_000 },
      );
      const r = await h.result();
      return { status: r.status, exitCode: r.exitCode, value: r.value, stderr: String(r.stderr), within: Date.now() - t0 < 60_000 };
    });
    expect(out).toEqual({
      status: "completed",
      exitCode: 0,
      value: { ok: 256, why: [[`Error E2BIG ${COUNT}`, 9744]], after: `E2BIG ${COUNT}` },
      stderr: "",
      within: true,
    });
  });

  it("5,000 parallel writeFile calls leave exactly the 256 files admitted, each whole; the rest reject E2BIG", { timeout: 120_000 }, async () => {
    const out = await inWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace/d", { recursive: true });
      const h = await ws.runtime.exec(
        `import fs from "node:fs/promises";
         export default async () => {
           const r = await Promise.allSettled(Array.from({ length: 5000 }, (_, i) => fs.writeFile("/workspace/d/f" + i, "x" + i)));
           return {
             ok: r.flatMap((x, i) => (x.status === "fulfilled" ? [i] : [])),
             codes: [...new Set(r.filter((x) => x.status === "rejected").map((x) => x.reason.code))],
           };
         }`,
        { encoding: "utf8", timeoutMs: 60_000 },
      );
      const r = await h.result();
      const v = r.value as { ok: number[]; codes: string[] };
      const names = (await ws.fs.readdir("/workspace/d")).sort();
      const contents = await Promise.all(v.ok.map(async (i) => [i, await ws.fs.readFile(`/workspace/d/f${i}`, "utf8")]));
      // 256 files in the directory, and each admitted write's file holds its bytes: exactly the admitted ones are there.
      return { exitCode: r.exitCode, okCount: v.ok.length, codes: v.codes, names: names.length, whole: contents.every(([i, t]) => t === `x${i}`) };
    });
    expect(out).toEqual({ exitCode: 0, okCount: 256, codes: ["E2BIG"], names: 256, whole: true });
  });

  it("past maxCapabilityCalls a ws: host-module call is refused too, and its function never runs", { timeout: 60_000 }, async () => {
    let ran = 0;
    const out = await inWorkspace(
      async (ws) => {
        await ws.fs.mkdir("/workspace", { recursive: true });
        const h = await ws.runtime.exec(
          `import fs from "node:fs/promises";
           import { bump } from "ws:count";
           export default async () => {
             const r = await Promise.allSettled(Array.from({ length: 10 }, () => fs.stat(".")));
             const after = await bump().then((v) => "ran " + v, (e) => e.code + " " + e.message);
             return [r.map((x) => x.status === "fulfilled" ? "ok" : x.reason.code + " " + x.reason.message), after];
           }`,
          { encoding: "utf8" },
        );
        return h.result();
      },
      { backend: { maxCapabilityCalls: 3, modules: { "ws:count": { bump: async () => ++ran } } } },
    );
    const refused = "E2BIG this run made more than maxCapabilityCalls (3) host calls";
    expect({ exitCode: out.exitCode, value: out.value, ran }).toEqual({
      exitCode: 0,
      value: [["ok", "ok", "ok", ...Array(7).fill(refused)], refused],
      ran: 0,
    });
  });

  it("maxConcurrentCapabilityCalls still refuses the calls past it while the admitted ones are in flight", { timeout: 60_000 }, async () => {
    let started = 0;
    const out = await inWorkspace(
      async (ws) => {
        await ws.fs.mkdir("/workspace", { recursive: true });
        const h = await ws.runtime.exec(
          `import { slow } from "ws:slow";
           export default async () => {
             const r = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => slow(i)));
             return r.map((x) => x.status === "fulfilled" ? x.value : x.reason.code + " " + x.reason.message);
           }`,
          { encoding: "utf8" },
        );
        return h.result();
      },
      {
        backend: {
          maxConcurrentCapabilityCalls: 2,
          modules: { "ws:slow": { slow: async ([i]: readonly unknown[]) => { started++; await new Promise((r) => setTimeout(r, 500)); return i; } } },
        },
      },
    );
    const busy = "E2BIG more than maxConcurrentCapabilityCalls (2) host calls are in flight";
    expect({ exitCode: out.exitCode, value: out.value, started }).toEqual({ exitCode: 0, value: [0, 1, ...Array(8).fill(busy)], started: 2 });
  });

  it("a replay run's 6,000 parallel fs.stat calls: 256 fulfil, the rest reject E2BIG", { timeout: 120_000 }, async () => {
    const out = await inWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace", { recursive: true });
      const h = await ws.runtime.exec(
        `import fs from "node:fs/promises";
         export default async () => {
           const r = await Promise.allSettled(Array.from({ length: 6000 }, () => fs.stat(".")));
           return [r.filter((x) => x.status === "fulfilled").length, [...new Set(r.filter((x) => x.status === "rejected").map((x) => x.reason.code + " " + x.reason.message))]];
         }`,
        { id: "many", onInterrupt: "replay", encoding: "utf8", timeoutMs: 60_000 },
      );
      const r = await h.result();
      return { status: r.status, exitCode: r.exitCode, value: r.value, stderr: String(r.stderr) };
    });
    expect(out).toEqual({ status: "completed", exitCode: 0, value: [256, [`E2BIG ${COUNT}`]], stderr: "" });
  });

  it("the run's timeout fires on time while thousands of calls are pending", { timeout: 60_000 }, async () => {
    const out = await inWorkspace(
      async (ws) => {
        await ws.fs.mkdir("/workspace", { recursive: true });
        const t0 = Date.now();
        const h = await ws.runtime.exec(
          `import fs from "node:fs/promises";
           export default async () => {
             for (let i = 0; i < 40; i++) await Promise.allSettled(Array.from({ length: 5000 }, () => fs.stat(".")));
           }`,
          { encoding: "utf8", timeoutMs: 2000 },
        );
        const r = await h.result();
        return { status: r.status, exitCode: r.exitCode, stderr: String(r.stderr), within: Date.now() - t0 < 20_000 };
      },
      { backend: { maxCapabilityCalls: 1_000_000_000 } },
    );
    expect(out).toEqual({ status: "failed", exitCode: 1, stderr: "JavaScript execution timed out\n", within: true });
  });
});
