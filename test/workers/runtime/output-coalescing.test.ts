import { expect, it } from "vitest";
import { collect, inWorkspace } from "./helpers.js";

// 20,000 macrotasks take 40–60 s on a loaded 2-core machine: the run gets 170 s, the test 200 s.
it("coalesces many tiny writes into few journal rows, byte-exact and in order across streams", { timeout: 200_000 }, async () => {
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
  // Order across streams is kept: the last three writes are three events.
  expect(output.slice(-3).map((e) => [e.name, decoder.decode(e.value)])).toEqual([
    ["stderr", "E1"],
    ["stdout", "o1"],
    ["stderr", "E2"],
  ]);
  expect(out.events.at(-1)).toMatchObject({ name: "exit", code: 0 });
  expect([out.again.status, out.again.stdout, out.again.stderr]).toEqual(["completed", "x".repeat(20000) + "o1", "E1E2"]);
});
