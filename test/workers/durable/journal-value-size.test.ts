/**
 * Issue 20 (found by the lead while reviewing the journal, fifteenth attack run): a replay run journals each
 * host or node:fs call's arguments and answer as one SQL value, and Durable Object SQLite refuses a value past
 * 2 MB. The calls' budgets measure strings in UTF-8 bytes, but the journal holds JSON, where a control
 * character takes 6 bytes: within the default maxCapabilityBytes (1 MiB) a call's arguments or answer could
 * reach 6 MB as journaled — stored by local workerd, refused (SQLITE_TOOBIG) by production at the flush.
 *
 * Fixed: in a replay run a call's arguments past MAX_JOURNALED_CALL_BYTES (1.5 MiB as journaled) refuse the
 * call before it runs (nothing counted or journaled, so a resumed attempt refuses it again), and an answer past
 * it is replaced by an E2BIG error, journaled, so a resumed attempt is served the same.
 */
import { describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";
import { MAX_JOURNALED_CALL_BYTES } from "../../../src/backends/worker-javascript/durable.js";
import { durable, restart, resultOf, sleep, start } from "./helpers.js";

const SRC = `import { readFile } from "node:fs/promises";
import { hold } from "ws:side";
export default async (input) => {
  const out = {};
  const caught = (e) => [e.name, e.code, e.message];
  try { await hold(String.fromCharCode(1).repeat(300000), 0, 0); out.args = "ran"; } catch (e) { out.args = caught(e); }
  try { out.answer = (await readFile("/workspace/ctl.txt", "utf8")).length; } catch (e) { out.answer = caught(e); }
  out.bytes = (await readFile("/workspace/ctl.txt")).byteLength;
  out.held = await hold("h", input.ms, 0);
  return out;
};`;

const over = (label: string, part: "arguments" | "answer", bytes: number) =>
  `${label}: its ${part} ${part === "answer" ? "is" : "are"} ${bytes} bytes as a replay run journals ${part === "answer" ? "it" : "them"} (JSON), over the 1572864 (1.5 MiB) one journaled call may hold (a Durable Object SQLite value is at most 2 MB); ` +
  (part === "answer"
    ? "the call ran, but its answer cannot be kept for a resumed attempt. Return less per call (write big data to a file and return its path)."
    : "the call did not run. Pass less per call (write big data to a file and pass its path).");

describe("a replay run's journaled calls stay within one SQL value", () => {
  it("arguments past MAX_JOURNALED_CALL_BYTES refuse the call; an answer past it becomes E2BIG, the same after a restart", async () => {
    expect(MAX_JOURNALED_CALL_BYTES).toBe(1_572_864);
    const { stub, fresh } = durable();
    {
      using ws = await getWorkspace(stub);
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.writeFile("/workspace/ctl.txt", "\u0001".repeat(300_000));
    }
    await start(stub, SRC, { id: "big", onInterrupt: "replay", input: { ms: 60_000 } });
    await sleep(2000);
    await restart(stub);
    const r = await resultOf(fresh(), "big");
    expect(r).toMatchObject({ status: "completed", exitCode: 0 });
    expect((r as { value: unknown }).value).toEqual({
      // ["<300,000 × \u0001>",0,0]: 300,000 × 6 + 8
      args: ["RangeError", "E2BIG", over("ws:side hold", "arguments", 1_800_008)],
      // "<300,000 × \u0001>": 300,000 × 6 + 2
      answer: ["RangeError", "E2BIG", over("fs.readFile", "answer", 1_800_002)],
      bytes: 300_000,
      held: { tag: "h", invocation: 2 },
    });
    // the big hold never ran; the small one ran once per attempt (in flight at the restart)
    expect((await fresh().callRows()).map((c) => [c.fn, c.tag])).toEqual([
      ["hold", "h"],
      ["hold", "h"],
    ]);
  });
});
