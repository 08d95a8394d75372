/**
 * Issue 20 seventh attack run, category 3 (hostile file content) in the
 * shell backend: a file that is not UTF-8 — `caf\xE9\nline2\n\xFF\xFE\0A\n\x80\xC3(` —
 * through the shell's commands.
 *
 * Withstood: cp, `cat f > g`, mv, tar -c/-x, gzip/gunzip, `cat | cat`,
 * tee, `>>`, head -c, base64/base64 -d and tail keep every byte.
 *
 * DEFECT (medium) — FIXED: the shell has one byte-preserving string form,
 * UTF-8 with "surrogateescape" (src/util/utf8-escape.ts): each byte that is
 * not UTF-8 is the lone surrogate U+DC80…U+DCFF as text and that byte again
 * when written.
 * - commands that read and write the file through the Workspace (`sed -i`,
 *   file arguments): the fs adapter decodes and encodes that way
 *   (fs-adapter.ts);
 * - text a command PRINTS (`sed … f > g`, `grep caf f > g`, `awk '{print}' f`)
 *   was turned into bytes by just-bash 3.4.2's own UTF-8 encoder
 *   (`encodeUtf8ToBytes`, `TextEncoder.encode`), which wrote every lone
 *   surrogate as U+FFFD (ef bf bd);
 * - text on STDIN (`cat f | sed`, `tr < f`) was decoded by just-bash's
 *   `decodeBytesToUtf8`: UTF-8, and when that failed the byte string kept as
 *   one Latin-1 char per byte, which the encoder re-encoded as UTF-8
 *   (e9 → c3 a9).
 * FIXED — scripts/gen-shell.mjs patches both functions in the bundled
 * just-bash (its encoding chunk, found by the "UTF-8 encode"/"UTF-8 decode"
 * strings; the generator fails when the code around them changes): the
 * encoder writes U+DC80…U+DCFF as the byte 0x80…0xFF, and the decoder's
 * fallback decodes each byte that is not UTF-8 as U+DC80+byte, through the
 * same codec as the adapter. Valid UTF-8 (multi-byte, emoji, a real U+FFFD)
 * takes just-bash's own path, byte for byte.
 * Reproduction before the fix (shell):
 *   sed -i 's/line2/LINE2/' f     # or: sed … f > g, grep caf f > g, awk '{print}' f > g
 *   → every byte that is not UTF-8 became U+FFFD (ef bf bd), on lines the
 *     command did not touch: 63 61 66 ef bf bd 0a 4c 49 4e 45 32 0a ef bf bd ef bf bd 00 41 0a ef bf bd ef bf bd 28
 *   cat f | sed 's/line2/LINE2/' > g    # or: tr a A < f > g, sort f > g, cut -c1-100 f > g
 *   → each such byte was re-encoded as if it were Latin-1 (e9 → c3 a9, ff → c3 bf):
 *     63 61 66 c3 a9 0a 4c 49 4e 45 32 0a c3 bf c3 be 00 41 0a c2 80 c3 83 28
 * GNU tools (C locale) pass such bytes through; here a text command that
 * changed one line rewrote the rest of a Latin-1 / Windows-1252 / binary-
 * ish file, silently, two different ways depending on whether the file came
 * as an argument or on stdin. (The edit tool does the first:
 * test/node/attack7/edit-non-utf8.test.ts.)
 * Impact: medium — silent corruption of files an agent edits with sed -i,
 * the usual way to change a file from the shell.
 * Fix proposal: one byte-preserving string form between the Workspace and
 * just-bash — the adapter's text reads (`readFile(path, "utf8")` as just-bash
 * calls it for file arguments) should decode the way just-bash's own
 * in-memory fs and its stdin do, and writes encode back the same way, so a
 * byte that is not UTF-8 round-trips (e.g. decode invalid sequences byte by
 * byte to U+DC80…U+DCFF "surrogateescape" and encode them back); test with
 * every command above.
 */
import { describe, expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const BYTES = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a, 0x6c, 0x69, 0x6e, 0x65, 0x32, 0x0a, 0xff, 0xfe, 0x00, 0x41, 0x0a, 0x80, 0xc3, 0x28]);
const toHex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, "0")).join(" ");
const ORIGINAL = toHex(BYTES);
const EDITED = ORIGINAL.replace("6c 69 6e 65 32", "4c 49 4e 45 32");

/** Runs each command (which writes /w/o.bin from /w/b.bin, holding `input`) and answers what /w/o.bin holds, in hex. */
async function outputs(commands: string[], input: Uint8Array = BYTES): Promise<string[]> {
  return inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/w", { recursive: true });
    await ws.fs.writeFile("/w/b.bin", input);
    const out: string[] = [];
    for (const cmd of commands) {
      const r = await sh(ws, cmd, { timeoutMs: 20_000 });
      expect(r.exitCode, cmd).toBe(0);
      out.push(toHex(new Uint8Array(await new Response(await ws.fs.readFile("/w/o.bin")).arrayBuffer())));
      await ws.fs.rm("/w/o.bin");
    }
    return out;
  });
}

describe("attack7: bytes that are not UTF-8 through the shell", () => {
  it("copies, archives, compressors, pipes through cat, tee, appends, head, base64 and tail keep every byte", { timeout: 60_000 }, async () => {
    const got = await outputs([
      "cp /w/b.bin /w/o.bin",
      "cat /w/b.bin > /w/o.bin",
      "cp /w/b.bin /w/x.bin && mv /w/x.bin /w/o.bin",
      "cd /w && mkdir -p t && cp b.bin t/ && tar -cf t.tar t && rm -r t && tar -xf t.tar && cp t/b.bin o.bin",
      "cd /w && cp b.bin g.bin && gzip g.bin && gunzip g.bin.gz && mv g.bin o.bin",
      "cat /w/b.bin | cat > /w/o.bin",
      "cat /w/b.bin | tee /w/o.bin > /dev/null",
      "cat /w/b.bin >> /w/o.bin",
      "head -c 100 /w/b.bin > /w/o.bin",
      "base64 /w/b.bin | base64 -d > /w/o.bin",
    ]);
    expect(got).toEqual(got.map(() => ORIGINAL));
  });

  it("FIXED (medium): sed -i keeps every byte it did not edit (read and written through the adapter)", { timeout: 60_000 }, async () => {
    const got = await outputs([
      "cp /w/b.bin /w/o.bin && sed -i 's/line2/LINE2/' /w/o.bin",
      "cp /w/b.bin /w/o.bin && sed -i 's/nothing//' /w/o.bin",
      "echo 'café 😀' > /w/o.bin && sed -i 's/caf/CAF/' /w/o.bin",
    ]);
    // Before the fix: "63 61 66 ef bf bd 0a 4c 49 4e 45 32 0a ef bf bd ef bf bd 00 41 0a ef bf bd ef bf bd 28".
    expect(got).toEqual([EDITED, ORIGINAL, "43 41 46 c3 a9 20 f0 9f 98 80 0a"]);
  });

  it("FIXED (medium, inside just-bash 3.4.2): text a command prints (awk, sed, grep to stdout) keeps each non-UTF-8 byte", { timeout: 60_000 }, async () => {
    const got = await outputs([
      "awk '{print}' /w/b.bin | head -c 19 > /w/o.bin",
      "sed 's/line2/LINE2/' /w/b.bin > /w/o.bin",
      "awk '{print}' /w/b.bin > /w/o.bin",
      "awk '/caf/ {print $0}' /w/b.bin > /w/o.bin",
      // -a: the file holds a NUL, so GNU grep 3.8 (and this shell's, since issue 20 run 27) prints only
      // "binary file matches" on stderr without it; -a keeps this test about the bytes of printed lines.
      "grep -a caf /w/b.bin > /w/o.bin",
      "grep -a -v line2 /w/b.bin > /w/o.bin",
      "awk '{print}' /w/b.bin | sed 's/caf/CAF/' > /w/o.bin",
    ]);
    // Before: awk "63 61 66 ef bf bd 0a 6c 69 6e 65 32 0a ef bf bd ef bf bd 00 41 0a ef" (19 bytes) and sed the same as the edited text with U+FFFD.
    expect(got).toEqual([
      ORIGINAL,
      EDITED,
      `${ORIGINAL} 0a`,
      "63 61 66 e9 0a",
      "63 61 66 e9 0a",
      "63 61 66 e9 0a ff fe 00 41 0a 80 c3 28 0a",
      "43 41 46 e9 0a 6c 69 6e 65 32 0a ff fe 00 41 0a 80 c3 28 0a",
    ]);
  });

  it("FIXED (medium, inside just-bash 3.4.2): the same text on stdin (cat | sed, tr <, sort, cut) keeps each non-UTF-8 byte", { timeout: 60_000 }, async () => {
    const got = await outputs([
      "cat /w/b.bin | sed 's/line2/LINE2/' > /w/o.bin",
      "tr X Y < /w/b.bin > /w/o.bin",
      "tr a A < /w/b.bin > /w/o.bin",
      "sort /w/b.bin > /w/o.bin",
      "cat /w/b.bin | sort > /w/o.bin",
      "cut -c1-100 /w/b.bin > /w/o.bin",
      "cut -c1-3 /w/b.bin > /w/o.bin",
      "cat /w/b.bin | cut -c1-3 > /w/o.bin",
      "x=$(cat /w/b.bin); printf '%s' \"$x\" > /w/o.bin",
    ]);
    // Before: "63 61 66 c3 a9 0a 4c 49 4e 45 32 0a c3 bf c3 be 00 41 0a c2 80 c3 83 28" and the same for tr (unedited).
    expect(got).toEqual([
      EDITED,
      ORIGINAL,
      "63 41 66 e9 0a 6c 69 6e 65 32 0a ff fe 00 41 0a 80 c3 28",
      // Byte order, as in the C locale: 80 before ff.
      "63 61 66 e9 0a 6c 69 6e 65 32 0a 80 c3 28 0a ff fe 00 41 0a",
      "63 61 66 e9 0a 6c 69 6e 65 32 0a 80 c3 28 0a ff fe 00 41 0a",
      `${ORIGINAL} 0a`,
      // One character per byte that is not UTF-8, as in the C locale.
      "63 61 66 0a 6c 69 6e 0a ff fe 00 0a 80 c3 28 0a",
      "63 61 66 0a 6c 69 6e 0a ff fe 00 0a 80 c3 28 0a",
      ORIGINAL,
    ]);
  });

  it("valid UTF-8 (multi-byte, emoji, a real U+FFFD) through the same commands is unchanged, byte for byte", { timeout: 60_000 }, async () => {
    // "héllo wörld 😀 \uFFFD\n中文 ü\nabc\n": the real U+FFFD must stay ef bf bd.
    const valid = new TextEncoder().encode("h\u00e9llo w\u00f6rld \u{1F600} \uFFFD\n\u4e2d\u6587 \u00fc\nabc\n");
    const text = toHex(valid);
    expect(text).toBe("68 c3 a9 6c 6c 6f 20 77 c3 b6 72 6c 64 20 f0 9f 98 80 20 ef bf bd 0a e4 b8 ad e6 96 87 20 c3 bc 0a 61 62 63 0a");
    const got = await outputs(
      [
        "awk '{print}' /w/b.bin > /w/o.bin",
        "sed 's/abc/ABC/' /w/b.bin > /w/o.bin",
        "cat /w/b.bin | sed 's/abc/ABC/' > /w/o.bin",
        "grep -v zzz /w/b.bin > /w/o.bin",
        "tr a A < /w/b.bin > /w/o.bin",
        "sort /w/b.bin > /w/o.bin",
        "cut -c1-100 /w/b.bin > /w/o.bin",
        "cat /w/b.bin | cut -c1-2 > /w/o.bin",
        "cp /w/b.bin /w/o.bin && sed -i 's/abc/ABC/' /w/o.bin",
      ],
      valid,
    );
    const edited = text.replace("61 62 63 0a", "41 42 43 0a");
    expect(got).toEqual([
      text,
      edited,
      edited,
      text,
      edited.replace("41 42 43", "41 62 63"),
      "61 62 63 0a 68 c3 a9 6c 6c 6f 20 77 c3 b6 72 6c 64 20 f0 9f 98 80 20 ef bf bd 0a e4 b8 ad e6 96 87 20 c3 bc 0a",
      text,
      "68 c3 a9 0a e4 b8 ad e6 96 87 0a 61 62 0a",
      edited,
    ]);
  });
});
