/**
 * The TOOL.md tool-directory loader (spec 03 §9, seed 001, issue 19) on a
 * Node Workspace: the fixture tools directory, precedence between
 * directories, and every validation failure as a skip with its exact reason.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { MAX_TOOL_FILE_BYTES, loadToolDirectories, type ToolDirectory } from "../../../src/tool-dirs/index.js";
import { copyFixtures } from "./dir-fixtures.js";

let ws: Workspace;
beforeEach(async () => {
  ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
});

const T = "/workspace/tools";

/** Writes `/workspace/t/<dir>/TOOL.md` (and an entry file unless `entry` is null). */
async function tool(dir: string, toolMd: string, entry: string | null = "index.ts"): Promise<void> {
  await ws.fs.mkdir(`/workspace/t/${dir}`, { recursive: true });
  await ws.fs.writeFile(`/workspace/t/${dir}/TOOL.md`, toolMd);
  if (entry) await ws.fs.writeFile(`/workspace/t/${dir}/${entry}`, "export async function execute() { return { content: [] }; }\n");
}

async function loadT(extra: Partial<Parameters<typeof loadToolDirectories>[0]> = {}) {
  return loadToolDirectories({ workspace: ws, dirs: ["/workspace/t"], ...extra });
}

/** Front matter with the required fields and `more` lines. */
const md = (more = "", name = "tool_x") => `---\nname: ${name}\ndescription: Does x.\n${more}---\nBody.\n`;

describe("loadToolDirectories on the fixtures", () => {
  beforeEach(async () => {
    await copyFixtures(ws, "tools", T);
    await copyFixtures(ws, "override", "/workspace/override");
  });

  it("loads the good tools in directory order and skips the broken ones with reasons", async () => {
    const { tools, skipped } = await loadToolDirectories({ workspace: ws, dirs: [T] });
    expect(tools.map((t) => [t.name, t.language, t.entry, t.mutating, t.version])).toEqual([
      ["all_inputs", "typescript", `${T}/all_inputs/index.ts`, false, 1],
      ["export_rows", "typescript", `${T}/export_rows/index.ts`, true, 1],
      ["fetch_status", "typescript", `${T}/fetch_status/index.ts`, false, 2],
      ["greet", "bash", `${T}/greet/index.sh`, false, 1],
      ["slow_count", "javascript", `${T}/slow_count/index.js`, false, 1],
    ]);
    expect(skipped).toEqual([
      {
        dir: `${T}/bad_yaml`,
        code: "bad-front-matter",
        reason:
          "TOOL.md front matter is not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] at line 4 of TOOL.md",
      },
      {
        dir: `${T}/fetch_status_copy`,
        name: "fetch_status",
        code: "duplicate-name",
        reason: `the name "fetch_status" is already taken by ${T}/fetch_status; the first directory found wins`,
      },
      {
        dir: `${T}/no_entry`,
        name: "no_entry",
        code: "no-entry",
        reason: "no entry file: a typescript tool needs index.ts or index.js next to TOOL.md",
      },
      {
        dir: `${T}/py_hello`,
        name: "py_hello",
        code: "language-unavailable",
        reason: 'python tools need a container backend, and none is configured (pass languages including "python" when one is)',
      },
      {
        dir: `${T}/read_clash`,
        name: "read",
        code: "builtin-name",
        reason: 'the name "read" is a built-in tool\'s; give the tool another name',
      },
      {
        dir: `${T}/unknown_type`,
        name: "unknown_type",
        code: "invalid",
        reason: 'TOOL.md: inputs.when.type must be string, number, boolean or enum; got "date"',
      },
    ]);
  });

  it("reads every field of a tool: label, description + body, version, env, inputs", async () => {
    const { tools } = await loadToolDirectories({ workspace: ws, dirs: T });
    const fetch = tools.find((t) => t.name === "fetch_status") as ToolDirectory;
    const body = (await ws.fs.readFile(`${T}/fetch_status/TOOL.md`, "utf8")).split("\n---\n")[1].trim();
    expect(body.startsWith("# Fetch Status\n\n## Authentication\n")).toBe(true);
    expect(fetch).toEqual({
      name: "fetch_status",
      label: "Fetch Status",
      summary: "Fetch the status document of a service over HTTP and report it.",
      body,
      description: `Fetch the status document of a service over HTTP and report it.\n\n${body}`,
      version: 2,
      language: "typescript",
      inputs: {
        url: { name: "url", type: "string", description: "Base URL of the service; the tool requests <url>/status.", optional: false, sensitive: false },
        api_token: {
          name: "api_token",
          type: "string",
          description: "API token; defaults to the STATUS_API_TOKEN environment variable.",
          optional: true,
          sensitive: true,
        },
      },
      mutating: false,
      env: ["STATUS_API_TOKEN"],
      dir: `${T}/fetch_status`,
      toolFile: `${T}/fetch_status/TOOL.md`,
      entry: `${T}/fetch_status/index.ts`,
      root: T,
    });
    const all = tools.find((t) => t.name === "all_inputs") as ToolDirectory;
    expect(Object.values(all.inputs)).toEqual([
      { name: "text", type: "string", description: "Text to echo.", optional: false, sensitive: false },
      { name: "count", type: "number", description: "How many times to repeat the text.", optional: false, sensitive: false, default: 2 },
      { name: "loud", type: "boolean", description: "Upper-case the text.", optional: true, sensitive: false },
      {
        name: "mode",
        type: "enum",
        description: "How to wrap each repetition.",
        optional: false,
        sensitive: false,
        values: ["plain", "brackets", "quotes"],
        default: "plain",
      },
      {
        name: "color",
        type: "enum",
        description: "A color, given as a YAML list of values.",
        optional: true,
        sensitive: false,
        values: ["red", "green", "blue"],
      },
      {
        name: "secret",
        type: "string",
        description: "A secret that must never be logged; the tool reports only its length.",
        optional: true,
        sensitive: true,
      },
    ]);
  });

  it("an earlier directory wins a name; the later one is reported as a duplicate", async () => {
    const first = await loadToolDirectories({ workspace: ws, dirs: `/workspace/override:${T}` });
    const greet = first.tools.find((t) => t.name === "greet") as ToolDirectory;
    expect([greet.dir, greet.label, greet.language, greet.root]).toEqual([
      "/workspace/override/greet_override",
      "Greet (override)",
      "javascript",
      "/workspace/override",
    ]);
    expect(first.tools.map((t) => t.name)).toEqual(["greet", "all_inputs", "export_rows", "fetch_status", "slow_count"]);
    expect(first.skipped.find((s) => s.dir === `${T}/greet`)).toEqual({
      dir: `${T}/greet`,
      name: "greet",
      code: "duplicate-name",
      reason: 'the name "greet" is already taken by /workspace/override/greet_override; the first directory found wins',
    });

    const second = await loadToolDirectories({ workspace: ws, dirs: [T, "/workspace/override"] });
    expect((second.tools.find((t) => t.name === "greet") as ToolDirectory).dir).toBe(`${T}/greet`);
    expect(second.skipped.at(-1)).toEqual({
      dir: "/workspace/override/greet_override",
      name: "greet",
      code: "duplicate-name",
      reason: `the name "greet" is already taken by ${T}/greet; the first directory found wins`,
    });
  });

  it("python tools load when the caller can run python; builtinNames can be changed", async () => {
    const { tools, skipped } = await loadToolDirectories({
      workspace: ws,
      dirs: [T],
      languages: ["typescript", "javascript", "bash", "python"],
      builtinNames: ["greet"],
    });
    // directory order: py_hello, then read (from read_clash); greet is now a built-in name
    expect(tools.map((t) => t.name)).toEqual(["all_inputs", "export_rows", "fetch_status", "py_hello", "read", "slow_count"]);
    expect((tools.find((t) => t.name === "py_hello") as ToolDirectory).entry).toBe(`${T}/py_hello/index.py`);
    expect(skipped.find((s) => s.dir === `${T}/greet`)).toEqual({
      dir: `${T}/greet`,
      name: "greet",
      code: "builtin-name",
      reason: 'the name "greet" is a built-in tool\'s; give the tool another name',
    });
  });

  it("languages without bash skip bash tools with the reason", async () => {
    const { skipped } = await loadToolDirectories({ workspace: ws, dirs: [T], languages: ["typescript", "javascript"] });
    expect(skipped.find((s) => s.dir === `${T}/greet`)).toEqual({
      dir: `${T}/greet`,
      name: "greet",
      code: "language-unavailable",
      reason: 'bash tools cannot run here (the loader\'s languages do not include "bash")',
    });
  });
});

describe("loadToolDirectories validation", () => {
  it("a minimal tool gets the defaults: label = name, version 0, typescript, mutating, no inputs", async () => {
    await tool("x", "---\nname: tool_x\ndescription: Does x.\n---\n");
    const { tools, skipped } = await loadT();
    expect(skipped).toEqual([]);
    expect(tools).toEqual([
      {
        name: "tool_x",
        label: "tool_x",
        summary: "Does x.",
        body: "",
        description: "Does x.",
        version: 0,
        language: "typescript",
        inputs: {},
        mutating: true,
        env: [],
        dir: "/workspace/t/x",
        toolFile: "/workspace/t/x/TOOL.md",
        entry: "/workspace/t/x/index.ts",
        root: "/workspace/t",
      },
    ]);
  });

  it("entry files: typescript prefers index.ts, javascript index.js; either is accepted", async () => {
    await tool("a", md("", "ts_js_only"), "index.js");
    await tool("b", md("language: javascript\n", "js_ts_only"), "index.ts");
    await tool("c", md("language: javascript\n", "js_both"), "index.ts");
    await ws.fs.writeFile("/workspace/t/c/index.js", "export async function execute() {}\n");
    await tool("d", md("", "ts_both"), "index.js");
    await ws.fs.writeFile("/workspace/t/d/index.ts", "export async function execute() {}\n");
    const { tools } = await loadT();
    expect(tools.map((t) => [t.name, t.entry])).toEqual([
      ["ts_js_only", "/workspace/t/a/index.js"],
      ["js_ts_only", "/workspace/t/b/index.ts"],
      ["js_both", "/workspace/t/c/index.js"],
      ["ts_both", "/workspace/t/d/index.ts"],
    ]);
  });

  it("a bash tool needs index.sh; an index.ts does not do", async () => {
    await tool("b", md("language: bash\n"), "index.ts");
    expect((await loadT()).skipped).toEqual([
      { dir: "/workspace/t/b", name: "tool_x", code: "no-entry", reason: "no entry file: a bash tool needs index.sh next to TOOL.md" },
    ]);
  });

  it("passes over plain files and hidden directories; reports a directory without TOOL.md", async () => {
    await ws.fs.mkdir("/workspace/t/.git", { recursive: true });
    await ws.fs.writeFile("/workspace/t/.git/TOOL.md", md());
    await ws.fs.writeFile("/workspace/t/README.md", "# tools\n");
    await ws.fs.mkdir("/workspace/t/helpers");
    await ws.fs.mkdir("/workspace/t/dir_md");
    await ws.fs.mkdir("/workspace/t/dir_md/TOOL.md");
    expect((await loadT()).skipped).toEqual([
      { dir: "/workspace/t/dir_md", code: "no-tool-file", reason: "TOOL.md is not a regular file" },
      {
        dir: "/workspace/t/helpers",
        code: "no-tool-file",
        reason: "no TOOL.md in the directory; a tool directory holds TOOL.md and an entry file",
      },
    ]);
  });

  it("follows a link to a tool directory", async () => {
    await tool("real", md());
    await ws.fs.mkdir("/workspace/links");
    await ws.fs.symlink("/workspace/t/real", "/workspace/links/linked");
    const { tools } = await loadToolDirectories({ workspace: ws, dirs: ["/workspace/links"] });
    expect(tools.map((t) => [t.name, t.dir, t.entry])).toEqual([["tool_x", "/workspace/links/linked", "/workspace/links/linked/index.ts"]]);
  });

  it("front matter: missing opening, unclosed block, not a mapping, duplicate keys", async () => {
    await tool("a", "# Just markdown\n");
    await tool("b", "---\nname: tool_b\ndescription: b\n");
    await tool("c", "---\n- a list\n---\n");
    await tool("d", "---\nname: tool_d\nname: again\ndescription: d\n---\n");
    await tool("e", "\uFEFF---\r\nname: tool_e\r\ndescription: CRLF and a BOM.\r\n...\r\nBody\r\n");
    const { tools, skipped } = await loadT();
    expect(skipped).toEqual([
      {
        dir: "/workspace/t/a",
        code: "bad-front-matter",
        reason: "TOOL.md must start with a line `---` that opens the YAML front matter (name, description, …)",
      },
      { dir: "/workspace/t/b", code: "bad-front-matter", reason: "TOOL.md front matter is not closed: add a line `---` after the YAML" },
      {
        dir: "/workspace/t/c",
        code: "bad-front-matter",
        reason: "TOOL.md front matter must be a YAML mapping of fields (name: …, description: …)",
      },
      { dir: "/workspace/t/d", code: "bad-front-matter", reason: "TOOL.md front matter is not valid YAML: Map keys must be unique at line 3 of TOOL.md" },
    ]);
    expect(tools.map((t) => [t.name, t.summary, t.body])).toEqual([["tool_e", "CRLF and a BOM.", "Body"]]);
  });

  it("top-level fields: name, description, label, version, language, readonly, env", async () => {
    await tool("a", "---\ndescription: no name\n---\n");
    await tool("b", md("", "WebFetch"));
    await tool("c", md("", "9lives"));
    await tool("d", md("", "a".repeat(65)));
    await tool("e", "---\nname: tool_e\ndescription: '  '\n---\n");
    await tool("f", md("label: 3\nversion: -1\nlanguage: ruby\nreadonly: yes\n"));
    await tool("g", md("version: 1.5\nenv: [GOOD, 1BAD]\n"));
    await tool("h", md("version: '2'\ninputs: [a, b]\n"));
    await tool("i", md("env: {a: 1}\n"));
    const { skipped } = await loadT();
    expect(skipped.map((s) => [s.dir.slice(-1), s.name, s.reason])).toEqual([
      ["a", undefined, "TOOL.md: name is required (a snake_case call id such as web_fetch)"],
      ["b", "WebFetch", 'TOOL.md: name must be snake_case (a-z, 0-9 and _, starting with a letter), at most 64 characters; got "WebFetch"'],
      ["c", "9lives", 'TOOL.md: name must be snake_case (a-z, 0-9 and _, starting with a letter), at most 64 characters; got "9lives"'],
      ["d", "a".repeat(65), `TOOL.md: name must be snake_case (a-z, 0-9 and _, starting with a letter), at most 64 characters; got "${"a".repeat(38)}…`],
      ["e", "tool_e", 'TOOL.md: description must be a non-empty string; got "  "'],
      [
        "f",
        "tool_x",
        "TOOL.md: label must be a non-empty string; got 3; version must be a non-negative integer; got -1; language must be typescript, javascript, bash or python; got \"ruby\"; readonly must be true or false; got \"yes\"",
      ],
      ["g", "tool_x", 'TOOL.md: version must be a non-negative integer; got 1.5; env names must be letters, digits and _ (not starting with a digit); got "1BAD"'],
      ["h", "tool_x", 'TOOL.md: version must be a non-negative integer; got "2"; inputs must be a mapping from input name to {type, description, …}; got ["a","b"]'],
      ["i", "tool_x", 'TOOL.md: env must be a list of environment variable names; got {"a":1}'],
    ]);
    expect(skipped.every((s) => s.code === "invalid")).toBe(true);
  });

  it("a name that is not a string is not reported as the name", async () => {
    await tool("a", "---\nname: [x]\ndescription: d\n---\n");
    expect((await loadT()).skipped).toEqual([
      {
        dir: "/workspace/t/a",
        code: "invalid",
        reason: 'TOOL.md: name must be snake_case (a-z, 0-9 and _, starting with a letter), at most 64 characters; got ["x"]',
      },
    ]);
  });

  it("inputs: type, description, flags, enum values and defaults are checked against each other", async () => {
    const input = (dir: string, yaml: string) => tool(dir, md(`inputs:\n  p:\n${yaml.replace(/^/gm, "    ")}\n`));
    await input("a", "description: no type");
    await input("b", "type: string");
    await input("c", "type: enum\ndescription: no values");
    await input("d", "type: enum\ndescription: d\nvalues: 'a,,b'");
    await input("e", "type: enum\ndescription: d\nvalues: a,b,a");
    await input("f", "type: enum\ndescription: d\nvalues: a,b\ndefault: c");
    await input("g", "type: number\ndescription: d\ndefault: '3'");
    await input("h", "type: boolean\ndescription: d\ndefault: 1");
    await input("i", "type: string\ndescription: d\ndefault: 5");
    await input("j", "type: string\ndescription: d\nvalues: a,b");
    await input("k", "type: string\ndescription: d\noptional: 'no'\nsensitive: 1");
    await input("l", "type: enum\ndescription: d\nvalues: {a: 1}");
    await input("m", "type: number\ndescription: d\ndefault: .nan");
    await input("n", "type: string\ndescription: d\ndefault: null");
    await input("p", "type: string\ndescription: d\nsensitive: true\ndefault: hunter2");
    await tool("o", md("inputs:\n  9p:\n    type: string\n    description: d\n  q: just text\n"));
    const { skipped, tools } = await loadT();
    expect(tools).toEqual([]);
    expect(skipped.map((s) => [s.dir.slice(-1), s.reason])).toEqual([
      ["a", "TOOL.md: inputs.p.type is required (string, number, boolean or enum)"],
      ["b", "TOOL.md: inputs.p.description is required: say what the input is for"],
      ["c", 'TOOL.md: inputs.p.values is required for an enum input (comma-separated, e.g. "a,b")'],
      ["d", 'TOOL.md: inputs.p.values has an empty value; write them as "a,b,c"'],
      ["e", 'TOOL.md: inputs.p.values lists "a" twice'],
      ["f", 'TOOL.md: inputs.p.default must be one of "a", "b"; got "c"'],
      ["g", 'TOOL.md: inputs.p.default must be a number; got "3"'],
      ["h", "TOOL.md: inputs.p.default must be a boolean; got 1"],
      ["i", "TOOL.md: inputs.p.default must be a string; got 5"],
      ["j", 'TOOL.md: inputs.p.values is only for enum inputs; this one is "string"'],
      ["k", 'TOOL.md: inputs.p.optional must be true or false; got "no"; inputs.p.sensitive must be true or false; got 1'],
      ["l", 'TOOL.md: inputs.p.values must list the allowed values, comma-separated ("a,b") or as a YAML list; got {"a":1}'],
      ["m", "TOOL.md: inputs.p.default must be a number; got NaN"],
      ["n", "TOOL.md: inputs.p.default must be a string; got null"],
      [
        "o",
        'TOOL.md: input name "9p" must be letters, digits and _ (not starting with a digit), at most 64 characters; inputs.q must be a mapping with type and description; got "just text"',
      ],
      [
        "p",
        "TOOL.md: inputs.p.default is not allowed on a sensitive input (the schema shows defaults to the model); let the tool read the secret from its env",
      ],
    ]);
  });

  it("enum values are trimmed; a numeric default of an enum of numbers becomes its string", async () => {
    await tool("a", md("inputs:\n  level:\n    type: enum\n    description: d\n    values: ' 1 , 2 ,3'\n    default: 2\n"));
    const [t] = (await loadT()).tools;
    expect(t.inputs.level).toEqual({ name: "level", type: "enum", description: "d", optional: false, sensitive: false, values: ["1", "2", "3"], default: "2" });
  });

  it("lists at most five problems", async () => {
    const inputs = Array.from({ length: 7 }, (_, i) => `  p${i}:\n    type: date\n    description: d\n`).join("");
    await tool("a", md(`inputs:\n${inputs}`));
    expect((await loadT()).skipped[0].reason).toBe(
      'TOOL.md: inputs.p0.type must be string, number, boolean or enum; got "date"; inputs.p1.type must be string, number, boolean or enum; got "date"; inputs.p2.type must be string, number, boolean or enum; got "date"; inputs.p3.type must be string, number, boolean or enum; got "date"; inputs.p4.type must be string, number, boolean or enum; got "date"; and 2 more',
    );
  });

  it("a TOOL.md over 256 KiB is skipped without being read whole", async () => {
    await tool("big", md() + "x".repeat(MAX_TOOL_FILE_BYTES));
    const size = (await ws.fs.stat("/workspace/t/big/TOOL.md")).size;
    expect((await loadT()).skipped).toEqual([
      { dir: "/workspace/t/big", code: "too-large", reason: `TOOL.md is ${size} bytes; the limit is 262144 bytes (256 KiB)` },
    ]);
  });

  it("an alias bomb in the front matter is refused", async () => {
    const bomb = ["a: &a [x, x, x, x, x, x, x, x, x, x]", "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]", "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]"].join("\n");
    await tool("a", `---\nname: tool_a\ndescription: d\n${bomb}\n---\n`);
    const { skipped } = await loadT();
    expect(skipped).toEqual([
      {
        dir: "/workspace/t/a",
        code: "bad-front-matter",
        reason: "TOOL.md front matter is not valid YAML: Excessive alias count indicates a resource exhaustion attack",
      },
    ]);
  });

  it("maxTools and maxEntries bound the work and say so", async () => {
    for (const n of [1, 2, 3]) await tool(`t${n}`, md("", `tool_${n}`));
    const limited = await loadT({ maxTools: 2 });
    expect(limited.tools.map((t) => t.name)).toEqual(["tool_1", "tool_2"]);
    expect(limited.skipped).toEqual([
      { dir: "/workspace/t/t3", name: "tool_3", code: "limit", reason: "more than 2 tools (maxTools); this one was not loaded" },
    ]);
    const entries = await loadT({ maxEntries: 1 });
    expect(entries.tools.map((t) => t.name)).toEqual(["tool_1"]);
    expect(entries.skipped).toEqual([
      { dir: "/workspace/t", code: "limit", reason: "only the first 1 entries of the tools directory were examined (maxEntries)" },
    ]);
  });

  it("a missing tools directory is ignored; a file in its place is reported", async () => {
    await ws.fs.mkdir("/workspace");
    await ws.fs.writeFile("/workspace/file", "x");
    const { tools, skipped } = await loadToolDirectories({ workspace: ws, dirs: "/workspace/nope::/workspace/file" });
    expect(tools).toEqual([]);
    expect(skipped).toHaveLength(1);
    expect(skipped[0]).toMatchObject({ dir: "/workspace/file", code: "unreadable" });
    expect(skipped[0].reason).toMatch(/^cannot list the tools directory: ENOTDIR: /);
  });

  it("a filesystem failure inside one tool directory skips that tool only", async () => {
    await tool("a", md("", "tool_a"));
    await tool("b", md("", "tool_b"));
    const failing = {
      fs: {
        readdir: ws.fs.readdir.bind(ws.fs),
        stat: ws.fs.stat.bind(ws.fs),
        readFile: ((path: string, options: unknown) => {
          if (path === "/workspace/t/a/TOOL.md") return Promise.reject(new Error("EIO: disk on fire"));
          return (ws.fs.readFile as (p: string, o: unknown) => Promise<string>)(path, options);
        }) as typeof ws.fs.readFile,
      },
    };
    const { tools, skipped } = await loadToolDirectories({ workspace: failing, dirs: ["/workspace/t"] });
    expect(tools.map((t) => t.name)).toEqual(["tool_b"]);
    expect(skipped).toEqual([{ dir: "/workspace/t/a", code: "unreadable", reason: "cannot read the tool directory: EIO: disk on fire" }]);
  });

  it("bad options throw TypeErrors that say what to pass", async () => {
    await expect(loadToolDirectories({ workspace: ws, dirs: ["tools"] })).rejects.toThrow(
      new TypeError('loadToolDirectories: dirs must be absolute Workspace paths; got "tools"'),
    );
    await expect(loadToolDirectories({ workspace: ws, dirs: [T], maxTools: 0 })).rejects.toThrow(
      new TypeError("loadToolDirectories: maxTools must be a positive integer; got 0"),
    );
    await expect(loadToolDirectories({ workspace: ws, dirs: [T], languages: ["ruby" as never] })).rejects.toThrow(
      new TypeError('loadToolDirectories: unknown language "ruby" in languages; use typescript, javascript, bash, python'),
    );
    await expect(loadToolDirectories({ dirs: [T] } as never)).rejects.toThrow(
      new TypeError("loadToolDirectories: pass { workspace, dirs } with a Workspace (or a client) as workspace"),
    );
  });
});
