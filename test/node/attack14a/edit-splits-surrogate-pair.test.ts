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
 */
import { describe, expect, it } from "vitest";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { setup } from "../tools/helpers.js";

async function bytesOf(ws: Awaited<ReturnType<typeof setup>>["workspace"], path: string): Promise<string> {
  return Buffer.from(new Uint8Array(await new Response(await ws.fs.readFile(path)).arrayBuffer())).toString("hex");
}

describe("attack14a: edit splitting a surrogate pair", () => {
  it.fails("an oldText that is half of an emoji is refused and the file keeps its bytes", async () => {
    const { workspace: ws } = await setup({ "/workspace/e.txt": "x😀y\n" });
    const { execute } = createPiTools({ workspace: ws });
    expect(await bytesOf(ws, "/workspace/e.txt")).toBe("78f09f9880790a");
    const r = await execute({ id: "c1", name: "edit", arguments: { path: "/workspace/e.txt", edits: [{ oldText: "\uD83D", newText: "Z" }] } });
    // Today: isError false, diff "-1 x😀y\n+1 xZ\ude00y", file bytes 78 5a ef bf bd 79 0a (the emoji's other half became U+FFFD).
    expect(r.isError).toBe(true);
    expect(await bytesOf(ws, "/workspace/e.txt")).toBe("78f09f9880790a");
  });
});
