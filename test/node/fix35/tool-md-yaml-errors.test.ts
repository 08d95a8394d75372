/**
 * Issue 20, run 35, fixer VT — sibling of test/node/attack35b/tool-md-quoted-multiline-scalar-loads-for-seconds.test.ts.
 * A TOOL.md whose front matter is broken is refused as bad-front-matter with the FIRST error of the YAML and
 * its line in TOOL.md; src/tool-dirs/frontmatter.ts now stops composing at that error instead of letting
 * `yaml` build one error object per broken line and keeping the first (composeUntilFirstError).
 * Checked: the other broken forms — an unclosed double or single quote over many lines, an unclosed flow
 * mapping and flow sequence over many lines, many mis-indented items, many tab-indented lines, one error at
 * the end of a long valid file, a stray `]` (a CST error token), two documents, a `%YAML` directive without
 * `---` — each refused with exactly the message and line `yaml`'s own parseDocument gives as its first
 * error (the loader's previous result), through parseFrontMatter and through loadToolDirectories; warnings
 * (an unknown directive, an unresolved tag) do not stop a valid document.
 * Bounded work: the 254 KiB unclosed-quote file of the attacker's test cost 1.46–1.83 s of thread CPU in
 * yaml's parseDocument (130,003 errors composed; the old parseFrontMatter) against 0.32–0.35 s for a valid
 * 253 KiB file of 32,500 keys (the docs' "~33,000 keys" reference), i.e. 4–5×; parseFrontMatter now refuses
 * it in 0.39–0.54 s, about the lexing and parsing of the text, while the valid file takes 0.35–0.46 s
 * (1.0–1.4×; 2026-12-06, a loaded 2-core box). The test measures both files' CPU (process.threadCpuUsage,
 * the lower of two runs each) in the same process and requires the broken file to cost less than twice
 * the valid one — a generous bound between ~1.2× now and 4–5× before, independent of the machine's speed.
 */
import { parseDocument } from "yaml";
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { loadToolDirectories, MAX_TOOL_FILE_BYTES } from "../../../src/tool-dirs/index.js";
import { FrontMatterError, parseFrontMatter, splitFrontMatter } from "../../../src/tool-dirs/frontmatter.js";

const PREFIX = "TOOL.md front matter is not valid YAML: ";

/** CPU used by this thread (Node 22's process.threadCpuUsage; process.cpuUsage where missing). */
const threadCpu = (since?: NodeJS.CpuUsage): NodeJS.CpuUsage =>
  ((process as { threadCpuUsage?: (since?: NodeJS.CpuUsage) => NodeJS.CpuUsage }).threadCpuUsage ?? process.cpuUsage).call(process, since);

/** Broken front matters (the YAML between the `---` lines), each with the first error yaml reports and its line in TOOL.md. */
const BROKEN: ReadonlyArray<{ name: string; yaml: string; message: string; line: number; inFile?: number | null }> = [
  { name: "unclosed double quote", yaml: `name: t\ndescription: "${"x\n".repeat(5000)}"\n`, message: 'Missing closing "quote', line: 3 },
  { name: "unclosed single quote", yaml: `name: t\ndescription: '${"x\n".repeat(5000)}'\n`, message: "Missing closing 'quote", line: 3 },
  {
    name: "unclosed flow mapping",
    yaml: `name: t\ndescription: d\nargs: {${"x: 1,\n".repeat(5000)}\n`,
    message: "Flow map in block collection must be sufficiently indented and end with a }",
    line: 5,
  },
  {
    name: "unclosed flow sequence",
    yaml: `name: t\ndescription: d\nargs: [${"1,\n".repeat(5000)}\n`,
    message: "Flow sequence in block collection must be sufficiently indented and end with a ]",
    line: 5,
  },
  { name: "many bad indents", yaml: `name: t\nargs:\n${"  b: 1\n c: 2\n".repeat(5000)}`, message: "All mapping items must start at the same column", line: 5 },
  { name: "many tab indents", yaml: `name: t\n${"\tb: 2\n".repeat(5000)}`, message: "Tabs are not allowed as indentation", line: 3 },
  {
    name: "one error after 5,000 valid keys",
    yaml: `${Array.from({ length: 5000 }, (_, i) => `k${i}: v`).join("\n")}\nbad: "open\n`,
    message: 'Missing closing "quote',
    line: 5003, // yaml places it at the end of the text, after the last line break …
    inFile: 5002, // … which splitFrontMatter drops: in TOOL.md the YAML ends on the line of `bad: "open`
  },
  { name: "a stray ] (an error token)", yaml: `name: t\n]\n${"x: 1\n".repeat(100)}`, message: 'Unexpected flow-seq-end token in YAML stream: "]"', line: 3 },
  // In a TOOL.md the `---` closes the front matter: this form reaches only a direct call of parseFrontMatter.
  { name: "two documents", yaml: "name: t\n---\nb: 2\n", message: "Source contains multiple documents; please use YAML.parseAllDocuments()", line: 3, inFile: null },
  { name: "a directive without ---", yaml: "%YAML 1.2\nname: t\n", message: "Missing directives-end/doc-start indicator line", line: 3 },
];

/** yaml's own first error for `text` (prettyErrors off), as the loader reported it before composing stopped early. */
function yamlFirstError(text: string, firstLine: number): string {
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: false });
  const error = doc.errors[0];
  const line = text.slice(0, error.pos[0]).split("\n").length + firstLine - 1;
  return `${PREFIX}${error.message} at line ${line} of TOOL.md`;
}

function refusal(yaml: string, firstLine = 2): string {
  try {
    parseFrontMatter(yaml, firstLine);
  } catch (e) {
    expect(e).toBeInstanceOf(FrontMatterError);
    return (e as Error).message;
  }
  return "(parsed)";
}

describe("parseFrontMatter: broken YAML is refused with the first error and its line", () => {
  for (const { name, yaml, message, line } of BROKEN) {
    it(name, () => {
      const expected = `${PREFIX}${message} at line ${line} of TOOL.md`;
      expect(yamlFirstError(yaml, 2)).toBe(expected);
      expect(refusal(yaml)).toBe(expected);
    });
  }

  it("warnings do not stop a valid document (an unknown directive, an unresolved tag)", () => {
    expect(parseDocument("%FOO bar\n---\nname: t\n").warnings.map((w) => w.code)).toEqual(["BAD_DIRECTIVE"]);
    expect(parseFrontMatter("%FOO bar\n---\nname: t\n", 2)).toEqual({ name: "t" });
    expect(parseDocument("name: !!foo t\n").warnings.map((w) => w.code)).toEqual(["TAG_RESOLVE_FAILED"]);
    expect(parseFrontMatter("name: !!foo t\n", 2)).toEqual({ name: "t" });
  });

  it("a valid document still parses (a multi-line quoted scalar, flow collections)", () => {
    expect(parseFrontMatter('name: t\ndescription: "a\n  b"\nargs: {x: [1, 2]}\n', 2)).toEqual({ name: "t", description: "a b", args: { x: [1, 2] } });
  });
});

describe("loadToolDirectories: the broken forms are skipped as bad-front-matter with the first error", () => {
  it("each form, in one directory", async () => {
    const workspace = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    const expected = [];
    for (const [i, { yaml, message, line, inFile }] of BROKEN.entries()) {
      if (inFile === null) continue;
      const dir = `/workspace/tools/t${String(i).padStart(2, "0")}`;
      await workspace.fs.mkdir(dir, { recursive: true });
      await workspace.fs.writeFile(`${dir}/TOOL.md`, `---\n${yaml}---\nbody\n`);
      await workspace.fs.writeFile(`${dir}/index.ts`, "export async function execute() { return { content: [] }; }\n");
      const reason = `${PREFIX}${message} at line ${inFile ?? line} of TOOL.md`;
      expect(yamlFirstError(splitFrontMatter(`---\n${yaml}---\nbody\n`).yaml, 2)).toBe(reason);
      expected.push({ dir, code: "bad-front-matter", reason });
    }
    const loaded = await loadToolDirectories({ workspace, dirs: ["/workspace/tools"] });
    expect(loaded.tools).toEqual([]);
    expect(loaded.skipped).toEqual(expected);
  });
});

describe("bounded work: a broken 254 KiB front matter costs no more than a valid file of its size", () => {
  it("the unclosed quote over 130,000 lines costs at most twice the docs' valid ~33,000-key file (32,500 keys, 254 KiB)", { timeout: 120_000 }, () => {
    const broken = `---\nname: slow_tool\ndescription: "${"x\n".repeat(130_000)}"\n---\nbody\n`;
    const valid = `---\n${Array.from({ length: 32_500 }, (_, i) => `k${i.toString(36)}: 1`).join("\n")}\n---\nbody\n`;
    for (const text of [broken, valid]) expect(new TextEncoder().encode(text).length).toBeLessThanOrEqual(MAX_TOOL_FILE_BYTES);
    const cpu = (text: string): { ms: number; result: string } => {
      let best = Infinity;
      let result = "";
      for (let run = 0; run < 2; run++) {
        const split = splitFrontMatter(text);
        const started = threadCpu();
        try {
          result = Object.keys(parseFrontMatter(split.yaml, split.yamlLine)).length.toString();
        } catch (e) {
          result = (e as Error).message;
        }
        const used = threadCpu(started);
        best = Math.min(best, (used.user + used.system) / 1000);
      }
      return { ms: best, result };
    };
    const b = cpu(broken);
    const v = cpu(valid);
    expect(b.result).toBe(`${PREFIX}Missing closing "quote at line 3 of TOOL.md`);
    expect(v.result).toBe("32500");
    // Was: 4–5× (1.46–1.83 s against 0.32–0.35 s); now 1.0–1.4×.
    expect(b.ms).toBeLessThan(2 * v.ms);
  });
});
