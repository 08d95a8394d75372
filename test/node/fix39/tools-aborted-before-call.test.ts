/**
 * Issue 20, run 39, fixer AB (sibling of test/node/attack39g/aborted-run-still-starts-later-tool-calls.test.ts):
 * a tool call made with an abort signal that has already fired does nothing, for every tool of the set — read, ls,
 * find, grep, write, edit, delete, exec, publish and a TOOL.md directory tool — through every adapter (the AI SDK's
 * tool `execute`, pi's `execute(call, { abortSignal })`, TanStack's tool `execute` and its `chat()` loop). It
 * answers with `Aborted: the agent run was stopped before this call started; the call did nothing.` in the tool's
 * own error shape, and leaves the Workspace's storage byte for byte as it was: no file read into the stale-write
 * ledger, written, edited or removed, no run started on the backend, nothing shared through `assets`.
 * Control: a signal aborted only after the call finished changes nothing — the call's effect stays, no run is
 * killed.
 */
import { chat } from "@tanstack/ai";
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { createAITools, createWriteTool } from "../../../src/tools/ai-sdk.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import { defineExec } from "../../../src/tools/core.js";
import { WorkspaceFileStore } from "../../../src/tools/core/store.js";
import { ABORTED_CALL_MESSAGE } from "../../../src/tools/core/types.js";
import type { ToolDirectory } from "../../../src/tool-dirs/types.js";
import { RecordingAssets } from "../tools/publish-helpers.js";
import { scriptedAdapter } from "../tools/tanstack-helpers.js";
import { ScriptBackend } from "../runtime/script-backend.js";

const MSG = "Aborted: the agent run was stopped before this call started; the call did nothing.";

const STAMP: ToolDirectory = {
  name: "stamp",
  label: "stamp",
  description: "Writes a stamp.",
  summary: "Writes a stamp.",
  body: "",
  version: 1,
  language: "javascript",
  inputs: { text: { name: "text", type: "string", description: "what to stamp", optional: false, sensitive: false } },
  mutating: true,
  env: [],
  dir: "/workspace/tools/stamp",
  toolFile: "/workspace/tools/stamp/TOOL.md",
  entry: "/workspace/tools/stamp/index.js",
  root: "/workspace/tools",
};

/** Every tool of the set, with a valid call that would read, change or run something. */
const CALLS: Record<string, Record<string, unknown>> = {
  read: { path: "/workspace/a.txt" },
  ls: { path: "/workspace" },
  find: { pattern: "*.txt", path: "/workspace" },
  grep: { query: "alpha", path: "/workspace" },
  write: { path: "/workspace/new.txt", content: "n" },
  edit: { path: "/workspace/a.txt", edits: [{ oldText: "alpha", newText: "beta" }] },
  delete: { path: "/workspace/a.txt" },
  exec: { command: "out hi" },
  publish: { path: "/workspace/a.txt" },
  stamp: { text: "x" },
};
const NAMES = Object.keys(CALLS);

/** The tool's own error shape, as the core tool returns it (the AI SDK's `execute` value). */
function abortedOutput(name: string): unknown {
  if (name === "exec") return { command: "out hi", cwd: null, backend: "js", error: MSG };
  if (name === "publish") return { ok: false, error: MSG };
  return { error: MSG };
}

async function setup(options: { requireFreshRead?: boolean } = {}) {
  const backend = new ScriptBackend({ id: "js" });
  let runs = 0;
  backend.onExec = () => void runs++;
  let assets!: RecordingAssets;
  const workspace = new Workspace({
    storage: nodeSqliteStorage(":memory:"),
    backends: [backend],
    assets: (ws: Workspace) => (assets = new RecordingAssets(ws)),
  });
  await workspace.fs.mkdir("/workspace/tools/stamp", { recursive: true });
  await workspace.fs.writeFile("/workspace/a.txt", "alpha\n");
  await workspace.fs.writeFile("/workspace/tools/stamp/TOOL.md", "---\nname: stamp\ndescription: Writes a stamp.\n---\n");
  await workspace.fs.writeFile("/workspace/tools/stamp/index.js", "export default async () => ({ content: [{ type: 'text', text: 'ok' }] });\n");
  const set = {
    workspace,
    toolDirectories: { tools: [STAMP] },
    ...(options.requireFreshRead ? { write: { requireFreshRead: true } } : {}),
  };
  const adapters = {
    ai: () => {
      const tools = createAITools(set);
      return (name: string, input: unknown, abortSignal?: AbortSignal) =>
        final(tools[name]!.execute!(input as never, { toolCallId: "c1", messages: [], ...(abortSignal ? { abortSignal } : {}) } as never));
    },
    pi: () => {
      const { execute } = createPiTools(set);
      return (name: string, input: unknown, abortSignal?: AbortSignal) =>
        execute({ id: "c1", name, arguments: input as Record<string, unknown> }, abortSignal ? { abortSignal } : undefined) as Promise<unknown>;
    },
    tanstack: () => {
      const tools = createTanStackTools({ ...set, format: "object" });
      return (name: string, input: unknown, abortSignal?: AbortSignal) => tools[name]!.execute(input, { toolCallId: "c1", ...(abortSignal ? { abortSignal } : {}) });
    },
  };
  return { workspace, backend, adapters, runs: () => runs, shares: () => assets.calls.length };
}

/** A promise's value, or an async iterable's last value (exec and directory tools under the AI SDK). */
async function final(value: unknown): Promise<unknown> {
  const v = await value;
  if (v !== null && typeof v === "object" && typeof (v as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function") {
    let last: unknown;
    for await (const item of v as AsyncIterable<unknown>) last = item;
    return last;
  }
  return v;
}

/** Every path under `/` with its kind, mode, mtime and bytes: the Workspace's storage as the tools see it. */
async function dump(workspace: Workspace): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await workspace.fs.readdir(dir)) {
      const path = `${dir === "/" ? "" : dir}/${entry.name}`;
      const stat = await workspace.fs.lstat(path);
      if (entry.isDirectory) {
        out.push(`${path}/ ${stat.mode} ${stat.mtime}`);
        await walk(path);
      } else {
        const bytes = new Uint8Array(await new Response(await workspace.fs.readFile(path)).arrayBuffer());
        out.push(`${path} ${stat.mode} ${stat.mtime} ${Buffer.from(bytes).toString("hex")}`);
      }
    }
  };
  await walk("/");
  return out.sort();
}

/** True for any adapter's failure shape: `{ error }`, `{ ok: false }`, pi's `isError`. */
function failed(result: unknown): boolean {
  const r = result as { error?: unknown; ok?: unknown; isError?: unknown };
  return typeof r === "object" && r !== null && (typeof r.error === "string" || r.ok === false || r.isError === true);
}

/** The expected aborted result of `name` through `adapter`. */
function expected(adapter: "ai" | "pi" | "tanstack", name: string): unknown {
  const core = abortedOutput(name);
  if (adapter === "ai") return name === "stamp" ? { error: MSG } : core;
  if (adapter === "tanstack") return { error: MSG };
  const details = name === "stamp" ? { content: [{ type: "text", text: MSG }], isError: true } : core;
  return { content: [{ type: "text", text: MSG }], isError: true, details };
}

describe("a call with an already-aborted signal does nothing, every tool × every adapter", () => {
  it("the message is the exported one", () => {
    expect(ABORTED_CALL_MESSAGE).toBe(MSG);
  });

  for (const adapter of ["ai", "pi", "tanstack"] as const) {
    it(`${adapter}: every tool of the set answers the aborted error and leaves storage, runs and shares untouched`, async () => {
      const ws = await setup();
      const call = ws.adapters[adapter]();
      const before = await dump(ws.workspace);
      for (const name of NAMES) {
        const result = await call(name, structuredClone(CALLS[name]), AbortSignal.abort());
        expect({ name, result }).toEqual({ name, result: expected(adapter, name) });
      }
      expect(await dump(ws.workspace)).toEqual(before);
      expect(ws.runs()).toBe(0);
      expect(ws.backend.killed).toEqual([]);
      expect(ws.shares()).toBe(0);
    });

    it(`${adapter}: the set has no tool the loop above missed`, async () => {
      const ws = await setup();
      const names =
        adapter === "ai"
          ? Object.keys(createAITools({ workspace: ws.workspace, toolDirectories: { tools: [STAMP] } }))
          : adapter === "pi"
            ? createPiTools({ workspace: ws.workspace, toolDirectories: { tools: [STAMP] } }).tools.map((t) => t.name)
            : createTanStackTools({ workspace: ws.workspace, toolDirectories: { tools: [STAMP] } }).map((t) => t.name);
      expect(names).toEqual(NAMES);
    });

    it(`${adapter}: an aborted read is not recorded as read — a guarded write still refuses the unread file`, async () => {
      const ws = await setup({ requireFreshRead: true });
      const call = ws.adapters[adapter]();
      expect(await call("read", { path: "/workspace/a.txt" }, AbortSignal.abort())).toEqual(expected(adapter, "read"));
      const refused = await call("write", { path: "/workspace/a.txt", content: "over" });
      expect(JSON.stringify(refused)).toContain("has not been read");
      expect(await ws.workspace.fs.readFile("/workspace/a.txt", "utf8")).toBe("alpha\n");
    });

    it(`${adapter}: control — a signal aborted after the call finished changes nothing`, async () => {
      for (const name of NAMES) {
        const ws = await setup();
        const call = ws.adapters[adapter]();
        const stop = new AbortController();
        const result = await call(name, structuredClone(CALLS[name]), stop.signal);
        expect({ name, aborted: JSON.stringify(result).includes(MSG) }).toEqual({ name, aborted: false });
        // a success (the directory tool's entry is not a script the stand-in backend runs: only its run counts)
        if (name !== "stamp") expect({ name, failed: failed(result) }).toEqual({ name, failed: false });
        const after = await dump(ws.workspace);
        const runs = ws.runs();
        stop.abort();
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(await dump(ws.workspace)).toEqual(after);
        expect(ws.runs()).toBe(runs);
        expect(ws.backend.killed).toEqual([]);
        // what the call did is there
        if (name === "write") expect(await ws.workspace.fs.readFile("/workspace/new.txt", "utf8")).toBe("n");
        if (name === "edit") expect(await ws.workspace.fs.readFile("/workspace/a.txt", "utf8")).toBe("beta\n");
        if (name === "delete") expect(await ws.workspace.fs.stat("/workspace/a.txt").then(() => true, () => false)).toBe(false);
        if (name === "exec" || name === "stamp") expect(runs).toBe(1);
        if (name === "publish") expect(ws.shares()).toBe(1);
      }
    });
  }

  it("defineExec (no adapter) and createWriteTool: an aborted signal starts no run and writes nothing", async () => {
    const ws = await setup();
    const snapshots: unknown[] = [];
    for await (const s of defineExec({ workspace: ws.workspace }).execute({ command: "out hi", backend: "js" }, { abortSignal: AbortSignal.abort() })) snapshots.push(s);
    expect(snapshots).toEqual([{ command: "out hi", cwd: null, backend: "js", error: MSG }]);
    const write = createWriteTool({ store: new WorkspaceFileStore(ws.workspace) });
    expect(await write.execute!({ path: "/workspace/new.txt", content: "n" }, { toolCallId: "w", messages: [], abortSignal: AbortSignal.abort() } as never)).toEqual({ error: MSG });
    expect(await ws.workspace.fs.stat("/workspace/new.txt").then(() => true, () => false)).toBe(false);
    expect(ws.runs()).toBe(0);
  });

  it("an invalid exec call with an aborted signal still reports its arguments first (nothing runs either way)", async () => {
    const ws = await setup();
    const snapshots: unknown[] = [];
    for await (const s of defineExec({ workspace: ws.workspace }).execute({ command: 1 } as never, { abortSignal: AbortSignal.abort() })) snapshots.push(s);
    expect(snapshots).toHaveLength(1);
    expect((snapshots[0] as { error: string }).error).toMatch(/^Invalid arguments for exec: /);
    expect(ws.runs()).toBe(0);
  });

  it("TanStack chat(): stop pressed during a step's first call — every later mutating call of the step does nothing", async () => {
    const ws = await setup();
    const tools = createTanStackTools({ workspace: ws.workspace, toolDirectories: { tools: [STAMP] } });
    const later = ["write", "edit", "delete", "exec", "publish", "stamp"];
    const { adapter } = scriptedAdapter([
      {
        calls: [
          { id: "t0", name: "exec", input: { command: "out a\nhang\nout b" } },
          ...later.map((name, i) => ({ id: `t${i + 1}`, name, input: CALLS[name] })),
        ],
      },
      { text: "ok" },
    ]);
    const stop = new AbortController();
    ws.backend.onExec = () => {
      setTimeout(() => stop.abort(), 20);
    };
    const before = await dump(ws.workspace);
    const results = new Map<string, unknown>();
    try {
      for await (const chunk of chat({ adapter: adapter as never, messages: [{ role: "user", content: "go" }], tools: tools as never, abortController: stop }) as AsyncIterable<Record<string, unknown>>) {
        const text = chunk.result ?? chunk.content;
        if ((chunk.type === "TOOL_CALL_END" || chunk.type === "TOOL_CALL_RESULT") && typeof text === "string") results.set(chunk.toolCallId as string, JSON.parse(text));
      }
    } catch {
      /* an aborted chat may end with an error */
    }
    expect(results.get("t0")).toMatchObject({ exitCode: 130 });
    later.forEach((name, i) => expect({ name, result: results.get(`t${i + 1}`) }).toEqual({ name, result: { error: MSG } }));
    expect(await dump(ws.workspace)).toEqual(before);
    expect(ws.backend.runs.size).toBe(1);
    expect(ws.shares()).toBe(0);
  });
});
