/**
 * Issue 20, run 40, fixer f40tl — sibling of test/node/attack40d/fs-readfile-utf8-window-drops-mid-file-feff.test.ts.
 * `readFile(p, { encoding: "utf8", byteOffset, byteLength })` drops only the file's own leading BOM (a window from
 * byte 0, in each branch of src/fs/read.ts readContent: inline bytes, one chunk, across chunks); a U+FEFF starting a
 * later window is kept, as Node 22 keeps it (`fs.createReadStream(p, { start, encoding: "utf8" })`), so windows
 * joined give the file's text.
 */
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";

const BOM = [0xef, 0xbb, 0xbf];

describe("readFile utf8 windows and the byte order mark", () => {
  it("the file's own BOM is still dropped from a window at byte 0 (inline, one chunk, across chunks)", async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    await ws.fs.writeFile("/small", new Uint8Array([...BOM, 0x41]));
    expect(await ws.fs.readFile("/small", { byteOffset: 0, encoding: "utf8" })).toBe("A");
    expect(await ws.fs.readFile("/small", { byteOffset: 0, byteLength: 3, encoding: "utf8" })).toBe("");
    const big = new Uint8Array(600 * 1024).fill(0x61);
    big.set(BOM, 0);
    await ws.fs.writeFile("/big", big);
    expect(await ws.fs.readFile("/big", { byteOffset: 0, byteLength: 5, encoding: "utf8" })).toBe("aa");
    const whole = (await ws.fs.readFile("/big", "utf8")) as string;
    expect(whole.length).toBe(big.byteLength - 3);
    expect(whole.charCodeAt(0)).toBe(0x61);
  });

  it("a window starting inside the file's BOM gives U+FFFD per stray byte, as Node", async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    await ws.fs.writeFile("/bom", new Uint8Array([...BOM, 0x41]));
    // node: Buffer.from([0xbb, 0xbf, 0x41]).toString("utf8") → "\uFFFD\uFFFDA"
    expect(await ws.fs.readFile("/bom", { byteOffset: 1, encoding: "utf8" })).toBe("\uFFFD\uFFFDA");
  });

  it("3-byte windows over a file of U+FEFFs join to its text (the leading one dropped)", async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    const bytes = new Uint8Array([...BOM, ...BOM, ...BOM, ...BOM]);
    await ws.fs.writeFile("/feffs", bytes);
    let joined = "";
    for (let at = 0; at < bytes.byteLength; at += 3) joined += await ws.fs.readFile("/feffs", { byteOffset: at, byteLength: 3, encoding: "utf8" });
    expect(joined).toBe(await ws.fs.readFile("/feffs", "utf8"));
    expect(joined).toBe("\uFEFF\uFEFF\uFEFF");
  });
});
