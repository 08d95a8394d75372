import { describe, expect, it } from "vitest";
import { readDefinition, type ReadToolOptions } from "../../../src/tools/core/read.js";
import type { FileStore } from "../../../src/tools/core/store.js";
import { setup, TEN } from "./helpers.js";

const P = "/workspace/ten.txt";

async function reader(files: Record<string, string | Uint8Array>, options: Omit<ReadToolOptions, "store"> = {}) {
  const { store, workspace } = await setup(files);
  return { read: readDefinition({ ...options, store }), store, workspace };
}

describe("read: recorded text paging (spec 03 §4.1)", () => {
  it("pages by line with both continuations", async () => {
    const { read } = await reader({ [P]: TEN });
    expect(await read.execute({ path: P, offset: 3, limit: 2 })).toEqual({
      path: P, content: "line 3\nline 4", startLine: 3, endLine: 4, totalLines: null, truncated: true, nextOffset: 5, nextByteOffset: 28,
    });
    expect(JSON.stringify(await read.execute({ path: P, offset: 10 }))).toBe(
      JSON.stringify({ path: P, content: "line 10", startLine: 10, endLine: 10, totalLines: 10, truncated: false }),
    );
    expect(await read.execute({ path: P, offset: 11 })).toEqual({ error: "Offset 11 is beyond end of file (10 line(s))" });
    expect(await read.execute({ path: P, offset: 2, byteOffset: 9999 })).toEqual({ error: "Byte continuation 9999 is beyond end of file" });
    const all = (await read.execute({ path: P, limit: 5000 })) as { content: string; totalLines: number };
    expect(all.content).toBe(TEN.slice(0, -1));
    expect(all.totalLines).toBe(10);
    expect(await read.execute({ path: P, byteOffset: 5 })).toEqual({ error: "offset is required when byteOffset is greater than zero" });
  });

  it("maxLines 3 / maxBytes 40 continuations", async () => {
    const { read } = await reader({ [P]: TEN }, { maxLines: 3, maxBytes: 40 });
    expect(await read.execute({ path: P })).toMatchObject({ content: "line 1\nline 2\nline 3", nextOffset: 4, nextByteOffset: 21, totalLines: null });
    expect(await read.execute({ path: P, offset: 4, byteOffset: 21 })).toMatchObject({ content: "line 4\nline 5\nline 6", startLine: 4, nextByteOffset: 42 });
    expect(await read.execute({ path: P, offset: 10, byteOffset: 63 })).toEqual({
      path: P, content: "line 10", startLine: 10, endLine: 10, totalLines: 10, truncated: false,
    });
  });

  it("byte and line caps", async () => {
    expect(await (await reader({ [P]: TEN }, { maxBytes: 20 })).read.execute({ path: P })).toMatchObject({
      content: "line 1\nline 2\nline 3", nextOffset: 4, nextByteOffset: 21,
    });
    expect(await (await reader({ [P]: TEN }, { maxLines: 9 })).read.execute({ path: P })).toMatchObject({ nextOffset: 10, nextByteOffset: 63 });
    expect(await (await reader({ [P]: TEN }, { maxLines: 10 })).read.execute({ path: P })).toMatchObject({ truncated: false, totalLines: 10 });
  });

  it("a long line: cap error, then truncation with numbers", async () => {
    const file = "short\n" + "x".repeat(100) + "\nafter\n";
    const { read } = await reader({ "/workspace/l.txt": file }, { maxBytes: 20 });
    expect(await read.execute({ path: "/workspace/l.txt" })).toMatchObject({ content: "short", nextOffset: 2, nextByteOffset: 6 });
    expect(await read.execute({ path: "/workspace/l.txt", offset: 2, byteOffset: 6 })).toEqual({
      error: "Line 2 exceeds the 20-byte read cap. The host must increase maxBytes, reduce lineTruncation, or provide a byte-oriented tool.",
    });
    const numbered = (await reader({ "/workspace/l.txt": file }, { includeLineNumbers: true, lineTruncation: { chars: 5 } })).read;
    expect(await numbered.execute({ path: "/workspace/l.txt" })).toMatchObject({ content: "1\tshort\n2\txxxxx... (truncated)\n3\tafter" });
  });

  it("line truncation by bytes never splits a character", async () => {
    const f = { "/workspace/u.txt": "héllo wörld ünïcode\nnext\n" };
    expect(await (await reader(f, { lineTruncation: { bytes: 2 } })).read.execute({ path: "/workspace/u.txt" })).toMatchObject({
      content: "h... (truncated)\nne... (truncated)",
    });
    expect(await (await reader(f, { lineTruncation: { bytes: 3 } })).read.execute({ path: "/workspace/u.txt" })).toMatchObject({
      content: "hé... (truncated)\nnex... (truncated)",
    });
  });

  it("positioned numbering trusts the caller", async () => {
    const { read } = await reader({ "/workspace/a.txt": "a\nb\nc\nd\n" }, { includeLineNumbers: true });
    expect(await read.execute({ path: "/workspace/a.txt", offset: 7, byteOffset: 4 })).toMatchObject({ content: "7\tc\n8\td", totalLines: 8 });
  });
});

describe("read: edge cases", () => {
  it("CRLF keeps the CR; an empty file; no final newline; tabs; BOM", async () => {
    const { read } = await reader({
      "/workspace/crlf.txt": "a\r\nb\r\n",
      "/workspace/empty.txt": "",
      "/workspace/nofinal.txt": "one\ntwo",
      "/workspace/tabs.txt": "\tindent\n\t\tmore\n",
      "/workspace/bom.txt": "\uFEFFfirst\nsecond\n",
    });
    expect(await read.execute({ path: "/workspace/crlf.txt" })).toMatchObject({ content: "a\r\nb\r", totalLines: 2, truncated: false });
    expect(JSON.stringify(await read.execute({ path: "/workspace/empty.txt", offset: 5 }))).toBe(
      '{"path":"/workspace/empty.txt","content":"","startLine":1,"endLine":0,"totalLines":0,"truncated":false}',
    );
    expect(await read.execute({ path: "/workspace/nofinal.txt" })).toEqual({
      path: "/workspace/nofinal.txt", content: "one\ntwo", startLine: 1, endLine: 2, totalLines: 2, truncated: false,
    });
    expect(await read.execute({ path: "/workspace/tabs.txt" })).toMatchObject({ content: "\tindent\n\t\tmore" });
    expect(await read.execute({ path: "/workspace/bom.txt" })).toMatchObject({ content: "first\nsecond", totalLines: 2 });
  });

  it("a directory or missing path is File not found", async () => {
    const { read } = await reader({ "/workspace/d/x.txt": "x" });
    expect(await read.execute({ path: "/workspace/d" })).toEqual({ error: "File not found: /workspace/d" });
    expect(await read.execute({ path: "/workspace/zz" })).toEqual({ error: "File not found: /workspace/zz" });
  });

  it("pages a 5,000-line file to the end by continuations, one ranged stream per call", async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `row ${i + 1}`);
    const { store } = await setup({ "/workspace/big.txt": lines.join("\n") + "\n" });
    const calls: Array<[number | undefined, number | undefined]> = [];
    const counting: FileStore = {
      lockIdentity: store.lockIdentity,
      stat: (p) => store.stat(p),
      readAll: (p) => store.readAll(p),
      write: (p, b, o) => store.write(p, b, o),
      readChunks: (p, off, len) => {
        calls.push([off, len]);
        return store.readChunks(p, off, len);
      },
    };
    const read = readDefinition({ store: counting, maxLines: 2000 });
    const got: string[] = [];
    let input: { path: string; offset?: number; byteOffset?: number } = { path: "/workspace/big.txt" };
    let pages = 0;
    for (;;) {
      const r = (await read.execute(input)) as { content: string; truncated: boolean; nextOffset?: number; nextByteOffset?: number; totalLines: number | null };
      pages++;
      got.push(...r.content.split("\n"));
      if (!r.truncated) {
        expect(r.totalLines).toBe(5000);
        break;
      }
      input = { path: "/workspace/big.txt", offset: r.nextOffset, byteOffset: r.nextByteOffset };
    }
    expect(pages).toBe(3);
    expect(got).toEqual(lines);
    // .txt needs no sniff: exactly one stream per call, each starting at the continuation byte.
    expect(calls.length).toBe(3);
    expect(calls[0]![0]).toBe(0);
    expect(calls[1]![0]).toBe(Buffer.byteLength(lines.slice(0, 2000).join("\n") + "\n"));
  });

  it("a single 1 MiB line and a minified file are refused with the cap message, or truncated per line", async () => {
    const line = "y".repeat(1 << 20);
    const minified = "function a(){return 1};".repeat(20000);
    const { read } = await reader({ "/workspace/one.txt": line + "\n", "/workspace/app.min.js": minified });
    expect(await read.execute({ path: "/workspace/one.txt" })).toEqual({
      error: "Line 1 exceeds the 262144-byte read cap. The host must increase maxBytes, reduce lineTruncation, or provide a byte-oriented tool.",
    });
    expect(await read.execute({ path: "/workspace/app.min.js" })).toEqual({
      error: "Line 1 exceeds the 262144-byte read cap. The host must increase maxBytes, reduce lineTruncation, or provide a byte-oriented tool.",
    });
    const cut = (await reader({ "/workspace/one.txt": line + "\n" }, { lineTruncation: { chars: 10 } })).read;
    expect(await cut.execute({ path: "/workspace/one.txt" })).toEqual({
      path: "/workspace/one.txt", content: "yyyyyyyyyy... (truncated)", startLine: 1, endLine: 1, totalLines: 1, truncated: false,
    });
  });
});

describe("read: media (spec 03 §4.1.1)", () => {
  const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
  const PDF = new TextEncoder().encode("%PDF-1.4\n%fake\n");

  it("captures a PNG by extension and by sniffing", async () => {
    const { read } = await reader({ "/workspace/pic.png": PNG, "/workspace/pic.bin": PNG });
    expect(JSON.stringify(await read.execute({ path: "/workspace/pic.png" }))).toBe(
      '{"kind":"image","path":"/workspace/pic.png","name":"pic.png","mediaType":"image/png","sizeBytes":16,"data":"iVBORw0KGgoAAAANSUhEUg=="}',
    );
    expect(await read.execute({ path: "/workspace/pic.bin" })).toMatchObject({ kind: "image", mediaType: "image/png", data: "iVBORw0KGgoAAAANSUhEUg==" });
    const small = (await reader({ "/workspace/pic.png": PNG }, { maxModelBytes: 10 })).read;
    expect(await small.execute({ path: "/workspace/pic.png" })).toEqual({
      kind: "image", path: "/workspace/pic.png", name: "pic.png", mediaType: "image/png", sizeBytes: 16,
    });
  });

  it("a PDF, binary bytes, an empty PNG, a .png that is text read with a byte continuation, text in .ts", async () => {
    const { read } = await reader({
      "/workspace/doc.pdf": PDF,
      "/workspace/blob.bin": new Uint8Array([1, 2, 0, 4, 255, 254]),
      "/workspace/empty.png": new Uint8Array(),
      "/workspace/note.png": "hello\nworld\n",
      "/workspace/bin.ts": new Uint8Array([0, 1, 2, 3]),
      "/workspace/caf": new Uint8Array([0xe9, 0x0a]),
      "/workspace/fffe": new Uint8Array([0xff, 0xfe]),
      "/workspace/logo": '<?xml version="1.0"?>\n<!-- c -->\n<svg xmlns="x"></svg>\n',
    });
    expect(await read.execute({ path: "/workspace/doc.pdf" })).toEqual({
      kind: "file", path: "/workspace/doc.pdf", name: "doc.pdf", mediaType: "application/pdf", sizeBytes: 15, data: "JVBERi0xLjQKJWZha2UK",
    });
    expect(JSON.stringify(await read.execute({ path: "/workspace/blob.bin" }))).toBe(
      '{"kind":"binary","path":"/workspace/blob.bin","name":"blob.bin","mediaType":"application/octet-stream","sizeBytes":6,"unsupported":true}',
    );
    expect(await read.execute({ path: "/workspace/empty.png" })).toEqual({ error: "Cannot attach empty file: /workspace/empty.png" });
    // A .png holding text: its bytes contradict the name, so it reads as text (docs/porting.md; spec 03 §4.1.1 would
    // attach it as image/png, which a provider rejects); a byte continuation reads it as text too.
    expect(await read.execute({ path: "/workspace/note.png" })).toMatchObject({ content: "hello\nworld", totalLines: 2 });
    expect(await read.execute({ path: "/workspace/note.png", offset: 2, byteOffset: 6 })).toMatchObject({ content: "world", startLine: 2 });
    expect(await read.execute({ path: "/workspace/bin.ts" })).toMatchObject({ content: "\u0000\u0001\u0002\u0003" });
    expect(await read.execute({ path: "/workspace/caf" })).toMatchObject({ content: "\uFFFD" });
    expect(await read.execute({ path: "/workspace/fffe" })).toMatchObject({ kind: "binary", unsupported: true });
    expect(await read.execute({ path: "/workspace/logo" })).toMatchObject({ content: expect.stringContaining("<svg") });
  });

  it("model output follows §4.1.2", async () => {
    const { read } = await reader({ "/workspace/pic.png": PNG, [P]: TEN });
    const png = await read.execute({ path: "/workspace/pic.png" });
    expect(read.toModelOutput({ path: "/workspace/pic.png" }, png)).toEqual({
      type: "media", text: "Read /workspace/pic.png (image/png, 16 bytes).", data: "iVBORw0KGgoAAAANSUhEUg==", mediaType: "image/png", filename: "pic.png",
    });
    const whole = await read.execute({ path: P });
    expect(read.toModelOutput({ path: P }, whole)).toEqual({ type: "text", value: TEN.slice(0, -1) });
    expect(read.toModelOutput({ path: P, byteOffset: 0 }, whole)).toEqual({ type: "json", value: whole });
    const big = { kind: "image" as const, path: "/x.png", name: "x.png", mediaType: "image/png", sizeBytes: 5_000_000 };
    expect(read.toModelOutput({ path: "/x.png" }, big)).toEqual({
      type: "error-text", value: "Read /x.png (image/png, 5000000 bytes), but it exceeds the 3670016-byte inline model output limit.",
    });
  });

  it("build-time checks", async () => {
    const { store } = await setup();
    expect(() => readDefinition({ store, maxModelBytes: 0 })).toThrow("maxModelBytes must be a positive safe integer below Number.MAX_SAFE_INTEGER");
    expect(() => readDefinition({ store, mediaSniffBytes: Number.MAX_SAFE_INTEGER })).toThrow(
      "mediaSniffBytes must be a positive safe integer below Number.MAX_SAFE_INTEGER",
    );
    expect(() => readDefinition({ store, lineTruncation: { chars: 0 } })).toThrow("lineTruncation must be a positive safe integer");
    expect(readDefinition({ store, maxBytes: 40 }).description).toContain("2000 lines or 0KB");
  });
});
