/**
 * One tool call at a time through each adapter's real loop, normalised to
 * what the model saw: `{ isError, text }`. The AI SDK runs generateText over
 * MockLanguageModelV4, pi its own loop over the faux provider (0.74 and
 * 1.x), TanStack chat() over a scripted adapter. A tool set built once is
 * called across several loops, as an agent's tools are across turns.
 */
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { call, done, outputFor } from "../../shared/loops/ai-sdk.js";
import { PI_MAJORS, step } from "../../shared/loops/pi.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import type { CreateToolsOptions } from "../../../src/tools/core/toolset.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import { runChat } from "./tanstack-helpers.js";

/** What the model saw for one call. */
export interface Seen {
  isError: boolean;
  text: string;
}

/** An adapter: builds a tool set, and runs one model turn that makes one call with it. */
export interface Driver {
  name: string;
  build(options: CreateToolsOptions): unknown;
  call(tools: unknown, name: string, input: Record<string, unknown>): Promise<Seen>;
}

let ids = 0;

function fromJsonText(raw: string): Seen {
  try {
    const value = JSON.parse(raw) as unknown;
    if (typeof value === "object" && value !== null && typeof (value as { error?: unknown }).error === "string") {
      return { isError: true, text: (value as { error: string }).error };
    }
  } catch {
    /* plain text */
  }
  return { isError: false, text: raw };
}

const aiSdk: Driver = {
  name: "AI SDK",
  build: (options) => createAITools(options),
  async call(tools, name, input) {
    const id = `c${++ids}`;
    const model = new MockLanguageModelV4({ doGenerate: [call(id, name, input), done] });
    await generateText({ model, prompt: "go", tools: tools as ReturnType<typeof createAITools>, stopWhen: stepCountIs(3) });
    const output = outputFor(model, id) as { type: string; value: unknown };
    if (output.type === "error-text") return { isError: true, text: output.value as string };
    if (output.type === "text") return { isError: false, text: output.value as string };
    return fromJsonText(JSON.stringify(output.value));
  },
};

const tanstack: Driver = {
  name: "TanStack",
  build: (options) => createTanStackTools(options),
  async call(tools, name, input) {
    const id = `c${++ids}`;
    const chat = await runChat(tools, [{ calls: [{ id, name, input }] }, { text: "done" }]);
    return fromJsonText(chat.toolMessage(id) as string);
  },
};

/** The AI SDK, pi 0.74, pi 1.x and TanStack; call at the top of a describe block (pi registers cleanups). */
export function drivers(): Driver[] {
  const pis = PI_MAJORS.map((major): Driver => {
    // Two loops, so two calls can run at once (0.74's loop re-registers its global faux provider on each run).
    const loops = [major.piLoop(), major.piLoop()];
    const busy = new Set<number>();
    return {
      name: `pi ${major.name}`,
      build: (options) => createPiTools(options),
      async call(tools, name, input) {
        const id = `c${++ids}`;
        const slot = loops.findIndex((_, i) => !busy.has(i));
        busy.add(slot);
        const { results } = await loops[slot]!(tools as ReturnType<typeof createPiTools>, [
          step(major, major.fauxToolCall(name, input, { id })),
          major.fauxAssistantMessage("done"),
        ]).finally(() => busy.delete(slot));
        const result = results.get(id)!;
        return { isError: result.isError, text: result.content.map((c) => c.text ?? "").join("") };
      },
    };
  });
  return [aiSdk, ...pis, tanstack];
}
