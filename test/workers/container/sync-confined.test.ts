/**
 * Issue 20 (attack8 fixes): a pull changes nothing outside /workspace — it
 * never follows a Workspace link on the way to an entry, and a link the
 * container makes that leads outside /workspace in the Workspace is refused.
 * A real local daemon, a Durable Object in workerd.
 */
import { describe, expect, it } from "vitest";
import { inWorkspace, sh, startContainer, waitFor } from "./helpers.js";

describe("container sync: a pull stays under /workspace", () => {
  it("a Workspace link where the container has a directory is replaced by a directory, never written through", async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      await ws.fs.mkdir("/host", { recursive: true });
      await ws.fs.writeFile("/host/x", "host data");
      const one = await sh(ws, "mkdir -p a/b && echo 0 > a/b/x");
      expect(one.sync).toEqual({ status: "complete", applied: 3, skipped: [] });
      // While the command waits, the host replaces the directory a by a link to /host (allowed: host code).
      const h = await ws.runtime.exec(`${waitFor(".go")}; echo pwned > a/b/x`, { backend: "box", encoding: "utf8", timeoutMs: 60_000 });
      await ws.fs.rm("/workspace/a", { recursive: true });
      await ws.fs.mkdir("/host/b", { recursive: true });
      await ws.fs.symlink("/host", "/workspace/a");
      await c.put(".go", "");
      const r = await h.result();
      expect(r.exitCode).toBe(0);
      expect(r.sync).toMatchObject({ status: "complete", skipped: [] });
      expect(await ws.fs.readFile("/host/x", "utf8")).toBe("host data");
      await expect(ws.fs.lstat("/host/b/x")).rejects.toMatchObject({ code: "ENOENT" });
      // The container won: a is a directory again, with its changed file.
      expect((await ws.fs.lstat("/workspace/a")).isDirectory).toBe(true);
      expect((await ws.fs.lstat("/workspace/a/b")).isDirectory).toBe(true);
      expect(await ws.fs.readFile("/workspace/a/b/x", "utf8")).toBe("pwned\n");
    });
  });

  it("a Workspace file where the container has a directory is replaced by it", async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      const one = await sh(ws, "mkdir d && echo 0 > d/x");
      expect(one.sync).toEqual({ status: "complete", applied: 2, skipped: [] });
      const h = await ws.runtime.exec(`${waitFor(".go")}; echo 1 > d/x`, { backend: "box", encoding: "utf8", timeoutMs: 60_000 });
      await ws.fs.rm("/workspace/d", { recursive: true });
      await ws.fs.writeFile("/workspace/d", "a file now");
      await c.put(".go", "");
      const r = await h.result();
      expect(r.exitCode).toBe(0);
      expect(r.sync).toMatchObject({ status: "complete", skipped: [] });
      expect((await ws.fs.lstat("/workspace/d")).isDirectory).toBe(true);
      expect(await ws.fs.readFile("/workspace/d/x", "utf8")).toBe("1\n");
    });
  });

  it("a deletion the container made is never applied through a Workspace link", async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      await ws.fs.mkdir("/host", { recursive: true });
      await ws.fs.writeFile("/host/x", "host data");
      const one = await sh(ws, "mkdir p && echo 0 > p/x");
      expect(one.sync).toEqual({ status: "complete", applied: 2, skipped: [] });
      // While the command deletes p/x (p stays), the host replaces the directory p by a link to /host.
      const h = await ws.runtime.exec(`${waitFor(".go")}; rm p/x`, { backend: "box", encoding: "utf8", timeoutMs: 60_000 });
      await ws.fs.rm("/workspace/p", { recursive: true });
      await ws.fs.symlink("/host", "/workspace/p");
      await c.put(".go", "");
      const r = await h.result();
      expect(r.exitCode).toBe(0);
      expect(await ws.fs.readFile("/host/x", "utf8")).toBe("host data");
    });
  });

  it("container links that lead outside /workspace are refused; links that stay under it are pulled", async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      await ws.fs.mkdir("/host", { recursive: true });
      // A Workspace link (host-made) that leads out: a container link through it leads out too.
      await ws.fs.symlink("/host", "/workspace/out");
      const r = await sh(
        ws,
        "mkdir -p sub/deep && echo hi > sub/x && ln -s /host abs && ln -s ../.. sub/up && ln -s ../x sub/deep/ok && " +
          "ln -s /workspace/sub in && ln -s .. sub/root && ln -s out/y via && ln -s sub/deep/../x lexical",
      );
      expect(r.exitCode).toBe(0);
      expect(r.sync.status).toBe("complete");
      const skipped = (r.sync as { skipped: { path: string; op?: string; reason: string }[] }).skipped;
      expect([...skipped].sort((a, b) => (a.path < b.path ? -1 : 1))).toEqual([
        { path: "/workspace/abs", op: "write", reason: "link leads outside /workspace" },
        { path: "/workspace/sub/up", op: "write", reason: "link leads outside /workspace" },
        { path: "/workspace/via", op: "write", reason: "link leads outside /workspace" },
      ]);
      await expect(ws.fs.lstat("/workspace/abs")).rejects.toMatchObject({ code: "ENOENT" });
      await expect(ws.fs.lstat("/workspace/sub/up")).rejects.toMatchObject({ code: "ENOENT" });
      await expect(ws.fs.lstat("/workspace/via")).rejects.toMatchObject({ code: "ENOENT" });
      expect(await ws.fs.readlink("/workspace/sub/deep/ok")).toBe("../x");
      expect(await ws.fs.readlink("/workspace/in")).toBe("/workspace/sub");
      expect(await ws.fs.readlink("/workspace/sub/root")).toBe("..");
      // `..` after a name is stored lexically, as a confined JavaScript run stores it.
      expect(await ws.fs.readlink("/workspace/lexical")).toBe("sub/x");
      expect(await ws.fs.readFile("/workspace/sub/deep/ok", "utf8")).toBe("hi\n");
      // The next command leaves them refused (skipped again), and pushes nothing back over the container's links.
      const again = await sh(ws, "readlink abs sub/up");
      expect(again.stdout).toBe("/host\n../..\n");
      expect(again.sync.status).toBe("complete");
      expect((again.sync as { skipped: unknown[] }).skipped).toHaveLength(3);
    });
  });
});
