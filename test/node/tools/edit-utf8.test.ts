/**
 * edit's UTF-8 check (issue 20, seventh attack run): `firstInvalidUtf8`
 * agrees with the WHATWG decoder on what is well-formed, and edit refuses a
 * file that is not, writing nothing.
 */
import { describe, expect, it } from "vitest";
import { firstInvalidUtf8 } from "../../../src/tools/core/edit-apply.js";
import { createEditTool, WorkspaceFileStore } from "../../../src/tools/index.js";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";

const hex = (s: string) => new Uint8Array(s === "" ? [] : s.split(" ").map((h) => parseInt(h, 16)));
const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const valid = (b: Uint8Array) => {
  try {
    fatal.decode(b);
    return true;
  } catch {
    return false;
  }
};

describe("firstInvalidUtf8", () => {
  it.each([
    ["", -1],
    ["61 62", -1],
    ["ef bb bf 61", -1],
    ["c3 a9", -1],
    ["e2 82 ac", -1],
    ["f0 9f 98 80", -1],
    ["f4 8f bf bf", -1],
    ["61 e9", 1],
    ["c0 80", 0], // overlong NUL
    ["c1 bf", 0],
    ["e0 80 80", 0], // overlong
    ["ed a0 80", 0], // surrogate U+D800
    ["f0 80 80 80", 0], // overlong
    ["f4 90 80 80", 0], // past U+10FFFF
    ["f5 80 80 80", 0],
    ["80", 0], // lone continuation
    ["61 e2 82", 1], // cut off at the end
    ["c3 28", 0],
    ["ff fe 61 00", 0],
  ])("%s → %d", (bytes, at) => {
    const b = hex(bytes);
    expect(firstInvalidUtf8(b)).toBe(at);
    expect(at === -1).toBe(valid(b));
  });

  it("agrees with the fatal decoder on every 1- and 2-byte sequence and on random 4-byte ones", () => {
    for (let a = 0; a < 256; a++) {
      expect(firstInvalidUtf8(new Uint8Array([a])) === -1).toBe(valid(new Uint8Array([a])));
      for (let b = 0; b < 256; b++) {
        const two = new Uint8Array([a, b]);
        expect(firstInvalidUtf8(two) === -1, `${a} ${b}`).toBe(valid(two));
      }
    }
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) & 0xff;
    for (let i = 0; i < 5_000; i++) {
      const four = new Uint8Array([0xe0 | (next() & 0x1f), next(), next(), next()].map((x, k) => (k === 0 ? x : 0x80 | (x & 0x3f)) ^ (next() < 16 ? 0x40 : 0)));
      expect(firstInvalidUtf8(four) === -1, [...four].join(" ")).toBe(valid(four));
    }
  });
});

describe("edit on a file that is not UTF-8", () => {
  it("refuses a Windows-1252 file through createEditTool and leaves its bytes", async () => {
    const workspace = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    await workspace.fs.mkdir("/workspace", { recursive: true });
    const bytes = hex("4e 61 6d 65 3b 50 72 69 63 65 0a 43 61 66 e9 3b 33 80 0a");
    await workspace.fs.writeFile("/workspace/old.csv", bytes);
    const edit = createEditTool({ store: new WorkspaceFileStore(workspace) });
    const r = await edit.execute!({ path: "/workspace/old.csv", edits: [{ oldText: "Price", newText: "Cost" }] }, { toolCallId: "1", messages: [], context: {} });
    expect(r).toEqual({
      error:
        "Not edited: /workspace/old.csv is not UTF-8 text (invalid byte 0xe9 at byte offset 14). edit works on UTF-8 text only and would corrupt this file's other bytes. Change it with exec (in its own encoding), or replace it wholesale with write.",
    });
    expect(new Uint8Array(await new Response(await workspace.fs.readFile("/workspace/old.csv")).arrayBuffer())).toEqual(bytes);
  });
});
