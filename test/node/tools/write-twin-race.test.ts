/**
 * write's settling of two spellings of one new name created at once (issue
 * 20, seventh attack run): the other spelling is made by another writer
 * between write's twin check and its create — deterministically, from
 * inside the store's `write` — and the spelling created first stays.
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { createWriteTool, WorkspaceFileStore, type MutableFileStore } from "../../../src/tools/index.js";

const NFC = "/w/Résumé.md".normalize("NFC");
const NFD = "/w/Résumé.md".normalize("NFD");
const options = { toolCallId: "1", messages: [], context: {} };

/** A WorkspaceFileStore whose `write` lets another writer act just before or just after it creates the file. */
function racingStore(workspace: Workspace, hooks: { before?: () => Promise<void>; after?: () => Promise<void> }): MutableFileStore {
  const inner = new WorkspaceFileStore(workspace);
  return {
    lockIdentity: {},
    lockPath: (path) => inner.lockPath(path),
    stat: (path) => inner.stat(path),
    readChunks: (path, offset, length) => inner.readChunks(path, offset, length),
    readAll: (path) => inner.readAll(path),
    async write(path, content, o) {
      await hooks.before?.();
      await inner.write(path, content, o);
      await hooks.after?.();
    },
    readdir: (path, o) => inner.readdir(path, o),
    inode: (path) => inner.inode(path),
    remove: (path, o) => inner.remove(path, o),
  };
}

async function setup() {
  const workspace = new Workspace({ storage: nodeSqliteStorage(":memory:") });
  await workspace.fs.mkdir("/w");
  return workspace;
}

describe("write: two spellings created at once", () => {
  it("the other spelling created between the check and the create came first: this write takes its file back and refuses", async () => {
    const workspace = await setup();
    const store = racingStore(workspace, { before: () => workspace.fs.writeFile(NFD, "other") });
    const r = await createWriteTool({ store }).execute!({ path: NFC, content: "mine" }, options);
    expect(r).toEqual({
      error: `Not written: ${NFC} would be a new file beside ${NFD} (NFD), a file with the same name in another Unicode normalisation. Write to that path instead.`,
    });
    expect((await workspace.fs.readdir("/w")).map((e) => e.name)).toEqual([NFD.slice(3)]);
    expect(await workspace.fs.readFile(NFD, "utf8")).toBe("other");
  });

  it("the other spelling created just after this create: this write stays (the other writer's check will see it)", async () => {
    const workspace = await setup();
    const store = racingStore(workspace, { after: () => workspace.fs.writeFile(NFD, "other") });
    const r = await createWriteTool({ store }).execute!({ path: NFC, content: "mine" }, options);
    expect(r).toEqual({ path: NFC, bytesWritten: 4 });
    expect(await workspace.fs.readFile(NFC, "utf8")).toBe("mine");
  });

  it("a directory of the other spelling made first wins the same way", async () => {
    const workspace = await setup();
    const store = racingStore(workspace, { before: () => workspace.fs.mkdir(NFD) });
    const r = await createWriteTool({ store }).execute!({ path: NFC, content: "mine" }, options);
    expect(r).toEqual({
      error: `Not written: ${NFC} would be a new file beside ${NFD} (NFD), a directory with the same name in another Unicode normalisation. Write to that path instead.`,
    });
    expect((await workspace.fs.readdir("/w")).map((e) => e.name)).toEqual([NFD.slice(3)]);
  });

  it("an overwrite of an existing file is not checked again", async () => {
    const workspace = await setup();
    await workspace.fs.writeFile(NFC, "old");
    const store = racingStore(workspace, { before: () => workspace.fs.writeFile(NFD, "other") });
    expect(await createWriteTool({ store }).execute!({ path: NFC, content: "new" }, options)).toEqual({ path: NFC, bytesWritten: 3 });
    expect(await workspace.fs.readFile(NFC, "utf8")).toBe("new");
  });
});
