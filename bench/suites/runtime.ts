/**
 * Runtime suite (issue 4): the JavaScript backend against its floors.
 *
 * - cold exec of a trivial module through `workspace.runtime` vs a bare
 *   Worker Loader load-and-call of the same module (target ≤ 2×);
 * - a module reading 100 files through `node:fs` vs the same reads through
 *   `workspace.fs` in the host (target ≤ 3×), and (info) the same run net of
 *   the cold start it includes;
 * - a 10 MB stdout stream through the runtime (MB/s, info).
 */
import { WorkerJavaScriptBackend } from "../../src/backends/worker-javascript/index.js";
import { defineSuite, mbps, ratioAtMost } from "../harness.js";

const RAW_RUNNER = `
import { WorkerEntrypoint } from "cloudflare:workers";
export default class extends WorkerEntrypoint {
  async evaluate(input) { const m = await import("/entry.js"); return JSON.stringify(await m.default(input)); }
}`;

const READ_100 = `import { readFile } from "node:fs/promises";
export default async () => { let total = 0; for (let i = 0; i < 100; i++) total += (await readFile("files/f" + i + ".txt", "utf8")).length; return total; }`;
const READ_0 = `import { readFile } from "node:fs/promises";
export default async () => { let total = 0; for (let i = 0; i < 0; i++) total += (await readFile("files/f" + i + ".txt", "utf8")).length; return total; }`;

export default defineSuite({
  name: "runtime",
  async run(ctx) {
    const loader = ctx.env.LOADER;
    const ws = ctx.newWorkspace({ backends: [new WorkerJavaScriptBackend({ loader, maxStdioBytes: 16 * 1024 * 1024 })] });
    let n = 0;
    // 1. cold exec of a trivial module
    const ours = await ctx.median(
      async () => {
        const i = n++;
        const r = await (await ws.runtime.exec(`export default (x) => x + ${i}`, { input: 1 })).result();
        if (r.value !== 1 + i) throw new Error(`unexpected value ${String(r.value)}`);
      },
      { runs: 20 },
    );
    const raw = await ctx.median(
      async () => {
        const i = n++;
        const worker = loader.load({
          compatibilityDate: "2026-05-23",
          compatibilityFlags: ["nodejs_compat"],
          mainModule: "runner.js",
          modules: { "runner.js": RAW_RUNNER, "entry.js": `export default (x) => x + ${i}` },
          globalOutbound: null,
        });
        const entry = worker.getEntrypoint() as unknown as { evaluate(input: unknown): Promise<string> };
        const v = JSON.parse(await entry.evaluate(1)) as number;
        if (v !== 1 + i) throw new Error("unexpected raw value");
      },
      { runs: 20 },
    );
    // 2. 100 file reads through node:fs vs workspace.fs
    await ws.fs.mkdir("/workspace/files", { recursive: true });
    for (let i = 0; i < 100; i++) await ws.fs.writeFile(`/workspace/files/f${i}.txt`, `file ${i} ${"x".repeat(1000 + i)}`);
    const readsOurs = await ctx.median(async () => {
      const r = await (
        await ws.runtime.exec(READ_100)
      ).result();
      if (typeof r.value !== "number" || r.value < 100_000) throw new Error(`bad total ${String(r.value)}`);
    });
    const readsRaw = await ctx.median(async () => {
      let total = 0;
      for (let i = 0; i < 100; i++) total += (await ws.fs.readFile(`/workspace/files/f${i}.txt`, "utf8")).length;
      if (total < 100_000) throw new Error("bad raw total");
    });
    // The same run minus one that imports node:fs and reads nothing, timed alternately: the
    // cost of the 100 reads themselves, without the cold start the row above includes.
    const readsExec = await ctx.compare(
      async () => {
        const r = await (await ws.runtime.exec(READ_100)).result();
        if (typeof r.value !== "number" || r.value < 100_000) throw new Error(`bad total ${String(r.value)}`);
      },
      async () => {
        const r = await (await ws.runtime.exec(READ_0)).result();
        if (r.value !== 0) throw new Error(`bad empty total ${String(r.value)}`);
      },
      { runs: 7 },
    );
    // 3. 10 MB of stdout
    let bytes = 0;
    const streamMs = await ctx.time(async () => {
      const r = await (
        await ws.runtime.exec(`export default () => { const l = "y".repeat(99) + "\\n"; for (let i = 0; i < 100000; i++) process.stdout.write(l); }`, { id: `big-${n++}` })
      ).result();
      bytes = r.truncated?.stdout?.totalBytes ?? 0;
      if (bytes !== 10_000_000) throw new Error(`streamed ${bytes} bytes`);
    });
    return [
      { label: "cold exec, trivial module", unit: "ms", ours, baseline: raw, target: ratioAtMost(2), note: "median of 20: runtime.exec + result() vs bare loader.load + evaluate of the same module" },
      { label: "100 reads via node:fs", unit: "ms", ours: readsOurs, baseline: readsRaw, target: ratioAtMost(3), note: "one run reading 100 ~1 KB files through the bridge vs 100 workspace.fs.readFile in the host" },
      {
        label: "100 reads via node:fs, net of cold start",
        unit: "ms",
        ours: Math.max(0, readsExec.ours - readsExec.raw),
        baseline: readsRaw,
        note: "info: median of 7 runs reading 100 files minus median of 7 runs of the same module reading none (timed alternately) vs 100 workspace.fs.readFile in the host",
      },
      { label: "10 MB stdout stream", unit: "MB/s", ours: mbps(bytes, streamMs), note: "100,000 lines written by the module; journaled, spooled to /.computer/output, tail kept" },
    ];
  },
});
