/**
 * Issue 20, twenty-eighth attack run: in awk, referring to an array element (`a[$1]` as a statement, `x[1] == ""`)
 * does not create it; POSIX awk, gawk 5.2 and mawk 1.3.4 create an element on any reference. The classic two-file
 * idiom `awk 'NR==FNR{a[$1];next} $1 in a' keys data` (join / filter by a key list) therefore prints nothing, exit 0,
 * and `{ seen[$1] } END { for (k in seen) n++ }` counts 0.
 * Tried: side by side with gawk 5.2.1 / mawk 1.3.4 — `NR==FNR{a[$1];next} $1 in a`, `{ keys[$1] } END { for (k in
 * keys) n++ }`, `BEGIN { a["k"]; if ("k" in a) … }`, `{ if (!($1 in s)) { s[$1]; … } }` (dedupe keeping order),
 * `x[1] == ""` then `(1 in x)`.
 * Held: elements made by assignment (`a[$1]=1`, `c[$3]++`, `!seen[$0]++`), `(k in a)` not creating an element,
 * `delete`, `split` (its count and elements), `for (k in a)` over assigned elements.
 * Found (medium — a common awk idiom silently selects nothing / counts 0; 2 of 2 runs).
 * Suggested fix: scripts/gen-shell.mjs "awk array element read (SA)" (isolate/awk.ts `load`): when evaluating an
 * array element `NAME[key]` as an expression (not as the right operand of `in`), create it uninitialized
 * (`arrays[NAME][key] ??= ""`, kind "uninit") before reading it.
 * Fixed: scripts/gen-shell.mjs "awk element reference creates it (AW)" — just-bash's element read creates a missing
 * element as isolate/awk.ts `UNINIT` (through its counted setter; `load` reads it as uninitialized, so `== 0` and
 * `== ""` both hold); `in` and `delete` create none. Siblings (arrays through function parameters, recursion, locals,
 * argument order) in test/workers/fix28/awk-arrays.test.ts (fixer AW).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const tree = { files: { "keys.txt": "b\nd\n", "data.txt": "a 1\nb 2\nc 3\nd 4\n", "n.txt": "5\n3\n5\n1\n3\n" } };

it("a referenced array element exists afterwards, as POSIX awk", async () => {
  const out = await shellCases(tree, [
    "awk 'NR==FNR{a[$1];next} $1 in a' keys.txt data.txt",
    "awk '{ keys[$1] } END { n=0; for (k in keys) n++; print n }' n.txt",
    "awk 'BEGIN { a[\"k\"]; if (\"k\" in a) print \"yes\"; else print \"no\" }'",
    "awk '{ if (!($1 in s)) { s[$1]; o[++n]=$1 } } END { for (i=1;i<=n;i++) print o[i] }' n.txt",
  ]);
  expect(out).toEqual([
    // Was: "" (nothing selected).
    ["awk 'NR==FNR{a[$1];next} $1 in a' keys.txt data.txt", "b 2\nd 4\n", ""],
    // Was: "0\n".
    ["awk '{ keys[$1] } END { n=0; for (k in keys) n++; print n }' n.txt", "3\n", ""],
    // Was: "no\n".
    ["awk 'BEGIN { a[\"k\"]; if (\"k\" in a) print \"yes\"; else print \"no\" }'", "yes\n", ""],
    // Was: "5\n3\n5\n1\n3\n" (no line dropped).
    ["awk '{ if (!($1 in s)) { s[$1]; o[++n]=$1 } } END { for (i=1;i<=n;i++) print o[i] }' n.txt", "5\n3\n1\n", ""],
  ]);
});
