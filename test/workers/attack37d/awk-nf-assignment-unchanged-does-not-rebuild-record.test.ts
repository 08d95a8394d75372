/**
 * Issue 20, thirty-seventh attack run: in awk, assigning NF its own value does not rebuild `$0` with OFS — the
 * common idiom `awk -v OFS=, 'NF=NF'` (or `'{NF=NF}1'`, `'{NF+=0}1'`) to turn blank-separated columns into CSV/TSV
 * prints every line unchanged, and `awk -v OFS=, '{NF=2}1'` (keep two columns) rebuilds only the lines that had more
 * than two fields, leaving lines with exactly two blank-separated: a mixed-delimiter file written with status 0.
 * gawk 5.2.1 and mawk (POSIX: an assignment to NF recomputes `$0`) rebuild on every assignment.
 * Tried: a differential against gawk 5.2.1 of field idioms: `$1=$1`, `NF=NF`, `NF=2`, `NF+=0`, `NF++`, `NF--`,
 * `$5="w"`, `$2=""`, `$0=$0`, `-F'\t' -v OFS='\t'`, FPAT, RS regex, printf conversions, split/getline/close.
 * Held: `$1=$1`, `NF++`/`NF--`, NF growing or shrinking, assigning a field past NF, `$0=$0`, printf `%c %5.2s %+d %05d
 * %*d %e %.0f`, getline forms, output files and close(), uninitialized/strnum comparisons.
 * Found (medium — a converted file an agent writes and acts on keeps the old separators, silently; 2 of 2 runs):
 * `printf 'a b c\nd e f\n' | awk -v OFS=, 'NF=NF'` prints `a b c\nd e f\n` (gawk: `a,b,c\nd,e,f\n`); `printf 'a b c\n
 * d e\n' | awk -v OFS=, '{NF=2}1'` prints `a,b\nd e\n` (gawk: `a,b\nd,e\n`).
 * Suggested fix: just-bash's awk variable setter `case"NF"` only joins the fields when the new NF is smaller or larger;
 * patch it in scripts/gen-shell.mjs (next to the SA awk patches, isolate/awk.ts) to set `line = fields.join(OFS)` on
 * every NF assignment, as gawk's set_NF does.
 * Fixed: just-bash's awk NF setter now rebuilds $0 with OFS on every assignment (and pads/cuts the fields), as gawk's
 * set_NF, via a patch in scripts/gen-shell.mjs (SH37_PATCHES, "awk NF assignment rebuilds $0") (issue 20, run 37,
 * fixer SH). Siblings: test/workers/fix37/awk-nf-printf-integers.test.ts.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("awk NF=NF and NF=2 rebuild $0 with OFS on every line, as gawk 5.2.1", async () => {
  const r = await inShellWorkspace((ws) =>
    sh(ws, "printf 'a b c\\nd e f\\n' | awk -v OFS=, 'NF=NF'; printf 'a b c\\nd e\\n' | awk -v OFS=, '{NF=2}1'; printf 'a  b\\n' | awk '{NF+=0}1' OFS='\\t'", { cwd: "/workspace" }),
  );
  // Was: "a b c\nd e f\na,b\nd e\na  b\n"
  expect([r.stdout, r.stderr, r.exitCode]).toEqual(["a,b,c\nd,e,f\na,b\nd,e\na\tb\n", "", 0]);
});
