/**
 * Issue 20 third attack run, category 4 for the exec tool: malformed and
 * hostile exec calls through the AI SDK's real generateText loop over the
 * JavaScript backend in workerd — wrong types, a cwd above or outside the
 * root, env with odd keys and huge values, input at and past the 64-level
 * limit, source past maxSourceBytes, a NUL in the source, a module with no
 * default export. Each is a result the model sees; the loop finishes; the
 * Workspace is unchanged; a valid call still runs after.
 */
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { call, done, outputFor } from "../../shared/loops/ai-sdk.js";
import { inWorkspace } from "../runtime/helpers.js";

const nest = (levels: number): Record<string, unknown> => {
  let v: Record<string, unknown> = { leaf: 1 };
  for (let i = 1; i < levels; i++) v = { v };
  return v;
};

describe("attack3: hostile exec calls through the AI SDK loop", () => {
  it("each malformed call is a result; the loop finishes; a valid call runs after", async () => {
    const calls: Array<[id: string, input: unknown]> = [
      ["number", { command: 42 }],
      ["missing", {}],
      ["cwdUp", { command: "export default () => 1", cwd: "/.." }],
      ["cwdOut", { command: "export default () => 1", cwd: "/etc" }],
      ["cwdNul", { command: "export default () => 1", cwd: "/workspace/\u0000" }],
      ["envType", { command: "export default () => 1", env: { A: 1 } }],
      ["envHuge", { command: "export default () => 1", env: { A: "x".repeat(2_000_000) } }],
      ["inputArray", { command: "export default () => 1", input: [1, 2] }],
      ["input65", { command: "export default (i) => 1", input: nest(65) }],
      ["sourceHuge", { command: `export default () => 1; // ${"x".repeat(2_000_000)}` }],
      ["nul", { command: "export default () => 1;\u0000" }],
      ["noDefault", { command: "export const x = 1;" }],
      ["input64", { command: "export default (i) => { let d = 0; for (let v = i; v && typeof v === 'object'; v = v.v ?? null) d++; return d; }", input: nest(64) }],
      ["envProto", { command: "export default () => [process.env.__proto__, Object.keys(process.env).sort()]", env: JSON.parse('{"__proto__":"p","B":"b"}') }],
    ];
    const r = await inWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace", { recursive: true });
      const model = new MockLanguageModelV4({ doGenerate: [...calls.map(([id, input]) => call(id, "exec", input)), call("ok", "exec", { command: "export default () => 'fine'" }), done] });
      const result = await generateText({ model, prompt: "go", tools: createAITools({ workspace: ws }), stopWhen: stepCountIs(calls.length + 3) });
      const outputs = Object.fromEntries([...calls.map(([id]) => id), "ok"].map((id) => [id, outputFor(model, id) as { type: string; value: unknown }]));
      return { text: result.text, outputs, files: await ws.fs.find("/", "**") };
    });
    expect(r.text).toBe("done");
    const isError = (o: { type: string; value: unknown }) =>
      o.type === "error-text" || (o.type === "json" && typeof (o.value as { error?: unknown }).error === "string") || (o.type === "json" && (o.value as { exitCode?: number }).exitCode !== 0);
    for (const id of ["number", "missing", "cwdUp", "cwdOut", "cwdNul", "envType", "envHuge", "inputArray", "input65", "sourceHuge", "nul", "noDefault"]) {
      expect(r.outputs[id], id).toBeDefined();
      expect(isError(r.outputs[id]!), `${id}: ${JSON.stringify(r.outputs[id]).slice(0, 300)}`).toBe(true);
      // at most what the model sent (exec's result repeats the command) plus a bounded message
      const sent = JSON.stringify(calls.find(([c]) => c === id)![1]).length;
      expect(JSON.stringify(r.outputs[id]).length, id).toBeLessThan(sent + 20_000);
    }
    expect(JSON.stringify(r.outputs.input65)).toContain("input is nested deeper than 64 levels");
    expect(r.outputs.input64).toMatchObject({ type: "json", value: { exitCode: 0, result: 64 } });
    // the AI SDK refuses a "__proto__" key in the arguments itself
    expect(r.outputs.envProto).toMatchObject({ type: "error-text", value: expect.stringContaining("forbidden prototype property") });
    expect(r.outputs.ok).toMatchObject({ type: "json", value: { exitCode: 0, result: "fine" } });
    // nothing but the Workspace's own directories and saved output was created
    expect(r.files.map((e) => e.path).filter((p) => !p.startsWith("/.computer"))).toEqual(["/workspace"]);
  });
});
