/**
 * The SCRIPTED models, one per library, used when no model key is set. Each
 * plays the same plan — call text_stats on /workspace/notes, then word_freq
 * on /workspace/notes/a.md, then answer with what the two tools returned —
 * by reading the tool results in its conversation. They are labelled as
 * scripted in every reply.
 */
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4GenerateResult, LanguageModelV4StreamResult } from "@ai-sdk/provider";
import { fauxAssistantMessage, fauxProvider, fauxText, fauxToolCall, type FauxProviderHandle } from "@earendil-works/pi-ai";

/** The plan: the tool calls in order, then a reply quoting their results. */
export const PLAN = [
  { id: "call-1", name: "text_stats", input: { dir: "/workspace/notes" } },
  { id: "call-2", name: "word_freq", input: { path: "/workspace/notes/a.md" } },
] as const;

/** The final reply, given each call's result as text. */
export function reply(results: string[]): string {
  return `SCRIPTED model: ${results.map((text, i) => `${PLAN[i].name} said ${JSON.stringify(text)}`).join("; ")}.`;
}

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

/** AI SDK: a real `LanguageModelV4` for `generateText` that issues the plan's next call. */
export class ScriptedAIModel implements LanguageModelV4 {
  readonly specificationVersion = "v4" as const;
  readonly provider = "scripted";
  readonly modelId = "tool-dirs-agent-scripted";
  readonly supportedUrls = {};

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    const results: string[] = [];
    for (const message of options.prompt) {
      if (message.role !== "tool") continue;
      for (const part of message.content) {
        if (part.type !== "tool-result") continue;
        const output = part.output as { type: string; value?: unknown };
        results.push(typeof output.value === "string" ? output.value : JSON.stringify(output.value));
      }
    }
    const next = PLAN[results.length];
    return {
      content: next
        ? [{ type: "tool-call", toolCallId: next.id, toolName: next.name, input: JSON.stringify(next.input) }]
        : [{ type: "text", text: reply(results) }],
      finishReason: { unified: next ? "tool-calls" : "stop", raw: undefined },
      usage,
      warnings: [],
    } as LanguageModelV4GenerateResult;
  }

  async doStream(): Promise<LanguageModelV4StreamResult> {
    throw new Error("the scripted model supports generateText only");
  }
}

/** pi: the faux provider answering with the plan. */
export function scriptedPi(): FauxProviderHandle {
  const faux = fauxProvider({ provider: "scripted", models: [{ id: "tool-dirs-agent-scripted" }] });
  faux.setResponses([
    ...PLAN.map((call) => fauxAssistantMessage([fauxToolCall(call.name, call.input, { id: call.id })], { stopReason: "toolUse" })),
    (context) => {
      const results = context.messages.flatMap((m) => (m.role === "toolResult" ? [m.content.map((c) => (c.type === "text" ? c.text : "")).join("\n")] : []));
      return fauxAssistantMessage([fauxText(reply(results))]);
    },
  ]);
  return faux;
}

/** TanStack AI: a text adapter playing AG-UI events for the plan, one step per assistant turn so far. */
export function scriptedTanStack() {
  return {
    kind: "text" as const,
    name: "scripted",
    model: "tool-dirs-agent-scripted",
    "~types": {} as never,
    async *chatStream(options: { messages: Array<{ role: string; content?: unknown }> }) {
      const index = options.messages.filter((m) => m.role === "assistant").length;
      const next = PLAN[index];
      const runId = `run-${index + 1}`;
      const threadId = "scripted";
      const timestamp = Date.now();
      yield { type: "RUN_STARTED", runId, threadId, timestamp };
      if (!next) {
        const results = options.messages.flatMap((m) => (m.role === "tool" ? [typeof m.content === "string" ? m.content : JSON.stringify(m.content)] : []));
        const messageId = `msg-${index + 1}`;
        yield { type: "TEXT_MESSAGE_START", messageId, role: "assistant", timestamp };
        yield { type: "TEXT_MESSAGE_CONTENT", messageId, delta: reply(results), timestamp };
        yield { type: "TEXT_MESSAGE_END", messageId, timestamp };
        yield { type: "RUN_FINISHED", runId, threadId, finishReason: "stop", timestamp };
        return;
      }
      yield { type: "TOOL_CALL_START", toolCallId: next.id, toolCallName: next.name, toolName: next.name, timestamp };
      yield { type: "TOOL_CALL_ARGS", toolCallId: next.id, delta: JSON.stringify(next.input), timestamp };
      yield { type: "TOOL_CALL_END", toolCallId: next.id, input: next.input, timestamp };
      yield { type: "RUN_FINISHED", runId, threadId, finishReason: "tool_calls", timestamp };
    },
    async structuredOutput(): Promise<never> {
      throw new Error("the scripted adapter has no structured output");
    },
  };
}
