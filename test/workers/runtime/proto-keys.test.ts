import { describe, expect, it } from "vitest";
import { inWorkspace } from "./helpers.js";
import type { WorkspaceRuntimeValue } from "../../../src/index.js";

describe('"__proto__" keys', () => {
  it('"__proto__" keys survive in input, env and results as ordinary keys (B4)', async () => {
    const out = await inWorkspace(async (ws) => {
      const input = JSON.parse('{"__proto__":{"polluted":true},"a":1}') as WorkspaceRuntimeValue;
      const env = JSON.parse('{"__proto__":"p","B":"b"}') as Record<string, string>;
      const r = await (
        await ws.runtime.exec(
          `export default (input) => ({
             inputKeys: Object.keys(input), inputProto: input.__proto__ === Object.prototype ? "prototype" : input.__proto__,
             polluted: ({}).polluted ?? null, env: Object.entries(process.env),
             out: JSON.parse('{"__proto__":{"x":1},"y":2}'),
           });`,
          { input, env },
        )
      ).result();
      const value = r.value as { out: Record<string, unknown> };
      return { value, outKeys: Object.keys(value.out), outOwn: Object.getOwnPropertyDescriptor(value.out, "__proto__")?.value };
    });
    expect(out.value).toMatchObject({ inputKeys: ["__proto__", "a"], inputProto: { polluted: true }, polluted: null, env: [["__proto__", "p"], ["B", "b"]] });
    expect(out.outKeys).toEqual(["__proto__", "y"]);
    expect(out.outOwn).toEqual({ x: 1 });
  });
});
