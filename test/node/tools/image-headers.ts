/**
 * Image files built byte by byte for read's size check: a complete, valid
 * grayscale PNG (IHDR, one zlib IDAT of black rows, IEND, real CRCs), and the
 * headers of a JPEG (JFIF APP0 + SOF0), a GIF89a (logical screen + image
 * descriptor) and WebP in its three forms (VP8X, VP8L, lossy VP8).
 */
import { crc32, deflateSync } from "node:zlib";
import { concatBytes } from "../../../src/util/bytes.js";

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

const concat = (...parts: Uint8Array[]): Uint8Array => concatBytes(parts);

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.byteLength);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.byteLength);
  out.set(ascii(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.byteLength, crc32(out.subarray(4, 8 + data.byteLength)));
  return out;
}

/** A valid 8-bit grayscale PNG of `width`×`height` black pixels. */
export function png(width: number, height: number): Uint8Array {
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr.set([8, 0, 0, 0, 0], 8); // bit depth 8, grayscale, deflate, adaptive filtering, no interlace
  const rows = new Uint8Array(height * (width + 1)); // each row: filter type 0, then zeros
  return concat(
    Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", deflateSync(rows)),
    pngChunk("IEND", new Uint8Array()),
  );
}

const be16 = (n: number) => Uint8Array.of(n >> 8, n & 0xff);
const le16 = (n: number) => Uint8Array.of(n & 0xff, n >> 8);
const le24 = (n: number) => Uint8Array.of(n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff);
const le32 = (n: number) => Uint8Array.of(n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, n >>> 24);

/** A baseline JPEG header: SOI, JFIF APP0, SOF0 (8-bit, 3 components), EOI. */
export function jpeg(width: number, height: number): Uint8Array {
  const app0 = concat(Uint8Array.of(0xff, 0xe0), be16(16), ascii("JFIF\0"), Uint8Array.of(1, 1, 0, 0, 1, 0, 1, 0, 0));
  const sof0 = concat(Uint8Array.of(0xff, 0xc0), be16(17), Uint8Array.of(8), be16(height), be16(width), Uint8Array.of(3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1));
  return concat(Uint8Array.of(0xff, 0xd8), app0, sof0, Uint8Array.of(0xff, 0xd9));
}

/** A GIF89a header: logical screen descriptor, one image descriptor of the same size, trailer. */
export function gif(width: number, height: number): Uint8Array {
  return concat(
    ascii("GIF89a"), le16(width), le16(height), Uint8Array.of(0, 0, 0),
    Uint8Array.of(0x2c), le16(0), le16(0), le16(width), le16(height), Uint8Array.of(0),
    Uint8Array.of(0x3b),
  );
}

function riff(chunk: Uint8Array): Uint8Array {
  return concat(ascii("RIFF"), le32(4 + chunk.byteLength), ascii("WEBP"), chunk);
}

/** An extended WebP (VP8X): canvas width-1 and height-1 as 24-bit fields. */
export function webpVP8X(width: number, height: number): Uint8Array {
  return riff(concat(ascii("VP8X"), le32(10), Uint8Array.of(0, 0, 0, 0), le24(width - 1), le24(height - 1)));
}

/** A lossless WebP (VP8L): signature 0x2F, then 14-bit width-1 and height-1 (at most 16384). */
export function webpVP8L(width: number, height: number): Uint8Array {
  const bits = ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14);
  return riff(concat(ascii("VP8L"), le32(5), Uint8Array.of(0x2f), le32(bits >>> 0), Uint8Array.of(0)));
}

/** A lossy WebP (VP8 key frame): frame tag, start code 9D 01 2A, 14-bit width and height (at most 16383). */
export function webpVP8(width: number, height: number): Uint8Array {
  return riff(concat(ascii("VP8 "), le32(10), Uint8Array.of(0x10, 0x02, 0x00, 0x9d, 0x01, 0x2a), le16(width), le16(height)));
}
