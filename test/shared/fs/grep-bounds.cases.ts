/**
 * `workspace.fs.grep`'s additions for output a model can use (issue 12 §2,
 * issue 20 §6): `skipBinary`, `maxLineLength`, `maxTotalLength`. Without
 * them grep behaves as spec 01 §3.3 says (checked here too).
 */
import { describe, expect } from "vitest";
import { CHUNK, expectTypeError, fsIt, type FsHarness } from "./harness.js";

/**
 * The issue 12 reproduction: 40 KiB that start `50 4B 03 04` (a zip, as an
 * `.ods` is), NULs throughout, and `" grand total "` at byte 20000.
 */
export function odsBytes(): Uint8Array {
  const bytes = new Uint8Array(40 * 1024);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 37 + 11) & 0xff; // a NUL (and a \n) every 256 bytes
  bytes.set([0x50, 0x4b, 0x03, 0x04], 0);
  bytes.set(new TextEncoder().encode(" grand total "), 20000);
  return bytes;
}

/** The issue 12 long line: 650,000 bytes, one match ("needle" at index 400,000), no newline. */
export const LONG_LINE = "a".repeat(400_000) + "needle" + "b".repeat(249_994);

/** {@link LONG_LINE} as a 500-character clip shows it. */
export const LONG_LINE_CLIPPED = "[… 399750 characters cut …]" + "a".repeat(250) + "needle" + "b".repeat(244) + "[… 249750 characters cut …]";

export function defineGrepBoundCases(h: FsHarness): void {
  describe("grep additions: skipBinary, maxLineLength, maxTotalLength", () => {
    fsIt(h, "skipBinary leaves out a file with a NUL in its first 8 KiB and reports it in place, outside limit/offset", async (t) => {
      await t.fs.mkdir("/s");
      await t.fs.writeFile("/s/budget.ods", odsBytes());
      await t.fs.writeFile("/s/notes.txt", "grand total: 42\n");
      // Without the option (spec 01 §3.3) the binary file is searched as text.
      const plain = await t.fs.grep("grand total", "/s");
      expect(plain.map((m) => m.path)).toEqual(["/s/budget.ods", "/s/notes.txt"]);
      expect(plain[0]!.text).toContain("\u0000");
      expect(plain[0]!.text).toContain("\uFFFD");
      expect(await t.fs.grep("grand total", "/s", { skipBinary: true })).toEqual([
        { path: "/s/budget.ods", line: 0, text: "", binary: true },
        { path: "/s/notes.txt", line: 1, text: "grand total: 42" },
      ]);
      expect(await t.fs.grep("grand total", "/s/budget.ods", { skipBinary: true })).toEqual([{ path: "/s/budget.ods", line: 0, text: "", binary: true }]);
      // Binary entries are not counted by limit, and come only once offset matches have gone by.
      expect(await t.fs.grep("grand total", "/s", { skipBinary: true, limit: 1 })).toEqual([
        { path: "/s/budget.ods", line: 0, text: "", binary: true },
        { path: "/s/notes.txt", line: 1, text: "grand total: 42" },
      ]);
      await t.fs.writeFile("/s/a.txt", "grand total: 1\n");
      // a.txt's match is skipped; budget.ods comes after it, so this page reports it.
      expect(await t.fs.grep("grand total", "/s", { skipBinary: true, offset: 1 })).toEqual([
        { path: "/s/budget.ods", line: 0, text: "", binary: true },
        { path: "/s/notes.txt", line: 1, text: "grand total: 42" },
      ]);
      expect(await t.fs.grep("grand total", "/s", { skipBinary: true, offset: 2 })).toEqual([]);
      // The first 8 KiB decide: a NUL at byte 8191 is binary, one at 8192 is not.
      const at = (n: number) => {
        const bytes = new Uint8Array(9000).fill(0x61);
        bytes[n] = 0;
        return bytes;
      };
      await t.fs.writeFile("/n8191", at(8191));
      await t.fs.writeFile("/n8192", at(8192));
      expect(await t.fs.grep("aaa", "/n8191", { skipBinary: true })).toEqual([{ path: "/n8191", line: 0, text: "", binary: true }]);
      expect((await t.fs.grep("aaa", "/n8192", { skipBinary: true })).map((m) => [m.line, m.text.length])).toEqual([[1, 9000]]);
      // A file bigger than a chunk: only its start is looked at.
      const big = new Uint8Array(CHUNK + 10).fill(0x62);
      big[CHUNK + 5] = 0;
      await t.fs.writeFile("/big", big);
      expect((await t.fs.grep("bbb", "/big", { skipBinary: true })).map((m) => m.line)).toEqual([1]);
      await t.fs.writeFile("/empty", "");
      expect(await t.fs.grep("", "/empty", { skipBinary: true })).toEqual([]);
    });

    fsIt(h, "maxLineLength cuts a 650,000-byte line around its match, with markers, clipped and column", async (t) => {
      await t.fs.writeFile("/min.js", LONG_LINE);
      const clipped = { path: "/min.js", line: 1, text: LONG_LINE_CLIPPED, clipped: true, column: 400_001 };
      expect(await t.fs.grep("needle", "/min.js", { maxLineLength: 500 })).toEqual([clipped]);
      // The line scanner (context) cuts the same way, and the match's context entry too.
      expect(await t.fs.grep("needle", "/min.js", { maxLineLength: 500, context: 1 })).toEqual([
        { ...clipped, context: [{ line: 1, text: LONG_LINE_CLIPPED, isMatch: true, clipped: true }] },
      ]);
      // Without the option the whole line comes back (spec 01 §3.3).
      expect((await t.fs.grep("needle", "/min.js"))[0]!.text).toBe(LONG_LINE);
      // Context lines that do not match are cut from their start; short lines are untouched.
      await t.fs.writeFile("/ctx.txt", `${"c".repeat(30)}\nshort\nx needle y\n`);
      expect(await t.fs.grep("needle", "/ctx.txt", { maxLineLength: 8, context: 2 })).toEqual([
        {
          path: "/ctx.txt",
          line: 3,
          text: "x needle[… 2 characters cut …]",
          clipped: true,
          column: 3,
          context: [
            { line: 1, text: "cccccccc[… 22 characters cut …]", isMatch: false, clipped: true },
            { line: 2, text: "short", isMatch: false },
            { line: 3, text: "x needle[… 2 characters cut …]", isMatch: true, clipped: true },
          ],
        },
      ]);
      // A cut never splits a surrogate pair.
      const emoji = "😀".repeat(10) + "needle" + "😀".repeat(10);
      await t.fs.writeFile("/emoji.txt", emoji);
      expect(await t.fs.grep("needle", "/emoji.txt", { maxLineLength: 11 })).toEqual([
        { path: "/emoji.txt", line: 1, text: "[… 16 characters cut …]😀😀needle[… 20 characters cut …]", clipped: true, column: 21 },
      ]);
    });

    fsIt(h, "maxTotalLength stops after the match that passes it; offset continues from there", async (t) => {
      const lines = Array.from({ length: 10 }, (_, i) => `m${i}` + "-".repeat(98));
      await t.fs.writeFile("/m.txt", `${lines.join("\n")}\n`);
      const page = async (offset: number) => (await t.fs.grep("m", "/m.txt", { maxTotalLength: 250, offset })).map((m) => m.line);
      expect(await page(0)).toEqual([1, 2, 3]);
      expect(await page(3)).toEqual([4, 5, 6]);
      expect(await page(9)).toEqual([10]);
      // Context lines count too: 3 lines a match.
      expect((await t.fs.grep("m", "/m.txt", { maxTotalLength: 250, context: 1 })).map((m) => m.line)).toEqual([1]);
      expect((await t.fs.grep("m", "/m.txt", { maxTotalLength: 350, context: 1 })).map((m) => m.line)).toEqual([1, 2]);
    });

    fsIt(h, "bad skipBinary, maxLineLength, maxTotalLength → TypeError", async (t) => {
      await t.fs.writeFile("/f", "x\n");
      for (const bad of [0, -1, 1.5, Number.NaN, "5"]) {
        await expectTypeError(t.fs.grep("x", "/f", { maxLineLength: bad as number }), /maxLineLength/);
        await expectTypeError(t.fs.grep("x", "/f", { maxTotalLength: bad as number }), /maxTotalLength/);
      }
      await expectTypeError(t.fs.grep("x", "/f", { skipBinary: "yes" as unknown as boolean }), /skipBinary/);
    });
  });
}
