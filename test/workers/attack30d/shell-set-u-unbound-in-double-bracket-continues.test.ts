/**
 * Issue 20, thirtieth attack run: under `set -u`, an unset variable inside `[[ … ]]` does not stop the script: the
 * test prints `bash: conditional expression: exit`, is false (status 2 for `[[ $X == x ]]`), and the script goes on, so
 * `set -u; [[ -f "$CONFIG" ]] || echo no-config; echo after` runs both echoes and exits 0. bash 5.2 (non-interactive)
 * prints `MISSING: unbound variable` and exits the shell, status 127, as it does for `[ -z "$X" ]` and `echo "$X"`.
 *
 * Tried: side by side with bash 5.2.15: `set -u` with `[[ -z "$MISSING" ]]`, `[[ -n "$MISSING" ]]` in an `if`,
 * `[[ $MISSING == x ]]`, `[[ -f "$CONFIG" ]] || …`, `[[ -z "${arr[0]}" ]]`, and the same with `[ … ]` and `echo "$X"`.
 * Held: `[ -z "$MISSING" ]` and `echo "$MISSING"` under set -u (shell exits 127 after `unbound variable`),
 * `[[ -z "${MISSING:-}" ]]`, `set -u; arr=(); for x in "${arr[@]}"`.
 * Found (medium — the `set -u` guard of a CI script lets it run on with a missing required variable, treating it as
 * empty, exit 0; 2 of 2 runs).
 * Suggested fix: in the shell's `[[ ]]` evaluation (just-bash's conditional-expression code as patched by
 * scripts/gen-shell.mjs): let the nounset error thrown while expanding an operand propagate as the same fatal
 * `NAME: unbound variable` exit (127) it is for a simple command — today it seems caught and turned into a
 * `conditional expression: exit` false result.
 *
 * Fixed: `[[ ]]` and `(( ))` let just-bash's ExitError (what `set -u` and `${X:?}` raise, ending the shell) go on up
 * instead of catching it into a `conditional expression` / `arithmetic expression` message (scripts/gen-shell.mjs,
 * AE, run 30). Siblings in test/workers/fix30/shell-arith-param-and-nounset.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("set -u stops the script at an unset variable inside [[ ]], as bash", async () => {
  const out = await shellCases({}, [
    'set -u; [[ -f "$CONFIG" ]] || echo no-config; echo after',
    'set -u; if [[ -n "$MISSING" ]]; then echo yes; fi; echo after',
    'set -u; [[ $MISSING == x ]]; echo after $?',
  ], { collect: (_ws, c, r) => [c, r.stdout, r.stderr, r.exitCode] });
  expect(out).toEqual([
    // Was: "no-config\nafter\n", "bash: conditional expression: exit\n", 0.
    ['set -u; [[ -f "$CONFIG" ]] || echo no-config; echo after', "", "bash: CONFIG: unbound variable\n", 127],
    // Was: "after\n", "bash: conditional expression: exit\n", 0.
    ['set -u; if [[ -n "$MISSING" ]]; then echo yes; fi; echo after', "", "bash: MISSING: unbound variable\n", 127],
    // Was: "after 2\n", "bash: conditional expression: exit\n", 0.
    ['set -u; [[ $MISSING == x ]]; echo after $?', "", "bash: MISSING: unbound variable\n", 127],
  ]);
});
