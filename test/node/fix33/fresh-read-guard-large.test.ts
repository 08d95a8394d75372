/**
 * Issue 20, run 33, fixer WG — sibling of
 * test/node/attack33f/write-fresh-read-guard-over-2mib-lets-other-client-change-be-lost.test.ts.
 *
 * write's stale-write guard (`requireFreshRead`) against writers its path lock does not see (another Workspace on
 * the same storage), on both sides of the ledger's hash limit (`FRESHNESS_HASH_MAX_BYTES`, 2 MiB): up to it the write
 * is conditional on the SHA-256 it checked (`ifMatch`), above it on the inode, size and mtime of the stat it checked
 * (`ifUnmodified`). Each case checks the tool's answer and the bytes left in storage:
 * - another writer's change landing between the check and the write (same size, so only mtime / content differ):
 *   the stale-file error, the other writer's bytes kept — at 2 MiB − 1 KiB, exactly 2 MiB, 2 MiB + 1 and 3 MiB;
 * - the same without a race: the write lands (the guard does not refuse a fresh large file);
 * - another file of the same size put at the path by rename, in the same millisecond (a frozen clock): the ledger's
 *   check (inode now compared above 2 MiB) and the write's `ifUnmodified` (inode) both refuse it, the renamed file kept;
 * - the file removed by the other writer between the check and the write: an error, nothing created, on both sides;
 * - the parent directory removed recursively by the other writer between the check and the write (guarded write,
 *   1 MiB and 3 MiB; edit): an error, and the directory is not recreated (a conditional store write makes no parents;
 *   it recreated `/workspace` empty while answering ENOENT);
 * - edit (not guarded, always `ifMatch` with the hash of what it read, any size up to its `maxBytes`): racing another
 *   writer, it applies its batch again to that writer's bytes, on both sides of 2 MiB — the other change kept.
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { createEditTool, createReadTool, createWriteTool, WorkspaceFileStore } from "../../../src/tools/index.js";
import { FRESHNESS_HASH_MAX_BYTES } from "../../../src/tools/core/freshness.js";
import { wrapStore } from "../tools/helpers.js";

const options = { toolCallId: "1", messages: [], context: {} };
const PATH = "/workspace/data.csv";
const STALE = {
  error: `File changed since it was last read: ${PATH}. Read it again, then write, so that the changes made since are not lost.`,
};

/** `size` bytes of 100-byte lines of `ch` (the last line shorter), ending in "\n". */
function body(ch: string, size: number): string {
  const line = ch.repeat(99) + "\n";
  const rest = size % 100;
  return line.repeat(Math.floor(size / 100)) + (rest === 0 ? "" : ch.repeat(rest - 1) + "\n");
}

async function text(ws: Workspace, path: string): Promise<string> {
  return ws.fs.readFile(path, "utf8");
}

async function exists(ws: Workspace, path: string): Promise<boolean> {
  return ws.fs.stat(path).then(
    () => true,
    (err: { code?: string }) => {
      if (err.code === "ENOENT") return false;
      throw err;
    },
  );
}

/** Two Workspaces on one storage; A's tools over a store whose `write` first runs `between` (once), after A's check. */
async function pair(size: number, between?: (b: Workspace) => Promise<void>, clock?: () => number) {
  const storage = nodeSqliteStorage(":memory:");
  const a = new Workspace(clock ? { storage, now: clock } : { storage });
  const b = new Workspace(clock ? { storage, now: clock } : { storage });
  await a.fs.mkdir("/workspace", { recursive: true });
  await a.fs.writeFile(PATH, body("a", size));
  const base = new WorkspaceFileStore(a);
  let raced = false;
  const store = wrapStore(base, {
    async write(path, bytes, o) {
      if (!raced && between) {
        raced = true;
        await between(b);
      }
      return base.write(path, bytes, o);
    },
  });
  // The write tool first: building it with requireFreshRead makes the store's ledger, which read then fills.
  const write = createWriteTool({ store, requireFreshRead: true });
  const read = createReadTool({ store });
  return { storage, a, b, store, read, write };
}

const SIZES = [FRESHNESS_HASH_MAX_BYTES - 1024, FRESHNESS_HASH_MAX_BYTES, FRESHNESS_HASH_MAX_BYTES + 1, 3 << 20];

describe("fix33 WG: requireFreshRead on both sides of 2 MiB, against another Workspace", () => {
  for (const size of SIZES) {
    it(`${size} bytes: another writer's same-size change after the check → stale, its bytes kept`, async () => {
      // Let the clock move between A's first write and B's (a real clock; the write of `size` bytes takes > 1 ms).
      const { storage, a, store, read, write } = await pair(size, async (b) => {
        await new Promise((resolve) => setTimeout(resolve, 2));
        await b.fs.writeFile(PATH, body("B", size));
      });
      try {
        const page = await read.execute!({ path: PATH, limit: 1 }, options);
        expect(page).toMatchObject({ content: "a".repeat(99), startLine: 1, endLine: 1, truncated: true });
        const written = await write.execute!({ path: PATH, content: "A wins\n" }, options);
        expect(written).toEqual(STALE);
        const st = await a.fs.stat(PATH);
        expect(st.size).toBe(size);
        expect(await text(a, PATH)).toBe(body("B", size));
      } finally {
        storage.close();
      }
    });

    it(`${size} bytes: no other writer → the guarded write lands`, async () => {
      const { storage, a, store, read, write } = await pair(size);
      try {
        await read.execute!({ path: PATH, limit: 1 }, options);
        const written = await write.execute!({ path: PATH, content: "A wins\n" }, options);
        expect(written).toEqual({ path: PATH, bytesWritten: 7 });
        expect(await text(a, PATH)).toBe("A wins\n");
      } finally {
        storage.close();
      }
    });

    it(`${size} bytes: the file removed by another writer after the check → error, nothing created`, async () => {
      const { storage, a, store, read, write } = await pair(size, async (b) => {
        await b.fs.rm(PATH);
      });
      try {
        await read.execute!({ path: PATH, limit: 1 }, options);
        const written = await write.execute!({ path: PATH, content: "A wins\n" }, options);
        expect(written).toMatchObject({ error: expect.stringMatching(/^ENOENT/) });
        expect(await exists(a, PATH)).toBe(false);
      } finally {
        storage.close();
      }
    });
  }

  it("3 MiB, frozen clock: another file of the same size renamed over the path before the check → stale (inode)", async () => {
    const size = 3 << 20;
    const { storage, a, b, store, read, write } = await pair(size, undefined, () => 1_700_000_000_000);
    try {
      await read.execute!({ path: PATH, limit: 1 }, options);
      await b.fs.writeFile("/workspace/other.csv", body("B", size));
      await b.fs.rename("/workspace/other.csv", PATH);
      const st = await a.fs.stat(PATH);
      expect([st.size, st.mtime]).toEqual([size, 1_700_000_000_000]);
      const written = await write.execute!({ path: PATH, content: "A wins\n" }, options);
      expect(written).toEqual(STALE);
      expect(await text(a, PATH)).toBe(body("B", size));
    } finally {
      storage.close();
    }
  });

  it("3 MiB, frozen clock: another file of the same size renamed over the path after the check → stale (ifUnmodified's inode)", async () => {
    const size = 3 << 20;
    const { storage, a, store, read, write } = await pair(
      size,
      async (b) => {
        await b.fs.writeFile("/workspace/other.csv", body("B", size));
        await b.fs.rename("/workspace/other.csv", PATH);
      },
      () => 1_700_000_000_000,
    );
    try {
      await read.execute!({ path: PATH, limit: 1 }, options);
      const written = await write.execute!({ path: PATH, content: "A wins\n" }, options);
      expect(written).toEqual(STALE);
      expect(await text(a, PATH)).toBe(body("B", size));
      expect(await exists(a, "/workspace/other.csv")).toBe(false);
    } finally {
      storage.close();
    }
  });

  for (const size of [1 << 20, 3 << 20]) {
    it(`${size} bytes: the parent removed recursively by another writer after the check → ENOENT, no directory recreated`, async () => {
      const { storage, a, read, write } = await pair(size, async (b) => {
        await b.fs.rm("/workspace", { recursive: true });
      });
      try {
        await read.execute!({ path: PATH, limit: 1 }, options);
        const written = await write.execute!({ path: PATH, content: "A wins\n" }, options);
        expect(written).toMatchObject({ error: expect.stringMatching(/^ENOENT/) });
        expect(await exists(a, "/workspace")).toBe(false);
      } finally {
        storage.close();
      }
    });
  }

  it("edit, 1 MiB: the parent removed recursively by another writer after edit's read → not found, no directory recreated", async () => {
    const size = 1 << 20;
    const { storage, a, store } = await pair(size, async (b) => {
      await b.fs.rm("/workspace", { recursive: true });
    });
    try {
      const edit = await createEditTool({ store }).execute!({ path: PATH, edits: [{ oldText: body("a", size).slice(-100), newText: "x\n" }] }, options);
      expect(edit).toEqual({ error: `File not found: ${PATH}` });
      expect(await exists(a, "/workspace")).toBe(false);
    } finally {
      storage.close();
    }
  });

  for (const size of [FRESHNESS_HASH_MAX_BYTES - 1024, 3 << 20]) {
    it(`edit, ${size} bytes: another writer's change after edit's read → the batch applied again to it`, async () => {
      const other = "B".repeat(99) + "\n" + body("a", size).slice(100);
      const { storage, a, store, read, write } = await pair(size, async (b) => {
        await b.fs.writeFile(PATH, other);
      });
      try {
        const last = body("a", size).slice(-100);
        const edit = await createEditTool({ store, maxBytes: 4 << 20 }).execute!(
          { path: PATH, edits: [{ oldText: last, newText: "edited\n" }] },
          options,
        );
        expect(edit).toMatchObject({ editsApplied: 1 });
        const after = await text(a, PATH);
        expect(after).toBe(other.slice(0, -100) + "edited\n");
        expect(after.startsWith("B".repeat(99) + "\n")).toBe(true);
      } finally {
        storage.close();
      }
    });
  }
});
