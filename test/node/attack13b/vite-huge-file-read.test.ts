/**
 * Issue 20, thirteenth attack run: `computerBundle()`'s scan (src/vite/scan.ts `scanBundle`) and a
 * single large file in the bundled directory.
 *
 * Tried: a bundle directory holding one sparse file larger than `maxBytes` (default 64 MiB): 3 GiB,
 * and 1.5 GiB. docs/vite.md: maxFiles and maxBytes "bound the work of reading a directory to compute
 * its version"; the scan's TSDoc promises "more than `limits.maxBytes` bytes; bundle a smaller
 * directory or raise computerBundle({ maxBytes })".
 *
 * Found (low): the scan reads each file whole (`readFileSync`) BEFORE adding its size to the total, so
 * the bound is checked only after the bytes are in memory: a 1.5 GiB file (a dataset or a build
 * artefact left in the directory) is read completely — 1.5 GiB of heap in the Vite dev server or
 * build, seconds of I/O — and only then refused; a file over 2 GiB fails with Node's own
 * `RangeError [ERR_FS_FILE_TOO_LARGE]: File size (3221225472) is greater than 2 GiB`, which names
 * neither the import nor the option to change.
 * Reproduction: mkdir b; truncate -s 3G b/big.bin; scanBundle("computer:bundle/b", "b", { maxFiles: 10_000, maxBytes: 64 << 20 })
 * Suggested fix: sum `statSync(file).size` (already known from the walk) against maxBytes before
 * reading any file, and read each file with its size checked (or stream it into the hash).
 */
import { mkdtempSync, openSync, closeSync, ftruncateSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { scanBundle } from "../../../src/vite/scan.js";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function sparse(size: number): string {
  const dir = mkdtempSync(join(tmpdir(), "attack13b-vite-"));
  made.push(dir);
  const fd = openSync(join(dir, "big.bin"), "w");
  ftruncateSync(fd, size);
  closeSync(fd);
  return dir;
}

describe("attack13b: computerBundle scan and a file past maxBytes", () => {
  it("a 3 GiB file is refused by maxBytes with the plugin's message, before it is read", () => {
    const dir = sparse(3 * 1024 ** 3);
    expect(() => scanBundle("computer:bundle/b", dir, { maxFiles: 10_000, maxBytes: 64 * 1024 * 1024 })).toThrow(
      "computer:bundle/b: more than 67108864 bytes; bundle a smaller directory or raise computerBundle({ maxBytes })",
    );
  });
});
