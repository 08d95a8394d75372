/**
 * `<pkg>/observe/opentelemetry` (an addition to 0.8.0, which offers only
 * the Cloudflare observer): a {@link WorkspaceObserver} that records the
 * Workspace's spans (spec 04 §4) on an OpenTelemetry `Tracer`, so they reach
 * whatever tracing backend an application already exports to.
 *
 * Only types come from `@opentelemetry/api`: this module loads nothing at
 * run time, and works with any tracer implementing the API (1.x).
 *
 * ```ts
 * import { trace } from "@opentelemetry/api";
 * import { createOpenTelemetryObserver } from "agent-computer/observe/opentelemetry";
 *
 * new Workspace({ storage, observer: createOpenTelemetryObserver({ tracer: trace.getTracer("my-agent") }) });
 * ```
 *
 * @module
 */
import type { Span, SpanStatusCode, Tracer } from "@opentelemetry/api";
import { definedAttributes, errorNameOf, sanitizeErrorMessage, type WorkspaceAttributeValue, type WorkspaceObserver, type WorkspaceSpan } from "../observer.js";

/** Options of {@link createOpenTelemetryObserver}. */
export interface OpenTelemetryObserverOptions {
  /** The tracer spans are started on, e.g. `trace.getTracer("my-agent")` from `@opentelemetry/api`. */
  tracer: Tracer;
}

/** `SpanStatusCode.ERROR` of `@opentelemetry/api` (its value, so that no run-time import is needed). */
const STATUS_ERROR: SpanStatusCode.ERROR = 2;

/** An error's name (`Error` instances only) and sanitised message — never its stack, which repeats the message unsanitised. */
function describeError(error: unknown): { name?: string; message: string } {
  const name = errorNameOf(error);
  let message: string;
  try {
    message = error instanceof Error ? String(error.message) : String(error);
  } catch {
    message = "(an error that cannot be printed)";
  }
  message = sanitizeErrorMessage(message);
  return name === undefined ? { message } : { name, message };
}

/** Runs `f`, swallowing what it throws: the tracer never fails an operation. */
function quietly(f: () => void): void {
  try {
    f();
  } catch {
    /* ignored */
  }
}

/**
 * Makes an observer that records every Workspace span (spec 04 §4) as an
 * OpenTelemetry span: `tracer.startActiveSpan(name, { attributes }, …)`
 * with the defined start attributes, then `run` at once with a span
 * forwarding defined values to `span.setAttribute`. When the operation
 * fails the span also gets status `ERROR` with the sanitised message
 * (control characters blanked, `token=`/`password=`/`Bearer …` values
 * redacted, at most 512 characters) and an exception event with that
 * message and, for an `Error`, its name — no stack trace. The span ends when the
 * operation settles; its result or error reaches the caller unchanged.
 * Tracing never fails an operation: errors thrown by the tracer's span
 * methods are swallowed; if `startActiveSpan` throws before calling back
 * (or has not called back when it returns) the operation runs once
 * untraced — a callback coming later (after an `await` in the tracer) gets
 * that run's promise and does not run it again; its span only ends when the
 * run settles; if it throws or
 * returns something else after calling back, the operation's own result or
 * error still reaches the caller.
 *
 * @example
 * ```ts
 * import { trace } from "@opentelemetry/api";
 * import { Workspace } from "agent-computer";
 * import { createOpenTelemetryObserver } from "agent-computer/observe/opentelemetry";
 *
 * const ws = new Workspace({
 *   storage: ctx.storage,
 *   observer: createOpenTelemetryObserver({ tracer: trace.getTracer("agent") }),
 * });
 * ```
 * @throws TypeError when `options` is not an object or `tracer` has no `startActiveSpan` function.
 */
export function createOpenTelemetryObserver(options: OpenTelemetryObserverOptions): WorkspaceObserver {
  if (options === null || typeof options !== "object") {
    throw new TypeError(`createOpenTelemetryObserver(options): options must be an object { tracer }, got ${options === null ? "null" : typeof options}`);
  }
  const tracer = options.tracer;
  if (!tracer || typeof tracer.startActiveSpan !== "function") {
    throw new TypeError('createOpenTelemetryObserver({ tracer }): tracer must be an OpenTelemetry Tracer, e.g. trace.getTracer("my-agent") from @opentelemetry/api');
  }
  return {
    span(name, attributes, run) {
      // The operation's promise, once the tracer has called back: from then on it is what the
      // caller gets, whatever the tracer returns or throws (tracing never fails an operation).
      let operation: ReturnType<typeof run> | undefined;
      let untraced = false;
      let returned: unknown;
      try {
        returned = tracer.startActiveSpan(name, { attributes: definedAttributes(attributes) }, (otel: Span) => {
          if (untraced && operation) {
            // A late callback (after startActiveSpan returned): the operation already runs untraced; it is
            // not run again. The span gets nothing but its end, when that run settles.
            const end = () => quietly(() => otel.end());
            operation.then(end, end);
            return operation;
          }
          operation ??= traced(otel, run);
          return operation;
        });
      } catch {
        /* a tracer failing before or after running the operation does not fail it */
      }
      if (operation) {
        // Whatever the tracer returned instead is not awaited by anyone: keep its rejection quiet.
        if (returned !== operation) Promise.resolve(returned).catch(() => {});
        return operation;
      }
      // The tracer threw before calling back, or has not called back yet: run the operation untraced,
      // once — recorded, so that a callback coming later gets this run instead of starting another.
      untraced = true;
      operation = run(NOOP_SPAN);
      return operation;
    },
  };
}

const NOOP_SPAN: WorkspaceSpan = { setAttribute() {} };

/** Runs `run` with `otel` as its span: attributes forwarded, failures recorded (sanitised), `end()` once it settles. */
async function traced<T>(otel: Span, run: (span: WorkspaceSpan) => Promise<T>): Promise<T> {
  const span: WorkspaceSpan = {
    setAttribute(key: string, value: WorkspaceAttributeValue | undefined) {
      if (value !== undefined) quietly(() => otel.setAttribute(key, value));
    },
  };
  try {
    return await run(span);
  } catch (error) {
    const described = describeError(error);
    quietly(() => otel.recordException(described));
    quietly(() => otel.setStatus({ code: STATUS_ERROR, message: described.message }));
    throw error;
  } finally {
    quietly(() => otel.end());
  }
}
