/**
 * Issue 20, seventeenth attack run: since a sync lists at most MAX_SYNC_SKIPPED skipped entries (attack16c),
 * `workspace.push()`/`pull()` progress reports `skipped` as the length of that list — 1001 for any number
 * past 1000 — so the count the caller gets is wrong and the real one is nowhere in the progress.
 *
 * Tried: a Workspace runtime over `daemonHandle` with a stand-in daemon whose scan lists 5,000 special files
 * in `skipped` (a container with 5,000 fifos: the real daemon lists them the same way), then
 * `workspace.pull("box")` and a command's `result()`. (Held: the run's `result().skipped` lists 1,000 and a
 * last entry "4000 more skipped entries not listed (…)"; the telemetry totals count all 5,000 —
 * `SkipList.count`.)
 *
 * Found (low; 2 of 2 runs): runtime/index.ts `#sync` yields `skipped: done.skippedEntries.length` — the
 * listed entries plus the summary entry: `{ complete: true, skipped: 1001, skippedEntries: <100> }` for
 * 5,000 skipped entries (SyncProgress.skipped: "Entries skipped"); and `skippedEntries.slice(0, 100)` drops
 * the summary entry, so nothing in the progress says 5,000 (before the cap it said 5,000).
 *
 * Suggested fix: have `RemoteSync.push()`/`pull()` return the count (`SkipList.count`) beside the list and
 * report it as `skipped`; keep the summary entry visible in `skippedEntries` (or state the count there).
 *
 * Fixed: `RemoteSync.push()`/`pull()` (runtime/sync.ts) return `skippedCount` (`SkipList.count`) beside the
 * list, and runtime/index.ts reports it as the progress's `skipped` and the spans' `workspace.sync.skipped`.
 */
import { describe, expect, it } from "vitest";
import { nodeSqliteStorage, Workspace } from "../../../src/index.js";
import { daemonHandle, type DaemonApi } from "../../../src/backends/daemon/handle.js";
import { emptyDaemon } from "../attack15c/daemon-stand-in.js";

describe("attack17c: skipped count in sync progress", () => {
  it("workspace.pull() reports the number of skipped entries, not the length of the capped list", async () => {
    const daemon = {
      ...emptyDaemon(),
      scan: async () => ({ entries: [], skipped: Array.from({ length: 5000 }, (_, i) => ({ path: `fifo${i}`, reason: "special" })), cursor: null, done: true }),
    } as unknown as DaemonApi;
    const ws = new Workspace({
      storage: nodeSqliteStorage(":memory:"),
      backends: [{ id: "box", type: "test", connect: async () => daemonHandle(daemon, { closed: new Promise(() => {}), close() {} }) }],
    });
    await ws.fs.mkdir("/workspace", { recursive: true });
    const steps: { complete: boolean; skipped: number; listed: number | undefined }[] = [];
    for await (const step of ws.pull("box")) steps.push({ complete: step.complete, skipped: step.skipped, listed: step.skippedEntries?.length });
    // Found: [{ complete: true, skipped: 1001, listed: 100 }].
    expect(steps).toEqual([{ complete: true, skipped: 5000, listed: 100 }]);
  });
});
