/**
 * Change tracking (spec 01 §4 item 8) on Durable Object SQLite: revisions,
 * stamps, tombstones, paging, a second Workspace over the same storage, and
 * a failed write. The node suite (test/node/fs/changes.test.ts) covers the
 * rest, including the differential replay onto a real directory.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import type { ChangeCursor, ChangeEntry } from "../../../src/fs/changes.js";
import type { WorkspaceFs } from "../../../src/fs/index.js";

const T0 = 1_700_000_000_000;

function drain(fs: WorkspaceFs, cursor: ChangeCursor, limit: number): { entries: ChangeEntry[]; cursor: ChangeCursor } {
  const entries: ChangeEntry[] = [];
  for (;;) {
    const page = fs.changesSince(cursor, { limit });
    expect(page.entries.length).toBeLessThanOrEqual(limit);
    entries.push(...page.entries);
    cursor = page.cursor;
    if (page.done) return { entries, cursor };
  }
}

describe("change tracking (workers)", () => {
  it("stamps, tombstones and pages on Durable Object storage, and a cursor outlives the Workspace", async () => {
    const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
    await runInDurableObject(stub, async (_instance, state) => {
      const first = new Workspace({ storage: state.storage, now: () => T0 });
      const fs = first.fs as unknown as WorkspaceFs;
      expect(fs.revision()).toBe(0);
      await fs.mkdir("/src/b", { recursive: true }); // 1
      await fs.writeFile("/src/a", "A"); // 2
      await fs.writeFile("/src/b/c", new Uint8Array(600 * 1024).fill(1)); // 3 (two chunks)
      await fs.symlink("a", "/src/l"); // 4
      await expect(fs.writeFile("/src/b", "x")).rejects.toMatchObject({ code: "EISDIR" });
      await expect(fs.rename("/src", "/src/b/in")).rejects.toMatchObject({ code: "EINVAL" });
      expect(fs.revision()).toBe(4);
      const cursor = drain(fs, { rev: 0, path: null }, 2).cursor;
      expect(cursor).toEqual({ rev: 4, path: null });
      await fs.rename("/src", "/dst"); // 5
      await fs.rm("/dst/b", { recursive: true }); // 6
      await first.close();

      const second = new Workspace({ storage: state.storage, now: () => T0 });
      const again = second.fs as unknown as WorkspaceFs;
      expect(again.revision()).toBe(6);
      await again.chmod("/dst/a", 0o600); // 7
      const later = drain(again, cursor, 2);
      expect(later.entries).toEqual([
        { path: "/dst", kind: "directory", rev: 5, mode: 0o755, mtime: T0 },
        { path: "/dst/l", kind: "symlink", rev: 5, mode: 0o777, mtime: T0, size: 1, target: "a" },
        { path: "/src", kind: "deleted", rev: 5, subtree: true },
        { path: "/dst/b", kind: "deleted", rev: 6, subtree: true },
        { path: "/dst/a", kind: "file", rev: 7, mode: 0o600, mtime: T0, size: 1 },
      ]);
      expect(later.cursor).toEqual({ rev: 7, path: null });
      expect(again.pruneTombstones(5)).toBe(1);
      await expect(Promise.resolve().then(() => again.changesSince({ rev: 4, path: null }))).rejects.toMatchObject({ code: "EINVAL" });
      expect(drain(again, { rev: 5, path: null }, 10).entries.map((e) => [e.path, e.kind, e.rev])).toEqual([
        ["/dst/b", "deleted", 6],
        ["/dst/a", "file", 7],
      ]);
      await second.close();
    });
  });
});
