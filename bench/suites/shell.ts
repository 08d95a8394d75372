/**
 * Shell suite (issue 14): the worker-shell backend against the JavaScript
 * backend and the native grep, in one run.
 *
 * - `echo hi` cold (a Worker Loader key never used before: just-bash loads
 *   into a fresh isolate) and warm (the same backend again) vs a
 *   worker-javascript run of `console.log("hi")` (a fresh Dynamic Worker per
 *   run, its normal case);
 * - `grep -rn TODO /workspace/src` over 1,000 files through the shell vs
 *   `workspace.fs.grep("TODO", "/workspace/src")` of the same matches
 *   (target ≤ 5×).
 */
import { WorkerJavaScriptBackend } from "../../src/backends/worker-javascript/index.js";
import { WorkerShellBackend } from "../../src/backends/worker-shell/index.js";
import { defineSuite, ratioAtMost } from "../harness.js";

export default defineSuite({
  name: "shell",
  async run(ctx) {
    const loader = ctx.env.LOADER;
    const js = new WorkerJavaScriptBackend({ loader });
    const warm = new WorkerShellBackend({ loader, loaderId: "bench-shell-warm" });
    const ws = ctx.newWorkspace({ backends: [warm, js] });
    const shell = async (workspace: typeof ws, source: string, backend = "worker-shell") => {
      const r = await (await workspace.runtime.exec(source, { backend, encoding: "utf8" })).result();
      if (r.exitCode !== 0) throw new Error(`${source}: exit ${r.exitCode}: ${r.stderr}`);
      return r.stdout;
    };
    const jsHi = async () => {
      const r = await (await ws.runtime.exec(`export default () => { console.log("hi"); }`, { backend: "worker-javascript", encoding: "utf8" })).result();
      if (r.stdout !== "hi\n") throw new Error(`js: ${r.stdout} ${r.stderr}`);
    };
    let cold = 0;
    const coldHi = await ctx.median(
      async () => {
        const fresh = ctx.newWorkspace({ backends: [new WorkerShellBackend({ loader, loaderId: `bench-shell-cold-${Date.now()}-${cold++}` })] });
        if ((await shell(fresh, "echo hi")) !== "hi\n") throw new Error("cold echo");
        await fresh.close();
      },
      { runs: 5 },
    );
    await shell(ws, "echo hi");
    const echo = await ctx.compare(
      async () => {
        if ((await shell(ws, "echo hi")) !== "hi\n") throw new Error("warm echo");
      },
      jsHi,
      { runs: 15 },
    );

    // 1,000 files in 10 directories; every 10th file has one TODO line.
    for (let d = 0; d < 10; d++) {
      await ws.fs.mkdir(`/workspace/src/d${d}`, { recursive: true });
      for (let f = 0; f < 100; f++) {
        const i = d * 100 + f;
        const lines = Array.from({ length: 40 }, (_, l) => `const v${l} = ${i * 40 + l}; // line ${l}`);
        if (i % 10 === 0) lines[20] = `// TODO: file ${i}`;
        await ws.fs.writeFile(`/workspace/src/d${d}/f${f}.ts`, lines.join("\n") + "\n");
      }
    }
    const grep = await ctx.compare(
      async () => {
        const out = await shell(ws, "grep -rn TODO /workspace/src");
        if (out.split("\n").length !== 101) throw new Error(`shell grep: ${out.split("\n").length - 1} lines`);
      },
      async () => {
        const matches = await ws.fs.grep("TODO", "/workspace/src", { limit: 10_000 });
        if (matches.length !== 100) throw new Error(`fs.grep: ${matches.length}`);
      },
      { runs: 5 },
    );
    await ws.close();
    return [
      { label: "echo hi, cold (fresh isolate)", unit: "ms", ours: coldHi, baseline: echo.raw, note: "baseline: a worker-javascript run of console.log(\"hi\") (a fresh Dynamic Worker each run)" },
      { label: "echo hi, warm", unit: "ms", ours: echo.ours, baseline: echo.raw, target: ratioAtMost(3), note: "the same shell backend again vs worker-javascript console.log(\"hi\")" },
      { label: "grep -rn TODO, 1,000 files", unit: "ms", ours: grep.ours, baseline: grep.raw, target: ratioAtMost(5), note: "100 matching lines; baseline: workspace.fs.grep of the same query and path" },
    ];
  },
});
