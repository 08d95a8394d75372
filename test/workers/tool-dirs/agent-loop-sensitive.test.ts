/**
 * Secrets and directory tools (issue 19) in each library's real loop, in
 * real workerd: a `sensitive` input's value and an `env` token (the host's
 * STATUS_API_TOKEN) never appear in any span (the Workspace's observer
 * records every one), any console output of the host, or any text the model
 * gets back — results, bad-input errors, a tool's thrown error or stderr.
 * The captured output is searched for the values themselves.
 */
import { env as workerEnv, runInDurableObject } from "cloudflare:test";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { chat, maxIterations } from "@tanstack/ai";
import { describe, expect, inject, it } from "vitest";
import { done, outputFor, usage } from "../../shared/loops/ai-sdk.js";
import { scriptedAdapter } from "../../node/tools/tanstack-helpers.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import { Workspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { WorkerShellBackend } from "../../../src/backends/worker-shell/index.js";
import { loadToolDirectories } from "../../../src/tool-dirs/load.js";
import { recordingObserver } from "../observe/helpers.js";
import { SECRET, TOKEN, captureConsole, inLoadedTools, loopDrivers, safeJSON } from "./loop-helpers.js";

const base = (): string => inject("httpServer");
/** A secret the model passes as a number (a wrong type for a string input). */
const SECRET_NUMBER = 918273645;

const LEAKY = {
  "leaky/TOOL.md": `---\nname: leaky\ndescription: Logs and throws its secrets.\nenv: [STATUS_API_TOKEN]\ninputs:\n  key:\n    type: string\n    description: A key.\n    sensitive: true\n---\n`,
  "leaky/index.ts": `export async function execute(_id: string, p: { key: string }): Promise<never> {\n  console.log("key", p.key, process.env.STATUS_API_TOKEN);\n  console.error("about to fail with", JSON.stringify(p));\n  throw new Error("login failed for " + p.key + " with " + process.env.STATUS_API_TOKEN);\n}\n`,
  "bash_leaky/TOOL.md": `---\nname: bash_leaky\ndescription: Prints its secrets to stderr and fails.\nlanguage: bash\nenv: [STATUS_API_TOKEN]\ninputs:\n  pw:\n    type: string\n    description: A password.\n    sensitive: true\n---\n`,
  "bash_leaky/index.sh": `echo "out $INPUT_PW"\necho "bad $INPUT_PW $STATUS_API_TOKEN" >&2\ncat "$TOOL_INPUT_FILE" >&2\nexit 3\n`,
};

describe("sensitive inputs and env tokens never reach spans, console output or error texts", () => {
  for (const driver of loopDrivers()) {
    it(`${driver.name}`, async () => {
      const { observer, spans } = recordingObserver();
      const { value: out, lines } = await captureConsole(() =>
        inLoadedTools(
          async ({ ws, loaded }) => {
            console.info("capture check", driver.name);
            return driver.run({ workspace: ws, toolDirectories: { ...loaded, env: { STATUS_API_TOKEN: TOKEN } } }, [
              ["inputs", "all_inputs", { text: "hi", secret: SECRET }],
              ["badtype", "all_inputs", { text: 5, secret: SECRET }],
              ["badenum", "all_inputs", { text: "x", mode: "nope", secret: SECRET }],
              ["badsecret", "all_inputs", { text: "x", secret: SECRET_NUMBER }],
              ["leak", "leaky", { key: SECRET }],
              ["bash", "bash_leaky", { pw: SECRET }],
              ["status", "fetch_status", { url: `${base()}/echo?via=` }],
              ["status_param", "fetch_status", { url: base(), api_token: SECRET }],
            ]);
          },
          { observer, extra: LEAKY },
        ),
      );
      const { seen } = out;
      expect(out.final).toBe("done");
      // The calls ran (or were refused) as expected…
      expect(seen.inputs).toEqual({ text: `hi hi\nsecret=${SECRET.length} chars`, isError: false });
      for (const id of ["badtype", "badenum", "badsecret"]) expect(seen[id]!.isError, id).toBe(true);
      expect(seen.badsecret!.text).toMatch(/\bsecret\b/);
      // …the tool's own error text has both values masked…
      // (its stderr, then the thrown message)
      expect(seen.leak).toEqual({ text: 'Tool "leaky" failed (exit 1): about to fail with {"key":"***"}\nlogin failed for *** with ***', isError: true });
      // (a sensitive input is a variable only, not in $TOOL_INPUT_FILE's JSON)
      expect(seen.bash).toEqual({ text: `Tool "bash_leaky" failed (exit 3): bad *** ***\n{}\nstdout:\nout ***\n`, isError: true });
      expect(seen.status).toEqual({ text: "HTTP 200: GET /echo?via=/status", isError: false });
      expect(seen.status_param).toEqual({ text: "HTTP 404: no route /status", isError: true });
      // …the observer saw the command run (the haystack is real: the shell's spawn span names its run and cwd)…
      const spanText = safeJSON(spans);
      expect(spans.find((s) => s.name === "workspace.runtime.exec.spawn")?.attributes).toEqual({
        "workspace.runtime.cwd": "/workspace/tools/bash_leaky",
        "workspace.runtime.timeout_ms": 60000,
        "workspace.runtime.id": expect.stringMatching(/^tool\.bash_leaky\.[0-9a-f-]{36}$/),
      });
      // …and neither value is anywhere.
      expect(lines).toContain(`capture check ${driver.name}`);
      const haystacks = { spans: spanText, console: lines.join("\n"), model: safeJSON(seen) };
      for (const [where, text] of Object.entries(haystacks)) {
        for (const value of [SECRET, TOKEN, String(SECRET_NUMBER)]) expect(text.includes(value), `${value} in ${where}`).toBe(false);
      }
    });
  }
});

// @ts-expect-error import.meta.glob is Vite's (vite/client types are not in this project's tsconfig).
const FIXTURES = import.meta.glob("../../fixtures/tool-dirs/tools/**/*", { query: "?raw", import: "default", eager: true }) as Record<string, string>;

/** A bash tool with a sensitive input that uses it without printing it. */
const QUIET = {
  "bash_quiet/TOOL.md": `---\nname: bash_quiet\ndescription: Measures a password.\nlanguage: bash\ninputs:\n  pw:\n    type: string\n    description: A password.\n    sensitive: true\n---\n`,
  "bash_quiet/index.sh": `echo "length \${#INPUT_PW}"\n`,
};

/** Every row of every table of the object's SQLite storage, as text (blobs decoded as UTF-8). */
function dumpStorage(storage: DurableObjectStorage): string {
  const decoder = new TextDecoder();
  const tables = storage.sql.exec("SELECT name FROM sqlite_master WHERE type = 'table'").toArray().map((r) => String(r.name));
  const parts: string[] = [];
  for (const table of tables) {
    if (table.startsWith("_cf_") || table.startsWith("sqlite_")) continue;
    for (const row of storage.sql.exec(`SELECT * FROM "${table.replaceAll('"', '""')}"`)) {
      for (const value of Object.values(row)) parts.push(value instanceof ArrayBuffer ? decoder.decode(value) : String(value));
    }
  }
  return parts.join("\n");
}

describe("nothing durable keeps a secret", () => {
  for (const driver of loopDrivers()) {
    it(`${driver.name}: after the loop, no table of the Durable Object's storage holds the sensitive input or the env token`, async () => {
      const stub = workerEnv.TEST_DO.get(workerEnv.TEST_DO.newUniqueId());
      const out = await runInDurableObject(stub, async (_instance, state) => {
        const ws = new Workspace({
          storage: state.storage,
          backends: [new WorkerJavaScriptBackend({ loader: workerEnv.LOADER, egress: { mode: "direct" } }), new WorkerShellBackend({ loader: workerEnv.LOADER })],
        });
        try {
          for (const [key, text] of Object.entries({ ...FIXTURES, ...Object.fromEntries(Object.entries(QUIET).map(([k, v]) => [`/tools/${k}`, v])) })) {
            const path = `/workspace/tools/${key.slice(key.indexOf("/tools/") + "/tools/".length)}`;
            await ws.fs.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
            await ws.fs.writeFile(path, text);
          }
          const loaded = await loadToolDirectories({ workspace: ws, dirs: ["/workspace/tools"] });
          const run = await driver.run({ workspace: ws, toolDirectories: { ...loaded, env: { STATUS_API_TOKEN: TOKEN } } }, [
            ["inputs", "all_inputs", { text: "hi", secret: SECRET }],
            ["bad", "all_inputs", { text: 5, secret: SECRET }],
            ["quiet", "bash_quiet", { pw: SECRET }],
            ["status", "fetch_status", { url: `${base()}/echo?via=` }],
            ["status_param", "fetch_status", { url: base(), api_token: SECRET }],
          ]);
          const files = await ws.fs.readdir("/workspace/.tool-input").catch((e: { code?: string }) => e.code);
          return { run, files, dump: dumpStorage(state.storage) };
        } finally {
          await ws.close();
        }
      });
      expect(out.run.final).toBe("done");
      expect(out.run.seen.quiet).toEqual({ text: `length ${SECRET.length}\n`, isError: false });
      expect(out.run.seen.status).toEqual({ text: "HTTP 200: GET /echo?via=/status", isError: false });
      // The haystack is real: the fixture files are in storage.
      expect(out.dump).toContain("name: fetch_status");
      expect(out.dump.includes(SECRET), "secret in storage").toBe(false);
      expect(out.dump.includes(TOKEN), "token in storage").toBe(false);
      // bash_quiet's $TOOL_INPUT_FILE was removed.
      expect(out.files).toEqual([]);
    });
  }
});

/**
 * KNOWN LIMITATION (in the libraries, not the adapters): when the model's
 * arguments text is not JSON, the AI SDK (`AI_JSONParseError: JSON parsing
 * failed: Text: …`) and TanStack (`Failed to parse tool arguments as JSON: …`)
 * quote the whole text in the error result, sensitive values included. Both
 * happen before any tool code runs, so a tool set cannot mask them; a host
 * can (AI SDK: `experimental_repairToolCall`). These tests fail once the
 * libraries stop quoting the text.
 */
describe("arguments that are not JSON: the libraries quote them (known limitation)", () => {
  const raw = `{"text":"x","secret":"${SECRET}"`;

  it.fails("AI SDK generateText: the parse error names the tool without quoting the secret", async () => {
    const out = await inLoadedTools(async ({ ws, loaded }) => {
      const model = new MockLanguageModelV4({
        doGenerate: [{ content: [{ type: "tool-call", toolCallId: "j", toolName: "all_inputs", input: raw }], finishReason: { unified: "tool-calls", raw: undefined }, usage, warnings: [] }, done] as never,
      });
      const result = await generateText({ model, prompt: "go", tools: createAITools({ workspace: ws, toolDirectories: loaded }), stopWhen: stepCountIs(3) });
      return { text: result.text, output: outputFor(model, "j") as { type: string; value: string } };
    });
    expect(out.text).toBe("done");
    expect(out.output.type).toBe("error-text");
    expect(out.output.value).toMatch(/^AI_InvalidToolInputError: Invalid input for tool all_inputs: AI_JSONParseError: JSON parsing failed/);
    expect(out.output.value).not.toContain(SECRET);
  });

  it.fails("TanStack chat(): the parse error names the tool without quoting the secret", async () => {
    const content = await inLoadedTools(async ({ ws, loaded }) => {
      const { adapter, seen } = scriptedAdapter([{ calls: [{ id: "j", name: "all_inputs", args: raw }] }, { text: "done" }]);
      const stream = chat({ adapter: adapter as never, messages: [{ role: "user", content: "go" }], tools: createTanStackTools({ workspace: ws, toolDirectories: loaded }) as never, agentLoopStrategy: maxIterations(4) });
      for await (const _chunk of stream as AsyncIterable<unknown>) void _chunk;
      const last = seen.at(-1)!.messages as Array<{ role: string; toolCallId?: string; content: unknown }>;
      return last.find((m) => m.role === "tool" && m.toolCallId === "j")?.content as string;
    });
    expect(content.startsWith('{"error":"Failed to parse tool arguments as JSON: ')).toBe(true);
    expect(content).not.toContain(SECRET);
  });
});
