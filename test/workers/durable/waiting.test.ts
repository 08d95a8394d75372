/**
 * Issue 16 (spec 02 §5 "Waiting"): the rules around `ctx.interrupt()`,
 * `pending()` and `respond()` — interrupt only in replay runs, once per host
 * call, payload and answer JSON ≤ 262144 characters; `respond()` to a call
 * that is not waiting (`ENOTWAITING`) and to a backend without waiting calls;
 * `killExec` of a waiting run (130, also after a restart); `onWait` once per
 * wait, a throwing `onWait` ignored.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";
import { durable, restart, resultOf, sleep, start, until, waitingCalls, within, type DurableStub } from "./helpers.js";

/** respond() through a client; resolves "resolved" or the rejection's `{ name, code, message }`. */
async function respond(stub: DurableStub, id: string, callId: string, answer: unknown, backend?: string) {
  using ws = await getWorkspace(stub);
  return ws.runtime.respond(id, callId, answer as never, backend ? { backend } : {}).then(
    () => "resolved",
    (e: Error & { code?: string }) => ({ name: e.name, code: e.code, message: e.message }),
  );
}

const ASK_CAUGHT = `import { ask } from "ws:approve";
export default async () => {
  try { return { answer: await ask({ q: 1 }) }; } catch (e) { return { message: e.message }; }
};`;

describe("durable runs: waiting calls", () => {
  it("ctx.interrupt() rejects in fail and restart runs, naming the replay policy", async () => {
    const { stub, fresh } = durable();
    await start(stub, ASK_CAUGHT, { id: "in-fail" });
    await start(stub, ASK_CAUGHT, { id: "in-restart", onInterrupt: "restart" });
    for (const id of ["in-fail", "in-restart"]) {
      const r = await resultOf(fresh(), id);
      expect(r).toMatchObject({ status: "completed", exitCode: 0, stderr: "" });
      expect((r as { value?: { message?: string } }).value).toEqual({ message: expect.stringContaining('ctx.interrupt() only works in runs with onInterrupt: "replay"') });
    }
    expect(await fresh().sentRows()).toEqual([]);
    expect(await fresh().waits()).toEqual([]);
    using ws = await getWorkspace(fresh());
    expect(await ws.runtime.pending()).toEqual([]);
  });

  it("a second ctx.interrupt() in one host call rejects; the first one's answer stands", async () => {
    const { stub, fresh } = durable();
    await start(stub, `import { askTwice } from "ws:approve";\nexport default async () => askTwice("twice");`, { id: "twice", onInterrupt: "replay" });
    const [call] = await waitingCalls(fresh, 1, [{ id: "twice" }]);
    expect(call).toMatchObject({ id: "twice", payload: "twice" });
    expect(await respond(fresh(), "twice", call!.callId, "first answer")).toBe("resolved");
    const r = await resultOf(fresh(), "twice");
    expect(r).toMatchObject({ status: "completed", exitCode: 0, stderr: "" });
    expect((r as { value?: unknown }).value).toEqual({
      answer: "first answer",
      second: { name: "Error", message: expect.stringContaining("ctx.interrupt() was already called in this host call") },
    });
    // the second interrupt() did not wait
    expect(await fresh().waits()).toHaveLength(1);
    using ws = await getWorkspace(fresh());
    expect(await ws.runtime.pending()).toEqual([]);
  });

  it("respond() to a call that is not waiting rejects ENOTWAITING; the waiting call is untouched", async () => {
    const { stub, fresh } = durable();
    await start(stub, ASK_CAUGHT, { id: "waiting", onInterrupt: "replay" });
    const [call] = await waitingCalls(fresh, 1, [{ id: "waiting" }]);
    await start(stub, `export default () => "done"`, { id: "finished", onInterrupt: "replay" });
    expect(await resultOf(fresh(), "finished")).toMatchObject({ status: "completed", value: "done" });

    const notWaiting = { name: expect.any(String), code: "ENOTWAITING", message: expect.any(String) };
    // a callId of the running run that is not waiting
    expect(await respond(fresh(), "waiting", "waiting:999", true)).toEqual(notWaiting);
    // the waiting call's id on another run: a finished one, and one that never existed
    expect(await respond(fresh(), "finished", call!.callId, true)).toEqual(notWaiting);
    expect(await respond(fresh(), "no-such-run", call!.callId, true)).toEqual(notWaiting);
    // the right call on the wrong backend
    expect(await respond(fresh(), "waiting", call!.callId, true, "replaying")).toEqual(notWaiting);
    {
      using ws = await getWorkspace(fresh());
      expect(await ws.runtime.pending()).toEqual([call]);
    }
    expect(await respond(fresh(), "waiting", call!.callId, { ok: 1 })).toBe("resolved");
    expect(await resultOf(fresh(), "waiting")).toMatchObject({ status: "completed", exitCode: 0, value: { answer: { ok: 1 } } });
    // answered: no longer waiting
    expect(await respond(fresh(), "waiting", call!.callId, { ok: 2 })).toEqual(notWaiting);
  });

  it("respond() on a backend that has no waiting calls: the shell backend throws; pending() is []", async () => {
    using ws = await getWorkspace(env.SHELL_AGENT.get(env.SHELL_AGENT.newUniqueId()));
    const backends = ws.runtime.backends().map((b) => b.id);
    const shell = backends.find((id) => id !== "worker-javascript")!;
    expect(shell).toBeDefined();
    const e = await ws.runtime.respond("x", "x:1", true, { backend: shell }).then(
      () => null,
      (error: Error) => error.message,
    );
    expect(e).toContain(`backend "${shell}" doesn't run calls that wait for an answer`);
    expect(await ws.runtime.pending()).toEqual([]);
  });

  it("killExec ends a waiting run: 130, cancelled, no longer pending (also after a restart)", async () => {
    const { stub, fresh } = durable();
    const source = `import { ask } from "ws:approve";\nexport default async () => { console.log("asking"); return ask("kill me"); };`;
    await start(stub, source, { id: "kill-now", onInterrupt: "replay" });
    await start(stub, source, { id: "kill-later", onInterrupt: "replay" });
    const calls = await waitingCalls(fresh, 2, [{ id: "kill-now" }, { id: "kill-later" }]);
    expect(calls.map((c) => c.id).sort()).toEqual(["kill-later", "kill-now"]);
    const cancelled = { status: "cancelled", exitCode: 130, stdout: "asking\n", stderr: "Execution cancelled.\n" };
    // their output is journaled within the 250 ms output window: give it 1 s
    await sleep(1000);
    {
      using ws = await getWorkspace(fresh());
      await ws.runtime.killExec("kill-now");
    }
    expect(await resultOf(fresh(), "kill-now")).toMatchObject(cancelled);
    await restart(stub);
    {
      using ws = await getWorkspace(fresh());
      expect((await ws.runtime.pending()).map((c) => c.id)).toEqual(["kill-later"]);
      await ws.runtime.killExec("kill-later");
    }
    expect(await resultOf(fresh(), "kill-later")).toMatchObject(cancelled);
    using ws = await getWorkspace(fresh());
    expect(await ws.runtime.pending()).toEqual([]);
    const later = calls.find((c) => c.id === "kill-later")!;
    expect(await respond(fresh(), "kill-later", later.callId, true)).toMatchObject({ code: "ENOTWAITING" });
    // the host function never got an answer: nothing sent
    expect(await fresh().sentRows()).toEqual([]);
  });

  it("while a call waits, a call in flight finishes and is journaled, and a new call is held until the answer", async () => {
    const { stub, fresh } = durable();
    const source = `import { ask } from "ws:approve";
import { bump, hold } from "ws:side";
export default async () => {
  const later = (ms, f) => new Promise((r) => setTimeout(r, ms)).then(f);
  const [held, answer, late] = await Promise.all([
    hold("in-flight", 2000, 0),
    later(300, () => ask("go?")),
    later(600, () => bump("late")),
  ]);
  return { answer, held, late };
};`;
    await start(stub, source, { id: "others", onInterrupt: "replay" });
    const [call] = await waitingCalls(fresh, 1, [{ id: "others" }]);
    await sleep(2500);
    // hold finished (once); bump, called after the wait began, did not run
    expect((await fresh().callRows()).map((c) => [c.fn, c.endedAt !== null])).toEqual([
      ["hold", true],
      ["ask", false],
    ]);
    expect(await fresh().counters()).toEqual({});
    expect(await respond(fresh(), "others", call!.callId, "yes")).toBe("resolved");
    expect(await resultOf(fresh(), "others")).toMatchObject({
      status: "completed",
      exitCode: 0,
      stderr: "",
      value: { answer: "yes", held: { tag: "in-flight", invocation: 1 }, late: 1 },
    });
    // on the replay: ask ran again, hold came from the journal, bump ran once
    expect((await fresh().callRows()).map((c) => c.fn)).toEqual(["hold", "ask", "ask", "bump"]);
    expect(await fresh().counters()).toEqual({ late: 1 });
  });

  it("pending() lists the waiting calls of every backend, oldest first", async () => {
    const { stub, fresh } = durable();
    const source = (payload: string) => `import { ask } from "ws:approve";\nexport default async () => ask(${JSON.stringify(payload)});`;
    // the oldest wait is on the last registered backend
    await start(stub, source("third backend"), { id: "w1", onInterrupt: "replay", backend: "replaying" });
    await waitingCalls(fresh, 1, [{ id: "w1", backend: "replaying" }]);
    await sleep(20);
    await start(stub, source("first backend"), { id: "w2", onInterrupt: "replay" });
    await waitingCalls(fresh, 2, [{ id: "w2" }]);
    await sleep(20);
    await start(stub, source("second backend"), { id: "w3", onInterrupt: "replay", backend: "throwing-wait" });
    const calls = await waitingCalls(fresh, 3, [{ id: "w3", backend: "throwing-wait" }]);
    expect(calls.map((c) => [c.id, c.backend, c.payload])).toEqual([
      ["w1", "replaying", "third backend"],
      ["w2", "worker-javascript", "first backend"],
      ["w3", "throwing-wait", "second backend"],
    ]);
    expect(calls[0]!.since).toBeLessThan(calls[1]!.since);
    expect(calls[1]!.since).toBeLessThan(calls[2]!.since);
    // each answered through its own backend
    expect(await respond(fresh(), "w3", calls[2]!.callId, 3, "throwing-wait")).toBe("resolved");
    expect(await respond(fresh(), "w2", calls[1]!.callId, 2)).toBe("resolved");
    expect(await respond(fresh(), "w1", calls[0]!.callId, 1, "replaying")).toBe("resolved");
    expect(await resultOf(fresh(), "w1", { backend: "replaying" })).toMatchObject({ status: "completed", value: 1 });
    expect(await resultOf(fresh(), "w2")).toMatchObject({ status: "completed", value: 2 });
    expect(await resultOf(fresh(), "w3", { backend: "throwing-wait" })).toMatchObject({ status: "completed", value: 3 });
  });

  it("a getExec stream opened while the run waits follows it through the answer to its exit", async () => {
    const { stub, fresh } = durable();
    const source = `import { ask } from "ws:approve";
export default async () => { console.log("asking"); const a = await ask("follow"); console.log("got " + a); return a; };`;
    await start(stub, source, { id: "follow", onInterrupt: "replay" });
    const [call] = await waitingCalls(fresh, 1, [{ id: "follow" }]);
    await sleep(1000);
    using ws = await getWorkspace(fresh());
    using h = await ws.runtime.getExec("follow", { encoding: "utf8" });
    const events: unknown[] = [];
    const reading = (async () => {
      for await (const e of h) events.push(e.name === "exit" ? { name: e.name, code: e.code, result: e.result } : { name: e.name, value: e.value });
    })();
    await sleep(500);
    expect(await respond(fresh(), "follow", call!.callId, "ok")).toBe("resolved");
    expect(await within(reading.then(() => "ended"), 20_000, "stream still open after 20 s")).toBe("ended");
    expect(events).toEqual([
      { name: "stdout", value: "asking\n" },
      { name: "stdout", value: "got ok\n" },
      { name: "exit", code: 0, result: "ok" },
    ]);
  });

  it("payload and answer JSON: 262144 characters pass, 262145 reject with a RangeError", async () => {
    const { stub, fresh } = durable();
    const source = `import { askSized } from "ws:approve";
export default async () => ({ over: await askSized(262145), at: await askSized(262144) });`;
    await start(stub, source, { id: "sized", onInterrupt: "replay" });
    const [call] = await waitingCalls(fresh, 1, [{ id: "sized" }]);
    // the oversized payload was refused without waiting; the one at the limit waits with its payload whole
    expect(JSON.stringify(call!.payload).length).toBe(262_144);
    expect(call!.payload).toBe("p".repeat(262_142));
    const tooBig = await respond(fresh(), "sized", call!.callId, "a".repeat(262_143));
    expect(tooBig).toMatchObject({ name: "RangeError", message: expect.stringContaining("over 262144 characters") });
    {
      using ws = await getWorkspace(fresh());
      expect(await ws.runtime.pending()).toEqual([call]);
    }
    expect(await respond(fresh(), "sized", call!.callId, "a".repeat(262_142))).toBe("resolved");
    const r = await resultOf(fresh(), "sized");
    expect(r).toMatchObject({ status: "completed", exitCode: 0, stderr: "" });
    expect((r as { value?: unknown }).value).toEqual({
      over: { name: "RangeError", message: expect.stringContaining("over 262144 characters") },
      at: { answerLength: 262_144 },
    });
  });

  it("onWait: called once per wait with the pending fields; a throwing onWait does not disturb the run", async () => {
    const { stub, fresh } = durable();
    const source = `import { ask } from "ws:approve";
export default async () => [await ask("one"), await ask("two")];`;
    await start(stub, source, { id: "two-waits", onInterrupt: "replay", backend: "throwing-wait" });
    const [first] = await waitingCalls(fresh, 1, [{ id: "two-waits", backend: "throwing-wait" }]);
    expect(first).toMatchObject({ id: "two-waits", backend: "throwing-wait", payload: "one" });
    expect(await respond(fresh(), "two-waits", first!.callId, 1, "throwing-wait")).toBe("resolved");
    const second = await until(async () => {
      using ws = await getWorkspace(fresh());
      const calls = await ws.runtime.pending();
      return calls.length === 1 && calls[0]!.callId !== first!.callId ? calls[0] : undefined;
    }, "the second wait");
    expect(second).toMatchObject({ id: "two-waits", backend: "throwing-wait", payload: "two" });
    expect(second!.callId).not.toBe(first!.callId);
    expect(second!.since).toBeGreaterThanOrEqual(first!.since);
    expect(await respond(fresh(), "two-waits", second!.callId, 2, "throwing-wait")).toBe("resolved");
    expect(await resultOf(fresh(), "two-waits", { backend: "throwing-wait" })).toMatchObject({ status: "completed", exitCode: 0, stderr: "", value: [1, 2] });
    expect(await fresh().waits()).toEqual([
      { receiver: "throwing-wait", backend: "throwing-wait", id: "two-waits", callId: first!.callId, payload: '"one"', since: first!.since },
      { receiver: "throwing-wait", backend: "throwing-wait", id: "two-waits", callId: second!.callId, payload: '"two"', since: second!.since },
    ]);
  });
});
