/** Shared set-up of Node tests over storage files: Workspaces over nodeSqliteStorage files in temporary directories, closed and removed after each test. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import { Workspace, nodeSqliteStorage, type NodeSqliteStorage } from "../../../src/index.js";

const dirs: string[] = [];
const opened: { ws: Workspace; storage: NodeSqliteStorage }[] = [];
afterEach(async () => {
  for (const { ws, storage } of opened.splice(0)) {
    await ws.close().catch(() => {});
    try {
      storage.close();
    } catch {
      /* closed already */
    }
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A path for a new storage file in a fresh temporary directory (removed after the test). */
export function storageFile(): string {
  const dir = mkdtempSync(join(tmpdir(), "ws-test-"));
  dirs.push(dir);
  return join(dir, "ws.db");
}

/** A Workspace built by `make` over a new nodeSqliteStorage of `path`, or over a storage already open (both closed after the test). */
export function openWorkspace(path: string | NodeSqliteStorage, make: (storage: NodeSqliteStorage) => Workspace): { ws: Workspace; storage: NodeSqliteStorage } {
  const storage = typeof path === "string" ? nodeSqliteStorage(path) : path;
  const entry = { ws: make(storage), storage };
  opened.push(entry);
  return entry;
}
