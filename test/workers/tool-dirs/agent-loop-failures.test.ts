/**
 * Directory tools (issue 19) failing inside each library's real loop, in
 * real workerd (AI SDK generateText, pi's faux loop per major, TanStack
 * chat()): bad input from the model, and tools that throw, return a
 * malformed result, never return or flood their result, all come back to
 * the model as readable error results and the loop goes on to its next
 * turn. Also: `readonly: true` and TanStack's `approve: "mutating"` follow
 * the front matter's `readonly`, and the build-time TypeErrors.
 */
import { chat, maxIterations } from "@tanstack/ai";
import { describe, expect, it } from "vitest";
import { scriptedAdapter } from "../../node/tools/tanstack-helpers.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import { MAX_TOOL_ERROR_CHARS } from "../../../src/tool-dirs/run.js";
import type { ToolDirectory } from "../../../src/tool-dirs/types.js";
import { inLoadedTools, loopDrivers } from "./loop-helpers.js";

const md = (name: string, description: string, extra = "") => `---\nname: ${name}\ndescription: ${description}\n${extra}---\n# ${name}\n`;

/** One-off failing tools, written next to the fixtures before loading. */
const FAILING = {
  "thrower/TOOL.md": md("thrower", "Always throws."),
  "thrower/index.ts": `export async function execute(): Promise<never> {\n  throw new Error("the service said no");\n}\n`,
  "malformed/TOOL.md": md("malformed", "Returns the wrong shape.", "language: javascript\n"),
  "malformed/index.js": `export async function execute() { return { text: "no content" }; }\n`,
  "hang/TOOL.md": md("hang", "Never returns.", "language: javascript\n"),
  "hang/index.js": `export async function execute() { await new Promise(() => setInterval(() => {}, 100)); }\n`,
  "stuck/TOOL.md": md("stuck", "Awaits a promise nothing settles.", "language: javascript\n"),
  "stuck/index.js": `export async function execute() { await new Promise(() => {}); }\n`,
  "flood/TOOL.md": md("flood", "Floods its output.", "language: javascript\n"),
  "flood/index.js": `export async function execute() {\n  for (let i = 0; i < 2000; i++) console.error("noise " + i + " " + "z".repeat(500));\n  return { content: [{ type: "text", text: "x".repeat(2000000) }] };\n}\n`,
};

/** One-off tools for the read-only set: one that writes (no readonly field), one whose front matter says readonly: true. */
const READONLY = {
  "note_taker/TOOL.md": md("note_taker", "Writes a note.", "inputs:\n  note:\n    type: string\n    description: The note.\n"),
  "note_taker/index.ts": `import { writeFile } from "node:fs/promises";\nexport async function execute(_id: string, p: { note: string }) {\n  await writeFile("/workspace/note.txt", p.note);\n  return { content: [{ type: "text", text: "noted" }] };\n}\n`,
  "peek/TOOL.md": md("peek", "Looks without touching.", "readonly: true\n"),
  "peek/index.ts": `export async function execute() { return { content: [{ type: "text", text: "peeked" }, { type: "text", text: "twice" }] }; }\n`,
};

const TIMEOUT_MS = 4000;

describe("failures come back to the model as readable error results; the loop goes on", () => {
  for (const driver of loopDrivers()) {
    it(`${driver.name}: bad input (wrong type, missing, unknown enum value) and failing tools`, async () => {
      const out = await inLoadedTools(
        async ({ ws, loaded }) =>
          driver.run({ workspace: ws, toolDirectories: { ...loaded, timeoutMs: TIMEOUT_MS } }, [
            ["wrongtype", "all_inputs", { text: 5 }],
            ["missing", "all_inputs", { count: 1 }],
            ["badenum", "all_inputs", { text: "x", mode: "loud" }],
            ["greettype", "greet", { name: "Bo", times: "two" }],
            ["thrower", "thrower", {}],
            ["malformed", "malformed", {}],
            ["hang", "hang", {}],
            ["stuck", "stuck", {}],
            ["flood", "flood", {}],
            ["after", "greet", { name: "Cy" }],
          ]),
        { extra: FAILING },
      );
      const { seen } = out;
      expect(out.final).toBe("done");
      // Bad input: an error result that names the input (each library words its own validation error).
      const bad = (tool: string, message: string) =>
        driver.name.startsWith("TanStack") ? `Input validation failed for tool ${tool}: Validation failed: ${message}` : `Invalid arguments for ${tool}: ${message}`;
      expect(seen.wrongtype).toEqual({ text: bad("all_inputs", "text: Invalid input: expected string, received number"), isError: true });
      expect(seen.missing).toEqual({ text: bad("all_inputs", "text: Invalid input: expected string, received undefined"), isError: true });
      expect(seen.badenum).toEqual({ text: bad("all_inputs", 'mode: Invalid option: expected one of "plain"|"brackets"|"quotes"'), isError: true });
      if (driver.name.startsWith("AI SDK")) {
        // greet has no sensitive input: the AI SDK's own validation answers, quoting the input.
        expect(seen.greettype!.isError).toBe(true);
        expect(seen.greettype!.text).toMatch(/^AI_InvalidToolInputError: Invalid input for tool greet: AI_TypeValidationError: Type validation failed: Value: \{"name":"Bo","times":"two"\}\./);
        expect(seen.greettype!.text).toContain('"message": "times: Invalid input: expected number, received string"');
      } else {
        expect(seen.greettype).toEqual({ text: bad("greet", "times: Invalid input: expected number, received string"), isError: true });
      }
      // Failing tools: the runner's sentences, the same in every library.
      expect(seen.thrower).toEqual({ text: 'Tool "thrower" failed (exit 1): the service said no', isError: true });
      expect(seen.malformed).toEqual({
        text: 'Tool "malformed" returned a malformed result: execute returned an object whose content is undefined, not an array: return { content: [{ type: "text", text: "…" }], isError?: boolean }.',
        isError: true,
      });
      expect(seen.stuck).toEqual({
        text: 'Tool "stuck" never returned: execute awaits a promise that nothing can settle (the runtime found nothing left to wait for).',
        isError: true,
      });
      expect(seen.hang).toEqual({ text: `Tool "hang" timed out after ${TIMEOUT_MS} ms and was stopped.`, isError: true });
      expect(seen.flood!.isError).toBe(true);
      // The tail of its stderr noise, then why it failed: bounded, the reason last.
      expect(seen.flood!.text.startsWith('Tool "flood" failed (exit 1): ')).toBe(true);
      const reason = /\nexecute returned a result of (\d+) bytes of JSON, over the backend's maxResultBytes \(1048576 bytes\): return less \(for example, write large output to a file and return its path\)\.$/.exec(seen.flood!.text);
      expect(Number(reason?.[1])).toBeGreaterThan(2_000_000);
      // Was: at most `Tool "flood" failed (exit 1): …` + MAX_TOOL_ERROR_CHARS; the cut is now marked `…[N characters cut]…`
      // (issue 20 run 27, fixer TA), so the bound is on what follows the marker.
      expect(seen.flood!.text).toMatch(/^Tool "flood" failed \(exit 1\): …\[\d+ characters cut\]…/);
      expect(seen.flood!.text.replace(/^Tool "flood" failed \(exit 1\): …\[\d+ characters cut\]…/, "").length).toBeLessThanOrEqual(MAX_TOOL_ERROR_CHARS);
      // The loop went on: the next call ran.
      expect(seen.after).toEqual({ text: "hello, Cy.\n", isError: false });
    });
  }
});

describe("readonly: true offers only the directory tools whose front matter says readonly: true", () => {
  for (const driver of loopDrivers()) {
    it(`${driver.name}: read, ls, find, grep, then the read-only directory tools; one of them runs`, async () => {
      const out = await inLoadedTools(
        async ({ ws, loaded }) => {
          const run = await driver.run({ workspace: ws, readonly: true, toolDirectories: loaded }, [["peek", "peek", {}]]);
          return { ...run, note: await ws.fs.stat("/workspace/note.txt").then(() => "exists", (e: { code?: string }) => e.code) };
        },
        { extra: READONLY },
      );
      // export_rows and note_taker (no readonly field) are mutating: left out, like write, edit, delete and exec.
      expect(out.offered).toEqual(["read", "ls", "find", "grep", "all_inputs", "fetch_status", "greet", "peek", "slow_count"]);
      // Two content blocks: pi keeps them (joined here with "\n"), the AI SDK and TanStack get them joined with "\n".
      expect(out.seen.peek).toEqual({ text: "peeked\ntwice", isError: false });
      expect(out.final).toBe("done");
      expect(out.note).toBe("ENOENT");
    });
  }
});

describe("TanStack approve: \"mutating\"", () => {
  it("sets needsApproval on the mutating built-ins and on directory tools without readonly: true, only", async () => {
    const out = await inLoadedTools(
      async ({ ws, loaded }) => {
        const tools = createTanStackTools({ workspace: ws, approve: "mutating", toolDirectories: loaded });
        const named = createTanStackTools({ workspace: ws, approve: ["peek", "nope"], toolDirectories: loaded });
        return { mutating: tools.map((t) => [t.name, t.needsApproval]), named: named.filter((t) => t.needsApproval).map((t) => t.name) };
      },
      { extra: READONLY },
    );
    expect(out.mutating).toEqual([
      ["read", undefined],
      ["ls", undefined],
      ["find", undefined],
      ["grep", undefined],
      ["write", true],
      ["edit", true],
      ["delete", true],
      ["exec", true],
      ["all_inputs", undefined],
      ["export_rows", true],
      ["fetch_status", undefined],
      ["greet", undefined],
      ["note_taker", true],
      ["peek", undefined],
      ["slow_count", undefined],
    ]);
    expect(out.named).toEqual(["peek"]);
  });
});

describe("TanStack chat() with approve: \"mutating\"", () => {
  it("a call of a mutating directory tool interrupts the run for approval and does not run; a read-only one asks nothing", async () => {
    const out = await inLoadedTools(async ({ ws, loaded }) => {
      const tools = createTanStackTools({ workspace: ws, approve: "mutating", toolDirectories: loaded });
      const { adapter, seen } = scriptedAdapter([
        { calls: [{ id: "a", name: "all_inputs", input: { text: "q", count: 1 } }, { id: "e", name: "export_rows", input: { rows: 2, output_path: "/workspace/rows.json" } }] },
        { text: "done" },
      ]);
      const chunks: Array<Record<string, unknown>> = [];
      const stream = chat({ adapter: adapter as never, messages: [{ role: "user", content: "go" }], tools: tools as never, agentLoopStrategy: maxIterations(4) });
      for await (const chunk of stream as AsyncIterable<Record<string, unknown>>) chunks.push(chunk);
      const finished = chunks.find((c) => c.type === "RUN_FINISHED") as { outcome: { type: string; interrupts: Array<{ id: string; toolCallId: string; message: string }> } };
      return {
        modelTurns: seen.length,
        outcome: finished.outcome.type,
        interrupts: finished.outcome.interrupts.map((i) => [i.id, i.toolCallId, i.message]),
        file: await ws.fs.stat("/workspace/rows.json").then(() => "exists", (e: { code?: string }) => e.code),
      };
    });
    expect(out).toEqual({ modelTurns: 1, outcome: "interrupt", interrupts: [["approval_e", "e", "Approval required to run export_rows"]], file: "ENOENT" });
  });
});

describe("build-time TypeErrors", () => {
  const builders = [
    ["createAITools", createAITools],
    ["createPiTools", createPiTools],
    ["createTanStackTools", createTanStackTools],
  ] as const;
  it("a built-in's name, a repeated name, a workspace without runtime, bad env and timeoutMs", async () => {
    const out = await inLoadedTools(async ({ ws, loaded }) => {
      const [first] = loaded.tools as [ToolDirectory];
      const cases: Array<[string, Record<string, unknown>]> = [
        ["read", { workspace: ws, toolDirectories: { tools: [{ ...first, name: "read" }] } }],
        // publish is reserved even when the set has no publish tool.
        ["publish", { workspace: ws, toolDirectories: { tools: [{ ...first, name: "publish" }] } }],
        ["duplicate", { workspace: ws, toolDirectories: { tools: [first, first] } }],
        ["no runtime", { workspace: { fs: ws.fs }, toolDirectories: loaded }],
        // No directory tools to run: no runtime needed.
        ["empty, no runtime", { workspace: { fs: ws.fs }, toolDirectories: { tools: [] } }],
        ["env", { workspace: ws, toolDirectories: { ...loaded, env: { STATUS_API_TOKEN: 7 } } }],
        ["timeout", { workspace: ws, toolDirectories: { ...loaded, timeoutMs: 0 } }],
        ["not loaded", { workspace: ws, toolDirectories: { tools: [{ name: "x" }] } }],
        ["no tools", { workspace: ws, toolDirectories: {} }],
      ];
      return builders.map(([name, build]) =>
        cases.map(([label, options]) => {
          try {
            build(options as never);
            return [name, label, "built"];
          } catch (error) {
            return [name, label, (error as Error).constructor.name, (error as Error).message];
          }
        }),
      );
    });
    const where = "create*Tools({ toolDirectories })";
    for (const [i, [name]] of builders.entries()) {
      expect(out[i]).toEqual([
        [name, "read", "TypeError", `${where}: tools[0] is named "read", a built-in tool; rename it in its TOOL.md`],
        [name, "publish", "TypeError", `${where}: tools[0] is named "publish", a built-in tool; rename it in its TOOL.md`],
        [name, "duplicate", "TypeError", `${where}: two tools are named "all_inputs"; keep one (loadToolDirectories already keeps the first)`],
        [name, "no runtime", "TypeError", `${where}: directory tools run in the Workspace's backends, so the workspace needs a runtime (a Workspace with backends, or a getWorkspace() client)`],
        [name, "empty, no runtime", "built"],
        [name, "env", "TypeError", `${where}: env.STATUS_API_TOKEN must be a string, got number`],
        [name, "timeout", "TypeError", `${where}: timeoutMs must be a positive number of milliseconds, got 0`],
        [name, "not loaded", "TypeError", `${where}: tools[0] is not a tool directory as loadToolDirectories returns it (name, inputs, entry, language…)`],
        [name, "no tools", "TypeError", `${where} needs { tools } as loadToolDirectories returns it (an array of tool directories)`],
      ]);
    }
  });
});
