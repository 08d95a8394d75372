/**
 * Alternating stdout/stderr writes (attack run, issue 20): every stream
 * switch used to cost one awaited RPC from the isolate and one journal row
 * (its own transaction) on the host — 4,000 alternations took 8,001 rows and
 * ~48 s, a stall of the Durable Object. Now one RPC carries many segments and
 * the host journals a window's stdout and stderr as one row each, in one
 * transaction: alternating output costs about what same-stream output does.
 */
import { expect, it } from "vitest";
import { collect, inWorkspace } from "./helpers.js";

type Event = { name: string; seq: number; value?: Uint8Array; code?: number };

/** Runs `n` alternations of `process.stdout.write(out)` and `process.stderr.write(err)` in one task. */
async function alternate(n: number, out = "a", err = "b", maxStdioBytes?: number) {
  return inWorkspace(async (ws, state) => {
    const started = Date.now();
    const h = await ws.runtime.exec(
      `export default async () => { for (let i = 0; i < ${n}; i++) { process.stdout.write(${JSON.stringify(out)}); process.stderr.write(${JSON.stringify(err)}); } return 1; }`,
      { id: "alt", timeoutMs: 110_000 },
    );
    const events = (await collect(h)) as Event[];
    const ms = Date.now() - started;
    const rows = state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM __ws_exec_events WHERE id = ?", "alt").one().n;
    const again = await (await ws.runtime.getExec("alt", { encoding: "utf8" })).result();
    return { events, ms, rows, again };
  }, maxStdioBytes === undefined ? {} : { backend: { maxStdioBytes } });
}

function check(out: Awaited<ReturnType<typeof alternate>>, stdout: string, stderr: string, maxRows: number): void {
  const decoder = new TextDecoder();
  const text = (name: string) =>
    out.events
      .filter((e) => e.name === name)
      .map((e) => decoder.decode(e.value))
      .join("");
  // Compared as booleans: a diff of 100 KB strings is no help.
  const got = { stdout: text("stdout"), stderr: text("stderr") };
  expect([got.stdout.length, got.stdout === stdout, got.stderr.length, got.stderr === stderr]).toEqual([stdout.length, true, stderr.length, true]);
  expect(out.events.map((e) => e.seq)).toEqual(out.events.map((_, i) => i + 1));
  expect(out.events.at(-1)).toMatchObject({ name: "exit", code: 0 });
  expect(out.rows).toBe(out.events.length);
  expect(out.rows).toBeLessThanOrEqual(maxRows);
  expect([out.again.status, out.again.value]).toEqual(["completed", 1]);
  // result() keeps each stream whole up to 64 KiB (the rest goes to the saved output file).
  if (stdout.length + stderr.length <= 64 * 1024) expect([out.again.stdout === stdout, out.again.stderr === stderr]).toEqual([true, true]);
  // 4,000 alternations took ~48 s before; same-stream output of this size takes well under 1 s.
  expect(out.ms).toBeLessThan(15_000);
}

it("4,000 alternations of stdout/stderr writes: byte-exact per stream, few rows, a few seconds", { timeout: 130_000 }, async () => {
  // One task's output is one call and one window: a stdout row, a stderr row, the exit (was 8,001 rows).
  check(await alternate(4000), "a".repeat(4000), "b".repeat(4000), 3);
});

it("20,000 alternations: still byte-exact, few rows, a few seconds", { timeout: 130_000 }, async () => {
  check(await alternate(20_000), "a".repeat(20_000), "b".repeat(20_000), 3);
});

it("20,000 alternations of longer writes (several 64 KiB sends, segments split across them): exact, few rows", { timeout: 130_000 }, async () => {
  // 180,000 bytes: three sends, each flushing a window of at most 64 KiB as a stdout and a stderr row.
  check(await alternate(20_000, "out", "errors"), "out".repeat(20_000), "errors".repeat(20_000), 9);
});

it("alternating past maxStdioBytes: each stream is cut at its own cap and ends with its marker", { timeout: 130_000 }, async () => {
  const out = await alternate(4000, "a", "b", 1000);
  const marker = (stream: string) => `\n[${stream} truncated: maxStdioBytes (1000 bytes) reached; 3000 bytes dropped]\n`;
  check(out, "a".repeat(1000) + marker("stdout"), "b".repeat(1000) + marker("stderr"), 5);
});
