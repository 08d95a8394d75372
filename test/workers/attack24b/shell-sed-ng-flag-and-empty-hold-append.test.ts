/**
 * Issue 20, twenty-fourth attack run: two sed commands edit text wrongly (GNU sed 4.9 as reference):
 * - `s/a/x/2g` (replace the 2nd match and every one after it, POSIX's number + g) replaces every match, the first
 *   included: `echo aaaa | sed 's/a/x/2g'` gives `xxxx` (GNU `axxx`), `3g` `xxxx` (GNU `aaxx`) — and `sed -i` writes
 *   that into the file;
 * - `H` on the empty hold space appends without the newline: `printf 'a\nb\n' | sed -n 'H;${x;s/\n/,/g;p}'` gives
 *   `a,b` (GNU `,a,b`: the hold space starts empty and H always adds `\n` first), so the common "join lines" idiom
 *   built on it, and anything counting on the leading newline, changes.
 * Tried: side by side with GNU sed 4.9: s///N, Ng, gI, NI, Np, w file, empty-match g, 2,+1 / 1~2 / 0,/re/ / $!N;P;D,
 * N, y///, BRE/ERE escapes, \(\) & \&, multibyte `.`, h;G, H;x, i/I flags, /re/I address.
 * Held: s///2, gI, 2I, 2p, w, x* with g, addresses, N/P/D, y, escapes, h;G, s///i.
 * Found (medium — wrong edits, also through sed -i; 2 of 2 runs): see the expectations (also `/re/Id`, GNU's I
 * address flag, is `sed: invalid command: I` — not asserted).
 * Suggested fix: in just-bash's sed substitute, with a number N and g replace matches N, N+1, …; in `H`, always
 * append "\n" + pattern space to the hold space (empty or not).
 * Fixed (fixer SS): scripts/gen-shell.mjs patches just-bash's sed substitute to run every `s///N`, `s///g` and
 * `s///Ng` through `sedSubstitute` of src/backends/worker-shell/isolate/sort-sed.ts over just-bash's GNU-style match
 * scanner: matches N, N+1, … with g, only N without (an empty match right after a match is not counted, as GNU); with
 * fewer than N matches no substitution is made, so the `p` flag prints nothing and `t` does not branch (both did).
 * `H` always appends "\n" + the pattern space. Siblings in test/workers/fix24/shell-sort-sed.test.ts. The `I`
 * address flag (`/re/Id`) is left alone.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("sed s///Ng starts at the Nth match and H always adds a newline, as GNU sed", async () => {
  const out = await shellCases({ files: { f: "aaaa\n" } }, [
    "sed -i 's/a/x/2g' f; cat f; echo aaaa | sed 's/a/x/3g'",
    "printf 'a\\nb\\n' | sed -n 'H;${x;s/\\n/,/g;p}'",
  ]);
  expect(out).toEqual([
    // Was: "xxxx\nxxxx\n".
    ["sed -i 's/a/x/2g' f; cat f; echo aaaa | sed 's/a/x/3g'", "axxx\naaxx\n", ""],
    // Was: "a,b\n".
    ["printf 'a\\nb\\n' | sed -n 'H;${x;s/\\n/,/g;p}'", ",a,b\n", ""],
  ]);
});
