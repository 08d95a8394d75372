/**
 * Fixer FA2, run 23 (siblings of attack23a grep-tool-echoes-query-past-max-bytes and
 * pi-unknown-tool-name-echoed-whole): what a tool result echoes of the model's call is bounded.
 * - grep: the echoed `query` is whole up to 4,096 characters, else its first 4,096 then `[… N characters cut …]`
 *   (as ls/find show a long path); the whole query is searched, literal or regex (a character class compiles small
 *   whatever its length).
 * - grep, find, ls: the echoed `path` is cut the same way, so a path of control characters (JSON writes each as six)
 *   cannot take the result past maxBytes.
 * - pi: an unknown tool name that is not a string is quoted by jsonCut; a 64-character name whole; a cut never
 *   splits a surrogate pair.
 */
import { describe, expect, it } from "vitest";
import { buildCoreTools } from "../../../src/tools/core/toolset.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { setup } from "../tools/helpers.js";

const MAX_BYTES = 262_144;
const bytesOf = (v: unknown) => Buffer.byteLength(JSON.stringify(v), "utf8");

async function tools() {
  const { workspace } = await setup({ "/workspace/a.txt": "one x\n" });
  const all = buildCoreTools({ workspace });
  const get = (name: string) => {
    const tool = all.find((t) => t.name === name)!;
    return (input: Record<string, unknown>) => tool.execute(input as never, {} as never) as Promise<Record<string, unknown>>;
  };
  return { grep: get("grep"), find: get("find"), ls: get("ls") };
}

describe("grep: the echoed query", () => {
  it("is whole up to 4,096 characters, then its first 4,096 and a marker; the whole query is searched", async () => {
    const { workspace } = await setup({ "/workspace/a.txt": "one x\n", "/workspace/long.txt": `<${"y".repeat(5000)}>\n` });
    const grep = buildCoreTools({ workspace }).find((t) => t.name === "grep")!;
    const run = (input: Record<string, unknown>) => grep.execute(input as never, {} as never) as Promise<Record<string, unknown>>;
    const at = "y".repeat(4096);
    expect(await run({ path: "/workspace", query: at })).toMatchObject({ path: "/workspace", query: at, count: 1 });
    // 5,000 characters: found (the whole literal is searched), echoed cut.
    const hit = await run({ path: "/workspace", query: "y".repeat(5000) + ">" });
    expect(hit).toEqual({
      path: "/workspace",
      query: `${at}[… 905 characters cut …]`,
      count: 1,
      matches: [{ path: "/workspace/long.txt", line: 1, text: `<${"y".repeat(499)}[… 4502 characters cut …]`, column: 2, clipped: true }],
      note: expect.stringMatching(/^Lines longer than 500 characters were cut/),
    });
    // One more y than the line holds: no match — the cut echo is not what was searched.
    expect(await run({ path: "/workspace", query: "y".repeat(5001) + ">" })).toMatchObject({ count: 0, matches: [] });
    // ignoreCase and control characters: the echo is cut the same way, never half a pair.
    const control = "a".repeat(4095) + "\u{1F600}" + "\u0001".repeat(300_000);
    const r = await run({ path: "/workspace", query: control, ignoreCase: true });
    expect(r).toEqual({ path: "/workspace", query: `${"a".repeat(4095)}[… 300002 characters cut …]`, count: 0, matches: [] });
    expect(bytesOf(r)).toBeLessThan(5000);
  });

  it("a regex character class past 4,096 characters is searched and echoed cut", async () => {
    const { grep } = await tools();
    const cls = "[" + "x".repeat(9998) + "]";
    const r = await grep({ path: "/workspace", query: cls, regex: true });
    expect(r).toEqual({ path: "/workspace", query: `${cls.slice(0, 4096)}[… 5904 characters cut …]`, count: 1, matches: [{ path: "/workspace/a.txt", line: 1, text: "one x" }] });
  });
});

describe("grep, find, ls: the echoed path", () => {
  // `\u0001/..` steps into a name and out again: 250,010 characters that normalise to /workspace.
  const path = "/workspace" + "/\u0001/..".repeat(50_000);
  const shownPath = path.slice(0, 4096) + `[… ${path.length - 4096} characters cut …]`;

  it("is cut to 4,096 characters and the result stays within maxBytes", async () => {
    const { grep, find, ls } = await tools();
    const g = await grep({ path, query: "one" });
    expect(g).toEqual({ path: shownPath, query: "one", count: 1, matches: [{ path: "/workspace/a.txt", line: 1, text: "one x" }] });
    const f = await find({ path, pattern: "*.txt" });
    expect(f).toEqual({ path: shownPath, pattern: "*.txt", count: 1, entries: [{ path: "/workspace/a.txt", type: "file" }] });
    const l = await ls({ path });
    expect(l.path).toBe(shownPath);
    expect((l.entries as { name: string }[]).map((e) => e.name)).toEqual(["a.txt"]);
    // Before: 500,214 / 500,099 / 500,148 bytes (each U+0001 written as \u0001).
    for (const r of [g, f, l]) expect(bytesOf(r)).toBeLessThanOrEqual(MAX_BYTES);
  });

  it("a path of 4,096 characters is echoed whole", async () => {
    const { grep } = await tools();
    const exact = "/workspace" + "/.".repeat((4096 - 10) / 2);
    expect(exact.length).toBe(4096);
    expect(await grep({ path: exact, query: "one" })).toMatchObject({ path: exact, count: 1 });
  });
});

describe("pi: an unknown tool name", () => {
  it("is quoted whole up to 64 characters, by jsonCut when not a string, never half a pair", async () => {
    const { workspace } = await setup();
    const pi = createPiTools({ workspace });
    const available = pi.tools.map((t) => JSON.stringify(t.name)).join(", ");
    const text = async (name: unknown) => {
      const r = await pi.execute({ id: "1", name } as never);
      expect(r.isError).toBe(true);
      return (r.content[0] as { text: string }).text;
    };
    expect(await text("n".repeat(64))).toBe(`Unknown tool "${"n".repeat(64)}". Available tools: ${available}.`);
    expect(await text("n".repeat(63) + "\u{1F600}")).toBe(`Unknown tool "${"n".repeat(63)}…" (65 characters). Available tools: ${available}.`);
    expect(await text(undefined)).toBe(`Unknown tool undefined. Available tools: ${available}.`);
    expect(await text(12)).toBe(`Unknown tool 12. Available tools: ${available}.`);
    expect(await text(["x".repeat(100)])).toBe(`Unknown tool ${`["${"x".repeat(100)}"]`.slice(0, 64)}… (104 characters). Available tools: ${available}.`);
  });
});
