/**
 * Issue 16 (spec 02 §5): replay runs that must not resume, under real
 * restarts (`ctx.abort()`): divergence (different output bytes, a different
 * host function), a call in flight wrapped with `unsafeToRepeat`, three
 * interruptions without progress, the deadline, a changed compatibility date;
 * and the ways a resume starts (next runtime call, `ready({ all: true })`,
 * `recover()` from an alarm). Sources that differ on replay use
 * `crypto.subtle.generateKey` bytes, which replay does not reproduce (spec 02
 * §5 "Not replayed").
 */
import { describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";
import { durable, restart, resultOf, sleep, start, type DurableStub } from "./helpers.js";

const DIVERGED = /^The execution took a different path when it resumed after an interruption: .+\n$/;

/** `n` random bytes from a generated HMAC key, as hex (not replayed). */
const KEY_BYTES = `async function keyBytes() {
  const key = await crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256", length: 256 }, true, ["sign"]);
  return new Uint8Array(await crypto.subtle.exportKey("raw", key));
}`;

/** Starts a resume of the object's interrupted runs through a runtime call, and waits `ms`. */
async function touch(stub: DurableStub, ms = 1500): Promise<void> {
  using ws = await getWorkspace(stub);
  await ws.runtime.pending();
  await sleep(ms);
}

describe("durable runs: resumes that fail", () => {
  it("divergence: the resumed run prints different bytes", async () => {
    const { stub, fresh } = durable();
    const source = `import { bump } from "ws:side";
${KEY_BYTES}
export default async () => {
  await bump("bytes");
  console.log("token " + Array.from(await keyBytes(), (b) => b.toString(16).padStart(2, "0")).join(""));
  await new Promise((r) => setTimeout(r, 60000));
  return "unreachable";
};`;
    await start(stub, source, { id: "div-bytes", onInterrupt: "replay" });
    await sleep(1500);
    await restart(stub);
    const r = await resultOf(fresh(), "div-bytes");
    expect(r).toMatchObject({ status: "failed", exitCode: 1, stdout: expect.stringMatching(/^token [0-9a-f]{64}\n$/), stderr: expect.stringMatching(DIVERGED) });
    expect((r as { value?: unknown }).value).toBeUndefined();
    expect(await fresh().counters()).toEqual({ bytes: 1 });
  });

  it("divergence: the resumed run calls a different host function", async () => {
    const { stub, fresh } = durable();
    // 32 calls, each bump or hold by one bit of the key: the resumed run's sequence differs (but for 2^-32)
    const source = `import { bump, hold } from "ws:side";
${KEY_BYTES}
export default async () => {
  const bytes = await keyBytes();
  for (let i = 0; i < 32; i++) {
    if ((bytes[i >> 3] >> (i & 7)) & 1) await bump("b" + i); else await hold("h" + i, 0, 0);
  }
  console.log("called");
  await new Promise((r) => setTimeout(r, 60000));
  return "unreachable";
};`;
    await start(stub, source, { id: "div-call", onInterrupt: "replay" });
    await sleep(2000);
    const before = await fresh().callRows();
    expect(before).toHaveLength(32);
    await restart(stub);
    const r = await resultOf(fresh(), "div-call");
    expect(r).toMatchObject({ status: "failed", exitCode: 1, stdout: "called\n", stderr: expect.stringMatching(DIVERGED) });
    // no host function of the first attempt ran again
    const after = await fresh().callRows();
    expect(after.slice(0, 32)).toEqual(before);
  });

  it("unsafeToRepeat: a wrapped host call in flight at the restart fails the run instead of running again", async () => {
    const { stub, fresh } = durable();
    const source = `import { bump, holdUnsafe } from "ws:side";
export default async () => {
  await bump("unsafe");
  console.log("holding");
  return holdUnsafe("u", 60000, 0);
};`;
    await start(stub, source, { id: "unsafe", onInterrupt: "replay" });
    await sleep(1500);
    expect((await fresh().callRows()).map((c) => [c.fn, c.endedAt === null])).toEqual([
      ["bump", false],
      ["holdUnsafe", true],
    ]);
    await restart(stub);
    const r = await resultOf(fresh(), "unsafe");
    expect(r).toMatchObject({
      status: "failed",
      exitCode: 1,
      stdout: "holding\n",
      stderr: expect.stringMatching(
        /^Execution could not resume: .*holdUnsafe was running when the execution was interrupted, and it isn't safe to repeat \(unsafeToRepeat\)\.\n$/,
      ),
    });
    // it did not run again
    expect((await fresh().callRows()).map((c) => c.fn)).toEqual(["bump", "holdUnsafe"]);
  });

  it("three interruptions without progress fail the run; resumes start on a runtime call, ready({ all: true }) and recover()", async () => {
    const { stub, fresh } = durable();
    // no calls at all: no attempt can make progress
    const source = `export default async () => { console.log("start"); await new Promise((r) => setTimeout(r, 60000)); return "unreachable"; };`;
    await start(stub, source, { id: "stuck", onInterrupt: "replay" });
    await sleep(1500);
    await restart(stub); // 1
    await touch(fresh());
    await restart(fresh()); // 2 (a stub that saw an abort stays broken: each restart goes through a new one)
    await fresh().readyAll();
    await sleep(1500);
    // two interruptions: still running
    expect(await resultOf(fresh(), "stuck", { ms: 300 })).toBe("result() still pending after 300 ms");
    await restart(fresh()); // 3
    await fresh().recover();
    const r = await resultOf(fresh(), "stuck");
    expect(r).toMatchObject({
      status: "failed",
      exitCode: 1,
      stdout: "start\n",
      stderr: expect.stringMatching(/^Execution was interrupted 3 times without making progress\.\n$/),
    });
  });

  it("progress resets the attempts: a run that journals new calls between restarts finishes", async () => {
    const { stub, fresh } = durable();
    // each attempt makes one new call (its in-flight hold runs again and completes), then waits in the next one
    const source = `import { hold } from "ws:side";
export default async () => {
  const seen = [];
  for (let i = 1; i <= 4; i++) seen.push((await hold("p" + i, 60000, 0)).invocation);
  return seen;
};`;
    await start(stub, source, { id: "progress", onInterrupt: "replay" });
    for (let i = 0; i < 3; i++) {
      await sleep(1500);
      await restart(fresh());
      await touch(fresh(), 0);
    }
    await sleep(1500);
    await restart(fresh());
    // the fourth hold's first invocation was interrupted too; it runs again and the run ends
    const r = await resultOf(fresh(), "progress");
    expect(r).toMatchObject({ status: "completed", exitCode: 0, stderr: "", value: [2, 2, 2, 2] });
  });

  it("a recover() from an alarm resumes an interrupted run", async () => {
    const { stub, fresh } = durable();
    const source = `import { hold } from "ws:side";\nexport default async () => (await hold("alarm", 60000, 0)).invocation;`;
    await start(stub, source, { id: "by-alarm", onInterrupt: "replay" });
    await sleep(1500);
    await restart(stub);
    // only the alarm touches the runtime; the test reads the host's records, not the runtime, until it ran
    await fresh().recoverFromAlarmIn(100);
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && (await fresh().callRows()).filter((c) => c.endedAt !== null).length === 0) await sleep(200);
    expect(await fresh().counters()).toEqual({ alarm: 1 });
    expect(await resultOf(fresh(), "by-alarm")).toMatchObject({ status: "completed", exitCode: 0, value: 2 });
  });

  it("the deadline: a run whose timeout passed while it was down fails when reached", async () => {
    const { stub, fresh } = durable();
    const source = `import { bump } from "ws:side";
export default async () => { console.log("start"); await bump("deadline"); await new Promise((r) => setTimeout(r, 60000)); return "unreachable"; };`;
    const startedAt = Date.now();
    await start(stub, source, { id: "late", onInterrupt: "replay", timeoutMs: 3000 });
    await sleep(1500);
    await restart(stub);
    await sleep(Math.max(0, startedAt + 4000 - Date.now()));
    const r = await resultOf(fresh(), "late");
    expect(r).toMatchObject({
      status: "failed",
      exitCode: 1,
      stdout: "start\n",
      stderr: "Execution could not resume: its timeout passed before it could resume.\n",
    });
    expect(await fresh().counters()).toEqual({ deadline: 1 });
  });

  it("the deadline does not count time spent waiting for an answer", async () => {
    const { stub, fresh } = durable();
    const source = `import { ask } from "ws:approve";
export default async () => { const a = await ask("slow person"); await new Promise((r) => setTimeout(r, 500)); return a; };`;
    await start(stub, source, { id: "patient", onInterrupt: "replay", timeoutMs: 3000 });
    await sleep(1000);
    await restart(stub);
    // 4 s waiting > the 3 s timeout
    await sleep(4000);
    using ws = await getWorkspace(fresh());
    const [call] = await ws.runtime.pending();
    expect(call).toMatchObject({ id: "patient", payload: "slow person" });
    await ws.runtime.respond("patient", call!.callId, "finally");
    expect(await resultOf(fresh(), "patient")).toMatchObject({ status: "completed", exitCode: 0, stderr: "", value: "finally" });
  });

  it("a changed maxStdioBytes: the run fails instead of resuming", async () => {
    const { stub, fresh } = durable();
    const source = `import { bump } from "ws:side";
export default async () => { console.log("start"); await bump("stdio"); await new Promise((r) => setTimeout(r, 60000)); return "unreachable"; };`;
    await start(stub, source, { id: "stdio", onInterrupt: "replay" });
    await sleep(1500);
    await restart(stub);
    await fresh().setConfig("maxStdioBytes", "65536");
    await restart(fresh());
    expect(await resultOf(fresh(), "stdio")).toMatchObject({
      status: "failed",
      exitCode: 1,
      stdout: "start\n",
      stderr: expect.stringMatching(/^Execution could not resume: the JavaScript runtime changed since it started \(.*maxStdioBytes.*\)\.\n$/),
    });
  });

  it("a changed compatibility date: the run fails instead of resuming on a different runtime", async () => {
    const { stub, fresh } = durable();
    const source = `import { bump } from "ws:side";
export default async () => { console.log("start"); await bump("compat"); await new Promise((r) => setTimeout(r, 60000)); return "unreachable"; };`;
    await start(stub, source, { id: "compat", onInterrupt: "replay" });
    await sleep(1500);
    await restart(stub);
    // the object is constructed again but the backend not connected; the next construction reads the new date
    await fresh().setConfig("compatibilityDate", "2026-04-01");
    await restart(fresh());
    const r = await resultOf(fresh(), "compat");
    expect(r).toMatchObject({
      status: "failed",
      exitCode: 1,
      stdout: "start\n",
      stderr: expect.stringMatching(/^Execution could not resume: the JavaScript runtime changed since it started \(.+\)\.\n$/),
    });
    expect(await fresh().counters()).toEqual({ compat: 1 });
    // new runs work on the new date
    using ws = await getWorkspace(fresh());
    using h = await ws.runtime.exec(`export default () => 7`);
    expect((await h.result()).value).toBe(7);
  });
});
