/**
 * Issue 20, fourteenth attack run: edit over hostile but well-formed UTF-8 — lone CR line ends, a lone CR in
 * newText on a CRLF file, a NUL byte, a fuzzy match over trailing spaces in a CRLF file, U+2028 and U+0085
 * inside lines, a ligature with NBSP. Held: each is written exactly as spec 03 §4.6 says (CR and CRLF
 * normalised to LF for matching, endings restored, bytes outside the range unchanged).
 * Changed (issue 20, run 34, fixer EL): two expectations asserted spec 03 §4.6 step 6's whole-file rewrite, which
 * turns lone CRs outside the edited range into line breaks (test/node/attack34f/edit-rewrites-line-endings-outside-
 * its-range.test.ts). Now a CR-only file keeps its CRs and writes newText's line breaks as CR (`a\rB\rc\r`), and
 * a lone CR in newText is written as a CR, as read and grep show it, not as a line break (`x\r\nY\r\r\n`).
 */
import { describe, expect, it } from "vitest";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { setup } from "../tools/helpers.js";

describe("attack14a: edit line ends and odd characters (held)", () => {
  it("writes the exact bytes", async () => {
    const { workspace: ws } = await setup({ "/workspace/keep.txt": "k\n" });
    const { execute } = createPiTools({ workspace: ws });
    const hex = async (p: string) => Buffer.from(new Uint8Array(await new Response(await ws.fs.readFile(p)).arrayBuffer())).toString("hex");
    const cases: [string, string, string, string, string][] = [
      ["cr.txt", "a\rb\rc\r", "b", "B", "610d420d630d"],
      ["crlf.txt", "x\r\ny\r\n", "y", "Y\r", "780d0a590d0d0a"],
      ["nul.txt", "a\0b\nc\n", "c", "C", "6100620a430a"],
      ["tw.txt", "foo  \r\nbar\r\n", "foo\nbar", "FOO\nBAR", "464f4f0d0a4241520d0a"],
      ["ls.txt", "a\u2028b\nc\n", "b\nc", "X", "61e280a8580a"],
      ["lig.txt", "a ﬁle\u00A0 \nnext\n", "a file\nnext", "Z", "5a0a"],
      ["nel.txt", "a\u0085b  \nc\n", "b\nc", "Z", "61c2855a0a"],
    ];
    for (const [name, before, oldText, newText, after] of cases) {
      await ws.fs.writeFile(`/workspace/${name}`, before);
      const r = await execute({ id: name, name: "edit", arguments: { path: `/workspace/${name}`, edits: [{ oldText, newText }] } });
      expect([name, r.isError, await hex(`/workspace/${name}`)]).toEqual([name, false, after]);
    }
  });
});
