/**
 * Issue 20, twelfth attack run: directory-tool progress floods through the adapters (src/tools/core/directory.ts
 * `runWithProgress`, ai-sdk-tools.ts `directoryValues`, tanstack-ai.ts `toTanStackTool`, pi-ai.ts), in real
 * workerd with the JavaScript backend.
 *
 * Tried: a TypeScript tool calling `onUpdate` 3,000 times with ~1 KB of text each (3 MB of progress; the
 * JavaScript backend keeps up to 64 MiB of stdout per run), while the loop's consumer does not read (an HTTP
 * client reading slowly, a UI that is busy) — how many updates are held for it when the tool has finished?
 * AI SDK streamText, TanStack chat() with `streamEventName`, and pi `execute` with `onUpdate` (the caller's
 * callback is synchronous: nothing waits), plus the order and completeness with a consumer that keeps up.
 */
import { streamText, stepCountIs } from "ai";
import { chat, maxIterations } from "@tanstack/ai";
import { describe, expect, it } from "vitest";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import { MAX_PENDING_UPDATE_CHARS, PROGRESS_BURST, PROGRESS_INTERVAL_MS } from "../../../src/tools/core/directory.js";
import { scriptedAdapter } from "../../node/tools/tanstack-helpers.js";
import { input, inToolWorkspace, toolAt } from "../tool-dirs/helpers.js";
import { streamingModel } from "../tool-dirs/loop-helpers.js";
import type { Workspace } from "../../../src/index.js";

const N = 3_000;
const PAD = "p".repeat(1_000);
const FLOOD = `export async function execute(toolCallId, params, signal, onUpdate) {
  for (let i = 1; i <= params.n; i++) onUpdate({ content: [{ type: "text", text: "update " + i + " ${PAD}" }] });
  return { content: [{ type: "text", text: "flooded " + params.n } ] };
}
`;
const flood = toolAt("flood", "typescript", "index.ts", { n: input("number") }, { mutating: false });

async function withFlood<T>(fn: (ws: Workspace) => Promise<T>): Promise<T> {
  return inToolWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/tools/flood", { recursive: true });
    await ws.fs.writeFile("/workspace/tools/flood/index.ts", FLOOD);
    return fn(ws);
  }, { shell: false });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 3_000 && !done(); i++) await sleep(20);
  if (!done()) throw new Error("the tool did not finish");
}

describe("attack12: a progress flood while the consumer does not read", () => {
  // DEFECT (medium: a Durable Object's memory grows with the number of updates a tool prints — up to the
  // backend's 64 MiB stdout budget per call, and that again for each concurrent call — against the
  // documented bound). docs/tool-directories.md "What each library receives": "While the loop is busy
  // they wait in a bounded queue: at most 64 updates and 1 MiB of text (MAX_PENDING_UPDATES,
  // MAX_PENDING_UPDATE_CHARS) … so a tool that floods progress costs bounded memory." The bounded queue
  // is directory.ts runWithProgress's `pending`; but both adapters drain that generator eagerly into their
  // library, whose queues are unbounded and take no backpressure: tanstack-ai.ts passes each update to
  // `settle(…, emit)` → TanStack's `emitCustomEvent` pushes onto executeToolCalls' `pendingEvents` array
  // (drained only as chat()'s consumer pulls); ai-sdk-tools.ts `directoryValues` is iterated by the AI
  // SDK's executeToolCall, whose onPreliminaryToolResult does `controller.enqueue(result)` on streamText's
  // ReadableStream without waiting. With a consumer that stops reading, every one of the 3,000 updates
  // (3 MB) is held when the tool finishes.
  // Expected: at most MAX_PENDING_UPDATES updates (and MAX_PENDING_UPDATE_CHARS of text) waiting for the
  // consumer. Fix: coalesce in the adapter — hand the library a new update only after the previous one
  // was consumed (TanStack: keep at most one undelivered emit per call, e.g. emit from a timer / after
  // the 10 ms poll took it; AI SDK: the async generator is pulled eagerly, so rate-limit or cap the
  // preliminary results per call, keeping the latest) — or document that the bound holds only for pi.
  // FIXED: the AI SDK and TanStack adapters pace a directory tool's progress (pacedOutputs): a burst of
  // PROGRESS_BURST, then one update per PROGRESS_INTERVAL_MS (latest wins) and MAX_PENDING_UPDATE_CHARS of progress text per call,
  // so what a stalled consumer's library holds is bounded by the run's duration and 1 MiB.
  it("TanStack chat(): updates held for a consumer that stopped reading stay within the documented pacing bound", { timeout: 120_000 }, async () => {
    const started = Date.now();
    const held = await withFlood(async (ws) => {
      const tools = createTanStackTools({ workspace: ws, toolDirectories: { tools: [flood] }, streamEventName: "progress" });
      const tool = tools.at(-1) as unknown as { execute: (...a: unknown[]) => Promise<unknown> };
      let finished = false;
      const execute = tool.execute.bind(tool);
      tool.execute = async (...a) => {
        const out = await execute(...a);
        finished = true;
        return out;
      };
      const { adapter } = scriptedAdapter([{ calls: [{ id: "f", name: "flood", input: { n: N } }] }, { text: "done" }]);
      const stream = chat({ adapter: adapter as never, messages: [{ role: "user", content: "go" }], tools: tools as never, agentLoopStrategy: maxIterations(3) });
      const it = (stream as AsyncIterable<Record<string, unknown>>)[Symbol.asyncIterator]();
      for (;;) {
        const next = await it.next();
        if (next.done) throw new Error("no progress event");
        if (next.value.type === "CUSTOM") break;
      }
      await until(() => finished); // the consumer reads nothing meanwhile
      let count = 0;
      let chars = 0;
      for (;;) {
        const next = await it.next();
        if (next.done) break;
        if (next.value.type === "CUSTOM") {
          count++;
          chars += ((next.value.value as { snapshot: { content: Array<{ text: string }> } }).snapshot.content[0]!.text).length;
        }
      }
      return { count, chars, elapsed: Date.now() - started };
    });
    // Before the fix: 2,999 updates, ~3 MB held.
    expect(held.count).toBeLessThanOrEqual(PROGRESS_BURST + Math.ceil(held.elapsed / PROGRESS_INTERVAL_MS) + 2);
    expect(held.count).toBeLessThan(N / 10);
    expect(held.chars).toBeLessThanOrEqual(MAX_PENDING_UPDATE_CHARS);
  });

  // FIXED: the AI SDK and TanStack adapters pace a directory tool's progress (pacedOutputs): a burst of
  // PROGRESS_BURST, then one update per PROGRESS_INTERVAL_MS (latest wins) and MAX_PENDING_UPDATE_CHARS of progress text per call,
  // so what a stalled consumer's library holds is bounded by the run's duration and 1 MiB.
  it("AI SDK streamText: preliminary results held for a consumer that stopped reading stay within the documented pacing bound", { timeout: 120_000 }, async () => {
    const started = Date.now();
    const held = await withFlood(async (ws) => {
      const tools = createAITools({ workspace: ws, toolDirectories: { tools: [flood] } });
      let finished = false;
      const execute = tools.flood!.execute!.bind(tools.flood);
      tools.flood!.execute = async function* (input: unknown, options: unknown) {
        yield* execute(input as never, options as never) as AsyncIterable<unknown>;
        finished = true;
      } as never;
      const model = streamingModel([{ calls: [["f", "flood", { n: N }]] }, { text: "done" }]);
      const result = streamText({ model, prompt: "go", tools, stopWhen: stepCountIs(3) });
      const reader = result.fullStream.getReader();
      for (;;) {
        const next = await reader.read();
        if (next.done) throw new Error("no preliminary result");
        if (next.value.type === "tool-result" && next.value.preliminary === true) break;
      }
      await until(() => finished);
      let count = 0;
      let chars = 0;
      for (;;) {
        const next = await reader.read();
        if (next.done) break;
        if (next.value.type === "tool-result" && next.value.preliminary === true) {
          count++;
          chars += String(next.value.output).length;
        }
      }
      return { count, chars, elapsed: Date.now() - started };
    });
    // Before the fix: 3,000 preliminary results held.
    expect(held.count).toBeLessThanOrEqual(PROGRESS_BURST + Math.ceil(held.elapsed / PROGRESS_INTERVAL_MS) + 2);
    expect(held.count).toBeLessThan(N / 10);
    expect(held.chars).toBeLessThanOrEqual(MAX_PENDING_UPDATE_CHARS);
  });
});

describe("attack12: a progress flood with a consumer that keeps up (held)", () => {
  it("pi execute: every update reaches onUpdate in order, then the result; a throwing onUpdate changes nothing", { timeout: 120_000 }, async () => {
    const out = await withFlood(async (ws) => {
      const { execute } = createPiTools({ workspace: ws, toolDirectories: { tools: [flood] } });
      const seen: number[] = [];
      const result = await execute({ type: "toolCall", id: "f", name: "flood", arguments: { n: N } } as never, {
        onUpdate: (partial) => {
          seen.push(Number(/^update (\d+) /.exec((partial.content[0] as { text: string }).text)![1]));
          if (seen.length % 2 === 0) throw new Error("callback failure");
        },
      });
      return { seen, result };
    });
    expect(out.result).toEqual({ content: [{ type: "text", text: `flooded ${N}` }], isError: false, details: { content: [{ type: "text", text: `flooded ${N}` }] } });
    expect(out.seen).toEqual(Array.from({ length: N }, (_, i) => i + 1));
  });
});
