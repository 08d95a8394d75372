import { describe, expect, it } from "vitest";
import { concatBytes, fromBase64, readStreamBytes, toBase64 } from "../../../src/util/bytes.js";

describe("util/bytes", () => {
  it("concatBytes returns a single chunk as is and joins several", () => {
    const one = new Uint8Array([1, 2]);
    expect(concatBytes([one])).toBe(one);
    expect([...concatBytes([new Uint8Array([1]), new Uint8Array(0), new Uint8Array([2, 3])])]).toEqual([1, 2, 3]);
    expect(concatBytes([]).byteLength).toBe(0);
  });

  it("concatBytes honours a given total", () => {
    expect([...concatBytes([new Uint8Array([7]), new Uint8Array([8])], 2)]).toEqual([7, 8]);
  });

  it("base64 round-trips every byte value and matches Buffer's encoding", () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(toBase64(all)).toBe(Buffer.from(all).toString("base64"));
    expect([...fromBase64(toBase64(all))]).toEqual([...all]);
    expect(toBase64(new Uint8Array(0))).toBe("");
    expect(fromBase64("").byteLength).toBe(0);
  });

  it("base64 handles inputs longer than one String.fromCharCode slice", () => {
    const big = Uint8Array.from({ length: 0x8000 * 2 + 5 }, (_, i) => (i * 31) & 0xff);
    expect(toBase64(big)).toBe(Buffer.from(big).toString("base64"));
    expect(Buffer.from(fromBase64(toBase64(big))).equals(Buffer.from(big))).toBe(true);
  });

  it("fromBase64 throws for text that is not base64", () => {
    expect(() => fromBase64("*")).toThrow();
  });

  it("readStreamBytes joins a stream's chunks, keeps a lone chunk, and releases the reader", async () => {
    const streamOf = (chunks: Uint8Array[]) => new ReadableStream<Uint8Array>({ start(c) { for (const x of chunks) c.enqueue(x); c.close(); } });
    expect([...(await readStreamBytes(streamOf([new Uint8Array([1]), new Uint8Array(0), new Uint8Array([2, 3])])))]).toEqual([1, 2, 3]);
    const one = new Uint8Array([9]);
    expect(await readStreamBytes(streamOf([one]))).toBe(one);
    expect((await readStreamBytes(streamOf([]))).byteLength).toBe(0);
    const failing = new ReadableStream<Uint8Array>({ pull(c) { c.error(new Error("boom")); } });
    await expect(readStreamBytes(failing)).rejects.toThrow("boom");
    expect(failing.locked).toBe(false);
  });
});
