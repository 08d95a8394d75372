/**
 * Best-effort disposal of an exec handle (or anything with an optional `[Symbol.dispose]`).
 * @module
 */

/**
 * Calls `value[Symbol.dispose]()` when it has one; errors are ignored. For an exec handle this cancels its
 * local reader and never kills the run (spec 02 §1.3); through a remote client (`getWorkspace(stub)`) it frees
 * the object-side handle stub, which otherwise lives until the client is disposed. Used by the exec tool, the
 * tool-directory runners and `ws:container` once they are done with a run (issue 20, run 35).
 */
export function disposeQuietly(value: { [Symbol.dispose]?: () => void } | undefined): void {
  try {
    value?.[Symbol.dispose]?.();
  } catch {
    // Disposal is best effort: the run's outcome is already known.
  }
}
