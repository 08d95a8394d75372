/**
 * Issue 20, twenty-seventh attack run: the one-character case operators `${a[@]^}`, `${a[@],}`, `${a[@]^[ab]}`
 * (and `${@^}`, `${*^}`, `${@,}`) join the elements into one word and change only the first character of it;
 * bash applies them to each element and keeps the elements separate words (`a=(apple banana); "${a[@]^}"` is the
 * two words `Apple` `Banana`), as it does for `^^`, `,,`, `#`, `%` and `/`. Title-casing a list gives the one word
 * `Apple banana` with status 0, and `for w in "${a[@]^}"` runs once.
 * Tried: side by side with GNU bash 5.2.15 — `^`, `,`, `^[ab]`, `^^`, `,,`, `^^[a]` on `${a[@]}`, `${a[*]}`,
 * `$@`, `$*`, and an associative array of one element.
 * Held: `^^`, `,,`, `^^[a]`, `,,[L]` on arrays and scalars; `^`/`,` on a scalar; `#`, `%`, `/`, `//`, `/#`, `/%`
 * on arrays.
 * Found (medium — the elements become one word and all but the first are left as is, silently; 2 of 2 runs).
 * Suggested fix: in just-bash's case-modification expansion (patched by scripts/gen-shell.mjs), for an `@`/`*`
 * subscript or `$@`/`$*` apply `^`/`,` (with or without a pattern) to each element and expand to one word per element
 * (quoted `@`), as the `^^`/`,,` path already does.
 *
 * Fixed: fixer SJ (run 27) — scripts/gen-shell.mjs (`// SJ`) and src/backends/worker-shell/isolate/expand-decl.ts: a case
 * modification (`^`, `,`, `^^`, `,,`, with or without a pattern) of `@`, `*`, `NAME[@]`, `NAME[*]` is applied to each
 * element (caseModEach; the elements joined by a blank or IFS's first character), and a double-quoted `"…${LIST^}…"`
 * expands to one word per element for `@` (caseModWords), as bash. `^^`/`,,` on a quoted `[@]` list (one word before) too.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("${a[@]^} and ${@,} change the first character of every element, as bash", async () => {
  const out = await shellCases({}, [
    "a=(apple banana); printf '<%s>' \"${a[@]^}\" \"${a[*]^}\"; echo",
    "a=(apple banana); printf '<%s>' \"${a[@]^[ab]}\"; echo",
    "b=(APPLE BANANA); printf '<%s>' \"${b[@],}\"; echo",
    "set -- apple banana; printf '<%s>' \"${@^}\" \"${*^}\"; echo",
    "set -- Apple Banana; printf '<%s>' \"${@,}\"; echo",
  ]);
  expect(out).toEqual([
    // Was: "<Apple banana><Apple banana>\n" (one word).
    ["a=(apple banana); printf '<%s>' \"${a[@]^}\" \"${a[*]^}\"; echo", "<Apple><Banana><Apple Banana>\n", ""],
    // Was: "<Apple banana>\n".
    ["a=(apple banana); printf '<%s>' \"${a[@]^[ab]}\"; echo", "<Apple><Banana>\n", ""],
    // Was: "<aPPLE BANANA>\n".
    ["b=(APPLE BANANA); printf '<%s>' \"${b[@],}\"; echo", "<aPPLE><bANANA>\n", ""],
    // Was: "<Apple banana><Apple banana>\n" (one word).
    ["set -- apple banana; printf '<%s>' \"${@^}\" \"${*^}\"; echo", "<Apple><Banana><Apple Banana>\n", ""],
    // Was: "<apple Banana>\n".
    ["set -- Apple Banana; printf '<%s>' \"${@,}\"; echo", "<apple><banana>\n", ""],
  ]);
});
