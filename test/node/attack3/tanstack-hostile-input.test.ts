/**
 * Issue 20 third attack run, category 4: TanStack chat() hands a tool the
 * `input` of the adapter's TOOL_CALL_END event when there is one, so the
 * input need not be what the streamed argument text said: a "__proto__" own
 * key, a 1,000-deep object, a string, an array, a number, null. Each call
 * through the real chat() loop ends as a tool message; the run finishes;
 * nothing is written or polluted. (Input whose getters or Proxy traps
 * throw, or that holds a cycle, never reaches a tool: TanStack's own
 * ToolCallManager.completeToolCall JSON.stringify's it first and chat()
 * rejects with that error — an adapter bug upstream, not a model's output;
 * so does input nested a few thousand levels, which overflows that
 * JSON.stringify.)
 */
import { describe, expect, it } from "vitest";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import { makeWorkspace } from "../tools/helpers.js";
import { runChat } from "../tools/tanstack-helpers.js";

describe("attack3: TanStack chat() with tool input that is not plain JSON", () => {
  it("__proto__ keys, deep, non-object and mismatched END input end as tool messages", async () => {
    const workspace = await makeWorkspace();
    await workspace.fs.writeFile("/workspace/f.txt", "alpha\n");
    let deep: Record<string, unknown> = { path: "/workspace/f.txt" };
    for (let i = 0; i < 1_000; i++) deep = { path: "/workspace/f.txt", content: "x", d: deep };
    const calls = [
      { id: "proto", name: "write", args: "{}", input: JSON.parse('{"path":"/workspace/p.txt","content":"p","__proto__":{"polluted":true}}') },
      { id: "deep", name: "edit", args: "{}", input: deep },
      { id: "string", name: "edit", args: '"x"', input: "x" },
      { id: "array", name: "read", args: "[1]", input: [1] },
      { id: "number", name: "delete", args: "5", input: 5 },
      { id: "null", name: "write", args: "null", input: null },
      { id: "mismatch", name: "read", args: '{"path":"/workspace/other.txt"}', input: { path: "/workspace/f.txt" } },
    ];
    let message: (id: string) => unknown = () => undefined;
    let thrown: unknown;
    try {
      ({ toolMessage: message } = await runChat(createTanStackTools({ workspace }), [{ calls }, { text: "done" }]));
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeUndefined();
    for (const c of calls) {
      const m = message(c.id);
      expect(typeof m === "string" && m.length > 0, `${c.id}: ${JSON.stringify(m)}`).toBe(true);
    }
    for (const id of ["deep", "string", "array", "number", "null"]) expect(String(message(id)), id).toMatch(/error/i);
    expect(await workspace.fs.readFile("/workspace/f.txt", "utf8")).toBe("alpha\n");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // the __proto__ write wrote p.txt only; the read took END's input
    expect(String(message("mismatch"))).toContain("alpha");
    expect((await workspace.fs.ls("/workspace")).sort()).toEqual(["/workspace/f.txt", "/workspace/p.txt"]);
  });
});
