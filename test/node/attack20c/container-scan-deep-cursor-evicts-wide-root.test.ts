/**
 * Issue 20, twentieth attack run: 6c8f16d (attack19c container-scan-wide-directory-quadratic) keeps the sorted listings
 * of the directories a scan page ends in — the cursor's path, which the next page walks again — so a walk reads each
 * directory about once. `keepListings` (container/lib/sync.mjs) re-inserts them outermost first and then drops the
 * oldest entries of the Map until at most SCAN_LISTING_CACHE_DIRS (16) remain — the outermost directories, the mount
 * root first. A page that ends more than 15 levels deep therefore keeps only the small directories of its chain and
 * forgets the wide one above it, which the next page reads, decodes and sorts again whole: the quadratic walk the fix
 * removed comes back whenever pages end deep.
 *
 * Tried: the real daemon (`Computerd` in process, attack18c/real-daemon.ts); a mount root of 8 groups, each 4,980 empty
 * files and one chain `g<k>b/d/…/d/f` (18 nested `d`, 20 entries), so every page of the host's walk (`scan({ cursor,
 * limit: 5000 })`, SCAN_PAGE) ends at the bottom of a chain, 20 levels deep; names counted by wrapping
 * node:fs/promises' `readdir` for the walk, as attack19c did. (Held: every entry is listed once, 40,000; a page ending
 * within 16 levels — the same tree with 4,979 files a group — reads the root once: 39,992 names for 39,992 entries.)
 *
 * Found (low-medium; 2 of 2 runs): 9 pages read 358,808 names for 40,000 entries — the root's 39,848 names on every
 * page (9 per entry; a tree of 2N groups reads 2x as many per entry: quadratic). A source tree with a wide directory
 * above deep paths (Java packages, nested node_modules, generated output) gets the pre-fix cost back: a root or
 * directory of 1,000,000 entries re-read on each of ~200+ pages.
 *
 * Suggested fix: when more than SCAN_LISTING_CACHE_DIRS listings are open, drop the smallest (or the innermost, which the
 * next page finishes soon) rather than the outermost — e.g. sort the open listings by size and keep the largest that fit
 * SCAN_LISTING_CACHE_BYTES — or bound the count by bytes only (a chain of tiny directories costs little).
 *
 * Fixed: `keepListings` drops, over SCAN_LISTING_CACHE_DIRS or SCAN_LISTING_CACHE_BYTES, first the listings of directories
 * the page did not end in (least recently used first), then the smallest of those it did: the wide root stays kept
 * however deep a page ends (container/README.md, docs/container.md).
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { realDaemonWorkspace } from "../attack18c/real-daemon.js";
import { countedWalk } from "./scan-walk.js";

describe("attack20c: the daemon's walk of a wide directory whose pages end deep", () => {
  it("reads each directory about once per walk (pages ending 20 levels deep)", { timeout: 60_000 }, async () => {
    const real = await realDaemonWorkspace();
    await real.ws.close(); // only the daemon and its directory are used
    try {
      const groups = 8;
      const chain = Array<string>(18).fill("d");
      for (let g = 0; g < groups; g++) {
        const p = `g${String(g).padStart(2, "0")}`;
        for (let i = 0; i < 4980; i++) fs.writeFileSync(path.join(real.dir, `${p}a${String(i).padStart(5, "0")}`), "");
        fs.mkdirSync(path.join(real.dir, `${p}b`, ...chain), { recursive: true }); // sorts after the group's files
        fs.writeFileSync(path.join(real.dir, `${p}b`, ...chain, "f"), "");
      }
      await new Promise((r) => setTimeout(r, 100)); // past SCAN_LISTING_SETTLED_MS (20 ms), so listings are kept
      const { names, listed, cursors } = await countedWalk(real.daemon);
      expect(listed).toBe(40_000); // held: every entry once
      expect(cursors.map((c) => c.split("/").length)).toEqual(Array(8).fill(20)); // every page ends at the bottom of a chain
      // Found: 358,808 (the root's 39,848 names on each of 9 pages).
      expect(names).toBeLessThanOrEqual(2 * listed);
    } finally {
      await real.close();
    }
  });
});
