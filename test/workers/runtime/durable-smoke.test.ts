import { describe, expect, it } from "vitest";
import type { WorkspaceModuleCallContext } from "../../../src/modules/types.js";
import { inWorkspace } from "./helpers.js";

describe("durable runs: smoke (same object)", () => {
  it("a replay run that waits: pending, respond, replay with the answer", async () => {
    const seen: string[] = [];
    const result = await inWorkspace(
      async (ws) => {
        await ws.fs.mkdir("/workspace", { recursive: true });
        const src = `import { ask } from "ws:approve"; import { writeFile, readFile } from "node:fs/promises";
          export default async () => {
            const t0 = Date.now(); const r = Math.random(); const u = crypto.randomUUID();
            await writeFile("/workspace/a.txt", "A" + r);
            console.log("before", t0, r, u);
            await new Promise((res) => setTimeout(res, 20));
            const answer = await ask({ q: "send?" });
            console.log("after", JSON.stringify(answer));
            return { answer, same: (await readFile("/workspace/a.txt", "utf8")) === "A" + r, t0, r, u };
          }`;
        const h = await ws.runtime.exec(src, { id: "w1", onInterrupt: "replay", encoding: "utf8" });
        let pending: Awaited<ReturnType<typeof ws.runtime.pending>> = [];
        for (let i = 0; i < 100 && pending.length === 0; i++) {
          await new Promise((r) => setTimeout(r, 50));
          pending = await ws.runtime.pending();
        }
        expect(pending).toHaveLength(1);
        expect(pending[0]).toMatchObject({ id: "w1", backend: "worker-javascript", callId: "w1:2", payload: { q: "send?" } });
        await expect(ws.runtime.respond("w1", "w1:9", true)).rejects.toMatchObject({ code: "ENOTWAITING" });
        await ws.runtime.respond("w1", pending[0]!.callId, { approved: true });
        await expect(ws.runtime.respond("w1", pending[0]!.callId, { approved: true })).rejects.toMatchObject({ code: "ENOTWAITING" });
        const r = await h.result();
        return { r, pendingAfter: await ws.runtime.pending() };
      },
      {
        backend: {
          modules: {
            "ws:approve": {
              ask: async ([payload], ctx: WorkspaceModuleCallContext) => {
                seen.push(ctx.callId);
                return ctx.interrupt(payload ?? null);
              },
            },
          },
        },
      },
    );
    expect(seen).toEqual(["w1:2", "w1:2"]);
    expect(result.pendingAfter).toEqual([]);
    const { r } = result;
    expect(r.status).toBe("completed");
    expect(r.stderr).toBe("");
    const v = r.value as { answer: unknown; same: boolean; t0: number; r: number; u: string };
    expect(v.answer).toEqual({ approved: true });
    expect(v.same).toBe(true);
    expect(r.stdout).toBe(`before ${v.t0} ${v.r} ${v.u}\nafter {"approved":true}\n`);
  });

  it("interrupt in a fail run rejects with the policy message", async () => {
    const r = await inWorkspace(
      async (ws) => {
        const h = await ws.runtime.exec(`import { ask } from "ws:approve"; export default async () => { try { await ask(1); } catch (e) { return e.message; } }`, { encoding: "utf8" });
        return h.result();
      },
      { backend: { modules: { "ws:approve": { ask: async (_a, ctx: WorkspaceModuleCallContext) => ctx.interrupt(1) } } } },
    );
    expect(r.value).toMatch(/onInterrupt: "replay"/);
  });
});
