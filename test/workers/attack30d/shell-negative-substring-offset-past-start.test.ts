/**
 * Issue 20, thirtieth attack run: `${v: -N}` with N larger than the string's length gives the whole string
 * (`s=abc; ${s: -5}` → `abc`, `${s: -4:2}` → `ab`, `sha=1a2b; ${sha: -7}` → `1a2b`); bash 5.2 expands to the empty
 * string when a negative offset reaches before the start, so "last N characters" code silently gets a different value.
 *
 * Tried: side by side with bash 5.2.15: `${s: -5}`, `${s: -3}`, `${s: -4:2}`, `${s:(-5)}`, `${a[@]: -5}` on an array,
 * `${v: -2}` on a two-character value, `${s:5}`, `${s:1:10}`.
 * Held: offsets within the string (`${s: -3}`, `${v: -2}`, `${s:(-2)}`), a positive offset past the end (`${s:5}` is
 * empty), a length past the end (`${s:1:10}`), an array slice with a negative offset past the start (empty, as bash).
 * Found (medium — the common `${v: -N}` "last N characters" form returns the whole value instead of nothing for a short
 * value, exit 0; 2 of 2 runs).
 * Suggested fix: in just-bash's substring expansion (as patched by scripts/gen-shell.mjs): when offset < 0 and
 * length + offset < 0, expand to "" (bash's `substring expression < 0` case for strings) instead of clamping to 0.
 *
 * Fixed: scripts/gen-shell.mjs (PX_PATCHES, "${v: -N} before the start is empty"): the string branch of just-bash's
 * substring expansion returns "" when length + offset < 0 instead of clamping the offset to 0 (strings and single
 * elements such as `${m[k]: -6}`; arrays and `$@` were already right). Siblings in
 * test/workers/fix30/shell-param-expansion.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("a negative substring offset before the start of the value expands to nothing, as bash", async () => {
  const out = await shellCases({}, [
    's=abc; echo "[${s: -5}]" "[${s: -3}]" "[${s: -4:2}]" "[${s:(-5)}]"',
    'sha=1a2b; echo "[${sha: -7}]"',
  ], { collect: (_ws, c, r) => [c, r.stdout, r.stderr, r.exitCode] });
  expect(out).toEqual([
    // Was: "[abc] [abc] [ab] [abc]\n".
    ['s=abc; echo "[${s: -5}]" "[${s: -3}]" "[${s: -4:2}]" "[${s:(-5)}]"', "[] [abc] [] []\n", "", 0],
    // Was: "[1a2b]\n".
    ['sha=1a2b; echo "[${sha: -7}]"', "[]\n", "", 0],
  ]);
});
