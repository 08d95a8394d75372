/**
 * Issue 20, twelfth attack run: a directory tool called from isolate code through `ws:tools`
 * (forPiTools(createPiTools({ toolDirectories }))), and the calling run killed mid-call, in real workerd.
 *
 * Tried: the outer run (JavaScript backend) awaits slow_count (2,000 steps of 20 ms, its own run in the
 * same backend); once the inner run has started, the outer run is killed (`handle.kill()`). Is the inner
 * tool run killed too (ws:tools passes `ctx.signal` as the call's abort signal), and does the outer run
 * settle as cancelled? (Held: both.)
 */
import { describe, expect, it } from "vitest";
import { createToolBindings, forPiTools } from "../../../src/modules/tools.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { loadToolDirectories } from "../../../src/tool-dirs/load.js";
import { inToolWorkspace } from "../tool-dirs/helpers.js";

describe("attack12: killing a run mid ws:tools directory-tool call", () => {
  it("the inner tool run is killed with the outer run, and the outer run settles", { timeout: 120_000 }, async () => {
    let tools: ReturnType<typeof createPiTools> | undefined;
    const out = await inToolWorkspace(
      async (ws) => {
        const runtime = ws.runtime as unknown as {
          exec: (source: string, o?: { id?: string }) => Promise<unknown>;
          killExec: (id: string, o?: unknown) => Promise<void>;
        };
        const started: string[] = [];
        const kills: string[] = [];
        const exec = runtime.exec.bind(runtime);
        const killExec = runtime.killExec.bind(runtime);
        runtime.exec = (source, o) => {
          if (o?.id) started.push(o.id);
          return exec(source, o);
        };
        runtime.killExec = (id, o) => {
          kills.push(id);
          return killExec(id, o);
        };
        const loaded = await loadToolDirectories({ workspace: ws, dirs: ["/workspace/tools"] });
        tools = createPiTools({ workspace: ws, toolDirectories: { tools: loaded.tools.filter((t) => t.name === "slow_count") } });
        const handle = await ws.runtime.exec(
          `import { slow_count } from "ws:tools";
export default async () => (await slow_count({ steps: 2000, delay_ms: 20 })).text;`,
          { id: "outer", encoding: "utf8" },
        );
        const inner = async () => started.find((id) => id.startsWith("tool.slow_count."));
        for (let i = 0; i < 500 && !(await inner()); i++) await new Promise((r) => setTimeout(r, 20));
        const innerId = await inner();
        await handle.kill();
        const result = (await handle.result()) as { status: string };
        for (let i = 0; i < 250 && !kills.includes(innerId!); i++) await new Promise((r) => setTimeout(r, 20));
        return { innerStarted: innerId !== undefined, outer: result.status, innerKilled: kills.includes(innerId!) };
      },
      // runTools: directory tools are exported only on request once ws:tools leaves them out by default (the fix of
      // ws-tools-dir-tools.test.ts); before that fix the option is ignored.
      { javascript: { modules: { "ws:tools": createToolBindings(() => forPiTools(tools!)(), { runTools: true } as Parameters<typeof createToolBindings>[1]) } } },
    );
    expect(out).toEqual({ innerStarted: true, outer: "cancelled", innerKilled: true });
  });
});
