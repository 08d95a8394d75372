import { afterEach } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { WorkspaceFileStore } from "../../../src/tools/core/store.js";

/** A fresh Workspace on in-memory node:sqlite with `/workspace` created. */
export async function makeWorkspace(): Promise<Workspace> {
  const workspace = new Workspace({ storage: nodeSqliteStorage(":memory:") });
  await workspace.fs.mkdir("/workspace", { recursive: true });
  return workspace;
}

export async function setup(files: Record<string, string | Uint8Array> = {}) {
  const workspace = await makeWorkspace();
  for (const [path, content] of Object.entries(files)) {
    const slash = path.lastIndexOf("/");
    if (slash > 0) await workspace.fs.mkdir(path.slice(0, slash), { recursive: true });
    await workspace.fs.writeFile(path, content);
  }
  const store = new WorkspaceFileStore(workspace);
  return { workspace, store };
}

export async function text(workspace: Workspace, path: string): Promise<string> {
  return workspace.fs.readFile(path, "utf8");
}

export async function bytes(workspace: Workspace, path: string): Promise<Uint8Array> {
  const stream = await workspace.fs.readFile(path);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export const TEN = Array.from({ length: 10 }, (_, i) => `line ${i + 1}\n`).join("");

/** A store that delegates to `base` (same lock identity) with some methods replaced. */
export function wrapStore(base: WorkspaceFileStore, overrides: Partial<Pick<WorkspaceFileStore, "stat" | "readAll" | "readChunks" | "write" | "remove">>) {
  return {
    lockIdentity: base.lockIdentity,
    stat: (p: string) => base.stat(p),
    readAll: (p: string) => base.readAll(p),
    readChunks: (p: string, o?: number, l?: number) => base.readChunks(p, o, l),
    write: (p: string, b: Uint8Array, o?: { mode?: number }) => base.write(p, b, o),
    remove: (p: string, o?: { recursive?: boolean; force?: boolean }) => base.remove(p, o),
    ...overrides,
  };
}

/**
 * In-memory node:sqlite storages that are closed after each test of the calling file: call once at
 * module level (it registers the `afterEach`), then the returned function once per storage wanted.
 */
export function memoryStorages(): () => ReturnType<typeof nodeSqliteStorage> {
  const open: ReturnType<typeof nodeSqliteStorage>[] = [];
  afterEach(() => {
    for (const storage of open.splice(0)) storage.close();
  });
  return () => {
    const storage = nodeSqliteStorage(":memory:");
    open.push(storage);
    return storage;
  };
}
