/**
 * Directory tools (issue 19) in each adapter's real loop (AI SDK
 * generateText, pi 0.74 and 1.x faux loops, TanStack chat()): bad input from
 * the model comes back as an error result naming the input and never
 * quoting a sensitive value — the AI SDK's own validation error quotes the
 * whole input (`Type validation failed: Value: {…}`), so a tool with a
 * sensitive input is checked by the adapter instead. The tool set is built
 * over a real Workspace with no backends: a call that passes validation is
 * answered by the runner with what to add, which shows the call got through.
 */
import { describe, expect, it } from "vitest";
import { drivers } from "../tools/adapter-drivers.js";
import { makeWorkspace } from "../tools/helpers.js";
import type { ToolDirectory, ToolInput } from "../../../src/tool-dirs/types.js";

const SECRET = "tok-3f9c-very-secret";

function input(name: string, type: ToolInput["type"], extra: Partial<ToolInput> = {}): ToolInput {
  return { name, type, description: `the ${name}`, optional: false, sensitive: false, ...extra };
}

function tool(name: string, inputs: ToolInput[]): ToolDirectory {
  const dir = `/workspace/tools/${name}`;
  return {
    name, label: name, description: `${name} tool`, summary: `${name} tool`, body: "", version: 1, language: "typescript",
    inputs: Object.fromEntries(inputs.map((i) => [i.name, i])), mutating: true, env: [],
    dir, toolFile: `${dir}/TOOL.md`, entry: `${dir}/index.ts`, root: "/workspace/tools",
  };
}

const guarded = tool("guarded", [input("query", "string"), input("mode", "enum", { values: ["a", "b"] }), input("api_token", "string", { sensitive: true })]);
const plain = tool("plain", [input("count", "number"), input("flag", "boolean", { optional: true })]);
const NO_BACKEND = 'Tool "guarded" is typescript and needs the JavaScript backend: add new WorkerJavaScriptBackend({ loader: env.LOADER }) to the Workspace\'s backends (its backends: none).';

describe("directory tools: bad input from the model, in every adapter's loop", () => {
  for (const driver of drivers()) {
    it(`${driver.name}: wrong type, missing input, unknown enum value → errors naming the input, never the secret`, async () => {
      const workspace = await makeWorkspace();
      const tools = driver.build({ workspace, toolDirectories: { tools: [guarded, plain] } });
      const seen = [
        await driver.call(tools, "guarded", { query: "q", mode: "z", api_token: SECRET }),
        await driver.call(tools, "guarded", { mode: "a", api_token: SECRET }),
        await driver.call(tools, "guarded", { query: 7, mode: "a", api_token: SECRET }),
        await driver.call(tools, "guarded", { query: "q", mode: "a", api_token: 12345 }),
        await driver.call(tools, "guarded", { query: "q", mode: "a", api_token: SECRET }),
        await driver.call(tools, "plain", { count: "three" }),
      ];
      for (const s of seen) expect(s.text).not.toContain(SECRET);
      for (const s of seen) expect(s.text).not.toMatch(/(\w+): \1: /); // the name once, not prefixed twice
      expect(seen.slice(0, 5).map((s) => s.isError)).toEqual([true, true, true, true, true]);
      // Each library words its wrapper; the input's own message is the same in all.
      expect(seen[0]!.text).toContain('mode: Invalid option: expected one of "a"|"b"');
      expect(seen[1]!.text).toContain("query: Invalid input: expected string, received undefined");
      expect(seen[2]!.text).toContain("query: Invalid input: expected string, received number");
      expect(seen[3]!.text).toContain("api_token: Invalid input: expected string, received number");
      expect(seen[3]!.text).not.toContain("12345");
      // Valid input reaches the runner, which says what the Workspace lacks.
      expect(seen[4]!.text).toBe(NO_BACKEND);
      expect(seen[5]!.isError).toBe(true);
      expect(seen[5]!.text).toContain("count: Invalid input: expected number, received string");
      await workspace.close();
    });
  }
});

describe("directory tools: names that ws:tools would export alike", () => {
  it("then and then_ given by hand: a TypeError naming both, in every adapter", async () => {
    const workspace = await makeWorkspace();
    for (const driver of drivers()) {
      expect(() => driver.build({ workspace, toolDirectories: { tools: [tool("then", []), tool("then_", [])] } })).toThrow(
        new TypeError('create*Tools({ toolDirectories }): tools[1] "then_" and "then" are both exported to ws:tools as "then_"; rename one of them'),
      );
    }
    await workspace.close();
  });
});
