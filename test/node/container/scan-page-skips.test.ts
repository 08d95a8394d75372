// The daemon's `scan` pages (container/lib/sync.mjs): skipped entries — special files and names that are
// not UTF-8 — weigh in a page's byte and visit budget as returned entries do, so every page stays near
// SCAN_MAX_BYTES (512 KiB) of paths whatever the tree holds (issue 20, attack13c container-scan-page-skips).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error the daemon is plain ESM JavaScript (checked with // @ts-check)
import { scan } from "../../../container/lib/sync.mjs";
// @ts-expect-error as above
import { Mount } from "../../../container/lib/paths.mjs";

type Skip = { path: string; reason: string; stat?: { target?: string }; inside?: { path: string; target?: string }[] };
type Page = { entries: { path: string }[]; skipped: Skip[]; cursor: string | null; done: boolean };

const root = fs.mkdtempSync(path.join(os.tmpdir(), "scan-skips-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** All pages of a walk of `dir` with a page limit of 10,000 entries. */
async function pages(dir: string): Promise<Page[]> {
  const mount = await Mount.open(dir);
  const out: Page[] = [];
  let cursor: string | null = null;
  for (;;) {
    const page = (await scan(mount, () => false, { cursor, limit: 10_000 })) as Page;
    out.push(page);
    if (page.done) return out;
    cursor = page.cursor;
  }
}

/**
 * Bytes of a page's paths plus the per-entry allowance the daemon counts; a skipped name that is not UTF-8 also
 * weighs its stat (64 and its link target) and what is listed inside it (issue 20, run 39, fixer CR).
 */
const skipWeight = (s: Skip) =>
  Buffer.byteLength(s.path) + 32 + (s.stat ? 64 + Buffer.byteLength(s.stat.target ?? "") : 0) + (s.inside ?? []).reduce((n, i) => n + Buffer.byteLength(i.path) + Buffer.byteLength(i.target ?? "") + 64, 0);
const weight = (p: Page) => p.entries.reduce((n, e) => n + Buffer.byteLength(e.path) + 64, 0) + p.skipped.reduce((n, s) => n + skipWeight(s), 0);

const SCAN_MAX_BYTES = 512 * 1024;

/** Every page but the last ends with the skipped entry that took it to SCAN_MAX_BYTES. */
function expectPagesEndAtBudget(all: Page[]): void {
  expect(all.at(-1)!.done).toBe(true);
  for (const p of all.slice(0, -1)) {
    const last = p.skipped.at(-1)!;
    // A cursor ending on a name that is not UTF-8 carries its raw bytes in hex after a NUL (names that decode alike told apart).
    const [cursor, rawHex] = p.cursor!.split("\0");
    expect({ done: p.done, cursor, raw: rawHex === undefined ? undefined : Buffer.from(rawHex, "hex").toString("utf8"), reached: weight(p) >= SCAN_MAX_BYTES, before: weight(p) - skipWeight(last) < SCAN_MAX_BYTES }).toEqual({
      done: false,
      cursor: last.path,
      raw: last.reason === "encoding" ? path.posix.basename(last.path) : undefined,
      reached: true,
      before: true,
    });
  }
}

describe("scan pages of skipped entries", () => {
  const D = Array.from({ length: 18 }, (_, i) => `${i}`.padEnd(200, "d")).join("/");

  it("3,000 fifos 3.6 KB deep come in pages of at most 512 KiB of paths, each once", async () => {
    const dir = path.join(root, "fifos");
    fs.mkdirSync(path.join(dir, D), { recursive: true });
    execFileSync("sh", ["-c", `cd "$1" && seq 1 3000 | sed 's/^/f/' | xargs mkfifo`, "sh", path.join(dir, D)]);
    const all = await pages(dir);
    const skipped = all.flatMap((p) => p.skipped);
    expect(skipped.length).toBe(3000);
    expect(new Set(skipped.map((s) => s.path)).size).toBe(3000);
    expect(skipped.every((s) => s.reason === "special")).toBe(true);
    expectPagesEndAtBudget(all);
    // ~3,650 weighed bytes a fifo: 144 a page (the first also holds the 18 directories).
    expect(all.map((p) => p.skipped.length)).toEqual([134, ...Array(19).fill(144), 130]);
    expect(all.map((p) => p.entries.length).reduce((a, b) => a + b)).toBe(18);
  });

  it("3,000 names that are not UTF-8 (3.6 KB deep) also end pages, each once", async () => {
    const dir = path.join(root, "latin1");
    fs.mkdirSync(path.join(dir, D), { recursive: true });
    const base = Buffer.from(path.join(dir, D) + "/");
    for (let i = 1; i <= 3000; i++) fs.writeFileSync(Buffer.concat([base, Buffer.from(`caf\xe9${i}`, "latin1")]), "");
    const all = await pages(dir);
    const skipped = all.flatMap((p) => p.skipped);
    expect(skipped.length).toBe(3000);
    expect(new Set(skipped.map((s) => s.path)).size).toBe(3000);
    expect(skipped.every((s) => s.reason === "encoding")).toBe(true);
    expectPagesEndAtBudget(all);
    expect(all.length).toBe(22); // 21 before run 39: each now weighs its stat too (fixer CR)
  });
});
