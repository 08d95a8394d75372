/**
 * Provider suite (spec 01 §1.2, `workspace.provider()`): what the
 * node:fs-style layer costs over `workspace.fs` in the same Durable Object.
 *
 * 1. 1,000 small files (1 KiB) written with `provider.writeFile` vs
 *    `workspace.fs.writeFile`, and read back with `provider.readFile` vs
 *    `workspace.fs.readFile` (bytes gathered); alternating, medians of 5.
 * 2. 4 MiB written through a file handle in 1,024 writes of 4 KiB, then
 *    `close()` (one guarded store), vs one `workspace.fs.writeFile` of the
 *    same 4 MiB; alternating, medians of 5.
 *
 * Targets: reads ≤ 1.5× `workspace.fs`; writes ≤ 2× (the layer stats the
 * path first, so an existing file keeps its mode, as open(2) with O_TRUNC);
 * a handle's 1,024 writes + close ≤ 4× one write of the same bytes (1,024
 * awaited calls, the buffer grown by doubling, and the
 * store is guarded: `writeFile` `ifMatch` reads and hashes the current
 * content once).
 */
import { readStreamBytes } from "../../src/util/bytes.js";
import { defineSuite, ratioAtMost, type BenchRow } from "../harness.js";

const FILES = 1_000;
const FILE_BYTES = 1024;
const HANDLE_BYTES = 4 * 1024 * 1024;
const CHUNK = 4096;
const RUNS = 5;

export default defineSuite({
  name: "provider",
  async run(ctx): Promise<BenchRow[]> {
    const ws = ctx.newWorkspace();
    const provider = ws.provider();
    const payload = new Uint8Array(FILE_BYTES).fill(97);
    await ws.fs.mkdir("/p", { recursive: true });
    await ws.fs.mkdir("/f", { recursive: true });

    const writes = await ctx.compare(
      async (rep) => {
        for (let i = 0; i < FILES; i++) await provider.writeFile(`/p/${rep}-${i}`, payload);
      },
      async (rep) => {
        for (let i = 0; i < FILES; i++) await ws.fs.writeFile(`/f/${rep}-${i}`, payload);
      },
      { runs: RUNS },
    );
    const reads = await ctx.compare(
      async (rep) => {
        for (let i = 0; i < FILES; i++) if (((await provider.readFile(`/p/${rep}-${i}`)) as Uint8Array).byteLength !== FILE_BYTES) throw new Error("provider read size");
      },
      async (rep) => {
        for (let i = 0; i < FILES; i++) if ((await readStreamBytes(await ws.fs.readFile(`/f/${rep}-${i}`))).byteLength !== FILE_BYTES) throw new Error("fs read size");
      },
      { runs: RUNS },
    );

    const chunk = new Uint8Array(CHUNK).fill(98);
    const whole = new Uint8Array(HANDLE_BYTES).fill(98);
    const handle = await ctx.compare(
      async (rep) => {
        const h = await provider.open(`/h-${rep}`, "w");
        for (let at = 0; at < HANDLE_BYTES; at += CHUNK) await h.write(chunk);
        await h.close();
      },
      async (rep) => {
        await ws.fs.writeFile(`/w-${rep}`, whole);
      },
      { runs: RUNS },
    );
    if ((await ws.fs.stat("/h-0")).size !== HANDLE_BYTES) throw new Error("handle size");

    const note = `${FILES.toLocaleString("en-US")} files of 1 KiB, one call each; time for all, median of ${RUNS}, alternating with workspace.fs`;
    return [
      { label: "1,000 writeFile via provider", unit: "ms", ours: writes.ours, baseline: writes.raw, target: ratioAtMost(2), note },
      { label: "1,000 readFile via provider", unit: "ms", ours: reads.ours, baseline: reads.raw, target: ratioAtMost(1.5) },
      {
        label: "4 MiB via a handle (1,024 × 4 KiB + close)",
        unit: "ms",
        ours: handle.ours,
        baseline: handle.raw,
        target: ratioAtMost(4),
        note: "vs one workspace.fs.writeFile of the same 4 MiB",
      },
    ];
  },
});
