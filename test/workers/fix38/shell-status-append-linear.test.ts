/**
 * Issue 20, run 38, fixer SE: `name+=value` appends in constant time below the shell's string limit. just-bash
 * appended through a bounded builder that measured the UTF-8 length of the whole old value and copied it on every
 * `+=`, so a loop building a string was quadratic: `for i in {1..N}; do s+=x; done` took 2.9 / 7.4 / 20.4 s for
 * N = 20k / 40k / 80k (load ~10; the same loop with `s=x` 1.6 / 0.5 / 1.3 s). After the fix (scripts/gen-shell.mjs,
 * SE38_PATCHES: a value whose UTF-16 length times 3 is within maxStringLength is concatenated as is) the 80k loop took
 * 1.0 s; the test gives it a generous 15 s timeout, below the 20 s it took before. The rows are bash 5.2.15's
 * output (`bash -c SCRIPT`, copied): `+=` on scalars, multibyte text, array elements, associative elements and
 * integer variables keeps bash's results.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh, shellCases } from "../shell/helpers.js";

const collect = (_ws: unknown, command: string, r: { stdout: string; stderr: string; exitCode: number }) => [command, r.stdout, r.stderr, r.exitCode];

it("+= appends as bash 5.2.15 does", async () => {
  const table: [string, string, string, number][] = [
    ['s=é; s+=ü; s+=日本; echo "$s ${#s}"', "éü日本 4\n", "", 0],
    ['s=; for i in {1..5}; do s+="$i,"; done; echo "$s"', "1,2,3,4,5,\n", "", 0],
    ['a=(x); a[0]+=y; a+=(z); echo "${a[@]}"', "xy z\n", "", 0],
    ['declare -A m; m[k]=a; m[k]+=b; echo "${m[k]}"', "ab\n", "", 0],
    ["declare -i n=2; n+=3; echo $n", "5\n", "", 0],
    ['s=a; s+=; echo "[$s]"', "[a]\n", "", 0],
    ["x=1; x+=$(echo 2); echo $x", "12\n", "", 0],
  ];
  const out = await shellCases({ files: {} }, table.map((row) => row[0]), { collect });
  expect(out).toEqual(table);
});

it("80,000 appends in a loop finish within a 15 s timeout (20 s before the fix)", async () => {
  const r = await inShellWorkspace((ws) => sh(ws, "s=; for i in {1..80000}; do s+=x; done; echo ${#s}", { timeoutMs: 15_000 }));
  expect([r.stdout, r.stderr, r.exitCode]).toEqual(["80000\n", "", 0]);
}, 60_000);
