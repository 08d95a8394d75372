/**
 * Issue 20, thirty-fifth attack run: a TOOL.md within the 256 KiB limit whose front matter holds one
 * multi-line quoted scalar (a `description: "…"` spread over ~130,000 short lines) takes seconds of CPU
 * to load: the `yaml` package's parser spends ~40–60 µs per line of a quoted (double or single)
 * scalar, against ~1 µs per line of a block (`|`) or plain multi-line scalar of the same size. The
 * loader runs on every turn (docs/tool-directories.md's Durable Object example loads on each request),
 * so one such file costs every turn seconds of the Worker's CPU, and a handful of them (an agent may
 * write its own tools) pass the 30 s CPU limit on every request: the agent is stuck for good, since the
 * turn that could remove them never runs.
 * Tried: 256 KiB front matters of deep flow nesting (stack overflow, caught as bad-front-matter in ~1 s),
 * 700-deep block sequences, 20,000 anchors, 15,000 `!!binary` tags, complex keys, duplicate complex
 * keys, one 234 KiB line, comments, blank lines, block and plain multi-line scalars, an unclosed quote;
 * timing each size step (10k, 20k, 40k, 80k, 130k lines).
 * Held: the 256 KiB cap, the linear duplicate-key pass (docs: ~33,000 keys well under a second), alias
 * bombs (maxAliasCount), deep nesting (an error result, not a crash); block/plain scalars load in
 * ~30–110 ms at the same size; an unclosed quote is refused in ms.
 * Found (medium — one file within the documented bound makes every load take seconds of CPU, a few of
 * them exceed a Worker's CPU limit each turn; 3 of 3 runs): `description: "x\nx\n…"` of 130,000 lines
 * (254 KiB): loadToolDirectories 3.3–7.4 s (80,000 lines: 3.2–4.8 s; the `yaml` parse alone); the docs'
 * own bar for a 256 KiB front matter is "well under a second".
 * Suggested fix: src/tool-dirs/frontmatter.ts — bound the front matter's line count (e.g. refuse more
 * than a few thousand lines in one quoted scalar, or lines of the YAML block beyond ~10,000, as
 * bad-front-matter naming the limit), or parse with a cheaper path for quoted scalars; and say the
 * bound in docs/tool-directories.md.
 */
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { loadToolDirectories, MAX_TOOL_FILE_BYTES } from "../../../src/tool-dirs/index.js";

describe("loadToolDirectories: a quoted multi-line scalar in a 256 KiB TOOL.md", () => {
  it.fails("loads (or is refused) in well under a second", { timeout: 60_000 }, async () => {
    const workspace = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    const text = `---\nname: slow_tool\ndescription: "${"x\n".repeat(130_000)}"\n---\nbody\n`;
    expect(new TextEncoder().encode(text).length).toBeLessThanOrEqual(MAX_TOOL_FILE_BYTES);
    await workspace.fs.mkdir("/workspace/tools/slow_tool", { recursive: true });
    await workspace.fs.writeFile("/workspace/tools/slow_tool/TOOL.md", text);
    await workspace.fs.writeFile("/workspace/tools/slow_tool/index.ts", "export async function execute() { return { content: [] }; }\n");
    const started = performance.now();
    const loaded = await loadToolDirectories({ workspace, dirs: ["/workspace/tools"] });
    const elapsed = performance.now() - started;
    expect(loaded.tools.length + loaded.skipped.length).toBe(1);
    // Was: 3,300–7,400 ms (the yaml parse of the quoted scalar)
    expect(elapsed).toBeLessThan(1000);
  });
});
