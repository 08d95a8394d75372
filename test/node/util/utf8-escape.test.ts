import { describe, expect, it } from "vitest";
import { utf8EscapeDecode, utf8EscapeEncode } from "../../../src/util/utf8-escape.js";

const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, "0")).join(" ");
const bytes = (h: string) => Uint8Array.from(h.split(" ").map((x) => parseInt(x, 16)));

describe("util/utf8-escape (surrogateescape)", () => {
  it("valid UTF-8 decodes and encodes as TextDecoder/TextEncoder do, a leading BOM and a real U+FFFD kept", () => {
    const text = "\uFEFFh\u00e9llo \u{1F600} \uFFFD \u4e2d\n";
    const encoded = new TextEncoder().encode(text);
    expect(hex(encoded)).toBe("ef bb bf 68 c3 a9 6c 6c 6f 20 f0 9f 98 80 20 ef bf bd 20 e4 b8 ad 0a");
    expect(utf8EscapeDecode(encoded)).toBe(text);
    expect(hex(utf8EscapeEncode(text))).toBe(hex(encoded));
  });

  it("each byte that is not UTF-8 is U+DC00 + the byte, and encodes back to that byte", () => {
    const input = bytes("63 61 66 e9 0a ff fe 00 41 0a 80 c3 28 c3 a9 ed a0 80 f0 9f 98");
    const text = utf8EscapeDecode(input);
    expect(text).toBe("caf\uDCE9\n\uDCFF\uDCFE\0A\n\uDC80\uDCC3(\u00e9\uDCED\uDCA0\uDC80\uDCF0\uDC9F\uDC98");
    expect(hex(utf8EscapeEncode(text))).toBe(hex(input));
  });

  it("every byte value alone, and every pair of high bytes, round-trips", () => {
    for (let b = 0; b < 256; b++) expect(hex(utf8EscapeEncode(utf8EscapeDecode(Uint8Array.of(b))))).toBe(hex(Uint8Array.of(b)));
    for (let a = 0x80; a < 256; a++) {
      for (let b = 0x80; b < 256; b++) {
        const pair = Uint8Array.of(a, b);
        expect(utf8EscapeEncode(utf8EscapeDecode(pair))).toEqual(pair);
      }
    }
  });

  it("a surrogate pair is a character, and lone surrogates outside U+DC80…U+DCFF are U+FFFD as TextEncoder writes them", () => {
    expect(hex(utf8EscapeEncode("\uD83D\uDE00"))).toBe("f0 9f 98 80");
    expect(hex(utf8EscapeEncode("\uDC80x\uDC7F\uD800y"))).toBe("80 78 ef bf bd ef bf bd 79");
    expect(hex(utf8EscapeEncode(""))).toBe("");
  });
});
