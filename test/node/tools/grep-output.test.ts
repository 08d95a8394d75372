/**
 * grep output a model can use (issue 12 §2, issue 20 §6): files that look
 * binary are skipped and counted, long lines are clipped around their match,
 * and the whole result stays under a byte cap with a continuation that
 * returns every match exactly once — through the core tool and through the
 * AI SDK, pi (both majors) and TanStack loops.
 */
import v8 from "node:v8";
import vm from "node:vm";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { LONG_LINE, LONG_LINE_CLIPPED, odsBytes } from "../../shared/fs/grep-bounds.cases.js";
import { call, done, outputFor } from "../../shared/loops/ai-sdk.js";
import { PI_MAJORS, step } from "../../shared/loops/pi.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { grepDefinition } from "../../../src/tools/core/grep.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import { setup } from "./helpers.js";
import { runChat } from "./tanstack-helpers.js";

type Match = { path: string; line: number; text: string; column?: number; clipped?: boolean; context?: Array<{ line: number; text: string; isMatch: boolean; clipped?: boolean }> };
type Result = { path: string; query: string; count: number; matches: Match[]; binarySkipped?: number; note?: string; nextOffset?: number };

const CLIP_NOTE = 'Lines longer than 500 characters were cut around their first match; "[… N characters cut …]" marks what was left out.';
const BINARY_NOTE = "1 file that looks binary (a NUL byte in the first 8 KiB) was skipped.";

/** The issue 12 §2 tree: the .ods and a text file beside it. */
const SHEETS = { "/workspace/sheets/budget.ods": odsBytes(), "/workspace/sheets/notes.txt": "grand total: 42\n" };
const SHEETS_CALL = { path: "/workspace/sheets", query: "grand total" };
const SHEETS_RESULT: Result = {
  path: "/workspace/sheets",
  query: "grand total",
  count: 1,
  matches: [{ path: "/workspace/sheets/notes.txt", line: 1, text: "grand total: 42" }],
  binarySkipped: 1,
  note: BINARY_NOTE,
};

const MIN_CALL = { path: "/workspace/min.js", query: "needle" };
const MIN_RESULT: Result = {
  path: "/workspace/min.js",
  query: "needle",
  count: 1,
  matches: [{ path: "/workspace/min.js", line: 1, text: LONG_LINE_CLIPPED, column: 400_001, clipped: true }],
  note: CLIP_NOTE,
};

/** Issue 20 §6: 100 lines of 50,000 characters. */
const WIDE = Array.from({ length: 100 }, () => "x".repeat(50_000)).join("\n") + "\n";
const WIDE_CALL = { path: "/workspace/wide.txt", query: "x", context: 10, limit: 1000 };
const WIDE_LINE = "x".repeat(500) + "[… 49500 characters cut …]";

const utf8Bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).byteLength;

function liveHeap(): number {
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc") as () => void;
  gc();
  return process.memoryUsage().heapUsed;
}

describe("grep: binary files (issue 12 §2)", () => {
  it("the .ods is skipped and counted; the text file beside it still matches", async () => {
    const { workspace } = await setup(SHEETS);
    const grep = grepDefinition({ workspace });
    expect(await grep.execute(SHEETS_CALL as never)).toEqual(SHEETS_RESULT);
    expect(await grep.execute({ path: "/workspace/sheets/budget.ods", query: " grand total " } as never)).toEqual({
      path: "/workspace/sheets/budget.ods",
      query: " grand total ",
      count: 0,
      matches: [],
      binarySkipped: 1,
      note: BINARY_NOTE,
    });
  });

  it("paging reports each binary file exactly once, on the page that reaches it", async () => {
    const bin = new Uint8Array([0x68, 0x69, 0x00, 0x0a]);
    const { workspace } = await setup({ "/workspace/p/a.txt": "hit\n", "/workspace/p/b.bin": bin, "/workspace/p/c.txt": "hit\n", "/workspace/p/d.bin": bin, "/workspace/p/e.txt": "hit\n", "/workspace/p/f.bin": bin });
    const grep = grepDefinition({ workspace });
    const page = (offset: number) => grep.execute({ path: "/workspace/p", query: "hit", limit: 1, offset } as never) as Promise<Result>;
    const pages = [await page(0), await page(1), await page(2)];
    expect(pages.map((p) => [p.matches.map((m) => m.path), p.binarySkipped, p.nextOffset])).toEqual([
      [["/workspace/p/a.txt"], undefined, 1],
      [["/workspace/p/c.txt"], 1, 2],
      [["/workspace/p/e.txt"], 2, undefined],
    ]);
    expect(pages[2]!.note).toBe("2 files that look binary (a NUL byte in the first 8 KiB) were skipped.");
  });
});

describe("grep: long lines (issue 12 §2)", () => {
  it("a 650,000-byte line comes back as 500 characters around the match, with markers, clipped and column", async () => {
    const { workspace } = await setup({ "/workspace/min.js": LONG_LINE });
    const grep = grepDefinition({ workspace });
    expect(await grep.execute(MIN_CALL as never)).toEqual(MIN_RESULT);
    expect(LONG_LINE.length).toBe(650_000);
    // The width is an option of the tool.
    const narrow = grepDefinition({ workspace, maxLineLength: 20 });
    expect(((await narrow.execute(MIN_CALL as never)) as Result).matches[0]).toEqual({
      path: "/workspace/min.js",
      line: 1,
      text: "[… 399990 characters cut …]aaaaaaaaaaneedlebbbb[… 249990 characters cut …]",
      column: 400_001,
      clipped: true,
    });
    expect(narrow.description).toContain("Lines longer than 20 characters are cut to 20 around their first match");
    expect(() => grepDefinition({ workspace, maxLineLength: 0 })).toThrow("createGrepTool: maxLineLength must be a positive integer.");
    expect(() => grepDefinition({ workspace, maxBytes: 1.5 })).toThrow("createGrepTool: maxBytes must be a positive integer.");
  });

  it("a workspace.fs that ignores the bounds still gets clipped lines (from their start) and a capped page", async () => {
    const { workspace } = await setup({ "/workspace/min.js": LONG_LINE });
    const fs = workspace.fs;
    // Another implementation of workspace.fs: the real search, without the additions.
    const plainFs = {
      ...fs,
      grep: (pattern: string, path: string, options?: Record<string, unknown>) => {
        const { skipBinary: _s, maxLineLength: _l, maxTotalLength: _t, ...rest } = options ?? {};
        return fs.grep(pattern, path, rest);
      },
    };
    const grep = grepDefinition({ workspace: { fs: plainFs } as never });
    expect(await grep.execute(MIN_CALL as never)).toEqual({
      ...MIN_RESULT,
      matches: [{ path: "/workspace/min.js", line: 1, text: "a".repeat(500) + "[… 649500 characters cut …]", clipped: true }],
    });
  });
});

describe("grep: the whole result is capped (issue 20 §6)", () => {
  it("100 lines of 50,000 characters with context 10: each page stays under 256 KiB, and nextOffset returns every match exactly once", async () => {
    const { workspace } = await setup({ "/workspace/wide.txt": WIDE });
    const grep = grepDefinition({ workspace });
    // The result and the JSON an adapter makes of it, both kept alive (issue 20 §6: 104,579,864 characters, +105 MB).
    const before = liveHeap();
    const first = (await grep.execute(WIDE_CALL as never)) as Result;
    const json = JSON.stringify(first);
    const grown = liveHeap() - before;
    expect(new TextEncoder().encode(json).byteLength).toBeLessThanOrEqual(262_144);
    expect(grown).toBeLessThan(4 * 1024 * 1024);
    const window = (line: number) =>
      Array.from({ length: Math.min(100, line + 10) - Math.max(1, line - 10) + 1 }, (_, i) => ({ line: Math.max(1, line - 10) + i, text: WIDE_LINE, isMatch: true, clipped: true }));
    expect(first.matches[0]).toEqual({ path: "/workspace/wide.txt", line: 1, text: WIDE_LINE, column: 1, clipped: true, context: window(1) });
    expect(first.count).toBe(FIRST_PAGE);
    expect(first.matches.map((m) => m.line)).toEqual(Array.from({ length: FIRST_PAGE }, (_, i) => i + 1));
    expect(first.nextOffset).toBe(FIRST_PAGE);
    expect(first.note).toBe(`Result cut at 262144 bytes after ${FIRST_PAGE} matches; call again with offset = ${FIRST_PAGE} for the rest. ${CLIP_NOTE}`);
    // Follow the continuation to the end.
    const seen: number[] = [];
    let result = first;
    let calls = 1;
    for (;;) {
      expect(utf8Bytes(result)).toBeLessThanOrEqual(262_144);
      for (const m of result.matches) {
        expect(m.context).toEqual(window(m.line));
        seen.push(m.line);
      }
      if (result.nextOffset === undefined) break;
      result = (await grep.execute({ ...WIDE_CALL, offset: result.nextOffset } as never)) as Result;
      calls++;
    }
    expect(seen).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(calls).toBe(PAGES);
    expect(result.note).toBe(CLIP_NOTE);
  });

  it("at least one match comes back when one match alone passes the cap", async () => {
    const { workspace } = await setup({ "/workspace/two.txt": "hit one\nhit two\n" });
    const grep = grepDefinition({ workspace, maxBytes: 1 });
    const one = (await grep.execute({ path: "/workspace/two.txt", query: "hit" } as never)) as Result;
    expect(one).toEqual({
      path: "/workspace/two.txt",
      query: "hit",
      count: 1,
      matches: [{ path: "/workspace/two.txt", line: 1, text: "hit one" }],
      note: "Result cut at 1 bytes after 1 match; call again with offset = 1 for the rest.",
      nextOffset: 1,
    });
    expect(((await grep.execute({ path: "/workspace/two.txt", query: "hit", offset: 1 } as never)) as Result).matches.map((m) => m.line)).toEqual([2]);
  });
});

/** Matches on the first page of the wide reproduction, and pages to see all 100. */
const FIRST_PAGE = 22;
const PAGES = 5;

describe("grep through the three adapters", () => {
  const piLoops = PI_MAJORS.map((major) => ({ major, runLoop: major.piLoop() }));

  it("AI SDK, pi 0.74 and 1.x, and TanStack show the model the same skipped, clipped and capped results", async () => {
    const { workspace } = await setup({ ...SHEETS, "/workspace/min.js": LONG_LINE, "/workspace/wide.txt": WIDE });
    const wide = (await grepDefinition({ workspace }).execute(WIDE_CALL as never)) as Result;
    expect(wide.nextOffset).toBe(FIRST_PAGE);
    const calls = [
      { id: "s", input: SHEETS_CALL, expected: SHEETS_RESULT },
      { id: "m", input: MIN_CALL, expected: MIN_RESULT },
      { id: "w", input: WIDE_CALL, expected: wide },
    ];

    const model = new MockLanguageModelV4({ doGenerate: [...calls.map((c) => call(c.id, "grep", c.input)), done] });
    await generateText({ model, prompt: "go", tools: createAITools({ workspace }), stopWhen: stepCountIs(5) });
    for (const c of calls) expect(outputFor(model, c.id), `AI SDK ${c.id}`).toEqual({ type: "json", value: c.expected });

    for (const { major, runLoop } of piLoops) {
      const { results } = await runLoop(createPiTools({ workspace }), [...calls.map((c) => step(major, major.fauxToolCall("grep", c.input, { id: c.id }))), major.fauxAssistantMessage("done")]);
      for (const c of calls) {
        expect(results.get(c.id), `pi ${major.name} ${c.id}`).toMatchObject({ content: [{ type: "text", text: JSON.stringify(c.expected) }], isError: false, details: c.expected });
      }
    }

    const chat = await runChat(createTanStackTools({ workspace }), [...calls.map((c) => ({ calls: [{ id: c.id, name: "grep", input: c.input }] })), { text: "done" }]);
    for (const c of calls) expect(JSON.parse(chat.toolMessage(c.id) as string), `TanStack ${c.id}`).toEqual(c.expected);
  });
});
