// The daemon's `scan` (container/lib/sync.mjs) decodes each name and link target from the raw bytes as UTF-8.
// A TextDecoder drops a leading byte-order mark by default, so a file named "\uFEFFa.txt" was reported as
// "a.txt" — beside the real "a.txt", one path twice, and a pull would write one file's bytes over the other's
// path (nineteenth attack run's leads). The decoder keeps the mark (`ignoreBOM: true`).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error the daemon is plain ESM JavaScript (checked with // @ts-check)
import { scan, read } from "../../../container/lib/sync.mjs";
// @ts-expect-error as above
import { Mount } from "../../../container/lib/paths.mjs";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "scan-bom-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("daemon scan: names starting with U+FEFF", () => {
  it("keeps the byte-order mark in names and link targets", async () => {
    fs.writeFileSync(path.join(root, "a.txt"), "plain");
    fs.writeFileSync(path.join(root, "\uFEFFa.txt"), "marked");
    fs.mkdirSync(path.join(root, "\uFEFF"));
    fs.symlinkSync("\uFEFFa.txt", path.join(root, "link"));
    const mount = await Mount.open(root);
    const page = (await scan(mount, () => false, { cursor: null, limit: 100 })) as {
      entries: { path: string; kind: string; target?: string }[];
      skipped: unknown[];
      done: boolean;
    };
    expect(page.done).toBe(true);
    expect(page.skipped).toEqual([]);
    expect(page.entries.map((e) => [e.path, e.kind, e.target])).toEqual([
      ["a.txt", "file", undefined],
      ["link", "symlink", "\uFEFFa.txt"],
      ["\uFEFF", "directory", undefined],
      ["\uFEFFa.txt", "file", undefined],
    ]);
    // The reported path reads the file it names.
    const got = (await read(mount, { path: "\uFEFFa.txt", offset: 0, length: 100 })) as { data: Uint8Array };
    expect(Buffer.from(got.data).toString()).toBe("marked");
  });
});
