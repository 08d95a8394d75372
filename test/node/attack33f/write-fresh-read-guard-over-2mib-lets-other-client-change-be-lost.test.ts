/**
 * Issue 20, thirty-third attack run: write's stale-write guard (`write: { requireFreshRead: true }`) does not protect a
 * file over 2 MiB against another client. Its check and its write are separate calls; for a file of up to 2 MiB the
 * write passes the SHA-256 it checked as `ifMatch`, so another writer that got in between (another `getWorkspace()`
 * client, another Workspace on the same storage — whose path locks this set does not see) makes it answer stale
 * (docs/tools.md, write, "Across clients and Workspaces": "A guarded write passes the hash it checked as `ifMatch` too, and
 * answers the stale-file error above when another writer got in first"). Over 2 MiB the ledger keeps size and `mtime`
 * only, `seenHash` is null, and src/tools/core/write.ts writes unconditionally: the other client's change, made after
 * the check, is overwritten by content built from an older read, and the model is told it succeeded.
 * Tried: two Workspaces on one node:sqlite storage; A's read and guarded write share one store whose `write` lets B
 * overwrite the file just before A's write lands (after A's check — the window every write has); a file of 1 MiB
 * (control) and of 3 MiB.
 * Held: at 1 MiB A's write answers the stale-file error and B's content stays.
 * Found (medium — data lost: another client's change silently overwritten, under the guard meant to stop exactly
 * that; 3 of 3 runs): at 3 MiB A's write answers `{ bytesWritten: 7 }` and B's 3 MiB are gone.
 * Suggested fix: in src/tools/core/write.ts, when the ledger holds no hash for the path, pass `fs.writeFile`'s
 * `ifUnmodified: { inode, size, mtime }` from the stat the check used (the filesystem already supports it, ESTALE when
 * the file changed) — through `FileStore.write` options — and answer the stale-file error on ESTALE.
 * Fixed: src/tools/core/write.ts passes `ifUnmodified: { inode, size, mtime }` of the stat it checked fresh when the
 * ledger holds no hash (above 2 MiB) and answers the stale-file error on ESTALE; `FileStat` carries `inode`
 * (`WorkspaceFileStore.stat`), `FileStore.write` takes `ifUnmodified`, and the ledger compares the inode above 2 MiB
 * (src/tools/core/store.ts, freshness.ts) (issue 20, run 33, fixer WG). Siblings: test/node/fix33/fresh-read-guard-large.test.ts.
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { createReadTool, createWriteTool, WorkspaceFileStore } from "../../../src/tools/index.js";
import { wrapStore } from "../tools/helpers.js";

const options = { toolCallId: "1", messages: [], context: {} };
const STALE = {
  error: "File changed since it was last read: /workspace/data.csv. Read it again, then write, so that the changes made since are not lost.",
};

async function race(size: number) {
  const storage = nodeSqliteStorage(":memory:");
  const a = new Workspace({ storage });
  const b = new Workspace({ storage });
  await a.fs.mkdir("/workspace", { recursive: true });
  const line = "a".repeat(99) + "\n";
  await a.fs.writeFile("/workspace/data.csv", line.repeat(Math.floor(size / 100)) + "z".repeat((size % 100) - 1) + "\n");
  const base = new WorkspaceFileStore(a);
  let raced = false;
  const store = wrapStore(base, {
    async write(path, bytes, o) {
      if (!raced) {
        raced = true;
        // Another client's change lands after A's freshness check, before A's write.
        await b.fs.writeFile("/workspace/data.csv", "B".repeat(size - 1) + "\n");
      }
      return base.write(path, bytes, o);
    },
  });
  const readTool = createReadTool({ store });
  const writeTool = createWriteTool({ store, requireFreshRead: true });
  const read = await readTool.execute!({ path: "/workspace/data.csv", limit: 1 }, options);
  const write = await writeTool.execute!({ path: "/workspace/data.csv", content: "A wins\n" }, options);
  const after = await a.fs.readFile("/workspace/data.csv", "utf8");
  storage.close();
  return { read, write, after };
}

describe("attack33f: requireFreshRead over 2 MiB and another client", () => {
  it("1 MiB (held): the write racing another client's change answers stale and the change stays", async () => {
    const { write, after } = await race(1 << 20);
    expect(write).toEqual(STALE);
    expect(after).toBe("B".repeat((1 << 20) - 1) + "\n");
  });

  it("3 MiB: the write racing another client's change answers stale and the change stays", async () => {
    const { read, write, after } = await race(3 << 20);
    expect(read).toMatchObject({ truncated: true });
    // Was: { path: "/workspace/data.csv", bytesWritten: 7 }, and the file "A wins\n".
    expect(write).toEqual(STALE);
    expect(after).toBe("B".repeat((3 << 20) - 1) + "\n");
  });
});
