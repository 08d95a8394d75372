/**
 * Issue 20, twenty-sixth attack run: edit's diff/patch of a change inside a long line are cut from the line's
 * start — the change itself is not shown — and `maxDiffBytes` counts raw bytes, so a line of control characters
 * makes a 3-character edit's result 1.5 MB of JSON.
 *
 * Tried: the edit tool (defaults: maxDiffBytes 131072) changing `abc` → `abd` at the end of a one-line file of
 * 1,000,000 characters (a) U+0001 (1 MB, under edit's 2 MiB maxBytes), (b) `y`; compared with read and grep of the
 * same line.
 * Held: the file is written right; read refuses the line (`Line 1 exceeds the 262144-byte read cap…`); grep cuts it
 * around the match (`[… 999503 characters cut …]…abd`, 3,285 bytes); `diffTruncated: true` is set.
 * Found (medium — the model cannot see what its edit did, and pays up to 6 × 2 × maxDiffBytes of context for a
 * one-word change it sent in 60 bytes; 3 of 3 runs): (a) the result is 1,572,206 bytes of JSON — `diff` and
 * `patch` each the first 131,072 bytes of the old line (`-1 \u0001\u0001…`), 786 KB of JSON each; (b) about 262 KB
 * of JSON; in both neither `diff` nor `patch` contains `abd` or `abc`. src/tools/core/edit.ts report() cuts each with
 * `cutUtf8(text, maxDiffBytes)` from its start: the bound is in UTF-8 bytes, not in the JSON bytes the model reads
 * (ls/find/grep measure JSON), and nothing keeps the changed part of a long line (edit's own not-found hints and
 * grep clip around the change/match).
 * Suggested fix: render each diff/patch line clipped to a width around where the old and new lines first differ
 * (`clipLine(text, width, at)` as grep does, `[… N characters cut …]`), and bound diff + patch by their JSON bytes
 * (utf8Length(JSON.stringify(…))) rather than raw bytes.
 * Fixed: src/tools/core/edit-diff.ts editReport takes a line width and cuts each longer diff/patch line with grep's
 * clipLine (src/fs/clip.ts) — a removed line and the added line paired with it around where the two first differ,
 * any other line from its start — and says so (`clipped`); src/tools/core/edit.ts report() uses DIFF_LINE_WIDTH
 * (500, grep's default maxLineLength), sets diffTruncated when a line was cut, and cuts diff and patch each to
 * maxDiffBytes bytes of JSON (startWithin, moved from exec-output.ts to truncate.ts) instead of raw UTF-8 bytes.
 * Both results are now exact: `-1 [… 999503 characters cut …]` + 497 characters + `abc` / `+1 …abd`, 12,340 and
 * 2,400 bytes of JSON for the whole result.
 */
import { expect, it } from "vitest";
import { buildCoreTools } from "../../../src/tools/core/toolset.js";
import { setup, text } from "../tools/helpers.js";

type Tool = { execute(input: unknown): Promise<Record<string, unknown>> };
const jsonBytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v), "utf8");

it("a one-word edit at the end of a long line shows the change, within maxDiffBytes of JSON for diff and patch", async () => {
  const control = "\u0001".repeat(1_000_000);
  const plain = "y".repeat(1_000_000);
  const { workspace } = await setup({ "/workspace/a.txt": `${control}abc\n`, "/workspace/b.txt": `${plain}abc\n` });
  const tools = Object.fromEntries(buildCoreTools({ workspace }).map((t) => [t.name, t as unknown as Tool]));
  const out: Record<string, unknown> = {};
  const results: Record<string, Record<string, unknown>> = {};
  for (const name of ["a", "b"]) {
    const path = `/workspace/${name}.txt`;
    await tools.read!.execute({ path });
    const r = await tools.edit!.execute({ path, oldText: "abc", newText: "abd" });
    results[name] = r;
    out[name] = {
      error: r.error,
      written: (await text(workspace, path)).endsWith("abd\n"),
      diffShowsChange: String(r.diff).includes("abd") && String(r.diff).includes("abc"),
      patchShowsChange: String(r.patch).includes("+") && String(r.patch).includes("abd"),
      withinBound: jsonBytes({ diff: r.diff, patch: r.patch }) <= 2 * 131_072 + 64,
    };
  }
  // Found: a → { diffShowsChange: false, patchShowsChange: false, withinBound: false } (1,572,206 bytes in all);
  //        b → { diffShowsChange: false, patchShowsChange: false, withinBound: true }.
  const right = { error: undefined, written: true, diffShowsChange: true, patchShowsChange: true, withinBound: true };
  expect(out).toEqual({ a: right, b: right });
  // Exactly: each line cut to 500 characters ending where the line does (the change is its last character).
  for (const [name, fill] of [["a", "\u0001"], ["b", "y"]] as const) {
    const kept = `[… 999503 characters cut …]${fill.repeat(497)}`;
    const path = `/workspace/${name}.txt`;
    expect(results[name]).toEqual({
      path,
      editsApplied: 1,
      diff: `-1 ${kept}abc\n+1 ${kept}abd`,
      patch: `Index: ${path}\n${"=".repeat(67)}\n--- ${path}\n+++ ${path}\n@@ -1,1 +1,1 @@\n-${kept}abc\n+${kept}abd\n`,
      firstChangedLine: 1,
      diffTruncated: true,
    });
  }
  expect([jsonBytes(results.a), jsonBytes(results.b)]).toEqual([12_340, 2_400]);
});
