/**
 * Issue 20, twenty-third attack run: stopping the AI SDK exec tool's iteration (`return()`) hangs until the run next
 * prints or ends, and the run is left going.
 * Tried: `createAITools({ workspace }).exec.execute(…)` over a WorkerJavaScriptBackend run that prints one line and
 * then is silent for 30 s (a long build, a wait for an approval); the first running snapshot is read, then the
 * iterator's `return()` is called — what the AI SDK's `executeTool` does when its `for await` is left early
 * (node_modules/ai/src/generate-text/execute-tool-call.ts: `onPreliminaryToolResult` throwing, e.g. a cancelled
 * output stream), and what any `for await … break` over the tool's output does.
 * Held: the core tool (`defineExec`, no pacing) returns at once; with the call's `abortSignal` the run is killed
 * (killOnAbort) and the stream ends.
 * Found (medium — a hang tied to a silent run: up to maxTimeoutMs, or hours for a run waiting on `ctx.interrupt()`;
 * 3 of 3 runs): `return()` is still pending 5 s later. pacedValues (src/tools/core/directory.ts) always has an
 * `it.next()` in flight (`next = it.next()` before the value is yielded); its `finally { await it.return?.() }` queues
 * the exec generator's return behind that next, which waits in `reader.read()` for the run's next event. The exec
 * generator's own `finally` only stops listening to the signal, so even once it returns the run goes on unowned.
 * Directory tools' outputs (directoryValues → pacedOutputs) take the same path.
 * Suggested fix: in pacedValues' finally, call `it.return()` without awaiting the pending next (or race it against
 * nothing pending: `void it.return?.()`), and have the exec generator kill the run (as on abort) when it is closed
 * before the exit event — its `finally` can tell by whether `exit` was seen.
 * Fixed: pacedValues (src/tools/core/directory.ts) no longer awaits the source's `return()` behind a step in flight;
 * the AI SDK and TanStack adapters give each exec and directory-tool call its own signal (`CallAbort`, following the
 * library's `abortSignal`), which pacedValues aborts when the consumer stops before the source ended — the run is
 * killed, so its pending read settles and the queued `return()` finishes on its own. The exec generator itself
 * (src/tools/core/exec.ts `streamedSnapshots`) kills the run and cancels its event stream when closed at a running
 * snapshot, and a directory tool's core generator (`runWithProgress`) aborts its run when closed before the result.
 * Siblings (core break, AI SDK executeTool with a throwing onPreliminaryToolResult, TanStack emitCustomEvent
 * throwing, directory tools, pacedValues over any source; each run read back as exit 130 "Execution cancelled."):
 * test/workers/fix23/tools-iterator-return.test.ts.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { defineExec } from "../../../src/tools/core/index.js";

const SOURCE = `export default async () => { console.log("first"); await new Promise((r) => setTimeout(r, 30000)); console.log("second"); return 1; };`;

/** "returned" when `p` settles within `ms`, else "pending". */
const within = (p: Promise<unknown>, ms: number) =>
  Promise.race([p.then(() => "returned", () => "returned"), new Promise((r) => setTimeout(() => r("pending"), ms))]);

it("return() of the AI SDK exec tool's output settles while the run is silent", async () => {
  const out = await inWorkspace(async (ws) => {
    // Held: the core generator returns at once (its next is not in flight).
    const core = defineExec({ workspace: ws }).execute({ command: SOURCE } as never);
    const coreFirst = await core.next();
    const coreReturn = await within(core.return(undefined as never), 5000);
    const exec = createAITools({ workspace: ws }).exec as unknown as { execute: (i: unknown, o: unknown) => AsyncIterable<{ stdout: string; exitCode: number | null }> };
    const iterator = exec.execute({ command: SOURCE }, { toolCallId: "c1", messages: [] })[Symbol.asyncIterator]();
    const first = await iterator.next();
    const paced = await within(iterator.return!(undefined), 5000);
    return { core: [(coreFirst.value as { stdout: string }).stdout, coreReturn], first: [first.value.stdout, first.value.exitCode], paced };
  });
  expect(out.core).toEqual(["first\n", "returned"]);
  expect(out.first).toEqual(["first\n", null]);
  // Found: "pending" (it settles only when the run prints "second" or ends, 30 s later).
  expect(out.paced).toBe("returned");
}, 120_000);
