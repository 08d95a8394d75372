/**
 * `return`, `break` and `continue` that end a subshell instead of leaving it (issue 20, run 35, fixer RP).
 *
 * bash runs each element of a multi-command pipeline (all of them, or all but the last under `shopt -s lastpipe`
 * with job control off, as in a script), every `$( … )` / backquote substitution and every `<( … )` / `>( … )` in a
 * subshell: a forked copy of the shell. A `return` there ends only that copy, its status the copy's exit status
 * (bash 5.2.15: `f(){ echo x | { read v; return 2; }; echo "after $?"; }` prints `after 2` and f goes on); so do
 * `break` and `continue` (the copy's status 0: `for i in 1 2; do echo x | break; echo $i; done` prints 1 and 2).
 * The copy cannot reach the function or loop of the parent shell. just-bash unwinds these as JavaScript errors
 * (ReturnError, BreakError, ContinueError and its SubshellExitError for a `break` in a `( … )` inside a loop) and
 * only its `( … )` caught them; a pipeline element and a substitution let them through to the enclosing function
 * or loop, which returned (or broke) from the middle of the caller's pipeline. The patches in scripts/gen-shell.mjs
 * (RP) turn them into just-bash's ExitError there, so the place that already ends a subshell on `exit N` ends it.
 */

/** An error class of just-bash's interpreter, as found in its bundle. */
export type ErrorClass = abstract new (...args: never[]) => object;

/** just-bash's ExitError constructor: `(exitCode, stdout, stderr)`. */
export type ExitErrorClass<E> = new (exitCode: number, stdout?: string, stderr?: string) => E;

/** The interpreter's output-carrying error shape (stdout/stderr collected on the way up, and their accounting). */
interface ControlError {
  stdout?: string;
  stderr?: string;
  exitCode?: number;
  internalOutputAccounting?: { stdout: number; stderr: number };
}

/**
 * `error` as the exit of the subshell it was raised in: a `return` (an instance of `returnError`) becomes an
 * `exitError` with the return's status (already 0–255, as just-bash's `return` builtin reduces it: `return 300` is
 * 44, `return -1` is 255, bash's own arithmetic); a `break`/`continue` or just-bash's SubshellExitError (any of
 * `loopErrors`) one with status 0, bash's status of a subshell that ran `break`. The output the error carried (what
 * the subshell printed before it) is kept, with its accounting. Any other error (or value) is returned unchanged.
 */
export function subshellExit<E>(error: unknown, returnError: ErrorClass, loopErrors: readonly ErrorClass[], exitError: ExitErrorClass<E>): unknown {
  let status: number;
  if (error instanceof returnError) status = (error as ControlError).exitCode ?? 0;
  else if (loopErrors.some((kind) => error instanceof kind)) status = 0;
  else return error;
  const from = error as ControlError;
  const exit = new exitError(status, from.stdout ?? "", from.stderr ?? "");
  if (from.internalOutputAccounting !== undefined) (exit as ControlError).internalOutputAccounting = { ...from.internalOutputAccounting };
  return exit;
}
