import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { createToolBindings, forAISDKTools, forPiTools, toolExportName } from "../../../src/modules/tools.js";
import { INVALID_ARGUMENTS_MAX_CHARS } from "../../../src/tools/core/index.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import type { WorkspaceModuleCallContext } from "../../../src/modules/types.js";
import { inWorkspace } from "./helpers.js";

type Modules = ConstructorParameters<typeof WorkerJavaScriptBackend>[0]["modules"];

/** Runs `source` with host `modules`, or with the modules a function builds from a getter of the Workspace (for `ws:tools`). */
async function run(modules: Modules | ((getWorkspace: () => Workspace) => Modules), source: string, setup?: (ws: Workspace) => Promise<void>, access?: "read") {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_i, state) => {
    let ws!: Workspace;
    const backend = new WorkerJavaScriptBackend({ loader: env.LOADER, modules: typeof modules === "function" ? modules(() => ws) : modules, ...(access ? { access } : {}) });
    ws = new Workspace({ storage: state.storage, backends: [backend] });
    await ws.fs.mkdir("/workspace", { recursive: true });
    await setup?.(ws);
    const r = await (await ws.runtime.exec(source, { encoding: "utf8" })).result();
    await ws.close();
    return r;
  });
}

describe("host modules", () => {
  it("calls host functions with args as an array, this = the module, ctx with signal/deadline/access/callId/resolvePath", async () => {
    const seen: unknown[] = [];
    const r = await run(
      {
        "ws:math": {
          add(args: readonly unknown[]) {
            return (args[0] as number) + (args[1] as number);
          },
          async info(this: Record<string, unknown>, args: readonly unknown[], ctx: WorkspaceModuleCallContext) {
            seen.push(typeof this.add, args, ctx.access, ctx.signal.aborted, typeof ctx.deadline, ctx.callId.split(":").length);
            return { resolved: await ctx.resolvePath("a/../b.txt", { allowMissing: true }), missing: undefined };
          },
          fail() {
            throw Object.assign(new Error("no such thing"), { code: "ENOENT", path: "/workspace/x" });
          },
        },
      },
      `import { add, info, fail } from "ws:math";
       export default async () => {
         let error; try { await fail(); } catch (e) { error = [e.message, e.code, e.path]; }
         return { sum: await add(2, 3), info: await info(undefined, 1), error };
       }`,
    );
    expect(r.stderr).toBe("");
    expect(r.value).toEqual({ sum: 5, info: { resolved: "/workspace/b.txt" }, error: ["no such thing", "ENOENT", "/workspace/x"] });
    expect(seen).toEqual(["function", [null, 1], "read-write", false, "number", 2]);
  });

  it("runs factories once per connection; {} omits the module; a throwing factory fails connect", async () => {
    let calls = 0;
    const counting = Object.assign(() => {
      calls++;
      return { ping: () => "pong" };
    }, { description: "Pings." });
    const r = await run({ "ws:ping": counting, "ws:empty": () => ({}) }, `import { ping } from "ws:ping"; export default async () => ping();`);
    expect(r.value).toBe("pong");
    expect(calls).toBe(1);
    await inWorkspace(
      async (ws) => {
        await expect(ws.runtime.exec(`import { x } from "ws:empty"; export default x;`)).rejects.toThrow('Module "ws:empty" exports nothing on this backend.');
      },
      { backend: { modules: { "ws:empty": () => ({}) } } },
    );
    await inWorkspace(
      async (ws) => {
        await expect(ws.runtime.exec(`export default 1`)).rejects.toThrow("factory exploded");
      },
      { backend: { modules: { "ws:bad": () => { throw new Error("factory exploded"); } } } },
    );
  });
});

describe("ws:tools", () => {
  it("maps tool names to export names", () => {
    expect(["list-files", "a.b c", "9lives", "default", "then", "__proto__", "é!", "ok_1"].map(toolExportName)).toEqual([
      "list_files", "a_b_c", "_9lives", "default_", "then_", "__proto___", "_", "ok_1",
    ]);
    expect(() => createToolBindings([{ name: "a-b", call: () => ({ text: "", isError: false }) }, { name: "a.b", call: () => ({ text: "", isError: false }) }])({} as never)).toThrow(
      'Two tools are exported as "a_b".',
    );
  });

  it("lets isolate code call the agent's own AI SDK tools (exec excluded, description lists exports)", async () => {
    let factory!: ReturnType<typeof createToolBindings>;
    let getWorkspace!: () => Workspace;
    const r = await run(
      (getWs) => {
        getWorkspace = getWs;
        factory = createToolBindings(forAISDKTools(() => createAITools({ workspace: getWs() })));
        return { "ws:tools": factory };
      },
      `import * as tools from "ws:tools";
       export default async () => {
         const wrote = await tools.write({ path: "/workspace/note.txt", content: "hi from code" });
         const read = await tools.read({ path: "/workspace/note.txt" });
         const bad = await tools.read({ path: 42 }).catch((e) => e.message);
         return { names: Object.keys(tools).sort(), wrote: wrote.isError, read: read.details.content, readText: JSON.parse(read.text).content, bad };
       }`,
    );
    expect(r.stderr).toBe("");
    expect(r.value).toMatchObject({ names: ["delete", "edit", "find", "grep", "ls", "read", "write"], wrote: false, read: "hi from code", readText: "hi from code" });
    expect((r.value as { bad: string }).bad).toMatch(/^Invalid arguments for read: /);
    expect(getWorkspace()).toBeDefined();
    const description = factory.description ?? "";
    expect(description).toContain("Exports: `read`, `ls`, `find`, `grep`, `write`, `edit`, `delete`.");
    expect(description).toContain("`exec` is not exported.");
  });

  it("a tool that ran but answers no JSON (BigInt, cycle, function, bad pi content) gives a result, not a thrown call", async () => {
    const ran: string[] = [];
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    const aiTools = {
      big: { execute: async () => (ran.push("big"), { n: 10n }) },
      loop: { execute: async () => (ran.push("loop"), cycle) },
      fn: { execute: async () => (ran.push("fn"), () => 1) },
      fine: { execute: async () => (ran.push("fine"), { error: "nope" }) },
    };
    const piTools = [
      { name: "odd", execute: async () => (ran.push("odd"), { content: "not an array", details: { n: 1n } }) as never },
      { name: "parts", execute: async () => (ran.push("parts"), { content: [null, 7, { type: "text", text: 5 }, { type: "text", text: "ok" }], structuredContent: cycle }) as never },
    ];
    const r = await run(
      () => ({ "ws:tools": createToolBindings([...forAISDKTools(aiTools as never)(), ...forPiTools(piTools)()]) }),
      `import * as t from "ws:tools";
       export default async () => {
         const out = {};
         for (const name of ["big", "loop", "fn", "fine", "odd", "parts"]) out[name] = await t[name]({}).catch((e) => "threw: " + e.message);
         return out;
       }`,
    );
    expect(r.stderr).toBe("");
    expect(ran).toEqual(["big", "loop", "fn", "fine", "odd", "parts"]);
    expect(r.value).toEqual({
      big: { text: 'Tool "big" ran, but its output cannot be sent as JSON (TypeError: Do not know how to serialize a BigInt); what it did stands.', isError: true, details: null },
      loop: { text: expect.stringMatching(/^Tool "loop" ran, but its output cannot be sent as JSON \(TypeError: Converting circular structure to JSON[\s\S]*\); what it did stands\.$/), isError: true, details: null },
      fn: { text: "null", isError: false, details: null },
      fine: { text: "nope", isError: true, details: { error: "nope" } },
      odd: { text: "", isError: false, details: null },
      parts: { text: "[object]\n[number]\n\nok", isError: false, details: null },
    });
  });

  it("a tool's schema failure rejects with at most 4,096 characters of its message, and the tool does not run", async () => {
    const ran: string[] = [];
    // A safeParse whose message lists 10,000 issues (zod's JSON dump of every bad element is this long and more).
    const inputSchema = {
      safeParse: (value: unknown) => ({ success: false, error: { message: Array.from({ length: 10_000 }, (_, i) => `issue ${i}`).join("; "), value } }),
    };
    const aiTools = { wide: { inputSchema, execute: async () => (ran.push("wide"), "ran") } };
    const r = await run(
      () => ({ "ws:tools": createToolBindings(forAISDKTools(aiTools as never)()) }),
      `import * as t from "ws:tools";
       export default async () => t.wide({ n: 1 }).catch((e) => e.name + ": " + e.message);`,
    );
    expect(r.stderr).toBe("");
    expect(ran).toEqual([]);
    const head = "TypeError: Invalid arguments for wide: issue 0; issue 1; ";
    expect((r.value as string).startsWith(head)).toBe(true);
    expect((r.value as string).length).toBe("TypeError: ".length + INVALID_ARGUMENTS_MAX_CHARS);
    expect((r.value as string).endsWith("…")).toBe(true);
  });

  it("marks pi's read tools read-only and refuses the others on a read-only backend", async () => {
    const r = await run(
      (getWs) => ({ "ws:tools": createToolBindings(() => forPiTools(createPiTools({ workspace: getWs() }))()) }),
      `import { read, write } from "ws:tools";
       export default async () => ({
         read: await read({ path: "/workspace/a.txt" }),
         write: await write({ path: "/workspace/a.txt", content: "x" }).catch((e) => e.message),
       });`,
      async (ws) => ws.fs.writeFile("/workspace/a.txt", "one\ntwo"),
      "read",
    );
    expect(r.value).toMatchObject({ read: { isError: false, text: "one\ntwo" }, write: "ws:tools write requires Workspace write access." });
  });
});
