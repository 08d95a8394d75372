/**
 * What the model sees, through each library's own loop (AI SDK generateText
 * + MockLanguageModelV4, pi 0.74 and 1.x faux loops, TanStack chat()): an
 * image past maxImageDimension becomes a text naming its size, read's
 * description states its line-number prefix, edit's refusals say where the
 * text nearly is, and find/grep say how dot-directories are treated.
 */
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { call, done, outputFor } from "../../shared/loops/ai-sdk.js";
import { PI_MAJORS, step, type PiLoopResult } from "../../shared/loops/pi.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import { toBase64 } from "../../../src/util/bytes.js";
import { setup, text } from "./helpers.js";
import { png } from "./image-headers.js";
import { runChat } from "./tanstack-helpers.js";

type Call = { id: string; name: string; input: Record<string, unknown> };
type Options = Omit<Parameters<typeof createAITools>[0], "workspace">;

/** Runs the same calls (one step each) through all four loops; each loop gets a fresh copy of `files`. */
async function throughAll(files: Record<string, string | Uint8Array>, options: Options, calls: Call[]) {
  const ai = await setup(files);
  const model = new MockLanguageModelV4({ doGenerate: [...calls.map((c) => call(c.id, c.name, c.input)), done] });
  await generateText({ model, prompt: "go", tools: createAITools({ workspace: ai.workspace, ...options }), stopWhen: stepCountIs(calls.length + 2) });
  const ts = await setup(files);
  const chat = await runChat(createTanStackTools({ workspace: ts.workspace, ...options }), [...calls.map((c) => ({ calls: [c] })), { text: "done" }]);
  const pi: Array<{ major: string; results: PiLoopResult["results"] }> = [];
  for (const { major, runLoop } of loops) {
    const p = await setup(files);
    const { results } = await runLoop(createPiTools({ workspace: p.workspace, ...options }), [
      ...calls.map((c) => step(major, major.fauxToolCall(c.name, c.input, { id: c.id }))),
      major.fauxAssistantMessage("done"),
    ]);
    pi.push({ major: major.name, results });
  }
  return { ai: (id: string) => outputFor(model, id), ts: chat.toolMessage, pi, offered: { ai: model.doGenerateCalls[0]!.tools!, ts: chat.seen[0]!.tools } };
}

const loops = PI_MAJORS.map((major) => ({ major, runLoop: major.piLoop() }));

const tooBig = (path: string, w: number, h: number, max: number) =>
  `${path} is ${w}×${h} px, larger than the ${max} px per side the model accepts, so it was not attached. To see it, read a copy scaled or cropped to at most ${max} px per side (made with an image tool, if one is available).`;

describe("images past maxImageDimension reach the model as text, in every adapter", () => {
  const wide = png(9600, 1200);
  const edge = png(8000, 1200);
  const files = { "/workspace/wide.png": wide, "/workspace/edge.png": edge };
  const calls = [
    { id: "wide", name: "read", input: { path: "/workspace/wide.png" } },
    { id: "edge", name: "read", input: { path: "/workspace/edge.png" } },
  ];

  it("default 8000: the 9600×1200 PNG is a text result, the 8000×1200 PNG is attached", async () => {
    const seen = await throughAll(files, {}, calls);
    const wideText = tooBig("/workspace/wide.png", 9600, 1200, 8000);
    const edgeText = `Read /workspace/edge.png (image/png, ${edge.byteLength} bytes).`;
    const wideRaw = { kind: "image", path: "/workspace/wide.png", name: "wide.png", mediaType: "image/png", sizeBytes: wide.byteLength, width: 9600, height: 1200 };
    expect(seen.ai("wide")).toEqual({ type: "error-text", value: wideText });
    expect(seen.ai("edge")).toEqual({
      type: "content",
      value: [
        { type: "text", text: edgeText },
        { type: "file", data: { type: "data", data: toBase64(edge) }, mediaType: "image/png", filename: "edge.png" },
      ],
    });
    expect(JSON.parse(seen.ts("wide") as string)).toEqual({ error: wideText });
    expect(seen.ts("edge")).toEqual([
      { type: "text", content: edgeText },
      { type: "image", source: { type: "data", value: toBase64(edge), mimeType: "image/png" } },
    ]);
    for (const { major, results } of seen.pi) {
      expect(results.get("wide"), major).toMatchObject({ content: [{ type: "text", text: wideText }], isError: true, details: wideRaw });
      expect(results.get("edge")!.content, major).toEqual([
        { type: "text", text: edgeText },
        { type: "image", data: toBase64(edge), mimeType: "image/png" },
      ]);
      expect(results.get("edge")!.isError, major).toBe(false);
    }
  });

  it("read: { maxImageDimension: 4000 }: both are text results naming 4000", async () => {
    const seen = await throughAll(files, { read: { maxImageDimension: 4000 } }, calls);
    for (const [id, w] of [["wide", 9600], ["edge", 8000]] as const) {
      const expected = tooBig(`/workspace/${id}.png`, w, 1200, 4000);
      expect(seen.ai(id)).toEqual({ type: "error-text", value: expected });
      expect(JSON.parse(seen.ts(id) as string)).toEqual({ error: expected });
      for (const { major, results } of seen.pi) expect(results.get(id), major).toMatchObject({ content: [{ type: "text", text: expected }], isError: true });
    }
  });
});

const READ_NUMBERED =
  'Read a file from the workspace. Text comes back by line; images (PNG, JPEG, GIF, WebP; at most 8000 px per side) and PDFs are passed to models that accept them. Each line of text comes back as its line number, one tab, then the line exactly as in the file: line 12 "  return x;" reads "12\\t  return x;". That prefix is not part of the file: leave it out of edit\'s oldText and of anything you write. Text output is capped at 2000 lines or 256KB per call, whichever comes first. A truncated result has truncated: true, totalLines: null, nextOffset and nextByteOffset: to continue, call read again with offset = nextOffset and byteOffset = nextByteOffset instead of re-reading the file. Use offset and limit to read a specific range of lines. Paths are absolute.';
const READ_PLAIN =
  "Read a file from the workspace. Text comes back by line; images (PNG, JPEG, GIF, WebP; at most 8000 px per side) and PDFs are passed to models that accept them. Text output is capped at 2000 lines or 256KB per call, whichever comes first. A truncated result has truncated: true, totalLines: null, nextOffset and nextByteOffset: to continue, call read again with offset = nextOffset and byteOffset = nextByteOffset instead of re-reading the file. Use offset and limit to read a specific range of lines. Paths are absolute.";
const FIND =
  'Find files and directories in the workspace whose path matches a glob: * stays within one path segment, ** crosses directories, and ? matches one character. Results come in depth-first order, at most 200 per call by default (limit up to 1000) and at most 256KB; when nextOffset is present, call again with offset = nextOffset. Paths longer than 4096 characters are cut (clipped: true). Use exclude to prune directories such as node_modules. Dot-files and dot-directories (.git, .env) are matched and searched like any other name (* and ** match a leading dot); to leave them out, name them in exclude, e.g. [".git", ".git/**"].';
const GREP_DOTS = 'Files in dot-directories such as .git are searched like any others; to leave them out, name them in exclude, e.g. [".git", ".git/**"].';

describe("descriptions: read's line-number prefix, find/grep and dot-directories", () => {
  it("each adapter offers the same texts", async () => {
    const { workspace } = await setup();
    const described = (options: Options) => {
      const ai = createAITools({ workspace, ...options });
      const pi = createPiTools({ workspace, ...options });
      const ts = createTanStackTools({ workspace, ...options, format: "object" });
      const get = (name: string) => {
        const texts = [ai[name]!.description, pi.tools.find((t) => t.name === name)!.description, ts[name]!.description];
        expect(new Set(texts).size, name).toBe(1);
        return texts[0];
      };
      return { read: get("read"), find: get("find"), grep: get("grep") };
    };
    const numbered = described({ read: { includeLineNumbers: true } });
    expect(numbered.read).toBe(READ_NUMBERED);
    expect(described({}).read).toBe(READ_PLAIN);
    expect(described({ read: { includeLineNumbers: false } }).read).toBe(READ_PLAIN);
    expect(numbered.find).toBe(FIND);
    expect(numbered.grep).toContain(` Narrow the search with include and exclude globs. ${GREP_DOTS}`);
  });

  it("what the descriptions say is what find and grep do: dot-directories are searched unless excluded", async () => {
    const { workspace } = await setup({ "/workspace/.git/config": "url = origin\n", "/workspace/.env": "KEY=origin\n", "/workspace/src/a.ts": "origin\n" });
    const tools = createAITools({ workspace });
    const run = (name: string, input: object) => tools[name]!.execute!(input as never, { toolCallId: "t", messages: [] } as never);
    const paths = (r: unknown) => (r as { entries: Array<{ path: string }> }).entries.map((e) => e.path);
    expect(paths(await run("find", { pattern: "**" }))).toEqual(["/workspace/.env", "/workspace/.git", "/workspace/.git/config", "/workspace/src", "/workspace/src/a.ts"]);
    expect(paths(await run("find", { pattern: "*" }))).toEqual(["/workspace/.env", "/workspace/.git", "/workspace/src"]);
    expect(paths(await run("find", { pattern: "**", exclude: [".git", ".git/**", ".env"] }))).toEqual(["/workspace/src", "/workspace/src/a.ts"]);
    const grepPaths = (r: unknown) => (r as { matches: Array<{ path: string }> }).matches.map((m) => m.path);
    expect(grepPaths(await run("grep", { query: "origin" }))).toEqual(["/workspace/.env", "/workspace/.git/config", "/workspace/src/a.ts"]);
    expect(grepPaths(await run("grep", { query: "origin", exclude: [".git", ".git/**"] }))).toEqual(["/workspace/.env", "/workspace/src/a.ts"]);
  });
});

describe("edit's refusals steer the next call, in every adapter", () => {
  const P = "/workspace/main.go";
  const file = "package main\n\nfunc main() {\n\tx := 1\n\tif x > 0 {\n\t\tprintln(x)\n\t}\n\tx := 1\n}\n";
  const calls = [
    { id: "read", name: "read", input: { path: P } },
    { id: "prefix", name: "edit", input: { path: P, edits: [{ oldText: "5\t\tif x > 0 {\n6\t\t\tprintln(x)", newText: "\tif x > 1 {\n\t\tprintln(x)" }] } },
    { id: "spaces", name: "edit", input: { path: P, edits: [{ oldText: "package main", newText: "package app" }, { oldText: "    if x > 0 {", newText: "\tif x > 1 {" }] } },
    { id: "twice", name: "edit", input: { path: P, edits: [{ oldText: "x := 1", newText: "x := 2" }] } },
  ];
  const base = `Could not find the exact text in ${P}. The old text must match exactly including all whitespace and newlines.`;
  const prefix = `${base} oldText starts with "5\\t", a line-number prefix from read's output; remove such prefixes from every line of oldText: they are not part of the file. Without them, the text matches from line 5 of the file.`;
  const spaces = `Could not find edits[1] in ${P}. The oldText must match exactly including all whitespace and newlines. The closest line in the file is line 5: "\\tif x > 0 {". The file indents with tabs (line 5 starts with "\\t") where edits[1].oldText uses spaces ("    "); copy the indentation exactly.`;
  const twice = `Found 2 occurrences of the text in ${P}, on lines 4 and 8. The text must be unique. Please provide more context to make it unique.`;
  const numbered = "1\tpackage main\n2\t\n3\tfunc main() {\n4\t\tx := 1\n5\t\tif x > 0 {\n6\t\t\tprintln(x)\n7\t\t}\n8\t\tx := 1\n9\t}";

  it("a numbered read, then the prefix copied into oldText, spaces for tabs, a repeated oldText", async () => {
    const seen = await throughAll({ [P]: file }, { read: { includeLineNumbers: true } }, calls);
    expect(seen.ai("read")).toEqual({ type: "text", value: numbered });
    expect(seen.ai("prefix")).toEqual({ type: "json", value: { error: prefix } });
    expect(seen.ai("spaces")).toEqual({ type: "json", value: { error: spaces } });
    expect(seen.ai("twice")).toEqual({ type: "json", value: { error: twice } });
    expect(seen.ts("read")).toBe(numbered);
    for (const [id, error] of [["prefix", prefix], ["spaces", spaces], ["twice", twice]] as const) {
      expect(JSON.parse(seen.ts(id) as string)).toEqual({ error });
      for (const { major, results } of seen.pi) expect(results.get(id), `${major} ${id}`).toMatchObject({ content: [{ type: "text", text: error }], isError: true, details: { error } });
    }
    for (const { major, results } of seen.pi) expect(results.get("read")!.content, major).toEqual([{ type: "text", text: numbered }]);
    // The model was offered the description that states the prefix.
    const aiRead = (seen.offered.ai as Array<{ name: string; description?: string }>).find((t) => t.name === "read")!;
    expect(aiRead.description).toBe(READ_NUMBERED);
    const tsRead = (seen.offered.ts as Array<{ name: string; description?: string }>).find((t) => t.name === "read")!;
    expect(tsRead.description).toBe(READ_NUMBERED);
  });

  it("the file is untouched by every refused edit", async () => {
    const { workspace } = await setup({ [P]: file });
    const tools = createAITools({ workspace });
    for (const c of calls.slice(1)) await tools.edit!.execute!(c.input as never, { toolCallId: c.id, messages: [] } as never);
    expect(await text(workspace, P)).toBe(file);
  });
});
