/**
 * Issue 20 third attack run, category 2 (many subscribers): event streams
 * left unread. Before the fix every stream counted against
 * `maxExecutionSubscribers` until it was read to its end, cancelled or
 * disposed — also streams opened after the run had ended — so eight
 * `getExec(id)` handles an agent dropped unread made the finished run's
 * result unreadable for the life of the isolate:
 *
 *   await (await ws.runtime.exec("export default () => 7", { id: "r1" })).result();
 *   for (let i = 0; i < 8; i++) await ws.runtime.getExec("r1");   // never read
 *   await (await ws.runtime.getExec("r1")).result();
 *   // EEXEC_BUSY: execution "r1" already has 8 open event streams (maxExecutionSubscribers)
 *
 * The limit now bounds the streams following a live run (spec 02 §3.7);
 * a stream over a finished run only reads the journal and is not counted.
 */
import { describe, expect, it } from "vitest";
import { collect, inWorkspace } from "../runtime/helpers.js";

describe("attack3: event streams left unread", () => {
  it("eight unread getExec handles of a finished run do not lock its result away", async () => {
    const r = await inWorkspace(async (ws) => {
      const first = await (await ws.runtime.exec(`export default () => 7`, { id: "r1" })).result();
      const dropped = [];
      for (let i = 0; i < 8; i++) dropped.push(await ws.runtime.getExec("r1"));
      const again = await (await ws.runtime.getExec("r1")).result();
      // many more, all readable
      const many = await Promise.all(Array.from({ length: 50 }, async () => (await (await ws.runtime.getExec("r1")).result()).value));
      // the dropped ones still read to the end when someone does read them
      const late = await collect(dropped[0]!);
      return { first: first.value, again: again.value, many, late: late.at(-1) };
    });
    expect(r.first).toBe(7);
    expect(r.again).toBe(7);
    expect(r.many).toEqual(Array(50).fill(7));
    expect(r.late).toMatchObject({ name: "exit", code: 0, result: 7 });
  });

  it("a live run still refuses the stream past the limit; once it ends, its result reads whatever was left unread", async () => {
    const r = await inWorkspace(
      async (ws) => {
        const handle = await ws.runtime.exec(`export default async () => { await new Promise((r) => setTimeout(r, 300)); return "done"; }`, { id: "live" });
        const second = await ws.runtime.getExec("live"); // the handle and this one: 2 of 2
        const third = await ws.runtime.getExec("live");
        const refused = await third.getReader().read().then(() => "read", (e: { code?: string }) => e.code);
        // neither handle is read: the run ends on its own
        await new Promise((res) => setTimeout(res, 1000));
        const after = await (await ws.runtime.getExec("live", { encoding: "utf8" })).result();
        void handle;
        void second;
        return { refused, after: after.value };
      },
      { backend: { maxExecutionSubscribers: 2 } },
    );
    expect(r).toEqual({ refused: "EEXEC_BUSY", after: "done" });
  });
});
