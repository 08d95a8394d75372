import { chat } from "@tanstack/ai";

/**
 * A scripted TanStack text adapter: each chatStream call plays the next step as AG-UI events.
 * A call streams `args` as its argument text (by default `input` as JSON) and ends with `input`
 * on TOOL_CALL_END; a call without an `input` key ends without one (chat() parses `args`).
 */
export type ScriptStep = { calls: Array<{ id: string; name: string; input?: unknown; args?: string }> } | { text: string };

export function scriptedAdapter(script: ScriptStep[]) {
  const seen: Array<{ messages: unknown[]; tools: unknown[] }> = [];
  let index = 0;
  const adapter = {
    kind: "text" as const,
    name: "scripted",
    model: "scripted-1",
    "~types": {} as never,
    async *chatStream(options: { messages: unknown[]; tools?: unknown[] }) {
      seen.push({ messages: structuredClone(options.messages), tools: options.tools ?? [] });
      const step = script[index++] ?? { text: "(script ended)" };
      const runId = `run-${index}`;
      const threadId = "thread-1";
      const timestamp = Date.now();
      yield { type: "RUN_STARTED", runId, threadId, timestamp };
      if ("text" in step) {
        const messageId = `msg-${index}`;
        yield { type: "TEXT_MESSAGE_START", messageId, role: "assistant", timestamp };
        yield { type: "TEXT_MESSAGE_CONTENT", messageId, delta: step.text, timestamp };
        yield { type: "TEXT_MESSAGE_END", messageId, timestamp };
        yield { type: "RUN_FINISHED", runId, threadId, finishReason: "stop", timestamp };
        return;
      }
      for (const call of step.calls) {
        yield { type: "TOOL_CALL_START", toolCallId: call.id, toolCallName: call.name, toolName: call.name, timestamp };
        yield { type: "TOOL_CALL_ARGS", toolCallId: call.id, delta: call.args ?? JSON.stringify(call.input), timestamp };
        yield { type: "TOOL_CALL_END", toolCallId: call.id, ...("input" in call ? { input: call.input } : {}), timestamp };
      }
      yield { type: "RUN_FINISHED", runId, threadId, finishReason: "tool_calls", timestamp };
    },
    async structuredOutput(): Promise<never> {
      throw new Error("not scripted");
    },
  };
  return { adapter, seen };
}

/** Runs TanStack's real `chat()` over the scripted adapter; `toolMessage(id)` is what the model saw for a call. */
export async function runChat(tools: unknown, script: ScriptStep[]) {
  const { adapter, seen } = scriptedAdapter(script);
  const chunks: Array<Record<string, unknown>> = [];
  const stream = chat({ adapter: adapter as never, messages: [{ role: "user", content: "go" }], tools: tools as never });
  for await (const chunk of stream as AsyncIterable<Record<string, unknown>>) chunks.push(chunk);
  const last = seen.at(-1)!.messages as Array<{ role: string; toolCallId?: string; content: unknown }>;
  const toolMessage = (id: string) => last.find((m) => m.role === "tool" && m.toolCallId === id)?.content;
  return { chunks, seen, toolMessage };
}
