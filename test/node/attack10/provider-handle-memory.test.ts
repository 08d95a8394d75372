/**
 * Issue 20 tenth attack run, category 2 (memory from small inputs):
 * `workspace.provider()` file handles (src/fs/provider.ts
 * `WorkspaceFileHandle`).
 *
 * A `r+`/`w` handle keeps the whole file in memory from its first write
 * until `close()`, and a write at a position past the end zero-fills the gap
 * in that buffer. The bound is per handle — `maxOpenFileBytes`, 64 MiB by
 * default — justified in docs/porting.md ("holds at most maxOpenFileBytes
 * (64 MiB, EFBIG): a Durable Object has 128 MB"). Nothing bounds the sum
 * over handles: each open handle may hold its own 64 MiB.
 *
 * DEFECT (low–medium: a Durable Object killed for memory by a few calls) —
 * reproduction:
 *   const p = ws.provider();
 *   for (const name of ["a", "b", "c"]) {
 *     const h = await p.open(`/${name}`, "w");
 *     await h.write("x", 64 * 1024 * 1024 - 1);   // 1 byte, at the last allowed position
 *   }
 *   // heap + array buffers: +192 MiB, with three handles of 1 byte written each
 * Three one-byte writes (≈ 60 bytes of input) hold 3 × 64 MiB — past the
 * 128 MB a Durable Object has, so the object is reset mid-work (every
 * in-flight write of every caller lost), which is what the per-handle bound
 * was meant to prevent. node:fs (POSIX) makes a sparse file: no memory.
 * Expected: the bytes all open handles hold together are bounded (a
 * provider-wide budget, EFBIG/ENOMEM past it, or gaps kept sparse instead of
 * zero-filled in memory), so no number of handles exceeds what the bound
 * promises.
 *
 * FIXED: a provider-wide budget, `maxHeldBytes` (default 64 MiB): a write
 * that would take the open handles past it fails ENOMEM; close/sync gives
 * bytes back (and a handle collected without close, via FinalizationRegistry).
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import type { WorkspaceFileHandle } from "../../../src/fs/provider.js";

const MiB = 1024 * 1024;

describe("attack10: memory held by provider file handles", () => {
  it("three handles with one byte written each at 64 MiB − 1 do not hold over 128 MB: past maxHeldBytes a write is ENOMEM, and closing gives the bytes back", { timeout: 120_000 }, async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    const p = ws.provider();
    const handles: WorkspaceFileHandle[] = [];
    const base = process.memoryUsage();
    const outcomes: string[] = [];
    for (const name of ["a", "b", "c"]) {
      const h = await p.open(`/${name}`, "w");
      handles.push(h);
      outcomes.push(
        await h.write("x", 64 * MiB - 1).then(
          ({ bytesWritten }) => `wrote ${bytesWritten}`,
          (e: { code?: string; message?: string }) => `${e.code} ${e.message}`,
        ),
      );
    }
    const now = process.memoryUsage();
    const grew = now.heapUsed + now.arrayBuffers - base.heapUsed - base.arrayBuffers;
    expect(outcomes[0]).toBe("wrote 1");
    for (const outcome of outcomes.slice(1)) {
      expect(outcome).toMatch(/^ENOMEM ENOMEM: .*open file handles hold at most 67108864 bytes together \(maxHeldBytes; 67108864 held\): close or sync a handle first/);
    }
    expect(grew).toBeLessThan(128 * MiB);
    // Closing the first stores it and gives its bytes back: the next handle may write.
    await handles[0]!.close();
    expect((await p.stat("/a")).size).toBe(64 * MiB);
    expect(await handles[1]!.write("y", 64 * MiB - 1).then(({ bytesWritten }) => bytesWritten)).toBe(1);
    for (const h of handles) await h.close().catch(() => {});
    expect((await p.stat("/b")).size).toBe(64 * MiB);
    expect((await p.stat("/c")).size).toBe(0);
  });
});
