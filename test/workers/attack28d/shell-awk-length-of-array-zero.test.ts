/**
 * Issue 20, twenty-eighth attack run: awk's `length(ARRAY)` is always 0 — `a[1]=1; a[2]=2; print length(a)` prints 0,
 * also after `split` and after `{ c[$1]++ }` over the input; gawk 5.2 and mawk 1.3.4 (and POSIX 2024) give the number
 * of elements. `awk '{ c[$1]++ } END { print length(c) }'` ("how many distinct values") silently answers 0.
 * Tried: side by side with gawk 5.2.1 / mawk 1.3.4 — `length(a)` after assignments, after `split("a b c", y)` and
 * `split("a:b", y, ":")`, after `{ c[$1]++ }`, after `delete`.
 * Held: `length($0)`, `length(s)` of a scalar, bare `length`, `split`'s return value, `for (k in y)` over split
 * elements, `length(x)` after `delete x["a"]` (0).
 * Found (medium — a counting idiom silently prints 0; 2 of 2 runs).
 * Suggested fix: just-bash's awk `length` builtin (patched by scripts/gen-shell.mjs): when its argument is a bare
 * name that is an array (`ctx.arrays[name]` exists), return the number of its elements instead of the length of
 * the (unset) scalar of that name.
 * Fixed: scripts/gen-shell.mjs "awk length of an array (AW)" — `length(NAME)` of an array NAME (ARGV, ENVIRON, a
 * parameter bound to the caller's array included) is its number of elements (isolate/awk.ts `arrayLength`); a scalar
 * keeps its string length. `length arr` without parentheses stays an error-free concatenation here, where gawk and
 * mawk reject it (left alone). Siblings in test/workers/fix28/awk-arrays.test.ts (fixer AW).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const tree = { files: { "n.txt": "5\n3\n5\n1\n3\n" } };

it("length(ARRAY) is the number of elements, as gawk and mawk", async () => {
  const out = await shellCases(tree, [
    "awk 'BEGIN { a[1]=1; a[2]=2; print length(a) }'",
    "awk 'BEGIN { n=split(\"a b c\", y); print n, length(y) }'",
    "awk '{ c[$1]++ } END { print length(c) }' n.txt",
  ]);
  expect(out).toEqual([
    // Was: "0\n".
    ["awk 'BEGIN { a[1]=1; a[2]=2; print length(a) }'", "2\n", ""],
    // Was: "3 0\n".
    ["awk 'BEGIN { n=split(\"a b c\", y); print n, length(y) }'", "3 3\n", ""],
    // Was: "0\n".
    ["awk '{ c[$1]++ } END { print length(c) }' n.txt", "3\n", ""],
  ]);
});
