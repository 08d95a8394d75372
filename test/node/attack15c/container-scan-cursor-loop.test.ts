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
 *
 * Fixed: each page's cursor must come after the one before in the walk's order and a walk reads at most
 * MAX_SCAN_PAGES (10,000) pages (src/runtime/sync.ts scanPages, for the pull and the boot check alike);
 * otherwise the pull fails with EPROTO "the container's scan did not advance …" / "… did not end within …".
 * `getExec` with `resume: "tail"` (src/backends/daemon/handle.ts lastSeq) likewise needs each answer's last
 * seq to be an integer above the one asked after (else EPROTOCOL) and stops after MAX_TAIL_CALLS (64) calls.
 */
import { describe, expect, it } from "vitest";
import { nodeSqliteStorage, Workspace } from "../../../src/index.js";
import { MAX_SCAN_PAGES, RemoteSync, type SyncFilesystem, type SyncRPC } from "../../../src/runtime/sync.js";
import { daemonShell, MAX_TAIL_CALLS, type DaemonApi } from "../../../src/backends/daemon/handle.js";

describe("attack15c: a scan cursor that never advances", () => {
  it("a pull whose daemon repeats the same cursor rejects with EPROTO at the second page", { timeout: 30_000 }, async () => {
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
    expect(outcome).toBe(
      `rejected EPROTO: the container's scan did not advance (page 2 answered cursor "again" after "again"): its daemon misbehaves (a command may have taken it over); restart the container`,
    );
    expect(scans).toBe(2);
  });
  it("a daemon whose cursor keeps advancing without end fails the pull at MAX_SCAN_PAGES; one going back fails at once", async () => {
    const run = async (cursorOf: (n: number) => string): Promise<{ outcome: string; scans: number; applied: number }> => {
      const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
      await ws.fs.mkdir("/workspace", { recursive: true });
      let scans = 0;
      const rpc: SyncRPC = {
        info: async () => ({ mountPoint: "/workspace", ignore: [], bootId: "boot-1" }),
        scan: async () => {
          scans++;
          // Each page brings one new file, so what came before the failure is applied and kept.
          return { entries: scans <= 2 ? [{ path: `f${scans}`, kind: "file" as const, mode: 0o644, size: 0, mtimeMs: 1, ctimeMs: 1 }] : [], skipped: [], cursor: cursorOf(scans), done: false };
        },
        read: async () => ({ data: new Uint8Array(0), size: 0, eof: true }),
        apply: async ({ ops }) => ({ results: ops.map(() => ({ ok: true as const })) }),
      };
      const sync = new RemoteSync(ws.db, ws.fs as SyncFilesystem, "box", rpc);
      const outcome = await sync.pull().then(
        () => "resolved",
        (e: Error) => `rejected ${e.message}`,
      );
      const applied = (await ws.fs.readdir("/workspace")).length;
      await ws.close();
      return { outcome, scans, applied };
    };
    expect(await run((n) => `p${String(n).padStart(6, "0")}`)).toEqual({
      outcome: `rejected EPROTO: the container's scan did not end within MAX_SCAN_PAGES (${MAX_SCAN_PAGES}) pages: its daemon misbehaves (a command may have taken it over); restart the container`,
      scans: 10_000,
      applied: 2,
    });
    expect(await run((n) => (n % 2 === 1 ? "b" : "a/z"))).toEqual({
      outcome: `rejected EPROTO: the container's scan did not advance (page 2 answered cursor "a/z" after "b"): its daemon misbehaves (a command may have taken it over); restart the container`,
      scans: 2,
      applied: 1,
    });
  });
  it("getExec with resume \"tail\": events that do not advance reject with EPROTOCOL; events without end stop at MAX_TAIL_CALLS", async () => {
    const tail = async (seqOf: (call: number, after: number) => unknown): Promise<{ outcome: string; calls: number }> => {
      let calls = 0;
      const api = {
        info: async () => ({ mountPoint: "/workspace", ignore: [], bootId: "boot-1" }),
        scan: async () => ({ entries: [], skipped: [], cursor: null, done: true }),
        read: async () => ({ data: new Uint8Array(0), size: 0, eof: true }),
        apply: async () => ({ results: [] }),
        exec: async ({ id }: { id: string }) => ({ id }),
        events: async ({ after }: { after?: number }) => {
          calls++;
          return { events: [{ seq: seqOf(calls, after ?? 0), name: "stdout", data: new Uint8Array([120]) }], done: false };
        },
        kill: async () => ({ killed: true }),
        dispose: async () => ({ disposed: true as const }),
      } as unknown as DaemonApi;
      const outcome = await daemonShell(api)
        .getExec({ id: "run-1", after: "tail" })
        .then(
          async (handle) => {
            await handle.events.cancel();
            return "resolved";
          },
          (e: Error & { code?: string }) => `rejected ${e.code} ${e.message}`,
        );
      return { outcome, calls };
    };
    const misbehaves = (shown: string, after: number) =>
      `rejected EPROTOCOL getExec("run-1", { resume: "tail" }): the container's daemon answered events that do not advance (last seq ${shown} after ${after}): its daemon misbehaves (a command may have taken it over); restart the container`;
    // Found: the same seq on every answer looped for ever.
    expect(await tail(() => 5)).toEqual({ outcome: misbehaves("5", 5), calls: 2 });
    expect(await tail(() => "7")).toEqual({ outcome: misbehaves('"7"', 0), calls: 1 });
    expect(await tail((_, after) => after + 1)).toEqual({ outcome: "resolved", calls: MAX_TAIL_CALLS });
  });
});
