/**
 * Issue 20, nineteenth attack run: the daemon's `scan` (container/lib/sync.mjs) answers one page of the walk per call
 * and resumes from the cursor (the last path it visited) by walking again from the mount's root: every directory on
 * the cursor's path is read whole (`fs.readdir`), all its names decoded and sorted, and skipped up to the cursor's
 * name — on every page. A directory of N entries a pull walks in N / page pages is therefore read N / page times:
 * O(N² / page) names read, decoded and sorted, where the page is the host's SCAN_PAGE (5,000) or fewer when names are
 * long (the daemon's SCAN_MAX_BYTES, 512 KiB a page: ~2,000 entries of 200-byte names).
 *
 * Tried: the real daemon (`Computerd` in process, attack18c/real-daemon.ts); a directory of 20,000 (and 40,000) empty
 * files with 200-byte names (and 20,000 with 8-byte names); the walk the host's pull makes (`scan({ cursor, limit:
 * 5000 })` until the cursor is null), counting the names `fs.readdir` returned (node:fs/promises' `readdir` wrapped
 * for the walk). (Held: every page stays within SCAN_MAX_BYTES and SCAN_MAX_VISITS; the walk ends; every entry is
 * listed once.)
 *
 * Found (low-medium; 2 of 2 runs): 20,000 files of 200-byte names: 11 pages, 220,011 names read (11 per entry),
 * 4.4 s; 40,000: 22 pages, 880,022 names read (22 per entry), 5.6 s on a loaded machine; 20,000 8-byte names:
 * 5 pages, 100,005. Quadratic: a directory of 1,000,000 files (a cache, a generated dataset) takes ~500 pages each
 * reading, decoding and sorting a million names (~200 MB of names at 200 bytes) — minutes per pull in the container,
 * and once one page's re-read takes past REMOTE_SYNC_CALL_TIMEOUT_MS (10 s) every pull fails ETIMEDOUT at the same
 * place and the pull stays pending for good.
 *
 * Suggested fix: keep the sorted listing of the directories on the cursor's path between pages (a small cache keyed
 * by directory and its mtime/ino, dropped when they change or after a few seconds), or page through a directory with
 * `fs.opendir` in the daemon's own order and a cursor that names the position; a walk should read each directory
 * about once.
 *
 * Fixed: the daemon keeps the sorted listings of the directories a page ends in for the next page (per mount; at
 * most SCAN_LISTING_CACHE_DIRS 16 and SCAN_LISTING_CACHE_BYTES 128 MiB estimated; used only while the directory's
 * device, inode, mtime and ctime are unchanged, kept only when those times were SCAN_LISTING_SETTLED_MS older than
 * the read; dropped when the walk ends) and finds the cursor's name in it by binary search — container/lib/sync.mjs.
 * Measured after: 11 pages, 20,001 names read.
 */
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { realDaemonWorkspace } from "../attack18c/real-daemon.js";

describe("attack19c: the daemon's walk of one wide directory", () => {
  it("reads each directory about once per walk (20,000 files of 200-byte names)", { timeout: 60_000 }, async () => {
    const real = await realDaemonWorkspace();
    await real.ws.close(); // only the daemon and its directory are used
    const readdir = fsp.readdir;
    try {
      const dir = path.join(real.dir, "wide");
      fs.mkdirSync(dir);
      const n = 20_000;
      for (let i = 0; i < n; i++) fs.writeFileSync(path.join(dir, String(i).padStart(200, "0")), "");
      let names = 0;
      (fsp as { readdir: unknown }).readdir = async (...args: unknown[]) => {
        const listed = await (readdir as (...a: unknown[]) => Promise<unknown[]>)(...args);
        names += listed.length;
        return listed;
      };
      let cursor: string | null = null;
      let listed = 0;
      do {
        const page = (await real.daemon.scan({ cursor, limit: 5000 } as never)) as { cursor: string | null; entries: unknown[] };
        listed += page.entries.length;
        cursor = page.cursor;
      } while (cursor !== null);
      expect(listed).toBe(n + 1); // held: every file and the directory, once
      // Found: 220,011 (11 pages × the directory's 20,000 names and the root's one).
      expect(names).toBeLessThanOrEqual(2 * (n + 1));
    } finally {
      (fsp as { readdir: unknown }).readdir = readdir;
      await real.close();
    }
  });
});
