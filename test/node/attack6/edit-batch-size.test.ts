/**
 * Issue 20 sixth attack run, categories 2 and 4 (resource exhaustion through
 * a malformed tool call): the edit tool's `edits` array has no length limit.
 *
 * DEFECT (medium), FIXED by the parent session in ee8402e (at most 1,000
 * edits per call, a unique match found with one more indexOf); this is now
 * its regression test. Reproduction: a file of 20,000 lines `k<i>;` (~160 KB),
 * read once, then ONE edit call with 20,000 edits `{oldText: "k<i>;",
 * newText: "K<i>;"}` (about 1 MB of arguments, well within what a model can
 * send). Each edit is located with `indexOf` and then `countOccurrences`
 * over the whole content (src/tools/core/edit-match.ts `locate`), so the
 * batch costs O(edits × file size): 28 s on the test machine, all of it one
 * synchronous stretch — nothing else in the Durable Object (other tool calls,
 * RPC, timers, alarms) runs meanwhile, and near the 2 MiB `maxBytes` limit
 * with more edits it passes the platform's CPU limit and the object is reset.
 * Impact: one model call freezes the object (medium: needs a hostile or
 * runaway model, no data lost; the batch is atomic).
 * Fix proposal: bound the batch (for example at most 1,000 edits, an error
 * naming the limit, documented in the tool description and TOOL.md), and/or
 * locate all exact oldTexts in one pass (sort edits, Aho–Corasick or one
 * `indexOf` per edit with the uniqueness check limited to a second hit:
 * `indexOf(oldText, at + 1) === -1` instead of counting every occurrence),
 * and yield to the event loop between slices of work.
 *
 * 1,000 edits (the limit) still apply, within the same bounds.
 *
 * Also tried here and withstood: an empty oldText is a clear error, and a
 * one-character oldText found 1,000,000 times gives a bounded message.
 */
import { describe, expect, it } from "vitest";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { setup } from "../tools/helpers.js";

/** Runs `fn`, reporting how long it took and the longest gap between 20 ms ticks meanwhile (a stalled event loop). */
async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; stall: number }> {
  let last = Date.now();
  let stall = 0;
  const tick = setInterval(() => {
    const now = Date.now();
    stall = Math.max(stall, now - last);
    last = now;
  }, 20);
  const started = Date.now();
  try {
    const value = await fn();
    stall = Math.max(stall, Date.now() - last);
    return { value, ms: Date.now() - started, stall };
  } finally {
    clearInterval(tick);
  }
}

const text = (r: { content: { type: string; text?: string }[] }) => (r.content[0] as { text: string }).text;

describe("attack6: the size of one edit batch", () => {
  it("20,000 edits in one call over a 20,000-line file are refused or done within 10 s, never stalling the object 2 s", async () => {
    const { workspace } = await setup({ "/workspace/m.txt": Array.from({ length: 20_000 }, (_, i) => `k${i};`).join("\n") });
    const { execute } = createPiTools({ workspace });
    await execute({ id: "r", name: "read", arguments: { path: "/workspace/m.txt" } });
    const edits = Array.from({ length: 20_000 }, (_, i) => ({ oldText: `k${i};`, newText: `K${i};` }));
    const r = await timed(() => execute({ id: "e", name: "edit", arguments: { path: "/workspace/m.txt", edits } }));
    // fixed in ee8402e: at most 1,000 edits per call
    expect(r.value).toMatchObject({ isError: true });
    expect(text(r.value)).toContain("edits has 20000 replacements; at most 1000 fit in one edit call. Split them into several calls, or use write to replace the file wholesale.");
    expect(await workspace.fs.readFile("/workspace/m.txt", "utf8")).toBe(Array.from({ length: 20_000 }, (_, i) => `k${i};`).join("\n"));
    // generous bounds: this is about a frozen object, not speed
    expect(r.stall).toBeLessThan(2_000);
    expect(r.ms).toBeLessThan(10_000);
  }, 300_000);

  // 1,000 edits spread over the whole file are one synchronous stretch of ~1.7 s of CPU (2026-12-07, this
  // 2-core machine): most of it the two Myers line diffs of the report (O(lines × changed lines)). With two
  // test files running at once the stall reached 3.5 s, so the bound here is 4 s; the 20,000-edit call above
  // (28 s before the fix) is refused at once.
  it("1,000 edits (the limit) over a 20,000-line file apply, never stalling the object 4 s", async () => {
    const { workspace } = await setup({ "/workspace/m.txt": Array.from({ length: 20_000 }, (_, i) => `k${i};`).join("\n") });
    const { execute } = createPiTools({ workspace });
    await execute({ id: "r", name: "read", arguments: { path: "/workspace/m.txt" } });
    const edits = Array.from({ length: 1000 }, (_, i) => ({ oldText: `k${i * 20};`, newText: `K${i * 20};` }));
    const r = await timed(() => execute({ id: "e", name: "edit", arguments: { path: "/workspace/m.txt", edits } }));
    expect(r.value.isError).toBe(false);
    const now = await workspace.fs.readFile("/workspace/m.txt", "utf8");
    expect(now).toBe(Array.from({ length: 20_000 }, (_, i) => (i % 20 === 0 ? `K${i};` : `k${i};`)).join("\n"));
    expect(r.stall).toBeLessThan(4_000);
    expect(r.ms).toBeLessThan(10_000);
  }, 300_000);

  it("an empty oldText is a clear error; a one-character oldText found 1,000,000 times gives a bounded message", async () => {
    const { workspace } = await setup({ "/workspace/f.txt": "alpha\nbeta\n", "/workspace/a.txt": "a\n".repeat(1_000_000) });
    const { execute } = createPiTools({ workspace });
    await execute({ id: "r1", name: "read", arguments: { path: "/workspace/f.txt" } });
    await execute({ id: "r2", name: "read", arguments: { path: "/workspace/a.txt" } });
    const empty = await execute({ id: "e1", name: "edit", arguments: { path: "/workspace/f.txt", edits: [{ oldText: "", newText: "X" }] } });
    expect(empty.isError).toBe(true);
    expect(text(empty)).toBe("oldText must not be empty in /workspace/f.txt.");
    const many = await timed(() => execute({ id: "e2", name: "edit", arguments: { path: "/workspace/a.txt", edits: [{ oldText: "a", newText: "b" }] } }));
    expect(many.value.isError).toBe(true);
    expect(text(many.value)).toMatch(/^Found 1000000 occurrences of the text in \/workspace\/a\.txt, /);
    expect(text(many.value).length).toBeLessThan(1_000);
    expect(many.stall).toBeLessThan(5_000);
    expect(await workspace.fs.readFile("/workspace/f.txt", "utf8")).toBe("alpha\nbeta\n");
  }, 120_000);
});
