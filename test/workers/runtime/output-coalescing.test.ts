import { expect, it } from "vitest";
import { collect, inWorkspace } from "./helpers.js";

// 20,000 macrotasks take 40–60 s on a loaded 2-core machine: the run gets 170 s, the test 200 s.
it("coalesces many tiny writes into few journal rows, byte-exact and in order per stream", { timeout: 200_000 }, async () => {
  const out = await inWorkspace(async (ws, state) => {
    const h = await ws.runtime.exec(
      `export default async () => {
        for (let i = 0; i < 20000; i++) { process.stdout.write("x"); await new Promise((r) => setTimeout(r, 0)); }
        process.stderr.write("E1"); process.stdout.write("o1"); process.stderr.write("E2");
      }`,
      { id: "tiny", timeoutMs: 170_000 },
    );
    const events = await collect(h);
    const rows = state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM __ws_exec_events WHERE id = ?", "tiny").one().n;
    const again = await (await ws.runtime.getExec("tiny", { encoding: "utf8" })).result();
    return { events, rows, again };
  });
  const decoder = new TextDecoder();
  const output = out.events.filter((e) => e.name !== "exit") as { name: string; value: Uint8Array; seq: number }[];
  expect(out.rows).toBeLessThanOrEqual(400);
  expect(out.rows).toBe(out.events.length);
  expect(out.events.map((e) => e.seq)).toEqual(out.events.map((_, i) => i + 1));
  expect(output.filter((e) => e.name === "stdout").map((e) => decoder.decode(e.value)).join("")).toBe("x".repeat(20000) + "o1");
  // Within one coalescing window the streams are grouped, deliberately (docs/porting.md): the last
  // three writes, made in one task, are one stderr event "E1E2" and the window's stdout event
  // ending in "o1" — in the order each stream first wrote in that window. Each stream stays exact.
  expect(output.filter((e) => e.name === "stderr").map((e) => decoder.decode(e.value))).toEqual(["E1E2"]);
  expect(output.slice(-2).map((e) => e.name).sort()).toEqual(["stderr", "stdout"]);
  expect(decoder.decode(output.findLast((e) => e.name === "stdout")!.value)).toMatch(/o1$/);
  expect(out.events.at(-1)).toMatchObject({ name: "exit", code: 0 });
  expect([out.again.status, out.again.stdout, out.again.stderr]).toEqual(["completed", "x".repeat(20000) + "o1", "E1E2"]);
});
