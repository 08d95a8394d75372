/**
 * Issue 20, run 34, fixer EL — sibling of test/node/attack34f/edit-rewrites-line-endings-outside-its-range.test.ts.
 * edit changes only the ranges it replaces: every byte outside them (CRLF, LF and lone CR line breaks of any mix, the
 * BOM) is written back as it was; oldText is matched with CRLF as LF (and, when that finds nothing, a lone CR as LF);
 * newText's line breaks are written in the file's style (the first LF's: CRLF or LF; CR for a file with lone CRs and
 * no LF); a lone CR in newText stays a CR. The neighbourhood: CRLF, LF, mixed either way, lone CR, CR-only, BOM,
 * edits spanning line breaks, at the start and the end, several edits, oldText holding CRLF itself, a fuzzy match,
 * a deletion that joins a lone CR and an LF. Each expected file is written out byte by byte in the test.
 * Checked against the real tools: the `patch` edit reports, applied by GNU patch 2.7.6 to the old file (CRLF read as
 * LF, the form the diff compares), gives exactly the new file read so; the line numbers of a refused repeated
 * oldText are GNU grep 3.8's `grep -n` lines (grep and read count LFs; a lone CR is no line break).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildCoreTools } from "../../../src/tools/core/toolset.js";
import { bytes, setup } from "../tools/helpers.js";

const dir = mkdtempSync(join(tmpdir(), "fix34-el-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The file exactly as stored (a BOM kept). */
const decode = (b: Uint8Array) => new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(b);

type Edit = { oldText: string; newText: string };

async function edit(before: string | Uint8Array, edits: Edit[], mode?: number) {
  const { workspace } = await setup({});
  await workspace.fs.mkdir("/workspace", { recursive: true });
  await workspace.fs.writeFile("/workspace/f.txt", before, mode === undefined ? undefined : { mode });
  const set = buildCoreTools({ workspace }) as unknown as { name: string; execute(input: unknown): Promise<unknown> }[];
  const result = (await set.find((t) => t.name === "edit")!.execute({ path: "/workspace/f.txt", edits })) as Record<string, unknown>;
  const after = await bytes(workspace, "/workspace/f.txt");
  return { result, after: decode(after), raw: after, mode: (await workspace.fs.stat("/workspace/f.txt")).mode };
}

let n = 0;
/** GNU patch applied to `before` (CRLF as LF, BOM dropped) with edit's `patch`: the text it gives. */
function gnuPatch(before: string, patch: string): string {
  const file = join(dir, `p${++n}.txt`);
  writeFileSync(file, before.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n"));
  writeFileSync(`${file}.diff`, patch);
  execFileSync("patch", ["--quiet", "--batch", file, `${file}.diff`]);
  return readFileSync(file, "utf8");
}

/** `grep -n -F needle` over `content`: the line numbers GNU grep gives. */
function grepLines(content: string, needle: string): number[] {
  const file = join(dir, `g${++n}.txt`);
  writeFileSync(file, content);
  const out = execFileSync("grep", ["-n", "-F", "--binary-files=text", "-e", needle, file], { encoding: "utf8" });
  return out.split("\n").filter(Boolean).map((l) => Number(l.slice(0, l.indexOf(":"))));
}

/** Expects success, the bytes, and the patch to describe exactly the change written. */
async function expectEdit(before: string, edits: Edit[], expected: string) {
  const r = await edit(before, edits);
  expect(r.result.error).toBeUndefined();
  expect(r.result.editsApplied).toBe(edits.length);
  expect(r.after).toBe(expected);
  expect(gnuPatch(before, r.result.patch as string)).toBe(expected.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n"));
  return r.result;
}

describe("edit writes only the ranges it replaces (fixer EL)", () => {
  it("CRLF: one line, a multi-line newText in CRLF, an oldText holding CRLF itself", async () => {
    await expectEdit("a\r\nb\r\nc\r\n", [{ oldText: "b", newText: "B" }], "a\r\nB\r\nc\r\n");
    await expectEdit("a\r\nb\r\nc\r\n", [{ oldText: "b", newText: "B1\nB2" }], "a\r\nB1\r\nB2\r\nc\r\n");
    await expectEdit("a\r\nb\r\nc\r\n", [{ oldText: "a\r\nb", newText: "X\r\nY" }], "X\r\nY\r\nc\r\n");
    // An oldText with CRLF finds the same text in an LF file; its line breaks are written as LF there.
    await expectEdit("a\nb\nc\n", [{ oldText: "a\r\nb", newText: "X\r\nY" }], "X\nY\nc\n");
  });

  it("LF stays LF; a mixed file keeps each untouched line's ending", async () => {
    await expectEdit("a\nb\nc\n", [{ oldText: "b\nc", newText: "B\nC" }], "a\nB\nC\n");
    // CRLF first line: newText's breaks are CRLF, the LF line stays LF.
    await expectEdit("a\r\nb\nc\r\n", [{ oldText: "b", newText: "B1\nB2" }], "a\r\nB1\r\nB2\nc\r\n");
    // LF first line: the CRLF lines stay CRLF, newText's breaks are LF.
    await expectEdit("#!/bin/sh\necho a\r\necho b\r\n", [{ oldText: "echo a", newText: "echo A\necho A2" }], "#!/bin/sh\necho A\necho A2\r\necho b\r\n");
    // A range spanning an LF and a CRLF: its breaks become the file's style, nothing else moves.
    await expectEdit("x\r\na\nb\r\nc\nz\r\n", [{ oldText: "a\nb\nc", newText: "A\nB\nC" }], "x\r\nA\r\nB\r\nC\nz\r\n");
  });

  it("lone CRs outside the range stay; inside it, an oldText may give them as LF", async () => {
    const log = "10%\r50%\r100%\ndone: ok\nstatus: ok\n";
    await expectEdit(log, [{ oldText: "status: ok", newText: "status: OK" }], "10%\r50%\r100%\ndone: ok\nstatus: OK\n");
    // Copied from read (a lone CR as it is): written as given.
    await expectEdit(log, [{ oldText: "10%\r50%", newText: "10%\r60%" }], "10%\r60%\r100%\ndone: ok\nstatus: ok\n");
    // Given with LF: found across the lone CR; newText's LF is a line break, written in the file's style (LF).
    await expectEdit(log, [{ oldText: "50%\n100%", newText: "75%\n100%" }], "10%\r75%\n100%\ndone: ok\nstatus: ok\n");
    // A classic-Mac (CR-only) file: newText's line breaks are written as CR.
    await expectEdit("a\rb\rc\r", [{ oldText: "b\nc", newText: "B\nC\nD" }], "a\rB\rC\rD\r");
    // A lone CR in newText stays a CR in an LF file.
    await expectEdit("a\nb\n", [{ oldText: "b", newText: "b\r50%" }], "a\nb\r50%\n");
  });

  it("BOM, the start and the end of the file, several edits, a fuzzy match", async () => {
    await expectEdit("\uFEFFa\r\nb\r\n", [{ oldText: "a\n", newText: "" }], "\uFEFFb\r\n");
    await expectEdit("\uFEFFa\r\nb\r\n", [{ oldText: "b\n", newText: "B\nC\n" }], "\uFEFFa\r\nB\r\nC\r\n");
    await expectEdit("a\r\nb", [{ oldText: "b", newText: "b\nc" }], "a\r\nb\r\nc");
    await expectEdit(
      "one\r\ntwo\nthree\rfour\r\nfive\n",
      [
        { oldText: "five", newText: "5" },
        { oldText: "one", newText: "1" },
        { oldText: "four", newText: "4" },
      ],
      "1\r\ntwo\nthree\r4\r\n5\n",
    );
    // Fuzzy (trailing spaces) across a CRLF, with an LF line after it.
    await expectEdit("foo  \r\nbar\nbaz\r\n", [{ oldText: "foo\nbar", newText: "FOO\nBAR" }], "FOO\r\nBAR\nbaz\r\n");
  });

  it("a deletion that joins a lone CR to an LF: the diff is of the bytes written", async () => {
    const r = await expectEdit("a\rX\nb\nc\n", [{ oldText: "X", newText: "" }], "a\r\nb\nc\n");
    expect(r.diff).toBe("-1 a\rX\n+1 a\n 2 b\n 3 c");
  });

  it("spec 03 §4.6's example: BOM + CRLF + mode 0755 give exactly those bytes", async () => {
    const r = await edit("\uFEFFline1\r\nline2\r\nline3\r\n", [{ oldText: "line2\nline3", newText: "two\nthree" }], 0o755);
    expect(Buffer.from(r.raw).toString("hex")).toBe(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("line1\r\ntwo\r\nthree\r\n")]).toString("hex"));
    expect(r.mode).toBe(0o755);
  });

  it("a repeated oldText is refused with grep -n's line numbers, and nothing is written", async () => {
    const log = "10%\r50%\r100% ok\ndone: ok\rstatus: ok\n";
    const dup = await edit(log, [{ oldText: "ok", newText: "OK" }]);
    expect(grepLines(log, "ok")).toEqual([1, 2]);
    expect(dup.result.error).toBe(
      "Found 3 occurrences of the text in /workspace/f.txt, on lines 1 and 2. The text must be unique. Please provide more context to make it unique.",
    );
    expect(dup.after).toBe(log);
    // Found only with the lone CRs as LF: the lines are still grep's.
    const twice = "p\rx\ry\nq\nx\ry\n";
    const lf = await edit(twice, [{ oldText: "x\ny", newText: "z" }]);
    expect(grepLines(twice, "x")).toEqual([1, 3]);
    expect(lf.result.error).toBe(
      "Found 2 occurrences of the text in /workspace/f.txt, on lines 1 and 3. The text must be unique. Please provide more context to make it unique.",
    );
    expect(lf.after).toBe(twice);
  });
});
