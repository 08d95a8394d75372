/**
 * Issue 20 third attack run, category 5: real `ctx.abort()` at new points —
 * mid-run while the run writes many files in a loop and prints between
 * them, mid streamed write whose chunks are shared with a file that already
 * exists, and mid recursive removal of a large tree over RPC. After the
 * restart: every file is whole (or absent), reference counts equal the
 * references that exist, the journal's events are contiguous and end in
 * one exit, and the Workspace works.
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";
import { abortObject, agent, stallingStream } from "../attack2/abort-helpers.js";
import { integrityProblems } from "../../shared/attack3/integrity.js";

const abort = (stub: DurableObjectStub) => abortObject(stub, "attack3: simulated crash");
const storage = <T>(stub: DurableObjectStub, fn: (sql: SqlStorage) => T) => runInDurableObject(stub, (_i, state) => fn(state.storage.sql));

describe("attack3: ctx.abort() at new points", () => {
  it("mid-run while it writes files in a loop: files whole or absent, journal contiguous with one exit", async () => {
    const { stub, fresh } = agent();
    {
      using ws = await getWorkspace(stub);
      await ws.fs.mkdir("/workspace/out", { recursive: true });
      using h = await ws.runtime.exec(
        `import { writeFile } from "node:fs/promises";
         export default async () => {
           for (let i = 0; ; i++) {
             await writeFile("/workspace/out/f" + i, String(i).repeat(1000 + i) + (i % 10 === 0 ? "x".repeat(600_000) : ""));
             console.log("wrote " + i);
             process.stderr.write("e" + i + "\\n");
             await new Promise((r) => setTimeout(r, 40));
           }
         }`,
        { id: "loop" },
      );
      await new Promise((r) => setTimeout(r, 1500));
      expect(await abort(stub)).toMatch(/^aborted/);
    }
    using ws = await getWorkspace(fresh());
    const r = await (await ws.runtime.getExec("loop", { encoding: "utf8" })).result();
    expect(r).toMatchObject({ status: "failed", exitCode: 1 });
    expect(String(r.stderr).endsWith("Execution was interrupted when its Workspace runtime restarted.\n")).toBe(true);
    const files = (await ws.fs.ls("/workspace/out")).map((p) => Number(p.slice("/workspace/out/f".length))).sort((a, b) => a - b);
    expect(files.length).toBeGreaterThan(0);
    expect(files).toEqual(files.map((_, i) => i)); // f0 … fn, none skipped
    for (const i of files) {
      const text = await ws.fs.readFile(`/workspace/out/f${i}`, "utf8");
      expect(text, `f${i}`).toBe(String(i).repeat(1000 + i) + (i % 10 === 0 ? "x".repeat(600_000) : ""));
    }
    // every printed line names a file that is whole
    const printed = String(r.stdout).split("\n").filter(Boolean).map((l) => Number(l.slice(6)));
    expect(printed).toEqual(printed.map((_, i) => i));
    expect(printed.length).toBeLessThanOrEqual(files.length);
    const journal = await storage(fresh(), (sql) => ({
      seqs: sql.exec("SELECT seq, name FROM __ws_exec_events WHERE id = 'loop' ORDER BY seq").toArray() as { seq: number; name: string }[],
      run: sql.exec("SELECT status, exit_code, last_seq FROM __ws_exec_runs WHERE id = 'loop'").toArray(),
      problems: integrityProblems(sql),
    }));
    expect(journal.seqs.map((e) => e.seq)).toEqual(journal.seqs.map((_, i) => i + 1));
    expect(journal.seqs.filter((e) => e.name === "exit").length).toBe(1);
    expect(journal.seqs.at(-1)!.name).toBe("exit");
    expect(journal.run).toEqual([{ status: "done", exit_code: 1, last_seq: journal.seqs.length }]);
    expect(journal.problems).toEqual([]);
    using h2 = await ws.runtime.exec(`export default () => 5`);
    expect((await h2.result()).value).toBe(5);
  });

  it("mid streamed write sharing chunks with an existing file: that file intact, refs exact", async () => {
    const { stub, fresh } = agent();
    const shared = new Uint8Array(524_288).fill(7);
    {
      using ws = await getWorkspace(stub);
      await ws.fs.mkdir("/w", { recursive: true });
      await ws.fs.writeFile("/w/existing.bin", new Uint8Array([...shared, ...shared, 1, 2, 3]));
      await ws.fs.writeFile("/w/target.bin", "old");
    }
    const { stream, twoSent } = stallingStream(() => shared.slice());
    {
      using ws = await getWorkspace(stub);
      const writing = ws.fs.writeFile("/w/target.bin", stream).then(() => "written", (e) => `rejected: ${(e as Error).message}`);
      await twoSent;
      await new Promise((r) => setTimeout(r, 300));
      expect(await abort(stub)).toMatch(/^aborted/);
      // Was: "rejected: attack3: simulated crash" (ctx.abort()'s bare reason; run 31, fixer RS: ECONNRESET naming the call)
      expect(await writing).toBe(
        "rejected: fs.writeFile: the Durable Object behind this workspace client restarted or was reset, so the client's connection to it is gone (workerd: attack3: simulated crash); " +
          "get a new client with getWorkspace(stub) — a lazy client made from a function, getWorkspace(() => env.NS.get(id)), reconnects by itself on its next call. " +
          "A call in flight when it happened may or may not have taken effect.",
      );
    }
    using ws = await getWorkspace(fresh());
    expect(await ws.fs.readFile("/w/target.bin", "utf8")).toBe("old");
    const existing = new Uint8Array(await new Response(await ws.fs.readFile("/w/existing.bin")).arrayBuffer());
    expect(existing.byteLength).toBe(2 * 524_288 + 3);
    expect(existing.subarray(0, 2 * 524_288).every((b) => b === 7)).toBe(true);
    expect([...existing.subarray(-3)]).toEqual([1, 2, 3]);
    expect(await storage(fresh(), (sql) => integrityProblems(sql))).toEqual([]);
    // removing the existing file afterwards takes its chunks' references with it
    await ws.fs.rm("/w/existing.bin");
    expect(await storage(fresh(), (sql) => integrityProblems(sql))).toEqual([]);
  });

  it("mid recursive removal of a 1,000-file tree over RPC: the tree is whole or gone, never half", async () => {
    const { stub, fresh } = agent();
    {
      using ws = await getWorkspace(stub);
      for (let d = 0; d < 20; d++) {
        await ws.fs.mkdir(`/t/d${d}`, { recursive: true });
        await Promise.all(Array.from({ length: 50 }, (_, f) => ws.fs.writeFile(`/t/d${d}/f${f}`, `${d}/${f} `.repeat(50))));
      }
    }
    {
      using ws = await getWorkspace(stub);
      const removing = ws.fs.rm("/t", { recursive: true }).then(() => "removed", (e) => `rejected: ${(e as Error).message}`);
      await new Promise((r) => setTimeout(r, 5));
      await abort(stub);
      await removing;
    }
    using ws = await getWorkspace(fresh());
    const left = await ws.fs.find("/", "**");
    const files = left.filter((e) => /\/f\d+$/.test(e.path)).length;
    expect([0, 1000]).toContain(files);
    if (files === 1000) expect(await ws.fs.readFile("/t/d19/f49", "utf8")).toBe("19/49 ".repeat(50));
    expect(await storage(fresh(), (sql) => integrityProblems(sql))).toEqual([]);
  });
});
