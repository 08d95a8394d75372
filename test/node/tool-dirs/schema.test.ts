/**
 * Inputs → zod (spec 03 §9 "Proposed adapter mapping", issue 19): the
 * JSON Schema the model sees, parsing of good and bad arguments, and the
 * sensitive-input marks and masking.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import {
  SENSITIVE_MASK,
  loadToolDirectories,
  maskSensitiveInputs,
  sensitiveInputNames,
  toolInputRegistry,
  toolInputSchema,
  type ToolDirectory,
} from "../../../src/tool-dirs/index.js";
import { toJSONSchema } from "../../../src/tools/core/schema.js";
import { copyFixtures } from "./dir-fixtures.js";

let tools: Map<string, ToolDirectory>;
beforeAll(async () => {
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
  await copyFixtures(ws, "tools", "/workspace/tools");
  const loaded = await loadToolDirectories({ workspace: ws, dirs: ["/workspace/tools"] });
  tools = new Map(loaded.tools.map((t) => [t.name, t]));
});

const get = (name: string) => tools.get(name) as ToolDirectory;

describe("toolInputSchema", () => {
  it("maps every input kind to JSON Schema with descriptions, defaults and required", () => {
    expect(toJSONSchema(toolInputSchema(get("all_inputs")))).toEqual({
      type: "object",
      properties: {
        text: { type: "string", description: "Text to echo." },
        count: { type: "number", description: "How many times to repeat the text.", default: 2 },
        loud: { type: "boolean", description: "Upper-case the text." },
        mode: { type: "string", enum: ["plain", "brackets", "quotes"], description: "How to wrap each repetition.", default: "plain" },
        color: { type: "string", enum: ["red", "green", "blue"], description: "A color, given as a YAML list of values." },
        secret: { type: "string", description: "A secret that must never be logged; the tool reports only its length." },
      },
      required: ["text"],
    });
  });

  it("a tool without inputs takes an empty object", () => {
    const schema = toolInputSchema({ inputs: {} });
    expect(toJSONSchema(schema)).toEqual({ type: "object", properties: {} });
    expect(schema.parse({ extra: 1 })).toEqual({});
  });

  it("parsing fills defaults, keeps given values and strips unknown keys", () => {
    const schema = toolInputSchema(get("all_inputs"));
    expect(schema.parse({ text: "hi", extra: true })).toEqual({ text: "hi", count: 2, mode: "plain" });
    expect(schema.parse({ text: "hi", count: 0, loud: false, mode: "quotes", color: "blue", secret: "s3" })).toEqual({
      text: "hi",
      count: 0,
      loud: false,
      mode: "quotes",
      color: "blue",
      secret: "s3",
    });
  });

  it("bad arguments fail with issues naming the input, in the path and at the start of the message", () => {
    const schema = toolInputSchema(get("all_inputs"));
    const result = schema.safeParse({ count: "3", loud: "yes", mode: "shout" });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join("."), i.code, i.message])).toEqual([
      ["text", "invalid_type", "text: Invalid input: expected string, received undefined"],
      ["count", "invalid_type", "count: Invalid input: expected number, received string"],
      ["loud", "invalid_type", "loud: Invalid input: expected boolean, received string"],
      ["mode", "invalid_value", 'mode: Invalid option: expected one of "plain"|"brackets"|"quotes"'],
    ]);
    expect(schema.safeParse({ text: "x", count: Infinity }).success).toBe(false);
  });

  it("marks sensitive inputs in toolInputRegistry, not in the JSON Schema", () => {
    const schema = toolInputSchema(get("fetch_status"));
    expect(toolInputRegistry.get(schema.shape.api_token)).toEqual({ sensitive: true });
    expect(toolInputRegistry.get(schema.shape.url)).toBeUndefined();
    expect(JSON.stringify(toJSONSchema(schema))).not.toContain("sensitive");
    expect(sensitiveInputNames(get("fetch_status"))).toEqual(["api_token"]);
    expect(sensitiveInputNames(get("all_inputs"))).toEqual(["secret"]);
    expect(sensitiveInputNames(get("greet"))).toEqual([]);
  });

  it("an optional sensitive input is marked on its (optional) field", () => {
    const schema = toolInputSchema({
      inputs: { key: { name: "key", type: "string", description: "k", optional: true, sensitive: true } },
    });
    expect(toolInputRegistry.get(schema.shape.key)).toEqual({ sensitive: true });
    expect(schema.parse({})).toEqual({});
  });
});

describe("maskSensitiveInputs", () => {
  it("masks present sensitive values of any type and leaves the rest", () => {
    const tool = get("all_inputs");
    const params = { text: "hi", secret: "hunter2" };
    expect(maskSensitiveInputs(tool, params)).toEqual({ text: "hi", secret: SENSITIVE_MASK });
    expect(params.secret).toBe("hunter2");
    expect(maskSensitiveInputs(tool, { text: "hi", secret: 42 })).toEqual({ text: "hi", secret: "***" });
    expect(maskSensitiveInputs(tool, { text: "hi" })).toEqual({ text: "hi" });
    expect(maskSensitiveInputs(tool, "not an object")).toBe("not an object");
    expect(maskSensitiveInputs(tool, null)).toBe(null);
  });
});
