/**
 * The SCRIPTED model: a real AI SDK `LanguageModelV4` that needs no network or
 * credentials. It plays the agent's part by reading the tool results in its
 * prompt and issuing the next tool call of a fixed plan — explore, locate,
 * read with continuation, edit, a shell step that writes a file with sed, exec
 * the check on worker-javascript — then writes a report. It is
 * labelled as scripted everywhere it appears; set a provider key to let a
 * real model drive the same loop (see model.ts).
 */
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamResult,
} from "@ai-sdk/provider";
import { checkModule, nameCommand, type Task } from "./task.js";

interface PastCall {
  name: string;
  input: Record<string, unknown>;
  output: unknown;
}

/** Tool calls and their results, in order, from the prompt. */
function history(options: LanguageModelV4CallOptions): PastCall[] {
  const calls = new Map<string, PastCall>();
  const order: PastCall[] = [];
  for (const message of options.prompt) {
    if (message.role === "assistant") {
      for (const part of message.content) {
        if (part.type === "tool-call") {
          const call: PastCall = { name: part.toolName, input: (part.input ?? {}) as Record<string, unknown>, output: undefined };
          calls.set(part.toolCallId, call);
          order.push(call);
        }
      }
    } else if (message.role === "tool") {
      for (const part of message.content) {
        if (part.type !== "tool-result") continue;
        const call = calls.get(part.toolCallId);
        if (!call) continue;
        const output = part.output as { type: string; value?: unknown };
        call.output = output.type === "json" || output.type === "text" || output.type === "error-text" ? output.value : output;
      }
    }
  }
  return order;
}

const relative = (root: string, path: string) => (path.startsWith(root + "/") ? path.slice(root.length + 1) : path.replace(/^\//, ""));

export class ScriptedModel implements LanguageModelV4 {
  readonly specificationVersion = "v4" as const;
  readonly provider = "scripted";
  readonly modelId = "agent-computer-scripted";
  readonly supportedUrls = {};
  readonly #task: Task;
  #calls = 0;

  constructor(task: Task) {
    this.#task = task;
  }

  #tools = new Set<string>();

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    this.#tools = new Set((options.tools ?? []).map((tool) => tool.name));
    const next = this.#next(history(options));
    const content: LanguageModelV4Content[] =
      next.kind === "tool"
        ? [
            { type: "text", text: next.say },
            { type: "tool-call", toolCallId: `scripted-${++this.#calls}`, toolName: next.name, input: JSON.stringify(next.input) },
          ]
        : [{ type: "text", text: next.text }];
    return {
      content,
      finishReason: { unified: next.kind === "tool" ? "tool-calls" : "stop", raw: undefined },
      usage: {
        inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 0, text: 0, reasoning: 0 },
      },
      warnings: [],
    } as LanguageModelV4GenerateResult;
  }

  async doStream(): Promise<LanguageModelV4StreamResult> {
    throw new Error("the scripted model supports generateText only");
  }

  #next(past: PastCall[]): { kind: "tool"; name: string; input: Record<string, unknown>; say: string } | { kind: "text"; text: string } {
    const task = this.#task;
    const done = (name: string) => past.filter((c) => c.name === name);
    const tool = (name: string, input: Record<string, unknown>, say: string) => ({ kind: "tool" as const, name, input, say });

    if (done("ls").length === 0) return tool("ls", { path: task.root }, `Scripted plan: look at ${task.root} first.`);
    if (done("find").length === 0) {
      return tool("find", { path: task.root, pattern: "**/*.{js,mjs}", exclude: task.locate.exclude, limit: 40 }, "List the JavaScript sources.");
    }
    const shell = past.filter((c) => c.name === "exec" && c.input.backend === "worker-shell");
    if (shell.length === 0 && this.#tools.has("exec")) {
      return tool("exec", { backend: "worker-shell", command: task.survey, cwd: task.root }, "Survey the sources in the shell: grep -rn, find | wc -l.");
    }
    const greps = done("grep");
    if (greps.length === 0) {
      const { query, regex, include, exclude } = task.locate;
      return tool("grep", { path: task.root, query, regex, include, exclude, limit: 5 }, "Find where the change belongs.");
    }
    const match = (greps[0].output as { matches?: { path: string; line: number; text: string }[] } | undefined)?.matches?.[0];
    if (!match) return { kind: "text", text: `SCRIPTED model: no match for ${JSON.stringify(task.locate.query)} under ${task.root}; nothing to change.` };

    const reads = done("read").filter((c) => c.input.path === match.path);
    const last = reads.at(-1)?.output as { truncated?: boolean; nextOffset?: number; nextByteOffset?: number } | string | undefined;
    if (reads.length === 0) return tool("read", { path: match.path, limit: 40 }, `Read ${match.path}, 40 lines at a time.`);
    if (reads.length < 3 && typeof last === "object" && last?.truncated && last.nextOffset !== undefined) {
      return tool(
        "read",
        { path: match.path, offset: last.nextOffset, byteOffset: last.nextByteOffset, limit: 40 },
        "Continue from nextOffset/nextByteOffset instead of re-reading.",
      );
    }
    const edits = done("edit");
    if (edits.length === 0) {
      return tool(
        "edit",
        { path: match.path, edits: [{ oldText: match.text, newText: task.insertion + match.text }] },
        `Add ${task.symbol} just above line ${match.line}.`,
      );
    }
    if (shell.length === 1 && this.#tools.has("exec")) {
      return tool(
        "exec",
        { backend: "worker-shell", command: nameCommand(task, relative(task.root, match.path)), cwd: task.root },
        "In the shell, write check-name.js with sed from the edited file.",
      );
    }
    const execs = past.filter((c) => c.name === "exec" && c.input.backend === "worker-javascript");
    if (execs.length === 0 && this.#tools.has("exec")) {
      return tool(
        "exec",
        { backend: "worker-javascript", command: checkModule(task, relative(task.root, match.path)), cwd: task.root },
        "Run a module that imports the edited file and check-name.js, and checks them.",
      );
    }
    if (execs.length === 0) {
      return { kind: "text", text: `SCRIPTED model report: added ${task.symbol}() to ${match.path} with edit, but no exec tool was offered, so it is unchecked.` };
    }
    const exec = (execs[0].output ?? {}) as { exitCode?: number; result?: unknown; error?: string };
    const execResult = exec.error ?? `exit ${exec.exitCode}, returned ${JSON.stringify(exec.result ?? null)}`;
    const verified = (exec.result as { verified?: unknown } | undefined)?.verified === true;
    return {
      kind: "text",
      text:
        `SCRIPTED model report: surveyed the sources in the shell, added ${task.symbol}() to ${match.path} with edit, ` +
        `wrote check-name.js with sed in the shell, then ran a worker-javascript module importing ./${relative(task.root, match.path)} ` +
        `and ./check-name.js; the check ${verified ? "passed" : "did not pass"} (${execResult.slice(0, 200)}).`,
    };
  }
}
