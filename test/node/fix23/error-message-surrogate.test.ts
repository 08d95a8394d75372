/**
 * Fixer FA2, run 23 (siblings of attack23a span-error-message-splits-surrogate): every text sanitizeErrorMessage
 * gives — a span's error.message and error.name, the OpenTelemetry observer's status message and recorded
 * exception, sync telemetry's `error` — is cut without splitting a surrogate pair: at 512 UTF-16 units, one fewer
 * when unit 512 would be the first half of a pair; the 65,536-unit input cut likewise. The OpenTelemetry tracer is a
 * minimal stand-in (as test/node/observe-sanitize.test.ts): OpenTelemetry has no local recorder on Node.
 */
import { describe, expect, it } from "vitest";
import { syncOperationLog, type SyncOperationTelemetry, type WorkspaceObserver } from "../../../src/index.js";
import { createOpenTelemetryObserver } from "../../../src/observe/opentelemetry.js";
import { errorNameOf, MAX_ERROR_MESSAGE_CHARS, sanitizeErrorMessage, withSpan } from "../../../src/observer.js";

const SMILE = "\u{1F600}"; // two UTF-16 units
/** 511 units then a pair at 511–512: a cut at 512 would keep its first half. */
const split = "a".repeat(511) + SMILE + "tail";
/** Lone surrogates as \uXXXX text, so a failing diff shows them. */
const shown = (v: unknown) => (typeof v === "string" ? v.replace(/[\uD800-\uDFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`) : v);

describe("sanitizeErrorMessage keeps whole characters", () => {
  it("cuts before a pair that straddles 512, keeps one that ends at 512", () => {
    expect(MAX_ERROR_MESSAGE_CHARS).toBe(512);
    expect(shown(sanitizeErrorMessage(split))).toBe("a".repeat(511));
    expect(sanitizeErrorMessage("a".repeat(510) + SMILE + "tail")).toBe("a".repeat(510) + SMILE);
    expect(sanitizeErrorMessage(SMILE.repeat(300))).toBe(SMILE.repeat(256));
  });

  it("the 65,536-unit input cut does not leave half a pair either", () => {
    // token=<65,528 x> then a space at 65,534 and 😀 at 65,535–65,536: the input cut falls inside the pair.
    const message = "token=" + "x".repeat(65_528) + " " + SMILE;
    expect(message.length).toBe(65_537);
    expect(shown(sanitizeErrorMessage(message))).toBe("token=[REDACTED] ");
  });

  it("errorNameOf, withSpan's error.name and error.message", async () => {
    const error = Object.assign(new Error(split), { name: split });
    expect(shown(errorNameOf(error))).toBe("a".repeat(511));
    const fields: Record<string, unknown> = {};
    const recorder: WorkspaceObserver = { span: (_n, _a, run) => run({ setAttribute: (k, v) => void (fields[k] = v) }) };
    await expect(withSpan(recorder, "workspace.test", {}, async () => Promise.reject(error))).rejects.toBe(error);
    expect(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, shown(v)]))).toEqual({ "error.name": "a".repeat(511), "error.message": "a".repeat(511) });
  });

  it("the OpenTelemetry observer's recorded exception and status message", async () => {
    const error = Object.assign(new Error(split), { name: split });
    const exceptions: unknown[] = [];
    const statuses: unknown[] = [];
    const span: Record<string, unknown> = {};
    for (const k of ["setAttribute", "setAttributes", "addEvent", "updateName", "addLink", "addLinks", "end"]) span[k] = () => span;
    span.isRecording = () => true;
    span.recordException = (e: unknown) => void exceptions.push(e);
    span.setStatus = (s: unknown) => void statuses.push(s);
    const o = createOpenTelemetryObserver({ tracer: { startActiveSpan: (_n: string, _o: unknown, fn: (s: unknown) => unknown) => fn(span) } as never });
    await expect(o.span("n", {}, async () => Promise.reject(error))).rejects.toBe(error);
    expect(exceptions).toEqual([{ name: "a".repeat(511), message: "a".repeat(511) }]);
    expect(statuses).toEqual([{ code: 2, message: "a".repeat(511) }]);
  });

  it("sync telemetry's error", () => {
    const operation: SyncOperationTelemetry = { direction: "pull", backend: "box", operationId: "op", blocks: 1, entries: 0, bytes: 0, skipped: 0, durationMs: 1, ok: false, error: split };
    expect(shown((syncOperationLog(operation, { now: () => 0 }) as { error?: string }).error)).toBe("a".repeat(511));
  });
});
