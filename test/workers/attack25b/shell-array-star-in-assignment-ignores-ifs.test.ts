/**
 * Issue 20, twenty-fifth attack run: `"${a[*]}"` in the value of an assignment joins the elements with a space
 * whatever IFS is, where bash 5.2 joins them with IFS's first character: `a=(x y z); IFS=,; b="${a[*]}"; echo "$b"`
 * prints `x y z` (bash: `x,y,z`); so do `c=${a[*]}`, `d="pre${a[*]}"`, `declare b="${a[*]}"`, `local r="${a[*]}"`
 * inside a function with `local IFS=,`, `"${a[*]:1}"` and the one-line `IFS=$'\n' s="${a[*]}"` of the usual
 * sort-an-array idiom. The same expansion as a command argument (`echo "${a[*]}"`), `"$*"` in an assignment,
 * `"${!a[*]}"` and `$(echo "${a[*]}")` use IFS. `IFS=,; csv="${arr[*]}"` — the canonical way to join an array — quietly
 * gives spaces.
 * Tried: ${a[*]} / ${a[@]} / $* / ${!a[*]} / ${a[*]:1} in plain, declare, local, prefix-IFS assignments, arguments,
 * command substitution, array append.
 * Held: arguments, "$*" in assignments, ${!a[*]}, $(…), a+=("${a[*]}").
 * Found (medium — silently wrong joined text; 2 of 2 runs).
 * Suggested fix: expand `${name[*]}` in an assignment's value (a non-splitting context) with IFS's first character
 * (none for IFS='', space when IFS is unset), as the argument path and `$*` already do.
 * Fixed: scripts/gen-shell.mjs (marker SZ) patches just-bash's variable lookup so `${name[*]}` joins with IFS's first
 * character (`${name[@]}` still with a space), which covers assignments, declare/local/export, `case`, `[[ ]]`,
 * `<<<`, `${a[*]^^}` and `${a[*]/x/y}`; and its substring expansion so `${a[*]:n}` and `${*:n}` do the same.
 * Siblings: test/workers/fix25/shell-array-star-ifs.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("\"${a[*]}\" in an assignment joins with IFS's first character, as bash", async () => {
  const out = await shellCases({}, [
    'a=(x y z); IFS=,; b="${a[*]}"; echo "$b"',
    'a=(x y z); IFS=,; d="pre${a[*]}"; declare e="${a[*]:1}"; echo "$d $e"',
    'a=(x y z); j() { local IFS=,; local r="${a[*]}"; echo "$r"; }; j',
    'a=(3 1 2); IFS=$\'\\n\' s="${a[*]}"; echo "$s"',
  ]);
  expect(out).toEqual([
    // Was: "x y z\n".
    ['a=(x y z); IFS=,; b="${a[*]}"; echo "$b"', "x,y,z\n", ""],
    ['a=(x y z); IFS=,; d="pre${a[*]}"; declare e="${a[*]:1}"; echo "$d $e"', "prex,y,z y,z\n", ""],
    ['a=(x y z); j() { local IFS=,; local r="${a[*]}"; echo "$r"; }; j', "x,y,z\n", ""],
    // Was: "3 1 2\n".
    ['a=(3 1 2); IFS=$\'\\n\' s="${a[*]}"; echo "$s"', "3\n1\n2\n", ""],
  ]);
});
