/**
 * Issue 20, eleventh attack run: the tool-directory loader and sync (src/tool-dirs/load.ts, sync.ts,
 * frontmatter.ts, validate.ts) on a Node Workspace, fed hostile TOOL.md files and links.
 *
 * Tried:
 * - YAML: a top-level `__proto__` mapping (prototype keys), `__proto__` and `constructor` as input
 *   names, 100,000-deep flow sequences and 40,000-deep flow mappings (parser recursion), the `<<`
 *   merge key, `!!binary` tags, collection keys;
 * - inputs whose names differ only in case (`foo`, `FOO`: both become `INPUT_FOO` for bash);
 * - sync where the target tool directory, the staging directory or a target file is a link to data
 *   elsewhere (is anything outside `to` deleted?), where `to` is a link to a directory, and where
 *   `from` is a link to an ancestor of `to` (the textual containment check sees nothing).
 */
import { beforeEach, describe, expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { loadToolDirectories, syncToolDirectories } from "../../../src/tool-dirs/index.js";

let ws: Workspace;
beforeEach(() => {
  ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
});

async function tool(dir: string, md: string, entry = "index.ts"): Promise<void> {
  await ws.fs.mkdir(`/workspace/t/${dir}`, { recursive: true });
  await ws.fs.writeFile(`/workspace/t/${dir}/TOOL.md`, md);
  await ws.fs.writeFile(`/workspace/t/${dir}/${entry}`, "export async function execute() { return { content: [] }; }\n");
}
const load = () => loadToolDirectories({ workspace: ws, dirs: ["/workspace/t"], languages: ["typescript", "bash"] });

describe("attack11: hostile TOOL.md YAML", () => {
  it("a top-level __proto__ mapping supplies no fields and pollutes nothing", async () => {
    await tool("proto", "---\n__proto__:\n  name: evil\n  description: from the prototype\n---\n");
    const { tools, skipped } = await load();
    expect(tools).toEqual([]);
    expect(skipped).toEqual([{
      dir: "/workspace/t/proto", code: "invalid",
      reason: "TOOL.md: name is required (a snake_case call id such as web_fetch); description is required: say what the tool does and when to use it",
    }]);
    expect(({} as Record<string, unknown>).name).toBeUndefined();
    expect(({} as Record<string, unknown>).description).toBeUndefined();
  });

  it("input __proto__ is refused; input constructor is an ordinary own input", async () => {
    await tool("p1", "---\nname: p1\ndescription: d\ninputs:\n  __proto__: {type: string, description: x}\n---\n");
    await tool("p2", "---\nname: p2\ndescription: d\ninputs:\n  constructor: {type: string, description: c}\n---\n");
    const { tools, skipped } = await load();
    expect(skipped).toEqual([{
      dir: "/workspace/t/p1", name: "p1", code: "invalid",
      reason: 'TOOL.md: input name "__proto__" is reserved (it names an object\'s prototype in JavaScript); choose another name',
    }]);
    expect(tools.map((t) => t.name)).toEqual(["p2"]);
    expect(Object.keys(tools[0].inputs)).toEqual(["constructor"]);
    expect(tools[0].inputs.constructor).toEqual({ name: "constructor", type: "string", description: "c", optional: false, sensitive: false });
  });

  it("100,000-deep sequences and 40,000-deep mappings are bad-front-matter skips; the next tool still loads", async () => {
    await tool("deep_a", `---\nname: deep_a\ndescription: d\nx: ${"[".repeat(100_000)}${"]".repeat(100_000)}\n---\n`);
    await tool("deep_b", `---\nname: deep_b\ndescription: d\nx: ${"{a: ".repeat(40_000)}1${"}".repeat(40_000)}\n---\n`);
    await tool("fine", "---\nname: fine\ndescription: d\n---\n");
    const { tools, skipped } = await load();
    expect(tools.map((t) => t.name)).toEqual(["fine"]);
    expect(skipped.map((s) => [s.dir, s.code])).toEqual([["/workspace/t/deep_a", "bad-front-matter"], ["/workspace/t/deep_b", "bad-front-matter"]]);
    for (const s of skipped) expect(s.reason).toMatch(/^TOOL\.md front matter is not valid YAML: .* at line 4 of TOOL\.md$/);
  });

  it("the << merge key is not a YAML 1.2 core feature: the input it would build is reported incomplete", async () => {
    await tool("merge", "---\nname: merge\ndescription: d\nbase: &b {type: string, description: x}\ninputs:\n  a: *b\n  b:\n    <<: *b\n---\n");
    const { tools, skipped } = await load();
    expect(tools).toEqual([]);
    expect(skipped[0].reason).toBe("TOOL.md: inputs.b.type is required (string, number, boolean or enum); inputs.b.description is required: say what the input is for");
  });

  it("a !!binary description is not a string: invalid, named", async () => {
    await tool("tags", "---\nname: tags\ndescription: !!binary aGVsbG8=\n---\n");
    const { skipped } = await load();
    expect(skipped).toEqual([{ dir: "/workspace/t/tags", name: "tags", code: "invalid", reason: "TOOL.md: description must be a non-empty string; got binary data (5 bytes)" }]);
  });

  // FIXED (was DEFECT, low: the model's value for one input is silently replaced by another's).
  // docs/tool-directories.md: "A bash tool gets every input as an environment variable INPUT_<NAME>
  // (the input name upper-cased)". INPUT_NAME_PATTERN (validate.ts) allows upper case, so inputs `foo`
  // and `FOO` both load; run.ts runCommand sets env[`INPUT_${k.toUpperCase()}`] for each, and the later
  // one wins: a run with { foo: "lower", FOO: "upper" } prints foo=upper for `echo "foo=$INPUT_FOO"`
  // (reproduced in workerd). Expected: the loader refuses a bash/python tool whose input names collide
  // once upper-cased (skip code "invalid", naming both), as it refuses other unusable front matter.
  // Fixed: validateFrontMatter (validate.ts) maps each bash/python input name to its INPUT_<NAME> variable
  // and reports a collision naming both inputs; TypeScript/JavaScript tools (no variables) keep both.
  it("bash inputs foo and FOO (both INPUT_FOO) are refused as invalid", async () => {
    await tool("case_b", "---\nname: case_b\ndescription: d\nlanguage: bash\ninputs:\n  foo: {type: string, description: x}\n  FOO: {type: string, description: y}\n---\n", "index.sh");
    await tool("case_t", "---\nname: case_t\ndescription: d\ninputs:\n  foo: {type: string, description: x}\n  FOO: {type: string, description: y}\n---\n");
    const { tools, skipped } = await load();
    expect(tools.map((t) => [t.name, Object.keys(t.inputs)])).toEqual([["case_t", ["foo", "FOO"]]]);
    expect(skipped).toEqual([{
      dir: "/workspace/t/case_b", name: "case_b", code: "invalid",
      reason: 'TOOL.md: inputs "foo" and "FOO" both become the variable INPUT_FOO of a bash tool; rename one (input names must differ in more than letter case)',
    }]);
  });
});

async function seedTool(d: string, version: number): Promise<void> {
  await ws.fs.mkdir(`/workspace/seed/${d}`, { recursive: true });
  await ws.fs.writeFile(`/workspace/seed/${d}/TOOL.md`, `---\nname: ${d}\ndescription: d\nversion: ${version}\n---\n`);
  await ws.fs.writeFile(`/workspace/seed/${d}/index.ts`, `SEED ${d}`);
}

describe("attack11: sync against links", () => {
  it("a target, a staging directory and a target file that are links: the links are replaced, what they point at survives", async () => {
    await seedTool("a", 2);
    await seedTool("b", 2);
    await seedTool("c", 2);
    await ws.fs.mkdir("/workspace/important/sub", { recursive: true });
    await ws.fs.writeFile("/workspace/important/keep.txt", "KEEP");
    await ws.fs.writeFile("/workspace/important/sub/k2.txt", "KEEP2");
    await ws.fs.writeFile("/workspace/important2.txt", "K3");
    await ws.fs.mkdir("/workspace/tools", { recursive: true });
    await ws.fs.symlink("/workspace/important", "/workspace/tools/a");
    await ws.fs.symlink("/workspace/important", "/workspace/tools/.b.sync");
    await ws.fs.symlink("/workspace/important2.txt", "/workspace/tools/c");
    const report = await syncToolDirectories({ workspace: ws, from: "/workspace/seed", to: "/workspace/tools" });
    expect(report.copied.map((c) => [c.name, c.previousVersion])).toEqual([["a", 0], ["b", null], ["c", 0]]);
    expect(report.skipped).toEqual([]);
    expect((await ws.fs.readdir("/workspace/important")).map((e) => e.name)).toEqual(["keep.txt", "sub"]);
    expect(await ws.fs.readFile("/workspace/important/keep.txt", "utf8")).toBe("KEEP");
    expect(await ws.fs.readFile("/workspace/important/sub/k2.txt", "utf8")).toBe("KEEP2");
    expect(await ws.fs.readFile("/workspace/important2.txt", "utf8")).toBe("K3");
    for (const d of ["a", "b", "c"]) {
      expect((await ws.fs.lstat(`/workspace/tools/${d}`)).isDirectory).toBe(true);
      expect(await ws.fs.readFile(`/workspace/tools/${d}/index.ts`, "utf8")).toBe(`SEED ${d}`);
    }
    expect((await ws.fs.readdir("/workspace/tools")).map((e) => e.name)).toEqual(["a", "b", "c"]);
  });

  // FIXED (was DEFECT, low: sync into a linked data directory never copies anything).
  // SyncToolDirectoriesOptions.to: "The data tools directory … created when missing". With `to` a link
  // to an existing directory (a common layout: /workspace/tools → /data/tools) it is not missing, yet
  // sync.ts calls `workspace.fs.mkdir(to, { recursive: true })`, which the Workspace refuses with EEXIST
  // on a link (the 0.8.0 `mkdir -p` semantics porting.md notes), so every seed is skipped
  // "copy failed: EEXIST: file already exists, mkdir: /workspace/tools". The loader follows such links.
  // Fixed: sync.ts stats `to` (following the link) and calls mkdir only when it is not a directory.
  it("`to` is a link to a directory: the seed is copied into it", async () => {
    await seedTool("x", 1);
    await ws.fs.mkdir("/workspace/data-tools", { recursive: true });
    await ws.fs.symlink("/workspace/data-tools", "/workspace/tools");
    const report = await syncToolDirectories({ workspace: ws, from: "/workspace/seed", to: "/workspace/tools" });
    expect(report.skipped).toEqual([]);
    expect(report.copied.map((c) => c.name)).toEqual(["x"]);
    expect(await ws.fs.readFile("/workspace/data-tools/x/index.ts", "utf8")).toBe("SEED x");
  });

  // Held before only because of the EEXIST above (the containment check of `from` and `to` was textual).
  // Now sync also compares the paths with their links resolved (src/tool-dirs/realpath.ts) and refuses
  // a `to` that resolves inside `from` (or the reverse) with one skip naming both.
  it("`to` is a link into the seed: nothing is copied over the seed, which is unchanged", async () => {
    await seedTool("x", 1);
    await ws.fs.symlink("/workspace/seed/x", "/workspace/tools");
    const report = await syncToolDirectories({ workspace: ws, from: "/workspace/seed", to: "/workspace/tools" });
    expect(report.copied).toEqual([]);
    expect(report.skipped).toEqual([{
      dir: "/workspace/seed",
      reason: "from (/workspace/seed) and to (/workspace/tools) lead through symbolic links to /workspace/seed and /workspace/seed/x, which are the same directory or contain each other; nothing was synced",
    }]);
    expect((await ws.fs.readdir("/workspace/seed/x")).map((e) => e.name)).toEqual(["TOOL.md", "index.ts"]);
    expect(await ws.fs.readFile("/workspace/seed/x/index.ts", "utf8")).toBe("SEED x");
  });

  // Before the resolved-path check this made one bounded copy of the seed into its own subtree; now a
  // `from` that resolves to an ancestor of `to` is refused like a textual overlap: nothing is written.
  it("`from` is a link to an ancestor of `to`: refused with one skip, nothing written", async () => {
    await ws.fs.mkdir("/workspace/tools/x", { recursive: true });
    await ws.fs.writeFile("/workspace/tools/x/TOOL.md", "---\nname: x\ndescription: d\nversion: 1\n---\n");
    await ws.fs.writeFile("/workspace/tools/x/index.ts", "X");
    await ws.fs.symlink("/workspace/tools", "/workspace/seed");
    const report = await syncToolDirectories({ workspace: ws, from: "/workspace/seed", to: "/workspace/tools/x/inner" });
    expect(report).toEqual({
      copied: [],
      kept: [],
      skipped: [{
        dir: "/workspace/seed",
        reason: "from (/workspace/seed) and to (/workspace/tools/x/inner) lead through symbolic links to /workspace/tools and /workspace/tools/x/inner, which are the same directory or contain each other; nothing was synced",
      }],
    });
    expect((await ws.fs.readdir("/workspace/tools/x")).map((e) => e.name)).toEqual(["TOOL.md", "index.ts"]);
    expect(await ws.fs.readFile("/workspace/tools/x/index.ts", "utf8")).toBe("X");
  });
});
