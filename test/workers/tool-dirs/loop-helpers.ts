/**
 * Helpers of the directory-tool agent-loop tests (issue 19): a Durable
 * Object Workspace holding the fixture tools in /workspace/tools, loaded
 * with the real loader, plus streamText scripting for MockLanguageModelV4,
 * a recorder of `runtime.killExec` calls, and console capture.
 */
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { chat, maxIterations } from "@tanstack/ai";
import { loadToolDirectories, type LoadedToolDirectories } from "../../../src/tool-dirs/load.js";
import type { Workspace, WorkspaceObserver } from "../../../src/index.js";
import { call, done, outputFor, usage } from "../../shared/loops/ai-sdk.js";
import { PI_MAJORS, step } from "../../shared/loops/pi.js";
import { scriptedAdapter } from "../../node/tools/tanstack-helpers.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import type { CreateToolsOptions } from "../../../src/tools/core/toolset.js";
import { inToolWorkspace } from "./helpers.js";

/** The token the host passes as fetch_status's STATUS_API_TOKEN. */
export const TOKEN = "tok-LOOPTOKEN-5d2e91";
/** The value the model passes as all_inputs' sensitive `secret` input. */
export const SECRET = "s3cr3t-LOOPSECRET-77";

/** The built-in tools offered first (no assets: no publish). */
export const BUILTINS = ["read", "ls", "find", "grep", "write", "edit", "delete", "exec"];
/** The good fixture tools, in the loader's discovery order (subdirectory name). */
export const GOOD = ["all_inputs", "export_rows", "fetch_status", "greet", "slow_count"];

/** What a loop test gets: the Workspace, the loader's result, and the killExec ids seen. */
export interface LoopWorkspace {
  ws: Workspace;
  loaded: LoadedToolDirectories;
  /** Ids passed to `ws.runtime.killExec` (the call goes through to the runtime). */
  kills: string[];
}

/**
 * Runs `fn` in a fresh Durable Object whose Workspace (JavaScript backend
 * with direct egress for the loopback server, then the shell; `observer`
 * when given) holds the fixture tools plus `extra` files under
 * /workspace/tools, loaded with loadToolDirectories.
 */
export function inLoadedTools<T>(fn: (t: LoopWorkspace) => Promise<T>, options: { observer?: WorkspaceObserver; extra?: Record<string, string> } = {}): Promise<T> {
  return inToolWorkspace(
    async (ws) => {
      for (const [path, text] of Object.entries(options.extra ?? {})) {
        const full = `/workspace/tools/${path}`;
        await ws.fs.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
        await ws.fs.writeFile(full, text);
      }
      const kills: string[] = [];
      const runtime = ws.runtime as unknown as { killExec: (id: string, o?: unknown) => Promise<void> };
      const killExec = runtime.killExec.bind(runtime);
      runtime.killExec = (id, o) => {
        kills.push(id);
        return killExec(id, o);
      };
      const loaded = await loadToolDirectories({ workspace: ws, dirs: ["/workspace/tools"] });
      return fn({ ws, loaded, kills });
    },
    { javascript: { egress: { mode: "direct" } }, workspace: options.observer ? { observer: options.observer } : {} },
  );
}

/** One scripted model turn for streamText: tool calls, or a final text. */
export type StreamTurn = { calls: Array<[id: string, tool: string, input: unknown]> } | { text: string };

/** A MockLanguageModelV4 whose doStream plays `turns` in order (a fresh stream per call). */
export function streamingModel(turns: StreamTurn[]): MockLanguageModelV4 {
  let index = 0;
  return new MockLanguageModelV4({
    doStream: async () => {
      const turn = turns[index++] ?? { text: "(script ended)" };
      const parts: unknown[] = [{ type: "stream-start", warnings: [] }];
      if ("text" in turn) {
        parts.push({ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: turn.text }, { type: "text-end", id: "t" });
        parts.push({ type: "finish", finishReason: { unified: "stop", raw: undefined }, usage });
      } else {
        for (const [toolCallId, toolName, input] of turn.calls) parts.push({ type: "tool-call", toolCallId, toolName, input: JSON.stringify(input) });
        parts.push({ type: "finish", finishReason: { unified: "tool-calls", raw: undefined }, usage });
      }
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      } as never;
    },
  });
}

/** Captures everything written through console.* while `fn` runs (still printed). */
export async function captureConsole<T>(fn: () => Promise<T>): Promise<{ value: T; lines: string[] }> {
  const lines: string[] = [];
  const methods = ["log", "info", "warn", "error", "debug", "trace"] as const;
  const saved = methods.map((m) => console[m]);
  methods.forEach((m, i) => {
    console[m] = (...args: unknown[]) => {
      lines.push(args.map((a) => (typeof a === "string" ? a : a instanceof Error ? `${a.message}\n${a.stack ?? ""}` : safeJSON(a))).join(" "));
      (saved[i] as (...a: unknown[]) => void).apply(console, args);
    };
  });
  try {
    return { value: await fn(), lines };
  } finally {
    methods.forEach((m, i) => {
      console[m] = saved[i] as never;
    });
  }
}

/** JSON of anything (cycles and throwing getters as a marker), for searching captured output. */
export function safeJSON(value: unknown): string {
  try {
    const seen = new WeakSet<object>();
    return (
      JSON.stringify(value, (_k, v: unknown) => {
        if (v instanceof Error) return { message: v.message, stack: v.stack, cause: v.cause };
        if (v && typeof v === "object") {
          if (seen.has(v)) return "[cycle]";
          seen.add(v);
        }
        return typeof v === "bigint" ? String(v) : v;
      }) ?? String(value)
    );
  } catch {
    return "[unserialisable]";
  }
}

/** What the model saw for one call, whatever the library: the text, and whether it was an error. */
export interface SeenResult {
  text: string;
  isError: boolean;
}

/** One library's real loop over a scripted model: one tool call per turn, then the text "done". */
export interface LoopDriver {
  name: string;
  run(options: CreateToolsOptions, script: Array<[id: string, tool: string, input: unknown]>): Promise<{ offered: string[]; seen: Record<string, SeenResult>; final: string }>;
}

/** The AI SDK's output for a call as {@link SeenResult}: text, `{ error }` JSON, or the AI SDK's own error text. */
function fromAISDK(output: unknown): SeenResult {
  const o = output as { type: string; value: unknown } | undefined;
  if (o?.type === "text") return { text: o.value as string, isError: false };
  if (o?.type === "error-text") return { text: o.value as string, isError: true };
  if (o?.type === "json" && o.value && typeof o.value === "object" && "error" in o.value) return { text: (o.value as { error: string }).error, isError: true };
  return { text: safeJSON(output), isError: false };
}

/** TanStack's tool message content as {@link SeenResult}: the text, or `{"error":…}` JSON. */
function fromTanStack(content: unknown): SeenResult {
  if (typeof content !== "string") return { text: safeJSON(content), isError: false };
  if (content.startsWith('{"error":')) {
    try {
      return { text: (JSON.parse(content) as { error: string }).error, isError: true };
    } catch {
      /* not JSON: plain text */
    }
  }
  return { text: content, isError: false };
}

/**
 * The loops of every library: AI SDK generateText, pi's faux loop per major,
 * TanStack chat(). Call at the top of a describe block (pi 0.74's loop
 * registers an afterEach cleanup).
 */
export function loopDrivers(): LoopDriver[] {
  const drivers: LoopDriver[] = [
    {
      name: "AI SDK generateText",
      async run(options, script) {
        const model = new MockLanguageModelV4({ doGenerate: [...script.map(([id, tool, input]) => call(id, tool, input)), done] });
        const result = await generateText({ model, prompt: "go", tools: createAITools(options), stopWhen: stepCountIs(script.length + 2) });
        return {
          offered: (model.doGenerateCalls[0]!.tools ?? []).map((t) => t.name),
          seen: Object.fromEntries(script.map(([id]) => [id, fromAISDK(outputFor(model, id))])),
          final: result.text,
        };
      },
    },
  ];
  for (const major of PI_MAJORS) {
    const runLoop = major.piLoop();
    drivers.push({
      name: `pi ${major.name}`,
      async run(options, script) {
        const tools = createPiTools(options);
        const result = await runLoop(tools, [...script.map(([id, tool, input]) => step(major, major.fauxToolCall(tool, input as Record<string, unknown>, { id }))), major.fauxAssistantMessage("done")]);
        const last = result.context.messages.at(-1) as { content: Array<{ type: string; text?: string }> };
        return {
          offered: tools.tools.map((t) => t.name),
          seen: Object.fromEntries(
            script.map(([id]) => {
              const r = result.results.get(id);
              return [id, r ? { text: r.content.map((b) => b.text ?? "").join("\n"), isError: r.isError } : { text: "(no result)", isError: false }];
            }),
          ),
          final: last.content.map((b) => b.text ?? "").join(""),
        };
      },
    });
  }
  drivers.push({
    name: "TanStack chat()",
    async run(options, script) {
      const tools = createTanStackTools(options);
      const { adapter, seen } = scriptedAdapter([...script.map(([id, name, input]) => ({ calls: [{ id, name, input }] })), { text: "done" }]);
      const stream = chat({ adapter: adapter as never, messages: [{ role: "user", content: "go" }], tools: tools as never, agentLoopStrategy: maxIterations(script.length + 2) });
      const chunks: Array<Record<string, unknown>> = [];
      for await (const chunk of stream as AsyncIterable<Record<string, unknown>>) chunks.push(chunk);
      const last = seen.at(-1)!.messages as Array<{ role: string; toolCallId?: string; content: unknown }>;
      return {
        offered: (seen[0]!.tools as Array<{ name: string }>).map((t) => t.name),
        seen: Object.fromEntries(script.map(([id]) => [id, fromTanStack(last.find((m) => m.role === "tool" && m.toolCallId === id)?.content)])),
        final: chunks.filter((c) => c.type === "TEXT_MESSAGE_CONTENT").map((c) => c.delta).join(""),
      };
    },
  });
  return drivers;
}
