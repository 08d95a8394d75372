/**
 * Probe 19: malformed and edge-case TOOL.md files against the loader and
 * sync (docs/tool-directories.md "TOOL.md", "Loading", "Sync") on a Node
 * Workspace. Plain `it`: documented behaviour that holds, with exact
 * reasons. `it.fails`: a finding (expected vs actual, severity in the comment).
 */
import { beforeEach, describe, expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { loadToolDirectories, syncToolDirectories } from "../../../src/tool-dirs/index.js";

let ws: Workspace;
beforeEach(() => {
  ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
  return () => ws.close();
});

/** Writes /t/<dir>/TOOL.md with `text` plus index.ts and index.sh, and loads /t. */
async function loadOne(dir: string, text: string) {
  await ws.fs.mkdir(`/t/${dir}`, { recursive: true });
  await ws.fs.writeFile(`/t/${dir}/TOOL.md`, text);
  await ws.fs.writeFile(`/t/${dir}/index.ts`, "export async function execute() { return { content: [] }; }\n");
  await ws.fs.writeFile(`/t/${dir}/index.sh`, "echo hi\n");
  return loadToolDirectories({ workspace: ws, dirs: ["/t"] });
}

const skip = async (text: string) => (await loadOne("x", text)).skipped.map((s) => [s.code, s.reason]);
const fm = (more: string, name = "tool_x") => `---\nname: ${name}\ndescription: Does x.\n${more}---\nBody.\n`;

describe("malformed TOOL.md: skipped with the documented code and a reason that says what to fix", () => {
  it("documented examples: duplicate key, too large, unknown type, bash case clash", async () => {
    expect(await skip("---\nname: a_b\nname: again\ndescription: x\n---\n")).toEqual([["bad-front-matter", "TOOL.md front matter is not valid YAML: Map keys must be unique at line 3 of TOOL.md"]]);
    expect(await skip(fm("") + "a".repeat(300_000 - fm("").length))).toEqual([["too-large", "TOOL.md is 300000 bytes; the limit is 262144 bytes (256 KiB)"]]);
    expect(await skip(fm("inputs:\n  when:\n    type: date\n    description: d\n"))).toEqual([["invalid", 'TOOL.md: inputs.when.type must be string, number, boolean or enum; got "date"']]);
    expect(await skip(fm("language: bash\ninputs:\n  foo:\n    type: string\n    description: a\n  FOO:\n    type: string\n    description: b\n"))).toEqual([
      ["invalid", 'TOOL.md: inputs "foo" and "FOO" both become the variable INPUT_FOO of a bash tool; rename one (input names must differ in more than letter case)'],
    ]);
  });

  it("no opening ---, no closing ---, a list, tabs, a YAML alias bomb: bad-front-matter, bounded", async () => {
    expect(await skip("")).toEqual([["bad-front-matter", "TOOL.md must start with a line `---` that opens the YAML front matter (name, description, …)"]]);
    expect(await skip("---\nname: a\ndescription: x\n")).toEqual([["bad-front-matter", "TOOL.md front matter is not closed: add a line `---` after the YAML"]]);
    expect(await skip("---\n- a\n---\n")).toEqual([["bad-front-matter", "TOOL.md front matter must be a YAML mapping of fields (name: …, description: …)"]]);
    expect(await skip("---\nname: a\ndescription: x\ninputs:\n\tfoo: 1\n---\n")).toEqual([["bad-front-matter", "TOOL.md front matter is not valid YAML: Tabs are not allowed as indentation at line 5 of TOOL.md"]]);
    const levels = ["a: &a [x,x,x,x,x,x,x,x,x,x]"];
    for (let i = 1; i < 8; i++) levels.push(`${"abcdefgh"[i]}: &${"abcdefgh"[i]} [${Array(10).fill(`*${"abcdefgh"[i - 1]}`).join(",")}]`);
    expect(await skip(`---\nname: bomb\ndescription: x\n${levels.join("\n")}\n---\n`)).toEqual([
      ["bad-front-matter", "TOOL.md front matter is not valid YAML: Excessive alias count indicates a resource exhaustion attack"],
    ]);
  });

  it("bad fields: name, version, readonly, env, enum values, defaults, sensitive default", async () => {
    expect(await skip(fm("", "BadName"))).toEqual([["invalid", 'TOOL.md: name must be snake_case (a-z, 0-9 and _, starting with a letter), at most 64 characters; got "BadName"']]);
    expect(await skip(fm("version: 1.5\n"))).toEqual([["invalid", "TOOL.md: version must be a non-negative integer; got 1.5"]]);
    expect(await skip(fm("readonly: yes\n"))).toEqual([["invalid", 'TOOL.md: readonly must be true or false; got "yes"']]);
    expect(await skip(fm('env: ["my-var"]\n'))).toEqual([["invalid", 'TOOL.md: env names must be letters, digits and _ (not starting with a digit); got "my-var"']]);
    expect(await skip(fm("inputs:\n  m:\n    type: enum\n    description: m\n    values: a, b, a\n"))).toEqual([["invalid", 'TOOL.md: inputs.m.values lists "a" twice']]);
    expect(await skip(fm("inputs:\n  m:\n    type: enum\n    description: m\n    values: a,b\n    default: c\n"))).toEqual([["invalid", 'TOOL.md: inputs.m.default must be one of "a", "b"; got "c"']]);
    expect(await skip(fm("inputs:\n  k:\n    type: string\n    description: k\n    sensitive: true\n    default: abc\n"))).toEqual([
      ["invalid", "TOOL.md: inputs.k.default is not allowed on a sensitive input (the schema shows defaults to the model); let the tool read the secret from its env"],
    ]);
    expect(await skip(fm("", "exec"))).toEqual([["builtin-name", 'the name "exec" is a built-in tool\'s; give the tool another name']]);
  });

  it("CRLF line endings and a UTF-8 BOM load (files written on Windows)", async () => {
    const { tools } = await loadOne("crlf", "\uFEFF---\r\nname: crlf_tool\r\ndescription: CRLF file.\r\n---\r\nBody.\r\n");
    expect(tools.map((t) => [t.name, t.description])).toEqual([["crlf_tool", "CRLF file.\n\nBody."]]);
  });

  it("`dirs` as a ':'-separated string; a missing directory is ignored; hidden directories and loose files are passed over", async () => {
    await ws.fs.mkdir("/t/.hidden", { recursive: true });
    await ws.fs.writeFile("/t/loose.txt", "x");
    await ws.fs.mkdir("/t/a_tool", { recursive: true });
    await ws.fs.writeFile("/t/a_tool/TOOL.md", fm("", "a_tool"));
    await ws.fs.writeFile("/t/a_tool/index.ts", "export async function execute() { return { content: [] }; }\n");
    const r = await loadToolDirectories({ workspace: ws, dirs: "/nope:/t" });
    expect([r.tools.map((t) => t.name), r.skipped]).toEqual([["a_tool"], []]);
  });

  // FINDING (low): a present but non-string description is reported as missing: `description: 42` gives
  // "description is required: say what the tool does…", which sends the author looking for a missing line.
  // Expected: "description must be a non-empty string; got 42" (as `label` does: "label must be a non-empty string; got {…}").
  // FIXED (validate.ts / sync.ts).
  it("description: 42 is reported as the wrong type, not as missing", async () => {
    expect(await skip("---\nname: d42\ndescription: 42\n---\n")).toEqual([["invalid", "TOOL.md: description must be a non-empty string; got 42"]]);
  });

  // FINDING (low): YAML's .nan / .inf are quoted as `null` (JSON.stringify) in the reason: `default: .nan` on a number
  // input gives "inputs.n.default must be a number; got null", `version: .inf` gives "version … got null".
  // Expected: the reason names the value given (NaN / Infinity).
  // FIXED (validate.ts / sync.ts).
  it("default: .nan and version: .inf are quoted as NaN / Infinity, not null", async () => {
    const r = await skip(fm("version: .inf\ninputs:\n  n:\n    type: number\n    description: n\n    default: .nan\n"));
    expect(r[0]![1]).not.toContain("got null");
  });

  // FINDING (low): docs say input names are "letters, digits and _, not starting with a digit". `__proto__` is exactly
  // that, yet it is refused with a reason restating the rule it meets: 'input name "__proto__" must be letters, digits
  // and _ (not starting with a digit), at most 64 characters'. Refusing is right; the reason should say the name is reserved.
  // FIXED (validate.ts / sync.ts).
  it("an input named __proto__ is refused with a reason that says why (reserved), not the charset rule it meets", async () => {
    const r = await skip(fm("inputs:\n  __proto__:\n    type: string\n    description: p\n"));
    expect(r[0]![1]).not.toContain("must be letters, digits and _");
  });
});

describe("sync with bad targets", () => {
  it("from == to and nested: TypeError; a relative path: TypeError; a missing seed: one skipped entry", async () => {
    const err = async (f: () => Promise<unknown>) => f().then(() => "no error", (e: Error) => `${e.name}: ${e.message}`);
    expect(await err(() => syncToolDirectories({ workspace: ws, from: "/t", to: "/t/sub" }))).toBe(
      "TypeError: syncToolDirectories: from (/t) and to (/t/sub) must not be the same directory or contain each other",
    );
    expect(await err(() => syncToolDirectories({ workspace: ws, from: "t", to: "/w" }))).toBe('TypeError: syncToolDirectories: from must be an absolute Workspace path; got "t"');
    expect(await syncToolDirectories({ workspace: ws, from: "/nope", to: "/w" })).toEqual({
      copied: [],
      kept: [],
      skipped: [{ dir: "/nope", reason: "cannot list the seed tools directory: ENOENT: no such file or directory, readdir: /nope" }],
    });
  });

  // FINDING (low): `to` that is a file (not a directory) is not reported once; every seed tool is skipped with its own
  // "copy failed: EEXIST: file already exists, mkdir: /file", which reads as if the tools were at fault.
  // Expected: one skipped entry (or a TypeError) saying `to` is not a directory.
  // FIXED (validate.ts / sync.ts).
  it("`to` that is a regular file is one clear error, not one EEXIST per tool", async () => {
    for (const n of ["a_one", "a_two"]) {
      await ws.fs.mkdir(`/seed/${n}`, { recursive: true });
      await ws.fs.writeFile(`/seed/${n}/TOOL.md`, fm("", n));
      await ws.fs.writeFile(`/seed/${n}/index.ts`, "export async function execute() { return { content: [] }; }\n");
    }
    await ws.fs.writeFile("/file", "x");
    const r = await syncToolDirectories({ workspace: ws, from: "/seed", to: "/file" });
    expect(r.skipped.length).toBe(1);
  });
});
