/**
 * Issue 20, thirty-third attack run: in a replay run (`onInterrupt: "replay"`), even its first attempt with no
 * restart at all, short timers set before the run's first event fire in the order they were created, not by their
 * delay — so a timer cleared by an earlier-due timer still fires, a later-due timer runs first, and an interval is
 * starved by a timer due long after it. workspace-durable.js arms each live timer for `t.due - realNow()` where
 * `t.due = clock + delay` uses the virtual clock, which stays at the run's start until the first event is recorded;
 * the real time that passed meanwhile (the Dynamic Worker's start-up, 10–20 ms here) is taken off every delay, and a
 * delay shorter than that lag is armed at 0 ms, i.e. in creation order.
 * Tried: the same module (setTimeout 10 / 5, a setTimeout 8 cleared by a setTimeout 6, a 4 ms setInterval cleared
 * after 3 ticks, a 30 ms timer that ends the wait) in a run with the default policy `fail` (workerd's own timers)
 * and in replay runs (also with the wait ended at 30 ms instead of 100 ms); pairs of timers set first at 20/10, 60/30, 200/100, 600/300 and 2000/1000 ms in a replay run.
 * Held: with `fail` (workerd's timers) the log is `iv1,b5,iv2,a10,iv3` (Node 22: `iv1,b5,a10,iv2,iv3`): the cleared
 * timer never fires, 5 ms before 10 ms; the pairs of 10 ms and more
 * fire shortest first in replay runs too (their delays outlast the lag); Date/performance.now after a timer replay.
 * Found (medium — a replay run computes a different result than the same code under any other policy or in Node:
 * a clearTimeout that ran first does not stop the timer, so a cancelled guard, retry or abort fires, and timers run
 * out of their order; 8 of 8 runs): replay runs log `a10,b5,killed,iv1` with the wait ended at 30 ms (the interval
 * starved: one tick) and `a10,b5,killed,iv1,…` at 100 ms (workerd: `iv1,b5,iv2,a10,iv3`).
 * Suggested fix: src/backends/worker-javascript/isolate/workspace-durable.js `create`/`arm`: in live mode arm a new
 * timer for its own `delay` from the moment it is set (and an interval's next tick for `interval`), not for
 * `t.due - realNow()` against the lagging virtual clock; or bring `clock` up to `realNow()` before computing `due`
 * for a timer set live (recording that moment, so replay reads the same time) — either way timers fire by due time.
 *
 * Fixed: src/backends/worker-javascript/isolate/workspace-durable.js `create` counts a live timer's delay from
 * `max(clock, realNow())` (the real time it is set), so it is armed for its own delay; `live()` arms the timers left
 * when the tape runs out by due time, then creation order (issue 20, run 33, fixer RC). Siblings:
 * test/workers/fix33/replay-clock-timers.test.ts.
 */
import { describe, expect, it } from "vitest";
import { durable, resultOf, start } from "../durable/helpers.js";

const TIMERS = `export default async () => {
  const log = [];
  await new Promise((done) => {
    setTimeout(() => log.push("a10"), 10);
    setTimeout(() => log.push("b5"), 5);
    const k = setTimeout(() => log.push("killed"), 8);
    setTimeout(() => clearTimeout(k), 6);
    let n = 0;
    const iv = setInterval(() => { log.push("iv" + (++n)); if (n === 3) clearInterval(iv); }, 4);
    setTimeout(done, 100);
  });
  return log;
};`;

async function logOf(onInterrupt: "fail" | "replay"): Promise<string[]> {
  const { stub, fresh } = durable();
  await start(stub, TIMERS, { id: "timers", onInterrupt });
  const r = (await resultOf(fresh(), "timers")) as { status: string; value?: string[] };
  expect(r.status).toBe("completed");
  return r.value!;
}

/** What any timer implementation must give: the cleared timer never fires, 5 ms before 10 ms, three ticks before 100 ms. */
function checkOrder(log: string[]): void {
  expect(log).not.toContain("killed");
  expect(log.indexOf("b5")).toBeGreaterThanOrEqual(0);
  expect(log.indexOf("b5")).toBeLessThan(log.indexOf("a10"));
  expect(log.filter((x) => x.startsWith("iv"))).toEqual(["iv1", "iv2", "iv3"]);
}

describe("a replay run's timers fire by their delay", () => {
  it("policy fail (workerd's timers): the reference order", { timeout: 60_000 }, async () => {
    checkOrder(await logOf("fail"));
  });

  it("policy replay, first attempt: the same order; a cleared timer never fires", { timeout: 60_000 }, async () => {
    // Was: ["a10", "b5", "killed", "iv1"] — creation order; the cleared timer fired; the interval ticked once.
    checkOrder(await logOf("replay"));
  });
});
