/**
 * Observer spans (spec 01 §5.4): a hook around every stub-boundary call.
 *
 * @module
 */

/** One span attribute value (OpenTelemetry's primitive attribute types). */
export type WorkspaceAttributeValue = string | number | boolean;
/** Span attributes by name, e.g. `workspace.fs.path`; `undefined` values are dropped before the span starts. */
export type WorkspaceAttributes = Record<string, WorkspaceAttributeValue | undefined>;

/** A span in progress: attributes may be added while it runs. */
export interface WorkspaceSpan {
  /**
   * Sets (or replaces) one attribute. The stubs add result attributes on
   * success (`workspace.fs.entries`, `workspace.fs.matches`) and, on
   * failure, `error.name` and `error.message` (control characters blanked,
   * tokens redacted, at most 512 characters) before rethrowing (spec 01 §5.4).
   */
  setAttribute(key: string, value: WorkspaceAttributeValue): void;
}

/** Receives one span per observed call; must call `run` and return its result. */
export interface WorkspaceObserver {
  /**
   * Wraps one stub-boundary call (spec 01 §5.4): `name` is
   * `workspace.<area>.<method>` (e.g. `workspace.fs.readFile`),
   * `attributes` its arguments (`workspace.fs.path`, …, no `undefined`
   * values). Must call `run` once and return what it returns (a promise
   * for the stub calls), unchanged: an error `run` throws or rejects with
   * must reach the caller.
   */
  span<T>(name: string, attributes: WorkspaceAttributes, run: (span: WorkspaceSpan) => T): T;
}

const noopSpan: WorkspaceSpan = { setAttribute() {} };

/** The default observer: runs the callback and records nothing. */
export const noopObserver: WorkspaceObserver = {
  span: (_name, _attributes, run) => run(noopSpan),
};
