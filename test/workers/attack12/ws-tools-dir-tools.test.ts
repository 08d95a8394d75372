/**
 * Issue 20, twelfth attack run: `ws:tools` over tool sets with directory tools
 * (createToolBindings(forPiTools(createPiTools({ toolDirectories }))) and forAISDKTools(createAITools(…))),
 * called from isolate code in a JavaScript backend, in real workerd.
 *
 * Tried:
 * - a run confined by the backend's `root` (/workspace/proj) with `access: "read"` calling a `readonly: true`
 *   bash directory tool that reads the path it is given (the file tools refuse the same path: EACCES);
 * - the same run calling a mutating directory tool (refused: needs write access);
 * - forAISDKTools with a sensitive-input tool and bad input from isolate code (the AI SDK adapter checks such
 *   tools itself: does ws:tools' own validation quote the value?);
 * - a TypeScript directory tool calling itself through ws:tools (25 levels ran in ~1.5 s: nothing bounds the
 *   depth of nested runs — noted in the report, no test: the platform's own limit is not simulated locally).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { WorkerShellBackend } from "../../../src/backends/worker-shell/index.js";
import { createToolBindings, forAISDKTools, forPiTools } from "../../../src/modules/tools.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import type { ToolDirectory } from "../../../src/tool-dirs/types.js";
import { input, toolAt } from "../tool-dirs/helpers.js";

const SECRET = "sk-ws-tools-a12-9f8e7d";
const peek = toolAt("peek", "bash", "index.sh", { path: input("string") }, { mutating: false });
const scribble = toolAt("scribble", "bash", "index.sh", { path: input("string") }); // mutating
const keyed = toolAt("keyed", "bash", "index.sh", { key: input("string", { sensitive: true }), n: input("number") }, { mutating: false });

/** A Durable Object Workspace whose JavaScript backend (root /workspace/proj, `access`) exports `ws:tools` over the pi or AI SDK set of `tools`; runs `code`. */
function runConfined(set: "pi" | "ai" | "ai-copy", tools: ToolDirectory[], code: string, access: "read" | "read-write", runTools = false) {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_i, state) => {
    let pi: ReturnType<typeof createPiTools> | undefined;
    let ai: ReturnType<typeof createAITools> | undefined;
    const bindings = set === "pi" ? createToolBindings(() => forPiTools(pi!)(), { runTools }) : set === "ai" ? createToolBindings(forAISDKTools(() => ai!), { runTools })
        // each tool copied ({ ...tool }): still known by its execute
        : createToolBindings(forAISDKTools(() => Object.fromEntries(Object.entries(ai!).map(([k, t]) => [k, { ...t }]))), { runTools });
    const ws = new Workspace({
      storage: state.storage,
      backends: [new WorkerJavaScriptBackend({ loader: env.LOADER, root: "/workspace/proj", access, modules: { "ws:tools": bindings } }), new WorkerShellBackend({ loader: env.LOADER })],
    });
    if (set === "pi") pi = createPiTools({ workspace: ws, toolDirectories: { tools } });
    else ai = createAITools({ workspace: ws, toolDirectories: { tools } });
    try {
      await ws.fs.mkdir("/workspace/proj", { recursive: true });
      for (const t of tools) {
        await ws.fs.mkdir(t.dir, { recursive: true });
        await ws.fs.writeFile(t.entry, t.name === "scribble" ? 'echo scribbled > "$INPUT_PATH"\n' : t.name === "keyed" ? 'echo "n=$INPUT_N"\n' : 'cat "$INPUT_PATH"\n');
      }
      await ws.fs.writeFile("/workspace/secret.txt", "top secret");
      const result = await (await ws.runtime.exec(code, { encoding: "utf8" })).result();
      return { value: result.value as Record<string, string>, status: result.status, secret: await ws.fs.readFile("/workspace/secret.txt", "utf8") };
    } finally {
      await ws.close();
    }
  });
}

describe("attack12: ws:tools and directory tools in a confined run", () => {
  // DEFECT (medium: a sandbox escape — a run confined to /workspace/proj, read-only, reads any Workspace
  // file). docs/runtime.md ws:tools: "Calls keep to the backend's root as the run's node:fs does, whatever
  // the tool set reaches"; exec — which runs in the Workspace's backends, unconfined — "is excluded by
  // default". Directory tools run exactly like exec (docs/tool-directories.md: "like exec, not confined by
  // root"), but forPiTools/forAISDKTools export them and createToolBindings' default `exclude` is only
  // ["exec"] (src/modules/tools.ts:180); the path check applies to the built-in file tools only
  // (FILE_TOOL_DEFAULT_PATHS), and runToolDirectory never sees `ctx.root` ("your own tools must keep to
  // ctx.root themselves" cannot apply: the library runs them). Here `read` of /workspace/secret.txt is
  // EACCES, and `peek` (a readonly bash tool: `cat "$INPUT_PATH"`) returns "top secret".
  // Expected: under a backend root narrower than "/", directory tools are not callable from ws:tools
  // (not exported, as exec, or refused EACCES naming why). Fix: mark directory tools' bindings (e.g. a
  // `confined: false` fact on CoreTool, carried by forPiTools/forAISDKTools) and refuse them in
  // createToolBindings when ctx.root !== "/" — or exclude them by default and document opting in.
  // The same export also lets isolate code start runs, which excluding exec was keeping it from
  // (attack7 runs-recursion: "by default exec is not exported, so code cannot start runs"): a TypeScript
  // directory tool calling itself through ws:tools ran 25 nested levels here.
  // FIXED: createToolBindings leaves directory tools out unless `runTools: true` (as exec is left out by
  // default): isolate code cannot import them, so neither the read outside the root nor nested runs happen.
  it("a readonly bash directory tool cannot read outside the run's root (read is EACCES; peek is not exported)", { timeout: 60_000 }, async () => {
    const out = await runConfined("pi", [peek], `import * as tools from "ws:tools";
export default async () => ({ read: (await tools.read({ path: "/workspace/secret.txt" })).text, peek: typeof tools.peek });`, "read");
    expect(out.status).toBe("completed");
    expect(out.value).toEqual({ read: "EACCES: paths must stay under /workspace/proj: /workspace/secret.txt", peek: "undefined" });
  });

  it("the same through forAISDKTools; with runTools: true the directory tool is exported (and, documented, unconfined)", { timeout: 60_000 }, async () => {
    const code = `import * as tools from "ws:tools";
export default async () => ({ peek: typeof tools.peek === "function" ? (await tools.peek({ path: "/workspace/secret.txt" })).text : typeof tools.peek });`;
    // AI SDK bindings are never readOnly (forAISDKTools cannot tell), so these runs get write access.
    const off = await runConfined("ai", [peek], code, "read-write");
    const on = await runConfined("ai", [peek], code, "read-write", true);
    expect([off.status, off.value]).toEqual(["completed", { peek: "undefined" }]);
    expect([on.status, on.value]).toEqual(["completed", { peek: "top secret" }]);
    // A copy of the directory tool ({ ...tools.peek }) is left out too (fifteenth attack run: marked by its execute).
    const copied = await runConfined("ai-copy", [peek], code, "read-write");
    expect([copied.status, copied.value]).toEqual(["completed", { peek: "undefined" }]);
  });

  it("held: a mutating directory tool is refused on an access: \"read\" run, and the file is untouched", { timeout: 60_000 }, async () => {
    const out = await runConfined("pi", [scribble], `import { scribble } from "ws:tools";
export default async () => ({ r: await scribble({ path: "/workspace/secret.txt" }).then((x) => "ran: " + x.text, (e) => "threw: " + e.message) });`, "read", true);
    expect(out.value.r).toBe("threw: ws:tools scribble requires Workspace write access.");
    expect(out.secret).toBe("top secret");
  });

  it("held: forAISDKTools — bad input to a sensitive directory tool is an error naming the input, never the value", { timeout: 60_000 }, async () => {
    const out = await runConfined("ai", [keyed], `import { keyed } from "ws:tools";
export default async () => {
  const r = await keyed({ key: ${JSON.stringify(SECRET)}, n: "seven" }).catch((e) => ({ text: "threw: " + e.message, isError: true }));
  return { text: r.text, isError: String(r.isError) };
};`, "read-write", true);
    expect(out.value).toEqual({ text: "Invalid arguments for keyed: n: Invalid input: expected number, received string", isError: "true" });
  });
});
