import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";

it("getWorkspace() gets the mounts ready first; over RPC reads work and writes reject with EROFS", async () => {
  await env.MOUNT_BUCKET.put("agent-mount/table.csv", "a,b\n1,2\n");
  const stub = env.MOUNT_AGENT.getByName("mount-client");
  {
    using workspace = await getWorkspace(stub);
    expect(await workspace.fs.readFile("/workspace/skills/pdf/SKILL.md", "utf8")).toBe("# PDF skill\n");
    expect(await workspace.fs.readFile("/workspace/r2/table.csv", "utf8")).toBe("a,b\n1,2\n");
    const error = await workspace.fs.writeFile("/workspace/r2/table.csv", "x").then(
      () => undefined,
      (e: { code?: string; message?: string; name?: string }) => e,
    );
    expect(error).toMatchObject({
      name: "WorkspaceFsError",
      code: "EROFS",
      message: "EROFS: read-only file system (mount at /workspace/r2), writeFile: /workspace/r2/table.csv",
    });
    await expect(workspace.fs.rm("/workspace", { recursive: true })).rejects.toMatchObject({ code: "EROFS" });
    await workspace.fs.writeFile("/workspace/notes.md", "outside the mounts");
  }
  // Inside the object, the local client sees the same store.
  await runInDurableObject(stub, async (instance) => {
    using local = await getWorkspace(instance);
    expect(await local.fs.readFile("/workspace/notes.md", "utf8")).toBe("outside the mounts");
    expect((await local.fs.readdir("/workspace")).map((e) => e.name)).toEqual(["notes.md", "r2", "skills"]);
  });
});
