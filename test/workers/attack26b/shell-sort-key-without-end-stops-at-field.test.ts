/**
 * Issue 20, twenty-sixth attack run: `sort -k N` (a key with no end) compares only field N, where POSIX and GNU sort
 * compare from field N to the end of the line; and a character offset (`-k N.C`) is cut inside field N alone. So
 * ties on field N are broken by the whole line instead of by the following fields: `printf 'x 1 b\ny 1 a\n' | sort
 * -k2` gives `x 1 b` first (GNU: `y 1 a`), with `-t, -k2` too, and `-s -k2` keeps input order where GNU orders by
 * the rest of the line. `-k2.2` and `-k1.2` (an offset past the field's end reaches into the next field in GNU) order
 * differently too. `sort -k2` is the common spelling of "sort by the second column onwards".
 * (Leading blanks belonging to a field without -b is the separate, known "sort -k with blanks" — avoided here: one
 * blank between fields; run 24's note.)
 * Tried: side by side with GNU coreutils 9.1 sort (LC_ALL=C.UTF-8) — -k2, -k2,2, -t, -k2, -s -k2, -k1.2, -k2.2,
 * -k1.2,1.3, -k2b, -n -k2, -k2,2 -k1,1r.
 * Held: -k2,2, -k2,2 -k1,1r, -s -k2,2, -u -k2,2, -n -k2, -t, -k2n.
 * Found (medium — silently wrong order; 2 of 2 runs).
 * Suggested fix: in just-bash's sort key extraction (function `v` of the sort chunk, patched by gen-shell) take a key
 * without an end field to the end of the line, and apply the start/end character offsets to the line positions as
 * GNU's begfield/limfield (an offset may run past the field), instead of slicing each field.
 * Fixed (run 26, fixer SD): just-bash's key extraction is replaced by `sortKey` (isolate/gnu-extra.ts), a port of
 * GNU sort 9.1's begfield/limfield: a key without an end runs to the end of the line, `.C` counts from the start of
 * the field and may run past it, an end `,N.C` counts into field N, and a field without -t keeps its leading blanks
 * (so the old "sort -k with blanks" difference is gone too); `b` skips them once (the second trimStart is dropped).
 * Siblings: test/workers/fix26/shell-sort-key-join-order.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("sort -k N compares from field N to the end of the line, as GNU sort", async () => {
  const out = await shellCases({}, [
    "printf 'x 1 b\\ny 1 a\\n' | sort -k2",
    "printf 'a,1,z\\nb,1,y\\n' | sort -t, -k2",
    "printf 'x 1 b\\ny 1 a\\n' | sort -s -k2",
    "printf 'p 2 x\\nq 10 y\\nr 2 a\\n' | sort -k2.2",
    "printf 'ab 1\\nb 2\\n' | sort -k1.2",
  ]);
  expect(out).toEqual([
    // Was: "x 1 b\ny 1 a\n".
    ["printf 'x 1 b\\ny 1 a\\n' | sort -k2", "y 1 a\nx 1 b\n", ""],
    ["printf 'a,1,z\\nb,1,y\\n' | sort -t, -k2", "b,1,y\na,1,z\n", ""],
    ["printf 'x 1 b\\ny 1 a\\n' | sort -s -k2", "y 1 a\nx 1 b\n", ""],
    ["printf 'p 2 x\\nq 10 y\\nr 2 a\\n' | sort -k2.2", "q 10 y\nr 2 a\np 2 x\n", ""],
    ["printf 'ab 1\\nb 2\\n' | sort -k1.2", "b 2\nab 1\n", ""],
  ]);
});
