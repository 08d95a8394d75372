/**
 * pi's own loop over the faux provider: complete → run each toolCall through
 * `execute` → push the toolResult → repeat (at most 20 turns).
 */
import {
  complete,
  fauxAssistantMessage,
  registerFauxProvider,
  type Context,
  type fauxToolCall,
  type ToolResultMessage,
} from "@earendil-works/pi-ai";
import { afterEach } from "vitest";
import type { createPiTools } from "../../../src/tools/pi-ai.js";

/** A model step that makes `calls` and stops for tool use. */
export const step = (...calls: ReturnType<typeof fauxToolCall>[]) => fauxAssistantMessage(calls, { stopReason: "toolUse" });

/** Returns `runLoop(tools, script)`; call at the top of a test file (it registers an afterEach that unregisters the faux provider). */
export function piLoop() {
  let registration: ReturnType<typeof registerFauxProvider> | undefined;
  afterEach(() => registration?.unregister());
  return async function runLoop(tools: ReturnType<typeof createPiTools>, script: Array<ReturnType<typeof fauxAssistantMessage>>) {
    registration = registerFauxProvider();
    registration.setResponses(script);
    const model = registration.getModel();
    const context: Context = { messages: [{ role: "user", content: "go", timestamp: Date.now() }], tools: tools.tools as never };
    const results = new Map<string, ToolResultMessage>();
    for (let turn = 0; turn < 20; turn++) {
      const message = await complete(model, context);
      context.messages.push(message);
      const calls = message.content.filter((b) => b.type === "toolCall");
      if (calls.length === 0) break;
      for (const block of calls) {
        const { content, isError, details } = await tools.execute(block);
        const result: ToolResultMessage = { role: "toolResult", toolCallId: block.id, toolName: block.name, content, isError, details, timestamp: Date.now() };
        results.set(block.id, result);
        context.messages.push(result);
      }
    }
    return { results, context };
  };
}
