import { describe, expect, it } from "vitest";
import { editDefinition } from "../../../src/tools/core/edit.js";
import { bytes, setup, text } from "./helpers.js";

async function editor(files: Record<string, string | Uint8Array>, options: { maxDiffBytes?: number; maxBytes?: number; maxDiffLines?: number } = {}) {
  const { store, workspace } = await setup(files);
  return { edit: editDefinition({ ...options, store }), workspace, store };
}

describe("edit: recorded results (spec 03 §4.6)", () => {
  it("one edit: exact diff and patch", async () => {
    const { edit, workspace } = await editor({ "/workspace/a.txt": "one\ntwo\nthree\n" });
    const result = await edit.execute({ path: "/workspace/a.txt", edits: [{ oldText: "two", newText: "2" }] });
    expect(JSON.stringify(result)).toBe(
      '{"path":"/workspace/a.txt","editsApplied":1,"diff":" 1 one\\n-2 two\\n+2 2\\n 3 three","patch":"Index: /workspace/a.txt\\n===================================================================\\n--- /workspace/a.txt\\n+++ /workspace/a.txt\\n@@ -1,3 +1,3 @@\\n one\\n-two\\n+2\\n three\\n","firstChangedLine":2}',
    );
    expect(await text(workspace, "/workspace/a.txt")).toBe("one\n2\nthree\n");
  });

  it("two edits against the original; duplicates rejected", async () => {
    const file = "const a = 1;\nconst b = 2;\nconst c = 3;\nconst a2 = 1;\n";
    const { edit, workspace } = await editor({ "/workspace/e.ts": file });
    const result = (await edit.execute({
      path: "/workspace/e.ts",
      edits: [
        { oldText: "b = 2", newText: "b = 20" },
        { oldText: "c = 3", newText: "c = 30;\nconst d = 4" },
      ],
    })) as { editsApplied: number; firstChangedLine: number; patch: string };
    expect(result.editsApplied).toBe(2);
    expect(result.firstChangedLine).toBe(2);
    expect(result.patch).toContain("@@ -1,4 +1,5 @@");
    expect(await text(workspace, "/workspace/e.ts")).toBe("const a = 1;\nconst b = 20;\nconst c = 30;\nconst d = 4;\nconst a2 = 1;\n");
    expect(await edit.execute({ path: "/workspace/e.ts", edits: [{ oldText: "= 1;", newText: "= 9;" }] })).toEqual({
      error: "Found 2 occurrences of the text in /workspace/e.ts, on lines 1 and 5. The text must be unique. Please provide more context to make it unique.",
    });
    expect(
      await edit.execute({ path: "/workspace/e.ts", edits: [{ oldText: "b = 20", newText: "x" }, { oldText: "= 1;", newText: "y" }] }),
    ).toEqual({
      error: "Found 2 occurrences of edits[1] in /workspace/e.ts, on lines 1 and 5. Each oldText must be unique. Please provide more context to make it unique.",
    });
  });

  it("fuzzy: smart quotes, dashes, NBSP and trailing whitespace, spliced into the original", async () => {
    const { edit, workspace } = await editor({
      "/workspace/q.txt": "say \u201Chello\u201D \u2014 world   \nnext line\u00A0here\n",
      "/workspace/k.txt": "keep   \nfoo   \n",
      "/workspace/f.txt": "foo\nbar\n",
    });
    const q = (await edit.execute({ path: "/workspace/q.txt", edits: [{ oldText: 'say "hello" - world\nnext line here', newText: "replaced" }] })) as {
      diff: string;
    };
    expect(await text(workspace, "/workspace/q.txt")).toBe("replaced\n");
    expect(q.diff).toBe("-1 say \u201Chello\u201D \u2014 world   \n-2 next line\u00A0here\n+1 replaced");
    await edit.execute({ path: "/workspace/k.txt", edits: [{ oldText: "foo", newText: "bar" }] });
    expect(await text(workspace, "/workspace/k.txt")).toBe("keep   \nbar   \n");
    expect(await edit.execute({ path: "/workspace/f.txt", edits: [{ oldText: "foo  \nbar", newText: "baz" }] })).toMatchObject({ editsApplied: 1 });
    expect(await text(workspace, "/workspace/f.txt")).toBe("baz\n");
  });

  it("fuzzy boundaries inside a ligature are rejected; the exact match wins over a fuzzy one", async () => {
    const { edit, workspace } = await editor({ "/workspace/l.txt": "value = \uFB01le\n", "/workspace/d.txt": "a\u2013b\na-b\n" });
    expect(await edit.execute({ path: "/workspace/l.txt", edits: [{ oldText: "f", newText: "F" }] })).toEqual({
      error:
        "The fuzzy match in /workspace/l.txt crosses an ambiguous Unicode-normalization or trimmed-whitespace boundary. Copy the exact source text or use a span whose normalized boundaries map cleanly.",
    });
    await edit.execute({ path: "/workspace/l.txt", edits: [{ oldText: "fi", newText: "FI" }] });
    expect(await text(workspace, "/workspace/l.txt")).toBe("value = FIle\n");
    await edit.execute({ path: "/workspace/d.txt", edits: [{ oldText: "a-b", newText: "X" }] });
    expect(await text(workspace, "/workspace/d.txt")).toBe("a\u2013b\nX\n");
  });

  it("keeps BOM, CRLF endings and mode", async () => {
    const { edit, workspace } = await editor({});
    await workspace.fs.writeFile("/workspace/w.txt", "\uFEFFline1\r\nline2\r\nline3\r\n", { mode: 0o755 });
    await edit.execute({ path: "/workspace/w.txt", edits: [{ oldText: "line2\nline3", newText: "two\nthree" }] });
    expect(Array.from(await bytes(workspace, "/workspace/w.txt"))).toEqual([
      0xef, 0xbb, 0xbf, ...Buffer.from("line1\r\ntwo\r\nthree\r\n"),
    ]);
    expect((await workspace.fs.stat("/workspace/w.txt")).mode).toBe(0o755);
  });

  it("diff truncation and collapsed context", async () => {
    const { edit } = await editor({ "/workspace/d.txt": "one\ntwo\n3\n" }, { maxDiffBytes: 20 });
    expect(JSON.stringify(await edit.execute({ path: "/workspace/d.txt", edits: [{ oldText: "3", newText: "three" }] }))).toContain(
      // maxDiffBytes counts each string's JSON (quotes and escapes): `" 1 one\\n 2 two\\n-3"` is 20 bytes (run 26).
      '"diff":" 1 one\\n 2 two\\n-3","patch":"Index: /workspace/","firstChangedLine":3,"diffTruncated":true',
    );
    const thirty = Array.from({ length: 30 }, (_, i) => `L${i + 1}`).join("\n") + "\n";
    const big = await editor({ "/workspace/t.txt": thirty });
    const r = (await big.edit.execute({
      path: "/workspace/t.txt",
      edits: [
        { oldText: "L3\n", newText: "L3x\n" },
        { oldText: "L20\n", newText: "" },
      ],
    })) as { diff: string };
    expect(r.diff).toBe(
      "  1 L1\n  2 L2\n- 3 L3\n+ 3 L3x\n  4 L4\n  5 L5\n  6 L6\n  7 L7\n    ...\n 16 L16\n 17 L17\n 18 L18\n 19 L19\n-20 L20\n 21 L21\n 22 L22\n 23 L23\n 24 L24\n    ...",
    );
    const lines = await editor({ "/workspace/t.txt": thirty }, { maxDiffLines: 1 });
    expect(
      await lines.edit.execute({ path: "/workspace/t.txt", edits: [{ oldText: "L1\nL2\n", newText: "x\n" }] }),
    ).toEqual({ path: "/workspace/t.txt", editsApplied: 1, diff: "", patch: "", diffTruncated: true });
    expect(await text(lines.workspace, "/workspace/t.txt")).toBe("x\n" + thirty.slice(6));
  });
});

describe("edit: failures leave the file untouched", () => {
  it("reports each failure with its exact message", async () => {
    const file = "alpha\nbeta\ngamma\n";
    const { edit, workspace } = await editor({ "/workspace/f.txt": file });
    const P = "/workspace/f.txt";
    const cases: Array<[unknown, string]> = [
      [[], "edits must contain at least one replacement."],
      [[{ oldText: "", newText: "x" }], `oldText must not be empty in ${P}.`],
      [[{ oldText: "beta", newText: "b" }, { oldText: "", newText: "x" }], `edits[1].oldText must not be empty in ${P}.`],
      [[{ oldText: "delta", newText: "d" }], `Could not find the exact text in ${P}. The old text must match exactly including all whitespace and newlines.`],
      [
        [{ oldText: "beta", newText: "b" }, { oldText: "delta", newText: "d" }],
        `Could not find edits[1] in ${P}. The oldText must match exactly including all whitespace and newlines.`,
      ],
      [
        [{ oldText: "beta\ngamma", newText: "x" }, { oldText: "alpha\nbeta", newText: "y" }],
        `edits[1] and edits[0] overlap in ${P}. Merge them into one edit or target disjoint regions.`,
      ],
      [
        [{ oldText: "beta", newText: "beta" }],
        `No changes made to ${P}. The replacement produced identical content. This might indicate an issue with special characters or the text not existing as expected.`,
      ],
      [[{ oldText: "beta", newText: "beta" }, { oldText: "gamma", newText: "gamma" }], `No changes made to ${P}. The replacements produced identical content.`],
    ];
    for (const [edits, error] of cases) {
      expect(await edit.execute({ path: P, edits: edits as never })).toEqual({ error });
    }
    expect(await edit.execute({ path: "/workspace/none.txt", edits: [{ oldText: "a", newText: "b" }] })).toEqual({
      error: "File not found: /workspace/none.txt",
    });
    expect(await text(workspace, P)).toBe(file);
    const small = await editor({ [P]: file }, { maxBytes: 4 });
    expect(await small.edit.execute({ path: P, edits: [{ oldText: "beta", newText: "b" }] })).toEqual({
      error: "File too large to edit: 17 bytes exceeds the 4-byte cap. Use the write tool to rewrite the file from scratch.",
    });
  });

  it("tabs, a file without a final newline, an empty file; direct calls accept a JSON string and top-level oldText", async () => {
    const { edit, workspace } = await editor({ "/workspace/t.go": "func main() {\n\tif x {\n\t\treturn\n\t}\n}", "/workspace/e.txt": "" });
    await edit.execute({ path: "/workspace/t.go", edits: [{ oldText: "\t\treturn", newText: "\t\treturn 1" }] });
    expect(await text(workspace, "/workspace/t.go")).toBe("func main() {\n\tif x {\n\t\treturn 1\n\t}\n}");
    await edit.execute({ path: "/workspace/t.go", edits: JSON.stringify([{ oldText: "}\n}", newText: "}\n}\n" }]) as never });
    expect(await text(workspace, "/workspace/t.go")).toBe("func main() {\n\tif x {\n\t\treturn 1\n\t}\n}\n");
    await edit.execute({ path: "/workspace/t.go", edits: [], oldText: "main", newText: "Main" } as never);
    expect(await text(workspace, "/workspace/t.go")).toContain("func Main()");
    expect(await edit.execute({ path: "/workspace/e.txt", edits: [{ oldText: "x", newText: "y" }] })).toEqual({
      error: "Could not find the exact text in /workspace/e.txt. The old text must match exactly including all whitespace and newlines.",
    });
  });

  it("1,000 concurrent edits on one file lose no update", async () => {
    const n = 1000;
    const file = Array.from({ length: n }, (_, i) => `item ${i}: todo`).join("\n") + "\n";
    const { edit, workspace } = await editor({ "/workspace/many.txt": file });
    const results = await Promise.all(
      Array.from({ length: n }, (_, i) => edit.execute({ path: "/workspace/many.txt", edits: [{ oldText: `item ${i}: todo`, newText: `item ${i}: done` }] })),
    );
    expect(results.filter((r) => "error" in r)).toEqual([]);
    expect(await text(workspace, "/workspace/many.txt")).toBe(file.replaceAll(": todo", ": done"));
  });
});
