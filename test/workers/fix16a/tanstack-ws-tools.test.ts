/**
 * Issue 20, found by the lead after the fifteenth attack run (part of the pi finding: "check TanStack"):
 * TanStack tools carry none of the marks the AI SDK and pi adapters set (markStartsRuns, markLibraryTool,
 * markToolRoot, src/tools/core/root.ts); their object form (`format: "object"`) has the AI SDK tool shape
 * (`execute(input, { toolCallId, abortSignal })`), so `forAISDKTools` takes it for `ws:tools`.
 *
 * Tried: `createTanStackTools({ workspace, root: "/workspace", toolDirectories: { tools: [peek] }, format:
 * "object" })` handed to `createToolBindings(forAISDKTools(…))` in a JavaScript backend confined to
 * /workspace/proj; isolate code lists the exports, calls `peek` on /workspace/secret.txt and `write` with the
 * relative path "workspace/proj/planted.txt" (the tool resolves it against its own root, /workspace); the same
 * with each tool copied (`{ ...tool }`).
 *
 * Found (medium — the sandbox escapes of attack12 ws-tools-dir-tools and attack15a ws-tools-copy-loses-root,
 * through the TanStack adapter): `peek` was exported and returned "top secret" from /workspace/secret.txt, and
 * `write` answered '{"path":"workspace/proj/planted.txt","bytesWritten":12}', writing
 * /workspace/workspace/proj/planted.txt outside the run's root (checked against "/" as /workspace/proj/…).
 *
 * Fixed: createTanStackTools marks each tool and its execute as createAITools does: a directory tool as
 * starting runs (left out of ws:tools unless runTools), a file tool as the library's tool of its name, and
 * with the set's root when there is one.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { WorkerShellBackend } from "../../../src/backends/worker-shell/index.js";
import { createToolBindings, forAISDKTools } from "../../../src/modules/tools.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import { input, toolAt } from "../tool-dirs/helpers.js";

const peek = toolAt("peek", "bash", "index.sh", { path: input("string") }, { mutating: false });

const CODE = `import * as tools from "ws:tools";
export default async () => {
  const names = Object.keys(tools).filter((k) => typeof tools[k] === "function").sort();
  const peeked = typeof tools.peek === "function" ? (await tools.peek({ path: "/workspace/secret.txt" })).text : "not exported";
  const w = await tools.write({ path: "workspace/proj/planted.txt", content: "from the run" });
  return { names, peeked, write: [w.isError, w.text] };
};`;

for (const copy of [false, true]) it(`TanStack tools (object form${copy ? ", each copied" : ""}) in ws:tools: the directory tool is left out and the set's root is kept`, { timeout: 60_000 }, async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const out = await runInDurableObject(stub, async (_i, state) => {
    let tools: Record<string, unknown> | undefined;
    const source = () => (copy ? Object.fromEntries(Object.entries(tools!).map(([k, t]) => [k, { ...(t as object) }])) : tools!);
    const bindings = createToolBindings(forAISDKTools(() => source() as never));
    const ws = new Workspace({
      storage: state.storage,
      backends: [
        new WorkerJavaScriptBackend({ loader: env.LOADER, root: "/workspace/proj", modules: { "ws:tools": bindings } }),
        new WorkerShellBackend({ loader: env.LOADER }),
      ],
    });
    tools = createTanStackTools({ workspace: ws, root: "/workspace", toolDirectories: { tools: [peek] }, format: "object" }) as Record<string, unknown>;
    try {
      await ws.fs.mkdir(peek.dir, { recursive: true });
      await ws.fs.writeFile(peek.entry, 'cat "$INPUT_PATH"\n');
      await ws.fs.mkdir("/workspace/proj", { recursive: true });
      await ws.fs.writeFile("/workspace/secret.txt", "top secret");
      const result = await (await ws.runtime.exec(CODE, { encoding: "utf8" })).result();
      const planted = await ws.fs.readFile("/workspace/workspace/proj/planted.txt", "utf8").catch((e: { code: string }) => e.code);
      return { status: result.status, stderr: result.stderr, value: result.value, planted };
    } finally {
      await ws.close();
    }
  });
  // Found (both): names with "peek", peeked "top secret", write [false, '{"path":"workspace/proj/planted.txt","bytesWritten":12}'], planted "from the run".
  expect(out).toEqual({
    status: "completed",
    stderr: "",
    value: {
      names: ["delete", "edit", "find", "grep", "ls", "read", "write"],
      peeked: "not exported",
      write: [true, "EACCES: paths must stay under /workspace/proj: /workspace/workspace/proj/planted.txt"],
    },
    planted: "ENOENT",
  });
});
