/**
 * Issue 20, seventeenth attack run: a pull holds every path the container's walk lists in memory until the
 * walk ends (`seen`), ~100 bytes an entry with no bound — MAX_SCAN_PAGES allows 10,000 pages ("50 million
 * entries at full pages of 5,000") and nothing checks that a page holds at most the `limit` (5,000) asked.
 *
 * Tried: `workspace.pull()` over `daemonHandle` with a stand-in daemon whose walk lists 80 pages of 5,000
 * special files each (400,000 `skipped` entries with valid paths, as the real daemon lists fifos, sockets
 * and devices — a command makes them with `mkfifo`); the heap retained (after a full gc) measured at each
 * `scan` call. (Held since attack16c: `skipped` lists at most MAX_SYNC_SKIPPED entries within
 * MAX_SYNC_SKIPPED_CHARS; paths over MAX_PATH_BYTES are refused; each page's shape and cursor are checked.)
 *
 * Found (medium-low; 2 of 2 runs): runtime/sync.ts `#pull` adds every valid path of every page — entries
 * and skipped alike — to `seen` (a Set kept for the deletion pass) and reads the whole manifest with one
 * `db.all` after the walk: 400,000 entries retained 39.9 MB of heap at the walk's last page (4.5 s). At
 * that rate ~1.3 M entries (260 real daemon pages; one page of a daemon taken over may hold ~1 M short paths
 * in its 32 MiB message) pass a 128 MB Durable Object — and every later pull walks the same tree again, so
 * the object dies on each command until the files are removed by hand. The manifest of a big synced tree
 * (`known`, all rows at once) adds the same again.
 *
 * Suggested fix: keep the walk's marks out of memory — e.g. stamp each manifest row seen with the pull's
 * generation in SQL (or a temporary table) and find the gone rows with one query in path order, paging
 * it; refuse a scan page with more than the `limit` asked (entries + skipped) as EPROTO. *
 * Fixed: `#pull` (runtime/sync.ts) marks a skipped (or invalid) entry's path seen only when the manifest holds
 * it — the deletion pass looks at nothing else — so a walk of special files keeps none of their paths; and a
 * scan page listing more than MAX_SCAN_PAGE_VISITS (50,000, the daemon's visit bound) entries and skipped
 * together fails the walk EPROTO. Not done: the `entries` the walk lists are still marked in memory (they go
 * in the manifest: bounded by what the Workspace holds), the manifest is still read whole after the walk, and a
 * page of more entries than the `limit` asked is not refused (attack16c's and attack17c's tests send pages of
 * 6,000 to 32,000 entries).
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { nodeSqliteStorage, Workspace } from "../../../src/index.js";
import { daemonHandle, type DaemonApi } from "../../../src/backends/daemon/handle.js";
import { emptyDaemon } from "../attack15c/daemon-stand-in.js";
import { MAX_SCAN_PAGE_VISITS } from "../../../src/runtime/sync.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

describe("attack17c: a pull's memory and the size of the container's tree", () => {
  it("a walk of 400,000 special files retains a bounded amount of memory", { timeout: 50_000 }, async () => {
    const PAGES = 80;
    const PER = 5000;
    let base = 0;
    let peak = 0;
    const name = (page: number) => `p${String(page).padStart(5, "0")}`;
    const daemon = {
      ...emptyDaemon(),
      scan: async ({ cursor }: { cursor: string | null }) => {
        const page = cursor === null ? 0 : Number(cursor.slice(1)) + 1;
        gc();
        peak = Math.max(peak, process.memoryUsage().heapUsed - base);
        const last = page + 1 >= PAGES;
        return {
          entries: [],
          skipped: Array.from({ length: PER }, (_, i) => ({ path: `${name(page)}/fifo-number-${i}`, reason: "special" })),
          cursor: last ? null : name(page),
          done: last,
        };
      },
    } as unknown as DaemonApi;
    const ws = new Workspace({
      storage: nodeSqliteStorage(":memory:"),
      backends: [{ id: "box", type: "test", connect: async () => daemonHandle(daemon, { closed: new Promise(() => {}), close() {} }) }],
    });
    await ws.fs.mkdir("/workspace", { recursive: true });
    gc();
    base = process.memoryUsage().heapUsed;
    const steps: boolean[] = [];
    for await (const step of ws.pull("box")) steps.push(step.complete);
    expect(steps).toEqual([true]);
    // Found: ~40 MB retained at the last page (~100 bytes an entry), linear in the tree's size.
    expect(peak).toBeLessThan(16 * 1024 * 1024);
  });

  it("a scan page listing more than MAX_SCAN_PAGE_VISITS entries and skipped together fails the pull EPROTO", async () => {
    const daemon = {
      ...emptyDaemon(),
      scan: async () => ({ entries: [], skipped: Array.from({ length: 50_001 }, (_, i) => ({ path: `fifo${i}`, reason: "special" })), cursor: null, done: true }),
    } as unknown as DaemonApi;
    const ws = new Workspace({
      storage: nodeSqliteStorage(":memory:"),
      backends: [{ id: "box", type: "test", connect: async () => daemonHandle(daemon, { closed: new Promise(() => {}), close() {} }) }],
    });
    await ws.fs.mkdir("/workspace", { recursive: true });
    const steps: { complete: boolean; error?: string }[] = [];
    for await (const step of ws.pull("box")) steps.push({ complete: step.complete, ...(step.error !== undefined ? { error: step.error } : {}) });
    await ws.close();
    expect(MAX_SCAN_PAGE_VISITS).toBe(50_000);
    expect(steps).toEqual([
      {
        complete: false,
        error:
          "EPROTO: the container's scan answered a page of 0 entries and 50001 skipped (at most MAX_SCAN_PAGE_VISITS (50000) together): its daemon misbehaves (a command may have taken it over); restart the container",
      },
    ]);
  });
});
