/**
 * Issue 20 sixth attack run, category 5: a real `ctx.abort()` at places runs
 * 2–5 did not reach. The crash is raised from inside the Workspace call the
 * operation makes (a wrapped `fs.writeFile`), so it lands there for certain:
 * (a) mid `edit` tool call (pi's execute) — the file is old or new, whole;
 *     the restarted object edits it again (no tool lock left held);
 * (b) mid long-output spooling of a run (its stdout past 64 KiB streams to
 *     `/.computer/output/…`) — the run is reconciled to failed, the restarted
 *     object runs again and writes the same output file name whole;
 * (c) twice in a row — abort, then abort the restarted object in the middle
 *     of its first streamed write — the third start is sound and the old
 *     content intact;
 * (d) mid `git add` of 300 files (the index write) — status answers, and a
 *     second `add` + `commit` works.
 * After each: `integrityProblems` finds nothing (refs, chunk lists, blobs,
 * reachability), old content intact, nothing half-written.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { WORKSPACE } from "../../../src/do/symbol.js";
import { getWorkspace, type Workspace } from "../../../src/index.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { integrityProblems } from "../../shared/attack3/integrity.js";
import { stallingStream } from "../attack2/abort-helpers.js";

type Fs = Record<string, (...a: unknown[]) => unknown>;
/** Inside the object: `ws`, with `fs.writeFile` of a path matching `at` raising `ctx.abort()` first. */
function crashOnWrite(instance: unknown, state: DurableObjectState, at: RegExp, reason: string): Workspace {
  const ws = (instance as unknown as Record<symbol, Workspace>)[WORKSPACE];
  const fs = ws.fs as unknown as Fs;
  const write = fs.writeFile!.bind(ws.fs);
  fs.writeFile = (...a: unknown[]) => {
    if (at.test(String(a[0]))) state.abort(reason);
    return write(...a);
  };
  return ws;
}
const outcome = (p: Promise<unknown>) => p.then(() => "no abort", (e: Error) => `aborted: ${e.message}`);
const within = <T>(ms: number, p: Promise<T>) => Promise.race([p, new Promise<string>((r) => setTimeout(() => r(`hung ${ms} ms`), ms))]);
const sound = (ns: { get(id: DurableObjectId): DurableObjectStub }, id: DurableObjectId) => runInDurableObject(ns.get(id), (_i, state) => integrityProblems(state.storage.sql));

describe("attack6: ctx.abort() mid tool call, mid output spooling, twice, mid git add", () => {
  it("(a) mid edit tool call: the file is whole (old), and the restarted object edits it", async () => {
    const id = env.CLIENT_EXEC_AGENT.newUniqueId();
    const old = Array.from({ length: 3000 }, (_, i) => `line ${i}`).join("\n");
    {
      using ws = await getWorkspace(env.CLIENT_EXEC_AGENT.get(id));
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.writeFile("/workspace/e.txt", old);
    }
    const a = await outcome(
      runInDurableObject(env.CLIENT_EXEC_AGENT.get(id), async (instance, state) => {
        const ws = crashOnWrite(instance, state, /\/workspace\/e\.txt$/, "attack6: crash mid edit");
        const { execute } = createPiTools({ workspace: ws });
        await execute({ id: "r", name: "read", arguments: { path: "/workspace/e.txt" } });
        await execute({ id: "e", name: "edit", arguments: { path: "/workspace/e.txt", edits: [{ oldText: "line 7\n", newText: "LINE 7\n" }] } });
      }),
    );
    expect(a).toBe("aborted: attack6: crash mid edit");
    expect(await sound(env.CLIENT_EXEC_AGENT, id)).toEqual([]);
    const after = await runInDurableObject(env.CLIENT_EXEC_AGENT.get(id), async (instance) => {
      const ws = (instance as unknown as Record<symbol, Workspace>)[WORKSPACE];
      const before = await ws.fs.readFile("/workspace/e.txt", "utf8");
      const { execute } = createPiTools({ workspace: ws });
      await execute({ id: "r", name: "read", arguments: { path: "/workspace/e.txt" } });
      const r = await within(10_000, execute({ id: "e", name: "edit", arguments: { path: "/workspace/e.txt", edits: [{ oldText: "line 7\n", newText: "LINE 7\n" }] } }));
      return { before, isError: typeof r === "string" ? r : r.isError, now: await ws.fs.readFile("/workspace/e.txt", "utf8") };
    });
    expect(after.before).toBe(old);
    expect(after.isError).toBe(false);
    expect(after.now).toBe(old.replace("line 7\n", "LINE 7\n"));
  });

  it("(b) mid long-output spooling: the run is failed after restart; a new run saves its output file whole", async () => {
    const id = env.CLIENT_EXEC_AGENT.newUniqueId();
    const SRC = `export default async () => { for (let i = 0; i < 4000; i++) console.log(String(i).padStart(40, "x")); return "done"; }`;
    const a = await outcome(
      runInDurableObject(env.CLIENT_EXEC_AGENT.get(id), async (instance, state) => {
        const ws = crashOnWrite(instance, state, /^\/\.computer\/output\//, "attack6: crash mid spool");
        await ws.fs.mkdir("/workspace", { recursive: true });
        const h = await ws.runtime.exec(SRC, { id: "spool" });
        await h.result();
      }),
    );
    expect(a).toBe("aborted: attack6: crash mid spool");
    expect(await sound(env.CLIENT_EXEC_AGENT, id)).toEqual([]);
    using ws = await getWorkspace(env.CLIENT_EXEC_AGENT.get(id));
    const first = await within(15_000, (async () => (await ws.runtime.getExec("spool", { encoding: "utf8" })).result())());
    expect(first).toMatchObject({ status: "failed", exitCode: 1 });
    const second = await within(30_000, (async () => (await ws.runtime.exec(SRC, { id: "spool2", encoding: "utf8" })).result())());
    expect(second).toMatchObject({ status: "completed", exitCode: 0, value: "done" });
    const saved = await ws.fs.readFile("/.computer/output/worker-javascript.spool2.stdout.log", "utf8");
    expect(saved).toBe(Array.from({ length: 4000 }, (_, i) => String(i).padStart(40, "x") + "\n").join(""));
    expect(await sound(env.CLIENT_EXEC_AGENT, id)).toEqual([]);
  });

  it("(c) aborted twice in a row, the second time in the restarted object's first streamed write: the third start is sound, old content intact", async () => {
    const id = env.CLIENT_EXEC_AGENT.newUniqueId();
    {
      using ws = await getWorkspace(env.CLIENT_EXEC_AGENT.get(id));
      await ws.fs.writeFile("/f.bin", "old");
    }
    for (const round of [1, 2]) {
      const { stream, twoSent } = stallingStream((n) => new Uint8Array(600_000).fill(n + round));
      const a = await outcome(
        runInDurableObject(env.CLIENT_EXEC_AGENT.get(id), async (instance, state) => {
          const ws = (instance as unknown as Record<symbol, Workspace>)[WORKSPACE];
          const writing = ws.fs.writeFile("/f.bin", stream);
          await twoSent;
          state.abort(`attack6: crash ${round}`);
          await writing;
        }),
      );
      expect(a).toBe(`aborted: attack6: crash ${round}`);
    }
    expect(await sound(env.CLIENT_EXEC_AGENT, id)).toEqual([]);
    using ws = await getWorkspace(env.CLIENT_EXEC_AGENT.get(id));
    expect(await ws.fs.readFile("/f.bin", "utf8")).toBe("old");
    await ws.fs.writeFile("/f.bin", new Uint8Array(1_500_000).fill(9));
    expect((await ws.fs.stat("/f.bin")).size).toBe(1_500_000);
    expect(await sound(env.CLIENT_EXEC_AGENT, id)).toEqual([]);
  });

  it("(d) mid git add of 300 files: status answers; add and commit work after", { timeout: 120_000 }, async () => {
    const id = env.GIT_AGENT.newUniqueId();
    {
      using ws = await getWorkspace(env.GIT_AGENT.get(id));
      await ws.fs.mkdir("/repo", { recursive: true });
      for (let i = 0; i < 300; i++) await ws.fs.writeFile(`/repo/f${i}.txt`, `file ${i}\n`);
      expect(await ws.git.cli({ argv: ["init"], cwd: "/repo" })).toMatchObject({ exitCode: 0 });
    }
    const a = await outcome(
      runInDurableObject(env.GIT_AGENT.get(id), async (instance, state) => {
        const ws = crashOnWrite(instance, state, /\/repo\/\.git\/index$/, "attack6: crash mid add");
        await ws.git.cli({ argv: ["add", "."], cwd: "/repo" });
      }),
    );
    expect(a).toBe("aborted: attack6: crash mid add");
    expect(await sound(env.GIT_AGENT, id)).toEqual([]);
    using ws = await getWorkspace(env.GIT_AGENT.get(id));
    const status = await within(20_000, ws.git.cli({ argv: ["status", "--porcelain"], cwd: "/repo" }));
    expect(status).toMatchObject({ exitCode: 0 });
    expect(await within(30_000, ws.git.cli({ argv: ["add", "."], cwd: "/repo" }))).toMatchObject({ exitCode: 0 });
    const commit = await within(30_000, ws.git.cli({ argv: ["commit", "-m", "all"], cwd: "/repo" }));
    expect(commit).toMatchObject({ exitCode: 0 });
    const files = await within(20_000, ws.git.cli({ argv: ["ls-files"], cwd: "/repo" }));
    expect((files as { stdout: string }).stdout.split("\n").filter(Boolean)).toHaveLength(300);
    expect(await sound(env.GIT_AGENT, id)).toEqual([]);
  });
});
