/**
 * read refuses to attach an image whose header states a side longer than
 * `maxImageDimension` (default 8000 px): providers reject such images, and a
 * rejected image can fail every later turn. The model is told the size.
 */
import { describe, expect, it } from "vitest";
import { readDefinition, type ReadToolOptions } from "../../../src/tools/core/read.js";
import { toBase64 } from "../../../src/util/bytes.js";
import { setup } from "./helpers.js";
import { gif, jpeg, png, webpVP8, webpVP8L, webpVP8X } from "./image-headers.js";

async function reader(files: Record<string, string | Uint8Array>, options: Omit<ReadToolOptions, "store"> = {}) {
  const { store } = await setup(files);
  return readDefinition({ ...options, store });
}

const tooBig = (path: string, w: number, h: number, max = 8000) =>
  `${path} is ${w}×${h} px, larger than the ${max} px per side the model accepts, so it was not attached. To see it, read a copy scaled or cropped to at most ${max} px per side (made with an image tool, if one is available).`;

const FORMATS = [
  { ext: "png", mediaType: "image/png", make: png },
  { ext: "jpg", mediaType: "image/jpeg", make: jpeg },
  { ext: "gif", mediaType: "image/gif", make: gif },
  { ext: "webp", mediaType: "image/webp", make: webpVP8X, form: "VP8X" },
  { ext: "webp", mediaType: "image/webp", make: webpVP8L, form: "VP8L" },
  { ext: "webp", mediaType: "image/webp", make: webpVP8, form: "VP8" },
] as const;

describe("read: image dimensions from the header", () => {
  it("the issue's 9600×1200 PNG passes the byte cap but is not attached; the model is told its size", async () => {
    const bytes = png(9600, 1200);
    expect(bytes.byteLength).toBeLessThan(3670016);
    const read = await reader({ "/workspace/image.png": bytes });
    const input = { path: "/workspace/image.png" };
    const result = await read.execute(input);
    expect(JSON.stringify(result)).toBe(
      `{"kind":"image","path":"/workspace/image.png","name":"image.png","mediaType":"image/png","sizeBytes":${bytes.byteLength},"width":9600,"height":1200}`,
    );
    expect(read.toModelOutput(input, result)).toEqual({
      type: "error-text",
      value: "/workspace/image.png is 9600×1200 px, larger than the 8000 px per side the model accepts, so it was not attached. To see it, read a copy scaled or cropped to at most 8000 px per side (made with an image tool, if one is available).",
    });
    expect(read.limits.maxImageDimension).toBe(8000);
  });

  for (const { ext, mediaType, make, ...rest } of FORMATS) {
    const label = "form" in rest ? `${ext} (${rest.form})` : ext;
    it(`${label}: 8000 px on a side is attached, 8001 is not (either side)`, async () => {
      const files = {
        [`/workspace/at.${ext}`]: make(8000, 10),
        [`/workspace/tall-at.${ext}`]: make(10, 8000),
        [`/workspace/wide.${ext}`]: make(8001, 10),
        [`/workspace/tall.${ext}`]: make(10, 8001),
      };
      const read = await reader(files);
      for (const name of ["at", "tall-at"]) {
        const path = `/workspace/${name}.${ext}`;
        const result = await read.execute({ path });
        expect(result).toEqual({ kind: "image", path, name: `${name}.${ext}`, mediaType, sizeBytes: files[path]!.byteLength, data: toBase64(files[path]!) });
        expect(read.toModelOutput({ path }, result)).toMatchObject({ type: "media", mediaType });
      }
      for (const [name, w, h] of [["wide", 8001, 10], ["tall", 10, 8001]] as const) {
        const path = `/workspace/${name}.${ext}`;
        const result = await read.execute({ path });
        expect(result).toEqual({ kind: "image", path, name: `${name}.${ext}`, mediaType, sizeBytes: files[path]!.byteLength, width: w, height: h });
        expect(read.toModelOutput({ path }, result)).toEqual({ type: "error-text", value: tooBig(path, w, h) });
      }
    });
  }

  it("maxImageDimension configured lower: 2000 attaches, 2001 is refused; invalid values are TypeErrors", async () => {
    const read = await reader({ "/workspace/a.png": png(2000, 3), "/workspace/b.png": png(3, 2001) }, { maxImageDimension: 2000 });
    expect(read.limits.maxImageDimension).toBe(2000);
    expect(await read.execute({ path: "/workspace/a.png" })).toMatchObject({ kind: "image", data: expect.any(String) });
    const b = await read.execute({ path: "/workspace/b.png" });
    expect(b).toMatchObject({ width: 3, height: 2001 });
    expect(b).not.toHaveProperty("data");
    expect(read.toModelOutput({ path: "/workspace/b.png" }, b)).toEqual({ type: "error-text", value: tooBig("/workspace/b.png", 3, 2001, 2000) });
    const { store } = await setup();
    for (const bad of [0, -1, 1.5, Number.MAX_SAFE_INTEGER, Number.NaN]) {
      expect(() => readDefinition({ store, maxImageDimension: bad })).toThrow(
        new TypeError("maxImageDimension must be a positive safe integer below Number.MAX_SAFE_INTEGER"),
      );
    }
  });

  it("a sniffed image (.bin) is checked too; the byte cap is still checked first", async () => {
    const big = png(9600, 1200);
    const read = await reader({ "/workspace/pic.bin": big });
    expect(await read.execute({ path: "/workspace/pic.bin" })).toMatchObject({ kind: "image", mediaType: "image/png", width: 9600, height: 1200 });
    const small = await reader({ "/workspace/image.png": big }, { maxModelBytes: 100 });
    const result = await small.execute({ path: "/workspace/image.png" });
    expect(result).toEqual({ kind: "image", path: "/workspace/image.png", name: "image.png", mediaType: "image/png", sizeBytes: big.byteLength });
    expect(small.toModelOutput({ path: "/workspace/image.png" }, result)).toEqual({
      type: "error-text",
      value: `Read /workspace/image.png (image/png, ${big.byteLength} bytes), but it exceeds the 100-byte inline model output limit.`,
    });
  });

  it("an unreadable header keeps today's behaviour: the bytes are attached", async () => {
    const cutPng = png(9600, 1200).subarray(0, 20); // signature, IHDR length and type, no width/height
    const notIhdr = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0, 0x49, 0x44, 0x41, 0x54, 0, 0, 0x25, 0x80, 0, 0, 0x04, 0xb0);
    const noSof = jpeg(9600, 1200).subarray(0, 20); // SOI + APP0 only
    const vp8Bad = webpVP8(9600, 1200);
    vp8Bad[20] = 0x2f; // a VP8 frame tag image-size rejects
    const files: Record<string, Uint8Array | string> = {
      "/workspace/cut.png": cutPng,
      "/workspace/not-ihdr.png": notIhdr,
      "/workspace/no-sof.jpg": noSof,
      "/workspace/bad.webp": vp8Bad,
    };
    const read = await reader(files);
    for (const [path, content] of Object.entries(files)) {
      const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
      const result = await read.execute({ path });
      expect(result, path).toMatchObject({ kind: "image", data: toBase64(bytes) });
      expect(result, path).not.toHaveProperty("width");
    }
  });

  it("a file named .png that holds a 9000 px JPEG is refused by the size its header states (its bytes' media type)", async () => {
    const read = await reader({ "/workspace/photo.png": jpeg(9000, 600) });
    expect(await read.execute({ path: "/workspace/photo.png" })).toMatchObject({ mediaType: "image/jpeg", width: 9000, height: 600 });
  });

  it("a name's media type that its bytes contradict: the bytes decide (another image type, PDF, text); unknown bytes keep the name's", async () => {
    const small = jpeg(40, 30);
    const read = await reader({
      "/workspace/photo.png": small,
      "/workspace/doc.png": "%PDF-1.4\n%fake\n",
      "/workspace/error.png": "<html><body>404 Not Found</body></html>\n",
      "/workspace/img.pdf": png(2, 2),
      "/workspace/odd.png": Uint8Array.of(0, 1, 2, 3),
    });
    expect(await read.execute({ path: "/workspace/photo.png" })).toEqual({
      kind: "image", path: "/workspace/photo.png", name: "photo.png", mediaType: "image/jpeg", sizeBytes: small.byteLength, data: toBase64(small),
    });
    expect(await read.execute({ path: "/workspace/doc.png" })).toMatchObject({ kind: "file", mediaType: "application/pdf", sizeBytes: 15 });
    expect(await read.execute({ path: "/workspace/error.png" })).toMatchObject({ content: "<html><body>404 Not Found</body></html>", totalLines: 1 });
    expect(await read.execute({ path: "/workspace/img.pdf" })).toMatchObject({ kind: "image", mediaType: "image/png" });
    expect(await read.execute({ path: "/workspace/odd.png" })).toMatchObject({ kind: "image", mediaType: "image/png", data: toBase64(Uint8Array.of(0, 1, 2, 3)) });
  });
});
