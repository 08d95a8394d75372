/**
 * Issue 20, twenty-seventh attack run: through `ws:tools` (`runTools: true`) a directory tool's result is sent to the
 * isolate twice — as `text` and again as `details` (forAISDKTools: the same string; forPiTools: `{ content }` holding
 * it) — so any result over about half of `maxCapabilityBytes` (1 MiB) makes the call reject `E2BIG host call
 * response is 1200034 bytes, over maxCapabilityBytes (1048576)` after the tool has run, although the tool's own
 * limit (`maxResultBytes`, 1 MiB) accepted it and every adapter hands it to the model whole.
 *
 * Tried: a TypeScript directory tool returning `"x".repeat(n)` for n = 400,000, 600,000 and 1,000,000, called
 * directly through `createAITools(…).big_out.execute` and `createPiTools(…).execute`, and from isolate code through
 * `createToolBindings(forAISDKTools(…), { runTools: true })` and `createToolBindings(forPiTools(…), { runTools: true })`
 * on a WorkerJavaScriptBackend with the default limits.
 * Held: the adapters return all three results whole; through ws:tools 400,000 characters come back
 * (`{ len: 400000, isError: false }`); a result that cannot be sent as JSON at all resolves the documented
 * `Tool "…" ran, but its output cannot be sent as JSON (…); what it did stands.` error result.
 * Found (low–medium — a result the tool and the adapters accept is lost to isolate code, and the rejection does not
 * say the tool ran: a mutating tool's change stands while the code sees only a host-call size error; 2 of 2 runs):
 * 600,000 characters reject `E2BIG … 1200034 bytes` (AI SDK set) / `… 1200077 bytes` (pi set).
 * Suggested fix: src/modules/tools.ts — do not repeat a text result in `details` (forAISDKTools: leave `details`
 * out, or `null`, when the output is a string; piResult: leave out `details` that only wraps `content`), or bound the
 * binding's answer by maxCapabilityBytes and resolve an error result that says the tool ran (as unsendableOutput).
 *
 * Fixed: src/modules/tools.ts — forAISDKTools leaves `details` out for a string output, and piResult leaves out
 * `details` that only repeat the content (`{ content, isError? }`), so a text result is sent once; and every
 * ws:tools answer is measured against the new `ctx.maxResponseBytes` (the bridge's maxCapabilityBytes, or what is
 * left of maxCapabilityResponseBytes; `measure` moved to src/runtime/json-value.ts to be shared): one too large
 * resolves `Tool "<name>" ran, but its result (<n> bytes) is more than a ws:tools call may return …; what it did
 * stands.` as an error result instead of rejecting E2BIG after the tool ran.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { createToolBindings, forAISDKTools, forPiTools } from "../../../src/modules/tools.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { input, toolAt } from "../tool-dirs/helpers.js";

const big = toolAt("big_out", "typescript", "index.ts", { n: input("number") }, { mutating: false });

async function viaWsTools(set: "ai" | "pi", n: number): Promise<unknown> {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_i, state) => {
    let ai: ReturnType<typeof createAITools> | undefined;
    let pi: ReturnType<typeof createPiTools> | undefined;
    const bindings =
      set === "ai"
        ? createToolBindings(forAISDKTools(() => ai! as never), { runTools: true })
        : createToolBindings(() => forPiTools(pi!)(), { runTools: true });
    const ws = new Workspace({ storage: state.storage, backends: [new WorkerJavaScriptBackend({ loader: env.LOADER, modules: { "ws:tools": bindings } })] });
    ai = createAITools({ workspace: ws, toolDirectories: { tools: [big] } });
    pi = createPiTools({ workspace: ws, toolDirectories: { tools: [big] } });
    try {
      await ws.fs.mkdir(big.dir, { recursive: true });
      await ws.fs.writeFile(big.entry, `export async function execute(_id, p) { return { content: [{ type: "text", text: "x".repeat(p.n) }] }; }`);
      const code = `import { big_out } from "ws:tools";
export default async () => {
  try {
    const r = await big_out({ n: ${n} });
    return { len: r.text.length, isError: r.isError };
  } catch (e) {
    return { threw: e.code + " " + e.message };
  }
};`;
      return (await (await ws.runtime.exec(code, { encoding: "utf8" })).result()).value;
    } finally {
      await ws.close();
    }
  });
}

it("returns a 600,000-character directory tool result through ws:tools, as the adapters do", { timeout: 120_000 }, async () => {
  const ai = await viaWsTools("ai", 600_000);
  const pi = await viaWsTools("pi", 600_000);
  // Was: { threw: "E2BIG host call response is 1200034 bytes, over maxCapabilityBytes (1048576)" } (ai) and
  // { threw: "E2BIG host call response is 1200077 bytes, over maxCapabilityBytes (1048576)" } (pi).
  expect({ ai, pi }).toEqual({ ai: { len: 600_000, isError: false }, pi: { len: 600_000, isError: false } });
});
