import { describe, expect, it } from "vitest";
import { inShellWorkspace, sh } from "./helpers.js";

describe("worker-shell: commands over the Workspace's own files", () => {
  it("writes with a redirect that workspace.fs reads at once, and reads what workspace.fs wrote", async () => {
    const out = await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace", { recursive: true });
      const first = await sh(ws, "echo hi > /workspace/a.txt && echo done");
      const read = await ws.fs.readFile("/workspace/a.txt", "utf8");
      await ws.fs.writeFile("/workspace/b.txt", "from host\n");
      const second = await sh(ws, "cat b.txt; wc -l < b.txt");
      return { first, read, second };
    });
    expect([out.first.exitCode, out.first.stdout, out.first.stderr]).toEqual([0, "done\n", ""]);
    expect(out.read).toBe("hi\n");
    expect([out.second.exitCode, out.second.stdout]).toEqual([0, "from host\n1\n"]);
  });
});
