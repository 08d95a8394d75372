/**
 * Issue 20, twenty-second attack run: small output differences from GNU coreutils 9.1 in commands run 21 aligned
 * (od, wc) and their neighbours — scripts that parse these columns (`cut -c`, `awk` on fixed widths, byte offsets)
 * get other answers than on Linux.
 * Tried: side by side with GNU coreutils 9.1: `od -c f`, `od -tx1 f`, `od -b f` (f = "abc"), `od -c` of 36 equal
 * bytes, `sort | uniq -c`, `wc -l x y`, `wc x y`, `od -An -c`/`od -An -tx1` (held), `tail -c`/`head -c` (held).
 * Held: od -An (no address column), wc of one file, tac, dirname/basename (run 21).
 * Found (low — column layout; 2 of 2 runs): with an address column od puts one space too many before the first
 * column (`0000000    a   b   c`, GNU `0000000   a   b   c`; -tx1 `0000000  61 62 63`, GNU `0000000 61 62 63`) and
 * never folds repeated lines into `*`; `uniq -c` pads counts to 4 (GNU 7: `      1 a`); `wc` over several files
 * pads every number to 3 (`  1 x`, GNU pads to the width of the largest: `1 x`).
 * Suggested fix: in isolate/coreutils.ts, od: join the address and the columns without the extra separator and
 * print `*` for a line equal to the previous one (unless -v); uniq -c: `%7d `; wc: the GNU width rule (digits of
 * the largest count, at least 1; 7 when reading stdin among several operands).
 * Fixed: od joins the address to the first column and indents continuation lines 7, and prints `*` for repeated lines
 * unless -v; uniq -c uses `%7d `; wc pads to GNU's compute_number_width (coreutils.ts wcWidth: digits of the
 * files' total size, 7 with stdin or a directory, 1 for one operand and one count).
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("od, uniq -c and wc lay out their columns as GNU coreutils", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const r = await sh(
      ws,
      "printf 'abc' > f; od -c f; od -tx1 f; od -b f; printf 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' > g; od -c g; printf 'b\\na\\nb\\n' | sort | uniq -c; printf '1\\n' > x; printf '1\\n2\\n' > y; wc -l x y; wc x y",
      { cwd: "/workspace" },
    );
    return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
  });
  const a16 = "   a".repeat(16);
  expect(out).toEqual({
    stdout:
      "0000000   a   b   c\n0000003\n0000000 61 62 63\n0000003\n0000000 141 142 143\n0000003\n" +
      `0000000${a16}\n*\n0000040   a   a   a   a\n0000044\n` +
      "      1 a\n      2 b\n1 x\n2 y\n3 total\n1 1 2 x\n2 2 4 y\n3 3 6 total\n",
    stderr: "",
    exitCode: 0,
  });
});
