/**
 * Issue 20, twentieth attack run: 6c8f16d (attack19c container-scan-wide-directory-quadratic) keeps a directory's sorted
 * listing for the next scan page only when it is "settled": `keepListings` (container/lib/sync.mjs) requires
 * `max(mtimeMs, ctimeMs)` to be SCAN_LISTING_SETTLED_MS (20 ms) older than the page's lstat. A directory whose mtime is
 * in the future — `tar` or `cp -p` / `rsync -a` restoring an archive's times from a machine whose clock ran ahead, or
 * any `touch -d` — is never settled, so its listing is never kept and every page reads, decodes and sorts it whole
 * again: the quadratic walk the fix removed, for as long as the clock has not caught up (years, for a far date).
 *
 * Tried: the real daemon (`Computerd` in process, attack18c/real-daemon.ts); a directory `wide` of 20,000 empty files
 * with 200-byte names (attack19c's set-up), then `utimes(wide, 2100-01-01, 2100-01-01)` (its ctime stays "now", as
 * the kernel sets it); 100 ms later the host's walk (`scan({ cursor, limit: 5000 })`, SCAN_PAGE, until the cursor is
 * null), names counted by wrapping node:fs/promises' `readdir` for the walk. (Held: the same walk without the
 * `utimes` reads 20,001 names; every entry is listed once either way.)
 *
 * Found (low-medium; 2 of 2 runs): 11 pages read 220,001 names — `wide`'s 20,000 on every page, as before 6c8f16d —
 * for 20,001 entries: quadratic again, so a directory of 1,000,000 files with a future mtime makes each pull minutes
 * of re-reading (and past REMOTE_SYNC_CALL_TIMEOUT_MS a page fails ETIMEDOUT at the same place on every pull).
 *
 * Suggested fix: judge "settled" by ctime alone — every change to a directory's entries sets its ctime from the
 * kernel's clock, and utimes cannot set it — i.e. keep the listing when `ctimeMs < at - SCAN_LISTING_SETTLED_MS` (and
 * keep matching dev/ino/mtime/ctime on use).
 *
 * Fixed: `keepListings` judges a listing settled by its directory's ctime alone (which `utimes` cannot set; the use
 * still matches dev, ino, mtime and ctime), so a future mtime no longer keeps it out of the cache.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { realDaemonWorkspace } from "../attack18c/real-daemon.js";
import { countedWalk } from "./scan-walk.js";

async function walkNames(future: boolean): Promise<{ names: number; listed: number }> {
  const real = await realDaemonWorkspace();
  await real.ws.close(); // only the daemon and its directory are used
  try {
    const dir = path.join(real.dir, "wide");
    fs.mkdirSync(dir);
    for (let i = 0; i < 20_000; i++) fs.writeFileSync(path.join(dir, String(i).padStart(200, "0")), "");
    if (future) {
      const at = new Date("2100-01-01T00:00:00Z");
      fs.utimesSync(dir, at, at);
    }
    await new Promise((r) => setTimeout(r, 100)); // past SCAN_LISTING_SETTLED_MS (20 ms)
    const { names, listed } = await countedWalk(real.daemon);
    return { names, listed };
  } finally {
    await real.close();
  }
}

describe("attack20c: the daemon's walk of a wide directory with a future mtime", () => {
  it("held: with the mtime it got, each directory is read once", { timeout: 60_000 }, async () => {
    expect(await walkNames(false)).toEqual({ names: 20_001, listed: 20_001 });
  });

  it("reads each directory about once per walk when its mtime is in the future", { timeout: 60_000 }, async () => {
    const { names, listed } = await walkNames(true);
    expect(listed).toBe(20_001); // held: every file and the directory, once
    // Found: 220,001 (11 pages × the directory's 20,000 names, and the root's one name once).
    expect(names).toBeLessThanOrEqual(2 * listed);
  });
});
