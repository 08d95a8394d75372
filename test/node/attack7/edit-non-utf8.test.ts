/**
 * Issue 20 seventh attack run, category 3 (hostile file content) through the
 * edit tool: files that are not UTF-8 — Latin-1 (`caf\xE9`), stray
 * `\xFF\xFE` bytes, UTF-16LE with its BOM — with one line edited that
 * contains only ASCII.
 *
 * DEFECT (medium), FIXED — edit refuses a file that is not well-formed UTF-8 (first invalid byte named), writing nothing — reproduction (pi's execute; every adapter shares the tool):
 *   await ws.fs.writeFile("/w/latin1.txt", bytes("63 61 66 e9 0a 6c 69 6e 65 32 0a ff fe 00 41 0a"));  // "caf\xE9\nline2\n\xFF\xFE\0A\n"
 *   await execute({ name: "read", arguments: { path: "/w/latin1.txt" } });
 *   await execute({ name: "edit", arguments: { path: "/w/latin1.txt", edits: [{ oldText: "line2", newText: "LINE2" }] } });
 *   // → success, diff " 1 caf\uFFFD\n-2 line2\n+2 LINE2\n 3 \uFFFD\uFFFD\u0000A": only line 2 "changed"
 *   // bytes now 63 61 66 ef bf bd 0a 4c 49 4e 45 32 0a ef bf bd ef bf bd 00 41 0a
 * The tool decodes the file as UTF-8 with replacement, applies the edit to
 * the text and writes the whole text back as UTF-8: every byte that was
 * not UTF-8 — on lines the edit never touched — becomes U+FFFD (EF BF BD),
 * for good. A UTF-16 file is mangled the same way (its BOM `FF FE` → two
 * U+FFFD). The result and the diff say one line changed.
 * Impact: medium — silent corruption of data outside the edit, reported
 * as success; legacy-encoded sources, Windows-1252 CSVs and UTF-16 resource
 * files are ordinary in repositories agents work on.
 * Fix proposal: decode with `TextDecoder("utf-8", { fatal: true })` and
 * refuse a file that is not UTF-8 (`Not edited: /w/latin1.txt is not UTF-8
 * text (invalid byte at offset 3); use exec to change it`), or splice each
 * replacement into the original BYTES at the byte offsets of the match (as
 * docs/tools.md already says for fuzzy matches), leaving every other byte
 * as it was.
 *
 * Withstood: a UTF-8 file with a BOM and CRLF line endings keeps both
 * (`ef bb bf … 0d 0a`), as docs/tools.md says.
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";

const hex = (s: string) => new Uint8Array(s.split(" ").map((h) => parseInt(h, 16)));
const toHex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, "0")).join(" ");

async function editOnce(content: Uint8Array, oldText: string, newText: string) {
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
  await ws.fs.mkdir("/w");
  await ws.fs.writeFile("/w/f.txt", content);
  const { execute } = createPiTools({ workspace: ws });
  await execute({ id: "r", name: "read", arguments: { path: "/w/f.txt" } });
  const r = await execute({ id: "e", name: "edit", arguments: { path: "/w/f.txt", edits: [{ oldText, newText }] } });
  const after = new Uint8Array(await new Response(await ws.fs.readFile("/w/f.txt")).arrayBuffer());
  return r.isError ? { isError: r.isError, after: toHex(after), text: r.content.map((c) => ("text" in c ? c.text : "")).join("") } : { isError: r.isError, after: toHex(after) };
}

describe("attack7: the edit tool on files that are not UTF-8", () => {
  it("DEFECT (medium): a Latin-1 file — every non-UTF-8 byte on untouched lines becomes U+FFFD", async () => {
    const r = await editOnce(hex("63 61 66 e9 0a 6c 69 6e 65 32 0a ff fe 00 41 0a"), "line2", "LINE2");
    // Before the fix: { isError: false, after: "63 61 66 ef bf bd 0a 4c 49 4e 45 32 0a ef bf bd ef bf bd 00 41 0a" }.
    expect(r).toEqual({
      isError: true,
      after: "63 61 66 e9 0a 6c 69 6e 65 32 0a ff fe 00 41 0a",
      text: "Not edited: /w/f.txt is not UTF-8 text (invalid byte 0xe9 at byte offset 3). edit works on UTF-8 text only and would corrupt this file's other bytes. Change it with exec (in its own encoding), or replace it wholesale with write.",
    });
  });

  it("DEFECT (medium): a UTF-16LE file — its BOM becomes two U+FFFD", async () => {
    const r = await editOnce(hex("ff fe 61 00 0a 00 62 00"), "a", "A");
    // Before the fix: { isError: false, after: "ef bf bd ef bf bd 41 00 0a 00 62 00" }.
    expect(r).toEqual({
      isError: true,
      after: "ff fe 61 00 0a 00 62 00",
      text: "Not edited: /w/f.txt is not UTF-8 text (it starts with a UTF-16 byte order mark; invalid byte 0xff at byte offset 0). edit works on UTF-8 text only and would corrupt this file's other bytes. Change it with exec (in its own encoding), or replace it wholesale with write.",
    });
  });

  it("a UTF-8 file with a BOM and CRLF keeps both", async () => {
    const r = await editOnce(hex("ef bb bf 61 0d 0a 62 0d 0a"), "b", "B");
    expect(r).toEqual({ isError: false, after: "ef bb bf 61 0d 0a 42 0d 0a" });
  });
});
