/**
 * Issue 20, twenty-seventh attack run: `declare -f NAME` (and `typeset -f NAME`) prints nothing for a defined
 * function, status 0, and `declare -f` with no name prints `f ()`, `{`, `    # function body`, `}` — a placeholder,
 * not the body. So the usual way to hand functions to another shell — `bash -c "$(declare -f f); f x"`, `eval
 * "$(declare -f f | sed …)"` — runs nothing: a syntax error or `command not found`. `type f` prints the body right.
 * Tried: side by side with GNU bash 5.2.15 — `declare -f f`, `typeset -f f`, `declare -f`, `declare -F`,
 * `declare -F f`, `declare -f nope`, `bash -c "$(declare -f f); f there"`, a renamed copy through eval.
 * Held: `type f` prints bash's layout; `declare -F`, `declare -F f`; `declare -f nope` / `-F nope` status 1;
 * `unset -f`.
 * Found (medium — a function definition silently lost, the copy fails; 2 of 2 runs).
 * Suggested fix: make `declare -f`/`typeset -f` (with and without names; just-bash's declare builtin as patched by
 * scripts/gen-shell.mjs) print each function as `type` does (`f () ` newline `{ ` … `}`), one after another, names
 * sorted when none are given.
 *
 * Fixed: fixer SJ (run 27) — scripts/gen-shell.mjs (`// SJ`) and isolate/expand-decl.ts: `declare -f [NAME…]` /
 * `typeset -f` print each function as `f () `, `{ `, its statements indented by four spaces (just-bash's AST printer),
 * `}` — all functions sorted by name when none is named, status 1 when a named one is missing (declareFunctions);
 * `type f` prints the same body (it printed `...` for a compound command such as `if`). A compound command's own
 * layout is just-bash's printer's, not bash's indented one; it reads back the same.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("declare -f prints the function's definition, so it can be re-read, as bash", async () => {
  const out = await shellCases({}, [
    'f(){ echo "a $1"; }; declare -f f; echo "rc=$?"',
    'f(){ echo "a $1"; }; typeset -f',
    'f(){ echo "hi $1"; }; bash -c "$(declare -f f); f there"',
    "f(){ if [[ $1 == 1 ]]; then echo y; fi; }; eval \"$(declare -f f | sed 's/^f /g /')\"; g 1",
  ]);
  expect(out).toEqual([
    // Was: "rc=0\n".
    ['f(){ echo "a $1"; }; declare -f f; echo "rc=$?"', 'f () \n{ \n    echo "a $1"\n}\nrc=0\n', ""],
    // Was: "f ()\n{\n    # function body\n}\n".
    ['f(){ echo "a $1"; }; typeset -f', 'f () \n{ \n    echo "a $1"\n}\n', ""],
    // Was: "" and "bash: syntax error: Parse error at 1:1: syntax error near unexpected token `;'".
    ['f(){ echo "hi $1"; }; bash -c "$(declare -f f); f there"', "hi there\n", ""],
    // Was: "" and "bash: g: command not found".
    ["f(){ if [[ $1 == 1 ]]; then echo y; fi; }; eval \"$(declare -f f | sed 's/^f /g /')\"; g 1", "y\n", ""],
  ]);
});
