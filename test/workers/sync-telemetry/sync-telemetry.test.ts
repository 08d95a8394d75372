/**
 * Sync telemetry wired into the sync engine (spec 01 §1.1
 * `syncTelemetry`/`syncTelemetryEnabled`): with it enabled, a command on a
 * real `computerd` (TestBackend) reports its push and its pull as
 * `sync.block` and `sync.operation` JSON lines. (Failed operations:
 * test/node/runtime/sync-telemetry.test.ts, with a daemon that drops the
 * connection mid-sync.)
 */
import { describe, expect, it } from "vitest";
import { createSyncLogger, type TelemetryRecord } from "../../../src/index.js";
import { inWorkspace, sh, startContainer } from "../container/helpers.js";

/** A logger collecting parsed records, with a fixed clock for `time`. */
function collector() {
  const records: TelemetryRecord[] = [];
  const logger = createSyncLogger({ now: () => 1_700_000_000_000, write: (line) => records.push(JSON.parse(line) as TelemetryRecord) });
  return { records, logger };
}

/** The record without the fields that measure time (checked separately). */
function shape(r: TelemetryRecord): Record<string, unknown> {
  expect(typeof r.durationMs === "number" && r.durationMs >= 0).toBe(true);
  expect(r.cpuBudget).toBe(Math.round((r.durationMs / 30000) * 10000) / 10000);
  const { durationMs: _d, cpuBudget: _c, operationId: _o, ...rest } = r;
  return rest;
}

describe("sync telemetry on a real daemon", () => {
  it("a command's push and pull: one block per change-log page, walk page and deletion pass, then the operation", async () => {
    const c = await startContainer();
    const { records, logger } = collector();
    await inWorkspace(
      c,
      async (ws) => {
        await ws.fs.writeFile("/workspace/a.txt", "hello");
        const r = await sh(ws, "printf xy > b.txt && cat a.txt");
        expect([r.exitCode, r.stdout, r.pushed, r.pulled]).toEqual([0, "hello", 1, 1]);
      },
      { syncTelemetryEnabled: true, syncTelemetry: logger },
    );
    const base = { time: 1_700_000_000_000, backend: "box", cpuLimitMs: 30000 };
    expect(records.map(shape)).toEqual([
      { event: "sync.block", ...base, direction: "push", block: 1, entries: 1, bytes: 5, skipped: 0 },
      { event: "sync.operation", ...base, direction: "push", blocks: 1, entries: 1, bytes: 5, skipped: 0, ok: true },
      { event: "sync.block", ...base, direction: "pull", block: 1, entries: 1, bytes: 2, skipped: 0 },
      { event: "sync.block", ...base, direction: "pull", block: 2, entries: 0, bytes: 0, skipped: 0 },
      { event: "sync.operation", ...base, direction: "pull", blocks: 2, entries: 1, bytes: 2, skipped: 0, ok: true },
    ]);
    // One id per operation, shared by its blocks.
    const ids = records.map((r) => r.operationId);
    expect(ids[0]).toBe(ids[1]);
    expect(new Set(ids.slice(2))).toEqual(new Set([ids[2]]));
    expect(ids[2]).not.toBe(ids[0]);
  });
});
