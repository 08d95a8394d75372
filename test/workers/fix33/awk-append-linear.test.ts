/**
 * Issue 20, run 33, fixer AQ: awk appending to a string is linear, and a string keeps being a string.
 * The cause (attack33d/awk-string-append-quadratic.test.ts): storing a string-valued expression (a concatenation,
 * sprintf, substr…) tested its text against POSIX's numeric-string pattern, to wrap only a number-looking string as
 * an AwkString. A regular-expression test makes V8 flatten the rope that `s $0 ","` built: a copy of the whole value
 * per assignment, so N appends were O(N²). isolate/awk.ts `keep` now wraps every string of kind "string" without
 * reading its text (load() unwraps it and notes "string", which for a text that does not look numeric compares and
 * tests exactly as the "strnum" it gave before).
 * Figures (the awk interpreter alone under Node 22, before → after): `{s = s $0 ","}` 20,000 records 0.37 s,
 * 40,000 4.3 s → 40,000 0.34 s, 200,000 1.7 s; gawk 5.2.1 0.02 s at 100,000. The linear cases below run 100,000–200,000
 * records each within a generous 30 s `timeoutMs` (before: 100,000 records passed 20 s, 200,000 ran 73 s).
 * Not made linear (gawk 5.2.1 is quadratic too, 100,000 records): `s = $0 "," s` (gawk 18.6 s; here 1.1 s),
 * `s = sprintf("%s%s,", s, $0)` (gawk 52 s; here slower still), `$0 = $0 x`, gsub on a growing string.
 * Expected outputs are gawk 5.2.1's.
 */
import { describe, expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const LINEAR: [string, string, string][] = [
  ["seq 200000", `{s = s $0 ","} END{print length(s)}`, "1288895\n"],
  ["seq 100000", `{a[$0%3] = a[$0%3] $0 ","} END{print length(a[0]), length(a[1]), length(a[2])}`, "196296 196303 196296\n"],
  ["seq 100000", `BEGIN{while ((getline line) > 0) s = s line ","; print length(s)}`, "588895\n"],
  ["seq 100000", `function add(v) { acc = acc v ";" } {add($0)} END{print length(acc)}`, "588895\n"],
  ["seq 100000", `{s = s $0; if (s) c++} END{print length(s), c}`, "488895 100000\n"],
  ["seq 100000", `{x = x $1 FS} END{print length(x)}`, "588895\n"],
  ["true", `BEGIN{for (i = 0; i < 100000; i++) s = s "x,"; print length(s)}`, "200000\n"],
];

describe("awk string append (fixer AQ)", () => {
  it("appends of 100,000–200,000 records finish within the timeout with gawk's results", async () => {
    const got = await inShellWorkspace(async (ws) => {
      const out: [string, string, number][] = [];
      for (const [input, prog] of LINEAR) {
        const r = await sh(ws, `${input} | awk '${prog}'`, { cwd: "/workspace", timeoutMs: 30_000 });
        out.push([r.stdout, r.stderr, r.exitCode]);
      }
      return out;
    });
    expect(got).toEqual(LINEAR.map(([, , want]) => [want, "", 0]));
  }, 300_000);

  it("a stored string stays a string (comparisons, truth, asort, functions) and input stays a numeric string", async () => {
    const cases: [string, string][] = [
      [
        `awk 'BEGIN{x = "abc" ""; y = x; if (y == "abc") print "eq"; a["k"] = "10" ""; print (a["k"] < 9); s = "0" ""; if (s) print "true"; b[1]="b" ""; b[2]="a" ""; b[3]=10; n=asort(b); for(i=1;i<=n;i++) printf "%s ", b[i]; print ""; t = "x" ""; t = t t; print length(t), substr(t, 2), index(t, "x"); u = " 12 " ""; v = u; print (v < 2), (v == " 12 "), v + 1 }'`,
        "eq\n1\ntrue\n10 a b \n2 x 1\n1 1 13\n",
      ],
      [`echo 0 | awk '{s = $1; if (s) print "t"; else print "f"; s = s ""; if (s) print "t"; else print "f"}'`, "f\nt\n"],
      [`printf '10\\n9\\n' | awk 'NR==1{getline y; print ($0 < y)}'`, "0\n"],
      [`awk 'function f(p) { return p "" } BEGIN{r = f(5); print (r < 10)}'`, "0\n"],
    ];
    const got = await inShellWorkspace(async (ws) => {
      const out: [string, string, number][] = [];
      for (const [cmd] of cases) {
        const r = await sh(ws, cmd, { cwd: "/workspace" });
        out.push([r.stdout, r.stderr, r.exitCode]);
      }
      return out;
    });
    expect(got).toEqual(cases.map(([, want]) => [want, "", 0]));
  }, 120_000);
});
