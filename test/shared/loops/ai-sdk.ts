/**
 * Scripting helpers for the AI SDK's real generateText loop with
 * MockLanguageModelV4: one tool call per step, then a final text.
 */
import type { MockLanguageModelV4 } from "ai/test";

export const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** A model step that calls `toolName` with `input`. */
export const call = (id: string, toolName: string, input: unknown) => ({
  content: [{ type: "tool-call" as const, toolCallId: id, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: "tool-calls" as const, raw: undefined },
  usage,
  warnings: [],
});

/** The final model step: text "done". */
export const done = { content: [{ type: "text" as const, text: "done" }], finishReason: { unified: "stop" as const, raw: undefined }, usage, warnings: [] };

/** The tool-result output the model saw for a call id, from the next step's prompt. */
export function outputFor(model: MockLanguageModelV4, id: string): unknown {
  for (const c of model.doGenerateCalls) {
    for (const message of c.prompt) {
      if (message.role !== "tool") continue;
      for (const part of message.content) if (part.type === "tool-result" && part.toolCallId === id) return part.output;
    }
  }
  return undefined;
}
