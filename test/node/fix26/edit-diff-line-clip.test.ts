/**
 * Issue 20, twenty-sixth attack run, fixer TC — siblings of attack26a edit-long-line-diff-hides-change-past-json-bound:
 * edit's diff and patch cut each line past DIFF_LINE_WIDTH (500) as grep cuts one — a removed line and the added
 * line paired with it around where they first differ, a context line or an unpaired line from its start — and
 * bound each of diff and patch by its JSON bytes.
 */
import { describe, expect, it } from "vitest";
import { editFile, DIFF_LINE_WIDTH } from "../../../src/tools/core/edit.js";
import { editReport } from "../../../src/tools/core/edit-diff.js";
import { setup, text } from "../tools/helpers.js";

const jsonBytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v), "utf8");
const cut = (n: number) => `[… ${n} characters cut …]`;
const limits = { maxBytes: 2097152, maxDiffLines: 2000, maxDiffBytes: 131072 };

describe("edit: long lines in diff and patch", () => {
  it("a context line is cut from its start; the changed pair around the change", async () => {
    const long = (c: string) => c.repeat(10_000);
    const before = `${long("a")}\n${long("b")}MID${long("b")}\n${long("c")}\n`;
    const { workspace, store } = await setup({ "/workspace/f.txt": before });
    const r = await editFile(store, { path: "/workspace/f.txt", edits: [{ oldText: "MID", newText: "NEW" }] }, limits);
    expect(await text(workspace, "/workspace/f.txt")).toBe(before.replace("MID", "NEW"));
    expect(DIFF_LINE_WIDTH).toBe(500);
    // The pair first differs at index 10,000: 250 characters each side of it.
    const pair = (s: string) => `${cut(9750)}${"b".repeat(250)}${s}${"b".repeat(247)}${cut(9753)}`;
    const context = (c: string) => `${c.repeat(500)}${cut(9500)}`;
    expect(r).toEqual({
      path: "/workspace/f.txt",
      editsApplied: 1,
      diff: [` 1 ${context("a")}`, `-2 ${pair("MID")}`, `+2 ${pair("NEW")}`, ` 3 ${context("c")}`].join("\n"),
      patch:
        "Index: /workspace/f.txt\n" +
        `${"=".repeat(67)}\n--- /workspace/f.txt\n+++ /workspace/f.txt\n@@ -1,3 +1,3 @@\n` +
        ` ${context("a")}\n-${pair("MID")}\n+${pair("NEW")}\n ${context("c")}\n`,
      firstChangedLine: 2,
      diffTruncated: true,
    });
  });

  it("a line split in two: the first new line pairs with the old one, the second is cut from its start; no-newline marker kept", () => {
    const before = `${"x".repeat(2000)}abc${"y".repeat(2000)}`;
    const after = before.replace("abc", "ab\nc");
    const span = { start: 2002, beforeEnd: 2003, afterEnd: 2004 };
    const r = editReport("/f", before, after, span, 500);
    const old = `${cut(1752)}${"x".repeat(248)}abc${"y".repeat(249)}${cut(1751)}`;
    // Cut around index 2002 too, shifted to stay inside the line (which ends there).
    const first = `${cut(1502)}${"x".repeat(498)}ab`;
    const second = `c${"y".repeat(499)}${cut(1501)}`;
    expect(r).toEqual({
      diff: [`-1 ${old}`, `+1 ${first}`, `+2 ${second}`].join("\n"),
      patch: `Index: /f\n${"=".repeat(67)}\n--- /f\n+++ /f\n@@ -1,1 +1,2 @@\n-${old}\n\\ No newline at end of file\n+${first}\n+${second}\n\\ No newline at end of file\n`,
      firstChangedLine: 1,
      clipped: true,
    });
    // Without a width, as before: the whole lines.
    expect(editReport("/f", before, after, span).patch).toContain(`-${before}\n`);
  });

  it("diff and patch are each at most maxDiffBytes bytes of JSON, control characters counted as escaped", async () => {
    const lines = Array.from({ length: 300 }, (_, i) => `${"\u0001".repeat(400)}${i}`).join("\n");
    const { workspace, store } = await setup({ "/workspace/c.txt": `${lines}\n` });
    const r = await editFile(store, { path: "/workspace/c.txt", edits: [{ oldText: lines, newText: lines.replaceAll("\u0001", "\u0002") }] }, limits);
    expect(await text(workspace, "/workspace/c.txt")).toBe(`${lines.replaceAll("\u0001", "\u0002")}\n`);
    if (!("diff" in r)) throw new Error(r.error);
    // 600 rows of 400 escaped characters (2,400 bytes of JSON each): ~1.4 MB uncut; each cut within 131,072 bytes
    // (startWithin shrinks in proportion, so a little short of it: less than one row short here).
    expect(r.diffTruncated).toBe(true);
    for (const s of [r.diff, r.patch]) {
      expect(jsonBytes(s)).toBeLessThanOrEqual(131_072);
      expect(jsonBytes(s)).toBeGreaterThan(131_072 - 2_400);
    }
    expect(r.diff.startsWith(`-  1 ${"\u0001".repeat(400)}0\n-  2 `)).toBe(true);
  });

  it("lines of at most 500 characters are whole and diffTruncated is absent", async () => {
    const line = "z".repeat(499);
    const { store } = await setup({ "/workspace/s.txt": `${line}A\n` });
    const r = await editFile(store, { path: "/workspace/s.txt", edits: [{ oldText: "A", newText: "B" }] }, limits);
    expect(r).toEqual({ path: "/workspace/s.txt", editsApplied: 1, diff: `-1 ${line}A\n+1 ${line}B`, patch: expect.stringContaining(`-${line}A\n+${line}B\n`), firstChangedLine: 1 });
  });
});
