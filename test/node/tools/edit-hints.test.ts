/**
 * edit's refusals say where the text nearly is: a line-number prefix copied
 * from read's output, the closest line, tabs against spaces, the first line
 * that differs, and the lines of repeated matches. The file stays untouched.
 */
import { describe, expect, it } from "vitest";
import { editDefinition } from "../../../src/tools/core/edit.js";
import { boundedLevenshtein, HINT_LIMITS } from "../../../src/tools/core/edit-hints.js";
import { setup, text } from "./helpers.js";

const P = "/workspace/f.txt";
const NOT_FOUND = `Could not find the exact text in ${P}. The old text must match exactly including all whitespace and newlines.`;

async function refuse(content: string, edits: Array<{ oldText: string; newText: string }>): Promise<string> {
  const { store, workspace } = await setup({ [P]: content });
  const result = await editDefinition({ store }).execute({ path: P, edits });
  expect(await text(workspace, P)).toBe(content);
  expect(Object.keys(result)).toEqual(["error"]);
  return (result as { error: string }).error;
}

describe("edit: not-found hints", () => {
  it("oldText copied with read's line-number prefixes", async () => {
    expect(await refuse("alpha\nbeta\ngamma\n", [{ oldText: "2\tbeta\n3\tgamma", newText: "x" }])).toBe(
      `${NOT_FOUND} oldText starts with "2\\t", a line-number prefix from read's output; remove such prefixes from every line of oldText: they are not part of the file. Without them, the text matches from line 2 of the file.`,
    );
    // An indented prefix, on one of several edits, whose stripped text still differs.
    expect(await refuse("alpha\nbeta\ngamma\n", [{ oldText: "alpha", newText: "a" }, { oldText: "  12\tgamma!", newText: "x" }])).toBe(
      `Could not find edits[1] in ${P}. The oldText must match exactly including all whitespace and newlines. edits[1].oldText starts with "  12\\t", a line-number prefix from read's output; remove such prefixes from every line of edits[1].oldText: they are not part of the file. The closest line in the file is line 3: "gamma".`,
    );
    // A file whose lines really start with "<n>\t" (TSV): no prefix hint.
    expect(await refuse("1\tapple\n2\tbanana\n", [{ oldText: "2\tbananas", newText: "x" }])).toBe(`${NOT_FOUND} The closest line in the file is line 2: "2\\tbanana".`);
  });

  it("tabs against spaces, both ways, and other indentation", async () => {
    const go = "func main() {\n\tif x {\n\t\treturn\n\t}\n}\n";
    expect(await refuse(go, [{ oldText: "    if x {\n        return\n    }", newText: "x" }])).toBe(
      `${NOT_FOUND} The closest line in the file is line 2: "\\tif x {". The file indents with tabs (line 2 starts with "\\t") where oldText uses spaces ("    "); copy the indentation exactly.`,
    );
    const py = "def f():\n    if x:\n        return 1\n";
    expect(await refuse(py, [{ oldText: "\tif x:\n\t\treturn 1", newText: "x" }])).toBe(
      `${NOT_FOUND} The closest line in the file is line 2: "    if x:". The file indents with spaces (line 2 starts with "    ") where oldText uses tabs ("\\t"); copy the indentation exactly.`,
    );
    expect(await refuse(py, [{ oldText: "  if x:\n    return 1", newText: "x" }])).toBe(
      `${NOT_FOUND} The closest line in the file is line 2: "    if x:". Line 2 is indented with "    " where oldText has "  "; copy the indentation exactly.`,
    );
  });

  it("the first line matches; the first line that differs is shown (with its indentation)", async () => {
    expect(await refuse("a()\nb()\nc()\n", [{ oldText: "a()\nb ()\nc()", newText: "x" }])).toBe(
      `${NOT_FOUND} oldText's line 1 matches line 1 of the file, but its line 2 is "b ()" where the file's line 2 is "b()".`,
    );
    expect(await refuse("if (a) {\n\tgo();\n}\n", [{ oldText: "\nif (a) {\n  go();\n}", newText: "x" }])).toBe(
      `${NOT_FOUND} oldText's line 2 matches line 1 of the file, but its line 3 is "  go();" where the file's line 2 is "\\tgo();". The file indents with tabs (line 2 starts with "\\t") where oldText uses spaces ("  "); copy the indentation exactly.`,
    );
    // The longest run wins over the first candidate; past the end of the file.
    expect(await refuse("}\nx\n}\ny\nz", [{ oldText: "}\ny\nz\nw", newText: "x" }])).toBe(
      `${NOT_FOUND} oldText's line 1 matches line 3 of the file, but its line 4 is "w" where the file ends.`,
    );
  });

  it("the closest line names the edit; nothing close, nothing added", async () => {
    expect(await refuse("let total = price * qty;\nreturn total;\n", [{ oldText: "return total;", newText: "r" }, { oldText: "let totl = price * qty;", newText: "x" }])).toBe(
      `Could not find edits[1] in ${P}. The oldText must match exactly including all whitespace and newlines. The closest line in the file is line 1: "let total = price * qty;".`,
    );
    // Distances are counted on trimmed lines; more than a third of the line's characters apart is not close.
    expect(await refuse("alpha\nbeta\ngamma\n", [{ oldText: "delta", newText: "d" }])).toBe(NOT_FOUND);
    // Ties go to the first line.
    expect(await refuse("cat\nbat\n", [{ oldText: "hat", newText: "x" }])).toBe(`${NOT_FOUND} The closest line in the file is line 1: "cat".`);
  });

  it(`only the first ${HINT_LIMITS.lines} lines are compared`, async () => {
    const filler = Array.from({ length: HINT_LIMITS.lines - 1 }, (_, i) => `${i}`).join("\n");
    const target = "const answer = compute(42);";
    expect(await refuse(`${filler}\n${target}\n`, [{ oldText: "const answer = compute(41);", newText: "x" }])).toBe(
      `${NOT_FOUND} The closest line in the file is line ${HINT_LIMITS.lines}: "${target}".`,
    );
    expect(await refuse(`${filler}\nfiller\n${target}\n`, [{ oldText: "const answer = compute(41);", newText: "x" }])).toBe(NOT_FOUND);
  });

  it("boundedLevenshtein agrees with the full dynamic programme when within the bound", () => {
    const full = (a: string, b: string) => {
      let row = Array.from({ length: b.length + 1 }, (_, j) => j);
      for (let i = 1; i <= a.length; i++) {
        const next = [i];
        for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1), row[j]! + 1, next[j - 1]! + 1);
        row = next;
      }
      return row[b.length]!;
    };
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const word = () => Array.from({ length: Math.floor(random() * 9) }, () => "abc"[Math.floor(random() * 3)]).join("");
    for (let n = 0; n < 2000; n++) {
      const [a, b, max] = [word(), word(), Math.floor(random() * 6)];
      const d = full(a, b);
      expect(boundedLevenshtein(a, b, max), `${a} ${b} ${max}`).toBe(d <= max ? d : undefined);
    }
  });
});

describe("edit: repeated matches list their lines", () => {
  it("exact, on one line, past ten lines, and fuzzy", async () => {
    expect(await refuse("a a a\n", [{ oldText: "a", newText: "x" }])).toBe(
      `Found 3 occurrences of the text in ${P}, all on line 1. The text must be unique. Please provide more context to make it unique.`,
    );
    expect(await refuse("x = 1\n".repeat(12), [{ oldText: "x = 1", newText: "x" }])).toBe(
      `Found 12 occurrences of the text in ${P}, on lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and later lines. The text must be unique. Please provide more context to make it unique.`,
    );
    expect(await refuse("it\u2019s\nok\nit\u2018s\n", [{ oldText: "ok", newText: "fine" }, { oldText: "it's", newText: "x" }])).toBe(
      `Found 2 occurrences of edits[1] in ${P}, on lines 1 and 3. Each oldText must be unique. Please provide more context to make it unique.`,
    );
  });
});
