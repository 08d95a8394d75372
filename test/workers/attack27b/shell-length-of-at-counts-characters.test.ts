/**
 * Issue 20, twenty-seventh attack run: `${#@}` and `${#*}` give the length of the joined positional parameters
 * (`set -- a b c` → 5, `set -- one` → 3) instead of their number, which bash 5.2 gives (3 and 1, like `$#`).
 * Tried: side by side with GNU bash 5.2.15 — `${#@}`, `${#*}`, quoted, in a function with an argument holding a
 * blank; `${#a[@]}`, `${#a}`, `${#a[1]}`, `$#`.
 * Held: `$#`, `${#a[@]}`, `${#a}`, `${#a[1]}`, `${#x}`.
 * Found (low — a count silently wrong; `$#` is the common spelling; 2 of 2 runs).
 * Suggested fix: in just-bash's `${#…}` expansion (patched by scripts/gen-shell.mjs) treat the parameters `@` and
 * `*` as the positional array: their length is the number of positional parameters.
 *
 * Fixed: fixer SJ (run 27) — scripts/gen-shell.mjs (`// SJ`, "${#@} counts parameters"): just-bash's `${#…}` returns
 * `$#` for the parameters `@` and `*`.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("${#@} and ${#*} are the number of positional parameters, as bash", async () => {
  const out = await shellCases({}, [
    "set -- a b c; echo ${#@} ${#*}",
    'set -- one; echo ${#@} "${#*}"',
    'f(){ echo ${#@}; }; f "x y" z',
  ]);
  expect(out).toEqual([
    // Was: "5 5\n".
    ["set -- a b c; echo ${#@} ${#*}", "3 3\n", ""],
    // Was: "3 3\n".
    ['set -- one; echo ${#@} "${#*}"', "1 1\n", ""],
    // Was: "5\n".
    ['f(){ echo ${#@}; }; f "x y" z', "2\n", ""],
  ]);
});
