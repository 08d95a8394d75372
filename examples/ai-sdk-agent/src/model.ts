/**
 * Which model drives the loop: a real provider when its key is set, else the
 * SCRIPTED model (no network, no credentials).
 *
 * | variable | provider | default `AGENT_MODEL` |
 * | --- | --- | --- |
 * | `OPENAI_API_KEY` | OpenAI | `gpt-4.1-mini` |
 * | `ANTHROPIC_API_KEY` | Anthropic | `claude-sonnet-4-5` |
 * | `AI_GATEWAY_API_KEY` | Vercel AI Gateway | `openai/gpt-4.1-mini` |
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createGateway, type LanguageModel } from "ai";
import type { Env } from "./env.js";
import { ScriptedModel } from "./scripted-model.js";
import type { Task } from "./task.js";

export interface ChosenModel {
  model: LanguageModel;
  /** Shown in the transcript, e.g. `SCRIPTED (no model credentials)` or `openai:gpt-4.1-mini`. */
  label: string;
  scripted: boolean;
}

export function chooseModel(env: Env, task: Task): ChosenModel {
  if (env.OPENAI_API_KEY) {
    const id = env.AGENT_MODEL ?? "gpt-4.1-mini";
    return { model: createOpenAI({ apiKey: env.OPENAI_API_KEY })(id), label: `openai:${id}`, scripted: false };
  }
  if (env.ANTHROPIC_API_KEY) {
    const id = env.AGENT_MODEL ?? "claude-sonnet-4-5";
    return { model: createAnthropic({ apiKey: env.ANTHROPIC_API_KEY })(id), label: `anthropic:${id}`, scripted: false };
  }
  if (env.AI_GATEWAY_API_KEY) {
    const id = env.AGENT_MODEL ?? "openai/gpt-4.1-mini";
    return { model: createGateway({ apiKey: env.AI_GATEWAY_API_KEY })(id), label: `gateway:${id}`, scripted: false };
  }
  return { model: new ScriptedModel(task), label: "SCRIPTED (no model credentials set)", scripted: true };
}
