/**
 * pi's own loop over its faux provider, for each supported major of
 * `@earendil-works/pi-ai`: complete → run each toolCall through `execute` →
 * push the toolResult → repeat (at most 20 turns).
 *
 * - 0.74 (`pi-ai-0`, an npm alias of `@earendil-works/pi-ai@0.74`): top-level
 *   `complete(model, context)` over a globally registered faux provider (`registerFauxProvider`).
 * - 1.x (`@earendil-works/pi-ai`): `createModels()`
 *   with `fauxProvider()` set on it, then `models.complete(model, context)`.
 *
 * Test files run their cases once per entry of {@link PI_MAJORS}
 * (`for (const major of PI_MAJORS) describe(…)`), building scripts with that major's own
 * `fauxToolCall` / `fauxAssistantMessage` / `fauxText`.
 */
import * as pi074 from "pi-ai-0";
import * as pi1 from "@earendil-works/pi-ai";
import { afterEach } from "vitest";
import type { createPiTools } from "../../../src/tools/pi-ai.js";

type PiTools = ReturnType<typeof createPiTools>;
type StopReason = "stop" | "toolUse" | "error" | "aborted";

/** A tool call block as both majors build it (1.x may add `argumentsError`). */
export interface FauxToolCall {
  type: "toolCall";
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  argumentsError?: string;
}

/** A scripted assistant message; opaque here, it goes back to the major that built it. */
export type FauxMessage = { readonly role: "assistant"; readonly __piMajor?: never };

/** What a loop saw: each tool result by call id, and the whole context. */
export interface PiLoopResult {
  /** toolResult messages keyed by `toolCallId`. */
  results: Map<string, { role: "toolResult"; toolCallId: string; toolName: string; content: Array<{ type: string; text?: string; data?: string; mimeType?: string }>; isError: boolean; details?: unknown; timestamp: number }>;
  context: { messages: Array<{ role: string; content: unknown; stopReason?: string; errorMessage?: string }> };
}

/** Options of one loop run. */
export interface PiLoopOptions {
  /** Passed to `complete` and to every `execute` (the loop's stop button). */
  signal?: AbortSignal;
}

/** One pi major: its faux builders and `piLoop()`. */
export interface PiMajor {
  /** `"0.74"` or `"1.x"`, for test names. */
  name: string;
  /** The module the loop imports. */
  specifier: string;
  fauxToolCall(name: string, args: Record<string, unknown>, options?: { id?: string }): FauxToolCall;
  fauxText(text: string): { type: "text"; text: string };
  fauxAssistantMessage(content: string | Array<FauxToolCall | { type: "text"; text: string }>, options?: { stopReason?: StopReason }): FauxMessage;
  /** Returns `runLoop(tools, script, options?)`; call at the top of a describe block (it registers an afterEach cleanup). */
  piLoop(): (tools: PiTools, script: FauxMessage[], options?: PiLoopOptions) => Promise<PiLoopResult>;
}

type LoopMessage = { role: string; content: unknown };
type Complete = (messages: LoopMessage[], signal?: AbortSignal) => Promise<{ role: "assistant"; content: Array<{ type: string }>; stopReason: string }>;
type RunCall = (block: FauxToolCall, signal?: AbortSignal) => Promise<LoopMessage & { toolCallId: string }>;

/** The loop both majors share; `complete` and `runCall` are the parts typed against each library. */
async function loop(complete: Complete, runCall: RunCall, options: PiLoopOptions = {}): Promise<PiLoopResult> {
  const messages: LoopMessage[] = [{ role: "user", content: "go", timestamp: Date.now() } as LoopMessage];
  const results = new Map() as PiLoopResult["results"];
  for (let turn = 0; turn < 20; turn++) {
    const message = await complete(messages, options.signal);
    messages.push(message);
    if (message.stopReason === "aborted" || message.stopReason === "error") break;
    const calls = message.content.filter((b): b is FauxToolCall => b.type === "toolCall");
    if (calls.length === 0) break;
    for (const block of calls) {
      const result = await runCall(block, options.signal);
      results.set(block.id, result as never);
      messages.push(result);
    }
  }
  return { results, context: { messages } as PiLoopResult["context"] };
}

/** pi 0.74: the global API (`registerFauxProvider`, top-level `complete`). */
const PI_074: PiMajor = {
  name: "0.74",
  specifier: "pi-ai-0",
  fauxToolCall: (name, args, options) => pi074.fauxToolCall(name, args, options) as FauxToolCall,
  fauxText: (text) => pi074.fauxText(text),
  fauxAssistantMessage: (content, options) => pi074.fauxAssistantMessage(content as never, options) as unknown as FauxMessage,
  piLoop() {
    let registration: pi074.FauxProviderRegistration | undefined;
    afterEach(() => {
      registration?.unregister();
      registration = undefined;
    });
    return (tools, script, options) => {
      registration?.unregister();
      const faux = (registration = pi074.registerFauxProvider());
      faux.setResponses(script as never);
      // No casts: the declarations fit 0.74's Context, its ToolCall fits execute, the result fits its ToolResultMessage.
      const complete = (messages: LoopMessage[], signal?: AbortSignal) => {
        const context: pi074.Context = { messages: messages as pi074.Message[], tools: tools.tools };
        return pi074.complete(faux.getModel(), context, { signal });
      };
      const runCall = async (block: pi074.ToolCall, signal?: AbortSignal): Promise<pi074.ToolResultMessage> => {
        const { content, isError, details } = await tools.execute(block, { abortSignal: signal });
        return { role: "toolResult", toolCallId: block.id, toolName: block.name, content, isError, details, timestamp: Date.now() };
      };
      return loop(complete, runCall as RunCall, options);
    };
  },
};

/** pi 1.x: a `Models` collection with the faux provider set on it, `models.complete`. */
const PI_1: PiMajor = {
  name: "1.x",
  specifier: "@earendil-works/pi-ai",
  fauxToolCall: (name, args, options) => pi1.fauxToolCall(name, args as pi1.JsonObject, options) as FauxToolCall,
  fauxText: (text) => pi1.fauxText(text),
  fauxAssistantMessage: (content, options) => pi1.fauxAssistantMessage(content as never, options) as unknown as FauxMessage,
  piLoop() {
    return (tools, script, options) => {
      const faux = pi1.fauxProvider();
      const models = pi1.createModels();
      models.setProvider(faux.provider);
      faux.setResponses(script as never);
      // No casts but one: 1.x types ToolResultMessage.details as JSON, and `details` is the tool's raw result (unknown).
      const complete = (messages: LoopMessage[], signal?: AbortSignal) => {
        const context: pi1.Context = { messages: messages as pi1.Message[], tools: tools.tools };
        return models.complete(faux.getModel(), context, { signal });
      };
      const runCall = async (block: pi1.ToolCall, signal?: AbortSignal): Promise<pi1.ToolResultMessage> => {
        const { content, isError, details } = await tools.execute(block, { abortSignal: signal });
        return { role: "toolResult", toolCallId: block.id, toolName: block.name, content, isError, details: details as pi1.JsonValue, timestamp: Date.now() };
      };
      return loop(complete, runCall as RunCall, options);
    };
  },
};

/** Every supported pi major, oldest first. */
export const PI_MAJORS: readonly PiMajor[] = [PI_074, PI_1];

/** A model step (of `major`) that makes `calls` and stops for tool use. */
export const step = (major: PiMajor, ...calls: FauxToolCall[]) => major.fauxAssistantMessage(calls, { stopReason: "toolUse" });
