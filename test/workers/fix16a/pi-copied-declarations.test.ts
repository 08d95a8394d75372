/**
 * Issue 20, found by the lead after the fifteenth attack run: `createPiTools(...)` marked a TOOL.md directory
 * tool as starting runs (markStartsRuns, src/tools/pi-ai.ts) on its declaration object only, and
 * `forPiTools(set)` read the mark from the declaration (`startsRuns(t)`, src/modules/tools.ts). The AI SDK
 * adapter marks each tool's `execute` too, so a copy keeps it; a pi declaration has no `execute` of its own.
 *
 * Tried: `createPiTools({ workspace, root: "/workspace/proj", toolDirectories: { tools: [peek] } })` (peek: a
 * readonly bash directory tool that cats the path it is given), handed to `ws:tools` in set form as is and with
 * its declarations copied (`{ ...pi, tools: pi.tools.map((t) => ({ ...t })) }`), in a JavaScript backend
 * confined to /workspace/proj; isolate code lists the exports, reads `notes.txt` (relative: the set's root) and,
 * when exported, calls `peek` on /workspace/secret.txt (outside the run's root).
 *
 * Found (medium — a sandbox escape, the one attack12 ws-tools-dir-tools closed, reopened by a shallow copy):
 * with copied declarations `peek` was exported (exports delete, edit, find, grep, ls, peek, read, write) and
 * returned "top secret" from /workspace/secret.txt, 2 of 2 runs; the originals leave `peek` out.
 *
 * Fixed: createPiTools also records on the set's `execute` the names of its directory tools
 * (markStartsRunsNamed, src/tools/core/root.ts), and forPiTools' set form reads the mark from the declaration
 * or else from `execute` by the tool's name, so copied declarations are left out as the originals are.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { WorkerShellBackend } from "../../../src/backends/worker-shell/index.js";
import { createToolBindings } from "../../../src/modules/tools.js";
import { createPiTools, forPiTools } from "../../../src/tools/pi-ai.js";
import { input, toolAt } from "../tool-dirs/helpers.js";

const peek = toolAt("peek", "bash", "index.sh", { path: input("string") }, { mutating: false });

const CODE = `import * as tools from "ws:tools";
export default async () => {
  const names = Object.keys(tools).filter((k) => typeof tools[k] === "function").sort();
  const read = await tools.read({ path: "notes.txt" });
  const peeked = typeof tools.peek === "function" ? (await tools.peek({ path: "/workspace/secret.txt" })).text : "not exported";
  return { names, read: [read.isError, read.text.includes("hello")], peeked };
};`;

/** Runs CODE in a JavaScript backend confined to /workspace/proj (read access) whose ws:tools are the pi set, copied or not. */
function run(copy: boolean) {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_i, state) => {
    let pi: ReturnType<typeof createPiTools> | undefined;
    const source = () => (copy ? { ...pi!, tools: pi!.tools.map((t) => ({ ...t })) } : pi!);
    const bindings = createToolBindings(() => forPiTools(source())());
    const ws = new Workspace({
      storage: state.storage,
      backends: [
        new WorkerJavaScriptBackend({ loader: env.LOADER, root: "/workspace/proj", access: "read", modules: { "ws:tools": bindings } }),
        new WorkerShellBackend({ loader: env.LOADER }),
      ],
    });
    pi = createPiTools({ workspace: ws, root: "/workspace/proj", toolDirectories: { tools: [peek] } });
    try {
      await ws.fs.mkdir(peek.dir, { recursive: true });
      await ws.fs.writeFile(peek.entry, 'cat "$INPUT_PATH"\n');
      await ws.fs.mkdir("/workspace/proj", { recursive: true });
      await ws.fs.writeFile("/workspace/proj/notes.txt", "hello");
      await ws.fs.writeFile("/workspace/secret.txt", "top secret");
      const result = await (await ws.runtime.exec(CODE, { encoding: "utf8" })).result();
      return { status: result.status, stderr: result.stderr, value: result.value, description: (bindings as { description?: string }).description };
    } finally {
      await ws.close();
    }
  });
}

const EXPECTED = { names: ["delete", "edit", "find", "grep", "ls", "read", "write"], read: [false, true], peeked: "not exported" };
const LEFT_OUT = "TOOL.md directory tools (`peek`) are not exported: they run outside this run's root.";

it("pi set form: the original declarations leave the directory tool out and keep the set's root", { timeout: 60_000 }, async () => {
  const out = await run(false);
  expect({ status: out.status, stderr: out.stderr, value: out.value }).toEqual({ status: "completed", stderr: "", value: EXPECTED });
  expect(out.description).toContain(LEFT_OUT);
});

it("pi set form: copied declarations ({ ...t }) behave exactly as the originals", { timeout: 60_000 }, async () => {
  const out = await run(true);
  // Found: value { names: ["delete", "edit", "find", "grep", "ls", "peek", "read", "write"], read: [false, true], peeked: "top secret" }.
  expect({ status: out.status, stderr: out.stderr, value: out.value }).toEqual({ status: "completed", stderr: "", value: EXPECTED });
  expect(out.description).toContain(LEFT_OUT);
});
