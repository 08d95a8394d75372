import { describe, expect, it } from "vitest";
import { countLines, countNewlines, keptTail, TailWindow } from "../../../src/util/tail.js";

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe("util/tail", () => {
  it("counts lines the spec's way", () => {
    expect(countLines(0, 0, undefined)).toBe(0);
    expect(countLines(2, 4, 10)).toBe(2); // "a\nb\n"
    expect(countLines(1, 3, 98)).toBe(2); // "a\nb"
    expect(countNewlines(bytes("a\nb\nc"))).toBe(2);
    expect(countNewlines(bytes("a\nb\nc"), 2)).toBe(1);
  });

  it("keptTail keeps the last lines within the byte budget", () => {
    const buf = bytes("one\ntwo\nthree\n");
    expect(keptTail(buf, 2, 100, true)).toEqual({ start: 4, partialLine: false });
    expect(text(buf.subarray(keptTail(buf, 1, 100, true).start))).toBe("three\n");
    // 7 bytes hold "three\n" but not "two\nthree\n".
    expect(text(buf.subarray(keptTail(buf, 5, 7, true).start))).toBe("three\n");
  });

  it("keptTail keeps the end of an over-long last line from a UTF-8 boundary", () => {
    const buf = bytes("x\n" + "é".repeat(10));
    const { start, partialLine } = keptTail(buf, 5, 5, true);
    expect(partialLine).toBe(true);
    expect(text(buf.subarray(start))).toBe("éé");
  });

  it("keptTail skips a partial first line when the window starts mid-line", () => {
    const buf = bytes("tail of a line\nnext\n");
    expect(text(buf.subarray(keptTail(buf, 10, 100, false).start))).toBe("next\n");
  });

  it("TailWindow counts, holds and keeps within ~4 × maxBytes while numbering lines", () => {
    const window = new TailWindow();
    for (let i = 1; i <= 100; i++) {
      window.push(bytes(`line ${i}\n`));
      window.trim(16);
    }
    expect(window.totalLines).toBe(100);
    expect(window.totalBytes).toBe(bytes(Array.from({ length: 100 }, (_, i) => `line ${i + 1}\n`).join("")).byteLength);
    expect(window.held().byteLength).toBeLessThanOrEqual(4 * 16);
    const kept = window.keep(2, 20);
    expect(kept).toMatchObject({ firstLine: 99, totalLines: 100, partialLine: false });
    expect(text(window.held().subarray(kept.start))).toBe("line 99\nline 100\n");
  });

  it("TailWindow.count counts without holding", () => {
    const window = new TailWindow();
    window.count(bytes("a\nb"));
    expect(window.totalBytes).toBe(3);
    expect(window.totalLines).toBe(2);
    expect(window.held().byteLength).toBe(0);
    expect(window.chunks.length).toBe(1);
  });
});
