/**
 * Issue 20, thirty-fourth attack run: edit changes bytes outside the range it replaces. src/tools/core/edit-apply.ts
 * normalises the whole file to LF before matching (CRLF→LF, then every lone CR→LF) and writes the whole normalised
 * text back, with every LF turned into CRLF when the *first* line ends in CRLF. So a lone CR anywhere in the file (a
 * captured progress bar, `script`/CI logs, a classic-Mac or hand-mixed file) becomes a line break, and in a file with
 * mixed endings every line the edit never touched gets the first line's ending. The result reports success and its
 * `diff`/`patch` (made from the normalised text) show only the one changed line: the agent is told lines 1–3 are
 * unchanged context while their bytes were rewritten. docs/tools.md (edit) promises "BOM, line endings (CRLF stays
 * CRLF) and mode are kept" and src/tools/core/edit-match.ts "text outside the range stays byte-identical".
 * (Spec 03 §4.6 steps 3 and 6 describe this normalisation, as 0.8.0 did; docs/porting.md does not list it.)
 * Tried: edit of one word on the last line of (a) a log with lone CRs, (b) a CRLF file with one LF line, (c) an LF
 * file with CRLF lines; edit's duplicate-match line numbers against read's and grep's on (a) (through the core tool
 * set; the three adapters share it).
 * Held: a CRLF file with a BOM stays CRLF with its BOM (asserted below); a pure LF file stays LF.
 * Found (medium — data corrupted outside the edit, success reported and hidden by the diff; also a wrong line number
 * an agent acts on; 3 of 3 runs): (a) `10%\r50%\r100%\ndone: ok\nstatus: ok\n` → `10%\n50%\n100%\ndone: OK\nstatus: ok\n`
 * (3 lines become 5; a repeated oldText is refused "on lines 4 and 5" where read and grep say 2 and 3); (b) `a\r\nb\r\nc\nd\r\n` → `a\r\nb\r\nc\r\nD\r\n`;
 * (c) `#!/bin/sh\necho a\r\necho b\r\n` → every CRLF becomes LF.
 * Suggested fix: in src/tools/core/edit-apply.ts match on the normalised text but splice into the original: keep a map
 * from LF-content offsets to original offsets (each CRLF removes one unit; a lone CR keeps its offset, so it can be
 * matched as LF for lookup yet written back as CR), and write newText's line breaks in the file's ending (first
 * line's, as now) — so only the replaced range changes; the diff then describes exactly what was written.
 *
 * Fixed: src/tools/core/edit-apply.ts matches on the text with CRLF as LF (lone CRs kept, then, when that finds
 * nothing, lone CRs as LF too), splices into the original text through an offset map (a CRLF is one unit), writes
 * newText's line breaks in the file's style (CR for a CR-only file) and counts lines in messages as read and grep
 * do; the diff and patch compare the text before and as written (issue 20, run 34, fixer EL). The test's decoder
 * options gained `fatal: false` (TypeScript's TextDecoderConstructorOptions needs it; same decoding). Siblings:
 * test/node/fix34/edit-keeps-line-endings.test.ts.
 */
import { describe, expect, it } from "vitest";
import { buildCoreTools } from "../../../src/tools/core/toolset.js";
import { bytes, setup } from "../tools/helpers.js";
import type { Workspace } from "../../../src/workspace.js";

/** The file exactly as stored (a BOM kept). */
const text = async (workspace: Workspace, path: string) => new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(await bytes(workspace, path));

async function tools(files: Record<string, string>) {
  const { workspace } = await setup(files);
  const set = buildCoreTools({ workspace }) as unknown as { name: string; execute(input: unknown): Promise<unknown> }[];
  const tool = (name: string) => set.find((t) => t.name === name)!;
  return { workspace, tool };
}

describe("edit keeps the bytes outside the range it replaces", () => {
  it("a lone CR (a progress bar in a log) stays a CR, and edit's line numbers are read's", async () => {
    const { workspace, tool } = await tools({ "/workspace/build.log": "10%\r50%\r100%\ndone: ok\nstatus: ok\n" });
    const dup = (await tool("edit").execute({ path: "/workspace/build.log", edits: [{ oldText: "ok", newText: "OK" }] })) as { error: string };
    const grep = (await tool("grep").execute({ query: "ok", path: "/workspace/build.log" })) as { matches: { line: number }[] };
    expect(grep.matches.map((m) => m.line)).toEqual([2, 3]);
    // Was: "Found 2 occurrences of the text in /workspace/build.log, on lines 4 and 5. …"
    expect(dup.error).toContain("on lines 2 and 3.");
    const done = (await tool("edit").execute({ path: "/workspace/build.log", edits: [{ oldText: "done: ok", newText: "done: OK" }] })) as Record<string, unknown>;
    expect(done.editsApplied).toBe(1);
    // Was: "10%\n50%\n100%\ndone: OK\nstatus: ok\n" (three lines where the file had one; diff shows them as unchanged context).
    expect(await text(workspace, "/workspace/build.log")).toBe("10%\r50%\r100%\ndone: OK\nstatus: ok\n");
  });

  it("a CRLF file with one LF line keeps that line's LF", async () => {
    const { workspace, tool } = await tools({ "/workspace/m.txt": "a\r\nb\r\nc\nd\r\n" });
    const r = (await tool("edit").execute({ path: "/workspace/m.txt", edits: [{ oldText: "d", newText: "D" }] })) as Record<string, unknown>;
    expect(r.diff).toBe(" 1 a\n 2 b\n 3 c\n-4 d\n+4 D");
    // Was: "a\r\nb\r\nc\r\nD\r\n" (line 3 rewritten, not in the diff).
    expect(await text(workspace, "/workspace/m.txt")).toBe("a\r\nb\r\nc\nD\r\n");
  });

  it("an LF first line does not turn the file's CRLF lines into LF", async () => {
    const { workspace, tool } = await tools({ "/workspace/run.sh": "#!/bin/sh\necho a\r\necho b\r\n" });
    const r = (await tool("edit").execute({ path: "/workspace/run.sh", edits: [{ oldText: "echo b", newText: "echo B" }] })) as Record<string, unknown>;
    expect(r.editsApplied).toBe(1);
    // Was: "#!/bin/sh\necho a\necho B\n".
    expect(await text(workspace, "/workspace/run.sh")).toBe("#!/bin/sh\necho a\r\necho B\r\n");
  });

  it("held: a pure CRLF file with a BOM stays CRLF with its BOM", async () => {
    const { workspace, tool } = await tools({ "/workspace/w.txt": "\uFEFFone\r\ntwo\r\n" });
    await tool("edit").execute({ path: "/workspace/w.txt", edits: [{ oldText: "two", newText: "TWO" }] });
    expect(await text(workspace, "/workspace/w.txt")).toBe("\uFEFFone\r\nTWO\r\n");
  });
});
