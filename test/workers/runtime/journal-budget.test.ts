import { describe, expect, it } from "vitest";
import { inWorkspace } from "./helpers.js";

/**
 * The journal's byte budget (maxRetainedBytes; second attack run of issue 20:
 * with 64 MiB per stream, 100 retained runs could hold ~13 GB). Finished runs
 * are counted from the newest; older ones past the budget are pruned, the
 * newest is always kept, running runs never.
 */
const print = (n: number, stream = "stdout") => `export default () => { process.${stream}.write("x".repeat(${n})); return 1; }`;

describe("maxRetainedBytes", () => {
  it("prunes the oldest finished runs past the budget, counting both streams", async () => {
    const r = await inWorkspace(
      async (ws, state) => {
        for (const [id, source] of [
          ["r1", print(1000)],
          ["r2", print(1000, "stderr")],
          ["r3", print(1000)],
        ]) await (await ws.runtime.exec(source!, { id })).result();
        const exists = async (id: string) => ws.runtime.getExec(id).then(() => true, (e: { code?: string }) => e.code);
        const bytes = state.storage.sql
          .exec<{ id: string; bytes: number }>("SELECT id, bytes FROM __ws_exec_runs ORDER BY id")
          .toArray()
          .map((row) => [row.id, row.bytes]);
        return { r1: await exists("r1"), r2: await exists("r2"), r3: await exists("r3"), bytes };
      },
      { backend: { maxRetainedBytes: 2500 } },
    );
    // r3 (1000) + r2 (1000) = 2000 ≤ 2500; r1 would make 3000.
    expect(r).toEqual({ r1: "ENOENT", r2: true, r3: true, bytes: [["r2", 1000], ["r3", 1000]] });
  });

  it("keeps the newest finished run whole even when it alone is over the budget", async () => {
    const r = await inWorkspace(
      async (ws) => {
        await (await ws.runtime.exec(print(100), { id: "small" })).result();
        const big = await (await ws.runtime.exec(print(5000), { id: "big", encoding: "utf8" })).result();
        const again = await (await ws.runtime.getExec("big", { encoding: "utf8" })).result();
        const small = await ws.runtime.getExec("small").then(() => true, (e: { code?: string }) => e.code);
        return { big: big.stdout.length, again: again.stdout.length, small };
      },
      { backend: { maxRetainedBytes: 1000 } },
    );
    expect(r).toEqual({ big: 5000, again: 5000, small: "ENOENT" });
  });

  it("a journal made before the bytes column gains it, and its old runs count as 0 bytes", async () => {
    const { env, runInDurableObject } = await import("cloudflare:test");
    const { Workspace } = await import("../../../src/index.js");
    const { WorkerJavaScriptBackend } = await import("../../../src/backends/worker-javascript/index.js");
    const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
    const r = await runInDurableObject(stub, async (_instance, state) => {
      const sql = state.storage.sql;
      sql.exec(`CREATE TABLE __ws_exec_runs (
        backend TEXT NOT NULL, id TEXT NOT NULL, status TEXT NOT NULL, exit_code INTEGER,
        started_at INTEGER NOT NULL, finished_at INTEGER, last_seq INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (backend, id))`);
      sql.exec("INSERT INTO __ws_exec_runs (backend, id, status, exit_code, started_at, finished_at, last_seq) VALUES ('worker-javascript', 'old', 'done', 0, ?, ?, 0)", Date.now(), Date.now());
      const ws = new Workspace({ storage: state.storage, backends: [new WorkerJavaScriptBackend({ loader: env.LOADER, maxRetainedBytes: 10 })] });
      try {
        await (await ws.runtime.exec(print(5), { id: "new" })).result();
        return sql.exec<{ id: string; bytes: number }>("SELECT id, bytes FROM __ws_exec_runs ORDER BY id").toArray().map((row) => [row.id, row.bytes]);
      } finally {
        await ws.close();
      }
    });
    expect(r).toEqual([["new", 5], ["old", 0]]);
  });

  it("rejects a budget that is not a positive integer", async () => {
    await expect(inWorkspace(async () => 0, { backend: { maxRetainedBytes: 0 } })).rejects.toThrow(
      "maxRetainedBytes must be a positive safe integer, got 0",
    );
  });
});
