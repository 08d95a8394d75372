/**
 * Issue 20, thirty-eighth attack run: `workspace.fs.appendFile` on `nodeSqliteStorage(file)` shared with another
 * connection (another process, as docs/filesystem.md allows) can reject `EBUSY` after its bytes have landed. The
 * append commits in one transaction, then reclaims the old last chunk it released with `this.#chunks.sweep(true)`
 * (src/fs/write.ts, after `outcome === "released"`; and `sweep()` again in the `finally`) — a second write
 * transaction. When another connection takes the write lock between the two and holds it past `busyTimeoutMs`, the
 * sweep's `BEGIN IMMEDIATE` throws `EBUSY` ("… try again …") and the append rejects with it, though the file already
 * holds the new bytes. docs/filesystem.md: "A Workspace call that meets it rejects with that error and changes
 * nothing". An agent (or the provider's append, the shell's `>>`) that retries as told writes the line twice.
 * Tried: three processes each making 300 appends (10 at a time, bytes and streams, by the file's path and through a
 * link to its directory) to one file of one SQLite file, 4 runs: lines counted against fulfilled appends; then the
 * same interleaving made exact here — a second `node:sqlite` connection to the file (what another process is) takes
 * the write lock right after the append's commit and holds it 300 ms, `busyTimeoutMs: 50`.
 * Held: no line lost, none torn, none from an append that rejected ESTALE; 3 of 4 process runs had exactly one line
 * per fulfilled append; EBUSY rejections from the commit itself changed nothing.
 * Found (medium — a wrong result an agent acts on: a failed append it retries lands twice; 1 of 4 three-process runs
 * (897 lines for 896 fulfilled appends), 3 of 3 runs here): `appendFile("/log", "two\n")` rejects `EBUSY` and
 * `/log` reads "one\ntwo\n".
 * Suggested fix: src/fs/write.ts append (and any other write that sweeps after its commit): once the commit
 * transaction returned, the reclaim is best-effort — catch the sweep's errors (set the shared backlog so the next
 * sweep retries, as `endLease` failures are already swallowed) instead of rejecting a call whose change is done.
 *
 * Fixed: every sweep after a commit (append, writeFile small and staged, rm, rename, a read stream's end, the
 * start-up sweep) goes through the new best-effort `ChunkStore.reclaim` (src/fs/chunks.ts): an error is swallowed and
 * the shared backlog set, so the next sweep over the storage reclaims what was left; the append sweeps once, in its
 * `finally`, and no longer ends the landed try's leases a second time (issue 20, run 38, fixer SW).
 * Siblings: test/node/fix38/fs-post-commit-sweep.test.ts.
 */
import { DatabaseSync } from "node:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";

it("an append that landed resolves, even when another connection holds the lock when it reclaims the old chunk", async () => {
  const dir = mkdtempSync(join(tmpdir(), "attack38f-"));
  const file = join(dir, "w.db");
  const storage = nodeSqliteStorage(file, { busyTimeoutMs: 50 });
  const workspace = new Workspace({ storage });
  const other = new DatabaseSync(file);
  try {
    await workspace.fs.writeFile("/log", "one\n");
    other.exec("CREATE TABLE IF NOT EXISTS t (v)");
    // Another connection takes the write lock right after the append's commit (its node UPDATE) and holds it 300 ms.
    let committed = false;
    let taken = false;
    const exec = storage.sql.exec.bind(storage.sql);
    (storage.sql as { exec: typeof exec }).exec = (query: string, ...bindings: unknown[]) => {
      if (/^\s*UPDATE __ws_nodes SET mode/.test(query)) committed = true;
      return exec(query, ...(bindings as never[]));
    };
    const transactionSync = storage.transactionSync.bind(storage);
    (storage as { transactionSync: typeof transactionSync }).transactionSync = <T>(closure: () => T): T => {
      if (committed && !taken) {
        taken = true;
        other.exec("BEGIN IMMEDIATE");
        other.exec("INSERT INTO t VALUES (1)");
        setTimeout(() => other.exec("COMMIT"), 300);
      }
      return transactionSync(closure);
    };
    const outcome = await workspace.fs.appendFile("/log", "two\n").then(
      () => "resolved",
      (error: { code?: string }) => error.code,
    );
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(taken).toBe(true);
    // Was: { outcome: "EBUSY", content: "one\ntwo\n" } — rejected, yet appended (a retry appends it twice).
    expect({ outcome, content: await workspace.fs.readFile("/log", "utf8") }).toEqual({ outcome: "resolved", content: "one\ntwo\n" });
  } finally {
    other.close();
    await workspace.close();
    storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
