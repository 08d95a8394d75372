/**
 * Helpers of the tool-directory runner tests (issue 19): a fresh Durable
 * Object with a Workspace (JavaScript backend first, then the shell), the
 * fixture tool directories (test/fixtures/tool-dirs/tools) copied into
 * `/workspace/tools`, and {@link ToolDirectory} values written out by hand
 * for them (so these tests exercise the runner, not the loader).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { Workspace, type WorkspaceOptions } from "../../../src/index.js";
import { WorkerJavaScriptBackend, type WorkerJavaScriptBackendOptions } from "../../../src/backends/worker-javascript/index.js";
import { WorkerShellBackend } from "../../../src/backends/worker-shell/index.js";
import type { ToolDirectory, ToolInput, ToolLanguage } from "../../../src/tool-dirs/types.js";

// @ts-expect-error import.meta.glob is Vite's (vite/client types are not in this project's tsconfig).
const FIXTURES = import.meta.glob("../../fixtures/tool-dirs/tools/**/*", { query: "?raw", import: "default", eager: true }) as Record<string, string>;

/** Runs `fn` in a fresh Durable Object whose Workspace has the JavaScript and shell backends and the fixture tools in /workspace/tools. */
export async function inToolWorkspace<T>(
  fn: (ws: Workspace) => Promise<T>,
  options: { javascript?: Partial<WorkerJavaScriptBackendOptions>; shell?: boolean; workspace?: Partial<WorkspaceOptions> } = {},
): Promise<T> {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_instance, state) => {
    const backends: WorkspaceOptions["backends"] = [new WorkerJavaScriptBackend({ loader: env.LOADER, ...options.javascript })];
    if (options.shell !== false) backends.push(new WorkerShellBackend({ loader: env.LOADER }));
    const ws = new Workspace({ storage: state.storage, backends, ...options.workspace });
    try {
      for (const [key, text] of Object.entries(FIXTURES)) {
        const rel = key.slice(key.indexOf("/tools/") + "/tools/".length);
        const path = `/workspace/tools/${rel}`;
        await ws.fs.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
        await ws.fs.writeFile(path, text);
      }
      return await fn(ws);
    } finally {
      await ws.close();
    }
  });
}

/** An input as the loader reports it. */
export function input(type: ToolInput["type"], extra: Partial<ToolInput> = {}): Omit<ToolInput, "name"> {
  return { type, description: `a ${type}`, optional: false, sensitive: false, ...extra };
}

/** A ToolDirectory for `/workspace/tools/<dir>` (what the loader would report). */
export function toolAt(
  dir: string,
  language: ToolLanguage,
  entryFile: string,
  inputs: Record<string, Omit<ToolInput, "name">> = {},
  extra: Partial<ToolDirectory> = {},
): ToolDirectory {
  const full = `/workspace/tools/${dir}`;
  return {
    name: dir,
    label: dir,
    description: dir,
    summary: dir,
    body: "",
    version: 1,
    language,
    inputs: Object.fromEntries(Object.entries(inputs).map(([name, i]) => [name, { name, ...i }])),
    mutating: true,
    env: [],
    dir: full,
    toolFile: `${full}/TOOL.md`,
    entry: `${full}/${entryFile}`,
    root: "/workspace/tools",
    ...extra,
  };
}

/** The fixture tools, as the loader reports them (front matter of test/fixtures/tool-dirs/tools/<name>/TOOL.md). */
export const FIXTURE_TOOLS = {
  all_inputs: toolAt("all_inputs", "typescript", "index.ts", {
    text: input("string"),
    count: input("number", { default: 2 }),
    loud: input("boolean", { optional: true }),
    mode: input("enum", { values: ["plain", "brackets", "quotes"], default: "plain" }),
    color: input("enum", { values: ["red", "green", "blue"], optional: true }),
    secret: input("string", { optional: true, sensitive: true }),
  }),
  export_rows: toolAt("export_rows", "typescript", "index.ts", {
    rows: input("number", { default: 3 }),
    output_path: input("string", { optional: true }),
  }),
  fetch_status: toolAt(
    "fetch_status",
    "typescript",
    "index.ts",
    { url: input("string"), api_token: input("string", { optional: true, sensitive: true }) },
    { env: ["STATUS_API_TOKEN"] },
  ),
  greet: toolAt("greet", "bash", "index.sh", {
    name: input("string"),
    times: input("number", { default: 1 }),
    shout: input("boolean", { optional: true }),
  }),
  slow_count: toolAt("slow_count", "javascript", "index.js", {
    steps: input("number", { default: 3 }),
    delay_ms: input("number", { default: 10 }),
  }),
  py_hello: toolAt("py_hello", "python", "index.py", { name: input("string") }),
};

/** Writes a one-off tool directory `/workspace/tools/<dir>` with `files` and returns its ToolDirectory. */
export async function writeTool(
  ws: Workspace,
  dir: string,
  language: ToolLanguage,
  files: Record<string, string>,
  inputs: Record<string, Omit<ToolInput, "name">> = {},
  extra: Partial<ToolDirectory> = {},
): Promise<ToolDirectory> {
  const full = `/workspace/tools/${dir}`;
  await ws.fs.mkdir(full, { recursive: true });
  for (const [name, text] of Object.entries(files)) await ws.fs.writeFile(`${full}/${name}`, text);
  const entry = Object.keys(files).find((f) => f.startsWith("index.")) ?? "index.ts";
  return toolAt(dir, language, entry, inputs, extra);
}
