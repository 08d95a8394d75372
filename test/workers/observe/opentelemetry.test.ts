/**
 * `createOpenTelemetryObserver` (our addition to spec 04 §4) with the real
 * `@opentelemetry/api`: a Workspace's spans go through the API's global
 * tracer provider (`trace.getTracer`, a `ProxyTracer`) to a small in-memory
 * tracer — a stand-in for an SDK exporter, which this repository does not
 * install — that records names, attributes, status, exception events and
 * `end()`.
 */
import { context, SpanStatusCode, trace, TraceFlags, type Attributes, type Context, type Exception, type Span, type SpanContext, type SpanOptions, type SpanStatus, type Tracer } from "@opentelemetry/api";
import { afterEach, describe, expect, it } from "vitest";
import { createOpenTelemetryObserver } from "../../../src/observe/opentelemetry.js";
import { inObservedWorkspace, rejection } from "./helpers.js";

interface FinishedSpan {
  name: string;
  attributes: Attributes;
  status: SpanStatus;
  exceptions: Exception[];
  ended: number;
}

/** An in-memory tracer implementing the API's `Tracer` (what an SDK's tracer with an in-memory exporter records). */
class MemoryTracer implements Tracer {
  readonly spans: FinishedSpan[] = [];
  #next = 1;

  startSpan(name: string, options: SpanOptions = {}): Span {
    const record: FinishedSpan = { name, attributes: { ...options.attributes }, status: { code: SpanStatusCode.UNSET }, exceptions: [], ended: 0 };
    this.spans.push(record);
    const ids: SpanContext = { traceId: "0af7651916cd43dd8448eb211c80319c", spanId: (this.#next++).toString(16).padStart(16, "0"), traceFlags: TraceFlags.SAMPLED };
    const span: Span = {
      spanContext: () => ids,
      setAttribute: (key, value) => ((record.attributes[key] = value), span),
      setAttributes: (attributes) => (Object.assign(record.attributes, attributes), span),
      addEvent: () => span,
      addLink: () => span,
      addLinks: () => span,
      setStatus: (status) => ((record.status = status), span),
      updateName: (n) => ((record.name = n), span),
      end: () => void record.ended++,
      isRecording: () => record.ended === 0,
      recordException: (exception) => void record.exceptions.push(exception),
    };
    return span;
  }

  startActiveSpan<F extends (span: Span) => unknown>(name: string, ...rest: [F] | [SpanOptions, F] | [SpanOptions, Context, F]): ReturnType<F> {
    const fn = rest[rest.length - 1] as F;
    const options = rest.length > 1 ? (rest[0] as SpanOptions) : {};
    const span = this.startSpan(name, options);
    return context.with(trace.setSpan(context.active(), span), () => fn(span)) as ReturnType<F>;
  }
}

afterEach(() => trace.disable());

describe("createOpenTelemetryObserver", () => {
  it("records Workspace spans through the real API's global tracer: attributes, OK status, ended once", async () => {
    const memory = new MemoryTracer();
    expect(trace.setGlobalTracerProvider({ getTracer: () => memory })).toBe(true);
    const observer = createOpenTelemetryObserver({ tracer: trace.getTracer("agent", "1.0.0") });
    await inObservedWorkspace(observer, async (ws) => {
      const fs = ws.stub().fs;
      await fs.mkdir("/a", { recursive: true });
      await fs.writeFile("/a/one.txt", "1\n");
      expect(await fs.exists("/a/one.txt")).toBe(true);
      expect((await fs.grep("1", "/a")).length).toBe(1);
    });
    expect(memory.spans).toEqual([
      { name: "workspace.fs.mkdir", attributes: { "workspace.fs.path": "/a", "workspace.fs.recursive": true }, status: { code: SpanStatusCode.UNSET }, exceptions: [], ended: 1 },
      { name: "workspace.fs.writeFile", attributes: { "workspace.fs.path": "/a/one.txt" }, status: { code: SpanStatusCode.UNSET }, exceptions: [], ended: 1 },
      { name: "workspace.fs.exists", attributes: { "workspace.fs.path": "/a/one.txt" }, status: { code: SpanStatusCode.UNSET }, exceptions: [], ended: 1 },
      { name: "workspace.fs.statOrNull", attributes: { "workspace.fs.path": "/a/one.txt" }, status: { code: SpanStatusCode.UNSET }, exceptions: [], ended: 1 },
      {
        name: "workspace.fs.grep",
        attributes: { "workspace.fs.path": "/a", "workspace.fs.pattern": "1", "workspace.fs.matches": 1 },
        status: { code: SpanStatusCode.UNSET },
        exceptions: [],
        ended: 1,
      },
    ]);
  });

  it("a failure: status ERROR and an exception event with the sanitised message, no stack; the caller gets the error unchanged", async () => {
    const memory = new MemoryTracer();
    const observer = createOpenTelemetryObserver({ tracer: memory });
    const path = "/vault/password=hunter2/key";
    await inObservedWorkspace(observer, async (ws) => {
      const error = await rejection(ws.stub().fs.readFile(path, "utf8"));
      expect(error.code).toBe("ENOENT");
      expect(error.message).toContain("hunter2");
    });
    const message = "ENOENT: no such file or directory, readFile: /vault/password=[REDACTED]";
    expect(memory.spans).toEqual([
      {
        name: "workspace.fs.readFile",
        attributes: { "workspace.fs.path": path, "error.name": "WorkspaceFsError", "error.message": message },
        status: { code: SpanStatusCode.ERROR, message },
        exceptions: [{ name: "WorkspaceFsError", message }],
        ended: 1,
      },
    ]);
  });

  it("a thrown non-Error: sanitised String(value); run is called at once and its result passes through", async () => {
    const memory = new MemoryTracer();
    const observer = createOpenTelemetryObserver({ tracer: memory });
    let ran = false;
    const ok = observer.span("custom.ok", { "x.n": 1, "x.none": undefined }, async (span) => {
      ran = true;
      span.setAttribute("x.result", "done");
      span.setAttribute("x.skip", undefined);
      return 5;
    });
    expect(ran).toBe(true);
    expect(await ok).toBe(5);
    await expect(observer.span("custom.fail", {}, () => Promise.reject("cookie=abc; failed"))).rejects.toBe("cookie=abc; failed");
    expect(memory.spans).toEqual([
      { name: "custom.ok", attributes: { "x.n": 1, "x.result": "done" }, status: { code: SpanStatusCode.UNSET }, exceptions: [], ended: 1 },
      {
        name: "custom.fail",
        attributes: {},
        status: { code: SpanStatusCode.ERROR, message: "cookie=[REDACTED] failed" },
        exceptions: [{ message: "cookie=[REDACTED] failed" }],
        ended: 1,
      },
    ]);
  });

  it("refuses a missing tracer", () => {
    expect(() => createOpenTelemetryObserver({} as never)).toThrow(
      'createOpenTelemetryObserver({ tracer }): tracer must be an OpenTelemetry Tracer, e.g. trace.getTracer("my-agent") from @opentelemetry/api',
    );
  });
});
