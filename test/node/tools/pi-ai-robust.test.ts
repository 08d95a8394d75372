import { expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";

// pi's execute() must never throw, whatever the model sends (seed 000).
it("returns isError for arguments nested deeper than the stack, and writes nothing", async () => {
  const workspace = new Workspace({ storage: nodeSqliteStorage() });
  const { execute } = createPiTools({ workspace });
  let deep: unknown = "x";
  for (let i = 0; i < 20_000; i++) deep = { deep };
  const deepJson = '{"deep":'.repeat(20_000) + '"x"' + "}".repeat(20_000);
  for (const args of [{ path: "/workspace/a.txt", content: deep }, deep, deepJson]) {
    const result = await execute({ id: "1", name: "write", arguments: args as Record<string, unknown> });
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({ type: "text" });
    expect((result.content[0] as { text: string }).text.length).toBeGreaterThan(0);
  }
  expect(await workspace.fs.ls("/")).toEqual([]);
});
