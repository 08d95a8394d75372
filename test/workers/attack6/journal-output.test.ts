/**
 * Issue 20 sixth attack run, categories 2 and 3 on the JavaScript backend's
 * journal and output, on angles runs 2–5 did not take:
 * - 4,000 one-byte writes ALTERNATING stdout and stderr, one per macrotask
 *   (coalescing per stream must not be defeated by interleaving): far fewer
 *   journal rows than writes, every byte kept, in order per stream;
 * - one 60,000,000-character console.log (under `maxStdioBytes`): the run
 *   completes, the result keeps the 64 KiB tail, and retention
 *   (`maxRetainedExecutions: 5`) removes its journal once newer runs finish;
 * - output bytes that are not UTF-8 (0xFF 0xFE, a truncated sequence) and
 *   lone surrogates in stdout and stderr: U+FFFD, no throw; in the
 *   result value (JSON) the lone surrogate is kept as the code unit it is;
 * - a 1,500-deep `mkdir({recursive: true})` from the sandbox, then the
 *   host's `rm -r` of it.
 * All withstood.
 */
import { describe, expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

type Ws = Parameters<Parameters<typeof inWorkspace>[0]>[0];
async function run(ws: Ws, source: string, id: string) {
  const r = await (await ws.runtime.exec(source, { encoding: "utf8", id })).result();
  return { exit: r.exitCode, status: r.status, value: r.value, stdout: r.stdout as string, stderr: r.stderr as string };
}

describe("attack6: journal and output", () => {
  it("interleaved one-byte writes coalesce; a 60 MB line is kept as a tail and pruned by retention; bad UTF-8 is U+FFFD; a 1,500-deep tree", { timeout: 300_000 }, async () => {
    const r = await inWorkspace(
      async (ws, state) => {
        const rows = (id: string) => state.storage.sql.exec("SELECT count(*) AS n, coalesce(sum(length(data)), 0) AS bytes FROM __ws_exec_events WHERE id = ?", id).toArray()[0];
        const alt = await run(ws, `export default async () => { for (let i = 0; i < 4000; i++) { (i % 2 ? process.stderr : process.stdout).write(String(i % 10)); await new Promise((r) => setTimeout(r, 0)); } return 1; }`, "alt");
        const altRows = rows("alt");
        const flood = await run(ws, `export default () => { console.log("y".repeat(60_000_000)); return 2; }`, "flood");
        const floodRows = rows("flood");
        const bad = await run(ws, `export default () => { process.stdout.write(new Uint8Array([0xff, 0xfe, 0xc3, 0x28, 0x61])); process.stdout.write("\\uD800z"); console.error("\\uDC00"); return "\\uD800"; }`, "bad");
        const deep = await run(ws, `import { mkdir, readdir } from "node:fs/promises"; export default async () => { await mkdir("/workspace/" + "d/".repeat(1500), { recursive: true }); return (await readdir("/workspace/d")).length; }`, "deep");
        await ws.fs.rm("/workspace/d", { recursive: true });
        for (let i = 0; i < 6; i++) await run(ws, `export default () => ${i};`, `s${i}`);
        return {
          alt: { ...alt, stdout: alt.stdout.length, stderr: alt.stderr.length, out: alt.stdout.slice(0, 10), err: alt.stderr.slice(0, 10) },
          altRows,
          flood: { ...flood, stdout: flood.stdout.length, tail: flood.stdout.slice(-3) },
          floodRows,
          // the value crosses as code units (a lone surrogate would break the test harness's own WebSocket)
          bad: { ...bad, value: [...String(bad.value)].map((c) => c.charCodeAt(0)) },
          deep,
          left: await ws.fs.readdir("/workspace").then((e) => e.map((x) => x.name)),
          runs: state.storage.sql.exec("SELECT id FROM __ws_exec_runs ORDER BY id").toArray().map((x) => (x as { id: string }).id),
        };
      },
      { backend: { maxRetainedExecutions: 5 } },
    );
    expect(r.alt).toMatchObject({ exit: 0, status: "completed", value: 1, stdout: 2000, stderr: 2000, out: "0246802468", err: "1357913579" });
    expect(r.altRows.bytes).toBe(4000);
    expect(r.altRows.n).toBeLessThan(1000);
    expect(r.flood).toMatchObject({ exit: 0, status: "completed", value: 2, stdout: 65_536, tail: "yy\n" });
    expect(r.floodRows.bytes).toBe(60_000_001);
    // output is decoded as UTF-8 (U+FFFD for bad bytes); the result value is JSON, where a lone surrogate stays one
    expect(r.bad).toEqual({ exit: 0, status: "completed", value: [0xd800], stdout: "\uFFFD\uFFFD\uFFFD(a\uFFFDz", stderr: "\uFFFD\n" });
    expect(r.deep).toEqual({ exit: 0, status: "completed", value: 1, stdout: "", stderr: "" });
    expect(r.left).toEqual([]);
    // retention keeps the newest five finished runs: the flood's 60 MB of journal is gone
    expect(r.runs).toEqual(["s1", "s2", "s3", "s4", "s5"]);
  });
});
