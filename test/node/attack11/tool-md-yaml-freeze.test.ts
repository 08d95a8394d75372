/**
 * Issue 20, eleventh attack run: CPU cost of one TOOL.md (src/tool-dirs/frontmatter.ts, validate.ts).
 *
 * Tried, timing `yaml`'s parseDocument + toJS as parseFrontMatter calls them, on 256 KiB inputs (the
 * loader's MAX_TOOL_FILE_BYTES): 130,000-deep flow nesting (0.4–0.7 s, then a stack-overflow message),
 * one long scalar, 1,000-deep block nesting, a long escaped string, comments (all ≤ 0.6 s), and many
 * keys: ~37,000 top-level keys (4.8 s), ~37,000 keys in one flow mapping (5 s), ~20,000 anchors (2 s),
 * ~20,000 `!!str` tags (5 s). With `uniqueKeys: false` the same 37,000 keys parse in 0.3 s.
 *
 * FIXED (was DEFECT, high: one file freezes the object, as issue 20 #2's glob did). frontmatter.ts now
 * parses with `uniqueKeys: false` and finds repeated keys itself with one Set per mapping (linear;
 * the error text is unchanged: "Map keys must be unique at line N of TOOL.md"), and validate.ts
 * readEnumValues refuses more than MAX_ENUM_VALUES items before its loop and finds repeats with a Set.
 * The defect as found: A TOOL.md under the 256 KiB
 * cap holding ~33,000 mapping keys takes seconds of CPU to load (measured here: 7.6 s for
 * loadToolDirectories of one such tool, 14 s for syncToolDirectories of a seed and target both so built) — loadToolDirectories parses every
 * tool directory (up to maxEntries = 1024 per directory), and syncToolDirectories parses the seed's
 * and the target's TOOL.md. The model can write such a file with the `write` tool into a tools
 * directory; every later session's loader then stalls the Durable Object (its CPU limit is 30 s by
 * default: about six such files exceed it).
 * Cause: frontmatter.ts parseFrontMatter passes `uniqueKeys: true` to `parseDocument`; `yaml` then
 * checks each new key against every earlier key of its mapping (a linear scan per key:
 * quadratic in the number of keys).
 * Same shape, second cause (validate.ts readEnumValues): an enum input whose `values` is one
 * comma-separated string of ~59,000 short values (250 KB) parses in 20 ms, then validation takes
 * 3.9 s: each value is checked against every earlier one with `values.includes` (quadratic), and the
 * MAX_ENUM_VALUES (256) check comes only after the loop. Fix: refuse more than MAX_ENUM_VALUES items
 * before the loop, and find repeats with a Set.
 * Fix (keys): parse with `uniqueKeys: false` and detect duplicate keys on the parsed document's mappings with a
 * Set (linear), or refuse front matter with more than a documented number of keys/lines before parsing
 * (front matter has a handful of fields). A generous bound is asserted here (a regression guard, as
 * test/node/glob-complexity.test.ts does for globs), not a benchmark.
 */
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { loadToolDirectories, MAX_TOOL_FILE_BYTES, syncToolDirectories } from "../../../src/tool-dirs/index.js";

/**
 * Generous: a few ms is normal for a TOOL.md; `yaml`'s own parse of the 33,000-key one takes
 * ~0.7 s on an idle machine (1.9 s seen with other tests running), and its duplicate-key check made
 * it ~20 s before the fix — so 8 s tells the two apart without failing on a loaded CI machine.
 */
const BOUND_MS = 8000;

/** A valid TOOL.md just under 256 KiB whose front matter has ~33,000 extra (ignored) top-level keys. */
function manyKeysToolMd(name: string, version = 1): string {
  const head = `---\nname: ${name}\ndescription: Many keys.\nversion: ${version}\n`;
  const lines: string[] = [];
  let size = head.length + 5;
  for (let i = 0; ; i++) {
    const line = `x${i.toString(36)}: 0\n`;
    if (size + line.length > MAX_TOOL_FILE_BYTES) break;
    lines.push(line);
    size += line.length;
  }
  return `${head}${lines.join("")}---\n`;
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await work();
  return { value, ms: performance.now() - start };
}

describe("attack11: TOOL.md parsing cost", () => {
  it("the hostile file is a valid tool just under the cap (control)", () => {
    const text = manyKeysToolMd("many_keys");
    expect(new TextEncoder().encode(text).length).toBeLessThanOrEqual(MAX_TOOL_FILE_BYTES);
    expect(text.split("\n").length).toBeGreaterThan(30_000);
  });

  it("loadToolDirectories: one 256 KiB TOOL.md with ~33,000 keys loads within the bound", { timeout: 120_000 }, async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    await ws.fs.mkdir("/workspace/tools/many_keys", { recursive: true });
    await ws.fs.writeFile("/workspace/tools/many_keys/TOOL.md", manyKeysToolMd("many_keys"));
    await ws.fs.writeFile("/workspace/tools/many_keys/index.ts", "export async function execute() { return { content: [] }; }\n");
    const { value, ms } = await timed(() => loadToolDirectories({ workspace: ws, dirs: ["/workspace/tools"] }));
    expect(value.tools.map((t) => t.name)).toEqual(["many_keys"]);
    expect(ms).toBeLessThan(BOUND_MS);
  });

  it("syncToolDirectories: a seed with such a TOOL.md (target newer) syncs within the bound", { timeout: 120_000 }, async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    await ws.fs.mkdir("/workspace/seed/many_keys", { recursive: true });
    await ws.fs.writeFile("/workspace/seed/many_keys/TOOL.md", manyKeysToolMd("many_keys", 1));
    await ws.fs.mkdir("/workspace/tools/many_keys", { recursive: true });
    await ws.fs.writeFile("/workspace/tools/many_keys/TOOL.md", "---\nname: many_keys\ndescription: d\nversion: 2\n---\n");
    const { value, ms } = await timed(() => syncToolDirectories({ workspace: ws, from: "/workspace/seed", to: "/workspace/tools" }));
    expect(value.kept.map((k) => k.name)).toEqual(["many_keys"]);
    expect(ms).toBeLessThan(BOUND_MS);
  });

  it("an enum input with ~59,000 comma-separated values is refused (at most 256) within the bound", { timeout: 120_000 }, async () => {
    const values: string[] = [];
    for (let i = 0, size = 0; size < 250_000; i++) {
      values.push(i.toString(36));
      size += values[i].length + 1;
    }
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    await ws.fs.mkdir("/workspace/tools/big_enum", { recursive: true });
    await ws.fs.writeFile(
      "/workspace/tools/big_enum/TOOL.md",
      `---\nname: big_enum\ndescription: d\ninputs:\n  x:\n    type: enum\n    description: d\n    values: "${values.join(",")}"\n---\n`,
    );
    await ws.fs.writeFile("/workspace/tools/big_enum/index.ts", "export async function execute() { return { content: [] }; }\n");
    const { value, ms } = await timed(() => loadToolDirectories({ workspace: ws, dirs: ["/workspace/tools"] }));
    expect(value.skipped.map((s) => s.reason)).toEqual([`TOOL.md: inputs.x.values has ${values.length} values; at most 256 are allowed`]);
    expect(ms).toBeLessThan(BOUND_MS);
  });
});
