/**
 * runToolDirectory (issue 19, spec 03 §9) in real workerd: the fixture tools
 * of test/fixtures/tool-dirs/tools and one-off tools run in the Workspace's
 * JavaScript and shell backends; every failure is a readable error result.
 */
import { inject } from "vitest";
import { describe, expect, it } from "vitest";
import { loadToolDirectories } from "../../../src/tool-dirs/load.js";
import { MAX_TOOL_ERROR_CHARS, runToolDirectory } from "../../../src/tool-dirs/run.js";
import type { ToolResult } from "../../../src/tool-dirs/types.js";
import { FIXTURE_TOOLS, inToolWorkspace, input, writeTool } from "./helpers.js";

const httpServer = (): string => inject("httpServer");
const text = (r: ToolResult) => r.content.map((c) => c.text).join("\n");

describe("runToolDirectory: the fixture tools", () => {
  it("all_inputs (TypeScript): every input kind, defaults filled in", async () => {
    const out = await inToolWorkspace(async (ws) => [
      await runToolDirectory(FIXTURE_TOOLS.all_inputs, { workspace: ws, toolCallId: "c1", params: { text: "hi", loud: true, mode: "brackets", color: "green", secret: "s3cr3t-value" } }),
      await runToolDirectory(FIXTURE_TOOLS.all_inputs, { workspace: ws, params: { text: "a" } }),
      await runToolDirectory(FIXTURE_TOOLS.all_inputs, { workspace: ws, params: { text: "q", count: 3, mode: "quotes", extra: "dropped" } }),
    ]);
    expect(out).toEqual([
      { content: [{ type: "text", text: "[HI] [HI]\ncolor=green\nsecret=12 chars" }] },
      { content: [{ type: "text", text: "a a\nsecret=none" }] },
      { content: [{ type: "text", text: '"q" "q" "q"\nsecret=none' }] },
    ]);
  });

  it("greet (bash): inputs as INPUT_<NAME>, stdout is the result", async () => {
    const out = await inToolWorkspace(async (ws) => [
      await runToolDirectory(FIXTURE_TOOLS.greet, { workspace: ws, params: { name: "Ada", times: 2, shout: true } }),
      await runToolDirectory(FIXTURE_TOOLS.greet, { workspace: ws, params: { name: "Bo" } }),
    ]);
    expect(out).toEqual([{ content: [{ type: "text", text: "hello, Ada!\nhello, Ada!\n" }] }, { content: [{ type: "text", text: "hello, Bo.\n" }] }]);
  });

  it("slow_count (JavaScript): onUpdate events arrive in order, then the result", async () => {
    const updates: string[] = [];
    const out = await inToolWorkspace((ws) =>
      runToolDirectory(FIXTURE_TOOLS.slow_count, { workspace: ws, params: { steps: 4 }, onUpdate: (p) => updates.push(text(p as ToolResult)) }),
    );
    expect(out).toEqual({ content: [{ type: "text", text: "counted 4" }] });
    expect(updates).toEqual(["step 1 of 4", "step 2 of 4", "step 3 of 4", "step 4 of 4"]);
  });

  it("slow_count: aborting the signal kills the run; the result says it was cancelled", async () => {
    const updates: string[] = [];
    const { out, after } = await inToolWorkspace(async (ws) => {
      const controller = new AbortController();
      const out = await runToolDirectory(FIXTURE_TOOLS.slow_count, {
        workspace: ws,
        params: { steps: 1000, delay_ms: 20 },
        signal: controller.signal,
        onUpdate: (p) => {
          updates.push(text(p as ToolResult));
          if (updates.length === 2) controller.abort();
        },
      });
      // An already aborted signal: nothing runs.
      const after = await runToolDirectory(FIXTURE_TOOLS.slow_count, { workspace: ws, signal: controller.signal });
      return { out, after };
    });
    expect(out).toEqual({ content: [{ type: "text", text: 'Tool "slow_count" was cancelled.' }], isError: true });
    expect(updates.slice(0, 2)).toEqual(["step 1 of 1000", "step 2 of 1000"]);
    expect(updates.length).toBeLessThan(1000);
    expect(after).toEqual({ content: [{ type: "text", text: 'Tool "slow_count" was cancelled before it started.' }], isError: true });
  });

  it("an abort while the run is launching, and an abort of a bash tool, cancel the run", async () => {
    const out = await inToolWorkspace(async (ws) => {
      const early = new AbortController();
      const pending = runToolDirectory(FIXTURE_TOOLS.slow_count, { workspace: ws, params: { steps: 100, delay_ms: 20 }, signal: early.signal });
      early.abort();
      const sleeper = await writeTool(ws, "sleeper", "bash", { "index.sh": "sleep 10; echo done" });
      const first = await pending;
      const later = new AbortController();
      const running = runToolDirectory(sleeper, { workspace: ws, signal: later.signal });
      setTimeout(() => later.abort(), 300);
      return [first, await running];
    });
    expect(out).toEqual([
      { content: [{ type: "text", text: 'Tool "slow_count" was cancelled.' }], isError: true },
      { content: [{ type: "text", text: 'Tool "sleeper" was cancelled.' }], isError: true },
    ]);
  });

  it("fetch_status (TypeScript, ./format.js → format.ts): its declared env token reaches it, and only its run", async () => {
    const base = httpServer();
    const out = await inToolWorkspace(
      async (ws) => [
        await runToolDirectory(FIXTURE_TOOLS.fetch_status, { workspace: ws, params: { url: `${base}/` }, env: { STATUS_API_TOKEN: "tok-1" } }),
        await runToolDirectory(FIXTURE_TOOLS.fetch_status, { workspace: ws, params: { url: base } }),
      ],
      { javascript: { egress: { mode: "direct" } } },
    );
    // The loopback server has no /status route: its 404 text, formatted by format.ts.
    expect(out).toEqual([
      { content: [{ type: "text", text: "HTTP 404: no route /status" }], isError: true },
      { content: [{ type: "text", text: "No API token: pass api_token or set STATUS_API_TOKEN." }], isError: true },
    ]);
  });

  it("python without a container backend: a clear error result", async () => {
    const out = await inToolWorkspace((ws) => runToolDirectory(FIXTURE_TOOLS.py_hello, { workspace: ws, params: { name: "x" } }));
    expect(out).toEqual({
      content: [
        {
          type: "text",
          text: 'Tool "py_hello" is python and needs a container backend (ContainerBackend), which this Workspace does not have (its backends: "worker-javascript" (module), "worker-shell" (command)).',
        },
      ],
      isError: true,
    });
  });
});

describe("runToolDirectory: TypeScript tools, env and the loopback server", () => {
  it("a TS tool with a typed ./lib.ts import sends the token from its env to the loopback server", async () => {
    const base = httpServer();
    const out = await inToolWorkspace(
      async (ws) => {
        const tool = await writeTool(
          ws,
          "token_echo",
          "typescript",
          {
            "lib.ts": `export interface Req { url: string; token: string }\nexport const post = async ({ url, token }: Req): Promise<string> => (await fetch(url + "/echo?who=" + encodeURIComponent("tool"), { method: "POST", body: token })).text();\n`,
            "index.ts": `import { post, type Req } from "./lib.js";\nenum Mode { A = "a" }\nexport async function execute(id: string, params: { url: string }): Promise<{ content: { type: string; text: string }[] }> {\n  const req: Req = { url: params.url, token: process.env.ECHO_TOKEN as string };\n  return { content: [{ type: "text", text: (await post(req)) + " " + Mode.A + " " + id }] };\n}\n`,
          },
          { url: input("string") },
          { env: ["ECHO_TOKEN"] },
        );
        return runToolDirectory(tool, { workspace: ws, toolCallId: "call-7", params: { url: base }, env: { ECHO_TOKEN: "tok-123", OTHER: "x" } });
      },
      { javascript: { egress: { mode: "direct" } } },
    );
    expect(out).toEqual({ content: [{ type: "text", text: "POST /echo?who=tool tok-123 a call-7" }] });
  });

  it("env isolation: each tool sees only the names it declares, from one shared map", async () => {
    const out = await inToolWorkspace(async (ws) => {
      const source = `export async function execute() { return { content: [{ type: "text", text: JSON.stringify(process.env) }] }; }`;
      const a = await writeTool(ws, "env_a", "javascript", { "index.js": source }, {}, { env: ["A_TOKEN"] });
      const b = await writeTool(ws, "env_b", "javascript", { "index.js": source }, {}, { env: ["B_TOKEN", "MISSING"] });
      const c = await writeTool(ws, "env_c", "bash", { "index.sh": `echo "a=\${A_TOKEN:-unset} b=\${B_TOKEN:-unset}"` }, {}, { env: ["B_TOKEN"] });
      const shared = { A_TOKEN: "secret-a", B_TOKEN: "secret-b" };
      return [
        await runToolDirectory(a, { workspace: ws, env: shared }),
        await runToolDirectory(b, { workspace: ws, env: shared }),
        await runToolDirectory(c, { workspace: ws, env: shared }),
      ].map(text);
    });
    expect(out).toEqual(['{"A_TOKEN":"secret-a"}', '{"B_TOKEN":"secret-b"}', "a=unset b=secret-b\n"]);
  });

  it("output_path: a tool writes its data to the Workspace file and returns a summary", async () => {
    const out = await inToolWorkspace(async (ws) => {
      const tool = await writeTool(
        ws,
        "rows_to_file",
        "typescript",
        {
          "index.ts": `import { writeFile } from "node:fs/promises";\nexport async function execute(_id: string, params: { output_path?: string }) {\n  const rows = [1, 2, 3].map((id) => ({ id }));\n  if (params.output_path) { await writeFile(params.output_path, JSON.stringify(rows)); return { content: [{ type: "text", text: rows.length + " rows saved to " + params.output_path }] }; }\n  return { content: [{ type: "text", text: JSON.stringify(rows) }] };\n}\n`,
        },
        { output_path: input("string", { optional: true }) },
      );
      const result = await runToolDirectory(tool, { workspace: ws, params: { output_path: "/workspace/out.json" } });
      return { result, file: await ws.fs.readFile("/workspace/out.json", "utf8") };
    });
    expect(out).toEqual({ result: { content: [{ type: "text", text: "3 rows saved to /workspace/out.json" }] }, file: '[{"id":1},{"id":2},{"id":3}]' });
  });
});

describe("runToolDirectory: failures are readable error results", () => {
  it("bad input from the model names the input and never echoes a sensitive value", async () => {
    const out = await inToolWorkspace(async (ws) => [
      await runToolDirectory(FIXTURE_TOOLS.all_inputs, { workspace: ws, params: {} }),
      await runToolDirectory(FIXTURE_TOOLS.all_inputs, { workspace: ws, params: { text: 5, mode: "loud", secret: 12345678 } }),
      await runToolDirectory(FIXTURE_TOOLS.all_inputs, { workspace: ws, params: "text" as never }),
    ]);
    expect(out.map(text)).toEqual([
      'Tool "all_inputs" got bad input: input "text" is required (string: a string).',
      'Tool "all_inputs" got bad input: input "text" must be a string, got number: 5; input "mode" must be one of plain, brackets, quotes, got string: "loud"; input "secret" must be a string, got number.',
      'Tool "all_inputs" takes an object of named inputs, got string.',
    ]);
    expect(out.every((r) => r.isError === true)).toBe(true);
  });

  it("a throw: the error message, with sensitive inputs and env values masked", async () => {
    const out = await inToolWorkspace(async (ws) => {
      const tool = await writeTool(
        ws,
        "thrower",
        "typescript",
        { "index.ts": `export async function execute(_id: string, p: { key: string }): Promise<never> {\n  throw new Error("login failed for key " + p.key + " with " + process.env.SVC_TOKEN + " " + JSON.stringify(p.key));\n}\n` },
        { key: input("string", { sensitive: true }) },
        { env: ["SVC_TOKEN"] },
      );
      return runToolDirectory(tool, { workspace: ws, params: { key: 'hunter2"x' }, env: { SVC_TOKEN: "svc-secret-999" } });
    });
    expect(out.isError).toBe(true);
    expect(text(out)).toMatch(/^Tool "thrower" failed \(exit 1\): .*login failed for key \*\*\* with \*\*\* "\*\*\*"/);
    expect(text(out)).not.toContain("hunter2");
    expect(text(out)).not.toContain("svc-secret-999");
  });

  it("malformed results, a missing execute export and a syntax error", async () => {
    const out = await inToolWorkspace(async (ws) => {
      const t1 = await writeTool(ws, "shape", "javascript", { "index.js": `export async function execute() { return { text: "no content" }; }` });
      const t2 = await writeTool(ws, "nothing", "javascript", { "index.js": `export async function execute() {}` });
      const t3 = await writeTool(ws, "blocks", "javascript", { "index.js": `export async function execute() { return { content: [{ type: "text", text: 1 }] }; }` });
      const t4 = await writeTool(ws, "noexec", "javascript", { "index.js": `export const run = 1; export function helper() {}` });
      const t5 = await writeTool(ws, "broken_ts", "typescript", { "index.ts": `export async function execute( {` });
      return Promise.all([t1, t2, t3, t4, t5].map((t) => runToolDirectory(t, { workspace: ws })));
    });
    expect(out.map(text)).toEqual([
      'Tool "shape" returned a malformed result: execute returned an object whose content is undefined, not an array: return { content: [{ type: "text", text: "…" }], isError?: boolean }.',
      'Tool "nothing" returned a malformed result: execute returned undefined, not { content: [{ type: "text", text: "…" }], isError?: boolean }.',
      'Tool "blocks" returned a malformed result: execute returned content[0] = an object without a string type and text: return { content: [{ type: "text", text: "…" }], isError?: boolean }.',
      expect.stringMatching(/^Tool "noexec" failed \(exit 1\): .*\/workspace\/tools\/noexec\/index\.js does not export an execute function \(it exports helper, run\): add export async function execute/),
      expect.stringMatching(/^Tool "broken_ts" failed: \/workspace\/tools\/broken_ts\/index\.ts: /),
    ]);
    expect(out.every((r) => r.isError === true)).toBe(true);
  });

  it("a tool that never returns times out; one whose promise can never settle says so", async () => {
    const out = await inToolWorkspace(async (ws) => {
      const hang = await writeTool(ws, "hang", "javascript", { "index.js": `export async function execute() { await new Promise(() => setInterval(() => {}, 100)); }` });
      const stuck = await writeTool(ws, "stuck", "javascript", { "index.js": `export async function execute() { await new Promise(() => {}); }` });
      return [await runToolDirectory(hang, { workspace: ws, timeoutMs: 1500 }), await runToolDirectory(stuck, { workspace: ws })];
    });
    expect(out).toEqual([
      { content: [{ type: "text", text: 'Tool "hang" timed out after 1500 ms and was stopped.' }], isError: true },
      { content: [{ type: "text", text: 'Tool "stuck" never returned: execute awaits a promise that nothing can settle (the runtime found nothing left to wait for).' }], isError: true },
    ]);
  });

  it("flooding output is bounded: the result is still exact, an error text stays short", async () => {
    const updates: number[] = [];
    const out = await inToolWorkspace(async (ws) => {
      const flood = await writeTool(ws, "flood", "javascript", {
        "index.js": `export async function execute(_id, _p, _s, onUpdate) {\n  const line = "x".repeat(1000);\n  for (let i = 0; i < 3000; i++) console.log(line);\n  onUpdate({ content: [{ type: "text", text: "y".repeat(400000) }] });\n  onUpdate({ content: [{ type: "text", text: "small" }] });\n  return { content: [{ type: "text", text: "done" }] };\n}\n`,
      });
      const loud = await writeTool(ws, "loud_fail", "javascript", {
        "index.js": `export async function execute() {\n  for (let i = 0; i < 2000; i++) console.error("noise " + i + " " + "z".repeat(500));\n  throw new Error("the real reason");\n}\n`,
      });
      const bashFlood = await writeTool(ws, "bash_flood", "bash", { "index.sh": `seq 1 90000` });
      return [
        await runToolDirectory(flood, { workspace: ws, onUpdate: (p) => updates.push(p.content[0].text.length) }),
        await runToolDirectory(loud, { workspace: ws }),
        await runToolDirectory(bashFlood, { workspace: ws }),
      ];
    });
    expect(out[0]).toEqual({ content: [{ type: "text", text: "done" }] });
    // The 400,000-character update is over MAX_TOOL_UPDATE_CHARS: dropped; the small one arrives.
    expect(updates).toEqual([5]);
    expect(out[1].isError).toBe(true);
    expect(text(out[1]).length).toBeLessThan(MAX_TOOL_ERROR_CHARS + 200);
    expect(text(out[1])).toContain("the real reason");
    expect(text(out[2]).length).toBeLessThan(70_000);
    expect(text(out[2])).toMatch(/^\[output truncated: the whole output is in \/\.computer\/output\/worker-shell\.tool%2Ebash_flood%2E[0-9a-f-]+\.stdout\.log\]\n88001\n/);
    expect(text(out[2]).endsWith("89999\n90000\n")).toBe(true);
  });

  it("bash: $TOOL_INPUT_FILE holds the inputs as JSON and is removed afterwards; a non-zero exit is an error with stderr", async () => {
    const out = await inToolWorkspace(async (ws) => {
      const cat = await writeTool(ws, "cat_input", "bash", { "index.sh": `cat "$TOOL_INPUT_FILE"; echo; echo "$TOOL_CALL_ID $TOOL_INPUT_FILE" > /workspace/where.txt` }, {
        n: input("number"),
        on: input("boolean"),
        s: input("string", { default: "d" }),
      });
      const fail = await writeTool(ws, "fail_sh", "bash", { "index.sh": `echo partial; echo "bad thing: $INPUT_PASSWORD" >&2; exit 3` }, { password: input("string", { sensitive: true }) });
      const r1 = await runToolDirectory(cat, { workspace: ws, toolCallId: "call-1", params: { n: 1.5, on: false } });
      const where = (await ws.fs.readFile("/workspace/where.txt", "utf8")).trim().split(" ");
      const gone = await ws.fs.stat(where[1]!).then(() => true, () => false);
      const r2 = await runToolDirectory(fail, { workspace: ws, params: { password: "pw-777" } });
      return { r1, where, gone, r2 };
    });
    expect(out.r1).toEqual({ content: [{ type: "text", text: '{"n":1.5,"on":false,"s":"d"}\n' }] });
    expect(out.where[0]).toBe("call-1");
    expect(out.where[1]).toMatch(/^\/workspace\/\.tool-input\/[0-9a-f-]+\.json$/);
    expect(out.gone).toBe(false);
    expect(out.r2).toEqual({ content: [{ type: "text", text: 'Tool "fail_sh" failed (exit 3): bad thing: ***\nstdout:\npartial\n' }], isError: true });
  });
});

describe("runToolDirectory: tools as the loader reports them", () => {
  it("every good fixture tool the loader finds in /workspace/tools runs with its exact result", async () => {
    const out = await inToolWorkspace(async (ws) => {
      const { tools } = await loadToolDirectories({ workspace: ws, dirs: ["/workspace/tools"] });
      const params: Record<string, Record<string, unknown>> = {
        all_inputs: { text: "go", count: 1 },
        export_rows: { rows: 2 },
        fetch_status: { url: "http://127.0.0.1:1" },
        greet: { name: "Lin" },
        slow_count: { steps: 2 },
      };
      const results: Record<string, ToolResult> = {};
      for (const tool of tools) results[tool.name] = await runToolDirectory(tool, { workspace: ws, params: params[tool.name] });
      const exportRows = tools.find((t) => t.name === "export_rows")!;
      const saved = await runToolDirectory(exportRows, { workspace: ws, params: { rows: 2, output_path: "/workspace/rows.json" } });
      return { ...results, saved, file: JSON.parse(await ws.fs.readFile("/workspace/rows.json", "utf8")) };
    });
    expect(out).toEqual({
      all_inputs: { content: [{ type: "text", text: "go\nsecret=none" }] },
      export_rows: { content: [{ type: "text", text: "1\trow 1\n2\trow 2" }] },
      fetch_status: { content: [{ type: "text", text: "No API token: pass api_token or set STATUS_API_TOKEN." }], isError: true },
      greet: { content: [{ type: "text", text: "hello, Lin.\n" }] },
      slow_count: { content: [{ type: "text", text: "counted 2" }] },
      saved: { content: [{ type: "text", text: "2 rows saved to /workspace/rows.json" }] },
      file: [
        { id: 1, label: "row 1" },
        { id: 2, label: "row 2" },
      ],
    });
  });
});

describe("runToolDirectory: misuse", () => {
  it("a non-tool, a missing workspace and a bad timeout are error results, not throws", async () => {
    const out = await inToolWorkspace(async (ws) => [
      await runToolDirectory(null as never, { workspace: ws }),
      await runToolDirectory(FIXTURE_TOOLS.greet, undefined as never),
      await runToolDirectory(FIXTURE_TOOLS.greet, { workspace: ws, params: { name: "x" }, timeoutMs: -1 }),
      await runToolDirectory(FIXTURE_TOOLS.greet, { workspace: ws, params: { name: "x" }, backend: "nope" }),
      await runToolDirectory(FIXTURE_TOOLS.all_inputs, { workspace: ws, params: { text: "x" }, backend: "worker-shell" }),
    ]);
    expect(out.map(text)).toEqual([
      "runToolDirectory needs a ToolDirectory as loadToolDirectories returns it (name, language, inputs, dir, entry, env).",
      'Tool "greet" cannot run: pass { workspace } (a Workspace with backends) to runToolDirectory.',
      'Tool "greet" cannot run: timeoutMs must be a positive number of milliseconds, got -1.',
      'Tool "greet" cannot run: this Workspace has no backend "nope" (its backends: "worker-javascript" (module), "worker-shell" (command)).',
      'Tool "all_inputs" is typescript and needs a callable module backend such as WorkerJavaScriptBackend; "worker-shell" is not one.',
    ]);
    expect(out.every((r) => r.isError === true)).toBe(true);
  });
});

describe("runToolDirectory: a timeout past the backend's maxTimeoutMs", () => {
  it("says which limit to change, instead of the backend's bare RangeError", async () => {
    const out = await inToolWorkspace(async (ws) => runToolDirectory(FIXTURE_TOOLS.all_inputs, { workspace: ws, params: { text: "a" }, timeoutMs: 200_000 }));
    expect(out).toEqual({
      content: [
        {
          type: "text",
          text: 'Tool "all_inputs" cannot run: its timeout (200000 ms) is more than the backend allows (180000 ms): lower the timeoutMs of toolDirectories (or of runToolDirectory), or raise the backend\'s maxTimeoutMs.',
        },
      ],
      isError: true,
    });
  });
});
