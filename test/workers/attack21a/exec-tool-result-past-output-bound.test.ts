/**
 * Issue 20, twenty-first attack run: the exec tool bounds stdout and stderr for the model, but not a callable
 * backend's returned value.
 * Tried: the pi tool set's exec over WorkerJavaScriptBackend (defaults: tool maxBytes 65,536 per stream, backend
 * maxResultBytes 1 MiB) in a Durable Object; a module printing 1,000,000 characters, and one returning them.
 * Held: the printed string reaches the model as its last 64 KiB with the `[Showing last … Full output: …]` note
 * (65,901 characters of tool content).
 * Found (medium — the conversation pays: one call puts ~15× the documented bound into the model's context, enough
 * to push a small-context model past its window so every later turn fails; 3 of 3 runs): `export default () =>
 * "x".repeat(1_000_000)` gives a tool result whose content is 1,000,203 characters — the snapshot's `result` is
 * copied whole (src/tools/core/exec.ts settledSnapshot/streamedSnapshots: `out.result = exit.result`), bounded only
 * by the backend's maxResultBytes, which a host raises for its own callers. docs/tools.md: "The model sees the last
 * 2000 lines / 64 KiB of each stream"; nothing bounds `result`.
 * Suggested fix: measure `result`'s JSON against the tool's maxBytes; past it, replace it with a note (its size, and
 * the first part of its JSON cut on a character boundary, or a Workspace file holding it whole, as the streams'
 * full-output files), and document it next to the stream bound.
 */
import { expect, it } from "vitest";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { inWorkspace } from "../runtime/helpers.js";

it.fails("a returned value is held to the tool's output bound like stdout", async () => {
  const out = await inWorkspace(async (ws) => {
    const { execute } = createPiTools({ workspace: ws as never });
    const size = async (command: string) => {
      const r = await execute({ id: "x", name: "exec", arguments: { command } });
      return { isError: r.isError === true, chars: JSON.stringify(r.content).length };
    };
    return {
      printed: await size(`export default () => { console.log("x".repeat(1_000_000)); return 1; }`),
      returned: await size(`export default () => "x".repeat(1_000_000)`),
    };
  });
  // Held: printed { isError: false, chars: 65,901 }.
  expect(out.printed.isError).toBe(false);
  expect(out.printed.chars).toBeLessThan(2 * 65_536);
  // Found: returned { isError: false, chars: 1,000,203 }.
  expect(out.returned.chars).toBeLessThan(2 * 65_536);
}, 60_000);
