/**
 * Issue 20 third attack run, category 4: malformed tool calls through each
 * adapter's real loop (AI SDK generateText over MockLanguageModelV4, pi's
 * loop over the faux provider on 0.74 and 1.x, TanStack chat()). Wrong
 * types, missing and extra fields, huge strings, NUL and relative paths,
 * "__proto__" keys and unknown tool names: each is a result the model sees
 * (an error where the call is invalid), answered in bounded time, with
 * nothing written, nothing polluted and the loop still working after.
 */
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import { done, outputFor, usage } from "../../shared/loops/ai-sdk.js";
import { drivers } from "../tools/adapter-drivers.js";
import { makeWorkspace } from "../tools/helpers.js";
import { runChat } from "../tools/tanstack-helpers.js";

const ORIGINAL = "alpha\nbeta\n";
const BIG = "x".repeat(2_000_000);
/** An object whose own "__proto__" key survives JSON.stringify. */
const withProto = (fields: Record<string, unknown>) => JSON.parse(JSON.stringify(fields).replace(/^\{/, '{"__proto__":{"polluted":true},'));

/** "protoOk": valid fields plus a "__proto__" key — run by pi and TanStack (the key is an ordinary one, dropped), refused by the AI SDK's own JSON parsing ("Object contains forbidden prototype property"). */
type Case = [tool: string, input: Record<string, unknown>, expect: "error" | "ok" | "protoOk"];
const CASES: Case[] = [
  ["read", {}, "error"],
  ["read", { path: 123 }, "error"],
  ["read", { path: ["/workspace/f.txt"] }, "error"],
  ["read", { path: { toString: "/workspace/f.txt" } }, "error"],
  ["read", { path: "/workspace/f.txt", offset: "1" }, "error"],
  ["read", { path: "/workspace/f.txt", limit: -1 }, "error"],
  ["read", { path: "/workspace/f.txt", limit: 1e300 }, "error"],
  ["read", { path: "/workspace/f.txt", offset: 1.5 }, "error"],
  ["read", { path: "/workspace/f\u0000.txt" }, "error"],
  ["read", { path: "" }, "error"],
  ["read", { path: "/" + "p".repeat(1_000_000) }, "error"],
  ["read", { path: "/workspace/f.txt", extra: { deep: [1, 2, 3] } }, "ok"],
  ["read", withProto({ path: "/workspace/f.txt" }), "protoOk"],
  ["write", withProto({ path: "/workspace/p.txt", content: "x" }), "protoOk"],
  ["ls", { path: null }, "error"],
  ["ls", { path: "/workspace", limit: 0 }, "error"],
  ["find", { pattern: 7 }, "error"],
  ["find", { pattern: "*".repeat(5000) }, "error"],
  ["find", { pattern: "**", exclude: Array.from({ length: 1000 }, () => "a") }, "error"],
  ["find", { pattern: "**", exclude: [1, 2] }, "error"],
  ["grep", { query: BIG }, "ok"],
  ["grep", { query: "(", regex: true }, "error"],
  ["grep", { query: "a", regex: "yes" }, "error"],
  ["grep", { query: "a", context: -5 }, "error"],
  ["write", { path: "/workspace/f.txt" }, "error"],
  ["write", { path: "/workspace/f.txt", content: 5 }, "error"],
  ["write", { path: "/workspace/f.txt", content: null }, "error"],
  ["write", { path: "/workspace/f.txt", content: ["a"] }, "error"],
  ["write", { path: "relative.txt", content: "x" }, "error"],
  ["write", { path: "/workspace/n\u0000ul.txt", content: "x" }, "error"],
  ["write", { path: "/workspace/../../f.txt", content: "x" }, "error"],
  ["edit", { path: "/workspace/f.txt", edits: "alpha" }, "error"],
  ["edit", { path: "/workspace/f.txt", edits: [{ oldText: "alpha" }] }, "error"],
  ["edit", { path: "/workspace/f.txt", edits: [{ oldText: "alpha", newText: "z", extra: 1 }] }, "error"],
  ["edit", { path: "/workspace/f.txt", edits: [{ oldText: "", newText: "z" }] }, "error"],
  ["edit", { path: "/workspace/f.txt", edits: [withProto({ oldText: "alpha", newText: "z" })] }, "error"],
  ["edit", { path: "/workspace/f.txt", edits: Array.from({ length: 5000 }, () => ({ oldText: "alpha", newText: "z" })) }, "error"],
  ["edit", { path: "/workspace/f.txt", edits: [{ oldText: BIG, newText: "z" }] }, "error"],
  ["delete", { path: "/workspace/f.txt", recursive: "true" }, "error"],
  ["delete", { path: "/" }, "error"],
  ["delete", { path: 0 }, "error"],
];

describe("attack3: malformed tool calls through each adapter's loop", () => {
  for (const driver of drivers()) {
    it(`${driver.name}: every malformed call is a bounded result; nothing written or polluted`, async () => {
      const workspace = await makeWorkspace();
      await workspace.fs.writeFile("/workspace/f.txt", ORIGINAL);
      const tools = driver.build({ workspace });
      const failures: string[] = [];
      for (const [tool, input, expected] of CASES) {
        const want = expected === "protoOk" ? (driver.name === "AI SDK" ? "error" : "ok") : expected;
        const label = `${tool} ${JSON.stringify(input).slice(0, 80)}`;
        const started = Date.now();
        const seen = await driver.call(tools, tool, input).catch((e: Error) => ({ isError: true, text: `THREW ${e.message}`, threw: true }));
        const ms = Date.now() - started;
        if ("threw" in seen) failures.push(`${label}: the loop threw ${seen.text}`);
        else if ((want === "error") !== seen.isError) failures.push(`${label}: expected ${want}, got ${seen.isError ? "error" : "ok"}: ${seen.text.slice(0, 200)}`);
        else if (seen.text.length === 0) failures.push(`${label}: empty result`);
        if (ms > 5000) failures.push(`${label}: took ${ms} ms`);
      }
      expect(failures).toEqual([]);
      expect(await workspace.fs.readFile("/workspace/f.txt", "utf8")).toBe(ORIGINAL);
      expect(await workspace.fs.ls("/workspace")).toEqual(driver.name === "AI SDK" ? ["/workspace/f.txt"] : ["/workspace/f.txt", "/workspace/p.txt"]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.prototype.hasOwnProperty.call(Object.prototype, "polluted")).toBe(false);
      // the same tool set still works afterwards
      const ok = await driver.call(tools, "edit", { path: "/workspace/f.txt", edits: [{ oldText: "beta", newText: "gamma" }] });
      expect(ok.isError).toBe(false);
      expect(await workspace.fs.readFile("/workspace/f.txt", "utf8")).toBe("alpha\ngamma\n");
    }, 60_000);
  }

  it("AI SDK: argument text that is not a JSON object, and unknown or prototype tool names, end as error results", async () => {
    const workspace = await makeWorkspace();
    await workspace.fs.writeFile("/workspace/f.txt", ORIGINAL);
    const tools = createAITools({ workspace });
    const raw = (id: string, toolName: string, input: string) => ({
      content: [{ type: "tool-call" as const, toolCallId: id, toolName, input }],
      finishReason: { unified: "tool-calls" as const, raw: undefined },
      usage,
      warnings: [],
    });
    const steps: Array<[string, string, string]> = [
      ["a", "read", "{"],
      ["b", "read", "[1,2]"],
      ["c", "read", "null"],
      ["d", "write", '"/workspace/x"'],
      ["e", "__proto__", "{}"],
      ["f", "constructor", '{"path":"/workspace/f.txt"}'],
      ["g", "hasOwnProperty", "{}"],
      ["h", "write", '{"path":"/workspace/f.txt","content":"new","__proto__":{"polluted":1}}'],
    ];
    const model = new MockLanguageModelV4({ doGenerate: [...steps.map(([id, name, input]) => raw(id, name, input)), done] });
    const result = await generateText({ model, prompt: "go", tools, stopWhen: stepCountIs(steps.length + 2) });
    expect(result.text).toBe("done");
    for (const [id] of steps.slice(0, 7)) {
      const out = outputFor(model, id) as { type: string } | undefined;
      expect(out?.type, id).toBe("error-text");
    }
    // the AI SDK's own JSON parsing refuses a "__proto__" key before our tool runs
    expect(outputFor(model, "h")).toMatchObject({ type: "error-text", value: expect.stringContaining("forbidden prototype property") });
    expect(await workspace.fs.readFile("/workspace/f.txt", "utf8")).toBe(ORIGINAL);
    expect(await workspace.fs.ls("/workspace")).toEqual(["/workspace/f.txt"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("TanStack chat(): unknown and prototype tool names, and calls whose input is not an object, end with results and the run finishes", async () => {
    const workspace = await makeWorkspace();
    await workspace.fs.writeFile("/workspace/f.txt", ORIGINAL);
    const tools = createTanStackTools({ workspace });
    const calls = [
      { id: "a", name: "__proto__", input: {} },
      { id: "b", name: "constructor", input: { path: "/workspace/f.txt" } },
      { id: "c", name: "read", input: [1, 2] },
      { id: "d", name: "read", input: null },
      { id: "e", name: "write", input: "/workspace/x" },
      { id: "f", name: "delete", input: 5 },
    ];
    const chat = await runChat(tools, [{ calls }, { text: "done" }]);
    for (const c of calls) {
      const message = chat.toolMessage(c.id);
      expect(typeof message === "string" && message.length > 0, `${c.id}: ${JSON.stringify(message)}`).toBe(true);
    }
    expect(await workspace.fs.readFile("/workspace/f.txt", "utf8")).toBe(ORIGINAL);
    expect(await workspace.fs.ls("/workspace")).toEqual(["/workspace/f.txt"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
