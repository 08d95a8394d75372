/**
 * Issue 20, run 37, fixer SH — sibling of test/workers/attack37d/column-t-drops-empty-cells-shifting-values.test.ts:
 * `column -t -s SEP` ends a cell at every separator character (empty cells in the middle, at the start and at the
 * end of a row kept; several separator characters; `-o`; blanks inside cells kept; blank lines skipped), and every
 * row is as wide as the widest (short rows padded, the last column not), with or without `-s`. Each expected
 * stdout/stderr/status is util-linux column 2.38.1's on this machine for the same script (trailing blanks included).
 */
import { describe, expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

async function run(script: string) {
  const r = await inShellWorkspace((ws) => sh(ws, script, { cwd: "/workspace" }));
  return [r.stdout, r.stderr, r.exitCode];
}

describe("column", () => {
  it("-s, keeps empty cells; -s tab", async () => {
    expect(await run("printf 'name,team,score\\nann,,90\\nbob,red,85\\n' | column -t -s,; printf 'a\\tb\\tc\\n1\\t\\t3\\n' | column -t -s \"$(printf '\\t')\"")).toEqual(["name  team  score\nann         90\nbob   red   85\na  b  c\n1     3\n", "", 0]);
  });
  it("leading, trailing and only-separator rows; short rows", async () => {
    expect(await run("printf 'a,,b\\n,x,\\n' | column -t -s,; printf ',,\\nabc\\n' | column -t -s,; printf 'a,b,c\\nd\\n' | column -t -s,; printf 'a,b,\\n' | column -t -s,")).toEqual(["a     b\n   x  \n       \nabc    \na  b  c\nd     \na  b  \n", "", 0]);
  });
  it("several separator characters, -o, blank lines, spaces kept", async () => {
    expect(await run("printf 'a;b,c\\nxx,,;y\\n' | column -t -s ',;'; printf 'a,,b\\n' | column -t -s, -o '|'; printf 'a,b,c\\nd\\n' | column -t -s, -o '|'; printf 'a,b\\n\\n   \\nc,d\\n' | column -t -s,; printf ' , \\n' | column -t -s,; printf 'a  b\\n' | column -t -s ' '")).toEqual(["a   b  c  \nxx        y\na||b\na|b|c\nd| |\na  b\nc  d\n    \na    b\n", "", 0]);
  });
  it("whitespace tables merge blanks; short rows padded", async () => {
    expect(await run("printf 'a b c\\nd\\n' | column -t; printf 'a b c\\nd\\n' | column -t -o '|'; printf 'a\\t\\tb\\n  c  d\\n' | column -t")).toEqual(["a  b  c\nd     \na|b|c\nd| |\na  b\nc  d\n", "", 0]);
  });
});
