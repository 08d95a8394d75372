/**
 * Issue 20, thirtieth attack run: `sort -h` (and `-rh`) only understands a line that is a bare size: for a line with
 * anything after the number (`1.5K\tdir1`, the shape `du -h | sort -h` feeds it) just-bash's `x()` falls back to
 * parseFloat, drops the K/M/G suffix and sorts 3.0M below 12K and 200; GNU sort also orders by suffix first (`1023K <
 * 2000K < 1M`), where ours compares the scaled values.
 * Tried: side by side with GNU coreutils 9.1 sort in a temp dir — `sort -h`, `sort -hr`, `sort -rh | head`, `-k2,2h`,
 * bare sizes, du-style `SIZE\tNAME` lines.
 * Held: `sort -k2,2h` on a bare key, `sort -h` of lines that are only a number with a suffix (except the suffix-first
 * rule), `-n`, `-V`, `-M`, `-k1,1 -k2,2nr`, `-t: -k3n`, `-s`, `-u` with keys, `-o` onto the input, `-c`.
 * Found (medium — `du -h … | sort -h | tail`, the usual "biggest directories" idiom, silently lists the wrong ones; 2 of
 * 2 runs).
 * Suggested fix: the sort chunk in scripts/gen-shell.mjs (just-bash's `x(u)`): read the leading number (after blanks)
 * and the one suffix letter right after it as GNU's find_unit_order/human_numcompare do — compare by suffix order first,
 * then by the number — and ignore what follows, instead of matching the regex against the whole key.
 * Fixed: `sort -h` compares with isolate/date-sort-h.ts's compareHuman (fixer DH): GNU's human_numcompare — blanks,
 * the suffix order of the number at the start (`KMGTPEZY`, `k`; none for a number of zeros), then the number as
 * `sort -n` reads it; what follows is ignored.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("sort -h orders du-style SIZE<TAB>NAME lines by size, as GNU sort", async () => {
  const out = await inShellWorkspace(async (ws) => {
    const r = await sh(
      ws,
      "printf '1.5K\\tdir1\\n200\\tdir2\\n3.0M\\tdir3\\n12K\\tdir4\\n' > s; sort -h s; echo --; sort -hr s | head -2; echo --; printf '2000K\\n1M\\n1023K\\n' | sort -h",
      { cwd: "/workspace" },
    );
    return [r.exitCode, r.stdout, r.stderr];
  });
  // Was: [0, "1.5K\tdir1\n3.0M\tdir3\n12K\tdir4\n200\tdir2\n--\n200\tdir2\n12K\tdir4\n--\n1023K\n1M\n2000K\n", ""]
  expect(out).toEqual([
    0,
    "200\tdir2\n1.5K\tdir1\n12K\tdir4\n3.0M\tdir3\n--\n3.0M\tdir3\n12K\tdir4\n--\n1023K\n2000K\n1M\n",
    "",
  ]);
});
