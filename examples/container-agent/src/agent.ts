/**
 * Seed 004's agent: a Durable Object whose Workspace has two backends —
 * `worker-javascript` (Dynamic Workers on `LOADER`) with the `ws:container`
 * host module, and `ContainerBackend`, a full Linux container the object
 * schedules. The model is offered JavaScript only (`exec: {
 * "worker-javascript": {} }`); the container is reached from that
 * JavaScript with `import { exec } from "ws:container"`, and each command
 * gets the sync bracket: Workspace changes pushed before, the container's
 * changes pulled after.
 *
 * Without `ctx.container` (`wrangler dev` with `enable_containers = false`,
 * the tests) and with `COMPUTER_CONTAINER_HOST` set, `withWorkspaceContainer`
 * runs the same daemon on the local container host instead.
 *
 * In your project, import from "agent-computer",
 * "agent-computer/backends/container", "agent-computer/modules/container",
 * "agent-computer/backends/worker-javascript" and
 * "agent-computer/tools/ai-sdk" instead of ../../../src.
 */
import { DurableObject } from "cloudflare:workers";
import { generateText, stepCountIs, type ToolSet } from "ai";
import { Workspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { ContainerBackend, withWorkspaceContainer } from "../../../src/backends/container/index.js";
import { createContainerModule } from "../../../src/modules/container.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import type { Env } from "./env.js";
import { chooseModel } from "./model.js";
import { APP, PROMPT, type TestRun } from "./project.js";

/** What `POST /run` answers. */
export interface TurnResult {
  /** The model's label; `SCRIPTED …` without credentials. */
  model: string;
  scripted: boolean;
  /** The tools the model was offered. */
  tools: string[];
  /** Model steps taken. */
  steps: number;
  /** The model's final text. */
  text: string;
  /** `npm test`'s exit code, as the exec'd module returned it; `null` when no run returned one. */
  exitCode: number | null;
  /** `npm test`'s stdout (the spec reporter) and stderr. */
  stdout: string;
  stderr: string;
  /** The sync status of the command (`complete`, or `pending` when the pull failed). */
  sync: string | null;
  /** Files the agent wrote with the file tools this turn (sorted). */
  written: string[];
  /** Files under the project in the Workspace now that no file tool wrote: the command made them, the sync pulled them (sorted). */
  pulled: string[];
}

/** The Durable Object base the mixin extends (named, so the class's declaration can name it). */
export class AgentBase extends DurableObject<Env> {}

export class Agent extends withWorkspaceContainer(AgentBase) {
  backend = new ContainerBackend({
    container: () => this,
    workspace: { binding: "AGENT", id: this.ctx.id.toString() },
    egress: { mode: "direct" },
    ignore: ["**/node_modules"],
  });

  workspace = new Workspace({
    storage: this.ctx.storage,
    backends: [new WorkerJavaScriptBackend({ loader: this.env.LOADER, modules: { "ws:container": createContainerModule() } }), this.backend],
  });

  /** Offer only JavaScript; the container is reached through ws:container. */
  getTools(): ToolSet {
    return createAITools({ workspace: this.workspace, exec: { "worker-javascript": {} } }) as ToolSet;
  }

  /** The container's requests (the daemon dialling back on `/api`) go to the backend. */
  override async fetch(request: Request): Promise<Response> {
    return this.backend.handleFetch(request);
  }

  /** A Workspace file's text (e.g. the JUnit report the command wrote). @throws WorkspaceFsError `ENOENT` when missing. */
  async readFile(path: string): Promise<string> {
    return this.workspace.fs.readFile(path, "utf8");
  }

  /** One agent turn: write the project, run `npm test` in the container through ws:container, report. */
  async run(): Promise<TurnResult> {
    const chosen = chooseModel(this.env);
    const tools = this.getTools();
    const result = await generateText({
      model: chosen.model,
      system: "You are a coding agent with a durable Workspace. Paths are absolute. Use the tools.",
      prompt: PROMPT,
      tools,
      stopWhen: stepCountIs(12),
    });

    const calls = result.steps.flatMap((step) => step.toolCalls);
    const outputs = result.steps.flatMap((step) => step.toolResults);
    const written = new Set(calls.filter((c) => c.toolName === "write" || c.toolName === "edit").map((c) => (c.input as { path: string }).path));
    // The last exec whose module returned a test run.
    const run = outputs
      .filter((r) => r.toolName === "exec")
      .map((r) => (r.output as { result?: Partial<TestRun> }).result)
      .filter((r): r is Partial<TestRun> => typeof r?.exitCode === "number")
      .at(-1);
    const files = await this.workspace.fs.ls(APP);

    return {
      model: chosen.label,
      scripted: chosen.scripted,
      tools: Object.keys(tools),
      steps: result.steps.length,
      text: result.text,
      exitCode: run?.exitCode ?? null,
      stdout: run?.stdout ?? "",
      stderr: run?.stderr ?? "",
      sync: run?.sync ?? null,
      written: [...written].sort(),
      pulled: files.filter((path) => !written.has(path)).sort(),
    };
  }
}
