/**
 * `<pkg>/observe/cloudflare` (spec 04 §4): a {@link WorkspaceObserver} that
 * turns the Workspace's spans into Cloudflare Workers tracing spans
 * (`ctx.tracing`, or `tracing` from `cloudflare:workers`).
 *
 * ```ts
 * import { tracing } from "cloudflare:workers";
 * import { createCloudflareObserver } from "agent-computer/observe/cloudflare";
 *
 * new Workspace({ storage: ctx.storage, observer: createCloudflareObserver({ tracing }) });
 * ```
 *
 * @module
 */
import { definedAttributes, noopObserver, type WorkspaceAttributes, type WorkspaceAttributeValue, type WorkspaceObserver, type WorkspaceSpan } from "../observer.js";

/**
 * The part of a Workers tracing span this observer uses (workerd's `Span`
 * from `@cloudflare/workers-types` fits it).
 */
export interface CloudflareTracingSpan {
  /** Sets one attribute on the span. */
  setAttribute(key: string, value: WorkspaceAttributeValue): unknown;
}

/**
 * The part of Workers tracing this observer uses: `enterSpan(name, callback)`
 * opens a span, calls `callback` with it and returns what `callback`
 * returns, ending the span when a returned promise settles. workerd's
 * `Tracing` (`ctx.tracing`, `tracing` from `cloudflare:workers`) fits it.
 */
export interface CloudflareTracing {
  /** Runs `callback` inside a new span named `name` and returns its result. */
  enterSpan<T>(name: string, callback: (span: CloudflareTracingSpan) => T): T;
}

/** Options of {@link createCloudflareObserver}. */
export interface CloudflareObserverOptions {
  /**
   * Workers tracing: `ctx.tracing` or `tracing` from `cloudflare:workers`.
   * `undefined` (or any falsy value, e.g. where the runtime has no tracing)
   * gives a pass-through observer that records nothing.
   */
  tracing: CloudflareTracing | undefined | null;
}

/**
 * Makes an observer that records every Workspace span as a Workers tracing
 * span (spec 04 §4). With a falsy `tracing` it is a pass-through observer
 * (runs each operation with a no-op span). Otherwise `span(name, attributes,
 * run)` returns `tracing.enterSpan(name, rs => …)`, which sets each defined
 * start attribute on `rs` and calls `run` at once with a span forwarding
 * defined values to `rs.setAttribute`; the operation's result or error
 * passes through unchanged. Tracing never fails an operation: errors
 * thrown by `rs.setAttribute` are swallowed; if `enterSpan` throws before
 * calling back (or has not called back when it returns) the operation runs
 * once untraced — a callback coming later (after an `await` in the tracer)
 * gets that run's promise and does not run it again; if
 * it throws or returns something else after calling back, the operation's
 * own result or error still reaches the caller.
 *
 * @example
 * ```ts
 * import { DurableObject, tracing } from "cloudflare:workers";
 * import { withWorkspace } from "agent-computer";
 * import { createCloudflareObserver } from "agent-computer/observe/cloudflare";
 *
 * export class Agent extends withWorkspace(DurableObject, (self) => ({
 *   storage: self.ctx.storage,
 *   observer: createCloudflareObserver({ tracing }),
 * })) {}
 * ```
 * @throws TypeError when `options` is not an object, or `tracing` is truthy but has no `enterSpan` function.
 */
export function createCloudflareObserver(options: CloudflareObserverOptions): WorkspaceObserver {
  if (options === null || typeof options !== "object") {
    throw new TypeError(`createCloudflareObserver(options): options must be an object { tracing }, got ${options === null ? "null" : typeof options}`);
  }
  const tracing = options.tracing;
  if (!tracing) return noopObserver;
  if (typeof tracing.enterSpan !== "function") {
    throw new TypeError("createCloudflareObserver({ tracing }): tracing must be Workers tracing (ctx.tracing or tracing from cloudflare:workers), with an enterSpan function");
  }
  return {
    span(name, attributes, run) {
      // The operation's promise, once tracing has called back: from then on it is what the
      // caller gets, whatever enterSpan returns or throws (tracing never fails an operation).
      // Set before returning when it runs untraced, so a late callback gets that run instead of another.
      let operation: ReturnType<typeof run> | undefined;
      let returned: unknown;
      try {
        returned = tracing.enterSpan(name, (rs) => {
          operation ??= traced(rs, attributes, run);
          return operation;
        });
      } catch {
        /* tracing failing before or after running the operation does not fail it */
      }
      if (operation) {
        // Whatever enterSpan returned instead is not awaited by anyone: keep its rejection quiet.
        if (returned !== operation) Promise.resolve(returned).catch(() => {});
        return operation;
      }
      // enterSpan threw before calling back, or has not called back yet: run the operation untraced,
      // once — recorded, so that a callback coming later returns this run (its span ends when it
      // settles) instead of starting another.
      operation = run(NOOP_SPAN);
      return operation;
    },
  };
}

const NOOP_SPAN: WorkspaceSpan = { setAttribute() {} };

/** Sets the defined start attributes on `rs`, then runs `run` with a span forwarding defined values to it. */
async function traced<T>(rs: CloudflareTracingSpan, attributes: WorkspaceAttributes, run: (span: WorkspaceSpan) => Promise<T>): Promise<T> {
  const set = (key: string, value: WorkspaceAttributeValue | undefined) => {
    if (value === undefined) return;
    try {
      rs.setAttribute(key, value);
    } catch {
      /* tracing never fails the operation */
    }
  };
  for (const [key, value] of Object.entries(definedAttributes(attributes))) set(key, value);
  return await run({ setAttribute: set });
}
