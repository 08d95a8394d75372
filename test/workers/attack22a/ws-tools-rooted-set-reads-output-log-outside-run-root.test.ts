/**
 * Issue 20, twenty-second attack run: a JavaScript run reads a file outside its backend's root through `ws:tools`.
 * Tried: c066722/727bed2 let a root-confined tool set's read and grep open the full-output logs its own exec named
 * (`/.computer/output/worker-javascript.<id>.stdout.log`, outside `root`). createToolBindings (src/modules/tools.ts)
 * skips its own path check for "tool sets built with a root at or under the backend's … confined already and not
 * checked again" (refusedPath). So: an AI SDK tool set with `root: "/workspace"` and exec, exported to a
 * WorkerJavaScriptBackend (root /workspace) as `ws:tools` (forAISDKTools); the model's exec prints 3,000 lines (the
 * note names the log); then a run calls `read` and `grep` of that log through ws:tools, and node:fs readFile of it.
 * Held: the run's own node:fs refuses the log (`paths must stay under /workspace: /.computer/output/…`); an unrooted
 * tool set's ws:tools read is checked with ctx.resolvePath and refused.
 * Found (low — a documented confinement broken, though the bytes are output of the model's own runs; 3 of 3 runs):
 * `read({ path: log })` and `grep({ path: log, query: "line 2999" })` from `ws:tools` answer the log's lines
 * (isError false): the run reads a file outside its backend's root, which docs/runtime.md ("Files only under root
 * … host modules keep to it too") and createToolBindings' TSDoc ("the path of the library's file tools … is
 * checked with ctx.resolvePath — under the backend's root") rule out. A host that gives a run a narrower root than
 * the agent's (root "/workspace/sandbox" for both the tool set and the backend) gets the same.
 * Suggested fix: in refusedPath, skip the check only when the tool set's root is under ctx.root AND the path the
 * tool will use (normalizePath(given, toolRoot)) is under ctx.root too; otherwise check it with ctx.resolvePath, as
 * for an unrooted set (the noted-log exception is for the model's tool calls, not for isolate code).
 * Fixed: refusedPath (src/modules/tools.ts) skips its check for a tool set rooted at or under the run's root only
 * when the path the tool will use is under the run's root too; a path outside it (the noted log) is checked with
 * ctx.resolvePath like an unrooted set's, and refused `EACCES`. The model's own tool calls still read the log.
 * Siblings (a narrower root for both, `..` out of the root, paths under the root still pass, the model's read):
 * test/workers/fix22/fjs-ws-tools-rooted.test.ts.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { createToolBindings, forAISDKTools } from "../../../src/modules/tools.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { jsBackend } from "../runtime/helpers.js";

const THREE_THOUSAND = `export default () => { for (let i = 1; i <= 3000; i++) console.log("line " + i); }`;

it("ws:tools read and grep of exec's log outside the run's root are refused like node:fs", async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const out = await runInDurableObject(stub, async (_i, state) => {
    let tools: ReturnType<typeof createAITools> | undefined;
    const ws = new Workspace({
      storage: state.storage,
      backends: [jsBackend({ modules: { "ws:tools": createToolBindings(forAISDKTools(() => tools as never)) } })],
    });
    try {
      await ws.fs.mkdir("/workspace", { recursive: true });
      tools = createAITools({ workspace: ws as never, root: "/workspace" });
      let final: { stdout: string } | undefined;
      const exec = tools.exec.execute!({ command: THREE_THOUSAND } as never, { toolCallId: "1", messages: [] } as never);
      for await (const snapshot of exec as unknown as AsyncIterable<{ stdout: string }>) final = snapshot;
      const log = /Full output: (\/\S+)\]$/.exec(final!.stdout)?.[1] ?? "no note";
      const run = async (body: string) => (await (await ws.runtime.exec(body)).result()).value;
      const read = await run(
        `import { read } from "ws:tools"; export default async () => { const r = await read({ path: ${JSON.stringify(log)}, offset: 2999, limit: 1 }); return { isError: r.isError, text: r.isError ? r.text : r.details.content }; }`,
      );
      const grep = await run(
        `import { grep } from "ws:tools"; export default async () => { const r = await grep({ path: ${JSON.stringify(log)}, query: "line 2999" }); return { isError: r.isError, text: r.isError ? r.text : r.details.matches[0].text }; }`,
      );
      const nodeFs = await run(
        `import fs from "node:fs/promises"; export default async () => { try { await fs.readFile(${JSON.stringify(log)}, "utf8"); return "read"; } catch (e) { return e.code; } }`,
      );
      return { logOutside: log.startsWith("/.computer/output/"), read, grep, nodeFs, log };
    } finally {
      await ws.close();
    }
  });
  // Found: read { isError: false, text: "line 2999" }, grep { isError: false, text: "line 2999" }, nodeFs "EACCES".
  const refused = { isError: true, text: `EACCES: paths must stay under /workspace: ${out.log}` };
  expect(out).toEqual({ logOutside: true, read: refused, grep: refused, nodeFs: "EACCES", log: out.log });
}, 120_000);
