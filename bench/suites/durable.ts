/**
 * Durable runs suite (issue 16, spec 02 §5):
 *
 * - journal overhead: a replay-policy run making 1,000 `node:fs` calls vs the
 *   same run under `fail`, timed alternately (target ≤ 1.5×);
 * - time from `respond()` to the run's result, for a run that waits for an
 *   answer after 1,000 calls and whose isolate was released (it replays the
 *   1,000 calls from the journal);
 * - storage used by the journal of a waiting run that made 1,000 calls
 *   (calls, tape and saved start, bytes of SQL text and blobs), against the
 *   bytes those calls answered.
 */
import { WorkerJavaScriptBackend } from "../../src/backends/worker-javascript/index.js";
import type { WorkspaceModuleCallContext } from "../../src/modules/types.js";
import { defineSuite, medianOf, ratioAtMost } from "../harness.js";

const CALLS = 1000;
const READS = `import { readFile } from "node:fs/promises";
export default async () => { let total = 0; for (let i = 0; i < ${CALLS}; i++) total += (await readFile("files/f" + (i % 100) + ".txt", "utf8")).length; return total; }`;
const READS_THEN_ASK = `import { readFile } from "node:fs/promises"; import { ask } from "ws:approve";
export default async () => { let total = 0; for (let i = 0; i < ${CALLS - 1}; i++) total += (await readFile("files/f" + (i % 100) + ".txt", "utf8")).length;
  const answer = await ask({ total }); return { total, answer }; }`;

export default defineSuite({
  name: "durable",
  async run(ctx) {
    const backend = new WorkerJavaScriptBackend({
      loader: ctx.env.LOADER,
      maxCapabilityCalls: 2 * CALLS,
      modules: {
        "ws:approve": { ask: ([payload], c: WorkspaceModuleCallContext) => c.interrupt(payload ?? null) },
      },
    });
    const ws = ctx.newWorkspace({ backends: [backend] });
    await ws.fs.mkdir("/workspace/files", { recursive: true });
    const sizes: number[] = [];
    for (let i = 0; i < 100; i++) {
      const text = `file ${i} ${"x".repeat(200 + i)}`;
      sizes.push(text.length);
      await ws.fs.writeFile(`/workspace/files/f${i}.txt`, text);
    }
    let answered = 0;
    for (let i = 0; i < CALLS - 1; i++) answered += sizes[i % 100]!;
    let n = 0;
    const run = async (policy: "fail" | "replay") => {
      const r = await (await ws.runtime.exec(READS, { id: `r${n++}`, onInterrupt: policy })).result();
      if (r.status !== "completed" || typeof r.value !== "number") throw new Error(`${policy} run: ${r.status} ${String(r.stderr)}`);
    };
    await run("replay");
    await run("fail");
    const overhead = await ctx.compare(
      () => run("replay"),
      () => run("fail"),
      { runs: 7 },
    );
    // A waiting run: storage while it waits, then respond() → result.
    const storage: number[] = [];
    const respondTimes: number[] = [];
    for (let k = 0; k < 5; k++) {
      {
        const h = await ws.runtime.exec(READS_THEN_ASK, { id: `w${n++}`, onInterrupt: "replay" });
        let pending = await ws.runtime.pending();
        while (pending.length === 0) {
          await new Promise((r) => setTimeout(r, 5));
          pending = await ws.runtime.pending();
        }
        const bytes = ctx.sql
          .exec<{ b: number }>(
            `SELECT
              (SELECT COALESCE(SUM(LENGTH(args) + LENGTH(name) + LENGTH(target) + 40), 0) FROM __ws_exec_calls)
            + (SELECT COALESCE(SUM(COALESCE(LENGTH(value), 0) + COALESCE(LENGTH(bytes), 0) + COALESCE(LENGTH(payload), 0) + COALESCE(LENGTH(answer), 0) + 32), 0) FROM __ws_exec_answers)
            + (SELECT COALESCE(SUM(LENGTH(data) + 24), 0) FROM __ws_exec_tape)
            + (SELECT COALESCE(SUM(LENGTH(spec) + 40), 0) FROM __ws_exec_durable) AS b`,
          )
          .one().b;
        storage.push(bytes);
        const t0 = performance.now();
        await ws.runtime.respond(pending[0]!.id, pending[0]!.callId, { approved: true });
        const r = await h.result();
        const ms = performance.now() - t0;
        if (r.status !== "completed") throw new Error(`waiting run: ${r.status} ${String(r.stderr)}`);
        respondTimes.push(ms);
      }
    }
    const respondMs = medianOf(respondTimes);
    const journalBytes = storage.sort((a, b) => a - b)[Math.floor(storage.length / 2)]!;
    return [
      {
        label: `replay run, ${CALLS} fs calls, vs fail`,
        unit: "ms",
        ours: overhead.ours,
        baseline: overhead.raw,
        target: ratioAtMost(1.5),
        note: `median of 7, timed alternately: one run reading ${CALLS} small files through node:fs under onInterrupt "replay" (each call journaled with its answer, tape batches) vs the same run under "fail"`,
      },
      {
        label: "respond() → result, waiting run",
        unit: "ms",
        ours: respondMs,
        note: `info: median of 5; the run made ${CALLS - 1} reads, then waited (isolate released); respond() relaunches it, which replays the reads from the journal and finishes`,
      },
      {
        label: `journal storage, waiting run with ${CALLS} calls`,
        unit: "MB",
        ours: journalBytes / 1e6,
        baseline: answered / 1e6,
        note: "info: bytes of the calls (arguments, answers), tape and saved start while the run waits, vs the bytes the calls answered (baseline); all deleted when the run ends",
      },
    ];
  },
});
