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
 */
import { expect, it } from "vitest";
import { buildCoreTools } from "../../../src/tools/core/toolset.js";
import { setup, text } from "../tools/helpers.js";

type Tool = { execute(input: unknown): Promise<Record<string, unknown>> };
const jsonBytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v), "utf8");

it.fails("a one-word edit at the end of a long line shows the change, within maxDiffBytes of JSON for diff and patch", async () => {
  const control = "\u0001".repeat(1_000_000);
  const plain = "y".repeat(1_000_000);
  const { workspace } = await setup({ "/workspace/a.txt": `${control}abc\n`, "/workspace/b.txt": `${plain}abc\n` });
  const tools = Object.fromEntries(buildCoreTools({ workspace }).map((t) => [t.name, t as unknown as Tool]));
  const out: Record<string, unknown> = {};
  for (const name of ["a", "b"]) {
    const path = `/workspace/${name}.txt`;
    await tools.read!.execute({ path });
    const r = await tools.edit!.execute({ path, oldText: "abc", newText: "abd" });
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
});
