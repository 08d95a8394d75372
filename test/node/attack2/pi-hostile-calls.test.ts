/**
 * Issue 20 second attack run, category 4: pi's `execute(call)` is documented
 * never to throw. Call objects and arguments that throw when read (getters,
 * Proxy traps), arguments of the wrong type, cyclic arguments, odd tool
 * names and a "__proto__" key in the arguments all come back as results,
 * write nothing they should not, and pollute nothing.
 */
import { describe, expect, it } from "vitest";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { makeWorkspace } from "../tools/helpers.js";

const TOOLS = ["read", "ls", "find", "grep", "write", "edit", "delete"] as const;

describe("pi execute() with hostile calls", () => {
  it("arguments that throw when read, or are not an object, are error results for every tool", async () => {
    const workspace = await makeWorkspace();
    await workspace.fs.writeFile("/workspace/f.txt", "hello\n");
    const { execute } = createPiTools({ workspace });
    const throwingGetter = { get path(): string { throw new Error("getter boom"); }, content: "x", pattern: "*", query: "x", edits: [] };
    const trap = () => { throw new Error("trap boom"); };
    const proxy = new Proxy({}, { get: trap, ownKeys: trap, getOwnPropertyDescriptor: trap, has: trap, getPrototypeOf: trap });
    const cases: Record<string, unknown> = { throwingGetter, proxy, number: 42, string: "x", array: [], nul: null };
    for (const [what, args] of Object.entries(cases)) {
      for (const name of TOOLS) {
        const result = await execute({ type: "toolCall", id: `${what}-${name}`, name, arguments: args } as never);
        expect(result.isError, `${what} → ${name}`).toBe(true);
        expect((result.content[0] as { text: string }).text.length, `${what} → ${name}`).toBeGreaterThan(0);
      }
    }
    expect(await workspace.fs.readFile("/workspace/f.txt", "utf8")).toBe("hello\n");
    expect(await workspace.fs.ls("/workspace")).toEqual(["/workspace/f.txt"]);
  });

  it("call objects that are null, throw on read, or name no own tool are error results", async () => {
    const workspace = await makeWorkspace();
    const { execute } = createPiTools({ workspace });
    const calls: unknown[] = [
      null,
      undefined,
      { get name(): string { throw new Error("name boom"); } },
      { id: "1", name: "__proto__", arguments: {} },
      { id: "1", name: "toString", arguments: {} },
      { id: "1", name: "constructor", arguments: {} },
      { id: "1", name: { toString: () => "read" }, arguments: { path: "/workspace" } },
    ];
    for (const call of calls) {
      const result = await execute(call as never);
      expect(result.isError).toBe(true);
      expect((result.content[0] as { text: string }).text.length).toBeGreaterThan(0);
    }
  });

  it("cyclic arguments with valid fields run (extra keys dropped); a __proto__ key pollutes nothing", async () => {
    const workspace = await makeWorkspace();
    await workspace.fs.writeFile("/workspace/f.txt", "hello\n");
    const { execute } = createPiTools({ workspace });
    const cyclic: Record<string, unknown> = { path: "/workspace/f.txt" };
    cyclic.self = cyclic;
    const read = await execute({ type: "toolCall", id: "c", name: "read", arguments: cyclic } as never);
    expect(read.isError).toBe(false);
    expect((read.content[0] as { text: string }).text).toContain("hello");
    const polluting = JSON.parse('{"path":"/workspace/g.txt","content":"g","__proto__":{"polluted":true}}');
    const write = await execute({ type: "toolCall", id: "p", name: "write", arguments: polluting } as never);
    expect(write.isError).toBe(false);
    expect(await workspace.fs.readFile("/workspace/g.txt", "utf8")).toBe("g");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
