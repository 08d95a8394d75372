/**
 * Issue 16 (spec 02 §5): at most 4 interrupted runs relaunch at once (a
 * Durable Object runs about ten Dynamic Workers at a time). Ten replay runs
 * are interrupted by a real restart while each has a host call in flight;
 * after the restart each in-flight call runs again (its invocation recorded
 * with start and end times by the host) and takes 1.5 s. At no moment are
 * more than four of those second invocations running, and all ten runs
 * finish.
 */
import { describe, expect, it } from "vitest";
import { durable, restart, resultOf, sleep, start, within } from "./helpers.js";

describe("durable runs: relaunch slots", () => {
  it("ten interrupted runs resume at most four at a time, and all finish", async () => {
    const { stub, fresh } = durable();
    const source = `import { hold } from "ws:side";
export default async (input) => (await hold(input.tag, 60000, 1500)).invocation;`;
    const ids = Array.from({ length: 10 }, (_, i) => `r${i}`);
    for (const id of ids) await start(stub, source, { id, onInterrupt: "replay", input: { tag: id } });
    // every run has its hold in flight
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && (await fresh().callRows()).length < 10) await sleep(200);
    expect((await fresh().callRows()).map((c) => [c.tag, c.endedAt])).toEqual(ids.map((id) => [id, null]));
    await restart(stub);

    const results = await within(
      Promise.all(ids.map((id) => resultOf(fresh(), id, { ms: 60_000 }))),
      90_000,
      "results still pending after 90 s",
    );
    expect(results).toEqual(ids.map(() => expect.objectContaining({ status: "completed", exitCode: 0, value: 2 })));

    const again = (await fresh().callRows()).slice(10);
    expect(again.map((c) => c.tag).sort()).toEqual([...ids].sort());
    // the most second invocations running at one moment
    const points = again.flatMap((c) => [
      { t: c.startedAt, d: 1 },
      { t: c.endedAt!, d: -1 },
    ]);
    points.sort((a, b) => a.t - b.t || a.d - b.d);
    let running = 0;
    let most = 0;
    for (const p of points) most = Math.max(most, (running += p.d));
    expect(most).toBeGreaterThanOrEqual(1);
    expect(most).toBeLessThanOrEqual(4);
  });
});
