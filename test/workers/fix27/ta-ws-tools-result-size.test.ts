/**
 * Issue 20, run 27, fixer TA: siblings of attack27a/ws-tools-directory-result-doubled-past-capability-limit —
 * ws:tools sends a text result once (no `details` repeating it: an AI SDK tool's string output, a pi directory
 * tool's `{ content }`), keeps structured `details`, and an answer over what the call may return resolves an error
 * result saying the tool ran (the tool ran once; what it did stands) instead of rejecting E2BIG after it ran.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { createToolBindings, forAISDKTools, forPiTools } from "../../../src/modules/tools.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { input, toolAt } from "../tool-dirs/helpers.js";

const dirTool = toolAt("dir_out", "typescript", "index.ts", { n: input("number") }, { mutating: false });

it("sends text results once, keeps structured details, and answers an over-size result with an error result", { timeout: 120_000 }, async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const out = await runInDurableObject(stub, async (_i, state) => {
    let ai: ReturnType<typeof createAITools> | undefined;
    let pi: ReturnType<typeof createPiTools> | undefined;
    const ran: string[] = [];
    const own = {
      huge: { execute: async (p: { n: number }) => (ran.push("huge"), "y".repeat(p.n)) },
      obj: { execute: async () => (ran.push("obj"), { rows: [1, 2], note: "ok" }) },
      failed: { execute: async () => ({ error: "nope" }) },
    };
    const piOwn = [
      { name: "pi_details", execute: async () => ({ content: [{ type: "text", text: "a" }, { type: "text", text: "b" }], details: { kept: true } }) },
      { name: "pi_mirror", execute: async () => ({ content: [{ type: "text", text: "m" }], details: { content: [{ type: "text", text: "m" }] } }) },
      { name: "pi_other", execute: async () => ({ content: [{ type: "text", text: "m" }], details: { content: [{ type: "text", text: "other" }] } }) },
    ];
    const backend = new WorkerJavaScriptBackend({
      loader: env.LOADER,
      modules: {
        "ws:tools": createToolBindings(forAISDKTools(() => ({ ...(ai as never as Record<string, never>), ...own }) as never), { runTools: true }),
        "ws:pitools": createToolBindings(() => [...forPiTools(pi!)(), ...forPiTools(piOwn as never)()], { runTools: true }),
      },
    });
    const ws = new Workspace({ storage: state.storage, backends: [backend] });
    ai = createAITools({ workspace: ws, toolDirectories: { tools: [dirTool] } });
    pi = createPiTools({ workspace: ws, toolDirectories: { tools: [dirTool] } });
    try {
      await ws.fs.mkdir(dirTool.dir, { recursive: true });
      await ws.fs.writeFile(dirTool.entry, `export async function execute(_id, p) { return { content: [{ type: "text", text: "x".repeat(p.n) }] }; }`);
      const code = `import { dir_out, huge, obj, failed } from "ws:tools";
import * as pt from "ws:pitools";
const shape = (r) => ({ keys: Object.keys(r).sort(), len: r.text.length, isError: r.isError, head: r.text.slice(0, 40), details: r.details === undefined ? "absent" : r.details });
export default async () => {
  const out = {};
  for (const [k, f] of Object.entries({
    aiDir: () => dir_out({ n: 5 }),
    aiHuge: () => huge({ n: 1_200_000 }),
    aiObj: () => obj({}),
    aiFailed: () => failed({}),
    piDir: () => pt.dir_out({ n: 5 }),
    piDetails: () => pt.pi_details({}),
    piMirror: () => pt.pi_mirror({}),
    piOther: () => pt.pi_other({}),
  })) {
    try { out[k] = shape(await f()); } catch (e) { out[k] = { threw: e.code + " " + e.message }; }
  }
  const huge2 = await huge({ n: 1_200_000 });
  out.hugeText = huge2.text;
  return out;
};`;
      const value = (await (await ws.runtime.exec(code, { encoding: "utf8" })).result()).value as Record<string, unknown>;
      return { value, ran };
    } finally {
      await ws.close();
    }
  });
  const v = out.value;
  expect(v.aiDir).toEqual({ keys: ["isError", "text"], len: 5, isError: false, head: "xxxxx", details: "absent" });
  expect(v.piDir).toEqual({ keys: ["isError", "text"], len: 5, isError: false, head: "xxxxx", details: "absent" });
  expect(v.aiObj).toEqual({ keys: ["details", "isError", "text"], len: 26, isError: false, head: '{"rows":[1,2],"note":"ok"}', details: { rows: [1, 2], note: "ok" } });
  expect(v.aiFailed).toEqual({ keys: ["details", "isError", "text"], len: 4, isError: true, head: "nope", details: { error: "nope" } });
  expect(v.piDetails).toEqual({ keys: ["details", "isError", "text"], len: 3, isError: false, head: "a\nb", details: { kept: true } });
  expect(v.piMirror).toEqual({ keys: ["isError", "text"], len: 1, isError: false, head: "m", details: "absent" });
  expect(v.piOther).toEqual({ keys: ["details", "isError", "text"], len: 1, isError: false, head: "m", details: { content: [{ type: "text", text: "other" }] } });
  // 1,200,000 characters + keys + 8 per container and scalar: over maxCapabilityBytes (1,048,576); the tool ran.
  const said =
    'Tool "huge" ran, but its result (1200027 bytes) is more than a ws:tools call may return (1048576 bytes: the backend\'s maxCapabilityBytes, or what is left of the run\'s maxCapabilityResponseBytes); what it did stands. Ask it for less, or have it write its output to a file and read that.';
  expect(v.aiHuge).toEqual({ keys: ["details", "isError", "text"], len: said.length, isError: true, head: said.slice(0, 40), details: null });
  expect(v.hugeText).toBe(said);
  expect(out.ran).toEqual(["huge", "obj", "huge"]);
});
