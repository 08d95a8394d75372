/**
 * Issue 20, thirteenth attack run: memory of `workspace.provider().appendFile` (src/fs/provider.ts
 * `#appendBytes`) on a file within `maxOpenFileBytes`.
 *
 * Tried: appending one byte to a 48 MiB file (within the default maxOpenFileBytes, 64 MiB), measuring
 * the growth of heap + array buffers during the call (attack6 `peak`); as the control, the same append
 * with `maxOpenFileBytes: 1 MiB`, which takes #appendBytes' streamed path.
 * docs/filesystem.md (provider table): "`appendFile` and `copyFile` stream."
 *
 * Found (medium): a file up to maxOpenFileBytes is read WHOLE into memory, then copied into a new
 * buffer with the appended bytes (`concatBytes([old, bytes])`) and hashed: about twice the file's size
 * held at once for a one-byte append, plus the chunks it was read as — measured: heap + array buffers
 * grew by 162 MiB for the 48 MiB file (the streamed control: 26 MiB, mostly uncollected garbage); a
 * 64 MiB file is past a Durable Object's 128 MB — and none of it counted against `maxHeldBytes`, so appends to several
 * files at once multiply it. The streamed path (files over maxOpenFileBytes) holds about one chunk.
 * Every write of an append handle (`open(p, "a")`) goes the same way.
 * Reproduction (Node):
 *   await ws.fs.writeFile("/big", stream of 48 MiB);
 *   await ws.provider().appendFile("/big", "x");   // heap + array buffers grow by ~96 MiB
 * Suggested fix: stream the old content into the new file in every case (as for files over
 * maxOpenFileBytes), guarding against other writers with `ifInode` plus a size/mtime check or a hash
 * computed while streaming, or at least reserve 2 × size against maxHeldBytes before loading.
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { SQLiteWorkspaceProvider } from "../../../src/fs/provider.js";
import { peak } from "../attack6/memory.js";

const MiB = 1 << 20;

async function bigFile(size: number) {
  const ws = new Workspace({ storage: nodeSqliteStorage() });
  const chunk = new Uint8Array(MiB).fill(0x61);
  let sent = 0;
  await ws.fs.writeFile(
    "/big",
    new ReadableStream<Uint8Array>({
      pull(c) {
        c.enqueue(chunk);
        if (++sent * MiB >= size) c.close();
      },
    }),
  );
  return ws;
}

describe("attack13b: provider appendFile streams (docs), whatever the file's size", () => {
  it("control: over maxOpenFileBytes the append streams, holding far less than the file", { timeout: 60_000 }, async () => {
    const ws = await bigFile(48 * MiB);
    const provider = new SQLiteWorkspaceProvider(ws, { maxOpenFileBytes: MiB });
    globalThis.gc?.();
    const { grew } = await peak(() => provider.appendFile("/big", "x"));
    expect(grew).toBeLessThan(40 * MiB);
    expect((await ws.fs.stat("/big")).size).toBe(48 * MiB + 1);
  });

  it("within maxOpenFileBytes a one-byte append to a 48 MiB file holds less than the file", { timeout: 60_000 }, async () => {
    const ws = await bigFile(48 * MiB);
    globalThis.gc?.();
    const { grew } = await peak(() => ws.provider().appendFile("/big", "x"));
    expect((await ws.fs.stat("/big")).size).toBe(48 * MiB + 1);
    expect(grew).toBeLessThan(40 * MiB);
  });
});
