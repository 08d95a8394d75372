/**
 * Issue 20, thirteenth attack run: `ws:tools` root confinement (src/modules/tools.ts createToolBindings,
 * `refusedPath`, the fix of attack9 tools-module-root) when the file tools are exposed under other names.
 *
 * Tried: a JavaScript run confined with `root: "/workspace/proj"` and `ws:tools` over
 * `forAISDKTools({ read_file: tools.read, write_file: tools.write })` — the AI SDK's usual way to rename tools
 * (the record's keys are the tool names the model and isolate see; e.g. to avoid a clash with another toolkit's
 * `read`). The same tool objects under their own names are refused (attack9, held).
 *
 * Found (medium — the backend's root lifted): the path check runs only when the BINDING's name is one of
 * read, ls, find, grep, write, edit, delete, publish (`FILE_TOOL_DEFAULT_PATHS.has(binding.name)`), so the
 * renamed library tools run unchecked:
 *   import { read_file, write_file } from "ws:tools";
 *   await read_file({ path: "/workspace/secret.txt" })                        → isError false, text {"path":…,"content":"top secret",…}
 *   await write_file({ path: "/workspace/other/planted.txt", content: "x" })  → written outside the root
 * docs/runtime.md: "Calls keep to the backend's root as the run's node:fs does, whatever the tool set reaches".
 * Reproduced 3 of 3.
 * Fixed: the library's tools (and their execute, for copies such as { ...tools.write }) are marked at build.
 * Suggested fix: recognise the library's file tools by the tool object, not the record key (a WeakMap mark set by
 * createAITools/createPiTools/createTanStackTools, as TOOL_ROOT already is), and check their `path` whatever
 * they are called.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { createToolBindings, forAISDKTools } from "../../../src/modules/tools.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";

const CODE = `import { read_file, write_file } from "ws:tools";
export default async () => {
  const r = await read_file({ path: "/workspace/secret.txt" });
  const w = await write_file({ path: "/workspace/other/planted.txt", content: "from the run" });
  return { read: { isError: r.isError, text: r.text }, write: { isError: w.isError } };
};`;

it("renamed file tools in ws:tools keep to the run's root", async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const out = await runInDurableObject(stub, async (_i, state) => {
    let tools: ReturnType<typeof createAITools> | undefined;
    const ws = new Workspace({
      storage: state.storage,
      backends: [
        new WorkerJavaScriptBackend({
          loader: env.LOADER,
          root: "/workspace/proj",
          modules: { "ws:tools": createToolBindings(forAISDKTools(() => ({ read_file: tools!.read, write_file: { ...tools!.write, description: "a copy" } }) as never)) },
        }),
      ],
    });
    tools = createAITools({ workspace: ws });
    try {
      await ws.fs.mkdir("/workspace/proj", { recursive: true });
      await ws.fs.writeFile("/workspace/secret.txt", "top secret");
      const result = await (await ws.runtime.exec(CODE, { encoding: "utf8" })).result();
      const planted = await ws.fs.readFile("/workspace/other/planted.txt", "utf8").catch((e: { code: string }) => e.code);
      return { status: result.status, value: result.value as { read: { isError: boolean; text: string }; write: { isError: boolean } }, planted };
    } finally {
      await ws.close();
    }
  });
  // Found: read = { isError: false, text: JSON with content "top secret" }, write = { isError: false }, planted = "from the run".
  expect(out.status).toBe("completed");
  expect(out.value.read.text).toBe("EACCES: paths must stay under /workspace/proj: /workspace/secret.txt");
  expect({ readIsError: out.value.read.isError, writeIsError: out.value.write.isError, planted: out.planted }).toEqual({ readIsError: true, writeIsError: true, planted: "ENOENT" });
});
