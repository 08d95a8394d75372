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
 * Fixed: src/tools/core/exec-output.ts boundResult, used by both exec snapshots (streamed and settled): a value
 * whose JSON passes the tool's maxBytes comes as a string — the start of the value (a string's own text, any other
 * value's JSON) that stays within maxBytes once written as JSON, then `[Result cut: the return value is a string
 * of 1000000 characters (976.6KB of JSON, over the 64.0KB limit); showing its first 65534 characters. The full
 * value was not saved: return less, or write it to a file and return the path.]`. A value within the bound is
 * unchanged. Every adapter (pi, AI SDK, TanStack, defineExec) shares the core snapshot.
 */
import { expect, it } from "vitest";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { inWorkspace } from "../runtime/helpers.js";

it("a returned value is held to the tool's output bound like stdout", async () => {
  const out = await inWorkspace(async (ws) => {
    const { execute } = createPiTools({ workspace: ws as never });
    const size = async (command: string) => {
      const r = await execute({ id: "x", name: "exec", arguments: { command } });
      const result = (r.details as { result?: unknown }).result;
      return { isError: r.isError === true, chars: JSON.stringify(r.content).length, result };
    };
    return {
      printed: await size(`export default () => { console.log("x".repeat(1_000_000)); return 1; }`),
      returned: await size(`export default () => "x".repeat(1_000_000)`),
      array: await size(`export default () => Array.from({ length: 100_000 }, (_, i) => "v" + i)`),
      small: await size(`export default () => ({ a: "é".repeat(10_000), b: [1, 2] })`),
    };
  });
  // Held: printed { isError: false, chars: 65,901 }.
  expect(out.printed.isError).toBe(false);
  expect(out.printed.chars).toBeLessThan(2 * 65_536);
  expect(out.printed.result).toBe(1);
  // Found: returned { isError: false, chars: 1,000,203 }.
  expect(out.returned.isError).toBe(false);
  expect(out.returned.chars).toBeLessThan(2 * 65_536);
  expect(out.returned.result).toBe(
    `${"x".repeat(65_534)}\n\n[Result cut: the return value is a string of 1000000 characters (976.6KB of JSON, over the 64.0KB limit); showing its first 65534 characters. The full value was not saved: return less, or write it to a file and return the path.]`,
  );
  // Any other value: the start of its JSON, measured as the model gets it (each `"` escaped once more).
  const array = out.array.result as string;
  expect(out.array.chars).toBeLessThan(2 * 65_536);
  expect(array.startsWith('["v0","v1","v2",')).toBe(true);
  expect(array).toMatch(/\n\n\[Result cut: the return value is an array whose JSON has 888891 characters \(868\.1KB of JSON, over the 64\.0KB limit\); showing its first \d+ characters of JSON\. The full value was not saved: return less, or write it to a file and return the path\.\]$/);
  const kept = array.slice(0, array.indexOf("\n\n[Result cut"));
  expect(new TextEncoder().encode(JSON.stringify(kept)).byteLength).toBeLessThanOrEqual(65_536);
  expect(new TextEncoder().encode(JSON.stringify(kept)).byteLength).toBeGreaterThan(65_536 - 1024);
  // Within the bound (30,000 bytes of JSON): the value itself.
  expect(out.small.result).toEqual({ a: "é".repeat(10_000), b: [1, 2] });
}, 60_000);
