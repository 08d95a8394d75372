import { expect, it } from "vitest";
import { clipLine, grepFiles, type GrepPattern } from "../../src/fs/grep.js";

it("clipLine: whole when short, centred on the match, shifted to stay inside, markers on cut sides only", () => {
  expect(clipLine("short", 10, 2)).toBe("short");
  const line = "0123456789".repeat(10); // 100 characters
  expect(clipLine(line, 10, 50)).toBe("[… 45 characters cut …]5678901234[… 45 characters cut …]");
  expect(clipLine(line, 10, 2)).toBe("0123456789[… 90 characters cut …]");
  expect(clipLine(line, 10, 98)).toBe("[… 90 characters cut …]0123456789");
});

it("a pattern's search() places the clip and the column for a line scanner match (regex patterns have no finder)", () => {
  const line = "x".repeat(1000) + "hit" + "y".repeat(1000);
  const pattern: GrepPattern = { test: (l) => l.includes("hit"), search: (l) => l.indexOf("hit") };
  const page = { context: 0, offset: 0, limit: 10, matched: 0, lineWidth: 9 };
  expect(grepFiles([{ path: "/f" }], () => [line + "\nno\n"], pattern, page)).toEqual([
    { path: "/f", line: 1, text: "[… 996 characters cut …]xxxxhityy[… 998 characters cut …]", clipped: true, column: 1001 },
  ]);
  // Without search() or a finder the line keeps its start and no column is claimed.
  const bare: GrepPattern = { test: (l) => l.includes("hit") };
  expect(grepFiles([{ path: "/f" }], () => [line], bare, { ...page, matched: 0 })).toEqual([
    { path: "/f", line: 1, text: "xxxxxxxxx[… 1994 characters cut …]", clipped: true },
  ]);
});
