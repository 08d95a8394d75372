/**
 * The examples build for deployment (`wrangler deploy --dry-run`) and run in
 * local workerd with their scripted models, through each library's real loop.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dryRunBuild, startExample, type RunningExample } from "./harness.js";

const EXAMPLES = ["ai-sdk-agent", "pi-loop", "tanstack-chat"];

describe("wrangler deploy --dry-run", () => {
  for (const name of EXAMPLES) {
    it(`builds examples/${name}`, { timeout: 180_000 }, async () => {
      const { files, output } = await dryRunBuild(name);
      expect(output).toContain("--dry-run: exiting now.");
      expect(files).toContain("index.js");
    });
  }
});

describe("pi-loop in local workerd", () => {
  let example: RunningExample;
  beforeAll(async () => {
    example = await startExample("pi-loop");
  }, 180_000);
  afterAll(() => example?.dispose());

  it("runs the custom loop: tool calls answered with toolResult messages, then a reply", { timeout: 60_000 }, async () => {
    const response = await example.fetch("/chat?session=t", { method: "POST", body: JSON.stringify({ prompt: "Write a note." }) });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      model: string;
      text: string;
      steps: number;
      messages: Array<{ role: string; toolName?: string; isError?: boolean; content: unknown }>;
    };
    expect(body.model).toMatch(/^SCRIPTED/);
    expect(body.text).toBe("SCRIPTED model: wrote /workspace/notes/pi-loop.md.");
    expect(body.steps).toBe(2);
    expect(body.messages.map((m) => `${m.role}${m.toolName ? `:${m.toolName}` : ""}`)).toEqual([
      "user",
      "assistant",
      "toolResult:ls",
      "assistant",
      "toolResult:write",
      "assistant",
    ]);
    const results = body.messages.filter((m) => m.role === "toolResult");
    expect(results.map((m) => m.isError)).toEqual([false, false]);
    expect(JSON.stringify(results[0].content)).toContain('\\"count\\":0');

    // The note is durable: a second turn on the same session lists it.
    const again = await example.fetch("/chat?session=t", { method: "POST", body: JSON.stringify({ prompt: "Again." }) });
    const second = (await again.json()) as { messages: Array<{ role: string; content: unknown }> };
    expect(JSON.stringify(second.messages.find((m) => m.role === "toolResult")?.content)).toContain('\\"name\\":\\"notes\\"');
  });
});

describe("tanstack-chat in local workerd", () => {
  let example: RunningExample;
  beforeAll(async () => {
    example = await startExample("tanstack-chat");
  }, 180_000);
  afterAll(() => example?.dispose());

  it("streams chat() as server-sent events and pauses the mutating write for approval", { timeout: 60_000 }, async () => {
    const response = await example.fetch("/chat?session=t", {
      method: "POST",
      body: JSON.stringify({ messages: [{ role: "user", content: "Take notes." }] }),
    });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const events = (await response.text())
      .split("\n\n")
      .filter((frame) => frame.startsWith("data: "))
      .map((frame) => JSON.parse(frame.slice("data: ".length)) as { type: string; toolCallId?: string; content?: string; outcome?: { type: string; interrupts: Array<{ toolCallId: string; message: string }> } });
    const results = events.filter((e) => e.type === "TOOL_CALL_RESULT");
    expect(results.map((e) => e.toolCallId)).toEqual(["call-1"]);
    expect(JSON.parse(results[0].content!)).toEqual({ path: "/workspace", count: 0, entries: [] });
    const interrupt = events.find((e) => e.type === "RUN_FINISHED" && e.outcome?.type === "interrupt");
    expect(interrupt?.outcome?.interrupts.map((i) => [i.toolCallId, i.message])).toEqual([["call-2", "Approval required to run write"]]);
  });
});
