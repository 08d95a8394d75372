/**
 * Issue 20, thirty-ninth attack run: a tool call made with an abort signal that has already fired still runs — its
 * write is made, its exec run is started (and only then killed). TanStack's `chat()` runs a step's tool calls one
 * after another and hands every one the run's signal without looking at it, so a user who presses stop while the
 * first call of a step runs (`abortController.abort()`) has every later call of that step carried out anyway:
 * with the calls `exec "out a / hang"` → `write /workspace/y.txt` → `exec "out c"` and the abort during the first
 * run, the first run is killed (exit 130) but y.txt is then written (`{ path, bytesWritten: 1 }`) and a second run
 * is started (`exitCode: 0, stdout: "c"` from the script backend). pi's `execute(call, { abortSignal })` (the loop
 * docs/tools.md shows, passing the loop's stop signal to each call) does the same for a call made after the stop:
 * `execute({ name: "exec", … }, { abortSignal: AbortSignal.abort() })` starts the run, then kills it; `write`
 * writes. exec's `killOnAbort` kills only after `runtime.exec` has started the run, so whatever the run does before
 * the kill lands (a shell's `rm`, a module's first `writeFile` or `fetch`) is done after the user said stop.
 * Reference: the AI SDK's own loop starts no queued tool call once its signal is aborted (`mapWithConcurrency`:
 * "When the signal is aborted … no additional queued items are started", node_modules/ai/dist/index.js), and this
 * project's git client starts nothing for a signal aborted before the call (test/node/attack15b).
 * Tried: malformed calls through generateText (MockLanguageModelV4), pi's execute and TanStack chat() over a
 * scripted adapter — wrong types, negative/fractional/1e308 limits and offsets, byteOffset without offset, NUL and
 * file:// paths, `..`, a JSON string for `edits`, extra fields, tool names `constructor`/`toString`/
 * `hasOwnProperty`, a JSON-string exec `input`; delete of `/` and a non-empty directory; an abort signal that fired
 * before the call and one that fires during an earlier call of the same step; TanStack approvals (`editedArgs`
 * pass through raw, but find/grep fill their `path` default and directory tools re-check their params).
 * Held: every malformed call is a readable error in all three adapters and runs nothing; unknown names do not reach
 * Object.prototype; the running call is killed by the abort (exit 130).
 * Found (medium — after the user stops the agent, the step's remaining write/edit/delete/exec calls are still
 * carried out, and exec starts a run it then kills, so its first effects happen; 3 of 3 runs): below, y.txt exists
 * and the script backend saw 2 runs (TanStack), 1 run and x.txt written (pi).
 * Suggested fix: check the call's signal before doing anything — in src/tools/core (the exec generator in
 * exec.ts before `runtime.exec`, and the file tools' execute, e.g. once in buildCoreTools / each adapter's execute
 * wrapper: src/tools/tanstack-ai.ts `execute`, src/tools/pi-ai.ts `run`, src/tools/ai-sdk-tools.ts `toAITool`):
 * a signal already aborted answers `{ error: "Aborted: the agent run was stopped before this call started" }`
 * (exec: its error snapshot) without running anything.
 * Fixed: every tool checks the call's signal first through one core helper (`abortedCall`, src/tools/core/types.ts) —
 * read, ls, find, grep, write, edit, delete, publish and directory tools before touching anything, exec after its
 * argument check and before `runtime.exec` — and answers `Aborted: the agent run was stopped before this call started;
 * the call did nothing.` in its own error shape, so all three adapters (and defineExec) behave alike (issue 20, run 39,
 * fixer AB). Siblings: test/node/fix39/tools-aborted-before-call.test.ts.
 */
import { chat } from "@tanstack/ai";
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import { scriptedAdapter } from "../tools/tanstack-helpers.js";
import { ScriptBackend } from "../runtime/script-backend.js";

async function setup() {
  const backend = new ScriptBackend({ id: "js" });
  const workspace = new Workspace({ storage: nodeSqliteStorage(":memory:"), backends: [backend] });
  await workspace.fs.mkdir("/workspace", { recursive: true });
  return { workspace, backend };
}

const exists = (workspace: Workspace, path: string) => workspace.fs.stat(path).then(() => true, () => false);

describe("a tool call whose abort signal already fired runs nothing", () => {
  it("TanStack chat(): stop pressed during the first call of a step — the later calls of the step do not run", async () => {
    const { workspace, backend } = await setup();
    const tools = createTanStackTools({ workspace });
    const { adapter } = scriptedAdapter([
      {
        calls: [
          { id: "t1", name: "exec", input: { command: "out a\nhang\nout b" } },
          { id: "t2", name: "write", input: { path: "/workspace/y.txt", content: "y" } },
          { id: "t3", name: "exec", input: { command: "out c" } },
        ],
      },
      { text: "ok" },
    ]);
    const stop = new AbortController();
    // The user presses stop while the first run hangs (it waits for its kill).
    backend.onExec = () => {
      if (backend.runs.size === 1) setTimeout(() => stop.abort(), 20);
    };
    const results = new Map<string, unknown>();
    try {
      for await (const chunk of chat({ adapter: adapter as never, messages: [{ role: "user", content: "go" }], tools: tools as never, abortController: stop }) as AsyncIterable<Record<string, unknown>>) {
        const text = chunk.result ?? chunk.content;
        if ((chunk.type === "TOOL_CALL_END" || chunk.type === "TOOL_CALL_RESULT") && typeof text === "string") results.set(chunk.toolCallId as string, JSON.parse(text));
      }
    } catch {
      /* an aborted chat may end with an error; what matters is what the tools did */
    }
    // the running call was killed by the stop
    expect(results.get("t1")).toMatchObject({ exitCode: 130 });
    // nothing after the stop: no file, no second run
    expect(await exists(workspace, "/workspace/y.txt")).toBe(false);
    expect(backend.runs.size).toBe(1);
  });

  it("pi execute with a signal aborted before the call: exec starts no run, write writes nothing", async () => {
    const { workspace, backend } = await setup();
    const { execute } = createPiTools({ workspace });
    const exec = await execute({ id: "a", name: "exec", arguments: { command: "out hi" } }, { abortSignal: AbortSignal.abort() });
    const write = await execute({ id: "b", name: "write", arguments: { path: "/workspace/x.txt", content: "x" } }, { abortSignal: AbortSignal.abort() });
    expect(backend.runs.size).toBe(0);
    expect(exec.isError).toBe(true);
    expect(await exists(workspace, "/workspace/x.txt")).toBe(false);
    expect(write.isError).toBe(true);
  });
});
