/**
 * Issue 20, nineteenth attack run: the exec tool's running snapshots through the AI SDK's real `streamText` loop
 * while the loop's consumer does not read (an HTTP client reading slowly, a busy UI) — the twelfth run's progress
 * flood (test/workers/attack12/progress-flood.test.ts, fixed for directory tools) again, for exec.
 * Tried: `createExecTool({ workspace, now })` (the documented clock for snapshot coalescing, one snapshot per
 * SNAPSHOT_INTERVAL_MS = 100 ms of it; here each read of the clock moves it 100 ms, so every output event may give
 * one — what a real command printing for N × 100 ms gives) over a module backend
 * (test/node/runtime/script-backend.ts) printing N = 300 lines of 2,000 characters; `streamText` with a scripted
 * MockLanguageModelV4 stream; the consumer reads the first part, then nothing until the snapshots stop coming.
 * Held: the loop completes, the final result is the settled snapshot, every preliminary arrives in order.
 * Found (medium — memory held per call, growing with the command's duration; 3 of 3 runs): nothing paces exec's
 * snapshots (directory tools go through `pacedOutputs`, at most MAX_PENDING_UPDATES 64 / 1 MiB queued; exec does
 * not): before the consumer read a second part the tool had made all 300 snapshots, and the stream then delivered
 * 301 preliminary tool results holding 18,945,851 characters — all queued for it. Each snapshot repeats up to
 * maxBytes (64 KiB) of each stream's tail, at up to 10 a second: a command printing for 10 minutes under an unread
 * stream queues ~6,000 snapshots, up to ~780 MB — past a Durable Object's 128 MB. TanStack (`streamEventName`) takes
 * the same unpaced path in tanstack-ai.ts (`core.contentResult ? pacedOutputs(run) : run`), though its lazy chat()
 * does not run the tool ahead of the reader in this set-up.
 * Suggested fix: pace exec's running snapshots as directory tools' progress (`pacedOutputs`, or keep only the newest
 * running snapshot — each one supersedes the last — while the consumer is behind), for the AI SDK and TanStack.
 * Fixed: the AI SDK and TanStack adapters pace exec's running snapshots as directory tools' progress (`pacedValues`,
 *   the generic form of `pacedOutputs` in src/tools/core/directory.ts): PROGRESS_BURST (16) at once, then one per
 *   PROGRESS_INTERVAL_MS (100 ms, latest wins), at most MAX_PENDING_UPDATE_CHARS (1 MiB) of stdout + stderr text per call;
 *   the settled snapshot always passes, last.
 */
import { streamText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { createExecTool } from "../../../src/tools/ai-sdk.js";
import { MAX_PENDING_UPDATES } from "../../../src/tools/core/directory.js";
import { usage } from "../../shared/loops/ai-sdk.js";
import { ScriptBackend } from "../runtime/script-backend.js";

const N = 300;
const LINE = "y".repeat(2000);

/** A scripted model stream: the parts of one turn. */
const turn = (parts: unknown[]) => ({
  stream: new ReadableStream({
    start(controller) {
      for (const part of [{ type: "stream-start", warnings: [] }, ...parts]) controller.enqueue(part);
      controller.close();
    },
  }),
});

it(`an unread streamText holds at most ${MAX_PENDING_UPDATES} exec snapshots (was all ${N}, 18,945,851 characters)`, { timeout: 60_000 }, async () => {
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), backends: [new ScriptBackend({ id: "sh" })] });
  let clock = 0;
  let reads = 0;
  const exec = createExecTool({ workspace: ws, now: () => (reads++, (clock += 100)) });
  let step = 0;
  const model = new MockLanguageModelV4({
    doStream: async () =>
      (step++ === 0
        ? turn([
            { type: "tool-call", toolCallId: "x", toolName: "exec", input: JSON.stringify({ command: `repeat stdout ${N} ${LINE}` }) },
            { type: "finish", finishReason: { unified: "tool-calls", raw: undefined }, usage },
          ])
        : turn([
            { type: "text-start", id: "t" },
            { type: "text-delta", id: "t", delta: "ok" },
            { type: "text-end", id: "t" },
            { type: "finish", finishReason: { unified: "stop", raw: undefined }, usage },
          ])) as never,
  });
  const result = streamText({ model, prompt: "go", tools: { exec }, stopWhen: stepCountIs(3) });
  const reader = result.fullStream.getReader();
  expect((await reader.read()).value).toMatchObject({ type: "start" });
  // Wait (without reading) until the tool stops making snapshots: all of them, or as many as a paced tool queues.
  for (let last = -1, tries = 0; tries < 40 && reads !== last; tries++) {
    last = reads;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  let preliminary = 0;
  let chars = 0;
  let final: { exitCode?: number } | undefined;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const part = value as { type: string; preliminary?: boolean; output?: { exitCode?: number } };
    if (part.type !== "tool-result") continue;
    if (part.preliminary) {
      preliminary++;
      chars += JSON.stringify(part.output).length;
    } else final = part.output;
  }
  expect(final).toMatchObject({ exitCode: 0 });
  // Today: every snapshot is made before the second read (300 clock reads), then 301 preliminaries, 18,945,851 chars.
  expect(chars).toBeLessThanOrEqual((MAX_PENDING_UPDATES + 1) * 2 * 65_536);
  // Correct: the snapshots made while the consumer was away are paced, as directory tools' progress is.
  expect(preliminary).toBeLessThanOrEqual(MAX_PENDING_UPDATES + 1);
});
