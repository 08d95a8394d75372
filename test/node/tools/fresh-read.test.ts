/**
 * Issue 12 §4: stale writes. Agent A reads `v1`, agent B edits it to `v2`,
 * A writes `v1\nA-note\n`. Without the guard (0.8.0) B's edit is lost; with
 * `write: { requireFreshRead: true }` A's write fails and tells it to read
 * again. Each step runs through every adapter's own loop.
 */
import { describe, expect, it } from "vitest";
import { ledgerOf } from "../../../src/tools/core/freshness.js";
import { readDefinition } from "../../../src/tools/core/read.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { WorkspaceFileStore, type WorkspaceLike } from "../../../src/tools/core/store.js";
import { writeDefinition } from "../../../src/tools/core/write.js";
import { Workspace } from "../../../src/workspace.js";
import { drivers } from "./adapter-drivers.js";
import { setup, text } from "./helpers.js";

const P = "/workspace/notes.md";
const STALE = `File changed since it was last read: ${P}. Read it again, then write, so that the changes made since are not lost.`;
const UNREAD = `File has not been read: ${P} already exists. Read it first, then write, so that its current content is not lost.`;
const readV1 = { isError: false, text: "v1" };
const editV2 = { path: P, edits: [{ oldText: "v1", newText: "v2" }] };
const editedV2 = { isError: false, text: JSON.stringify({ path: P, editsApplied: 1, diff: "-1 v1\n+1 v2", patch: `Index: ${P}\n===================================================================\n--- ${P}\n+++ ${P}\n@@ -1,1 +1,1 @@\n-v1\n+v2\n`, firstChangedLine: 1 }) };
const writeA = { path: P, content: "v1\nA-note\n" };
const wrote = (path: string, n: number) => ({ isError: false, text: JSON.stringify({ path, bytesWritten: n }) });

/** `workspace.fs`, with `writeFile` held at a gate once armed (to hold an edit inside its lock). */
function gatedFs(workspace: Workspace) {
  const fs = workspace.fs;
  let armed = false;
  let entered!: () => void;
  let release!: () => void;
  const inside = new Promise<void>((r) => (entered = r));
  const gate = new Promise<void>((r) => (release = r));
  const wrapped: WorkspaceLike["fs"] = {
    stat: (...a) => fs.stat(...a),
    readFile: ((...a: Parameters<typeof fs.readFile>) => fs.readFile(...a)) as typeof fs.readFile,
    async writeFile(...a) {
      if (armed) {
        armed = false;
        entered();
        await gate;
      }
      return fs.writeFile(...a);
    },
    mkdir: (...a) => fs.mkdir(...a),
    rm: (...a) => fs.rm(...a),
    find: (...a) => fs.find(...a),
    grep: (...a) => fs.grep(...a),
    readdir: (...a) => fs.readdir(...a),
  };
  return { fs: wrapped, arm: () => (armed = true), inside, release: () => release() };
}

describe("stale writes (issue 12 §4)", () => {
  for (const driver of drivers()) {
    describe(driver.name, () => {
      it("A reads v1, B edits it to v2, A writes: with requireFreshRead the write fails and B's edit stays; after a new read it goes through", async () => {
        const { workspace } = await setup({ [P]: "v1\n" });
        const a = driver.build({ workspace, write: { requireFreshRead: true } });
        const b = driver.build({ workspace });
        expect(await driver.call(a, "read", { path: P })).toEqual(readV1);
        expect(await driver.call(b, "edit", editV2)).toEqual(editedV2);
        expect(await driver.call(a, "write", writeA)).toEqual({ isError: true, text: STALE });
        expect(await text(workspace, P)).toBe("v2\n");
        // Read again: the write goes through, and a second write needs no new read (the set saw what it wrote).
        expect(await driver.call(a, "read", { path: P })).toEqual({ isError: false, text: "v2" });
        expect(await driver.call(a, "write", { path: P, content: "v2\nA-note\n" })).toEqual(wrote(P, 10));
        expect(await driver.call(a, "write", { path: P, content: "v2\nA-note\nmore\n" })).toEqual(wrote(P, 15));
        expect(await text(workspace, P)).toBe("v2\nA-note\nmore\n");
      });

      it("without the guard (the default, as 0.8.0) the same write succeeds and B's edit is lost", async () => {
        const { workspace } = await setup({ [P]: "v1\n" });
        const a = driver.build({ workspace });
        const b = driver.build({ workspace });
        expect(await driver.call(a, "read", { path: P })).toEqual(readV1);
        expect(await driver.call(b, "edit", editV2)).toEqual(editedV2);
        expect(await driver.call(a, "write", writeA)).toEqual(wrote(P, 10));
        expect(await text(workspace, P)).toBe("v1\nA-note\n");
      });

      it("with the guard: an existing file never read is refused, a new file is written, an edit counts as a read", async () => {
        const { workspace } = await setup({ [P]: "v1\n" });
        const a = driver.build({ workspace, write: { requireFreshRead: true } });
        expect(await driver.call(a, "write", writeA)).toEqual({ isError: true, text: UNREAD });
        expect(await text(workspace, P)).toBe("v1\n");
        expect(await driver.call(a, "write", { path: "/workspace/new/n.md", content: "n\n" })).toEqual(wrote("/workspace/new/n.md", 2));
        expect(await driver.call(a, "edit", editV2)).toMatchObject({ isError: false });
        expect(await driver.call(a, "write", { path: P, content: "v3\n" })).toEqual(wrote(P, 3));
        expect(await text(workspace, P)).toBe("v3\n");
        // Another tool set's read does not count for this one.
        const other = driver.build({ workspace, write: { requireFreshRead: true } });
        expect(await driver.call(other, "write", { path: P, content: "x\n" })).toEqual({ isError: true, text: UNREAD });
      });

      it("under a root, a read of the relative name counts for a write of the absolute one", async () => {
        const { workspace } = await setup({ [P]: "v1\n" });
        const a = driver.build({ workspace, root: "/workspace", write: { requireFreshRead: true } });
        expect(await driver.call(a, "read", { path: "notes.md" })).toEqual(readV1);
        expect(await driver.call(a, "write", { path: P, content: "v1\nA-note\n" })).toEqual(wrote(P, 10));
        expect(await text(workspace, P)).toBe("v1\nA-note\n");
      });

      it("a guarded write racing an edit (the edit inside its lock first) fails; the edit is never lost", async () => {
        const { workspace } = await setup({ [P]: "v1\n" });
        const gated = gatedFs(workspace);
        const a = driver.build({ workspace: { fs: gated.fs }, write: { requireFreshRead: true } });
        const b = driver.build({ workspace: { fs: gated.fs } });
        expect(await driver.call(a, "read", { path: P })).toEqual(readV1);
        gated.arm();
        const edit = driver.call(b, "edit", editV2);
        await gated.inside; // B's edit holds the lock and is about to write v2.
        const write = driver.call(a, "write", writeA);
        setTimeout(gated.release, 30);
        expect(await Promise.all([edit, write])).toEqual([editedV2, { isError: true, text: STALE }]);
        expect(await text(workspace, P)).toBe("v2\n");
      });

      it("the same race without the guard: the write waits for the edit's lock, then overwrites it (0.8.0)", async () => {
        const { workspace } = await setup({ [P]: "v1\n" });
        const gated = gatedFs(workspace);
        const a = driver.build({ workspace: { fs: gated.fs } });
        const b = driver.build({ workspace: { fs: gated.fs } });
        expect(await driver.call(a, "read", { path: P })).toEqual(readV1);
        gated.arm();
        const edit = driver.call(b, "edit", editV2);
        await gated.inside;
        const write = driver.call(a, "write", writeA);
        setTimeout(gated.release, 30);
        expect(await Promise.all([edit, write])).toEqual([editedV2, wrote(P, 10)]);
        expect(await text(workspace, P)).toBe("v1\nA-note\n");
      });
    });
  }
});

describe("the guard's memory", () => {
  it("same size, a frozen clock, different bytes is stale (a content hash decides)", async () => {
    // A clock that does not move, as workerd's does not while a request runs without I/O.
    const workspace = new Workspace({ storage: nodeSqliteStorage(":memory:"), now: () => 1_700_000_000_000 });
    await workspace.fs.mkdir("/workspace", { recursive: true });
    await workspace.fs.writeFile(P, "v1\n");
    const store = new WorkspaceFileStore(workspace);
    // read built before write: it finds the store's memory when called.
    const read = readDefinition({ store });
    const write = writeDefinition({ store, requireFreshRead: true });
    expect(await read.execute({ path: P })).toMatchObject({ content: "v1" });
    const before = await workspace.fs.stat(P);
    await workspace.fs.writeFile(P, "v2\n"); // the clock has not moved: same size, and the mtime moves by just 1 ms (every change moves it)
    const after = await workspace.fs.stat(P);
    expect([after.mtime, after.size]).toEqual([before.mtime + 1, before.size]);
    expect(await write.execute(writeA)).toEqual({ error: STALE });
    expect(await text(workspace, P)).toBe("v2\n");
  });

  it("holds at most freshReadMaxPaths paths (least recently recorded forgotten first); one memory per store", async () => {
    const { workspace, store } = await setup({ "/workspace/1": "1", "/workspace/2": "2", "/workspace/3": "3" });
    const read = readDefinition({ store });
    const write = writeDefinition({ store, requireFreshRead: true, freshReadMaxPaths: 2 });
    for (const p of ["/workspace/1", "/workspace/2", "/workspace/3"]) await read.execute({ path: p });
    expect(ledgerOf(store)!.size).toBe(2);
    expect(await write.execute({ path: "/workspace/1", content: "x" })).toEqual({
      error: "File has not been read: /workspace/1 already exists. Read it first, then write, so that its current content is not lost.",
    });
    expect(await write.execute({ path: "/workspace/3", content: "x" })).toEqual({ path: "/workspace/3", bytesWritten: 1 });
    expect(await text(workspace, "/workspace/1")).toBe("1");
    // A read through another store object is another tool set's: it does not count here.
    const other = new WorkspaceFileStore(workspace);
    expect(ledgerOf(other)).toBeUndefined();
    await readDefinition({ store: other }).execute({ path: "/workspace/2" });
    expect(ledgerOf(other)).toBeUndefined();
    expect(() => writeDefinition({ store, requireFreshRead: true, freshReadMaxPaths: 0 })).toThrow(
      new TypeError("createWriteTool: freshReadMaxPaths must be a positive integer."),
    );
  });
});
