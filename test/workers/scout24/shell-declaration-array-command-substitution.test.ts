/**
 * Issue 20, twenty-fourth attack run (scout of fixes): 4633982 expands the words of `declare`/`local`/`readonly`/
 * `typeset`/`export NAME=(…)` "as NAME=(…)" (docs/porting.md: globbing, nullglob, failglob, splitting `$v`), but
 * not every word: a command substitution is not split, an escaped blank splits, and `export` keeps a string.
 * Tried against bash 5.2.15: `x=(…)` vs `declare -a x=(…)` / `local -a x=(…)` / `export e=(…)` with `*.txt`, `$v`,
 *   `${v}`, `"$v"x`, `{a,b}`, `~`, `#`-names, nullglob, failglob, `[k]=*.txt`, newlines and comments.
 * Held: globs, nullglob/failglob, `$v`/`${v}` splitting, braces, tilde, quoted elements, keyed elements, typeset/readonly.
 * Found (medium: `local -a files=($(ls *.txt))` is the common idiom and yields one element):
 *   `declare -a x=($(echo 1 2) 3)` has 2 elements (bash 3), `` declare -a x=(`echo 1 2`) `` 1 (bash 2);
 *   `declare -a x=(a\ b c)` has 3 elements, x[0] `a` (bash 2, `a b`; plain `x=(a\ b c)` is right);
 *   `export e=(a b)` is the string `(a b)` (`declare -x e="(a b)"`; bash: `declare -ax e=([0]="a" [1]="b")`).
 * Suggested fix: in shell-options.ts declarationArray, expand CommandSubstitution parts (and backquotes) with word
 *   splitting as `$v` is, keep an escaped blank inside its element (split Literal parts only on unescaped blanks —
 *   use just-bash's own parse of the `NAME=(…)` text), and route `export NAME=(…)` to the array path as declare -x.
 * Fixed (SF2): just-bash's parser wrote the element words of a command's `NAME=(…)` argument back as text (a
 *   `$(…)` became the word `CommandSubstitution`, `\ ` a bare blank); it now notes the words it read
 *   (shell-options.ts withArrayElements) and declarationArray expands each whole as `NAME=(…)` does (split, globbed;
 *   a keyed value is quoted so a blank in it stays). `export NAME=(…)`/`NAME+=(…)` goes to `declare -gx` (`-x` for
 *   a local of the running function; exportBuiltin), and `declare -p` writes an array's other attributes (`-ax`,
 *   `-ar`). Siblings: test/workers/fix24/shell-declare-script.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const cases: [string, string][] = [
  ["declare -a x=($(echo 1 2) 3); echo ${#x[@]}", "3\n"],
  ["declare -a x=(`echo 1 2`); echo ${#x[@]}", "2\n"],
  ["touch a.txt b.txt; f(){ local -a files=($(ls *.txt)); echo ${#files[@]}; }; f", "2\n"],
  ["declare -a x=(a\\ b c); echo ${#x[@]} \"${x[0]}\"", "2 a b\n"],
  ["f(){ local x=(a\\ b c); echo ${#x[@]}; }; f", "2\n"],
  ["export e=(a b); declare -p e", "declare -ax e=([0]=\"a\" [1]=\"b\")\n"],
];

it("declaration array words split $(…) and keep an escaped blank, as NAME=(…) in bash 5.2", async () => {
  const out = await shellCases({}, cases.map(([command]) => command), { collect: (_ws, _c, r) => [r.stdout, r.stderr, r.exitCode] });
  expect(out).toEqual(cases.map(([, stdout]) => [stdout, "", 0]));
});
