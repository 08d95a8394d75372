/**
 * Issue 20, thirty-fifth attack run: a TOOL.md within the 256 KiB limit whose front matter opens a quoted
 * scalar (`description: "` or `'`) followed by ~130,000 short lines at column 0 takes 2.0–2.3 s of CPU
 * (4–9 s wall on this loaded 2-core box) before it is refused as bad-front-matter ("Missing closing
 * \"quote"): the `yaml` package records one error per such line (130,003 errors; lex 0.3 s, parse 0.6 s,
 * compose 1.5 s of CPU) and the loader reads only the first. The loader and sync parse every TOOL.md on
 * every turn (docs/tool-directories.md's Durable Object example), so each such file costs every turn
 * seconds of the Worker's CPU; ~14 of them (an agent may write its own tools) pass the 30 s CPU limit on
 * every request, and the turn that could remove them never runs.
 * Tried: 256 KiB front matters of deep flow nesting (stack overflow, caught as bad-front-matter in ~1 s),
 * 700-deep block sequences, 20,000 anchors, 15,000 `!!binary` tags, complex keys, duplicate complex keys,
 * one 234 KiB line, comments, blank lines, block, plain and properly indented quoted multi-line scalars
 * (85,000 lines: 18–31 ms CPU), an unclosed quote at the end of the file (33 ms).
 * Held: the 256 KiB cap, the linear duplicate-key pass, alias bombs (maxAliasCount), deep nesting (an
 * error result, not a crash); valid files of every shape above load in well under a second.
 * Found (medium, borderline — linear, but 3–4× the docs' reference case: the documented 33,000-key file
 * takes 0.55–0.75 s CPU on the same box, "well under a second"; 3 of 3 runs): `description: "` +
 * `x\n` × 130,000 + `"` (254 KiB): loadToolDirectories 4.1–6.2 s wall, 2.0–2.3 s CPU in parseFrontMatter.
 * Suggested fix: src/tool-dirs/frontmatter.ts — do not compose a document whose token stream already has
 * an error: run yaml's Lexer/Parser first and stop at the first error token (or the first CST error), so
 * a broken file is refused after one error instead of 130,000; or bound the lines of the YAML block.
 * Fixed: src/tool-dirs/frontmatter.ts parseFrontMatter composes through composeUntilFirstError (yaml's
 * Parser → Composer, the Composer's onError hooked to stop at the first error), so the file is refused with
 * the same first error after lexing and parsing only: loadToolDirectories 0.47–0.54 s of thread CPU (was
 * 2.0–2.3 s), about what a valid 254 KiB file costs (issue 20, run 35, fixer VT). The measure changed from
 * wall time to this thread's CPU time (process.threadCpuUsage), the limit kept: the finding is about CPU,
 * and on the shared 2-core box (load average 16–18) the same 0.5 s of CPU took 2.1–3.7 s of wall time.
 * Siblings: test/node/fix35/tool-md-yaml-errors.test.ts.
 */
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { loadToolDirectories, MAX_TOOL_FILE_BYTES } from "../../../src/tool-dirs/index.js";

describe("loadToolDirectories: a quoted multi-line scalar in a 256 KiB TOOL.md", () => {
  it("loads (or is refused) in well under the unfixed 2 s of CPU", { timeout: 60_000 }, async () => {
    const workspace = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    const text = `---\nname: slow_tool\ndescription: "${"x\n".repeat(130_000)}"\n---\nbody\n`;
    expect(new TextEncoder().encode(text).length).toBeLessThanOrEqual(MAX_TOOL_FILE_BYTES);
    await workspace.fs.mkdir("/workspace/tools/slow_tool", { recursive: true });
    await workspace.fs.writeFile("/workspace/tools/slow_tool/TOOL.md", text);
    await workspace.fs.writeFile("/workspace/tools/slow_tool/index.ts", "export async function execute() { return { content: [] }; }\n");
    // This thread's CPU, not wall time (run 35, fixer VT: see the header).
    const cpu = (process as { threadCpuUsage?: (since?: NodeJS.CpuUsage) => NodeJS.CpuUsage }).threadCpuUsage ?? process.cpuUsage;
    const started = cpu.call(process);
    const loaded = await loadToolDirectories({ workspace, dirs: ["/workspace/tools"] });
    const used = cpu.call(process, started);
    const elapsed = (used.user + used.system) / 1000;
    expect(loaded.tools.length + loaded.skipped.length).toBe(1);
    // Was: 4,100–6,200 ms wall, 2,000–2,300 ms CPU (yaml composes 130,003 errors; the loader reads the first).
    // Fixed: 470–540 ms alone; 1,150–1,530 ms of this thread's CPU was seen beside other test processes on 2 cores
    // (2026-12-07), so the bound is 1,600 ms — still under the unfixed 2,000 ms.
    expect(elapsed).toBeLessThan(1600);
  });
});
