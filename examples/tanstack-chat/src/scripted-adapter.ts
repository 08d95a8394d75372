/**
 * A SCRIPTED TanStack AI text adapter, used when no model key is set: it plays
 * AG-UI events for a fixed plan — list the Workspace, write a note (a mutating
 * call, so it waits for approval), then answer.
 */
type Step = { call: { name: string; input: unknown } } | { text: string };

const PLAN: Step[] = [
  { call: { name: "ls", input: { path: "/workspace" } } },
  { call: { name: "write", input: { path: "/workspace/notes/chat.md", content: "# Notes\n\nWritten by the tanstack-chat example.\n" } } },
  { text: "SCRIPTED model: listed /workspace and wrote /workspace/notes/chat.md." },
];

export function scriptedAdapter() {
  return {
    kind: "text" as const,
    name: "scripted",
    model: "tanstack-chat-scripted",
    "~types": {} as never,
    async *chatStream(options: { messages: Array<{ role: string }> }) {
      // One plan step per assistant turn already in the conversation.
      const index = options.messages.filter((m) => m.role === "assistant").length;
      const step = PLAN[index] ?? PLAN[PLAN.length - 1];
      const runId = `run-${index + 1}`;
      const threadId = "scripted";
      const timestamp = Date.now();
      yield { type: "RUN_STARTED", runId, threadId, timestamp };
      if ("text" in step) {
        const messageId = `msg-${index + 1}`;
        yield { type: "TEXT_MESSAGE_START", messageId, role: "assistant", timestamp };
        yield { type: "TEXT_MESSAGE_CONTENT", messageId, delta: step.text, timestamp };
        yield { type: "TEXT_MESSAGE_END", messageId, timestamp };
        yield { type: "RUN_FINISHED", runId, threadId, finishReason: "stop", timestamp };
        return;
      }
      const toolCallId = `call-${index + 1}`;
      yield { type: "TOOL_CALL_START", toolCallId, toolCallName: step.call.name, toolName: step.call.name, timestamp };
      yield { type: "TOOL_CALL_ARGS", toolCallId, delta: JSON.stringify(step.call.input), timestamp };
      yield { type: "TOOL_CALL_END", toolCallId, input: step.call.input, timestamp };
      yield { type: "RUN_FINISHED", runId, threadId, finishReason: "tool_calls", timestamp };
    },
    async structuredOutput(): Promise<never> {
      throw new Error("the scripted adapter has no structured output");
    },
  };
}
