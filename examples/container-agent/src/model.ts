/**
 * Which model drives the turn: a real provider when its key is set, else a
 * SCRIPTED model (no network, no credentials).
 *
 * | variable | provider | default `AGENT_MODEL` |
 * | --- | --- | --- |
 * | `OPENAI_API_KEY` | OpenAI | `gpt-4.1-mini` |
 * | `ANTHROPIC_API_KEY` | Anthropic | `claude-sonnet-4-5` |
 *
 * The scripted model is the AI SDK's own `MockLanguageModelV4` (`ai/test`)
 * whose `doGenerate` plays the plan: write each project file, run the
 * `ws:container` module with exec, then report what the run returned.
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import type { LanguageModelV4CallOptions, LanguageModelV4Content, LanguageModelV4GenerateResult } from "@ai-sdk/provider";
import type { Env } from "./env.js";
import { FILES, RUN_TESTS, type TestRun } from "./project.js";

export interface ChosenModel {
  model: LanguageModel;
  /** e.g. `SCRIPTED (no model credentials set)` or `anthropic:claude-sonnet-4-5`. */
  label: string;
  scripted: boolean;
}

export function chooseModel(env: Env): ChosenModel {
  if (env.OPENAI_API_KEY) {
    const id = env.AGENT_MODEL ?? "gpt-4.1-mini";
    return { model: createOpenAI({ apiKey: env.OPENAI_API_KEY })(id), label: `openai:${id}`, scripted: false };
  }
  if (env.ANTHROPIC_API_KEY) {
    const id = env.AGENT_MODEL ?? "claude-sonnet-4-5";
    return { model: createAnthropic({ apiKey: env.ANTHROPIC_API_KEY })(id), label: `anthropic:${id}`, scripted: false };
  }
  return {
    model: new MockLanguageModelV4({ provider: "scripted", modelId: "container-agent-scripted", doGenerate: async (options) => scriptedStep(options) }),
    label: "SCRIPTED (no model credentials set)",
    scripted: true,
  };
}

/** The tool results so far, oldest first (`json`/`text` outputs unwrapped). */
function results(options: LanguageModelV4CallOptions): unknown[] {
  const out: unknown[] = [];
  for (const message of options.prompt) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result") continue;
      const output = part.output as { type: string; value?: unknown };
      out.push(output.type === "json" || output.type === "text" || output.type === "error-text" ? output.value : output);
    }
  }
  return out;
}

/** One turn of the plan: the next tool call, or the report once the tests ran. */
function scriptedStep(options: LanguageModelV4CallOptions): LanguageModelV4GenerateResult {
  const done = results(options);
  const call = (toolName: string, input: unknown, say: string): LanguageModelV4Content[] => [
    { type: "text", text: say },
    { type: "tool-call", toolCallId: `scripted-${done.length + 1}`, toolName, input: JSON.stringify(input) },
  ];
  let content: LanguageModelV4Content[];
  if (done.length < FILES.length) {
    const [path, text] = FILES[done.length];
    content = call("write", { path, content: text }, `Write ${path}.`);
  } else if (done.length === FILES.length) {
    content = call("exec", { command: RUN_TESTS }, "Run npm test in the container through ws:container.");
  } else {
    const exec = done[FILES.length] as { exitCode?: number; result?: TestRun; error?: string };
    const run = exec.result;
    const text = run
      ? `SCRIPTED model: wrote ${FILES.length} files and ran npm test in the container: ${run.passed ? "passed" : "failed"} (exit ${run.exitCode}).`
      : `SCRIPTED model: the test module did not return a result (${exec.error ?? `exit ${exec.exitCode}`}).`;
    content = [{ type: "text", text }];
  }
  return {
    content,
    finishReason: { unified: content.length > 1 ? "tool-calls" : "stop", raw: undefined },
    usage: { inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 0, text: 0, reasoning: 0 } },
    warnings: [],
  } as LanguageModelV4GenerateResult;
}
