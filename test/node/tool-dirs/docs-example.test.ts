/**
 * The example of docs/tool-directories.md runs (issue 19): the ```ts block
 * after `<!-- runnable -->` runs on Node with `agent-computer` and
 * `agent-computer/tool-dirs` mapped to src/, and what it prints must equal
 * the ```text block that follows it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../../..");
const DOC = readFileSync(join(ROOT, "docs/tool-directories.md"), "utf8");
const ENTRY: Record<string, string> = {
  "agent-computer": "src/index.ts",
  "agent-computer/tool-dirs": "src/tool-dirs/index.ts",
};
const scratch = mkdtempSync(join(tmpdir(), "ac-tool-dirs-docs-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

it("docs/tool-directories.md: the runnable example prints what the page shows", async () => {
  const match = /<!-- runnable -->\n```ts\n([\s\S]*?)\n```\n\n```text\n([\s\S]*?)\n```/.exec(DOC);
  expect(match, "a runnable ts block followed by its text output").not.toBeNull();
  const [, code, output] = match!;
  const source = code.replace(/from "(agent-computer[^"]*)"/g, (_, spec: string) => {
    if (!ENTRY[spec]) throw new Error(`docs/tool-directories.md imports ${spec}: add it to ENTRY`);
    return `from ${JSON.stringify(pathToFileURL(join(ROOT, ENTRY[spec])).href)}`;
  });
  const file = join(scratch, "example.ts");
  writeFileSync(file, `export const lines: string[] = [];\nconst console = { log: (...a: unknown[]) => lines.push(format(...a)) };\nimport { format } from "node:util";\n${source}\n`);
  const module = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as { lines: string[] };
  expect(module.lines.join("\n")).toBe(output);
});
