/**
 * Issue 20, run 36, fixer TL — sibling of test/node/attack36c/read-bom-first-line-finished-twice.test.ts.
 * read's first line of a file with a UTF-8 byte order mark, when its length is near `maxBytes`: the BOM is not
 * content (as WHATWG `TextDecoder` drops it, the oracle here), so it never counts against the cap, and a line is
 * decided once — taken whole, or refused with the read-cap error / left for the next page, never cut silently and
 * never reported truncated when it is the whole file.
 * Oracle: the file decoded by Node's `TextDecoder` (BOM dropped), split at LF (a final empty piece dropped), and
 * paged by the documented rule (spec 03 §4.1, docs/tools.md): as many whole lines as fit `maxLines` and `maxBytes`
 * (LF separators and `N\t` prefixes counted); a first line over the cap is the error `Line N exceeds the M-byte read
 * cap…`; a page with lines left after it is `truncated` with `nextOffset` = its last line + 1 and `nextByteOffset` =
 * the byte where the next line starts in the file (BOM included). Matrix: BOM/no BOM × first-line length cap−3…cap+3
 * × {alone without LF, alone with LF, followed by more lines} × chunkings (one chunk, a split at every byte of the
 * first 8, one-byte chunks, a split 1–3 bytes past the cap) × maxLines 1/3 × line numbers off/on; every page is
 * followed through nextOffset/nextByteOffset and the pages join back to the whole. Then the same over the node
 * store's real 524,288-byte chunk boundary through the read tool.
 */
import { describe, expect, it } from "vitest";
import { TextPage, type ReadTextResult } from "../../../src/tools/core/read-text.js";
import { readDefinition } from "../../../src/tools/core/read.js";
import type { ToolError } from "../../../src/tools/core/types.js";
import { setup } from "../tools/helpers.js";

const enc = new TextEncoder();
const BOM = new Uint8Array([0xef, 0xbb, 0xbf]);
const capError = (line: number, cap: number) =>
  `Line ${line} exceeds the ${cap}-byte read cap. The host must increase maxBytes, reduce lineTruncation, or provide a byte-oriented tool.`;

function join(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

interface Opts {
  maxBytes: number;
  maxLines: number;
  numbers: boolean;
}

/** The expected page sequence by the documented rule, from Node's own decoding of the whole file. */
function expectedPages(file: Uint8Array, o: Opts): Array<ReadTextResult | ToolError> {
  const text = new TextDecoder().decode(file); // drops a leading BOM
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const bom = file[0] === 0xef && file[1] === 0xbb && file[2] === 0xbf ? 3 : 0;
  const starts: number[] = [];
  let byte = bom;
  for (const line of lines) {
    starts.push(byte);
    byte += enc.encode(line).byteLength + 1;
  }
  const pages: Array<ReadTextResult | ToolError> = [];
  let i = 0;
  while (i < lines.length) {
    const shown: string[] = [];
    let bytes = 0;
    while (i + shown.length < lines.length && shown.length < o.maxLines) {
      const n = i + shown.length + 1;
      const rendered = o.numbers ? `${n}\t${lines[n - 1]}` : lines[n - 1];
      const size = enc.encode(rendered).byteLength + (shown.length > 0 ? 1 : 0);
      if (bytes + size > o.maxBytes) break;
      bytes += size;
      shown.push(rendered);
    }
    if (shown.length === 0) {
      pages.push({ error: capError(i + 1, o.maxBytes) });
      return pages;
    }
    const end = i + shown.length;
    const more = end < lines.length;
    const page: ReadTextResult = { path: "/f", content: shown.join("\n"), startLine: i + 1, endLine: end, totalLines: more ? null : lines.length, truncated: more };
    if (more) Object.assign(page, { nextOffset: end + 1, nextByteOffset: starts[end] });
    pages.push(page);
    i = end;
  }
  return pages;
}

/** Pages the file through TextPage fed with `cut(bytes from the start byte)` chunks, following each continuation. */
function actualPages(file: Uint8Array, o: Opts, cut: (rest: Uint8Array) => Uint8Array[]): Array<ReadTextResult | ToolError> {
  const pages: Array<ReadTextResult | ToolError> = [];
  let request: { path: string; offset?: number; byteOffset?: number } = { path: "/f" };
  for (let guard = 0; guard < 50; guard++) {
    const page = new TextPage(request, { maxBytes: o.maxBytes, maxLines: o.maxLines, lineTruncation: undefined, includeLineNumbers: o.numbers });
    for (const chunk of cut(file.subarray(request.byteOffset ?? 0))) if (page.feed(chunk)) break;
    const result = page.end();
    pages.push(result);
    if ("error" in result || !result.truncated) return pages;
    request = { path: "/f", offset: result.nextOffset, byteOffset: result.nextByteOffset };
  }
  throw new Error("paging did not end");
}

const chunkings: Record<string, (cap: number) => (rest: Uint8Array) => Uint8Array[]> = {
  whole: () => (rest) => [rest],
  bytes: () => (rest) => Array.from(rest, (b) => new Uint8Array([b])),
  ...Object.fromEntries(
    [1, 2, 3, 4, 5, 6, 7, 8].map((k) => [`split@${k}`, () => (rest: Uint8Array) => [rest.subarray(0, k), rest.subarray(k)]]),
  ),
  ...Object.fromEntries(
    [1, 2, 3].map((d) => [`split@cap+${d}`, (cap: number) => (rest: Uint8Array) => [rest.subarray(0, cap + d), rest.subarray(cap + d)]]),
  ),
};

describe("read: a BOM file's first line near maxBytes, every chunking, paged back to the whole", () => {
  const cap = 12;
  for (const bom of [false, true]) {
    for (const shape of ["alone", "alone+LF", "then lines"] as const) {
      it(`${bom ? "BOM" : "no BOM"}, first line ${shape}`, () => {
        let cases = 0;
        for (let len = cap - 3; len <= cap + 3; len++) {
          const first = "x".repeat(len - 2) + "yz";
          const tail = shape === "alone" ? "" : shape === "alone+LF" ? "\n" : "\nsecond\n\nthird é\n";
          const file = join(bom ? BOM : new Uint8Array(), enc.encode(first + tail));
          for (const maxLines of [1, 3]) {
            for (const numbers of [false, true]) {
              const o = { maxBytes: cap, maxLines, numbers };
              const want = expectedPages(file, o);
              for (const [name, make] of Object.entries(chunkings)) {
                expect({ len, maxLines, numbers, name, pages: actualPages(file, o, make(cap)) }).toEqual({ len, maxLines, numbers, name, pages: want });
                cases++;
              }
            }
          }
        }
        expect(cases).toBe(7 * 2 * 2 * Object.keys(chunkings).length);
      });
    }
  }

  it("exact pages: BOM + 12 bytes at cap 12 is the whole file; 13 bytes is the cap error, never a cut line", () => {
    const o = { maxBytes: 12, maxLines: 2000, numbers: false };
    const bytes = (n: number, tail = "") => join(BOM, enc.encode("x".repeat(n) + tail));
    for (const [name, make] of Object.entries(chunkings)) {
      expect(actualPages(bytes(12), o, make(12)), name).toEqual([
        { path: "/f", content: "x".repeat(12), startLine: 1, endLine: 1, totalLines: 1, truncated: false },
      ]);
      expect(actualPages(bytes(13, "\nsecond\n"), o, make(12)), name).toEqual([{ error: capError(1, 12) }]);
      expect(actualPages(bytes(11, "\nsecond\n"), o, make(12)), name).toEqual([
        { path: "/f", content: "x".repeat(11), startLine: 1, endLine: 1, totalLines: null, truncated: true, nextOffset: 2, nextByteOffset: 15 },
        { path: "/f", content: "second", startLine: 2, endLine: 2, totalLines: 2, truncated: false },
      ]);
    }
  });
});

describe("read tool over the node store's 524,288-byte chunks", () => {
  const CHUNK = 524_288;
  it("BOM + a first line ending 3 before … 3 past the first chunk, at caps around it, pages as the oracle", async () => {
    let cases = 0;
    for (const bom of [false, true]) {
      for (let d = -3; d <= 3; d++) {
        const len = CHUNK - (bom ? 3 : 0) + d;
        for (const tail of ["", "\nsecond\n"]) {
          const file = join(bom ? BOM : new Uint8Array(), enc.encode("x".repeat(len - 1) + "y" + tail));
          const { store } = await setup({ "/workspace/f": file });
          for (const maxBytes of [CHUNK - 2, CHUNK, CHUNK + 2]) {
            const o = { maxBytes, maxLines: 2000, numbers: false };
            const read = readDefinition({ store, maxBytes });
            const pages: unknown[] = [];
            let input: Record<string, unknown> = { path: "/workspace/f" };
            for (;;) {
              const page = (await read.execute(input as never)) as ReadTextResult | ToolError;
              pages.push("error" in page ? page : { ...page, path: "/f" });
              if ("error" in page || !page.truncated) break;
              input = { path: "/workspace/f", offset: page.nextOffset, byteOffset: page.nextByteOffset };
            }
            expect({ bom, d, tail, maxBytes, pages }).toEqual({ bom, d, tail, maxBytes, pages: expectedPages(file, o) });
            cases++;
          }
        }
      }
    }
    expect(cases).toBe(2 * 7 * 2 * 3);
  }, 120_000);
});
