/**
 * Issue 20, eleventh attack run: `runToolDirectory` (src/tool-dirs/run.ts) interrupted and crowded,
 * in real workerd.
 *
 * Tried:
 * - a real `ctx.abort()` while a bash tool with a sensitive input runs: what stays in the Workspace
 *   afterwards (the `$TOOL_INPUT_FILE` holding the inputs as JSON)?
 * - `workspace.close()` while a JavaScript and a bash tool run (do the runs settle?);
 * - a stray file at /workspace/.tool-input (where bash tools' input files go): every bash tool call;
 * - a JavaScript tool returning a result far over the backend's maxResultBytes;
 * - every SQLite table of the object scanned for sensitive inputs and env values after normal JavaScript
 *   and bash tool runs, and after a `ctx.abort()` mid JavaScript tool run (run records, journal, chunks).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { WorkerShellBackend } from "../../../src/backends/worker-shell/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { runToolDirectory } from "../../../src/tool-dirs/index.js";
import { TOOL_INPUT_DIR } from "../../../src/tool-dirs/run.js";
import { abortObject } from "../attack2/abort-helpers.js";
import { input, inToolWorkspace, toolAt, writeTool } from "../tool-dirs/helpers.js";

const SECRET = "sk-live-abort-0123456789abcdef";

describe("attack11: ctx.abort() mid tool run", () => {
  // FIXED (was DEFECT, low-medium: a secret stays in storage, readable by every later tool, exec, git add,
  // publish). run.ts runCommand now writes only the non-sensitive inputs to $TOOL_INPUT_FILE (sensitive
  // ones arrive only as INPUT_<NAME> variables, which die with the run), and names the file
  // `<expiry ms>-<uuid>.json` (expiry = start + timeout + 15 s) so the next bash/python run removes a file
  // an aborted run left once it has expired. The file left here holds no secret (its expiry is still
  // ahead, so it is not yet removed).
  // runToolDirectory TSDoc / docs/tool-directories.md: inputs are in `$TOOL_INPUT_FILE` "(under
  // TOOL_INPUT_DIR, removed afterwards)". The removal is a `finally` in run.ts runCommand; when the
  // object is aborted (a deploy, an exception elsewhere, the platform's reset) the finally never runs,
  // and nothing sweeps TOOL_INPUT_DIR later: /workspace/.tool-input/<uuid>.json keeps
  // {"key":"sk-live-abort-…"} — a sensitive input — for good.
  // Expected: after the object restarts no sensitive value remains stored: sweep TOOL_INPUT_DIR of files
  // older than the longest run when the runner starts (or on Workspace start), or pass the inputs without
  // a Workspace file (stdin / an env variable), or keep sensitive inputs out of the file.
  it("a bash tool run cut by ctx.abort() leaves no file holding its sensitive input", { timeout: 60_000 }, async () => {
    const id = env.TEST_DO.newUniqueId();
    const tool = toolAt("waits", "bash", "index.sh", { key: input("string", { sensitive: true }) });
    const started = await runInDurableObject(env.TEST_DO.get(id), async (_i, state) => {
      const ws = new Workspace({ storage: state.storage, backends: [new WorkerShellBackend({ loader: env.LOADER })] });
      await ws.fs.mkdir("/workspace/tools/waits", { recursive: true });
      await ws.fs.writeFile("/workspace/tools/waits/index.sh", "sleep 30\necho done\n");
      void runToolDirectory(tool, { workspace: ws, params: { key: SECRET } });
      for (let i = 0; i < 200; i++) {
        const names = await ws.fs.readdir(TOOL_INPUT_DIR).then((e) => e.map((x) => x.name), () => []);
        if (names.length > 0) return names.length;
        await new Promise((r) => setTimeout(r, 25));
      }
      return 0;
    });
    expect(started).toBe(1);
    expect(await abortObject(env.TEST_DO.get(id), "attack11")).toMatch(/^aborted: /);
    const left = await runInDurableObject(env.TEST_DO.get(id), async (_i, state) => {
      const ws = new Workspace({ storage: state.storage, backends: [new WorkerShellBackend({ loader: env.LOADER })] });
      // a later run of any bash tool (the runner's next use of TOOL_INPUT_DIR)
      await ws.fs.mkdir("/workspace/tools/quick", { recursive: true });
      await ws.fs.writeFile("/workspace/tools/quick/index.sh", "echo ok\n");
      await runToolDirectory(toolAt("quick", "bash", "index.sh"), { workspace: ws });
      const out: string[] = [];
      for (const e of await ws.fs.readdir(TOOL_INPUT_DIR).catch(() => [])) out.push(await ws.fs.readFile(`${TOOL_INPUT_DIR}/${e.name}`, "utf8"));
      await ws.close();
      return out;
    });
    expect(left.filter((text) => text.includes(SECRET))).toEqual([]);
  });
});

describe("attack11 fix: input files of runs that never finished", () => {
  it("a bash run removes expired input files, keeps unexpired and foreign ones; its own file holds no sensitive input", async () => {
    const out = await inToolWorkspace(async (ws) => {
      const expired = "1000-0123abcd-0000-4000-8000-000000000000.json";
      const future = `${Date.now() + 3_600_000}-0123abcd-0000-4000-8000-000000000001.json`;
      await ws.fs.mkdir(TOOL_INPUT_DIR, { recursive: true });
      for (const name of [expired, future, "notes.txt"]) await ws.fs.writeFile(`${TOOL_INPUT_DIR}/${name}`, "{}");
      const tool = await writeTool(ws, "show_file", "bash", { "index.sh": `cat "$TOOL_INPUT_FILE"; echo " $INPUT_KEY"; basename "$TOOL_INPUT_FILE"` }, {
        key: input("string", { sensitive: true }),
        n: input("number"),
      });
      const r = await runToolDirectory(tool, { workspace: ws, params: { key: "SENS-42", n: 2 } });
      return { r, future, left: (await ws.fs.readdir(TOOL_INPUT_DIR)).map((e) => e.name) };
    });
    const [json, own] = (out.r.content[0].text as string).split("\n");
    expect(json).toBe('{"n":2} SENS-42');
    expect(own).toMatch(/^\d{13}-[0-9a-f-]{36}\.json$/);
    expect(out.left).toEqual([out.future, "notes.txt"]); // the expired one and the run's own file are gone
  });
});

/** Every table row of the object's SQLite (blobs decoded as UTF-8) that holds one of `secrets`: "<table>: <secret>". */
function storedSecrets(state: DurableObjectState, secrets: readonly string[]): string[] {
  const found: string[] = [];
  const tables = state.storage.sql.exec("SELECT name FROM sqlite_master WHERE type = 'table'").toArray().map((r) => String(r.name));
  for (const table of tables) {
    for (const row of state.storage.sql.exec(`SELECT * FROM "${table}"`).toArray()) {
      const text = JSON.stringify(row, (_k, v) => (v instanceof ArrayBuffer ? new TextDecoder().decode(v) : v));
      for (const s of secrets) if (text.includes(s)) found.push(`${table}: ${s}`);
    }
  }
  return found;
}

describe("attack11: secrets in storage", () => {
  const JS_TOOL = toolAt("tj", "javascript", "index.js", { key: input("string", { sensitive: true }) }, { env: ["API_TOKEN"] });
  const SH_TOOL = toolAt("tb", "bash", "index.sh", { key: input("string", { sensitive: true }) }, { env: ["API_TOKEN"] });
  const backends = () => [new WorkerJavaScriptBackend({ loader: env.LOADER }), new WorkerShellBackend({ loader: env.LOADER })];

  it("after normal JavaScript and bash tool runs no table holds a sensitive input or env value", async () => {
    const found = await runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
      const ws = new Workspace({ storage: state.storage, backends: backends() });
      await ws.fs.mkdir("/workspace/tools/tj", { recursive: true });
      await ws.fs.mkdir("/workspace/tools/tb", { recursive: true });
      await ws.fs.writeFile("/workspace/tools/tj/index.js", `export async function execute() { return { content: [{ type: "text", text: "ok" }] }; }`);
      await ws.fs.writeFile("/workspace/tools/tb/index.sh", "echo ok\n");
      expect(await runToolDirectory(JS_TOOL, { workspace: ws, params: { key: "SENSJS12345" }, env: { API_TOKEN: "ENVJS12345" } })).toEqual({ content: [{ type: "text", text: "ok" }] });
      expect(await runToolDirectory(SH_TOOL, { workspace: ws, params: { key: "SENSSH12345" }, env: { API_TOKEN: "ENVSH12345" } })).toEqual({ content: [{ type: "text", text: "ok\n" }] });
      await ws.close();
      return storedSecrets(state, ["SENSJS12345", "ENVJS12345", "SENSSH12345", "ENVSH12345"]);
    });
    expect(found).toEqual([]);
  });

  it("a JavaScript tool run cut by ctx.abort() leaves its sensitive input and env value nowhere in storage", { timeout: 60_000 }, async () => {
    const id = env.TEST_DO.newUniqueId();
    await runInDurableObject(env.TEST_DO.get(id), async (_i, state) => {
      const ws = new Workspace({ storage: state.storage, backends: backends() });
      await ws.fs.mkdir("/workspace/tools/tj", { recursive: true });
      await ws.fs.writeFile("/workspace/tools/tj/index.js", `export async function execute() { await new Promise((r) => setTimeout(r, 30000)); return { content: [] }; }`);
      void runToolDirectory(JS_TOOL, { workspace: ws, params: { key: "SENSJS67890" }, env: { API_TOKEN: "ENVJS67890" } });
      await new Promise((r) => setTimeout(r, 1500));
    });
    expect(await abortObject(env.TEST_DO.get(id), "attack11")).toMatch(/^aborted: /);
    const found = await runInDurableObject(env.TEST_DO.get(id), async (_i, state) => storedSecrets(state, ["SENSJS67890", "ENVJS67890"]));
    expect(found).toEqual([]);
  });
});

describe("attack11: crowded runner", () => {
  it("workspace.close() while a JavaScript and a bash tool run: both settle as cancelled error results", { timeout: 60_000 }, async () => {
    const out = await inToolWorkspace(async (ws) => {
      const j = await writeTool(ws, "slow_j", "javascript", { "index.js": `export async function execute() { await new Promise((r) => setTimeout(r, 20000)); return { content: [{ type: "text", text: "late" }] }; }` });
      const b = await writeTool(ws, "slow_b", "bash", { "index.sh": "sleep 20\necho late\n" });
      const runs = Promise.all([runToolDirectory(j, { workspace: ws }), runToolDirectory(b, { workspace: ws })]);
      await new Promise((r) => setTimeout(r, 1500));
      await ws.close();
      return runs;
    });
    expect(out).toEqual([
      { content: [{ type: "text", text: 'Tool "slow_j" was cancelled.' }], isError: true },
      { content: [{ type: "text", text: 'Tool "slow_b" was cancelled.' }], isError: true },
    ]);
  });

  it("a stray file at /workspace/.tool-input: a bash tool call is an error result naming the path", async () => {
    const r = await inToolWorkspace(async (ws) => {
      await ws.fs.writeFile("/workspace/.tool-input", "stray");
      const tool = await writeTool(ws, "plain_sh", "bash", { "index.sh": "echo hi\n" });
      const result = await runToolDirectory(tool, { workspace: ws });
      expect(await ws.fs.readFile("/workspace/.tool-input", "utf8")).toBe("stray");
      return result;
    });
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toMatch(/^Tool "plain_sh" failed: EEXIST: .*\/workspace\/\.tool-input/);
  });

  it("a JavaScript tool returning 4 MB of text: an error result, short, saying the result is too large", async () => {
    const r = await inToolWorkspace(async (ws) => {
      const tool = await writeTool(ws, "huge_result", "javascript", {
        "index.js": `export async function execute() { return { content: [{ type: "text", text: "x".repeat(4 * 1024 * 1024) }] }; }`,
      });
      return runToolDirectory(tool, { workspace: ws });
    });
    expect(r.isError).toBe(true);
    expect(r.content[0].text.length).toBeLessThan(5000);
    expect(r.content[0].text).toMatch(/^Tool "huge_result" failed \(exit 1\): .*(large|bytes|maxResultBytes)/is);
  });
});
