/**
 * Issue 20, thirty-ninth attack run: `provider.truncate(path, len)` of a file over `maxOpenFileBytes` (64 MiB by
 * default) silently reverts a write that lands while it runs. That branch (src/fs/provider.ts `truncate`) streams the
 * file's first `len` bytes (`readFile(path, { byteLength: len })`, a snapshot) into `writeFile(path, stream, { mode,
 * ifInode })` — a staged write whose commit comes many awaits later (a hash and a stage per 512 KiB chunk). The guard
 * is `ifInode` only, and a Workspace overwrite keeps the inode (spec 01 §3.2: "kept across overwrite"), so a
 * `writeFile` that commits in between — the same Workspace (another tool call or request of the Durable Object),
 * another Workspace on the storage, another process — is overwritten by the *old* content's first `len` bytes: that
 * write resolved, yet none of its bytes is in the file. truncate(2) is one step: after it, the file holds the new
 * content's prefix (padded with zeros to `len` when shorter), or — truncate first — the new content; never the old
 * bytes. The handle branch (files within maxOpenFileBytes, `WorkspaceFileHandle#flush`) guards its store with
 * `ifMatch` (the content hash) and refuses ESTALE instead.
 * Reproduction: a 3 MiB file of "a", a provider with `maxOpenFileBytes: 1 MiB`; `truncate("/big", 1 MiB)`; right when
 * its read stream has opened (its lease row written), `fs.writeFile("/big", "b" × 100)` starts; both resolve; the
 * file reads 1 MiB of "a".
 *
 * Tried: a `r+` handle's write racing a writeFile; copyFile of a 3 MiB file racing its overwrite; truncate of a
 * small file (the handle branch) racing a writeFile; this branch with a writeFile started when its read opened.
 * Held: the handle (close rejects ESTALE, the other write kept); copyFile (one whole version); the small truncate
 * (ESTALE, the other write kept).
 * Found (medium — a resolved write silently lost: the file goes back to bytes it no longer had; 3 of 3 runs).
 * Suggested fix: src/fs/provider.ts `truncate` (the over-maxOpenFileBytes branch): bind the rewrite to the version
 * read — `ifUnmodified: { inode, size, mtime }` from the stat the branch already made (its commit checks the
 * revision stamp) — and, on ESTALE, stat and try again (or fail ESTALE) instead of writing an old prefix.
 * Fixed: `truncate` binds the large cut to the version it stat'd (`ifUnmodified`: inode, size, mtime; the prefix read
 * opens only on the store's first pull, after that check, and the revision is checked at commit) and starts again from
 * the file as it then is when another writer lands in between — a small file's handle, too, instead of ESTALE — at
 * most 10 tries, then ESTALE with nothing cut (src/fs/provider.ts `truncate`/`#truncateOnce`/`#cutLarge`) (issue 20,
 * run 39, fixer PT). Siblings: test/node/fix39/provider-truncate-races.test.ts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { SQLiteWorkspaceProvider, Workspace, nodeSqliteStorage } from "../../../src/index.js";

const MiB = 1024 * 1024;

it("truncate of a file over maxOpenFileBytes never writes back bytes a concurrent writeFile replaced", async () => {
  const dir = mkdtempSync(join(tmpdir(), "attack39f-trunc-"));
  const storage = nodeSqliteStorage(join(dir, "w.db"));
  const workspace = new Workspace({ storage });
  try {
    await workspace.fs.writeFile("/big", "a".repeat(3 * MiB));
    const provider = new SQLiteWorkspaceProvider(workspace, { maxOpenFileBytes: MiB });
    let other: Promise<void> | undefined;
    const exec = storage.sql.exec.bind(storage.sql);
    (storage.sql as { exec: unknown }).exec = (query: string, ...bindings: unknown[]) => {
      const cursor = exec(query, ...(bindings as never[]));
      // The truncate's read stream has just leased the file's first chunks: another write starts now.
      if (!other && /INSERT INTO __ws_chunk_leases \(chunk, holder, until\)\s+SELECT DISTINCT/.test(query)) {
        other = workspace.fs.writeFile("/big", "b".repeat(100));
      }
      return cursor;
    };
    await provider.truncate("/big", MiB);
    expect(other).toBeDefined();
    await other;
    const text = await workspace.fs.readFile("/big", "utf8");
    const shape = { length: text.length, a: text.split("a").length - 1, b: text.split("b").length - 1 };
    // truncate(2) after the write: 100 × "b" then zeros to 1 MiB; before it: 100 × "b". Was: 1 MiB of "a".
    expect([
      { length: MiB, a: 0, b: 100 },
      { length: 100, a: 0, b: 100 },
    ]).toContainEqual(shape);
  } finally {
    await workspace.close();
    storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
