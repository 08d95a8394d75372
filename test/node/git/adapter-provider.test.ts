/**
 * `createGitClient({ adapter })` receives the Workspace's node:fs-style
 * provider (spec 04 §2.1), so 0.8.0's way of bridging — `@platformatic/vfs`
 * over the provider — works: a repository made through that bridge is
 * read back by the built-in one.
 */
import { describe, expect, it } from "vitest";
import { VirtualFileSystem, type VirtualProvider } from "@platformatic/vfs";
import { SQLiteWorkspaceProvider, Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { createGitClient } from "../../../src/git/index.js";

describe("git adapter over the provider", () => {
  it("is called once with workspace.provider(); init/add/commit through @platformatic/vfs; the default bridge reads the result", async () => {
    const seen: unknown[] = [];
    const ws = new Workspace({
      storage: nodeSqliteStorage(":memory:"),
      git: createGitClient({
        adapter: (provider) => {
          seen.push(provider);
          const vfs = new VirtualFileSystem(provider as unknown as VirtualProvider, { moduleHooks: false });
          // isomorphic-git calls chmod when it checks out an executable; the shim's promises API lacks it.
          return { promises: { ...vfs.promises, chmod: (path: string, mode: number) => provider.chmod(path, mode) } };
        },
      }),
      defaultGitIdentity: { name: "A", email: "a@example.com" },
    });
    await ws.fs.mkdir("/repo");
    await ws.git.init({ dir: "/repo" });
    await ws.fs.writeFile("/repo/README.md", "hello\n");
    await ws.git.add({ dir: "/repo", paths: ["README.md"] });
    const { oid } = await ws.git.commit({ dir: "/repo", message: "first" });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBe(ws.provider());
    expect(seen[0]).toBeInstanceOf(SQLiteWorkspaceProvider);

    const again = new Workspace({ storage: ws.db.storage as never, git: createGitClient() });
    const log = await again.git.log({ dir: "/repo" });
    expect(log.map((c) => [c.oid, c.message])).toEqual([[oid, "first\n"]]);
    expect(await again.git.status({ dir: "/repo" })).toEqual([]);
  });
});
