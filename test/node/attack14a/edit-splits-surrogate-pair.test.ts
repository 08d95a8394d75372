/**
 * Issue 20, fourteenth attack run: the edit tool matching half of a character (a UTF-16 surrogate pair).
 *
 * Tried (pi's execute; every adapter shares the tool), on files of well-formed UTF-8 that edit accepts:
 * lone CR line ends, CRLF with a lone CR in newText, NUL bytes, a BOM file with the BOM in oldText, fuzzy
 * matches over trailing whitespace in CRLF, U+2028, U+0085, a ligature (all held: as the spec says), and an
 * `oldText` that is ONE half of an emoji's surrogate pair (a model's JSON can carry `"\ud83d"`: a cut emoji).
 *
 * Found (medium): the exact match (`indexOf` on UTF-16) starts or ends between the two halves of a surrogate
 * pair. The replacement is spliced there and the text is encoded back to UTF-8: the other half, OUTSIDE the
 * edited range, is a lone surrogate and is written as U+FFFD (ef bf bd). The emoji is destroyed — bytes the
 * edit never targeted change — and the result says success with a diff (`+1 xZ\ude00y`) that is not what was
 * written. docs/tools.md promises the replacement is spliced into the original bytes and refuses a fuzzy
 * match ending inside a character, and refuses whole non-UTF-8 files for this very reason (U+FFFD on bytes
 * the edit did not touch). Same with a lone surrogate in newText (written as U+FFFD while the diff shows it).
 * Suggested fix: in applyEdits, refuse (EditError, nothing written) a match whose start or end falls between
 * a high and a low surrogate, and an oldText/newText holding a lone surrogate ("edits[i] splits a character
 * (half of a UTF-16 surrogate pair): include the whole character").
 *
 * Fixed: applyEdits refuses an oldText or newText holding a lone surrogate, and (defensively) any match whose
 * start or end falls between a pair's halves — an EditError naming the field, the unit and its index and what
 * to do; nothing is written. write refuses content holding a lone surrogate the same way (it stored U+FFFD
 * silently). Shared helper: firstLoneSurrogate in src/tools/core/truncate.ts.
 */
import { describe, expect, it } from "vitest";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { setup } from "../tools/helpers.js";

async function bytesOf(ws: Awaited<ReturnType<typeof setup>>["workspace"], path: string): Promise<string> {
  return Buffer.from(new Uint8Array(await new Response(await ws.fs.readFile(path)).arrayBuffer())).toString("hex");
}

const text = (r: { content: { type: string; text?: string }[] }) => r.content.map((c) => c.text ?? "").join("");

describe("attack14a: edit splitting a surrogate pair", () => {
  it("an oldText that is half of an emoji is refused and the file keeps its bytes", async () => {
    const { workspace: ws } = await setup({ "/workspace/e.txt": "x😀y\n" });
    const { execute } = createPiTools({ workspace: ws });
    expect(await bytesOf(ws, "/workspace/e.txt")).toBe("78f09f9880790a");
    const r = await execute({ id: "c1", name: "edit", arguments: { path: "/workspace/e.txt", edits: [{ oldText: "\uD83D", newText: "Z" }] } });
    // Before the fix: isError false, diff "-1 x😀y\n+1 xZ\ude00y", file bytes 78 5a ef bf bd 79 0a (the emoji's other half became U+FFFD).
    expect(r.isError).toBe(true);
    expect(text(r)).toBe(
      "Not edited: /workspace/e.txt. oldText holds half of a character (the lone UTF-16 surrogate \\uD83D at index 0), which UTF-8 text cannot store. Include the whole character (both halves of the surrogate pair, e.g. the complete emoji) in oldText.",
    );
    expect(await bytesOf(ws, "/workspace/e.txt")).toBe("78f09f9880790a");
  });

  it("the low half at the end of a longer oldText, in a batch, is refused by index", async () => {
    const { workspace: ws } = await setup({ "/workspace/e.txt": "a\nx😀y\n" });
    const { execute } = createPiTools({ workspace: ws });
    const r = await execute({
      id: "c2",
      name: "edit",
      arguments: { path: "/workspace/e.txt", edits: [{ oldText: "a", newText: "b" }, { oldText: "\uDE00y", newText: "Z" }] },
    });
    expect(r.isError).toBe(true);
    expect(text(r)).toBe(
      "Not edited: /workspace/e.txt. edits[1].oldText holds half of a character (the lone UTF-16 surrogate \\uDE00 at index 0), which UTF-8 text cannot store. Include the whole character (both halves of the surrogate pair, e.g. the complete emoji) in oldText.",
    );
    expect(await bytesOf(ws, "/workspace/e.txt")).toBe("610a78f09f9880790a");
  });

  it("a lone surrogate in newText is refused (it would be stored as U+FFFD while the diff shows it)", async () => {
    const { workspace: ws } = await setup({ "/workspace/e.txt": "x😀y\n" });
    const { execute } = createPiTools({ workspace: ws });
    const r = await execute({ id: "c3", name: "edit", arguments: { path: "/workspace/e.txt", edits: [{ oldText: "y", newText: "q\uD83D" }] } });
    expect(r.isError).toBe(true);
    expect(text(r)).toBe(
      "Not edited: /workspace/e.txt. newText holds half of a character (the lone UTF-16 surrogate \\uD83D at index 1), which UTF-8 text cannot store. Write the whole character (both halves of the surrogate pair) in newText, or leave it out.",
    );
    expect(await bytesOf(ws, "/workspace/e.txt")).toBe("78f09f9880790a");
  });

  it("a whole emoji still edits", async () => {
    const { workspace: ws } = await setup({ "/workspace/e.txt": "x😀y\n" });
    const { execute } = createPiTools({ workspace: ws });
    const r = await execute({ id: "c4", name: "edit", arguments: { path: "/workspace/e.txt", edits: [{ oldText: "😀", newText: "🙂" }] } });
    expect(r.isError).toBe(false);
    expect(await bytesOf(ws, "/workspace/e.txt")).toBe("78f09f9982790a");
  });

  it("write refuses content holding a lone surrogate and stores nothing", async () => {
    const { workspace: ws } = await setup({ "/workspace/e.txt": "x😀y\n" });
    const { execute } = createPiTools({ workspace: ws });
    const r = await execute({ id: "c5", name: "write", arguments: { path: "/workspace/new.txt", content: "ok \uDE00!" } });
    expect(r.isError).toBe(true);
    expect(text(r)).toBe(
      "Not written: /workspace/new.txt. content holds half of a character (the lone UTF-16 surrogate \\uDE00 at index 3), which UTF-8 text cannot store. Write the whole character (both halves of the surrogate pair, e.g. the complete emoji), or leave it out.",
    );
    expect((await ws.fs.readdir("/workspace")).map((d) => d.name)).toEqual(["e.txt"]);
    const over = await execute({ id: "c6", name: "write", arguments: { path: "/workspace/e.txt", content: "\uD83D" } });
    expect(over.isError).toBe(true);
    expect(text(over)).toBe(
      "Not written: /workspace/e.txt. content holds half of a character (the lone UTF-16 surrogate \\uD83D at index 0), which UTF-8 text cannot store. Write the whole character (both halves of the surrogate pair, e.g. the complete emoji), or leave it out.",
    );
    expect(await bytesOf(ws, "/workspace/e.txt")).toBe("78f09f9880790a");
  });
});
