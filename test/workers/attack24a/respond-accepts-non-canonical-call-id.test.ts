/**
 * Issue 20, twenty-fourth attack run: `runtime.respond(id, callId, …)` answers a waiting call under call ids that
 * pending() never listed — `w:+1`, `w:1.0`, `w:0x1`, `w:1e0`, `w: 1` all answer call `w:1`.
 * Tried: a replay run `w` whose host call `ask` waits (`ctx.interrupt`); pending() lists `{ id: "w", callId: "w:1" }`.
 * respond() with the same run id and call ids spelling the number 1 otherwise — each against a fresh object, so each
 * spelling is tried on a call still waiting.
 * Held: `w:999`, another run's call id and a wrong backend are ENOTWAITING (durable/waiting.test.ts); the canonical
 * `w:1` answers and the run completes with the answer.
 * Found (low — an approval UI or an audit trail keyed by callId records an answer under an id that names no call,
 * while the call pending() listed gets answered; 3 of 3 runs): every spelling resolves and the run completes with
 * `{ answer: "yes" }`: WorkerJavaScriptConnection.respond (src/backends/worker-javascript/connection.ts) takes
 * `Number(callId.slice(id.length + 1))`, and Number() accepts a sign, a fraction, hex/binary/octal prefixes,
 * exponents and surrounding whitespace. (pending({ callIds }) parses the same way.) docs/runtime.md: "respond()
 * rejects with code ENOTWAITING for a call that is not waiting (already answered, unknown, …)".
 * Suggested fix: accept only the canonical form — `/^[1-9][0-9]*$/` on the part after `${id}:` (then Number), in
 * respond and in pending({ callIds }).
 * Fixed: WorkerJavaScriptConnection (src/backends/worker-javascript/connection.ts) reads a call's number with callSeq,
 * which takes only `/^[1-9][0-9]*$/` (a safe integer) after `<id>:` — in respond() and in pending({ callIds }), whose
 * non-string ids are now skipped rather than thrown on; any other spelling is ENOTWAITING and the call keeps waiting.
 * The ENOTWAITING message quotes the ids with quoteCut. fix24/respond-call-id.test.ts covers `w:01`, `w:1 ` and
 * pending()'s callIds.
 */
import { describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";
import { durable, resultOf, start, waitingCalls, type DurableStub } from "../durable/helpers.js";

async function respond(stub: DurableStub, id: string, callId: string, answer: unknown) {
  using ws = await getWorkspace(stub);
  return ws.runtime.respond(id, callId, answer as never).then(
    () => "resolved",
    (e: Error & { code?: string }) => e.code ?? e.message,
  );
}

const ASK = `import { ask } from "ws:approve";
export default async () => ({ answer: await ask({ q: 1 }) });`;

describe("respond() and call ids pending() never listed", () => {
  it("a call id spelling the call's number otherwise is ENOTWAITING and the call keeps waiting", async () => {
    const out: Record<string, unknown> = {};
    for (const spelling of ["w:+1", "w:1.0", "w:0x1", "w:1e0", "w: 1"]) {
      const { stub, fresh } = durable();
      await start(stub, ASK, { id: "w", onInterrupt: "replay" });
      const [call] = await waitingCalls(fresh, 1, [{ id: "w" }]);
      expect(call).toMatchObject({ id: "w", callId: "w:1", payload: { q: 1 } });
      const answered = await respond(fresh(), "w", spelling, "yes");
      using ws = await getWorkspace(fresh());
      const still = (await ws.runtime.pending()).map((c) => c.callId);
      out[spelling] = { answered, still };
      if (answered === "resolved") expect(await resultOf(fresh(), "w")).toMatchObject({ status: "completed", value: { answer: "yes" } });
    }
    // Found: each { answered: "resolved", still: [] } (the run completed with { answer: "yes" }).
    const refused = { answered: "ENOTWAITING", still: ["w:1"] };
    expect(out).toEqual({ "w:+1": refused, "w:1.0": refused, "w:0x1": refused, "w:1e0": refused, "w: 1": refused });
  }, 120_000);
});
