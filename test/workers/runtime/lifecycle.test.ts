import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { collect, inWorkspace } from "./helpers.js";
import { abortObject } from "../attack2/abort-helpers.js";

describe("lifecycle", () => {
  it("getExec replays a completed run from the journal; disposeExec frees the id", async () => {
    await inWorkspace(async (ws) => {
      await (await ws.runtime.exec(`export default () => { console.log("one"); console.error("two"); return { ok: 1 }; }`, { id: "r" })).result();
      const replay = (await collect(await ws.runtime.getExec("r", { encoding: "utf8" }))).map((e) => ({ ...e }));
      expect(replay).toEqual([
        { id: "r", seq: 1, name: "stdout", value: "one\n" },
        { id: "r", seq: 2, name: "stderr", value: "two\n" },
        { id: "r", seq: 3, name: "exit", code: 0, result: { ok: 1 } },
      ]);
      expect((await collect(await ws.runtime.getExec("r", { resume: 1 }))).map((e) => e.seq)).toEqual([2, 3]);
      expect(await collect(await ws.runtime.getExec("r", { resume: "tail" }))).toEqual([]);
      await ws.runtime.disposeExec("r");
      await expect(ws.runtime.getExec("r")).rejects.toMatchObject({ code: "ENOENT" });
      await expect(ws.runtime.disposeExec("r")).rejects.toMatchObject({ code: "ENOENT" });
      await expect(ws.runtime.killExec("r")).rejects.toMatchObject({ code: "ENOENT" });
      expect((await (await ws.runtime.exec(`export default 2`, { id: "r" })).result()).value).toBe(2);
    });
  });

  it("getExec follows a live run; disposeExec of a running run is EEXEC_BUSY; killExec cancels it", async () => {
    await inWorkspace(async (ws) => {
      const h = await ws.runtime.exec(`export default async () => { console.log("start"); for (;;) await new Promise((r) => setTimeout(r, 5)); }`, { id: "live" });
      await expect(ws.runtime.disposeExec("live")).rejects.toMatchObject({ code: "EEXEC_BUSY" });
      const follower = await ws.runtime.getExec("live", { encoding: "utf8" });
      const reader = follower.getReader();
      expect((await reader.read()).value).toMatchObject({ seq: 1, name: "stdout", value: "start\n" });
      await h.kill();
      const rest: unknown[] = [];
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        rest.push(value);
      }
      expect(rest).toEqual([
        { id: "live", seq: 2, name: "stderr", value: "Execution cancelled.\n" },
        { id: "live", seq: 3, name: "exit", code: 130 },
      ]);
      const r = await h.result();
      expect([r.status, r.exitCode, new TextDecoder().decode(r.stdout), new TextDecoder().decode(r.stderr)]).toEqual(["cancelled", 130, "start\n", "Execution cancelled.\n"]);
      h[Symbol.dispose]();
    });
  });

  it("expires finished runs after retentionMs and beyond maxRetainedExecutions", async () => {
    let now = 1_000_000;
    await inWorkspace(
      async (ws) => {
        for (const id of ["a", "b", "c"]) await (await ws.runtime.exec(`export default 1`, { id })).result();
        await expect(ws.runtime.getExec("a")).rejects.toMatchObject({ code: "ENOENT" });
        expect((await (await ws.runtime.getExec("c")).result()).value).toBe(1);
        now += 10_001;
        await expect(ws.runtime.getExec("c")).rejects.toMatchObject({ code: "ENOENT" });
      },
      { backend: { retentionMs: 10_000, maxRetainedExecutions: 2 }, workspace: { now: () => now } },
    );
  });

  it("reconciles runs left running across a restart (a real ctx.abort()) to failed, at once", async () => {
    const id = env.TEST_DO.newUniqueId();
    await runInDurableObject(env.TEST_DO.get(id), async (_i, state) => {
      const first = new Workspace({ storage: state.storage, backends: [new WorkerJavaScriptBackend({ loader: env.LOADER })] });
      const h = await first.runtime.exec(`export default async () => { console.log("before"); for (;;) await new Promise((r) => setTimeout(r, 5)); }`, { id: "orphan" });
      const reader = h.getReader();
      expect((await reader.read()).value).toMatchObject({ seq: 1, name: "stdout" }); // "before" was journaled
      reader.releaseLock();
    });
    // The object restarts: its run is gone with it (the first Workspace was never closed).
    expect(await abortObject(env.TEST_DO.get(id), "lifecycle test: simulated restart")).toMatch(/^aborted/);
    const r = await runInDurableObject(env.TEST_DO.get(id), async (_i, state) => {
      const second = new Workspace({ storage: state.storage, backends: [new WorkerJavaScriptBackend({ loader: env.LOADER })] });
      const result = await (await second.runtime.getExec("orphan", { encoding: "utf8" })).result();
      const again = await (await second.runtime.getExec("orphan", { encoding: "utf8" })).result();
      await second.close();
      return { result, again };
    });
    expect(r.result).toMatchObject({ status: "failed", exitCode: 1, stdout: "before\n", stderr: "Execution was interrupted when its Workspace runtime restarted.\n" });
    expect(r.again).toEqual(r.result);
  });

  it("a second Workspace over the same storage does not settle the first one's live run: it follows it", async () => {
    const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
    const r = await runInDurableObject(stub, async (_i, state) => {
      const first = new Workspace({ storage: state.storage, backends: [new WorkerJavaScriptBackend({ loader: env.LOADER })] });
      const h = await first.runtime.exec(`export default async () => { console.log("before"); for (;;) await new Promise((r) => setTimeout(r, 5)); }`, { id: "shared" });
      const reader = h.getReader();
      expect((await reader.read()).value).toMatchObject({ seq: 1, name: "stdout" });
      reader.releaseLock();
      const second = new Workspace({ storage: state.storage, backends: [new WorkerJavaScriptBackend({ loader: env.LOADER })] });
      const followed = (await second.runtime.getExec("shared", { encoding: "utf8" })).result();
      await expect(second.runtime.disposeExec("shared")).rejects.toMatchObject({ code: "EEXEC_BUSY" });
      await second.runtime.killExec("shared"); // reaches the owner
      const result = await followed;
      h[Symbol.dispose]();
      const own = await (await first.runtime.getExec("shared")).result();
      await first.close();
      await second.close();
      return { result, own: { status: own.status, exitCode: own.exitCode } };
    });
    expect(r.result).toMatchObject({ status: "cancelled", exitCode: 130, stdout: "before\n", stderr: "Execution cancelled.\n" });
    expect(r.own).toEqual({ status: "cancelled", exitCode: 130 });
  });

  it("cancels live runs when the Workspace closes", async () => {
    const r = await inWorkspace(async (ws) => {
      const h = await ws.runtime.exec(`export default async () => { for (;;) await new Promise((r) => setTimeout(r, 5)); }`, { id: "c", encoding: "utf8" });
      const p = h.result();
      await new Promise((r) => setTimeout(r, 30));
      await ws.close();
      return p;
    });
    expect(r).toMatchObject({ status: "cancelled", exitCode: 130, stderr: "Execution cancelled because its Workspace closed.\n" });
  });

  it("describes itself with its modules", () => {
    const b = new WorkerJavaScriptBackend({
      loader: env.LOADER,
      access: "read",
      modules: { lib: "export const x = 1;", "ws:math": { add: () => 1, mul: () => 2 }, "ws:f": Object.assign(() => ({}), { description: "Custom things." }) },
    });
    const d = b.description;
    expect(d).toContain("There is no network access");
    expect(d).toContain("Files are read-only");
    expect(d).toContain("Modules code can import:\n- `node:fs/promises` (also `node:fs`): readFile, writeFile, mkdir, rm, chmod, symlink, readlink, readdir, stat, lstat, access;");
    expect(d).toContain("- `lib`: a bundled library.\n- `ws:math`: exports `add`, `mul`.\n- `ws:f`: Custom things.\n- Node built-ins");
  });
});
