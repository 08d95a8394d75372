import { describe, expect, it } from "vitest";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import { makeWorkspace } from "./helpers.js";
import { PNG, publishSetup, READONLY, SEVEN, WITH_PUBLISH } from "./publish-helpers.js";
import { runChat } from "./tanstack-helpers.js";

const run = runChat;

describe("publish through TanStack chat() with a scripted adapter", () => {
  it("shares files; a missing file comes back as exactly { error }; bad expiries are rejected by chat()", async () => {
    const { workspace, assets } = await publishSetup({ sessionId: "s1", files: { "/workspace/x.png": PNG } });
    const tools = createTanStackTools({ workspace });
    expect(tools.map((t) => t.name)).toEqual(WITH_PUBLISH);
    const { toolMessage, seen } = await run(tools, [
      {
        calls: [
          { id: "p1", name: "publish", input: { path: "/workspace/x.png" } },
          { id: "p2", name: "publish", input: { path: "/workspace/x.png", expiresAfterMs: 120000 } },
        ],
      },
      { calls: [{ id: "missing", name: "publish", input: { path: "/workspace/gone.png" } }] },
      {
        calls: [
          { id: "z", name: "publish", input: { path: "/workspace/x.png", expiresAfterMs: 0 } },
          { id: "neg", name: "publish", input: { path: "/workspace/x.png", expiresAfterMs: -5 } },
          { id: "frac", name: "publish", input: { path: "/workspace/x.png", expiresAfterMs: 1.5 } },
          { id: "str", name: "publish", input: { path: "/workspace/x.png", expiresAfterMs: "60" } },
        ],
      },
      { text: "ok" },
    ]);
    expect(assets.calls).toStrictEqual([
      { path: "/workspace/x.png", options: { expiresAfter: 3600000, prefix: "agent-s1" } },
      { path: "/workspace/x.png", options: { expiresAfter: 120000, prefix: "agent-s1" } },
      { path: "/workspace/gone.png", options: { expiresAfter: 3600000, prefix: "agent-s1" } },
    ]);
    expect(JSON.parse(toolMessage("p1") as string)).toEqual({ ok: true, url: "https://assets.test/agent-s1/x.png?expiresAfter=3600000&bytes=12" });
    expect(JSON.parse(toolMessage("p2") as string)).toEqual({ ok: true, url: "https://assets.test/agent-s1/x.png?expiresAfter=120000&bytes=12" });
    // Spec 03 §6, §8: the failure is the bare message, returned as exactly { error } (and it passes outputSchema).
    expect(JSON.parse(toolMessage("missing") as string)).toStrictEqual({ error: "ENOENT: no such file or directory, stat: /workspace/gone.png" });
    const error = (id: string) => (JSON.parse(toolMessage(id) as string) as { error: string }).error;
    expect(error("z")).toContain("Too small: expected number to be >0");
    expect(error("neg")).toContain("Too small: expected number to be >0");
    expect(error("frac")).toContain("Invalid input: expected int, received number");
    expect(error("str")).toContain("Invalid input: expected number, received string");
    expect((seen[0]!.tools as Array<{ name: string }>).map((t) => t.name)).toEqual(WITH_PUBLISH);
  });

  it("an empty session id leaves the prefix key out", async () => {
    const { workspace, assets } = await publishSetup({ files: { "/workspace/x.png": PNG } });
    const { toolMessage } = await run(createTanStackTools({ workspace }), [
      { calls: [{ id: "p", name: "publish", input: { path: "/workspace/x.png", expiresAfterMs: 1000 } }] },
      { text: "ok" },
    ]);
    expect(JSON.parse(toolMessage("p") as string)).toEqual({ ok: true, url: "https://assets.test/x.png?expiresAfter=1000&bytes=12" });
    expect(assets.calls).toStrictEqual([{ path: "/workspace/x.png", options: { expiresAfter: 1000 } }]);
  });

  it("approve: 'mutating' and outputSchema include publish; absent without assets, with assets: false, read-only", async () => {
    const { workspace } = await publishSetup({ sessionId: "s1" });
    const list = createTanStackTools({ workspace, approve: "mutating" });
    expect(list.map((t) => t.name)).toEqual(WITH_PUBLISH);
    for (const tool of list) expect(Object.keys(tool)).toEqual(["name", "description", "inputSchema", "outputSchema", "needsApproval", "lazy", "execute"]);
    expect(list.filter((t) => t.needsApproval).map((t) => t.name)).toEqual(["write", "edit", "delete", "publish"]);
    expect(list.filter((t) => t.outputSchema).map((t) => t.name)).toEqual(["write", "edit", "delete", "publish"]);
    const publish = createTanStackTools({ workspace, format: "object" }).publish!;
    expect(publish.needsApproval).toBeUndefined();
    const schema = publish.outputSchema!;
    expect(schema.safeParse({ ok: true, url: "https://x" }).success).toBe(true);
    expect(schema.safeParse({ ok: false, error: "boom" }).success).toBe(true);
    expect(schema.safeParse({ error: "boom" }).success).toBe(true);
    expect(schema.safeParse({ ok: true }).success).toBe(false);
    expect(schema.safeParse({ ok: "yes", url: "https://x" }).success).toBe(false);
    // execute returns the lowered value directly.
    expect(await publish.execute({ path: "/workspace/nope.txt" })).toStrictEqual({ error: "ENOENT: no such file or directory, stat: /workspace/nope.txt" });

    const bare = await makeWorkspace();
    expect(createTanStackTools({ workspace: bare }).map((t) => t.name)).toEqual(SEVEN);
    expect(createTanStackTools({ workspace, assets: false }).map((t) => t.name)).toEqual(SEVEN);
    expect(createTanStackTools({ workspace, readonly: true, approve: "mutating" }).map((t) => t.name)).toEqual(READONLY);
  });
});
