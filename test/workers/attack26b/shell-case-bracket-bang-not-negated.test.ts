/**
 * Issue 20, twenty-sixth attack run: a bracket expression opening with `!` is not negated in `case` patterns and in
 * `[[ str == pattern ]]` — `[!a]` is read as the class of `!` and `a` — so the branch taken is inverted: `case b in
 * [!a])` does not match, `case ab in [!a]*)` does, and the everyday `case $1 in [!0-9]*) echo word;; *) echo num;;`
 * says `word` for 12 and `num` for x1. Pathname expansion, `${x#[!b]}`, `find -name` and `grep --include` were fixed
 * to negate `[!…]` (docs/porting.md, "match a newline in a file name"); `[^…]` works in case too. This is the
 * sibling left behind: the case/[[ ]] pattern matcher.
 * Tried: side by side with GNU bash 5.2.15 — case and [[ == ]] with `[!a]`, `[!a-c]`, `[![:lower:]]`, `[!]a]`, `[^a]`,
 * glob `echo [!a]*`, `${x#[!b]}`, `${x%[!a]}`, `${x/[!a]/Z}`, extglob `!(…)`.
 * Held: `[^a]` in case, `[!…]` in pathname expansion and in ${x#…}/${x%…}/${x/…/…}, extglob, `[!]a]`.
 * Found (high — scripts take the opposite branch, silently, exit 0; 2 of 2 runs).
 * Suggested fix: in the pattern-to-regex conversion used by `case` and `[[ == / != ]]` (just-bash's matchPattern of
 * the interpreter), read a `!` right after `[` as negation (`[^`), as the pathname/fnmatch path already does.
 * Fixed: the matcher of `case`, `[[ == / != ]]` and `compgen -X` (just-bash's pattern-to-regex of the interpreter)
 * now reads a bracket expression with src/backends/worker-shell/isolate/pattern-match.ts, as bash's glob matcher:
 * `!` or `^` first negates, a `]` first is a member, `\x` is x, ranges (none when reversed), `[:class:]` (an unknown
 * one matches nothing), `[=c=]`/`[.c.]`, no closing `]` leaves `[` itself; its fixed-length helper for `!(…)` (and
 * pathname expansion's) finds the closing `]` the same way. Siblings: test/workers/fix26/shell-pattern-for-arith-sc.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("case and [[ == ]] negate a bracket expression opening with !, as bash", async () => {
  const out = await shellCases({}, [
    "case b in [!a]) echo y;; *) echo n;; esac",
    "case ab in [!a]*) echo y;; *) echo n;; esac",
    "f() { case $1 in [!0-9]*) echo word;; *) echo num;; esac; }; f 12; f x1",
    "case - in [!a-c]) echo y;; *) echo n;; esac",
    "case B in [![:lower:]]) echo y;; *) echo n;; esac",
    "[[ ab == [!a]* ]] && echo y || echo n",
    "[[ b == [!a] ]] && echo y || echo n",
  ]);
  expect(out).toEqual([
    ["case b in [!a]) echo y;; *) echo n;; esac", "y\n", ""],
    ["case ab in [!a]*) echo y;; *) echo n;; esac", "n\n", ""],
    // Was: "word\nnum\n".
    ["f() { case $1 in [!0-9]*) echo word;; *) echo num;; esac; }; f 12; f x1", "num\nword\n", ""],
    ["case - in [!a-c]) echo y;; *) echo n;; esac", "y\n", ""],
    ["case B in [![:lower:]]) echo y;; *) echo n;; esac", "y\n", ""],
    ["[[ ab == [!a]* ]] && echo y || echo n", "n\n", ""],
    ["[[ b == [!a] ]] && echo y || echo n", "y\n", ""],
  ]);
});
