/**
 * Issue 17: the sync bracket of remote-store command backends (spec 02
 * §7.3) through `TestBackend` on a real `computerd` process: the Workspace's
 * `/workspace` pushed before each command, the daemon's changes pulled
 * after, both ways for files, directories, modes, links, deletes and
 * renames, non-ASCII names, ignore globs, and `workspace.push()`/`pull()`.
 */
import { describe, expect, it } from "vitest";
import { drain, inWorkspace, sh, startContainer } from "./helpers.js";

const text = (ws: { fs: { readFile(p: string, e: "utf8"): Promise<string> } }, p: string) => ws.fs.readFile(p, "utf8");

describe("TestBackend: commands on a local computerd", () => {
  it("runs a command: output, exit code, nothing to sync", async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      const r = await sh(ws, "echo out; echo err >&2; exit 3");
      expect(r).toMatchObject({ status: "failed", exitCode: 3, stdout: "out\n", stderr: "err\n", pushed: 0, pulled: 0, skipped: [] });
      expect(r.sync).toEqual({ status: "complete", applied: 0, skipped: [] });
      expect(ws.runtime.backends()).toEqual([{ id: "box", protocol: "command", callable: false }]);
    });
  });

  it("push: files, modes, directories, links and non-ASCII names reach the container before the command", async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      await ws.fs.mkdir("/workspace/app/src", { recursive: true });
      await ws.fs.writeFile("/workspace/app/src/main.txt", "héllo\n");
      await ws.fs.writeFile("/workspace/app/run.sh", "#!/bin/sh\necho ran\n", { mode: 0o755 });
      await ws.fs.symlink("src/main.txt", "/workspace/app/link");
      await ws.fs.writeFile("/workspace/日本語.txt", "こんにちは");
      await ws.fs.writeFile("/outside.txt", "not synced");
      const r = await sh(ws, "cat src/main.txt && ./run.sh && readlink link && cat ../日本語.txt", { cwd: "/workspace/app" });
      expect(r.stdout).toBe("héllo\nran\nsrc/main.txt\nこんにちは");
      expect(r.exitCode).toBe(0);
      expect(r.pushed).toBe(6); // app, app/src, main.txt, run.sh, link, 日本語.txt
      const tree = await c.tree();
      expect(tree.get("app/run.sh")).toMatchObject({ kind: "file", mode: 0o755, size: 19 });
      expect(tree.get("app/link")).toMatchObject({ kind: "symlink", target: "src/main.txt" });
      expect(await c.text("日本語.txt")).toBe("こんにちは");
      expect(tree.has("outside.txt")).toBe(false);
      // Nothing changed since: the next command pushes nothing.
      expect((await sh(ws, "true")).pushed).toBe(0);
    });
  });

  it("pull: what the command made is in the Workspace when the result arrives", async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      const r = await sh(ws, "mkdir -p out/deep && printf made > out/deep/x.txt && ln -s deep/x.txt out/l && chmod 700 out/deep && printf '\\000\\377' > out/bin && echo é > out/é.txt");
      expect(r.exitCode).toBe(0);
      expect(r.pulled).toBe(6);
      expect(r.sync).toEqual({ status: "complete", applied: 6, skipped: [] });
      expect(await text(ws, "/workspace/out/deep/x.txt")).toBe("made");
      expect(await ws.fs.readlink("/workspace/out/l")).toBe("deep/x.txt");
      expect((await ws.fs.stat("/workspace/out/deep")).mode).toBe(0o700);
      expect(new Uint8Array(await new Response(await ws.fs.readFile("/workspace/out/bin")).arrayBuffer())).toEqual(new Uint8Array([0, 255]));
      expect(await text(ws, "/workspace/out/é.txt")).toBe("é\n");
      // Pulled entries are not pushed back.
      const again = await sh(ws, "true");
      expect([again.pushed, again.pulled]).toEqual([0, 0]);
    });
  });

  it("deletes, renames and rewrites in each direction", async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      await ws.fs.mkdir("/workspace/d/sub", { recursive: true });
      for (const n of ["a", "b", "c"]) await ws.fs.writeFile(`/workspace/d/${n}.txt`, n);
      await ws.fs.writeFile("/workspace/d/sub/s.txt", "s");
      await sh(ws, "true");
      // Workspace → container: rm, rename (file and directory), rewrite.
      await ws.fs.rm("/workspace/d/a.txt");
      await ws.fs.rename("/workspace/d/b.txt", "/workspace/d/B.txt");
      await ws.fs.rename("/workspace/d/sub", "/workspace/d/moved");
      await ws.fs.writeFile("/workspace/d/c.txt", "c2");
      const r = await sh(ws, "find d | sort && cat d/c.txt");
      expect(r.stdout).toBe("d\nd/B.txt\nd/c.txt\nd/moved\nd/moved/s.txt\nc2");
      // Container → Workspace: rm, mv, rewrite, a directory replaced by a file.
      const back = await sh(ws, "rm d/B.txt && mv d/c.txt d/C.txt && echo new > d/moved/s.txt && rm -r d/moved && echo file > d/moved");
      expect(back.exitCode).toBe(0);
      expect((await ws.fs.readdir("/workspace/d")).map((e) => e.name).sort()).toEqual(["C.txt", "moved"]);
      expect(await text(ws, "/workspace/d/C.txt")).toBe("c2");
      expect(await text(ws, "/workspace/d/moved")).toBe("file\n");
      expect((await ws.fs.stat("/workspace/d/moved")).isFile).toBe(true);
    });
  });

  it("ignore globs: ignored paths are neither pushed nor pulled", async () => {
    const c = await startContainer({ MOUNT_IGNORE: "**/node_modules" });
    await inWorkspace(c, async (ws) => {
      await ws.fs.mkdir("/workspace/p/node_modules/dep", { recursive: true });
      await ws.fs.writeFile("/workspace/p/node_modules/dep/index.js", "ws side");
      await ws.fs.writeFile("/workspace/p/index.js", "kept");
      const r = await sh(ws, "ls p && mkdir -p q/node_modules/x && echo c > q/node_modules/x/i.js && echo q > q/q.txt");
      expect(r.stdout).toBe("index.js\n");
      expect(await c.file("p/node_modules/dep/index.js")).toBeNull();
      expect(await text(ws, "/workspace/q/q.txt")).toBe("q\n");
      await expect(ws.fs.stat("/workspace/q/node_modules")).rejects.toMatchObject({ code: "ENOENT" });
    });
  });

  it("workspace.push() and pull() outside a command; none when nothing syncs", async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      expect(await drain(ws.push())).toEqual([
        { complete: true, entries: 0, bytes: 0, skipped: 0, operationId: "none", generation: "none", mode: "entries", cursor: { rev: 0, path: null } },
      ]);
      await ws.runtime.ready("box");
      await ws.fs.writeFile("/workspace/p.txt", "pushed");
      const [pushed] = await drain(ws.push());
      expect(pushed).toMatchObject({ complete: true, entries: 1, bytes: 6, skipped: 0, mode: "entries", backend: "box" });
      expect(pushed!.cursor).toEqual({ rev: (ws.fs as unknown as { revision(): number }).revision(), path: null });
      expect(await c.text("p.txt")).toBe("pushed");
      await c.put("from-container.txt", "hello");
      const [pulled] = await drain(ws.pull());
      expect(pulled).toMatchObject({ complete: true, entries: 1, bytes: 5, backend: "box" });
      expect(await text(ws, "/workspace/from-container.txt")).toBe("hello");
    });
  });
});
