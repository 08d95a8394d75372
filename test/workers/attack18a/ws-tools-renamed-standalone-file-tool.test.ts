/**
 * Issue 20, eighteenth attack run: `ws:tools` root confinement (src/modules/tools.ts createToolBindings,
 * `refusedPath`) of the library's file tools built one by one — `createReadTool`, `createWriteTool`, … of
 * src/tools/ai-sdk-tools.ts, the documented way to build single tools (docs/tools.md "Tools built one by one",
 * `createReadTool({ store: new WorkspaceFileStore(workspace) })`) — exported under another key.
 * Tried: a JavaScript run confined with `root: "/workspace/proj"` (access "read-write") whose `ws:tools` is
 * `forAISDKTools({ read_file: createReadTool({ store }), write_file: createWriteTool({ store }) })` over a
 * WorkspaceFileStore of the same Workspace (a rename the AI SDK makes ordinary, e.g. to avoid another toolkit's
 * `read`). Held: the same standalone tools under their own keys (`read`, `write`) are refused (checked by name);
 * `createAITools()`'s tools renamed or copied are refused (attack13a, marked by `markLibraryTool`); the standalone
 * `createExecTool` renamed is left out (attack17a's fix marks it).
 * Found (medium — the backend's root lifted for a documented construction; 3 of 3 runs): only `createAITools`
 * (and createExecTool since 15baadf) mark their tools with `markLibraryTool`; `createReadTool`, `createWriteTool`,
 * `createEditTool`, `createDeleteTool`, `createListTool`, `createFindTool`, `createGrepTool`, `createPublishTool`
 * do not, so the binding's `LIBRARY_TOOL` is undefined, `kind` falls back to the key, and `read_file`/`write_file`
 * are not in FILE_TOOL_DEFAULT_PATHS — no path check:
 *   await read_file({ path: "/workspace/secret.txt" })                         → isError false, content "top secret"
 *   await write_file({ path: "/workspace/other/planted.txt", content: "x" })   → written outside the root
 * while the run's own node:fs gets EACCES for the same file. docs/runtime.md: "The library's tools are recognised
 * by what they are, not by the key they are exported under".
 * Suggested fix: mark every standalone factory's tool and its `execute` as createExecTool now is —
 * `markLibraryTool(tool, core.name, core.mutating)` in each create*Tool (e.g. inside `toAITool` itself, so no factory
 * can miss it); then the standalone read, ls, find and grep are also `readOnly` by their execute, as createAITools' are.
 * Fixed: src/tools/ai-sdk-tools.ts `toAITool` — the one place every AI SDK tool is built (createAITools and all nine
 * create*Tool factories) — marks the tool and its `execute` with `markLibraryTool(core.name, core.mutating)` (a
 * directory tool with `markStartsRuns`), so `read_file`/`write_file` are checked as read/write and refused.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { createToolBindings, forAISDKTools } from "../../../src/modules/tools.js";
import { createReadTool, createWriteTool } from "../../../src/tools/ai-sdk.js";
import { WorkspaceFileStore } from "../../../src/tools/index.js";

const CODE = (read: string, write: string) => `import * as t from "ws:tools";
import { readFile } from "node:fs/promises";
export default async () => {
  const own = await readFile("/workspace/secret.txt", "utf8").catch((e) => e.code);
  const r = await t.${read}({ path: "/workspace/secret.txt" });
  const w = await t.${write}({ path: "/workspace/other/planted.txt", content: "from the run" });
  return { own, read: { isError: r.isError, text: r.text }, write: { isError: w.isError } };
};`;

async function runWith(read: string, write: string) {
  return runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
    let tools: Record<string, unknown> = {};
    const ws: Workspace = new Workspace({
      storage: state.storage,
      backends: [
        new WorkerJavaScriptBackend({
          loader: env.LOADER,
          root: "/workspace/proj",
          access: "read-write",
          modules: { "ws:tools": createToolBindings(forAISDKTools((): never => tools as never)) },
        }),
      ],
    });
    const store = new WorkspaceFileStore(ws);
    tools = { [read]: createReadTool({ store }), [write]: createWriteTool({ store }) };
    try {
      await ws.fs.mkdir("/workspace/proj", { recursive: true });
      await ws.fs.writeFile("/workspace/secret.txt", "top secret");
      const result = await (await ws.runtime.exec(CODE(read, write), { encoding: "utf8" })).result();
      const planted = await ws.fs.readFile("/workspace/other/planted.txt", "utf8").catch((e: { code: string }) => e.code);
      return { status: result.status, value: result.value, planted };
    } finally {
      await ws.close();
    }
  });
}

const REFUSED = {
  status: "completed",
  value: { own: "EACCES", read: { isError: true, text: "EACCES: paths must stay under /workspace/proj: /workspace/secret.txt" }, write: { isError: true } },
  planted: "ENOENT",
};

it("held: standalone read and write under their own keys keep to the run's root", { timeout: 60_000 }, async () => {
  expect(await runWith("read", "write")).toEqual(REFUSED);
});

it("standalone read and write renamed (read_file, write_file) keep to the run's root", { timeout: 60_000 }, async () => {
  // Was: read { isError: false, text: JSON with content "top secret" }, write { isError: false }, planted "from the run".
  expect(await runWith("read_file", "write_file")).toEqual(REFUSED);
});
