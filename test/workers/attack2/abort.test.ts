/**
 * Issue 20 second attack run, category 5: a real `ctx.abort()` (not a
 * simulated restart) while a streamed write is in flight over RPC and while
 * a run is in flight. After the restart the old content is intact, no chunk
 * list was linked, the staged chunks are unreferenced and still leased (the
 * sweep reclaims them once the lease ends), and the run is settled as failed
 * with the output it had journaled.
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";
import { abortObject, agent, stallingStream } from "./abort-helpers.js";

const abort = (stub: DurableObjectStub) => abortObject(stub, "attack2: simulated crash");

describe("attack2: ctx.abort() mid-write and mid-exec", () => {
  it("abort during a streamed write over RPC: old content intact, nothing half-written", async () => {
    const { stub, fresh } = agent();
    {
      using ws = await getWorkspace(stub);
      await ws.fs.mkdir("/w", { recursive: true });
      await ws.fs.writeFile("/w/f.bin", "old");
    }
    const { stream, twoSent } = stallingStream((n) => new Uint8Array(524_288).fill(n));
    let writing: Promise<string>;
    {
      using ws = await getWorkspace(stub);
      writing = ws.fs.writeFile("/w/f.bin", stream).then(() => "written", (e) => `rejected: ${(e as Error).message}`);
      await twoSent;
      await new Promise((r) => setTimeout(r, 300));
      const a = await abort(stub);
      expect(a).toMatch(/^aborted/);
      const w = await Promise.race([writing, new Promise((r) => setTimeout(() => r("still pending"), 5000))]);
      // Was: "rejected: attack2: simulated crash" (ctx.abort()'s bare reason; run 31, fixer RS: ECONNRESET naming the call)
      expect(w).toBe(
        "rejected: fs.writeFile: the Durable Object behind this workspace client restarted or was reset, so the client's connection to it is gone (workerd: attack2: simulated crash); " +
          "get a new client with getWorkspace(stub) — a lazy client made from a function, getWorkspace(() => env.NS.get(id)), reconnects by itself on its next call. " +
          "A call in flight when it happened may or may not have taken effect.",
      );
    }
    using ws = await getWorkspace(fresh());
    expect(await ws.fs.readFile("/w/f.bin", "utf8")).toBe("old");
    const rows = await runInDurableObject(fresh(), (_i, state) => ({
      chunks: [...state.storage.sql.exec("SELECT refs, EXISTS (SELECT 1 FROM __ws_chunk_leases l WHERE l.chunk = c.id) AS leased, size FROM __ws_chunks c ORDER BY c.id")],
      lists: [...state.storage.sql.exec("SELECT count(*) AS n FROM __ws_file_chunks")][0],
    }));
    expect(rows.lists).toEqual({ n: 0 });
    expect(rows.chunks).toEqual([
      { refs: 1, leased: 0, size: 3 },
      { refs: 0, leased: 1, size: 524_288 },
      { refs: 0, leased: 1, size: 524_288 },
    ]);
  });

  it("abort during an exec: the run is reconciled to failed after restart, with its output so far", async () => {
    const { stub, fresh } = agent();
    {
      using ws = await getWorkspace(stub);
      await ws.fs.mkdir("/workspace", { recursive: true });
      using h = await ws.runtime.exec(
        `import { writeFile } from "node:fs/promises";
         export default async () => { console.log("before"); await writeFile("/workspace/half.txt", "x".repeat(100)); await new Promise((r) => setTimeout(r, 30000)); console.log("after"); return 1; }`,
        { id: "long" },
      );
      await new Promise((r) => setTimeout(r, 1500));
      expect(await abort(stub)).toMatch(/^aborted/);
    }
    using ws = await getWorkspace(fresh());
    const r = await Promise.race([
      (await ws.runtime.getExec("long", { encoding: "utf8" })).result(),
      new Promise((res) => setTimeout(() => res("result() still pending after 10 s"), 10_000)),
    ]);
    expect(r).toMatchObject({
      status: "failed",
      exitCode: 1,
      stdout: "before\n",
      stderr: "Execution was interrupted when its Workspace runtime restarted.\n",
    });
    // the write the run finished before the abort is whole
    expect(await ws.fs.readFile("/workspace/half.txt", "utf8")).toBe("x".repeat(100));
    // a new run works after the restart
    using h2 = await ws.runtime.exec(`export default () => 5`);
    expect((await h2.result()).value).toBe(5);
  });
});
