/**
 * Issue 20, twenty-seventh attack run: `local -` in a function does not save the shell options, so a `set -e`,
 * `set -f` or `set -o pipefail` made after it in the function stays on after the function returns. bash 5.2
 * restores the `set` options when a function with `local -` returns — the documented way to change options
 * locally. A helper doing `local -; set -f` leaves globbing off for the rest of the script (`echo z*` prints
 * `z*`), one doing `local -; set -e` makes the caller exit on the next failure.
 * Tried: side by side with GNU bash 5.2.15 — `local -` then `set -e`, `set -o pipefail`, `set -f` in a function,
 * `$-` and `set -o` and a glob after it returns; `set -u` in a function without `local -` (kept, as bash).
 * Held: an option set in a function without `local -` stays set, as bash.
 * Found (low — options leak out of a function that asked to keep them local; 2 of 2 runs).
 * Suggested fix: in just-bash's `local` builtin (patched by scripts/gen-shell.mjs), on `-` record the `set -o`
 * options in the function's local frame and restore them when the function returns, as bash's `local -`.
 *
 * Fixed: fixer SJ (run 27) — scripts/gen-shell.mjs (`// SJ`) and isolate/expand-decl.ts: `local -` saves the `set`
 * options in the function's local scope (saveOptions) and the function's return puts them back (popScope); `local -`
 * no longer lists the function's locals.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("local - restores the set options when the function returns, as bash", async () => {
  const out = await shellCases({}, [
    'f(){ local -; set -e; }; f; false; echo "still here"',
    "f(){ local -; set -o pipefail; }; f; false | true; echo $?",
    "f(){ local -; set -f; }; f; touch zz; echo z*",
  ]);
  expect(out).toEqual([
    // Was: "" (set -e stayed on; exit 1).
    ['f(){ local -; set -e; }; f; false; echo "still here"', "still here\n", ""],
    // Was: "1\n".
    ["f(){ local -; set -o pipefail; }; f; false | true; echo $?", "0\n", ""],
    // Was: "z*\n".
    ["f(){ local -; set -f; }; f; touch zz; echo z*", "zz\n", ""],
  ]);
});
