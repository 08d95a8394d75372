/**
 * Issue 20, run 23 fix FA1 (siblings of test/workers/attack23a/ai-sdk-exec-return-waits-for-run-output.test.ts):
 * stopping a tool's output early settles at once and kills the run that nobody reads any more — exec and directory
 * tools, the core generators, the AI SDK adapter (by hand and under the SDK's own executeTool), the
 * TanStack adapter (an `emitCustomEvent` that throws), and `pacedValues` over any source. Real workerd, the
 * JavaScript backend; the run's outcome is read back with `runtime.getExec(id).result()`.
 */
import { describe, expect, it } from "vitest";
import { executeTool } from "@ai-sdk/provider-utils";
import { inWorkspace } from "../runtime/helpers.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import { defineExec, directoryToolDefinition } from "../../../src/tools/core/index.js";
import { CallAbort, pacedValues } from "../../../src/tools/core/directory.js";
import type { Workspace } from "../../../src/index.js";
import type { ToolRunWorkspace } from "../../../src/tool-dirs/run.js";
import { inToolWorkspace, toolAt } from "../tool-dirs/helpers.js";

/** Prints "first", is silent 30 s, prints "second". */
const SILENT = `export default async () => { console.log("first"); await new Promise((r) => setTimeout(r, 30000)); console.log("second"); return 1; };`;
/** Prints "first", then "second" 1.5 s later, then is silent 30 s. */
const TWO_THEN_SILENT = `export default async () => { console.log("first"); await new Promise((r) => setTimeout(r, 1500)); console.log("second"); await new Promise((r) => setTimeout(r, 30000)); return 1; };`;
/** Prints "a" and "b" 300 ms apart, returns 7. */
const QUICK = `export default async () => { console.log("a"); await new Promise((r) => setTimeout(r, 300)); console.log("b"); return 7; };`;

/** "returned" when `p` settles within `ms`, else "pending". */
const within = (p: Promise<unknown>, ms: number) =>
  Promise.race([p.then(() => "returned", () => "returned"), new Promise((r) => setTimeout(() => r("pending"), ms))]);

/** Records the ids `ws.runtime.exec` launched and the ids `killExec` was asked for (a handle's kill goes through it). */
function watch(ws: Workspace) {
  const runtime = ws.runtime as unknown as {
    exec: (s: string, o?: unknown) => Promise<{ id: string }>;
    killExec: (id: string, o?: unknown) => Promise<void>;
    getExec: (id: string, o?: unknown) => Promise<{ result(): Promise<{ exitCode: number; stdout: string; stderr: string }> }>;
  };
  const ids: string[] = [];
  const kills: string[] = [];
  const exec = runtime.exec.bind(runtime);
  runtime.exec = async (s, o) => {
    const handle = await exec(s, o);
    ids.push(handle.id);
    return handle;
  };
  const killExec = runtime.killExec.bind(runtime);
  runtime.killExec = (id, o) => {
    kills.push(id);
    return killExec(id, o);
  };
  /** The run's exit code, stdout and stderr, or "running" when it has not ended within 10 s. */
  const outcome = async (id: string) => {
    const handle = await runtime.getExec(id, { encoding: "utf8" });
    const settled = await Promise.race([handle.result(), new Promise<"running">((r) => setTimeout(() => r("running"), 10_000))]);
    return settled === "running" ? settled : [settled.exitCode, settled.stdout, settled.stderr];
  };
  return { ids, kills, outcome };
}

type AIExec = { execute: (i: unknown, o: unknown) => AsyncIterable<unknown> };

describe("exec: stopping early settles and kills the run", () => {
  it("defineExec: a for-await break at the first running snapshot kills the run (exit 130)", async () => {
    const out = await inWorkspace(async (ws) => {
      const w = watch(ws);
      const seen: unknown[] = [];
      for await (const snapshot of defineExec({ workspace: ws }).execute({ command: SILENT } as never)) {
        seen.push(snapshot);
        break;
      }
      return { seen, kills: w.kills.length === 1 && w.kills[0] === w.ids[0], outcome: await w.outcome(w.ids[0]!) };
    });
    expect(out.seen).toEqual([{ command: SILENT, cwd: null, backend: "worker-javascript", exitCode: null, stdout: "first\n", stderr: "" }]);
    expect(out.kills).toBe(true);
    expect(out.outcome).toEqual([130, "first\n", "Execution cancelled.\n"]);
  }, 120_000);

  it("defineExec: read to the end, the run is not killed", async () => {
    const out = await inWorkspace(async (ws) => {
      const w = watch(ws);
      let last: unknown;
      for await (const snapshot of defineExec({ workspace: ws }).execute({ command: QUICK } as never)) last = snapshot;
      return { last, kills: w.kills };
    });
    expect(out.last).toEqual({ command: QUICK, cwd: null, backend: "worker-javascript", exitCode: 0, stdout: "a\nb\n", stderr: "", result: 7 });
    expect(out.kills).toEqual([]);
  }, 120_000);

  it("createAITools exec: return() while the run is silent settles and the run is killed", async () => {
    const out = await inWorkspace(async (ws) => {
      const w = watch(ws);
      const exec = createAITools({ workspace: ws }).exec as unknown as AIExec;
      const iterator = exec.execute({ command: SILENT }, { toolCallId: "c1", messages: [] })[Symbol.asyncIterator]();
      const first = (await iterator.next()).value as { stdout: string };
      const returned = await within(iterator.return!(undefined), 5000);
      return { first: first.stdout, returned, killed: w.kills.includes(w.ids[0]!), outcome: await w.outcome(w.ids[0]!) };
    });
    expect(out).toEqual({ first: "first\n", returned: "returned", killed: true, outcome: [130, "first\n", "Execution cancelled.\n"] });
  }, 120_000);

  it("createAITools exec: read to the end (preliminary results, then the settled one), nothing is killed", async () => {
    const out = await inWorkspace(async (ws) => {
      const w = watch(ws);
      const exec = createAITools({ workspace: ws }).exec as unknown as AIExec;
      const values: unknown[] = [];
      for await (const value of exec.execute({ command: QUICK }, { toolCallId: "c1", messages: [] })) values.push(value);
      return { last: values.at(-1), kills: w.kills };
    });
    expect(out.last).toEqual({ command: QUICK, cwd: null, backend: "worker-javascript", exitCode: 0, stdout: "a\nb\n", stderr: "", result: 7 });
    expect(out.kills).toEqual([]);
  }, 120_000);

  it("createAITools exec: the call's abortSignal still reaches the run through the call's own signal", async () => {
    const out = await inWorkspace(async (ws) => {
      const w = watch(ws);
      const exec = createAITools({ workspace: ws }).exec as unknown as AIExec;
      const controller = new AbortController();
      const values: Array<{ exitCode: number | null; stderr: string }> = [];
      const reading = (async () => {
        for await (const value of exec.execute({ command: SILENT }, { toolCallId: "c1", messages: [], abortSignal: controller.signal })) {
          values.push(value as never);
          if (values.length === 1) controller.abort();
        }
      })();
      const ended = await within(reading, 10_000);
      return { ended, last: values.at(-1), killed: w.kills.includes(w.ids[0]!) };
    });
    expect(out.ended).toBe("returned");
    expect(out.killed).toBe(true);
    expect(out.last).toMatchObject({ exitCode: 130, stderr: "Execution cancelled.\n" });
  }, 120_000);

  // streamText's own cancel does not reach the tool (its preliminary results still enqueue), so the SDK's loop is
  // replayed as node_modules/ai/src/generate-text/execute-tool-call.ts runs it: the SDK's executeTool, consumed by a
  // for await whose onPreliminaryToolResult throws (as controller.enqueue does on a closed stream).
  it("the AI SDK's executeTool left by a throwing onPreliminaryToolResult: the call ends at once and the run is killed", async () => {
    const out = await inWorkspace(async (ws) => {
      const w = watch(ws);
      const tools = createAITools({ workspace: ws });
      const outputs: unknown[] = [];
      const loop = (async () => {
        const stream = executeTool({ tool: tools.exec as never, input: { command: SILENT } as never, options: { toolCallId: "c1", messages: [] } as never });
        for await (const part of stream) {
          outputs.push(part.type);
          if (part.type === "preliminary") throw new Error("Invalid state: Controller is already closed");
        }
      })();
      const settled = await Promise.race([
        loop.then(
          () => "resolved",
          (err: Error) => err.message,
        ),
        new Promise((r) => setTimeout(() => r("pending"), 5000)),
      ]);
      return { settled, outputs, killed: w.kills.includes(w.ids[0]!), outcome: await w.outcome(w.ids[0]!) };
    });
    expect(out).toEqual({
      settled: "Invalid state: Controller is already closed",
      outputs: ["preliminary"],
      killed: true,
      outcome: [130, "first\n", "Execution cancelled.\n"],
    });
  }, 120_000);

  it("createTanStackTools exec: emitCustomEvent throwing settles the call at once and kills the run", async () => {
    const out = await inWorkspace(async (ws) => {
      const w = watch(ws);
      const tools = createTanStackTools({ workspace: ws, streamEventName: "progress", format: "object" });
      const emitted: unknown[] = [];
      const call = tools.exec!.execute({ command: TWO_THEN_SILENT }, {
        toolCallId: "t1",
        emitCustomEvent: (_name, value) => {
          emitted.push(value);
          throw new Error("stream closed");
        },
      });
      const settled = await Promise.race([
        call.then(
          () => "resolved",
          (err: Error) => err.message,
        ),
        new Promise((r) => setTimeout(() => r("pending"), 10_000)),
      ]);
      return { settled, emitted: emitted.length, killed: w.kills.includes(w.ids[0]!), outcome: await w.outcome(w.ids[0]!) };
    });
    expect(out).toEqual({ settled: "stream closed", emitted: 1, killed: true, outcome: [130, "first\nsecond\n", "Execution cancelled.\n"] });
  }, 120_000);
});

const WAITER = `export async function execute(toolCallId, params, signal, onUpdate) {
  onUpdate({ content: [{ type: "text", text: "started" }] });
  await new Promise((r) => setTimeout(r, 30000));
  return { content: [{ type: "text", text: "finished" }] };
}
`;
const waiter = toolAt("waiter", "javascript", "index.js", {}, { mutating: false });

async function withWaiter<T>(fn: (ws: Workspace, w: ReturnType<typeof watch>) => Promise<T>): Promise<T> {
  return inToolWorkspace(
    async (ws) => {
      await ws.fs.mkdir("/workspace/tools/waiter", { recursive: true });
      await ws.fs.writeFile("/workspace/tools/waiter/index.js", WAITER);
      return fn(ws, watch(ws));
    },
    { shell: false },
  );
}

describe("directory tools: stopping early settles and kills the run", () => {
  it("the core tool: return() after the first progress snapshot kills the run", async () => {
    const out = await withWaiter(async (ws, w) => {
      const tool = directoryToolDefinition(waiter, { workspace: ws as unknown as ToolRunWorkspace });
      const iterator = tool.execute({}, { toolCallId: "d1" }) as AsyncGenerator<unknown>;
      const first = (await iterator.next()).value;
      const returned = await within(iterator.return(undefined as never), 5000);
      for (let i = 0; i < 50 && w.kills.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
      return { first, returned, killed: w.ids.length === 1 && w.kills.includes(w.ids[0]!) };
    });
    expect(out).toEqual({ first: { content: [{ type: "text", text: "started" }], progress: true }, returned: "returned", killed: true });
  }, 120_000);

  it("createAITools: return() of a directory tool's output while it is silent settles and the run is killed", async () => {
    const out = await withWaiter(async (ws, w) => {
      const tools = createAITools({ workspace: ws, toolDirectories: { tools: [waiter] } });
      const iterator = (tools.waiter as unknown as AIExec).execute({}, { toolCallId: "d1", messages: [] })[Symbol.asyncIterator]();
      const first = (await iterator.next()).value;
      const returned = await within(iterator.return!(undefined), 5000);
      for (let i = 0; i < 50 && w.kills.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
      return { first, returned, killed: w.ids.length === 1 && w.kills.includes(w.ids[0]!) };
    });
    expect(out).toEqual({ first: "started", returned: "returned", killed: true });
  }, 120_000);
});

describe("pacedValues over any source", () => {
  it("return() with a step in flight settles at once, aborts the call's signal and releases the caller's", async () => {
    const outer = new AbortController();
    const call = new CallAbort(outer.signal);
    let sourceClosed = false;
    async function* source() {
      try {
        yield { progress: true, text: "one" };
        await new Promise((r) => call.signal.addEventListener("abort", r, { once: true })); // "silent until aborted"
        yield { progress: true, text: "two" };
      } finally {
        sourceClosed = true;
      }
    }
    const paced = pacedValues(source(), (v) => v.progress, (v) => v.text.length, { call });
    const first = await paced.next();
    const returned = await within(paced.return(undefined), 1000);
    for (let i = 0; i < 20 && !sourceClosed; i++) await new Promise((r) => setTimeout(r, 10));
    const abortedByStop = call.signal.aborted;
    outer.abort(); // released: the caller's later abort no longer reaches the call
    expect({ first: first.value, returned, abortedByStop, sourceClosed, reason: (call.signal.reason as DOMException).name }).toEqual({
      first: { progress: true, text: "one" },
      returned: "returned",
      abortedByStop: true,
      sourceClosed: true,
      reason: "AbortError",
    });
  });

  it("a source read to its end is not aborted", async () => {
    const call = new CallAbort(undefined);
    async function* source() {
      yield { progress: true, text: "one" };
      yield { progress: false, text: "result" };
    }
    const values: unknown[] = [];
    for await (const value of pacedValues(source(), (v) => v.progress, (v) => v.text.length, { call })) values.push(value);
    expect(values).toEqual([
      { progress: true, text: "one" },
      { progress: false, text: "result" },
    ]);
    expect(call.signal.aborted).toBe(false);
  });

  it("CallAbort follows a caller's signal that is already aborted", () => {
    const outer = new AbortController();
    outer.abort(new Error("gone"));
    const call = new CallAbort(outer.signal);
    expect([call.signal.aborted, (call.signal.reason as Error).message]).toEqual([true, "gone"]);
  });
});
