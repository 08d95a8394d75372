/**
 * Issue 20 sixth attack run, category 4 (malformed tool calls) through each
 * library's real loop, on angles runs 2–5 did not take: MANY calls in ONE
 * model step — 200 parallel writes to one file interleaved with reads and
 * edits of it (AI SDK generateText over MockLanguageModelV4, TanStack chat());
 * two calls sharing ONE tool-call id in a step; tool names that differ only
 * by case or whitespace; argument keys named after Object.prototype members
 * (`constructor`, `hasOwnProperty`, `toString`, `valueOf`); and, on pi's
 * execute called directly, argument and call objects that are thenables
 * (a `then` method — an `await` of them would hang forever) and an
 * abortSignal whose methods throw. Each call ends as one result in bounded
 * time, the loop finishes, the file is one whole write (never interleaved
 * bytes), nothing is polluted. All withstood.
 */
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import { done, outputFor, usage } from "../../shared/loops/ai-sdk.js";
import { setup } from "../tools/helpers.js";
import { runChat } from "../tools/tanstack-helpers.js";

const step = (calls: Array<{ id: string; name: string; input: unknown }>) => ({
  content: calls.map((c) => ({ type: "tool-call" as const, toolCallId: c.id, toolName: c.name, input: JSON.stringify(c.input) })),
  finishReason: { unified: "tool-calls" as const, raw: undefined },
  usage,
  warnings: [],
});
const CONTENTS = Array.from({ length: 200 }, (_, i) => `${String(i).padStart(3, "0")}:`.repeat(2000));
const manyCalls = () =>
  CONTENTS.flatMap((content, i) => [
    { id: `w${i}`, name: "write", input: { path: "/workspace/one.txt", content } },
    { id: `r${i}`, name: "read", input: { path: "/workspace/one.txt", limit: 1 } },
  ]);

describe("attack6: many calls in one step, shared ids, near-miss names, prototype-named keys", () => {
  it("AI SDK: 400 calls in one step (200 writes of one file, 200 reads): each answered, the file is one whole write", async () => {
    const { workspace } = await setup({ "/workspace/one.txt": "start" });
    const calls = manyCalls();
    const model = new MockLanguageModelV4({ doGenerate: [step(calls), done] });
    const r = await generateText({ model, prompt: "go", tools: createAITools({ workspace }), stopWhen: stepCountIs(3) });
    expect(r.text).toBe("done");
    const outputs = calls.map((c) => outputFor(model, c.id) as { type: string; value: unknown });
    expect(outputs.every((o) => o !== undefined)).toBe(true);
    const writes = outputs.filter((_, i) => calls[i]!.name === "write");
    // every write answered; a write may be refused as stale (the file changed since it was read), never half-done
    for (const w of writes) expect(["json", "error-text", "text"]).toContain(w.type);
    const final = await workspace.fs.readFile("/workspace/one.txt", "utf8");
    expect(CONTENTS.includes(final) || final === "start").toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("TanStack chat(): 400 calls in one step, then two calls sharing one id: the run finishes; the file is one whole write", async () => {
    const { workspace } = await setup({ "/workspace/one.txt": "start" });
    const tools = createTanStackTools({ workspace });
    const calls = manyCalls();
    const chat = await runChat(tools, [{ calls }, { calls: [{ id: "dup", name: "write", input: { path: "/workspace/a.txt", content: "A" } }, { id: "dup", name: "write", input: { path: "/workspace/b.txt", content: "B" } }] }, { text: "done" }]);
    expect(chat.seen).toHaveLength(3);
    for (const c of calls) expect(chat.seen[1]!.messages.some((m) => (m as { toolCallId?: string }).toolCallId === c.id), c.id).toBe(true);
    const final = await workspace.fs.readFile("/workspace/one.txt", "utf8");
    expect(CONTENTS.includes(final) || final === "start").toBe(true);
    // a shared id: the loop ends; whatever ran wrote whole files
    const a = await workspace.fs.readFile("/workspace/a.txt", "utf8").catch((e) => (e as { code: string }).code);
    const b = await workspace.fs.readFile("/workspace/b.txt", "utf8").catch((e) => (e as { code: string }).code);
    expect(["A", "ENOENT"]).toContain(a);
    expect(["B", "ENOENT"]).toContain(b);
  });

  it("AI SDK: near-miss names are unknown tools; keys named after Object.prototype members are dropped or refused, never used", async () => {
    const { workspace } = await setup({ "/workspace/f.txt": "alpha\n" });
    const calls: Array<{ id: string; name: string; input: Record<string, unknown> }> = [
      { id: "c1", name: "Read", input: { path: "/workspace/f.txt" } },
      { id: "c2", name: "read ", input: { path: "/workspace/f.txt" } },
      { id: "c3", name: "read", input: { path: "/workspace/f.txt", hasOwnProperty: 1, toString: 2, valueOf: 3, isPrototypeOf: 4 } },
      { id: "c5", name: "read", input: { path: "/workspace/f.txt", constructor: { prototype: { polluted: 1 } } } },
      { id: "c4", name: "write", input: { path: "/workspace/g.txt", content: "g", constructor: "x", toJSON: "y" } },
    ];
    const model = new MockLanguageModelV4({ doGenerate: [step(calls), done] });
    const r = await generateText({ model, prompt: "go", tools: createAITools({ workspace }), stopWhen: stepCountIs(3) });
    expect(r.text).toBe("done");
    const out = Object.fromEntries(calls.map((c) => [c.id, outputFor(model, c.id) as { type: string; value: unknown }]));
    expect(out.c1).toMatchObject({ type: "error-text" });
    expect(String(out.c1!.value)).toContain("Read");
    expect(out.c2).toMatchObject({ type: "error-text" });
    expect(out.c3).toEqual({ type: "text", value: "alpha" });
    // the AI SDK's own JSON parsing refuses constructor.prototype before our tool sees it
    expect(out.c5).toMatchObject({ type: "error-text" });
    expect(String(out.c5!.value)).toContain("Object contains forbidden prototype property");
    expect(out.c4!.type).toBe("json");
    expect(await workspace.fs.readFile("/workspace/g.txt", "utf8")).toBe("g");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, "polluted")).toBe(false);
  });

  it("pi execute: thenable argument and call objects, and an abortSignal whose methods throw, answer normally", async () => {
    const { workspace } = await setup({ "/workspace/f.txt": "alpha\n" });
    const { execute } = createPiTools({ workspace });
    const HUNG = Symbol("hung");
    const settle = <T>(p: Promise<T>) => Promise.race([p, new Promise<typeof HUNG>((r) => setTimeout(() => r(HUNG), 5_000))]);
    const text = (r: unknown) => (r === HUNG ? "HUNG" : ((r as { content: { text: string }[] }).content[0]!.text as string));
    const thenArgs = await settle(execute({ id: "1", name: "read", arguments: { path: "/workspace/f.txt", then() {} } } as never));
    const thenCall = await settle(execute({ id: "2", name: "read", arguments: { path: "/workspace/f.txt" }, then() {} } as never));
    const signal = {
      aborted: false,
      reason: undefined,
      addEventListener() {
        throw new Error("listener");
      },
      removeEventListener() {},
      throwIfAborted() {
        throw new Error("throwIfAborted");
      },
    };
    const badSignal = await settle(execute({ id: "3", name: "read", arguments: { path: "/workspace/f.txt" } }, { abortSignal: signal as never }));
    expect([text(thenArgs), text(thenCall), text(badSignal)]).toEqual(["alpha", "alpha", "alpha"]);
  });
});
