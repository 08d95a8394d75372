/**
 * Issue 20, twenty-seventh attack run: in an associative array's compound assignment an unquoted key with a blank
 * (`declare -A m=([c d]=3)`, `m=([c d]=3)`, `m+=([new key]=v)`, `local -A m=([a b]=1)`) is split at the blank
 * like a plain word. `declare -A` stores the key `c' 'd` and the value `3'` (quote characters of its own making),
 * a plain assignment drops the element with `must use subscript` errors, `m+=` adds two junk elements and `local -A`
 * makes elements `[a` and `b]=1` — bash 5.2 reads `[c d]` as one subscript (the words are split only outside
 * `[…]`), so `${m[c d]}` is `3`.
 * Tried: side by side with GNU bash 5.2.15 — the key `[c d]` with `declare -A`, `local -A`, `m=(…)`, `m+=(…)`;
 * quoted keys `["c d"]`, `['e f']`; `m["c d"]=3` and `m[e f]=4` element assignments; keys `a]b` through a
 * variable; arithmetic subscripts `[i+1]` in an indexed array.
 * Held: quoted keys in compound assignments; element assignments `m[e f]=4`; `unset 'm[a]'`; `m+=([c]=3)`; indexed
 * `[1+1]=x`, `[i]=y`. (The order of `${!m[@]}` differs from bash's hash order; bash documents none, not reported.)
 * Found (medium — keys and values silently mangled or dropped, status 0; 2 of 2 runs).
 * Suggested fix: in the parser's compound-array word splitting (just-bash's parser for `NAME=(…)` and the
 * declaration-array path in scripts/gen-shell.mjs), do not split at blanks inside an unquoted leading `[…]`
 * subscript, as bash's `skipsubscript`; then the key is the subscript's expanded text, as for `m[e f]=4`.
 * Fixed: the parser's element list of `NAME=(…)` joins the tokens of an element whose unquoted leading `[` closes in a
 * later token back into one word from the source text (isolate/array-assign.ts `element`, the "array element [key with
 * blank]" patch in scripts/gen-shell.mjs), the declaration builtins' `NAME=(…)` splitter keeps a leading `[…]` whole
 * (`splitWords`), and `local` with an attribute (`-A`, `-i`…) or a `NAME=(…)` runs `declare` in the function's scope.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const show = 'for k in "${!m[@]}"; do echo "<$k>=<${m[$k]}>"; done | sort';

it("an unquoted [key with blank]=value in a compound assignment is one subscript, as bash", async () => {
  const out = await shellCases({}, [
    `declare -A m=([c d]=3 [e]=4); ${show}`,
    `declare -A m; m=([c d]=3 [e]=4); ${show}`,
    `f(){ local -A m=([a b]=1); ${show}; }; f`,
    'declare -A m=([x]="v w" [y z]="1 2"); echo "${m[y z]}|${m[x]}"',
    'declare -A m; m+=([new key]=v); echo "${m[new key]}" ${#m[@]}',
  ]);
  expect(out).toEqual([
    // Was: "<c' 'd>=<3'>\n<e>=<4>\n".
    [`declare -A m=([c d]=3 [e]=4); ${show}`, "<c d>=<3>\n<e>=<4>\n", ""],
    // Was: "<e>=<4>\n" and "bash: line 1: m: [c: must use subscript when assigning associative array" (and `d]=3`).
    [`declare -A m; m=([c d]=3 [e]=4); ${show}`, "<c d>=<3>\n<e>=<4>\n", ""],
    // Was: "<0>=<[a>\n<1>=<b]=1>\n".
    [`f(){ local -A m=([a b]=1); ${show}; }; f`, "<a b>=<1>\n", ""],
    // Was: "|v w\n".
    ['declare -A m=([x]="v w" [y z]="1 2"); echo "${m[y z]}|${m[x]}"', "1 2|v w\n", ""],
    // Was: " 2\n".
    ['declare -A m; m+=([new key]=v); echo "${m[new key]}" ${#m[@]}', "v 1\n", ""],
  ]);
});
