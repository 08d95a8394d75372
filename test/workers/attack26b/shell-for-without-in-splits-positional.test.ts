/**
 * Issue 20, twenty-sixth attack run: `for name; do …; done` (and `for name do`) — bash's loop over "$@" — word-splits
 * the positional parameters and drops empty ones, as if it were `for name in $*`: `set -- "a b" c; for a; do echo
 * "[$a]"; done` prints `[a]` `[b]` `[c]` (bash: `[a b]` `[c]`), and `set -- "" b` loses the empty argument. A
 * function iterating its arguments this way (`f() { for f; do cp "$f" dst/; done; }; f "my file.txt"`) acts on
 * the wrong names. `for a in "$@"` is right.
 * Tried: side by side with GNU bash 5.2.15 — `for a;`, `for a do`, inside a function, an argument holding `*`,
 * an empty argument, `for a in "$@"`.
 * Held: `for a in "$@"`; an argument holding `*` is not globbed.
 * Found (medium — a loop over arguments acts on wrong, split names; 2 of 2 runs).
 * Suggested fix: when a for clause has no `in` list, iterate the positional parameters as they are (the words of
 * "$@": no splitting, no globbing, empty ones kept), as bash's execute_for_command.
 * Fixed: a for clause without `in` iterates the positional parameters $1…$# as they are (scripts/gen-shell.mjs,
 * "for NAME; loops over $@ (SC)"): no splitting, no globbing, empty ones kept, no iteration when there are none.
 * Siblings: test/workers/fix26/shell-pattern-for-arith-sc.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("for without in iterates \"$@\" unsplit, keeping empty arguments, as bash", async () => {
  const out = await shellCases({}, [
    'set -- "a b" c; for a; do echo "[$a]"; done',
    'set -- "a b" "c  d"; for a do echo "[$a]"; done',
    'f() { for a; do echo "[$a]"; done; }; f "x y" z',
    'set -- "" b; for a; do echo "[$a]"; done',
  ]);
  expect(out).toEqual([
    // Was: "[a]\n[b]\n[c]\n".
    ['set -- "a b" c; for a; do echo "[$a]"; done', "[a b]\n[c]\n", ""],
    ['set -- "a b" "c  d"; for a do echo "[$a]"; done', "[a b]\n[c  d]\n", ""],
    ['f() { for a; do echo "[$a]"; done; }; f "x y" z', "[x y]\n[z]\n", ""],
    // Was: "[b]\n".
    ['set -- "" b; for a; do echo "[$a]"; done', "[]\n[b]\n", ""],
  ]);
});
