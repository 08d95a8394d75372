/**
 * Issue 20, eleventh attack run: `computerBundle()` (src/vite) over hostile directory shapes.
 *
 * Tried: a bundle directory whose subdirectories link to each other as a "diamond" chain (d0/a and
 * d0/b → d1, d1/a and d1/b → d2, …: n + 1 real directories, 2n links, no cycle). Vite's own
 * import.meta.glob lists it quickly; the plugin's scan (scan.ts `scanBundle`, which computes the
 * version) walks every path: 2^(n+1) − 1 directories. Measured: n = 10 → 0.3 s, 12 → 1.2 s,
 * 14 → 5.8 s (a build of n = 12 with the plugin: 2.6 s); each level doubles, so n = 20 is minutes
 * and n = 30 never ends, holding every walked path in `directories`.
 * Also re-checked: the link cycle guard (a link to an ancestor is not followed) holds.
 *
 * DEFECT (low-medium: a Vite build or dev server hangs on 30 links). docs/vite.md Options: maxFiles and
 * maxBytes "bound the work of reading a directory to compute its version" — but the walk counts
 * only files, so a tree of linked directories without files is walked without any bound.
 * Cause: src/vite/scan.ts scanBundle `walk` follows every directory link, guarding only against
 * ancestors (cycles), never against a real directory already walked by another path, and nothing
 * counts directories. Fix: count every directory entry walked against a bound (maxFiles, or a
 * documented maxEntries) and refuse past it with the plugin's "more than …" message.
 *
 * FIXED: `walk` now counts every subdirectory path it walks against maxFiles (documented in
 * docs/vite.md Options) and fails with "<specifier>: more than <maxFiles> directories walked …;
 * bundle a smaller directory, remove symbolic links that reach the same directory by several paths,
 * or raise computerBundle({ maxFiles })". A directory reached by several paths is still walked once
 * per path (not deduplicated by real path), because import.meta.glob lists its files once per path
 * and the version must cover exactly what the glob lists.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { scanBundle } from "../../../src/vite/scan.js";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** d0 … d<n>, each d<i> holding links a and b to d<i+1>; one file, d0/top.md. */
function diamond(n: number): string {
  const root = mkdtempSync(join(tmpdir(), "attack11-diamond-"));
  made.push(root);
  for (let i = 0; i <= n; i++) mkdirSync(join(root, `d${i}`));
  writeFileSync(join(root, "d0", "top.md"), "top\n");
  for (let i = 0; i < n; i++) {
    symlinkSync(join(root, `d${i + 1}`), join(root, `d${i}`, "a"));
    symlinkSync(join(root, `d${i + 1}`), join(root, `d${i}`, "b"));
  }
  return join(root, "d0");
}

describe("attack11: computerBundle scan over linked directories", () => {
  it("a link back to an ancestor is not followed (cycle guard holds)", () => {
    const root = mkdtempSync(join(tmpdir(), "attack11-cycle-"));
    made.push(root);
    mkdirSync(join(root, "d", "sub"), { recursive: true });
    writeFileSync(join(root, "d", "sub", "f.md"), "f\n");
    symlinkSync(join(root, "d"), join(root, "d", "sub", "loop"));
    const scan = scanBundle("computer:bundle/d", join(root, "d"), { maxFiles: 100, maxBytes: 1 << 20 });
    expect(scan.files.map((f) => f.path)).toEqual(["sub/f.md"]);
    expect(scan.directories.length).toBe(2);
  });

  it("13 real directories linked as a diamond: the walk is bounded by maxFiles (100), not 2^13 paths", () => {
    const dir = diamond(12);
    let walked: number | string;
    try {
      // The Vite root (the diamond's links stay in it) — run 35, fixer VT: scanBundle checks links against it.
      walked = scanBundle("computer:bundle/d0", dir, { maxFiles: 100, maxBytes: 1 << 20 }, dirname(dir)).directories.length;
    } catch (error) {
      walked = (error as Error).message;
    }
    // Before the fix: 8191 directories walked and the bundle accepted (1 file).
    expect(walked).toBe(
      "computer:bundle/d0: more than 100 directories walked (a directory linked from several places is walked once per path, as import.meta.glob lists it); " +
        "bundle a smaller directory, remove symbolic links that reach the same directory by several paths, or raise computerBundle({ maxFiles })",
    );
  });

  it("a diamond within the bound is walked once per path, as import.meta.glob lists it", () => {
    const dir = diamond(2); // d0/{a,b} → d1, d1/{a,b} → d2: 2 + 4 subdirectory paths
    const scan = scanBundle("computer:bundle/d0", dir, { maxFiles: 6, maxBytes: 1 << 20 }, dirname(dir)); // root: run 35, fixer VT
    expect(scan.directories.length).toBe(7); // the bundle directory and its 6 subdirectory paths
    expect(() => scanBundle("computer:bundle/d0", dir, { maxFiles: 5, maxBytes: 1 << 20 }, dirname(dir))).toThrow(/^computer:bundle\/d0: more than 5 directories walked /);
  });
});
