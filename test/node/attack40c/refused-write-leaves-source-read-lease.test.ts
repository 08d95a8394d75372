/**
 * Issue 20, run 40, attacker c: a `writeFile`/`appendFile` that refuses before reading its content stream
 * (EISDIR, ENOENT, EEXIST, ESTALE, EINVAL …) neither reads nor cancels that stream. When the stream is a Workspace
 * read stream of a file over 512 KiB — `fs.writeFile(dest, await fs.readFile(src))`, and the provider's own
 * `copyFile(src, dest)`, which is built that way (src/fs/provider.ts `copyFile`) — the stream's chunk leases are
 * never ended: one `__ws_chunk_leases` row per chunk stays for 10 minutes per refused call, and the source's
 * chunks outlive the source: after `rm src`, its bytes stay in `__ws_chunks`/`__ws_blobs` (1.1 MB here; a 1 GiB
 * source: 2,048 lease rows per failed copy, 1 GiB kept) until the leases run out AND a later sweep takes them.
 * docs/filesystem.md (Storage model and limits) says a read stream's lease ends "when the stream ends, fails or is
 * cancelled — and the chunks only it kept are then reclaimed"; only "a crashed or abandoned reader's" wait for the
 * lease — here no reader crashed or was abandoned by the caller: the library dropped a stream it opened itself
 * (copyFile) or was handed to consume.
 *
 * Reproduction: /big (1,100 KiB: 3 chunks) and a directory /d; `provider.copyFile("/big", "/d")` → EISDIR (right);
 * then `SELECT count(*) FROM __ws_chunk_leases` → today 3 (6 after a second try); `fs.rm("/big")` → today the 3
 * chunks (and blobs) are still stored, refs 0. The same with `fs.writeFile("/d", await fs.readFile("/big"))`
 * (and `/missing/x` ENOENT, `{ exclusive: true }` EEXIST, appendFile to a directory).
 * Expected: after a refused call no lease row is left and the input stream is cancelled (as `appendStreamed`
 * in src/fs/append.ts already does for its own read: "The old content's read is cancelled if the rewrite fails");
 * `rm /big` then leaves no chunk, blob or lease row (as after a copy that succeeded, or a stream read to its end).
 * Cause: src/fs/write.ts / src/fs/filesystem.ts `writeFile`/`appendFile` reject on their early checks without
 * `content.cancel(error)` when `content` is a ReadableStream; src/fs/provider.ts `copyFile` does not cancel the
 * stream it opened when `writeFile` rejects.
 * Severity: low–medium (no data lost; storage kept and rows left behind per failed call, bounded by the 10-minute
 * lease).
 * Fixed in run 40 by fixer f40fs: WorkspaceFs.writeFile/appendFile cancel a content stream they reject without reading
 * to its end; provider copyFile and the shell adapter's cp cancel the source stream they opened.
 */
import { expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";

const KiB = 1024;

function bytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed | 1;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

function fixture() {
  const storage = nodeSqliteStorage(":memory:");
  const workspace = new Workspace({ storage });
  const count = (table: string, where = "") => Number(storage.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM ${table} ${where}`).toArray()[0]!.n);
  const rows = () => ({ leases: count("__ws_chunk_leases"), chunks: count("__ws_chunks"), blobs: count("__ws_blobs") });
  return { storage, workspace, rows };
}

const codeOf = (p: Promise<unknown>) => p.then(() => "resolved", (e: { code?: string }) => String(e.code));

it("provider.copyFile refused at the destination ends its source stream's lease; the source's chunks go with it", async () => {
  const { storage, workspace, rows } = fixture();
  try {
    const fs = workspace.fs;
    const p = workspace.provider();
    await fs.writeFile("/big", bytes(1100 * KiB, 1));
    await fs.mkdir("/d");
    expect(await codeOf(p.copyFile("/big", "/d"))).toBe("EISDIR");
    expect(await codeOf(p.copyFile("/big", "/missing/x"))).toBe("ENOENT");
    await fs.writeFile("/there", "x");
    expect(await codeOf(p.copyFile("/big", "/there", 1))).toBe("EEXIST");
    // Was: { leases: 9, chunks: 4, blobs: 3 } — three chunks' leases per refused copy.
    expect(rows()).toEqual({ leases: 0, chunks: 4, blobs: 3 });
    await fs.rm("/big");
    // Was: { leases: 9, chunks: 4, blobs: 3 } — /big's 1.1 MB kept, unreferenced, after its removal.
    expect(rows()).toEqual({ leases: 0, chunks: 1, blobs: 0 });
  } finally {
    await workspace.close();
    storage.close();
  }
});

it("fs.writeFile / appendFile that refuse a read stream of another file cancel it: no lease left, its chunks reclaimable", async () => {
  const { storage, workspace, rows } = fixture();
  try {
    const fs = workspace.fs;
    await fs.writeFile("/big", bytes(1100 * KiB, 2));
    await fs.mkdir("/d");
    expect(await codeOf((async () => fs.writeFile("/d", await fs.readFile("/big")))())).toBe("EISDIR");
    expect(await codeOf((async () => fs.writeFile("/missing/x", await fs.readFile("/big")))())).toBe("ENOENT");
    expect(await codeOf((async () => fs.writeFile("/big", await fs.readFile("/big"), { exclusive: true }))())).toBe("EEXIST");
    expect(await codeOf((async () => fs.appendFile("/d", await fs.readFile("/big")))())).toBe("EISDIR");
    // Was: { leases: 12, chunks: 3, blobs: 3 }.
    expect(rows()).toEqual({ leases: 0, chunks: 3, blobs: 3 });
    await fs.rm("/big");
    // Was: { leases: 12, chunks: 3, blobs: 3 }.
    expect(rows()).toEqual({ leases: 0, chunks: 0, blobs: 0 });
  } finally {
    await workspace.close();
    storage.close();
  }
});
