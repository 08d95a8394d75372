/**
 * Issue 20 seventh attack run, categories 1 and 2: runs that start runs.
 * - `ws:tools` built from the agent's pi tools (`forPiTools`): by default
 *   `exec` is not exported, so code cannot start runs (`does not provide an
 *   export named 'exec'`) — withstood;
 * - with `exclude: []` (the host opts in), a module that execs itself 200
 *   levels deep (each level waits for the next): all 200 nested runs
 *   complete and the value comes back through every level;
 * - 300 runs started at once from the host (a model's parallel exec calls):
 *   all complete with their values.
 * Withstood. Noted for the maintainers, not a defect: nothing bounds how
 * many runs are live at once or how deep runs nest when the host exports
 * `exec` — with a fan-out of two per level that is 2^depth Dynamic Workers;
 * docs/runtime.md could say so where `exclude` is described.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { createToolBindings, forPiTools } from "../../../src/modules/tools.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";

const REC = `import { exec } from "ws:tools"; import { readFile } from "node:fs/promises";
export default async (input) => {
  const d = (input && input.d) || 0;
  if (d >= 200) return d;
  const r = await exec({ command: await readFile("/workspace/rec.js", "utf8"), input: { d: d + 1 } });
  if (r.isError) return "error at " + d + ": " + r.text.slice(0, 200);
  return r.details.result;
};`;

function withTools<T>(exclude: string[] | undefined, fn: (ws: Workspace) => Promise<T>): Promise<T> {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_i, state) => {
    let tools: ReturnType<typeof createPiTools> | undefined;
    const lazy = { get tools() { return tools!.tools; }, execute: (c: never, o: never) => tools!.execute(c, o), readOnly: ["read", "ls", "find", "grep"] };
    const bindings = createToolBindings(forPiTools(lazy as never), exclude === undefined ? {} : { exclude });
    const ws = new Workspace({ storage: state.storage, backends: [new WorkerJavaScriptBackend({ loader: env.LOADER, modules: { "ws:tools": bindings } })] });
    tools = createPiTools({ workspace: ws });
    try {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.writeFile("/workspace/rec.js", REC);
      return await fn(ws);
    } finally {
      await ws.close();
    }
  });
}

describe("attack7: runs that start runs", () => {
  it("by default ws:tools has no exec: the module does not link", { timeout: 60_000 }, async () => {
    const r = await withTools(undefined, async (ws) => (await ws.runtime.exec(REC, { encoding: "utf8" })).result());
    expect(r).toMatchObject({ status: "failed", exitCode: 1, stderr: "The requested module '/__modules__/ws/tools.js' does not provide an export named 'exec'\n" });
  });

  it("with exec exported, 200 nested runs complete and the innermost value comes back", { timeout: 120_000 }, async () => {
    const r = await withTools([], async (ws) => (await ws.runtime.exec(REC, { encoding: "utf8", input: { d: 0 } })).result());
    expect(r).toMatchObject({ status: "completed", exitCode: 0, value: 200 });
  });

  it("300 runs started at once all complete with their values", { timeout: 120_000 }, async () => {
    const r = await withTools(undefined, async (ws) =>
      Promise.all(Array.from({ length: 300 }, async (_, i) => (await ws.runtime.exec(`export default async () => { await new Promise((r) => setTimeout(r, 300)); return ${i}; }`)).result())),
    );
    expect(r.map((x) => x.value)).toEqual(Array.from({ length: 300 }, (_, i) => i));
  });
});
