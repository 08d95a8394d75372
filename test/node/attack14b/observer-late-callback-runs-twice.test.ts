/**
 * Issue 20, fourteenth attack run: the ready-made observers run an operation twice when the tracer
 * calls back late (asynchronously).
 *
 * Tried: `createOpenTelemetryObserver` / `createCloudflareObserver` with a tracer that throws after
 * calling back, calls back twice, never calls back (all held: tested in test/node/observe-sanitize),
 * and one whose `startActiveSpan` / `enterSpan` calls back after an `await` — an async context
 * manager, or a wrapper that loads its exporter first.
 * Found (low): when the callback has not run by the time `startActiveSpan`/`enterSpan` returns, the
 * observer runs the operation untraced ("never calls back → runs once", docs/observability.md); when
 * the tracer then calls back, `operation ??= traced(...)` finds nothing recorded and runs the
 * operation a second time. Through the RPC fs stub that is a second `writeFile`, `rm`, `rename` … of
 * the caller's; a second run that fails (a `rename` whose source is gone) rejects a promise only the
 * tracer holds — an unhandled rejection, which ends a Node process by default.
 * Suggested fix: in both observers, record that the operation was started untraced (e.g. `operation =
 * run(NOOP_SPAN)`) before returning, so a late callback returns that promise instead of running again.
 * Fixed: both observers record the untraced run before returning it; a late callback returns that
 * same promise (OpenTelemetry: its span records nothing and ends when the run settles; Workers
 * tracing ends the span when the returned promise settles) and never runs the operation again.
 */
import { describe, expect, it } from "vitest";
import { createCloudflareObserver } from "../../../src/observe/cloudflare.js";
import { createOpenTelemetryObserver } from "../../../src/observe/opentelemetry.js";

/** Lets the late callbacks (after one await) run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("observers with a tracer that calls back after an await", () => {
  it("OpenTelemetry: the operation runs once; the late callback gets the same run; its span ends once, with nothing recorded", async () => {
    let runs = 0;
    const calls: string[] = [];
    const otelSpan = {
      setAttribute: (k: string) => calls.push(`setAttribute ${k}`),
      recordException: () => calls.push("recordException"),
      setStatus: () => calls.push("setStatus"),
      end: () => calls.push("end"),
    };
    const late: Promise<unknown>[] = [];
    const o = createOpenTelemetryObserver({
      tracer: {
        startActiveSpan: (_n: string, _o: unknown, fn: (s: unknown) => unknown) =>
          late.push((async () => { await Promise.resolve(); return fn(otelSpan); })()),
      } as never,
    });
    const operation = o.span("workspace.fs.rename", {}, async (span) => (span.setAttribute("x", 1), runs++, "done"));
    expect(await operation).toBe("done");
    await settle();
    const results = await Promise.allSettled(late);
    expect(results).toEqual([{ status: "fulfilled", value: "done" }]);
    expect(runs).toBe(1);
    expect(calls).toEqual(["end"]);
  });

  it("OpenTelemetry: an untraced run that fails rejects once, for the caller; the late callback gets that same rejection", async () => {
    let runs = 0;
    let ended = 0;
    const late: Promise<unknown>[] = [];
    const o = createOpenTelemetryObserver({
      tracer: {
        startActiveSpan: (_n: string, _o: unknown, fn: (s: unknown) => unknown) =>
        {
          const p = (async () => { await Promise.resolve(); return fn({ setAttribute() {}, recordException() {}, setStatus() {}, end: () => ended++ }); })();
          p.catch(() => {}); // the tracer's own promise: it handles what it gets back
          late.push(p);
        },
      } as never,
    });
    const failure = new Error("ENOENT: no such file or directory, rename: /a");
    await expect(o.span("workspace.fs.rename", {}, async () => { runs++; throw failure; })).rejects.toBe(failure);
    await settle();
    expect(await Promise.allSettled(late)).toEqual([{ status: "rejected", reason: failure }]);
    expect(runs).toBe(1);
    expect(ended).toBe(1);
  });

  it("Workers tracing: the operation runs once; the late callback gets the same run", async () => {
    let runs = 0;
    const set: string[] = [];
    const late: Promise<unknown>[] = [];
    const o = createCloudflareObserver({
      tracing: {
        enterSpan: (_n: string, fn: (s: unknown) => unknown) =>
          late.push((async () => { await Promise.resolve(); return fn({ setAttribute: (k: string) => set.push(k) }); })()),
      } as never,
    });
    expect(await o.span("workspace.fs.rename", { "workspace.path": "/a" }, async () => (runs++, "done"))).toBe("done");
    await settle();
    expect(await Promise.allSettled(late)).toEqual([{ status: "fulfilled", value: "done" }]);
    expect(runs).toBe(1);
    expect(set).toEqual([]);
  });
});
