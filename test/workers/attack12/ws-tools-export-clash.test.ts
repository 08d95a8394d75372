/**
 * Issue 20, twelfth attack run: loader-valid directory tool names that `ws:tools` renames onto each other.
 *
 * Tried: tools named `then` and `then_` (both match the loader's TOOL_NAME_PATTERN, /^[a-z][a-z0-9_]{0,63}$/;
 * a model can write both TOOL.md files with the write tool), then isolate code importing only the built-in
 * `read` from ws:tools, and a run that imports nothing; also (held) tools named by JavaScript reserved words and
 * Object.prototype names.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { WorkerShellBackend } from "../../../src/backends/worker-shell/index.js";
import { createToolBindings, forPiTools } from "../../../src/modules/tools.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { loadToolDirectories } from "../../../src/tool-dirs/load.js";

const NAMES = ["class", "import", "eval", "arguments", "await", "enum", "let", "yield", "constructor", "prototype", "hasownproperty"];
const toolMd = (name: string) => `---\nname: ${name}\ndescription: a tool named ${name}\nlanguage: bash\nreadonly: true\n---\n`;

describe("attack12: two loader-valid tool names that ws:tools exports under one name", () => {
  // DEFECT (medium: one pair of tool names written by the model breaks the JavaScript backend — every
  // exec on it, ws:tools or not, and every TypeScript/JavaScript directory tool run). toolExportName (src/modules/tools.ts:145) suffixes the reserved
  // export names `default`, `then`, `__proto__` with `_`, so a tool named `then` is exported as `then_`,
  // the export name of a tool named `then_`. createToolBindings then throws `Two tools are exported as
  // "then_".` from the module factory, which runs when the backend connects (backend.ts:74 connect), so
  // ws.runtime.exec itself rejects — for a run importing only `read`, and for `export default () => 42`. The loader accepts both names, and createPiTools' build-time check
  // (directory.ts directoryTools) compares raw names only, so nothing refuses the pair earlier.
  // Expected: `read` works; the clash is reported where it can be fixed (a TypeError or a skipped entry
  // at build / load time naming both tools), or the later tool is left out of ws:tools with a note in the
  // module description. Fix: make directoryTools reject names whose toolExportName equals another tool's
  // export name (or the loader skip them), and have createToolBindings skip (not throw on) a duplicate.
  // FIXED: the loader skips the later of two tools sharing an export name (duplicate-name, naming both),
  // and directoryTools refuses such a pair given by hand (TypeError), so ws:tools never sees the clash.
  it("runs (importing read from ws:tools, or nothing) work when tools named then and then_ are found", { timeout: 60_000 }, async () => {
    const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
    const out = await runInDurableObject(stub, async (_i, state) => {
      let tools: ReturnType<typeof createPiTools> | undefined;
      const ws = new Workspace({
        storage: state.storage,
        backends: [new WorkerJavaScriptBackend({ loader: env.LOADER, modules: { "ws:tools": createToolBindings(() => forPiTools(tools!)()) } }), new WorkerShellBackend({ loader: env.LOADER })],
      });
      try {
        for (const name of ["then", "then_"]) {
          await ws.fs.mkdir(`/workspace/tools/${name}`, { recursive: true });
          await ws.fs.writeFile(`/workspace/tools/${name}/TOOL.md`, toolMd(name));
          await ws.fs.writeFile(`/workspace/tools/${name}/index.sh`, "echo hi\n");
        }
        await ws.fs.writeFile("/workspace/notes.txt", "my notes");
        const loaded = await loadToolDirectories({ workspace: ws, dirs: ["/workspace/tools"] });
        tools = createPiTools({ workspace: ws, toolDirectories: loaded });
        const run = (code: string) =>
          ws.runtime.exec(code, { encoding: "utf8" }).then(
            async (h) => ((await h.result()) as { status: string; value?: unknown }).status + ": " + String((await h.result()).value),
            (e: Error) => `exec threw: ${e.message}`,
          );
        return {
          loaded: loaded.tools.map((t) => t.name),
          skipped: loaded.skipped.map((k) => [k.name, k.code, k.reason]),
          read: await run(`import { read } from "ws:tools";\nexport default async () => (await read({ path: "/workspace/notes.txt" })).text.includes("my notes");`),
          plain: await run("export default () => 41 + 1;"),
        };
      } finally {
        await ws.close();
      }
    });
    expect(out.loaded).toEqual(["then"]);
    expect(out.skipped).toEqual([
      [
        "then_",
        "duplicate-name",
        'the name "then_" is exported to ws:tools as "then_", as "then" (/workspace/tools/then) is; the first directory found wins — rename one of them',
      ],
    ]);
    // before the fix: both 'exec threw: Two tools are exported as "then_".' — the backend's connect failed
    expect({ read: out.read, plain: out.plain }).toEqual({ read: "completed: true", plain: "completed: 42" });
  });
  it("held: reserved words and Object.prototype names as tool names (class, import, eval, arguments, await, enum, let, yield, constructor, prototype, hasownproperty) leave ws:tools working", { timeout: 60_000 }, async () => {
    const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
    const out = await runInDurableObject(stub, async (_i, state) => {
      let tools: ReturnType<typeof createPiTools> | undefined;
      const ws = new Workspace({
        storage: state.storage,
        backends: [new WorkerJavaScriptBackend({ loader: env.LOADER, modules: { "ws:tools": createToolBindings(() => forPiTools(tools!)()) } }), new WorkerShellBackend({ loader: env.LOADER })],
      });
      try {
        for (const name of NAMES) {
          await ws.fs.mkdir(`/workspace/tools/${name}`, { recursive: true });
          await ws.fs.writeFile(`/workspace/tools/${name}/TOOL.md`, toolMd(name));
          await ws.fs.writeFile(`/workspace/tools/${name}/index.sh`, "echo hi\n");
        }
        await ws.fs.writeFile("/workspace/notes.txt", "my notes");
        const loaded = await loadToolDirectories({ workspace: ws, dirs: ["/workspace/tools"] });
        tools = createPiTools({ workspace: ws, toolDirectories: loaded });
        const run = (code: string) =>
          ws.runtime.exec(code, { encoding: "utf8" }).then(
            async (h) => ((await h.result()) as { status: string; value?: unknown }).status + ": " + String((await h.result()).value),
            (e: Error) => `exec threw: ${e.message}`,
          );
        return {
          loaded: loaded.tools.map((t) => t.name),
          skipped: loaded.skipped.map((k) => [k.name, k.code, k.reason]),
          read: await run(`import { read } from "ws:tools";\nexport default async () => (await read({ path: "/workspace/notes.txt" })).text.includes("my notes");`),
          plain: await run("export default () => 41 + 1;"),
        };
      } finally {
        await ws.close();
      }
    });
    expect(out.loaded).toEqual([...NAMES].sort());
    expect({ read: out.read, plain: out.plain }).toEqual({ read: "completed: true", plain: "completed: 42" });
  });
});
