/**
 * Issue 20, thirty-seventh attack run: `column -t -s<sep>` merges adjacent separators, so an empty cell in the middle
 * of a CSV/TSV row disappears and every later value moves one column left, under the wrong header. util-linux
 * column 2.38.1 (this machine's, and Debian/Ubuntu's since 2.35) keeps empty cells as empty columns; the table an
 * agent reads to check data (`column -t -s, data.csv`) shows `ann` in team `90`.
 * Tried: a differential of table/field tools on CSV and TSV with quoted, empty and trailing-empty fields: column -t
 * (-s, -o), cut -d/-f/-c, paste -d/-s, join -a/-v/-e/-o, comm, awk -F, `while IFS=, read -r`, mapfile, wc, nl.
 * Held: cut, paste, join (except `-o auto`/`-j`), comm, awk -F',' and `IFS=, read` keep empty fields as GNU/bash.
 * Found (medium — a misaligned table an agent reads as data, silently, status 0; 2 of 2 runs): `printf
 * 'name,team,score\nann,,90\nbob,red,85\n' | column -t -s,` prints `ann   90` with 90 under `team` (column 2.38.1:
 * `ann         90`, 90 under `score`); also with `-s $'\t'`.
 * Suggested fix: the shell's column (just-bash's, patched through scripts/gen-shell.mjs): with `-s`, split each line
 * on every separator character (no merging of adjacent ones), keep empty cells, and pad them like any other.
 * (util-linux also pads the last column with trailing blanks; the test strips them, not asserted.)
 * Fixed: with `-s`, column splits a line at every separator character, keeping empty cells (text-tools.ts
 * columnCells), and every table row is as wide as the widest (short rows padded, the last column not), as util-linux
 * column 2.38.1, via scripts/gen-shell.mjs (SH37_PATCHES) (issue 20, run 37, fixer SH).
 * Siblings: test/workers/fix37/column-table-cells.test.ts.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("column -t -s, keeps an empty cell as an empty column, as util-linux column 2.38.1", async () => {
  const r = await inShellWorkspace((ws) =>
    sh(ws, "printf 'name,team,score\\nann,,90\\nbob,red,85\\n' | column -t -s, | sed 's/ *$//'; printf 'a\\tb\\tc\\n1\\t\\t3\\n' | column -t -s $'\\t' | sed 's/ *$//'", { cwd: "/workspace" }),
  );
  // Was: "name  team  score\nann   90\nbob   red   85\na  b  c\n1  3\n"
  expect([r.stdout, r.stderr, r.exitCode]).toEqual(["name  team  score\nann         90\nbob   red   85\na  b  c\n1     3\n", "", 0]);
});
