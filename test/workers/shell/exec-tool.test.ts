/**
 * The exec tool with two real backends (issue 14, "exec tool with several
 * backends"; spec 03 §4.8, seed 000's exec table): WorkerShellBackend
 * (just-bash in a Dynamic Worker) and WorkerJavaScriptBackend, both on the
 * test's Worker Loader, inside workerd. Each agent library's own loop drives
 * a scripted model — the AI SDK's generateText over MockLanguageModelV4, pi's
 * loop over its faux provider (0.74 and 1.x), TanStack's chat() over a
 * scripted adapter — that picks the shell for `grep -rn` and JavaScript for a
 * computation. Checked exactly: what the model receives for each call, the
 * exec tool's parameters as each library hands them to the model, and its
 * description. Then: one backend drops a model-sent `backend`; no `backend`
 * with two is an error result, not a crash; `ws:tools` reaches the shell
 * from JavaScript code.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { asSchema, generateText, stepCountIs, type ToolSet } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { call, done, outputFor } from "../../shared/loops/ai-sdk.js";
import { PI_MAJORS, step } from "../../shared/loops/pi.js";
import { runChat } from "../../node/tools/tanstack-helpers.js";
import { Workspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { createToolBindings, forAISDKTools, forPiTools } from "../../../src/modules/tools.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import type { CreateToolsOptions } from "../../../src/tools/core/toolset.js";
import { execDefinition } from "../../../src/tools/core/exec.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import { inShellWorkspace, shellBackend } from "./helpers.js";

// ── Fixtures ──────────────────────────────────────────────────────────────

/** WorkerShellBackend's self-description with core commands only and no network (see describeShell). */
const SHELL_TEXT =
  "A just-bash shell in a Dynamic Worker, working directly on the Workspace's files (cwd /workspace). Starts fast, with no container. Good for cat, grep -rn, sed -i, awk, head, tail, sort, uniq, wc, find, xargs, diff, tar, pipes and redirects. It has no network access. Cannot run npm, node, python, or binaries outside its built-in command set. Its built-in `git` (init, status, diff, log, add, commit, branch, clone, push, …) works on the Workspace's files when the Workspace has git configured; git's network requests go out from the host.";
/** How WorkerJavaScriptBackend's self-description starts (the rest lists its modules, read from the runtime). */
const JS_TEXT_START =
  "Runs an ECMAScript module (JavaScript) in an isolated runtime; relative imports resolve from cwd, files come from the Workspace under /workspace.";

const USER_SHELL = "Use this for searching and editing text files.";
const USER_JS = "Use this for arithmetic and data work.";
/** The tool set options: both backends, shell first, each with the user's text. */
const EXEC: CreateToolsOptions["exec"] = { "worker-shell": { description: USER_SHELL }, "worker-javascript": { description: USER_JS } };

const OUTPUT_PARAGRAPH =
  "Good for builds, tests, typechecks, formatters and git plumbing. Prefer read, write and edit for looking at and changing files. Each of stdout and stderr is cut to its last 2000 lines or 64.0KB, whichever comes first; the full output then goes to a file that the reply names, which read and grep can open.";

/** Continuation lines of a backend's text sit under its list item (two spaces; blank lines stay blank). */
const nested = (text: string) => text.replace(/\n(?!\n|$)/g, "\n  ");

/** The exec description with both backends, `jsText` being the JavaScript backend's own text. */
function twoBackendDescription(jsText: string): string {
  return (
    "Runs a command on one of several backends. They differ in what they can run and how fast they start; pick the cheapest one that can do the job.\n\n" +
    "Backends:\n" +
    `- "worker-shell": ${USER_SHELL}\n\n  ${SHELL_TEXT}\n` +
    `- "worker-javascript" (callable): ${USER_JS}\n\n  ${nested(jsText)}\n\n` +
    'Name a backend on every call. If a backend answers "command not found" or lacks a tool, retry on another backend.\n\n' +
    `${OUTPUT_PARAGRAPH}\n\n` +
    'Callable backends ("worker-javascript") run `command` as module source: pass structured values in `input` and the return value comes back in `result`. The other backends reject `input`.'
  );
}

/** The exec description with the shell alone (no user text). */
const SHELL_ONLY_DESCRIPTION = `Runs a shell command in the workspace.\n\n${SHELL_TEXT}\n\n${OUTPUT_PARAGRAPH}`;

const CWD = { description: "Working directory (default: the workspace root).", type: "string" };
const ENV = { description: "Environment variables for this run only.", type: "object", propertyNames: { type: "string" }, additionalProperties: { type: "string" } };
const JSON_VALUE = {
  anyOf: [
    { type: "string" },
    { type: "number" },
    { type: "boolean" },
    { type: "null" },
    { type: "array", items: { $ref: "#/definitions/__schema0" } },
    { type: "object", propertyNames: { type: "string" }, additionalProperties: { $ref: "#/definitions/__schema0" } },
  ],
};

/** exec's parameters with both backends (pi's form: draft-07, no `$schema`, open at the top). */
const TWO_BACKEND_PARAMETERS = {
  type: "object",
  properties: {
    command: { type: "string", description: "A shell command (e.g. `npm test`) for shell backends, or module source for callable backends." },
    cwd: CWD,
    backend: {
      type: "string",
      enum: ["worker-shell", "worker-javascript"],
      description: "Backend to run on, from the list in the tool description. If a tool is missing there, retry on another backend.",
    },
    env: ENV,
    input: {
      description: "Structured input (JSON object) passed to a callable backend's module.",
      type: "object",
      propertyNames: { type: "string" },
      additionalProperties: { $ref: "#/definitions/__schema0" },
    },
  },
  required: ["command", "backend"],
  definitions: { __schema0: JSON_VALUE },
};

/** exec's parameters with the shell alone: no `backend`, no `input`. */
const SHELL_ONLY_PARAMETERS = {
  type: "object",
  properties: { command: { type: "string", description: "Shell command to run, e.g. `npm test`." }, cwd: CWD, env: ENV },
  required: ["command"],
};

/** The AI SDK's JSON Schema of a zod object: with `$schema` and closed at the top. */
const aiSchema = (parameters: object) => ({ $schema: "http://json-schema.org/draft-07/schema#", ...parameters, additionalProperties: false });

/** The files the model searches: two with TODO lines, one without. */
async function writeProject(ws: Workspace): Promise<void> {
  await ws.fs.mkdir("/workspace/src", { recursive: true });
  await ws.fs.writeFile("/workspace/src/app.ts", "export const x = 1;\n// TODO: rename x\n");
  await ws.fs.writeFile("/workspace/notes.md", "# Notes\nTODO write the docs\n");
  await ws.fs.writeFile("/workspace/src/done.ts", "export const y = 2;\n");
}

const GREP_CALL = { command: "grep -rn TODO /workspace", backend: "worker-shell" };
const JS_CALL = { command: "export default () => 6 * 7", backend: "worker-javascript" };

/** The settled snapshots the model receives for the two calls. */
const GREP_RESULT = {
  command: "grep -rn TODO /workspace",
  cwd: null,
  backend: "worker-shell",
  exitCode: 0,
  stdout: "/workspace/notes.md:2:TODO write the docs\n/workspace/src/app.ts:2:// TODO: rename x\n",
  stderr: "",
};
const JS_RESULT = { command: "export default () => 6 * 7", cwd: null, backend: "worker-javascript", exitCode: 0, stdout: "", stderr: "", result: 42 };

/** The JavaScript backend's own description, as the runtime reports it. */
function jsTextOf(ws: Workspace): string {
  const text = ws.runtime.backends().find((b) => b.id === "worker-javascript")?.description ?? "";
  expect(text.startsWith(JS_TEXT_START)).toBe(true);
  return text;
}

/** Runs generateText with one exec call per step; returns what the model saw for each call id, and the exec tool. */
async function aiRun(tools: ToolSet, calls: Array<[id: string, input: Record<string, unknown>]>) {
  const model = new MockLanguageModelV4({ doGenerate: [...calls.map(([id, input]) => call(id, "exec", input)), done] });
  const result = await generateText({ model, prompt: "go", tools, stopWhen: stepCountIs(calls.length + 2) });
  expect(result.text).toBe("done");
  // What the model was offered for exec on its first turn (the SDK's own JSON Schema).
  const offered = model.doGenerateCalls[0]!.tools?.find((t) => t.name === "exec") as { description?: string; inputSchema?: unknown } | undefined;
  return { seen: Object.fromEntries(calls.map(([id]) => [id, outputFor(model, id)])), offered };
}

/** The exec declaration TanStack's chat() handed the scripted adapter on its first turn. */
function tanstackOffered(seen: Array<{ tools: unknown[] }>) {
  const tool = (seen[0]!.tools as Array<{ name: string; description: string; inputSchema: unknown }>).find((t) => t.name === "exec")!;
  return { description: tool.description, inputSchema: tool.inputSchema };
}

// ── Two backends through each library's loop ──────────────────────────────

describe("exec with the shell and JavaScript backends: the model picks the shell for grep and JavaScript for a computation", () => {
  it("AI SDK generateText: exact results, parameters (backend required, both ids in order) and description", async () => {
    const out = await inShellWorkspace(
      async (ws) => {
        await writeProject(ws);
        const tools = createAITools({ workspace: ws, exec: EXEC });
        const run = await aiRun(tools, [
          ["g", GREP_CALL],
          ["j", JS_CALL],
        ]);
        return { ...run, jsText: jsTextOf(ws), schema: await asSchema(tools.exec!.inputSchema as never).jsonSchema, description: tools.exec!.description };
      },
      { javascript: true },
    );
    expect(out.seen).toEqual({ g: { type: "json", value: GREP_RESULT }, j: { type: "json", value: JS_RESULT } });
    expect(out.schema).toEqual(aiSchema(TWO_BACKEND_PARAMETERS));
    expect(out.description).toBe(twoBackendDescription(out.jsText));
    // The model itself was offered the same: the description and the JSON Schema.
    expect(out.offered).toMatchObject({ description: twoBackendDescription(out.jsText), inputSchema: aiSchema(TWO_BACKEND_PARAMETERS) });
  });

  for (const major of PI_MAJORS) {
    const runLoop = major.piLoop();
    it(`pi ${major.name} faux provider: exact results, parameters and description`, async () => {
      const out = await inShellWorkspace(
        async (ws) => {
          await writeProject(ws);
          const pi = createPiTools({ workspace: ws, exec: EXEC });
          const { results, context } = await runLoop(pi, [
            step(major, major.fauxToolCall("exec", GREP_CALL, { id: "g" })),
            step(major, major.fauxToolCall("exec", JS_CALL, { id: "j" })),
            // As strict sampling sends it: every optional field present as null.
            step(major, major.fauxToolCall("exec", { ...GREP_CALL, cwd: null, env: null, input: null }, { id: "s" })),
            major.fauxAssistantMessage("done"),
          ]);
          return { g: results.get("g"), j: results.get("j"), s: results.get("s"), last: context.messages.at(-1), jsText: jsTextOf(ws), declaration: pi.tools.find((t) => t.name === "exec") };
        },
        { javascript: true },
      );
      expect(out.g).toMatchObject({ role: "toolResult", toolCallId: "g", toolName: "exec", isError: false, content: [{ type: "text", text: JSON.stringify(GREP_RESULT) }], details: GREP_RESULT });
      expect(out.j).toMatchObject({ role: "toolResult", toolCallId: "j", toolName: "exec", isError: false, content: [{ type: "text", text: JSON.stringify(JS_RESULT) }], details: JS_RESULT });
      expect(out.s).toMatchObject({ isError: false, content: [{ type: "text", text: JSON.stringify(GREP_RESULT) }], details: GREP_RESULT });
      expect(out.last).toMatchObject({ role: "assistant", content: [{ type: "text", text: "done" }] });
      expect(JSON.parse(JSON.stringify(out.declaration))).toEqual({ name: "exec", description: twoBackendDescription(out.jsText), parameters: TWO_BACKEND_PARAMETERS });
    });
  }

  it("TanStack chat(): exact results, parameters and description", async () => {
    const out = await inShellWorkspace(
      async (ws) => {
        await writeProject(ws);
        const tools = createTanStackTools({ workspace: ws, exec: EXEC });
        const chat = await runChat(tools, [{ calls: [{ id: "g", name: "exec", input: GREP_CALL }] }, { calls: [{ id: "j", name: "exec", input: JS_CALL }] }, { text: "done" }]);
        return { g: chat.toolMessage("g"), j: chat.toolMessage("j"), offered: tanstackOffered(chat.seen), jsText: jsTextOf(ws), own: tools.find((t) => t.name === "exec")!.description };
      },
      { javascript: true },
    );
    expect(out.g).toBe(JSON.stringify(GREP_RESULT));
    expect(out.j).toBe(JSON.stringify(JS_RESULT));
    expect(out.own).toBe(twoBackendDescription(out.jsText));
    expect(out.offered).toEqual({ description: twoBackendDescription(out.jsText), inputSchema: TWO_BACKEND_PARAMETERS });
  });

  it("without the exec option the enum follows the registration order; with it, the option's key order", async () => {
    const out = await inShellWorkspace(
      async (ws) => {
        const enumOf = (tools: ToolSet) => asSchema(tools.exec!.inputSchema as never).jsonSchema as Promise<{ properties: { backend: { enum: string[] } } }>;
        return {
          registered: (await enumOf(createAITools({ workspace: ws }))).properties.backend.enum,
          reversed: (await enumOf(createAITools({ workspace: ws, exec: { "worker-javascript": {}, "worker-shell": {} } }))).properties.backend.enum,
          plain: createAITools({ workspace: ws }).exec!.description,
          // The deprecated `shell` option: its backends become exec's, `defaultBackend` is ignored (backend stays required).
          legacy: await asSchema(
            createAITools({ workspace: ws, shell: { backends: { "worker-javascript": {}, "worker-shell": {} }, defaultBackend: "worker-shell" } }).exec!.inputSchema as never,
          ).jsonSchema,
          jsText: jsTextOf(ws),
        };
      },
      { javascript: true },
    );
    expect(out.registered).toEqual(["worker-shell", "worker-javascript"]);
    expect(out.reversed).toEqual(["worker-javascript", "worker-shell"]);
    expect(out.legacy).toMatchObject({ required: ["command", "backend"], properties: { backend: { enum: ["worker-javascript", "worker-shell"] } } });
    // No user text: each entry is the backend's own text alone.
    expect(out.plain).toContain(`Backends:\n- "worker-shell": ${SHELL_TEXT}\n- "worker-javascript" (callable): ${nested(out.jsText)}\n\nName a backend`);
  });
});

describe("exec with two backends: what the shell answers is a result the model can act on", () => {
  it("AI SDK: command not found (127) on the shell, retried on JavaScript; cwd, env, exit 1, input refused by the shell", async () => {
    const out = await inShellWorkspace(
      async (ws) => {
        await writeProject(ws);
        return aiRun(createAITools({ workspace: ws, exec: EXEC }), [
          ["n", { command: 'node -e "console.log(6 * 7)"', backend: "worker-shell" }],
          ["j", JS_CALL],
          ["c", { command: "grep -rn TODO .", cwd: "/workspace/src", backend: "worker-shell" }],
          ["e", { command: 'echo "$GREETING"', env: { GREETING: "hé" }, backend: "worker-shell" }],
          ["1", { command: "grep -rn NOPE /workspace", backend: "worker-shell" }],
          ["i", { command: "cat", input: { a: 1 }, backend: "worker-shell" }],
        ]);
      },
      { javascript: true },
    );
    const shell = { cwd: null, backend: "worker-shell" };
    expect(out.seen).toEqual({
      n: {
        type: "json",
        value: { ...shell, command: 'node -e "console.log(6 * 7)"', exitCode: 127, stdout: "", stderr: expect.stringMatching(/^bash: node: command not found.*\n$/) },
      },
      j: { type: "json", value: JS_RESULT },
      c: { type: "json", value: { command: "grep -rn TODO .", cwd: "/workspace/src", backend: "worker-shell", exitCode: 0, stdout: "./app.ts:2:// TODO: rename x\n", stderr: "" } },
      e: { type: "json", value: { ...shell, command: 'echo "$GREETING"', exitCode: 0, stdout: "hé\n", stderr: "" } },
      1: { type: "json", value: { ...shell, command: "grep -rn NOPE /workspace", exitCode: 1, stdout: "", stderr: "" } },
      i: { type: "json", value: { ...shell, command: "cat", error: 'Backend "worker-shell" is not callable; it does not accept structured input.' } },
    });
  });

  it("TanStack chat() with streamEventName: the shell's running snapshots are emitted, the settled one is returned", async () => {
    const out = await inShellWorkspace(
      async (ws) => {
        await writeProject(ws);
        const tools = createTanStackTools({ workspace: ws, exec: EXEC, streamEventName: "exec-progress" });
        const chat = await runChat(tools, [{ calls: [{ id: "g", name: "exec", input: GREP_CALL }] }, { text: "done" }]);
        const events = chat.chunks.filter((c) => c.type === "CUSTOM" && c.name === "exec-progress").map((c) => c.value as { toolCallId: string; snapshot: typeof GREP_RESULT });
        return { events, g: chat.toolMessage("g") };
      },
      { javascript: true },
    );
    expect(out.g).toBe(JSON.stringify(GREP_RESULT));
    expect(out.events.length).toBeGreaterThanOrEqual(1);
    for (const event of out.events) {
      expect(event).toEqual({ toolCallId: "g", snapshot: { ...GREP_RESULT, exitCode: null, stdout: event.snapshot.stdout } });
      expect(GREP_RESULT.stdout.startsWith(event.snapshot.stdout)).toBe(true);
      expect(event.snapshot.stdout).not.toBe("");
    }
  });
});

describe("exec with two backends: the loop's stop button kills a shell run", () => {
  const SLOW = { command: "echo started; echo > /workspace/started.txt; sleep 10; echo late", backend: "worker-shell" };

  for (const major of PI_MAJORS) {
    const runLoop = major.piLoop();
    it(`pi ${major.name}: aborting the loop mid-command settles the call as exit 130 with the output so far`, async () => {
      const out = await inShellWorkspace(
        async (ws) => {
          const controller = new AbortController();
          const started = Date.now();
          // Abort once the command is visibly running (its marker file is in the Workspace).
          const watcher = (async () => {
            while (!controller.signal.aborted && Date.now() - started < 20_000) {
              if (await ws.fs.stat("/workspace/started.txt").then(() => true, () => false)) break;
              await new Promise((r) => setTimeout(r, 20));
            }
            await new Promise((r) => setTimeout(r, 50));
            controller.abort();
          })();
          const { results } = await runLoop(
            createPiTools({ workspace: ws }),
            [step(major, major.fauxToolCall("exec", SLOW, { id: "s" })), major.fauxAssistantMessage("done")],
            { signal: controller.signal },
          );
          await watcher;
          return { s: results.get("s"), ms: Date.now() - started };
        },
        { javascript: true },
      );
      const settled = { command: SLOW.command, cwd: null, backend: "worker-shell", exitCode: 130, stdout: "started\n", stderr: "Execution cancelled.\n" };
      expect(out.s).toMatchObject({ isError: false, content: [{ type: "text", text: JSON.stringify(settled) }], details: settled });
      expect(out.ms).toBeLessThan(10_000);
    });
  }
});

// ── One backend: a model-sent backend is dropped ──────────────────────────

describe("exec with the shell alone: no backend parameter, and a backend the model sends anyway is dropped", () => {
  const sent = [
    ["a", { command: "grep -rn TODO /workspace", backend: "worker-javascript" }],
    ["b", { command: "grep -rn TODO /workspace", backend: "no-such-backend" }],
  ] as const;

  it("AI SDK: runs on the shell, no error; the parameters have no backend", async () => {
    const out = await inShellWorkspace(async (ws) => {
      await writeProject(ws);
      const tools = createAITools({ workspace: ws });
      const run = await aiRun(tools, sent.map(([id, input]) => [id, { ...input }]));
      return { ...run, schema: await asSchema(tools.exec!.inputSchema as never).jsonSchema };
    });
    expect(out.seen).toEqual({ a: { type: "json", value: GREP_RESULT }, b: { type: "json", value: GREP_RESULT } });
    expect(out.schema).toEqual(aiSchema(SHELL_ONLY_PARAMETERS));
    expect(out.offered).toMatchObject({ description: SHELL_ONLY_DESCRIPTION, inputSchema: aiSchema(SHELL_ONLY_PARAMETERS) });
  });

  for (const major of PI_MAJORS) {
    const runLoop = major.piLoop();
    it(`pi ${major.name}: runs on the shell, no error; the parameters have no backend`, async () => {
      const out = await inShellWorkspace(async (ws) => {
        await writeProject(ws);
        const pi = createPiTools({ workspace: ws });
        const { results } = await runLoop(pi, [step(major, ...sent.map(([id, input]) => major.fauxToolCall("exec", { ...input }, { id }))), major.fauxAssistantMessage("done")]);
        return { a: results.get("a"), b: results.get("b"), declaration: pi.tools.find((t) => t.name === "exec") };
      });
      for (const result of [out.a, out.b]) {
        expect(result).toMatchObject({ isError: false, content: [{ type: "text", text: JSON.stringify(GREP_RESULT) }], details: GREP_RESULT });
      }
      expect(JSON.parse(JSON.stringify(out.declaration))).toEqual({ name: "exec", description: SHELL_ONLY_DESCRIPTION, parameters: SHELL_ONLY_PARAMETERS });
    });
  }

  it("TanStack chat(): runs on the shell, no error; the parameters have no backend", async () => {
    const out = await inShellWorkspace(async (ws) => {
      await writeProject(ws);
      const chat = await runChat(createTanStackTools({ workspace: ws }), [{ calls: sent.map(([id, input]) => ({ id, name: "exec", input: { ...input } })) }, { text: "done" }]);
      return { a: chat.toolMessage("a"), b: chat.toolMessage("b"), offered: tanstackOffered(chat.seen) };
    });
    expect(out.a).toBe(JSON.stringify(GREP_RESULT));
    expect(out.b).toBe(JSON.stringify(GREP_RESULT));
    expect(out.offered).toEqual({ description: SHELL_ONLY_DESCRIPTION, inputSchema: SHELL_ONLY_PARAMETERS });
  });

  it("the core tool ignores a backend in its input too (the schema bypassed)", async () => {
    const out = await inShellWorkspace(async (ws) => {
      await writeProject(ws);
      const tool = execDefinition({ workspace: ws as never });
      let last: unknown;
      for await (const snapshot of tool.execute({ command: "grep -rn TODO /workspace", backend: "worker-javascript" })) last = snapshot;
      return last;
    });
    expect(out).toEqual(GREP_RESULT);
  });
});

// ── Two backends, no backend named: an error result ────────────────────────

describe("exec with two backends and no backend named: a readable error result, the loop goes on", () => {
  const ENUM_MESSAGE = 'Invalid option: expected one of "worker-shell"|"worker-javascript"';

  it("AI SDK: the SDK's input-validation error reaches the model as error-text; the next call still runs", async () => {
    const out = await inShellWorkspace(
      async (ws) => {
        await writeProject(ws);
        return aiRun(createAITools({ workspace: ws }), [
          ["x", { command: "grep -rn TODO /workspace" }],
          ["g", GREP_CALL],
        ]);
      },
      { javascript: true },
    );
    expect(out.seen.x).toEqual({
      type: "error-text",
      value:
        'AI_InvalidToolInputError: Invalid input for tool exec: AI_TypeValidationError: Type validation failed: Value: {"command":"grep -rn TODO /workspace"}.\n' +
        `Error message: ${JSON.stringify([{ code: "invalid_value", path: ["backend"], message: ENUM_MESSAGE }], null, 2)}`,
    });
    expect(out.seen.g).toEqual({ type: "json", value: GREP_RESULT });
  });

  for (const major of PI_MAJORS) {
    const runLoop = major.piLoop();
    it(`pi ${major.name}: isError with "Invalid arguments for exec: backend: …"; the next call still runs`, async () => {
      const out = await inShellWorkspace(
        async (ws) => {
          await writeProject(ws);
          const { results } = await runLoop(createPiTools({ workspace: ws }), [
            step(major, major.fauxToolCall("exec", { command: "grep -rn TODO /workspace" }, { id: "x" })),
            step(major, major.fauxToolCall("exec", GREP_CALL, { id: "g" })),
            major.fauxAssistantMessage("done"),
          ]);
          return { x: results.get("x"), g: results.get("g") };
        },
        { javascript: true },
      );
      expect(out.x).toMatchObject({ isError: true, content: [{ type: "text", text: `Invalid arguments for exec: backend: ${ENUM_MESSAGE}` }] });
      expect(out.x!.details).toBeUndefined();
      expect(out.g).toMatchObject({ isError: false, details: GREP_RESULT });
    });
  }

  it("TanStack chat(): { error } with the validation message; the next call still runs", async () => {
    const out = await inShellWorkspace(
      async (ws) => {
        await writeProject(ws);
        const chat = await runChat(createTanStackTools({ workspace: ws }), [
          { calls: [{ id: "x", name: "exec", input: { command: "grep -rn TODO /workspace" } }] },
          { calls: [{ id: "g", name: "exec", input: GREP_CALL }] },
          { text: "done" },
        ]);
        return { x: chat.toolMessage("x"), g: chat.toolMessage("g") };
      },
      { javascript: true },
    );
    expect(out.x).toBe(JSON.stringify({ error: `Input validation failed for tool exec: Validation failed: ${ENUM_MESSAGE}` }));
    expect(out.g).toBe(JSON.stringify(GREP_RESULT));
  });

  it("the core tool, its schema bypassed, answers with an error snapshot and runs nothing", async () => {
    const out = await inShellWorkspace(
      async (ws) => {
        const tool = execDefinition({ workspace: ws as never });
        const snapshots: unknown[] = [];
        for await (const snapshot of tool.execute({ command: "echo hi > /workspace/ran.txt" })) snapshots.push(snapshot);
        return { snapshots, ran: await ws.fs.stat("/workspace/ran.txt").then(() => true, () => false) };
      },
      { javascript: true },
    );
    expect(out.snapshots).toEqual([{ command: "echo hi > /workspace/ran.txt", cwd: null, backend: "", error: "Name a backend to run on." }]);
    expect(out.ran).toBe(false);
  });
});

// ── ws:tools: JavaScript code calls exec on the shell ─────────────────────

/** Code run on the JavaScript backend: exec on the shell (grep, then a write), and exec without a backend. */
const WS_TOOLS_SOURCE = `import { exec } from "ws:tools";
export default async () => {
  const settle = (p) => p.then((v) => v, (e) => ({ rejected: e.message }));
  return {
    grep: await settle(exec({ command: "grep -rn TODO /workspace", backend: "worker-shell" })),
    write: await settle(exec({ command: "grep -c TODO notes.md > count.txt && echo ok", backend: "worker-shell" })),
    none: await settle(exec({ command: "ls" })),
  };
};`;

/** A Workspace with [shell, JavaScript] whose JavaScript backend exports the agent's tools (exec included) as `ws:tools`. */
async function runWsTools(flavour: "ai" | "pi") {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_instance, state) => {
    let ws!: Workspace;
    const source = flavour === "ai" ? forAISDKTools(() => createAITools({ workspace: ws })) : () => forPiTools(createPiTools({ workspace: ws }))();
    const js = new WorkerJavaScriptBackend({ loader: env.LOADER, modules: { "ws:tools": createToolBindings(source, { exclude: [] }) } });
    ws = new Workspace({ storage: state.storage, backends: [shellBackend(), js] });
    try {
      await writeProject(ws);
      const r = await (await ws.runtime.exec(WS_TOOLS_SOURCE, { encoding: "utf8", backend: "worker-javascript" })).result();
      return { r, count: await ws.fs.readFile("/workspace/count.txt", "utf8") };
    } finally {
      await ws.close();
    }
  });
}

describe("ws:tools: JavaScript code calls the exec tool on the shell backend", () => {
  const WRITE_RESULT = { command: "grep -c TODO notes.md > count.txt && echo ok", cwd: null, backend: "worker-shell", exitCode: 0, stdout: "ok\n", stderr: "" };

  it("AI SDK tools (forAISDKTools): the snapshot as text and details; a missing backend rejects with the validation message", async () => {
    const { r, count } = await runWsTools("ai");
    expect([r.exitCode, r.stderr]).toEqual([0, ""]);
    expect(r.value).toEqual({
      grep: { text: JSON.stringify(GREP_RESULT), isError: false, details: GREP_RESULT },
      write: { text: JSON.stringify(WRITE_RESULT), isError: false, details: WRITE_RESULT },
      none: { rejected: expect.stringMatching(/^Invalid arguments for exec: /) },
    });
    expect((r.value as { none: { rejected: string } }).none.rejected).toContain('"path": [\n      "backend"\n    ]');
    expect(count).toBe("1\n");
  });

  it("pi tools (forPiTools): the snapshot as text and details; a missing backend is an error result", async () => {
    const { r, count } = await runWsTools("pi");
    expect([r.exitCode, r.stderr]).toEqual([0, ""]);
    expect(r.value).toEqual({
      grep: { text: JSON.stringify(GREP_RESULT), isError: false, details: GREP_RESULT },
      write: { text: JSON.stringify(WRITE_RESULT), isError: false, details: WRITE_RESULT },
      none: { text: 'Invalid arguments for exec: backend: Invalid option: expected one of "worker-shell"|"worker-javascript"', isError: true, details: null },
    });
    expect(count).toBe("1\n");
  });
});
