import { describe, expect, it } from "vitest";
import { deleteDefinition } from "../../../src/tools/core/delete.js";
import { withPathLock } from "../../../src/tools/core/locks.js";
import { WorkspaceFileStore } from "../../../src/tools/core/store.js";
import { writeDefinition } from "../../../src/tools/core/write.js";
import { editDefinition } from "../../../src/tools/core/edit.js";
import { setup, text, wrapStore } from "./helpers.js";

describe("write (spec 03 §4.5)", () => {
  it("creates parents, reports bytes, keeps the mode on overwrite, caps content", async () => {
    const { workspace, store } = await setup();
    const write = writeDefinition({ store });
    expect(await write.execute({ path: "/workspace/deep/new/h.txt", content: "héllo" })).toEqual({ path: "/workspace/deep/new/h.txt", bytesWritten: 6 });
    expect(await text(workspace, "/workspace/deep/new/h.txt")).toBe("héllo");
    expect((await workspace.fs.stat("/workspace/deep/new/h.txt")).mode).toBe(0o644);
    await workspace.fs.writeFile("/workspace/run.sh", "#!/bin/sh\n", { mode: 0o755 });
    await write.execute({ path: "/workspace/run.sh", content: "#!/bin/sh\necho hi\n" });
    expect((await workspace.fs.stat("/workspace/run.sh")).mode).toBe(0o755);
    const small = writeDefinition({ store, maxBytes: 4 });
    expect(await small.execute({ path: "/workspace/x", content: "héllo" })).toEqual({
      error: "Content too large: 6 bytes exceeds the 4-byte write cap. Use the edit tool for incremental changes to existing files, or split the write into smaller pieces.",
    });
    expect(await workspace.fs.readdir("/workspace").then((d) => d.map((e) => e.name))).not.toContain("x");
    const dirError = (await write.execute({ path: "/workspace/deep", content: "x" })) as { error: string };
    expect(dirError.error).toContain("EISDIR");
  });
});

describe("delete (spec 03 §4.7)", () => {
  it("forced removal, recursive for non-empty directories", async () => {
    const { workspace, store } = await setup({ "/workspace/dir/a.txt": "a", "/workspace/f.txt": "f" });
    await workspace.fs.mkdir("/workspace/empty");
    const del = deleteDefinition({ store });
    expect(await del.execute({ path: "/workspace/f.txt" })).toEqual({ deleted: "/workspace/f.txt" });
    expect(await del.execute({ path: "/workspace/missing" })).toEqual({ deleted: "/workspace/missing" });
    expect(await del.execute({ path: "/workspace/empty" })).toEqual({ deleted: "/workspace/empty" });
    const notEmpty = (await del.execute({ path: "/workspace/dir" })) as { error: string };
    expect(notEmpty.error).toContain("ENOTEMPTY");
    expect(await del.execute({ path: "/workspace/dir", recursive: true })).toEqual({ deleted: "/workspace/dir" });
    expect((await workspace.fs.readdir("/workspace")).map((e) => e.name)).toEqual([]);
  });
});

describe("locks (spec 03 §5.3)", () => {
  it("stores over one fs share an identity; a write cannot land inside an edit", async () => {
    const { workspace } = await setup({ "/workspace/s.txt": "v1\n" });
    const a = new WorkspaceFileStore(workspace);
    const b = new WorkspaceFileStore(workspace);
    expect(a.lockIdentity).toBe(workspace.fs);
    expect(b.lockIdentity).toBe(a.lockIdentity);
    const order: string[] = [];
    const slow = wrapStore(a, {
      async readAll(path: string) {
        order.push("edit readAll");
        await new Promise((r) => setTimeout(r, 30));
        return a.readAll(path);
      },
      async write(path: string, bytes: Uint8Array, opts?: { mode?: number }) {
        order.push("edit write");
        return a.write(path, bytes, opts);
      },
    });
    const tracedB = wrapStore(b, {
      async write(path: string, bytes: Uint8Array, opts?: { mode?: number }) {
        order.push("other write");
        return b.write(path, bytes, opts);
      },
    });
    const edit = editDefinition({ store: slow }).execute({ path: "/workspace/s.txt", edits: [{ oldText: "v1", newText: "v2" }] });
    await new Promise((r) => setTimeout(r, 5));
    const write = writeDefinition({ store: tracedB }).execute({ path: "/workspace/s.txt", content: "later\n" });
    await Promise.all([edit, write]);
    expect(order).toEqual(["edit readAll", "edit write", "other write"]);
    expect(await text(workspace, "/workspace/s.txt")).toBe("later\n");
  });

  it("a recursive delete racing writes in its subtree: removal completes before a later write, earlier writes finish first", async () => {
    const { workspace, store } = await setup({ "/workspace/d/a.txt": "a", "/workspace/d/sub/b.txt": "b" });
    const write = writeDefinition({ store });
    const del = deleteDefinition({ store });
    const events: string[] = [];
    const traced = wrapStore(store, {
      async remove(path: string, opts: { recursive?: boolean; force?: boolean }) {
        events.push(`remove ${path} ${JSON.stringify(opts)}`);
        await new Promise((r) => setTimeout(r, 20));
        await store.remove(path, opts);
        events.push("removed");
      },
      async write(path: string, bytes: Uint8Array, opts?: { mode?: number }) {
        events.push(`write ${path}`);
        return store.write(path, bytes, opts);
      },
    });
    const tracedWrite = writeDefinition({ store: traced });
    const before = tracedWrite.execute({ path: "/workspace/d/sub/c.txt", content: "c" });
    const removal = deleteDefinition({ store: traced }).execute({ path: "/workspace/d", recursive: true });
    const after = tracedWrite.execute({ path: "/workspace/d/sub/b.txt", content: "new" });
    const unrelated = write.execute({ path: "/workspace/other.txt", content: "o" });
    expect(await Promise.all([before, removal, after, unrelated])).toEqual([
      { path: "/workspace/d/sub/c.txt", bytesWritten: 1 },
      { deleted: "/workspace/d" },
      { path: "/workspace/d/sub/b.txt", bytesWritten: 3 },
      { path: "/workspace/other.txt", bytesWritten: 1 },
    ]);
    expect(events).toEqual([
      "write /workspace/d/sub/c.txt",
      'remove /workspace/d {"recursive":true,"force":true}',
      "removed",
      "write /workspace/d/sub/b.txt",
    ]);
    expect((await workspace.fs.find("/workspace/d", "**")).map((e) => e.path)).toEqual(["/workspace/d/sub", "/workspace/d/sub/b.txt"]);
    void del;
  });

  it("unrelated paths do not wait", async () => {
    const { store } = await setup();
    const order: string[] = [];
    let release!: () => void;
    const held = withPathLock(store, "/a/x", false, () => new Promise<void>((r) => (release = r)).then(() => order.push("a")));
    await withPathLock(store, "/a/y", false, async () => order.push("b"));
    await withPathLock(store, "/a/./y/", false, async () => order.push("c"));
    release();
    await held;
    expect(order).toEqual(["b", "c", "a"]);
  });
});

describe("WorkspaceFileStore (spec 03 §5.2)", () => {
  it("readChunks ranges, stat of directories, missing paths", async () => {
    const { store } = await setup({ "/hello.txt": "hello\n", "/workspace/dir/x": "x" });
    const collect = async (it: AsyncIterable<Uint8Array>) => {
      let s = "";
      for await (const c of it) s += new TextDecoder().decode(c);
      return s;
    };
    expect(await collect(store.readChunks("/hello.txt", 2, 2))).toBe("ll");
    expect(await collect(store.readChunks("/hello.txt", 100))).toBe("");
    await expect(collect(store.readChunks("/nope"))).rejects.toThrow(/ENOENT/);
    await expect(collect(store.readChunks("/hello.txt", -1))).rejects.toThrow("readChunks: byteOffset must be a non-negative safe integer");
    await expect(collect(store.readChunks("/hello.txt", 0, 1.5))).rejects.toThrow("readChunks: byteLength must be a non-negative safe integer");
    expect(await store.stat("/workspace/dir")).toBeNull();
    expect(await store.stat("/nope")).toBeNull();
    expect(await store.stat("/hello.txt")).toMatchObject({ size: 6, mode: 0o644 });
    expect(await store.readAll("/nope")).toBeNull();
    await expect(store.stat("relative")).rejects.toThrow(/EINVAL/);
  });
});
