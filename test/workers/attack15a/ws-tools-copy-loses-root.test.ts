/**
 * Issue 20, fifteenth attack run: `ws:tools` over a COPY of a library tool from a tool set built with a `root`
 * (src/modules/tools.ts forAISDKTools: `[TOOL_ROOT]: () => toolRootOf(current()[name])`; the fix of attack13a
 * ws-tools-renamed-file-tool marks a copy's `execute` as a library tool, 11659f05, but not with its root).
 *
 * Tried: `createAITools({ workspace, root: "/workspace/proj" })`, exported to a run confined to the same root
 * as the tool itself (`{ read: tools.read }`: relative paths work) and as a copy (`{ read: { ...tools.read,
 * description } }`, the fix's own example of a copy).
 *
 * Found (medium — a write outside the run's root; docs/runtime.md: "The path is checked as the tool will use it
 * (relative to the tool set's own root, else to /)"): the copy loses the tool set's root in ws:tools, so its
 * relative path is checked against `/` while the tool resolves it against its own root:
 * - tool set rooted at the run's root: `read({ path: "notes.txt" })` — /workspace/proj/notes.txt, inside the
 *   run's root — is refused "EACCES: paths must stay under /workspace/proj: /notes.txt";
 * - tool set rooted ABOVE the run's root (`root: "/workspace"`, run confined to /workspace/proj):
 *   `write({ path: "workspace/proj/planted.txt", content })` is checked as /workspace/proj/planted.txt and
 *   WRITES /workspace/workspace/proj/planted.txt, outside the run's root (any file under that subtree, with
 *   directories created; reads likewise). Each reproduced 3 of 3.
 * Suggested fix: mark the tool's `execute` with its root too (markToolRoot on execute in createAITools), and
 * read TOOL_ROOT as `toolRootOf(tool) ?? toolRootOf(tool.execute)`, as LIBRARY_TOOL already is.
 *
 * Fixed: createAITools marks each tool's execute with the set's root (and a directory tool's execute as
 * starting runs), createPiTools marks its execute; ws:tools reads the root (and whether a tool starts runs)
 * from the tool or else its execute, so a copy ({ ...tools.read }, { ...createPiTools(…) }) resolves and is
 * checked as the original.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { createToolBindings, forAISDKTools } from "../../../src/modules/tools.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createPiTools, forPiTools } from "../../../src/tools/pi-ai.js";

const CODE = `import { read, read_copy } from "ws:tools";
export default async () => {
  const a = await read({ path: "notes.txt" });
  const b = await read_copy({ path: "notes.txt" });
  return { tool: [a.isError, a.text.includes("hello")], copy: [b.isError, b.isError ? b.text : b.text.includes("hello")] };
};`;

/** Writes "workspace/proj/planted.txt" (relative) through the exported write tool. */
const PLANT = `import { write } from "ws:tools";
export default async () => { const w = await write({ path: "workspace/proj/planted.txt", content: "from the run" }); return [w.isError, w.text]; };`;

const REFUSED = "EACCES: paths must stay under /workspace/proj: /workspace/workspace/proj/planted.txt";

/**
 * Runs `code` in a JavaScript backend confined to /workspace/proj whose ws:tools are `bindings(ws)` (built over
 * the Workspace once it exists), with /workspace/proj/notes.txt holding "hello"; answers the run's status and
 * value, and what /workspace/workspace/proj/planted.txt holds (or its error code).
 */
function runConfined(bindings: (ws: () => Workspace) => ReturnType<typeof createToolBindings>, code: string) {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_i, state) => {
    let made: Workspace | undefined;
    const ws = new Workspace({
      storage: state.storage,
      backends: [new WorkerJavaScriptBackend({ loader: env.LOADER, root: "/workspace/proj", modules: { "ws:tools": bindings(() => made!) } })],
    });
    made = ws;
    try {
      await ws.fs.mkdir("/workspace/proj", { recursive: true });
      await ws.fs.writeFile("/workspace/proj/notes.txt", "hello");
      const result = await (await ws.runtime.exec(code, { encoding: "utf8" })).result();
      const planted = await ws.fs.readFile("/workspace/workspace/proj/planted.txt", "utf8").catch((e: { code: string }) => e.code);
      return { status: result.status, stderr: result.stderr, value: result.value, planted };
    } finally {
      await ws.close();
    }
  });
}

/** AI SDK tools of `ws` rooted at `root`, built once. */
function aiTools(ws: () => Workspace, root: string) {
  let tools: ReturnType<typeof createAITools> | undefined;
  return () => (tools ??= createAITools({ workspace: ws(), root }));
}

it("a copy of a rooted library tool resolves a relative path as the tool does", async () => {
  const out = await runConfined((ws) => {
    const tools = aiTools(ws, "/workspace/proj");
    return createToolBindings(forAISDKTools(() => ({ read: tools().read, read_copy: { ...tools().read, description: "a copy" } }) as never));
  }, CODE);
  // Found: copy = [true, "EACCES: paths must stay under /workspace/proj: /notes.txt"].
  expect(out).toEqual({ status: "completed", stderr: "", value: { tool: [false, true], copy: [false, true] }, planted: "ENOENT" });
});

// The same defect the other way: a tool set rooted ABOVE the run's root (tools for the whole /workspace, the run
// confined to /workspace/proj). The copy's relative path is checked against `/` (/workspace/proj/planted.txt:
// inside the run's root) but the tool resolves it against /workspace: it writes /workspace/workspace/proj/planted.txt,
// outside the run's root.
it("a copy of a library tool rooted above the run's root cannot write outside the run's root", async () => {
  const out = await runConfined((ws) => {
    const tools = aiTools(ws, "/workspace");
    return createToolBindings(forAISDKTools(() => ({ write: { ...tools().write, description: "a copy" } }) as never));
  }, PLANT);
  // Found: value [false, '{"path":"workspace/proj/planted.txt","bytesWritten":12}'], planted "from the run".
  expect(out).toEqual({ status: "completed", stderr: "", value: [true, REFUSED], planted: "ENOENT" });
});

// The same for pi: a copy of createPiTools()'s result ({ ...piTools }) keeps the set's root.
it("a copy of a rooted pi tool set resolves a relative path as the set does", async () => {
  const out = await runConfined((ws) => {
    let pi: ReturnType<typeof createPiTools> | undefined;
    return createToolBindings(() => forPiTools({ ...(pi ??= createPiTools({ workspace: ws(), root: "/workspace" })) })());
  }, PLANT);
  expect(out).toEqual({ status: "completed", stderr: "", value: [true, REFUSED], planted: "ENOENT" });
});
