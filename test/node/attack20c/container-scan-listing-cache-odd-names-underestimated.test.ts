/**
 * Issue 20, twentieth attack run: 6c8f16d keeps the daemon's sorted directory listings between scan pages within
 * SCAN_LISTING_CACHE_BYTES (128 MiB, container/README.md: "estimated"), estimating a listing at 2 bytes a name's UTF-16
 * unit and 32 an entry, plus the raw bytes and 64 for a name kept as bytes (`odd`: a name that is not UTF-8, or one
 * whose first byte is 0xEF — any name starting with a character in U+F000–U+FFFF: fullwidth letters and digits,
 * halfwidth katakana, private-use characters). A name kept as bytes is held as its own Buffer and a `{ raw, valid }`
 * object in a Map, which cost far more than 64 bytes: for such names the bound lets the cache hold ~2.7 times what it
 * says.
 *
 * Tried: the real daemon (`Computerd` in process, attack18c/real-daemon.ts); a directory `w` of 50,000 empty files named
 * `Ａ<5 digits>` (U+FF21, 8 bytes) — and, as a control, `a<5 digits>`; one scan page (`limit: 100`) that ends inside
 * `w`, so its listing is kept for the next page; the heap (heapUsed + external) after a full GC before and after the
 * page. (Held: the control's listing holds less than its estimate — 1.70 MB for 2.20 MB estimated, measured in plain
 * Node; the test's first case.)
 *
 * Found (low; 3 of 3 runs): 15.4–15.6 MB held for a listing estimated at 5.8 MB (2.66–2.69x; 62.0 MB for 23.5 MB
 * with 200,000 names) — so the documented 128 MiB lets ~340 MiB of such listings stay in the daemon between pages (16
 * nested wide directories of short fullwidth or non-UTF-8 names), kept until some walk ends; a container of
 * 256 MiB–1 GiB (Cloudflare Containers instance types) runs the commands beside it.
 *
 * Suggested fix: count what a kept-as-bytes name really costs (~320 bytes besides its bytes: the Buffer and its
 * ArrayBuffer, the Map entry and its object) — or keep the raw names of a listing in one Buffer with offsets (one
 * allocation a listing) and the `odd` marks in a typed array, which also makes the estimate close.
 *
 * Fixed: only names that are not valid UTF-8 are kept as bytes (the decoder keeps a leading BOM, so a name starting
 * 0xEF needs no bytes kept), held as a latin1 string (one byte a character) instead of a Buffer and an object each,
 * and estimated at their bytes + 96 (measured ~60); the estimate below follows the daemon's, and a third case checks
 * names that are not UTF-8. The heap is measured 500 ms after the page: the page's own work (its answer, the
 * visits' buffers) holds a transient ~280 bytes a visited name that is let go by then, whatever the cache keeps.
 */
import fs from "node:fs";
import path from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { realDaemonWorkspace } from "../attack18c/real-daemon.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const held = (): number => {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
};

/**
 * The memory a listing of `names` (raw) is estimated at (container/lib/sync.mjs `listDir`, since the fix): 2 bytes a
 * UTF-16 unit of the (lossy) decoded name and 32 an entry, plus the raw bytes and 96 for a name that is not UTF-8.
 */
function estimate(names: Buffer[]): number {
  let bytes = 0;
  for (const raw of names) {
    bytes += raw.toString("utf8").length * 2 + 32;
    if (!raw.equals(Buffer.from(raw.toString("utf8")))) bytes += raw.length + 96;
  }
  return bytes;
}

async function keptListing(name: (i: number) => Buffer, last = 98): Promise<{ held: number; estimate: number }> {
  const real = await realDaemonWorkspace();
  await real.ws.close(); // only the daemon and its directory are used
  try {
    const names = Array.from({ length: 50_000 }, (_, i) => name(i));
    fs.mkdirSync(path.join(real.dir, "w"));
    const dir = Buffer.from(path.join(real.dir, "w") + "/");
    for (const raw of names) fs.writeFileSync(Buffer.concat([dir, raw]), "");
    await new Promise((r) => setTimeout(r, 100)); // past SCAN_LISTING_SETTLED_MS (20 ms), so the listing is kept
    const before = held();
    const page = (await real.daemon.scan({ limit: 100 } as never)) as { cursor: string | null };
    // What the page's own work left (its answer, the visits' buffers) is let go within a moment; the listing stays.
    await new Promise((r) => setTimeout(r, 500));
    const after = held();
    // The page ends inside w (at name `last`, with its raw bytes when not UTF-8): its listing is kept for the next.
    const n = names[last]!;
    const valid = n.equals(Buffer.from(n.toString("utf8")));
    expect(page.cursor).toBe(valid ? `w/${n.toString("utf8")}` : `w/${n.toString("utf8")}\0${n.toString("hex")}`);
    return { held: after - before, estimate: estimate(names) + estimate([Buffer.from("w")]) };
  } finally {
    await real.close();
  }
}

describe("attack20c: the memory of a kept scan listing and its estimate", () => {
  it("held: a listing of ASCII names holds less than its estimate", { timeout: 60_000 }, async () => {
    const { held, estimate } = await keptListing((i) => Buffer.from(`a${String(i).padStart(5, "0")}`));
    expect(held).toBeLessThan(estimate);
  });

  it("a listing of names starting with U+FF21 holds no more than its estimate (25% slack)", { timeout: 60_000 }, async () => {
    const { held, estimate } = await keptListing((i) => Buffer.from(`\uFF21${String(i).padStart(5, "0")}`));
    // Found: 15.6 MB held for 5.8 MB estimated (2.69x).
    expect(held).toBeLessThanOrEqual(estimate * 1.25);
  });

  it("a listing of names that are not UTF-8 (kept as bytes) holds no more than its estimate (25% slack)", { timeout: 60_000 }, async () => {
    // Skipped, not returned: the page ends at SCAN_MAX_BYTES, 65 ("w") + 4,900 × 107 ("w/k<5 digits>\uFFFD" + 32, and 64
    // for the stat a skipped name carries since issue 20 run 39, fixer CR) ≥ 524,288 (12,192 × 43 before).
    const { held, estimate } = await keptListing((i) => Buffer.concat([Buffer.from(`k${String(i).padStart(5, "0")}`), Buffer.from([0xff])]), 4_899);
    expect(held).toBeLessThanOrEqual(estimate * 1.25);
  });
});
