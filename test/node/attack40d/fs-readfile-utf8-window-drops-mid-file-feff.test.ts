/**
 * Issue 20, run 40, attacker d (a40d).
 * Fixed in run 40 by fixer f40tl: readContent decodes a window not at byte 0 with `ignoreBOM: true` (src/fs/read.ts
 * windowDecoder); sibling cases in test/node/fix40/fs-readfile-window-bom.test.ts.
 *
 * Reproduction: a file holding U+FEFF in the middle ("A" EF BB BF "B"), read as a utf8 window that starts at that
 * character: `fs.readFile(p, { encoding: "utf8", byteOffset: 4 })` (also over a getWorkspace() client: the stub
 * decodes the same way).
 * Today: "B" — the window's first character is dropped, because every window is decoded with a fresh
 * `new TextDecoder("utf-8")`, which strips a BOM at the start of *its* input. The same in all three branches of
 * `readContent` (src/fs/read.ts): a small file's inline bytes, a window inside one 512 KiB chunk, a window across
 * chunks. Four bytes are asked for and one character comes back; a caller paging a file by byte windows and joining
 * the pieces loses every U+FEFF (ZERO WIDTH NO-BREAK SPACE) that starts a window.
 * Reference: docs/filesystem.md (readFile): "decoded as non-fatal UTF-8 … a *leading* BOM dropped" — the file's
 * BOM; bytes at offset 4 are not a byte order mark. Node 22 keeps it in any window:
 *   node -e 'fs.writeFileSync("/tmp/bom",Buffer.from([0xef,0xbb,0xbf,0x41,0xef,0xbb,0xbf,0x42]));
 *            fs.createReadStream("/tmp/bom",{start:4,encoding:"utf8"}).on("data",d=>console.log(JSON.stringify(d)))'
 *   → "\uFEFFB" (fs.readSync at position 4 then toString("utf8") gives the same).
 * The existing row (test/shared/fs/readwrite.cases.ts) pins byteOffset 0 and 3 only.
 * Likely fix: `new TextDecoder("utf-8", { ignoreBOM: start > 0 })` in readContent.
 */
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";

const BOM = [0xef, 0xbb, 0xbf];

describe("a utf8 window that starts at a mid-file U+FEFF keeps it", () => {
  it("small file (inline bytes)", async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    await ws.fs.writeFile("/bom", new Uint8Array([...BOM, 0x41, ...BOM, 0x42]));
    expect(await ws.fs.readFile("/bom", { byteOffset: 4, encoding: "utf8" })).toBe("\uFEFFB");
    expect(await ws.fs.readFile("/bom", { byteOffset: 4, byteLength: 3, encoding: "utf8" })).toBe("\uFEFF");
  });

  it("large file: a window inside one chunk, and one across chunks", async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    const size = 600 * 1024;
    const bytes = new Uint8Array(size).fill(0x61);
    const at = 520_000; // chunk 0 ends at 524288
    bytes.set(BOM, at);
    await ws.fs.writeFile("/big", bytes);
    expect(await ws.fs.readFile("/big", { byteOffset: at, byteLength: 5, encoding: "utf8" })).toBe("\uFEFFaa");
    const across = (await ws.fs.readFile("/big", { byteOffset: at, byteLength: 10_000, encoding: "utf8" })) as string;
    expect(across.length).toBe(1 + 10_000 - 3);
    expect(across.charCodeAt(0)).toBe(0xfeff);
  });
});
