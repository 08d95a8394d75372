/**
 * Issue 16 (spec 02 §5): the `replay` policy under a real restart. A module
 * reads and writes files, calls a host module, fetches the loopback server,
 * reads the clock and random numbers and sets every kind of timer, prints a
 * line of those values, and is interrupted (`ctx.abort()`) while a host call
 * is in flight or while it waits on a timer. The resumed run serves the
 * answered calls from the journal (the host counter and the server's request
 * counter stay at 1), replays the clock, random numbers and timers
 * identically (so its replay of the first line matches what was printed
 * before, else it would fail as a divergence), does not print recorded output
 * again, and prints the same values again from its variables.
 */
import { describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";
import { durable, httpServer, restart, resultOf, sleep, start } from "./helpers.js";

/** Everything replay must serve or reproduce; interrupted at `hold` (in flight for `input.holdMs` on its first invocation). */
const EVERYTHING = `import { readFile, writeFile, mkdir } from "node:fs/promises";
import { bump, hold } from "ws:side";
export default async (input) => {
  const t0 = Date.now();
  const p0 = performance.now();
  const d0 = new Date().toISOString();
  const r = [Math.random(), Math.random()];
  const u = crypto.randomUUID();
  const g = Array.from(crypto.getRandomValues(new Uint8Array(8))).join(",");
  await mkdir("/workspace/replay", { recursive: true });
  await writeFile("/workspace/replay/a.txt", "hello " + input.key);
  const text = await readFile("/workspace/replay/a.txt", "utf8");
  const n = await bump(input.key);
  const echoed = await fetch(input.url + "/echo?x=1", { method: "POST", body: "ping " + input.key });
  const echo = [echoed.status, echoed.headers.get("content-type"), await echoed.text()];
  const count = await (await fetch(input.url + "/count/" + input.key)).text();
  await new Promise((res) => setTimeout(res, 25));
  let ticks = 0;
  await new Promise((res) => { const iv = setInterval(() => { if (++ticks === 3) { clearInterval(iv); res(); } }, 10); });
  await new Promise((res) => setImmediate(res));
  await scheduler.wait(15);
  const timedOut = await new Promise((res) => { const s = AbortSignal.timeout(20); s.addEventListener("abort", () => res(s.reason.name)); });
  const t1 = Date.now();
  const p1 = performance.now();
  const values = { t0, p0, d0, r, u, g, text, n, echo, count, ticks, timedOut, t1, p1 };
  console.log("first " + JSON.stringify(values));
  process.stderr.write("to stderr\\n");
  const held = await hold(input.key, input.holdMs, 0);
  console.log("again " + JSON.stringify(values));
  return { values, held };
};`;

describe("durable runs: replay under a real ctx.abort()", () => {
  it("an uninterrupted replay-policy run of the module (the reference)", async () => {
    const { stub, fresh } = durable();
    const key = `ref-${crypto.randomUUID()}`;
    await start(stub, EVERYTHING, { id: "ref", onInterrupt: "replay", input: { key, url: httpServer(), holdMs: 0 } });
    const r = await resultOf(fresh(), "ref");
    expect(r).toMatchObject({ status: "completed", exitCode: 0, stderr: "to stderr\n" });
    const { values, held } = (r as unknown as { value: { values: Record<string, unknown>; held: unknown } }).value;
    checkValues(values, key);
    expect(held).toEqual({ tag: key, invocation: 1 });
    expect((r as { stdout: string }).stdout).toBe(`first ${JSON.stringify(values)}\nagain ${JSON.stringify(values)}\n`);
    expect(await (await fetch(`${httpServer()}/counted/${key}`)).text()).toBe("1");
  });

  it("interrupted while a host call is in flight: finishes with the same output as an uninterrupted run", async () => {
    const { stub, fresh } = durable();
    const key = `held-${crypto.randomUUID()}`;
    await start(stub, EVERYTHING, { id: "held", onInterrupt: "replay", input: { key, url: httpServer(), holdMs: 60_000 } });
    await sleep(2000);
    const before = await fresh().callRows();
    // the earlier effects are done and hold is in flight when the object restarts
    expect(before.map((c) => [c.fn, c.endedAt === null])).toEqual([
      ["bump", false],
      ["hold", true],
    ]);
    await restart(stub);
    const r = await resultOf(fresh(), "held");
    expect(r).toMatchObject({ status: "completed", exitCode: 0, stderr: "to stderr\n" });
    const { values, held } = (r as unknown as { value: { values: Record<string, unknown>; held: unknown } }).value;
    checkValues(values, key);
    // the in-flight call ran again (same callId), and only it
    expect(held).toEqual({ tag: key, invocation: 2 });
    // the resumed run printed nothing it had printed, and the same values again
    expect((r as { stdout: string }).stdout).toBe(`first ${JSON.stringify(values)}\nagain ${JSON.stringify(values)}\n`);
    // answered calls came from the journal: the host counter, the server's counter and the file are untouched
    expect(await fresh().counters()).toEqual({ [key]: 1 });
    expect(await (await fetch(`${httpServer()}/counted/${key}`)).text()).toBe("1");
    const calls = await fresh().callRows();
    expect(calls.map((c) => [c.fn, c.tag])).toEqual([
      ["bump", key],
      ["hold", key],
      ["hold", key],
    ]);
    expect(calls[0]!.callId).toMatch(/^held:[1-9][0-9]*$/);
    expect(calls[1]!.callId).toMatch(/^held:[1-9][0-9]*$/);
    expect(calls[2]!.callId).toBe(calls[1]!.callId);
    using ws = await getWorkspace(fresh());
    expect(await ws.fs.readFile("/workspace/replay/a.txt", "utf8")).toBe(`hello ${key}`);
  });

  it("interrupted while it waits on a long timer: the clock and random values after it are the ones from before", async () => {
    const { stub, fresh } = durable();
    const key = `timer-${crypto.randomUUID()}`;
    const source = `import { bump } from "ws:side";
export default async () => {
  const a = { now: Date.now(), perf: performance.now(), rnd: Math.random(), uuid: crypto.randomUUID(), n: await bump(${JSON.stringify(key)}) };
  console.log("first " + JSON.stringify(a));
  await new Promise((r) => setTimeout(r, 5000));
  const b = { later: Date.now() - a.now >= 5000, next: Math.random() !== a.rnd };
  console.log("again " + JSON.stringify(a));
  return { a, b };
};`;
    await start(stub, source, { id: "timer", onInterrupt: "replay" });
    await sleep(1500);
    await restart(stub);
    const r = await resultOf(fresh(), "timer");
    expect(r).toMatchObject({ status: "completed", exitCode: 0, stderr: "" });
    const { a, b } = (r as unknown as { value: { a: Record<string, unknown>; b: unknown } }).value;
    expect(Object.keys(a)).toEqual(["now", "perf", "rnd", "uuid", "n"]);
    expect(a.n).toBe(1);
    expect(b).toEqual({ later: true, next: true });
    expect((r as { stdout: string }).stdout).toBe(`first ${JSON.stringify(a)}\nagain ${JSON.stringify(a)}\n`);
    expect(await fresh().counters()).toEqual({ [key]: 1 });
  });

  it("the clock read after each kind of timer, before any call, replays identically", async () => {
    const { stub, fresh } = durable();
    const source = `import { hold } from "ws:side";
export default async () => {
  const t0 = Date.now();
  const p0 = performance.now();
  const lines = [];
  const mark = (what) => { const line = what + " " + (Date.now() - t0) + " " + (performance.now() - p0); lines.push(line); console.log(line); };
  await new Promise((r) => setTimeout(r, 20)); mark("setTimeout");
  await new Promise((r) => { const s = AbortSignal.timeout(20); s.addEventListener("abort", () => r()); }); mark("AbortSignal.timeout");
  let ticks = 0;
  await new Promise((r) => { const iv = setInterval(() => { if (++ticks === 2) { clearInterval(iv); r(); } }, 10); }); mark("setInterval");
  await new Promise((r) => setImmediate(r)); mark("setImmediate");
  await scheduler.wait(20); mark("scheduler.wait");
  await hold("clock", 60000, 0);
  return lines;
};`;
    await start(stub, source, { id: "clock", onInterrupt: "replay" });
    await sleep(1500);
    await restart(stub);
    const r = await resultOf(fresh(), "clock");
    expect(r).toMatchObject({ status: "completed", exitCode: 0, stderr: "" });
    const lines = (r as unknown as { value: string[] }).value;
    expect(lines.map((l) => l.split(" ")[0])).toEqual(["setTimeout", "AbortSignal.timeout", "setInterval", "setImmediate", "scheduler.wait"]);
    for (const line of lines) expect(line).toMatch(/^\S+ \d+ \d+(\.\d+)?$/);
    // printed once, by the first attempt, and the replay's values (returned) are the same
    expect((r as { stdout: string }).stdout).toBe(lines.map((l) => `${l}\n`).join(""));
  });

  it("interrupted while a fetch is in flight: the request is sent again and the run finishes", async () => {
    const { stub, fresh } = durable();
    const key = `slow-${crypto.randomUUID()}`;
    const source = `export default async (input) => {
  const first = await (await fetch(input.url + "/count/" + input.key)).text();
  console.log("counted " + first);
  const slow = await (await fetch(input.url + "/slow/" + input.key + "?ms=60000")).text();
  console.log(slow);
  return { first, slow };
};`;
    await start(stub, source, { id: "fetching", onInterrupt: "replay", input: { key, url: httpServer() } });
    await sleep(1500);
    expect(await (await fetch(`${httpServer()}/counted/slow:${key}`)).text()).toBe("1");
    await restart(stub);
    expect(await resultOf(fresh(), "fetching")).toMatchObject({
      status: "completed",
      exitCode: 0,
      stdout: "counted 1\nslow 2\n",
      stderr: "",
      value: { first: "1", slow: "slow 2" },
    });
    // the answered request was served from the journal; the one in flight was sent again
    expect(await (await fetch(`${httpServer()}/counted/${key}`)).text()).toBe("1");
    expect(await (await fetch(`${httpServer()}/counted/slow:${key}`)).text()).toBe("2");
  });
});

/** The deterministic parts of EVERYTHING's values, and the shapes of the clock and random ones. */
function checkValues(values: Record<string, unknown>, key: string): void {
  expect(Object.keys(values)).toEqual(["t0", "p0", "d0", "r", "u", "g", "text", "n", "echo", "count", "ticks", "timedOut", "t1", "p1"]);
  expect(values).toMatchObject({
    text: `hello ${key}`,
    n: 1,
    echo: [200, "text/plain; charset=utf-8", `POST /echo?x=1 ping ${key}`],
    count: "1",
    ticks: 3,
    timedOut: "TimeoutError",
  });
  const { t0, t1, p0, p1, d0, r, u, g } = values as { t0: number; t1: number; p0: number; p1: number; d0: string; r: number[]; u: string; g: string };
  expect(new Date(d0).getTime()).toBe(t0);
  expect(t1).toBeGreaterThanOrEqual(t0);
  expect(p1).toBeGreaterThanOrEqual(p0);
  expect(r).toHaveLength(2);
  for (const x of r) expect(x >= 0 && x < 1).toBe(true);
  expect(r[0]).not.toBe(r[1]);
  expect(u).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(g).toMatch(/^\d{1,3}(,\d{1,3}){7}$/);
}
