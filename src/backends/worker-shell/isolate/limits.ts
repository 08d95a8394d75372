/**
 * just-bash's execution limits as the shell applies them (issue 20, twenty-eighth attack run, fixer LM).
 *
 * - Output: just-bash charges every command's output to one counter for the whole `exec` (`maxOutputSize`, 16 MiB)
 *   and gave bytes back only for a pipe's intermediate output, so output written to a file by a redirection, or
 *   captured by `$(…)`/`<(…)`, counted against the run for good: a loop writing twenty 1 MB files stopped at the
 *   seventeenth (exit 126). Now the bytes a redirection sends to a file (or discards) and the bytes a command
 *   substitution captures are given back once they have left the output; what reaches the run's stdout/stderr is
 *   still bounded by the counter, and one command's output (a single `$(…)` capture included) by `maxOutputSize`.
 * - Input lines are not loop iterations: awk's records, `join`'s lines, `seq`'s numbers and `strings`' strings were
 *   counted against the 100,000-iteration loop limit; they are bounded by the input (64 MiB read bound) and output
 *   (16 MiB) limits instead. awk's own `for`/`while`/`do` loops keep their 100,000-iteration cap.
 *
 * scripts/gen-shell.mjs patches just-bash to call {@link releaseCaptured} and {@link releaseRedirected} (namespace
 * `__limits`, entries marked `// LM`). Bundled into the shell's Dynamic Worker.
 *
 * @module
 */

/** What just-bash keeps on a result: how many of its stdout/stderr bytes are already charged to the run. */
interface Accounted {
  internalOutputAccounting?: { stdout?: number; stderr?: number } | undefined;
}

/** just-bash's ExecutionScope, as far as it is read here. */
interface Scope {
  readonly outputBytesUsed: number;
}

/** just-bash's `relinquishPipelineOutput(scope, bytes, site)`: give `bytes` back to the run's output counter. */
type Relinquish = (scope: Scope, bytes: number, site: string) => void;

/** Give back `bytes` (clamped to what is charged) to the run's output counter. */
function release(scope: Scope, bytes: number, site: string, relinquish: Relinquish): void {
  const n = Math.min(Math.max(0, Math.floor(bytes)), scope.outputBytesUsed);
  if (Number.isSafeInteger(n) && n > 0) relinquish(scope, n, site);
}

/**
 * A command substitution's (or input process substitution's) result `result`, once its stdout has been captured:
 * its charged stdout and stderr bytes are given back (the stderr is charged again with the command it is reported
 * with) and the result carries no charge. Returns `result`.
 */
export function releaseCaptured<T>(scope: Scope, result: T, relinquish: Relinquish): T {
  if (result === null || typeof result !== "object") return result;
  const r = result as T & Accounted;
  const a = r.internalOutputAccounting;
  if (!a) return result;
  release(scope, (a.stdout ?? 0) + (a.stderr ?? 0), "command substitution", relinquish);
  try {
    r.internalOutputAccounting = { stdout: 0, stderr: 0 };
  } catch {
    // A frozen result: its charge was given back all the same.
  }
  return result;
}

/**
 * After a redirection: `charged` bytes of the command's output were charged, `kept` of them stay with the result
 * (what still goes to the command's stdout/stderr); the rest went to files, descriptors or nowhere and is given back.
 */
export function releaseRedirected(scope: Scope, charged: number, kept: number, relinquish: Relinquish): void {
  release(scope, charged - kept, "redirection", relinquish);
}
