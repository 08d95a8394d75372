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
 */
import { describe, expect, it } from "vitest";
import { createCloudflareObserver } from "../../../src/observe/cloudflare.js";
import { createOpenTelemetryObserver } from "../../../src/observe/opentelemetry.js";

const otelSpan = { setAttribute() {}, recordException() {}, setStatus() {}, end() {} };

/** Lets the late callbacks (after one await) run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("observers with a tracer that calls back after an await", () => {
  it.fails("OpenTelemetry: the operation runs once", async () => {
    let runs = 0;
    const late: Promise<unknown>[] = [];
    const o = createOpenTelemetryObserver({
      tracer: {
        startActiveSpan: (_n: string, _o: unknown, fn: (s: unknown) => unknown) =>
          late.push((async () => { await Promise.resolve(); return fn(otelSpan); })()),
      } as never,
    });
    expect(await o.span("workspace.fs.rename", {}, async () => (runs++, "done"))).toBe("done");
    await settle();
    await Promise.allSettled(late);
    expect(runs).toBe(1); // today: 2
  });

  it.fails("Workers tracing: the operation runs once", async () => {
    let runs = 0;
    const late: Promise<unknown>[] = [];
    const o = createCloudflareObserver({
      tracing: {
        enterSpan: (_n: string, fn: (s: unknown) => unknown) =>
          late.push((async () => { await Promise.resolve(); return fn({ setAttribute() {} }); })()),
      } as never,
    });
    expect(await o.span("workspace.fs.rename", {}, async () => (runs++, "done"))).toBe("done");
    await settle();
    await Promise.allSettled(late);
    expect(runs).toBe(1); // today: 2
  });
});
