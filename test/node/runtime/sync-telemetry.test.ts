/**
 * Sync telemetry (spec 01 §1.1, §7): the record builders, the JSON-line
 * logger, and the Workspace options (off by default). The engine's own
 * blocks and operations are checked against a real daemon in
 * test/workers/sync-telemetry.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createSyncLogger,
  DEFAULT_CPU_LIMIT_MS,
  nodeSqliteStorage,
  syncBlockLog,
  syncOperationLog,
  Workspace,
  type SyncBlockTelemetry,
  type SyncLogger,
  type SyncOperationTelemetry,
} from "../../../src/index.js";
import { SyncTelemetryRun } from "../../../src/runtime/sync-telemetry.js";
import { RemoteSync, type SyncFilesystem, type SyncRPC } from "../../../src/runtime/sync.js";

const block: SyncBlockTelemetry = { direction: "push", backend: "box", operationId: "op-1", block: 2, entries: 3, bytes: 120, skipped: 1, durationMs: 12 };
const operation: SyncOperationTelemetry = { direction: "pull", backend: "box", operationId: "op-2", blocks: 2, entries: 5, bytes: 300, skipped: 0, durationMs: 1500, ok: true };
const at = { now: () => 1_700_000_000_000 };

afterEach(() => {
  vi.restoreAllMocks();
});

describe("syncBlockLog / syncOperationLog", () => {
  it("DEFAULT_CPU_LIMIT_MS is 30000, the budget records are measured against", () => {
    expect(DEFAULT_CPU_LIMIT_MS).toBe(30000);
  });

  it("builds the sync.block record: event and time first, the telemetry, then the CPU budget", () => {
    expect(JSON.stringify(syncBlockLog(block, at))).toBe(
      '{"event":"sync.block","time":1700000000000,"direction":"push","backend":"box","operationId":"op-1","block":2,"entries":3,"bytes":120,"skipped":1,"durationMs":12,"cpuLimitMs":30000,"cpuBudget":0.0004}',
    );
    expect(syncBlockLog(block, { ...at, cpuLimitMs: 24 })).toMatchObject({ cpuLimitMs: 24, cpuBudget: 0.5 });
  });

  it("builds the sync.operation record; a failure carries a sanitised error", () => {
    expect(JSON.stringify(syncOperationLog(operation, at))).toBe(
      '{"event":"sync.operation","time":1700000000000,"direction":"pull","backend":"box","operationId":"op-2","blocks":2,"entries":5,"bytes":300,"skipped":0,"durationMs":1500,"ok":true,"cpuLimitMs":30000,"cpuBudget":0.05}',
    );
    const failed = syncOperationLog({ ...operation, ok: false, error: "connect failed\nGET /x?token=abc Bearer eyJ " + "x".repeat(600) }, at);
    expect(Object.keys(failed)).toEqual(["event", "time", "direction", "backend", "operationId", "blocks", "entries", "bytes", "skipped", "durationMs", "ok", "error", "cpuLimitMs", "cpuBudget"]);
    const error = (failed as { error: string }).error;
    expect(error.startsWith("connect failed GET /x?token=[REDACTED] Bearer [REDACTED]")).toBe(true);
    expect(error).toHaveLength(512);
    // `error` only on failures.
    expect("error" in syncOperationLog({ ...operation, error: "ignored" }, at)).toBe(false);
  });

  it("rejects bad options with TypeErrors naming the option", () => {
    expect(() => syncBlockLog(block, { cpuLimitMs: 0 })).toThrow("syncBlockLog: cpuLimitMs must be a positive number of milliseconds, got 0");
    expect(() => syncOperationLog(operation, { now: 5 as never })).toThrow("syncOperationLog: now must be a function returning epoch ms, got number");
    expect(() => createSyncLogger({ write: "x" as never })).toThrow("createSyncLogger: write must be a function (line: string) => void, got string");
    expect(() => createSyncLogger(null as never)).toThrow("createSyncLogger: options must be an object, got null");
  });
});

describe("createSyncLogger", () => {
  it("writes one JSON line per block and operation to `write`", () => {
    const lines: string[] = [];
    const logger = createSyncLogger({ ...at, write: (line) => lines.push(line) });
    logger.block(block);
    logger.operation(operation);
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual([syncBlockLog(block, at), syncOperationLog(operation, at)]);
  });

  it("writes to console.log by default, and swallows a failing write", () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    createSyncLogger(at).block(block);
    expect(log.mock.calls).toEqual([[JSON.stringify(syncBlockLog(block, at))]]);
    const throwing = createSyncLogger({ write: () => { throw new Error("sink down"); } });
    expect(() => throwing.operation(operation)).not.toThrow();
  });
});

describe("SyncTelemetryRun (what the sync engine reports)", () => {
  function recorder(): SyncLogger & { blocks: SyncBlockTelemetry[]; operations: SyncOperationTelemetry[] } {
    const blocks: SyncBlockTelemetry[] = [];
    const operations: SyncOperationTelemetry[] = [];
    return { blocks, operations, block: (t) => void blocks.push(t), operation: (t) => void operations.push(t) };
  }

  it("reports each block's share of the running totals, then the operation once", () => {
    const r = recorder();
    const run = new SyncTelemetryRun(r, "push", "box");
    run.block({ entries: 2, bytes: 10, skipped: 0 });
    run.block({ entries: 5, bytes: 40, skipped: 1 });
    run.end({ entries: 5, bytes: 40, skipped: 1 });
    run.end({ entries: 9, bytes: 9, skipped: 9 }, new Error("late")); // only the first end counts
    const id = r.blocks[0]!.operationId;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const strip = <T extends { durationMs: number }>(t: T) => ({ ...t, durationMs: typeof t.durationMs === "number" && t.durationMs >= 0 });
    expect(r.blocks.map(strip)).toEqual([
      { direction: "push", backend: "box", operationId: id, block: 1, entries: 2, bytes: 10, skipped: 0, durationMs: true },
      { direction: "push", backend: "box", operationId: id, block: 2, entries: 3, bytes: 30, skipped: 1, durationMs: true },
    ]);
    expect(r.operations.map(strip)).toEqual([{ direction: "push", backend: "box", operationId: id, blocks: 2, entries: 5, bytes: 40, skipped: 1, durationMs: true, ok: true }]);
  });

  it("a failed operation carries the sanitised message; a throwing logger does not break the sync", () => {
    const r = recorder();
    const run = new SyncTelemetryRun(r, "pull", "box");
    run.end({ entries: 1, bytes: 0, skipped: 0 }, new Error("ECONNRESET: password=hunter2"));
    expect(r.operations[0]).toMatchObject({ ok: false, error: "ECONNRESET: password=[REDACTED]", entries: 1, blocks: 0 });
    const throwing = new SyncTelemetryRun({ block: () => { throw new Error("x"); }, operation: () => { throw new Error("y"); } }, "push", "box");
    expect(() => {
      throwing.block({ entries: 1, bytes: 1, skipped: 0 });
      throwing.end({ entries: 1, bytes: 1, skipped: 0 });
    }).not.toThrow();
  });
});

describe("WorkspaceOptions.syncTelemetry / syncTelemetryEnabled", () => {
  const storage = () => nodeSqliteStorage(":memory:");

  it("is off by default, and a logger given alone stays off", () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    expect(new Workspace({ storage: storage() }).syncTelemetry).toBeUndefined();
    const mine = createSyncLogger({ write: () => {} });
    expect(new Workspace({ storage: storage(), syncTelemetry: mine }).syncTelemetry).toBeUndefined();
    expect(new Workspace({ storage: storage(), syncTelemetry: mine, syncTelemetryEnabled: false }).syncTelemetry).toBeUndefined();
    expect(log).not.toHaveBeenCalled();
  });

  it("enabled: the given logger, else a console.log JSON-line logger", () => {
    const mine = createSyncLogger({ write: () => {} });
    expect(new Workspace({ storage: storage(), syncTelemetry: mine, syncTelemetryEnabled: true }).syncTelemetry).toBe(mine);
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const fallback = new Workspace({ storage: storage(), syncTelemetryEnabled: true }).syncTelemetry!;
    fallback.block(block);
    expect(JSON.parse(log.mock.calls[0]![0] as string)).toMatchObject({ event: "sync.block", backend: "box", entries: 3 });
  });

  it("rejects a non-boolean switch and a logger without its methods", () => {
    expect(() => new Workspace({ storage: storage(), syncTelemetryEnabled: "yes" as never })).toThrow("Workspace syncTelemetryEnabled must be a boolean, got string");
    expect(() => new Workspace({ storage: storage(), syncTelemetry: { block() {} } as never, syncTelemetryEnabled: true })).toThrow(
      "Workspace syncTelemetry must be a SyncLogger ({ block(telemetry), operation(telemetry) }), e.g. createSyncLogger()",
    );
  });
});

describe("the sync engine reports failed operations", () => {
  /**
   * A stand-in for the container daemon's sync RPC (`info`, `scan`, `read`,
   * `apply`) whose connection drops: `scan` after its first page, `apply`
   * always. The happy path runs on a real daemon in test/workers/sync-telemetry.
   */
  function droppingDaemon(): SyncRPC {
    let scans = 0;
    return {
      info: async () => ({ mountPoint: "/workspace", ignore: [], bootId: "boot-1" }),
      scan: async () => {
        if (scans++ === 0) return { entries: [{ path: "got.txt", kind: "file", mode: 0o644, size: 2, mtimeMs: 1, ctimeMs: 1 }], skipped: [], cursor: "next", done: false };
        throw new Error("ECONNRESET: connection lost (token=abc123)");
      },
      read: async () => ({ data: new TextEncoder().encode("ok"), size: 2, eof: true }),
      apply: async () => {
        throw new Error("ECONNRESET: connection lost");
      },
    };
  }

  function setup() {
    const records: Record<string, unknown>[] = [];
    const logger = createSyncLogger({ now: () => 5, write: (line) => records.push(JSON.parse(line) as Record<string, unknown>) });
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    const sync = new RemoteSync(ws.db, ws.fs as SyncFilesystem, "box", droppingDaemon(), logger);
    const timeless = () => records.map(({ durationMs, cpuBudget, operationId, ...rest }) => {
      expect(typeof durationMs === "number" && typeof cpuBudget === "number" && typeof operationId === "string").toBe(true);
      return rest;
    });
    return { ws, sync, timeless };
  }

  it("a pull cut short: the finished block, then ok: false with the sanitised error", async () => {
    const { ws, sync, timeless } = setup();
    await expect(sync.pull()).rejects.toThrow("ECONNRESET: connection lost (token=abc123)");
    expect(await ws.fs.readFile("/workspace/got.txt", "utf8")).toBe("ok"); // the first page was applied
    const base = { time: 5, backend: "box", direction: "pull", cpuLimitMs: 30000 };
    expect(timeless()).toEqual([
      { event: "sync.block", ...base, block: 1, entries: 1, bytes: 2, skipped: 0 },
      { event: "sync.operation", ...base, blocks: 1, entries: 1, bytes: 2, skipped: 0, ok: false, error: "ECONNRESET: connection lost (token=[REDACTED]" },
    ]);
  });

  it("a push whose apply fails: no block, ok: false", async () => {
    const { ws, sync, timeless } = setup();
    await ws.fs.mkdir("/workspace", { recursive: true });
    await ws.fs.writeFile("/workspace/a.txt", "hello");
    await expect(sync.push()).rejects.toThrow("ECONNRESET: connection lost");
    expect(timeless()).toEqual([
      { event: "sync.operation", time: 5, backend: "box", direction: "push", blocks: 0, entries: 0, bytes: 0, skipped: 0, ok: false, error: "ECONNRESET: connection lost", cpuLimitMs: 30000 },
    ]);
  });
});
