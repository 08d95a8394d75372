/**
 * Issue 20, run 37, fixer SH — siblings of test/workers/attack37d/awk-nf-assignment-unchanged-does-not-rebuild-record
 * .test.ts and awk-printf-u-and-alternate-form-shift-arguments.test.ts: every assignment to NF rebuilds $0 with OFS
 * (`NF=NF`, `NF+=0`, `NF=2` on shorter and equal lines, `NF=2.9`, `NF++`, `NF--`, `NF=0`, then fields and OFS
 * changes), and printf/sprintf's integer conversions: `%u`, `%i`, C's 64-bit unsigned `%u %o %x %X` of negative
 * values, `%g` out of range, the `#` flag, precision 0 and `%.`, precision with the `0` flag, `*` widths, `%d` of
 * big values, `%5%`, `%c` of code points and strings with widths (counted in bytes, as gawk). Each expected
 * stdout/stderr/status is gawk 5.2.1's (C.UTF-8) on this machine for the same script.
 */
import { describe, expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

async function run(script: string) {
  const r = await inShellWorkspace((ws) => sh(ws, script, { cwd: "/workspace" }));
  return [r.stdout, r.stderr, r.exitCode];
}

describe("awk nf", () => {
  it("NF=NF, NF+=0, $1=$1 with OFS, blanks and tabs", async () => {
    expect(await run("printf ' a  b\\tc \\n\\nd e\\n' | awk -v OFS=- 'NF=NF'; printf ' a  b\\tc \\n\\nd e\\n' | awk -v OFS=- '{NF+=0}1'; printf 'a b\\n' | awk '{NF=NF; print; print NF, $2}' OFS=:")).toEqual(["a-b-c\nd-e\na-b-c\n\nd-e\na:b\n2:b\n", "", 0]);
  });
  it("NF=2 on 1-, 2- and 3-field lines, NF=2.9, NF++, NF--, NF=0", async () => {
    expect(await run("printf 'a\\na b\\na b c\\n' | awk -v OFS=, '{NF=2}1'; printf 'a b c\\n' | awk -v OFS=, '{NF=2.9}1'; printf 'a b\\n' | awk -v OFS=, '{NF++}1'; printf 'a b c\\n' | awk -v OFS=, '{NF--}1'; printf 'a b\\n' | awk '{NF=0; print \"[\" $0 \"]\", NF}'")).toEqual(["a,\na,b\na,b\na,b\na,b,\na,b\n[] 0\n", "", 0]);
  });
  it("-F, to tabs; NF=NF then a field; OFS changed after", async () => {
    expect(await run("printf 'a,,c\\n' | awk -F, -v OFS='\\t' '{NF=NF}1'; printf 'a b c\\n' | awk '{NF=NF; $2=\"X\"}1' OFS=/; printf 'a b\\n' | awk '{NF=NF; OFS=\"+\"; print; $1=$1; print}'")).toEqual(["a\t\tc\na/X/c\na b\na+b\n", "", 0]);
  });
});

describe("awk nf negative", () => {
  it("a negative NF stops awk with status 2, as gawk 5.2.1 (`fatal: NF set to negative value`, its prefix not compared)", async () => {
    const [stdout, stderr, status] = await run("printf 'a b\\n' | awk '{NF=-1; print \"after\"}'; echo s=$?");
    expect([stdout, status]).toEqual(["s=2\n", 0]);
    expect(stderr).toMatch(/NF set to negative value/);
  });
});

describe("awk printf", () => {
  it("%u and %i take their arguments", async () => {
    expect(await run("awk 'BEGIN{printf \"%u|%u|%u|%i|%u\\n\", 5, -5, 0, 10.9, 3.9; printf \"%s=%u;%s\\n\", \"n\", 42, \"end\"; printf \"%5u|%-5u|%05u|%+u|% u|%.3u\\n\", 7, 7, 7, 7, 7, 7}'")).toEqual(["5|18446744073709551611|0|10|3\nn=42;end\n    7|7    |00007|7|7|007\n", "", 0]);
  });
  it("%x %X %o of negative values: 64-bit unsigned", async () => {
    expect(await run("awk 'BEGIN{printf \"%x|%X|%o|%u\\n\", -1, -5, -3.9, -1; printf \"%u|%x\\n\", 2^63, -2^63; printf \"%u|%x\\n\", 2^64-2048, 2^64-2048}'")).toEqual(["ffffffffffffffff|FFFFFFFFFFFFFFFB|1777777777777777777775|18446744073709551615\n9223372036854775808|8000000000000000\n18446744073709549568|fffffffffffff800\n", "", 0]);
  });
  it("out of range: %g", async () => {
    expect(await run("awk 'BEGIN{printf \"%x|%u|%#x|%#.3o|%.0x|%d\\n\", 1e30, 2^64, 1e30, 1e30, 1e30, 1e30; printf \"%x|%o\\n\", -2^63-4096, -2^64}'")).toEqual(["1e+30|1.84467e+19|1.00000e+30|1.00e+30|1e+30|1000000000000000019884624838656\n-9.22337e+18|-1.84467e+19\n", "", 0]);
  });
  it("# flag", async () => {
    expect(await run("awk 'BEGIN{printf \"%#o|%#x|%#X|%#o|%#x\\n\", 8, 255, 255, 0, 0; printf \"[%#5x][%-#8o][%#08x][%#08x][%#08o]\\n\", 5, 8, 0, 256, 8; printf \"[%#.3o][%#.3x][%#5.3x][%#3o][%#-8x]\\n\", 5, 1, 5, 1, 255}'")).toEqual(["010|0xff|0XFF|0|0\n[  0x5][010     ][00000000][0x000100][00000010]\n[0005][0x001][0x005][ 01][0xff    ]\n", "", 0]);
  });
  it("precision 0 and %.", async () => {
    expect(await run("awk 'BEGIN{printf \"[%.0x][%.0o][%#.0o][%.0d][%#.0x][%#.x][%.x][%.d][%+.0d][% .0d][%5.0d][%+5.0i][%.0u]\\n\", 0,0,0,0,0,0,0,0,0,0,0,0,0; printf \"[%.0x][%#.0x][%#.0o][%.0o][%.d][%.f][%.s]\\n\", 1,1,1,1,7,2.5,\"abc\"}'")).toEqual(["[][][0][][0][0][][][][][     ][     ][]\n[1][0x1][01][1][7][2][]\n", "", 0]);
  });
  it("precision with the 0 flag, widths from *", async () => {
    expect(await run("awk 'BEGIN{printf \"[%08.3x][%08.3d][%.3d][%08.3o][%*x][%-*o][%.*x]\\n\", 5, -5, 5, 8, 6, 255, 6, 8, 4, 10}'")).toEqual(["[     005][    -005][005][     010][    ff][10    ][000a]\n", "", 0]);
  });
  it("%d %i unchanged: big, negative, flags; %%, %5%", async () => {
    expect(await run("awk 'BEGIN{printf \"%d|%i|%+d|% d|%05d|%-5d|%d|%5%|%%\\n\", 1e30, -7.9, 3, 3, -3, 3, \"12abc\"}'")).toEqual(["1000000000000000019884624838656|-7|+3| 3|-0003|3    |12|%|%\n", "", 0]);
  });
  it("%c: code points, a string's first character, widths in bytes", async () => {
    expect(await run("awk 'BEGIN{printf \"[%c][%c][%3c][%-3c][%c][%c][%03c][%.0c][%5c][%-4c]\\n\", 65, 256, \"a\", \"b\", \"😀x\", 128512, \"a\", \"b\", 256, 128512}'")).toEqual(["[A][Ā][  a][b  ][😀][😀][  a][b][   Ā][😀]\n", "", 0]);
  });
  it("sprintf as printf; a field's numeric string", async () => {
    expect(await run("printf '255 -1\\n' | awk '{s = sprintf(\"%#x %u %o\", $1, $2, $1); print s}'")).toEqual(["0xff 18446744073709551615 377\n", "", 0]);
  });
});
