/**
 * Observer spans at the stub boundary (spec 01 §5.4).
 *
 * @module
 */
import type { WorkspaceAttributes, WorkspaceAttributeValue, WorkspaceObserver, WorkspaceSpan } from "../observer.js";

/** Longest `error.message` attribute, in UTF-16 code units. */
export const MAX_ERROR_MESSAGE_CHARS = 512;

/**
 * A message safe to record: control characters become spaces, `token=…` and
 * `Bearer …` values are replaced by `[redacted]`, and the result is cut to
 * {@link MAX_ERROR_MESSAGE_CHARS} characters.
 */
export function sanitizeErrorMessage(message: string): string {
  return message
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, " ")
    .replace(/(token=)[^\s&;,]+/gi, "$1[redacted]")
    .replace(/(Bearer )\S+/g, "$1[redacted]")
    .slice(0, MAX_ERROR_MESSAGE_CHARS);
}

function defined(attributes: WorkspaceAttributes): Record<string, WorkspaceAttributeValue> {
  const out: Record<string, WorkspaceAttributeValue> = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) out[key] = value;
  return out;
}

/**
 * Runs `run` inside `observer.span(name, attributes)`. On success `onResult`
 * may add attributes from the result; on failure `error.name` and a
 * sanitised `error.message` are set and the error is rethrown.
 */
export function withSpan<T>(
  observer: WorkspaceObserver,
  name: string,
  attributes: WorkspaceAttributes,
  run: () => Promise<T>,
  onResult?: (result: T, span: WorkspaceSpan) => void,
): Promise<T> {
  return observer.span(name, defined(attributes), async (span) => {
    try {
      const result = await run();
      onResult?.(result, span);
      return result;
    } catch (error) {
      const e = error instanceof Error ? error : new Error(String(error));
      span.setAttribute("error.name", e.name);
      span.setAttribute("error.message", sanitizeErrorMessage(e.message));
      throw error;
    }
  });
}
