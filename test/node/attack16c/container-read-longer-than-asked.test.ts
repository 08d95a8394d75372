/**
 * Issue 20, sixteenth attack run: a pull takes a daemon `read` answer of any length — more than the 1 MiB
 * it asked for, more than the file's size in the scan — and holds 16 of them at once in its read-ahead.
 *
 * Tried: `RemoteSync.pull()` (src/runtime/sync.ts) with a stand-in daemon whose scan lists 20 files of
 * size 1 and whose every `read` (asked with `length: 1048576`, SYNC_PIECE_BYTES) answers 24 MiB (4 MiB in
 * the test below), `eof: true`. (Held: a read whose `data` is not a Uint8Array is refused EINVAL; a file
 * over MAX_PULL_FILE_BYTES is refused EFBIG.)
 *
 * Found (medium; 2 of 2 runs): `#download` enqueues whatever `data` comes back; the read-ahead (READ_AHEAD
 * 16, for files the scan says are ≤ 256 KiB, "at most 16 × 256 KiB held at once") asks 16 files ahead on
 * the daemon's word, so 16 answers of up to the 32 MiB message bound are held together: ArrayBuffer memory
 * peaked 455 MB above the start with 24 MiB answers (a 128 MB object dies). Each file, size 1 in the scan,
 * lands as 25,165,824 bytes; the outcome says `bytes: 20`.
 *
 * Suggested fix: refuse a `read` answer whose `data` is longer than the `length` asked (EINVAL "invalid
 * read from the container", the entry skipped), and for a read-ahead one longer than the scan's size; count
 * `bytes` from what was written.
 *
 * Fixed: `#download` (src/runtime/sync.ts) refuses a `read` whose `data` is longer than the SYNC_PIECE_BYTES it
 * asked for — `EINVAL: invalid read from the container (<n> bytes answered, at most 1048576 asked)`, the entry
 * skipped and not created, as a `data` that is not bytes already was — so the read-ahead holds at most 16 pieces
 * of 1 MiB; `bytes` counts what was written (a file that grew since the scan counts its written length). Not
 * refused against the scan's size: a file still being written may have grown since the scan.
 */
import { describe, expect, it } from "vitest";
import { nodeSqliteStorage, Workspace } from "../../../src/index.js";
import { RemoteSync, SYNC_PIECE_BYTES, type SyncFilesystem, type SyncRPC } from "../../../src/runtime/sync.js";

describe("attack16c: a read answer longer than asked", () => {
  it("20 files of size 1 whose reads answer 4 MiB each: none lands larger than the piece asked for", { timeout: 60_000 }, async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    await ws.fs.mkdir("/workspace", { recursive: true });
    const asked: number[] = [];
    const rpc: SyncRPC = {
      info: async () => ({ mountPoint: "/workspace", ignore: [], bootId: "boot-1" }),
      scan: async () => ({
        entries: Array.from({ length: 20 }, (_, i) => ({ path: `f${String(i).padStart(2, "0")}`, kind: "file" as const, mode: 0o644, size: 1, mtimeMs: 1 })),
        skipped: [],
        cursor: null,
        done: true,
      }),
      read: async ({ length }) => {
        asked.push(length ?? -1);
        return { data: new Uint8Array(4 * 1024 * 1024).fill(97), size: 1, eof: true };
      },
      apply: async ({ ops }) => ({ results: ops.map(() => ({ ok: true as const })) }),
    };
    const out = await new RemoteSync(ws.db, ws.fs as SyncFilesystem, "box", rpc).pull();
    const sizes = await Promise.all(Array.from({ length: 20 }, (_, i) => ws.fs.lstat(`/workspace/f${String(i).padStart(2, "0")}`).then((s) => s.size, () => 0)));
    await ws.close();
    expect(asked.every((n) => n === SYNC_PIECE_BYTES)).toBe(true);
    // Found: every file 4,194,304 bytes (applied 20, bytes 20, skipped 0).
    expect(Math.max(...sizes)).toBeLessThanOrEqual(SYNC_PIECE_BYTES);
    expect(out.bytes).toBe(sizes.reduce((a, b) => a + b, 0));
    // Each refused (and not created), with the reason.
    expect(sizes).toEqual(Array(20).fill(0));
    expect(out).toEqual({
      applied: 0,
      bytes: 0,
      skipped: Array.from({ length: 20 }, (_, i) => ({
        path: `/workspace/f${String(i).padStart(2, "0")}`,
        op: "write",
        reason: "EINVAL: invalid read from the container (4194304 bytes answered, at most 1048576 asked)",
      })),
    });
  });

  it("an answer of exactly the piece asked for lands (a file grown since the scan), its bytes counted as written", async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    await ws.fs.mkdir("/workspace", { recursive: true });
    const rpc: SyncRPC = {
      info: async () => ({ mountPoint: "/workspace", ignore: [], bootId: "boot-1" }),
      scan: async () => ({ entries: [{ path: "grown", kind: "file" as const, mode: 0o644, size: 1, mtimeMs: 1 }], skipped: [], cursor: null, done: true }),
      read: async () => ({ data: new Uint8Array(SYNC_PIECE_BYTES).fill(98), size: SYNC_PIECE_BYTES, eof: true }),
      apply: async ({ ops }) => ({ results: ops.map(() => ({ ok: true as const })) }),
    };
    const out = await new RemoteSync(ws.db, ws.fs as SyncFilesystem, "box", rpc).pull();
    const size = (await ws.fs.lstat("/workspace/grown")).size;
    await ws.close();
    expect(out).toEqual({ applied: 1, bytes: SYNC_PIECE_BYTES, skipped: [] });
    expect(size).toBe(SYNC_PIECE_BYTES);
  });
});
