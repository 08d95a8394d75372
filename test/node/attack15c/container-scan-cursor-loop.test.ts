/**
 * Issue 20, fifteenth attack run: a pull follows the daemon's scan cursor for ever — a hostile daemon
 * (or a buggy one) that never says `done` holds the backend's sync lock without end.
 *
 * Tried: `RemoteSync.pull()` (src/runtime/sync.ts) with a stand-in daemon ("Nothing the daemon answers is
 * trusted (a command can take it over)", the module's header) whose `scan` answers every page with no
 * entries, `cursor: "again"` and `done: false` — the same cursor it was given. (Held: a malformed page,
 * a path with `..`/NUL, a link with an empty target, an entry of another kind: each refused.)
 *
 * Found (medium-low): `#pull` loops `for (;;)` until `page.done || page.cursor === null`, with no check
 * that the cursor moves and no bound on pages or entries: here 2.7 million scans in 10 s and still going. The
 * pull after a command runs under `exclusive`, so the command's `result()` never settles, and every later
 * push, command and `workspace.pull()` of that backend queues behind it; nothing (kill, timeout) stops it.
 * A variant answering a new entry on each page writes into the Workspace without bound.
 * Reproduction:
 *
 *   scan: async () => ({ entries: [], skipped: [], cursor: "again", done: false })
 *   await sync.pull();     // never settles
 *
 * Suggested fix: fail the pull (EPROTO "the container's scan did not advance") when a page's cursor is one
 * already seen (or not after the last in walk order), and bound a pull's pages/entries.
 */
import { describe, expect, it } from "vitest";
import { nodeSqliteStorage, Workspace } from "../../../src/index.js";
import { RemoteSync, type SyncFilesystem, type SyncRPC } from "../../../src/runtime/sync.js";

describe("attack15c: a scan cursor that never advances", () => {
  it.fails("a pull whose daemon repeats the same cursor settles (rejects) within 10 s", { timeout: 30_000 }, async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    await ws.fs.mkdir("/workspace", { recursive: true });
    let scans = 0;
    let stop = false;
    // Each answer arrives on a later turn of the event loop, as from a socket.
    const later = <T>(value: T) => new Promise<T>((r) => setImmediate(() => r(value)));
    const rpc: SyncRPC = {
      info: async () => ({ mountPoint: "/workspace", ignore: [], bootId: "boot-1" }),
      scan: async () => {
        scans++;
        if (stop) throw new Error("ECONNRESET: test over");
        return later({ entries: [], skipped: [], cursor: "again", done: false });
      },
      read: async () => ({ data: new Uint8Array(0), size: 0, eof: true }),
      apply: async ({ ops }) => ({ results: ops.map(() => ({ ok: true as const })) }),
    };
    const sync = new RemoteSync(ws.db, ws.fs as SyncFilesystem, "box", rpc);
    const pulled = sync.pull().then(
      () => "resolved",
      (e: Error) => `rejected ${e.message}`,
    );
    const outcome = await Promise.race([pulled, new Promise<string>((r) => setTimeout(() => r(`still pulling after ${scans} scans`), 10_000))]);
    stop = true;
    await pulled;
    await ws.close();
    // Found: "still pulling after 2715663 scans" (millions of scans, never done).
    expect(outcome).toMatch(/^rejected .*(scan|cursor)/);
  });
});
