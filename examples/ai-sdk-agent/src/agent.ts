/**
 * The agent: a Durable Object with a Workspace (withWorkspace), the AI SDK
 * tools built from it, and a generateText tool loop. `run()` streams a
 * transcript (NDJSON: one event per line) while the loop works.
 *
 * Two exec backends: JavaScript modules (worker-javascript) and a bash shell
 * (worker-shell); the exec tool asks the model to pick one per call.
 *
 * In your project, import from "agent-computer", "agent-computer/tools/ai-sdk",
 * "agent-computer/backends/worker-javascript" and
 * "agent-computer/backends/worker-shell" instead of ../../../src.
 */
import { DurableObject } from "cloudflare:workers";
import { generateText, stepCountIs, type Tool, type ToolSet } from "ai";
import { getWorkspace, withWorkspace } from "../../../src/index.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { WorkerShellBackend } from "../../../src/backends/worker-shell/index.js";
import type { Env } from "./env.js";
import { chooseModel } from "./model.js";
import { CHECK_NAME_FILE, checkModule, diffTask, genericTask, type Task } from "./task.js";

/** One line of the transcript. */
export type TranscriptEvent =
  | { type: "start"; model: string; scripted: boolean; project: string; root: string; tools: string[] }
  | { type: "say"; text: string }
  | { type: "call"; step: number; name: string; input: unknown }
  | { type: "result"; step: number; name: string; ok: boolean; summary: string }
  | { type: "verify"; verified: boolean; file?: string; detail: string }
  | { type: "end"; verified: boolean; summary: string };

/** What `/run` asks for. */
export interface RunRequest {
  root: string;
  project: string;
  /** `"diff"` for the default jsdiff task, `"generic"` for `--dir`. */
  kind: "diff" | "generic";
  maxSteps?: number;
}

class AgentBase extends DurableObject<Env> {
  /** `ctx` and `env` are protected; expose what the Workspace options need. */
  get storage(): DurableObjectStorage {
    return this.ctx.storage;
  }
  get bindings(): Env {
    return this.env;
  }
}

export class Agent extends withWorkspace(AgentBase, (self) => ({
  storage: self.storage,
  backends: [new WorkerJavaScriptBackend({ loader: self.bindings.LOADER }), new WorkerShellBackend({ loader: self.bindings.LOADER })],
})) {
  /** Runs the task; resolves at once to a byte stream of NDJSON transcript events. */
  async run(request: RunRequest): Promise<ReadableStream<Uint8Array>> {
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    const writer = writable.getWriter();
    const encoder = new TextEncoder();
    const emit = (event: TranscriptEvent) => writer.write(encoder.encode(JSON.stringify(event) + "\n")).catch(() => {});
    this.ctx.waitUntil(
      this.#loop(request, emit)
        .catch((error: unknown) => emit({ type: "end", verified: false, summary: `FAILED: ${error instanceof Error ? error.message : String(error)}` }))
        .finally(() => writer.close().catch(() => {})),
    );
    return readable;
  }

  async #loop(request: RunRequest, emit: (event: TranscriptEvent) => unknown): Promise<void> {
    const task: Task = request.kind === "diff" ? diffTask(request.root, request.project) : genericTask(request.root, request.project);
    using workspace = await getWorkspace(this);
    const chosen = chooseModel(this.env, task);
    const execOutputs: unknown[] = [];
    const tools = observe(createAITools({ workspace }), emit, (name, output) => {
      if (name === "exec") execOutputs.push(output);
    });
    emit({ type: "start", model: chosen.label, scripted: chosen.scripted, project: task.project, root: task.root, tools: Object.keys(tools) });

    const result = await generateText({
      model: chosen.model,
      system:
        "You are a careful coding agent working in a durable Workspace. Paths are absolute. " +
        "Use the tools; keep changes minimal; verify with exec before you report.",
      prompt: task.prompt,
      tools,
      stopWhen: stepCountIs(request.maxSteps ?? 16),
    });
    if (result.text.trim()) emit({ type: "say", text: result.text.trim() });

    // Independent check by the host: find the edited file, run the check module on the worker-javascript backend.
    const found = await workspace.fs.grep(`export function ${task.symbol}(`, task.root, { include: "**/*.{js,mjs}", limit: 1 });
    if (found.length === 0) {
      emit({ type: "verify", verified: false, detail: `no file under ${task.root} defines ${task.symbol}()` });
      emit({ type: "end", verified: false, summary: `NOT VERIFIED: the change is not in the Workspace (${result.steps.length} steps)` });
      return;
    }
    const file = found[0].path;
    const relativePath = file.slice(task.root.length + 1);
    // The check imports the file the agent's shell step wrote with sed.
    const named = await workspace.fs.readFile(`${task.root}/${CHECK_NAME_FILE}`, "utf8").catch(() => null);
    if (named === null) {
      emit({ type: "verify", verified: false, file, detail: `the shell step did not write ${task.root}/${CHECK_NAME_FILE}` });
      emit({ type: "end", verified: false, summary: `NOT VERIFIED: no ${CHECK_NAME_FILE} from the shell (${result.steps.length} steps)` });
      return;
    }
    using handle = await workspace.runtime.exec(checkModule(task, relativePath), { backend: "worker-javascript", cwd: task.root, encoding: "utf8" });
    const outcome = (await handle.result()) as { exitCode: number; value?: { verified?: boolean }; stdout: string; stderr: string };
    const hostCheck = outcome.exitCode === 0 && outcome.value?.verified === true;
    // The agent must also have checked its own change through the exec tool.
    const agentCheck = execOutputs.some((output) => /"verified":true/.test(JSON.stringify(output)));
    const shellSteps = execOutputs.filter((output) => (output as { backend?: string }).backend === "worker-shell" && (output as { exitCode?: number }).exitCode === 0).length;
    const verified = hostCheck && agentCheck;
    const detail = `${outcome.stdout.trim()}${outcome.stderr.trim() ? ` | stderr: ${outcome.stderr.trim()}` : ""} → ${JSON.stringify(outcome.value ?? null)} (${CHECK_NAME_FILE}: ${named.trim()})`;
    emit({ type: "verify", verified: hostCheck, file, detail });
    emit({
      type: "end",
      verified,
      summary: verified
        ? `VERIFIED: ${task.symbol}() added to ${file} with edit, ${shellSteps} shell step${shellSteps === 1 ? "" : "s"} on worker-shell, checked by the agent's exec and again by the host on worker-javascript (${result.steps.length} model steps, ${chosen.label})`
        : !hostCheck
          ? `NOT VERIFIED: the check of ${file} failed (${detail})`
          : `NOT VERIFIED: the change is in ${file}, but the agent never checked it with exec${"exec" in tools ? "" : " (no exec tool was offered)"}`,
    });
  }
}

/** Wraps each tool so the transcript shows the call and a short result as they happen. */
function observe(tools: ToolSet, emit: (event: TranscriptEvent) => unknown, onOutput: (name: string, output: unknown) => void): ToolSet {
  let step = 0;
  const out: ToolSet = {};
  for (const [name, tool] of Object.entries(tools)) {
    const execute = tool.execute;
    if (!execute) {
      out[name] = tool;
      continue;
    }
    out[name] = {
      ...tool,
      execute: async (input: unknown, options: Parameters<NonNullable<Tool["execute"]>>[1]) => {
        const n = ++step;
        emit({ type: "call", step: n, name, input });
        let output: unknown = await execute(input as never, options);
        if (output && typeof output === "object" && Symbol.asyncIterator in output) {
          let last: unknown;
          for await (const snapshot of output as AsyncIterable<unknown>) last = snapshot;
          output = last;
        }
        const error = output && typeof output === "object" && "error" in output ? String((output as { error: unknown }).error) : undefined;
        onOutput(name, output);
        emit({ type: "result", step: n, name, ok: error === undefined, summary: error ?? summarize(name === "exec" ? withoutCommand(output) : output) });
        return output;
      },
    } as Tool;
  }
  return out;
}

/** An exec result without the echoed source (the transcript already shows it). */
function withoutCommand(output: unknown): unknown {
  if (!output || typeof output !== "object") return output;
  const { command: _command, ...rest } = output as Record<string, unknown>;
  return rest;
}

function summarize(output: unknown): string {
  const text = typeof output === "string" ? output : JSON.stringify(output);
  const oneLine = (text ?? "").replace(/\s+/g, " ");
  return oneLine.length > 220 ? `${oneLine.slice(0, 217)}...` : oneLine;
}
