/**
 * Issue 17's "Done when" (seed 004), in real workerd: an agent whose only
 * exec backend is JavaScript runs `npm test` of a small real Node project in
 * the Linux container through `import { exec } from "ws:container"`, sees the
 * result, and finds the files the command made in its Workspace.
 *
 * The Durable Object-like holder has `withWorkspaceContainer`; its Workspace
 * has `WorkerJavaScriptBackend` (`modules: { "ws:container":
 * createContainerModule() }`) and a `ContainerBackend` (`ignore:
 * ["**\/node_modules"]`) played by the local container host — a real
 * `computerd` process, commands run by `/bin/sh` with the host's `node` and
 * `npm`. The tools are built with `exec: { "worker-javascript": {} }`.
 *
 * Each agent library's own loop drives the same scripted agent: the AI SDK's
 * `generateText` over `MockLanguageModelV4`, pi's loop over its faux provider
 * (each supported major), TanStack's `chat()` over a scripted adapter. The
 * agent writes the project (package.json with a `file:` dependency, a
 * module, a test), fixes a bug with edit, runs `npm install` + `npm test`
 * through `ws:container` (exit 0, the spec reporter's output), reads the
 * lcov report the command wrote (pulled into the Workspace; `node_modules`
 * not), breaks a test with edit and runs again (exit 1 and the failure text,
 * a result, not an error).
 *
 * The last test checks that two agents' containers on the local host are
 * apart (each in a directory of its own), with ContainerBackend's default
 * `MOUNT_POINT` — found by this file: LocalWorkspaceContainerAPI passed
 * `MOUNT_POINT: "/workspace"` to the host, which put every container in the
 * machine's real `/workspace`; it now leaves port and directory to the host.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { chat, maxIterations } from "@tanstack/ai";
import { describe, expect, inject, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { ContainerBackend, withWorkspaceContainer } from "../../../src/backends/container/index.js";
import { createContainerModule } from "../../../src/modules/container.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import { call, done, outputFor } from "../../shared/loops/ai-sdk.js";
import { PI_MAJORS, step } from "../../shared/loops/pi.js";
import { scriptedAdapter } from "../../node/tools/tanstack-helpers.js";
import { APP, BREAK, FILES, FIX, LCOV, NPM_HEADER, RUN_TESTS, normalize, summary, type RunResult } from "./agent-project.js";

/** The Durable Object-like agent of seed 004: `withWorkspaceContainer` over real storage, the container on the local host (env). */
class Agent extends withWorkspaceContainer(
  class {
    ctx: { id: { toString(): string }; storage: DurableObjectStorage };
    env: Record<string, unknown>;
    constructor(ctx: { id: { toString(): string }; storage: DurableObjectStorage }, env: Record<string, unknown>) {
      this.ctx = ctx;
      this.env = env;
    }
  },
) {
  readonly container = new ContainerBackend({
    container: () => this,
    workspace: { binding: "TEST_DO", id: this.ctx.id.toString() },
    egress: { mode: "direct" },
    ignore: ["**/node_modules"],
    heartbeatIntervalMs: 0,
    containerEnv: this.env.CONTAINER_ENV as Record<string, string> | undefined,
  });
  readonly workspace = new Workspace({
    storage: this.ctx.storage,
    backends: [new WorkerJavaScriptBackend({ loader: this.env.LOADER as typeof env.LOADER, modules: { "ws:container": createContainerModule() } }), this.container],
  });
}



/** Runs `fn` in a fresh Durable Object with the seed-004 agent (`containerEnv` as given); closes its Workspace after. */
async function inAgent<T>(containerEnv: Record<string, string> | undefined, fn: (agent: Agent) => Promise<T>): Promise<T> {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_instance, state) => {
    const agent = new Agent({ id: state.id, storage: state.storage }, { LOADER: env.LOADER, COMPUTER_CONTAINER_HOST: inject("containerHost"), CONTAINER_ENV: containerEnv });
    try {
      return await fn(agent);
    } finally {
      await agent.workspace.close();
    }
  });
}

/** One tool call of the script: id, tool name, input. */
type Call = [id: string, tool: string, input: Record<string, unknown>];

/** The agent's calls, in order (one per model turn). */
const CALLS: Call[] = [
  ...FILES.map(([path, content], i): Call => [`write${i}`, "write", { path, content }]),
  ["fix", "edit", FIX],
  ["run", "exec", { command: RUN_TESTS }],
  ["lcov", "read", { path: `${APP}/coverage/lcov.info` }],
  ["break", "edit", BREAK],
  ["rerun", "exec", { command: RUN_TESTS }],
];

/** What the model was offered as exec: its description and its parameters' names. */
interface Offered {
  description: string;
  parameters: string[];
}

/** What one loop reports: each call's raw tool value (as the model saw it, unwrapped), and the exec tool it was offered. */
interface Seen {
  values: Record<string, unknown>;
  offered: Offered;
}

/**
 * Runs `loop` in a fresh Durable Object with the seed-004 agent; then checks
 * the Workspace: the lcov report is there (pulled), `node_modules` is not.
 */
async function agentRun(loop: (agent: Agent) => Promise<Seen>) {
  return inAgent(undefined, async (agent) => {
    const ws = agent.workspace;
    const seen = await loop(agent);
      const lcov = await ws.fs.readFile(`${APP}/coverage/lcov.info`, "utf8");
      const lock = JSON.parse(await ws.fs.readFile(`${APP}/package-lock.json`, "utf8")) as { packages: Record<string, unknown> };
      const nodeModules = await ws.fs.stat(`${APP}/node_modules`).then(
        () => "exists",
        (e: { code?: string }) => e.code,
      );
      const test = await ws.fs.readFile(`${APP}/test/math.test.js`, "utf8");
      return { seen, lcov, lock, nodeModules, test, jsText: ws.runtime.backends().find((b) => b.id === "worker-javascript")!.description!, containerText: agent.container.description };
  });
}

const bytes = (s: string) => new TextEncoder().encode(s).length;

/** The checks every loop shares: tool values, what exec offered, and the Workspace afterwards. */
function expectAgentRun(out: Awaited<ReturnType<typeof agentRun>>) {
  const { values, offered } = out.seen;

  // The exec tool offers JavaScript alone: no `backend` parameter, no container backend in its text —
  // the container is reached only through ws:container, which the JavaScript backend's text lists.
  expect(offered.parameters).toEqual(["command", "cwd", "env", "input"]);
  expect(offered.description.startsWith(`Runs code in the workspace.\n\n${out.jsText}\n\n`)).toBe(true);
  expect(out.jsText).toContain("ws:container");
  expect(out.jsText).toContain("Runs shell commands in a Linux container that shares this Workspace's files");
  expect(offered.description).not.toContain("container-shell");
  expect(offered.description).not.toContain(out.containerText);
  expect(offered.description).not.toContain("It has network access.");

  // The project, written with the write tool and fixed with edit.
  FILES.forEach(([path, content], i) => expect(values[`write${i}`]).toEqual({ path, bytesWritten: bytes(content) }));
  expect(values.fix).toMatchObject({ path: FIX.path, editsApplied: 1, firstChangedLine: 2 });
  expect((values.fix as { patch: string }).patch).toContain("-export function add(a, b) { return a - b; }\n+export function add(a, b) { return a + b; }\n");

  // First run: npm install of the file: dependency (no registry) and npm test, exit 0, the spec reporter's output.
  const run = values.run as { command: string; cwd: null; backend: string; exitCode: number; stdout: string; stderr: string; result: RunResult };
  expect({ ...run, result: undefined }).toEqual({ command: RUN_TESTS, cwd: null, backend: "worker-javascript", exitCode: 0, stdout: "", stderr: "", result: undefined });
  const first = run.result;
  expect(first.node).toMatch(/^v(20|22|24)\.\d+\.\d+$/);
  expect(first.install).toBe(0);
  expect(first.installOut).toMatch(/^\nadded 1 package in \d+m?s\n$/);
  expect([first.exitCode, first.passed, first.stderr, first.sync]).toEqual([0, true, "", "complete"]);
  const passing = normalize(first.stdout);
  expect(passing.startsWith(NPM_HEADER)).toBe(true);
  expect(passing).toContain("✔ add (…ms)\n");
  expect(passing).toContain("✔ quadruple (…ms)\n");
  expect(passing).toContain(summary(2));
  expect(passing).toMatch(/\n\S+ all files +\| 100\.00 \| +100\.00 \| +100\.00 \| ?\n/);
  expect(passing.endsWith("ℹ end of coverage report\n")).toBe(true);
  expect(passing).not.toContain("✖");

  // The report the command wrote, read back with the read tool (its text without the final newline).
  expect(values.lcov).toBe(LCOV.slice(0, -1));

  // The agent breaks a test and runs again: exit 1 and the failure, returned as a result.
  expect(values.break).toMatchObject({ path: BREAK.path, editsApplied: 1, firstChangedLine: 4 });
  const rerun = values.rerun as typeof run;
  expect({ ...rerun, result: undefined }).toEqual({ command: RUN_TESTS, cwd: null, backend: "worker-javascript", exitCode: 0, stdout: "", stderr: "", result: undefined });
  const second = rerun.result;
  expect(second.installOut).toMatch(/^\nup to date in \d+m?s\n$/);
  expect([second.install, second.exitCode, second.passed, second.stderr, second.sync]).toEqual([0, 1, false, "", "complete"]);
  const failing = normalize(second.stdout);
  expect(failing.startsWith(NPM_HEADER)).toBe(true);
  expect(failing).toContain("✖ add (…ms)\n");
  expect(failing).toContain("✔ quadruple (…ms)\n");
  expect(failing).toContain(summary(1));
  expect(failing).toContain("AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n");
  expect(failing).toContain("5 !== 6\n");
  expect(failing).toContain("test/math.test.js:4:");

  // The Workspace: the report pulled back (same lines ran both times), the lock file npm wrote, node_modules ignored.
  expect(out.lcov).toBe(LCOV);
  expect(out.lock.packages).toEqual({ "": { name: "app", version: "1.0.0", dependencies: { dep: "file:./dep" } }, dep: { version: "1.0.0" }, "node_modules/dep": { resolved: "dep", link: true } });
  expect(out.nodeModules).toBe("ENOENT");
  expect(out.test).toContain("assert.equal(add(2, 3), 6)");
}

/** The tools of seed 004: exec offers JavaScript alone. */
const EXEC = { "worker-javascript": {} } as const;

describe("seed 004: the model sees only JavaScript and runs npm test in the container through ws:container (issue 17, Done when)", () => {
  it("AI SDK generateText over MockLanguageModelV4", async () => {
    const out = await agentRun(async ({ workspace }) => {
      const model = new MockLanguageModelV4({ doGenerate: [...CALLS.map(([id, tool, input]) => call(id, tool, input)), done] });
      const result = await generateText({ model, prompt: "write the app, test it", tools: createAITools({ workspace, exec: EXEC }), stopWhen: stepCountIs(CALLS.length + 2) });
      expect(result.text).toBe("done");
      expect(model.doGenerateCalls.length).toBe(CALLS.length + 1);
      const exec = model.doGenerateCalls[0]!.tools!.find((t) => t.name === "exec") as { description: string; inputSchema: { properties: object } };
      // The AI SDK hands objects over as json, read's text as text.
      const values = Object.fromEntries(
        CALLS.map(([id, tool]) => {
          const output = outputFor(model, id) as { type: string; value: unknown };
          expect(output.type).toBe(tool === "read" ? "text" : "json");
          return [id, output.value];
        }),
      );
      return { values, offered: { description: exec.description, parameters: Object.keys(exec.inputSchema.properties) } };
    });
    expectAgentRun(out);
  });

  for (const major of PI_MAJORS) {
    describe(`pi ${major.name}`, () => {
      const runLoop = major.piLoop();
      it("pi's loop over the faux provider", async () => {
        const out = await agentRun(async ({ workspace }) => {
          const tools = createPiTools({ workspace, exec: EXEC });
          const result = await runLoop(tools, [...CALLS.map(([id, tool, input]) => step(major, major.fauxToolCall(tool, input, { id }))), major.fauxAssistantMessage("done")]);
          expect(result.context.messages.at(-1)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "done" }] });
          const exec = (tools.tools as Array<{ name: string; description: string; parameters: { properties: object } }>).find((t) => t.name === "exec")!;
          // pi: objects as their JSON text with the value in details; read's text as is.
          const values = Object.fromEntries(
            CALLS.map(([id, tool]) => {
              const r = result.results.get(id)!;
              expect([r.toolCallId, r.isError, r.content.length, r.content[0]!.type]).toEqual([id, false, 1, "text"]);
              if (tool === "read") return [id, r.content[0]!.text];
              expect(r.content[0]!.text).toBe(JSON.stringify(r.details));
              return [id, r.details];
            }),
          );
          return { values, offered: { description: exec.description, parameters: Object.keys(exec.parameters.properties) } };
        });
        expectAgentRun(out);
      });
    });
  }

  it("TanStack chat() over a scripted adapter", async () => {
    const out = await agentRun(async ({ workspace }) => {
      const tools = createTanStackTools({ workspace, exec: EXEC });
      const { adapter, seen } = scriptedAdapter([...CALLS.map(([id, name, input]) => ({ calls: [{ id, name, input }] })), { text: "done" }]);
      const stream = chat({ adapter: adapter as never, messages: [{ role: "user", content: "go" }], tools: tools as never, agentLoopStrategy: maxIterations(CALLS.length + 2) });
      const chunks: Array<Record<string, unknown>> = [];
      for await (const chunk of stream as AsyncIterable<Record<string, unknown>>) chunks.push(chunk);
      expect(seen.length).toBe(CALLS.length + 1);
      expect(chunks.filter((c) => c.type === "TEXT_MESSAGE_CONTENT").map((c) => c.delta)).toEqual(["done"]);
      const last = seen.at(-1)!.messages as Array<{ role: string; toolCallId?: string; content: unknown }>;
      const exec = (seen[0]!.tools as Array<{ name: string; description: string; inputSchema: { properties: object } }>).find((t) => t.name === "exec")!;
      // TanStack: objects as JSON text, read's text as is.
      const values = Object.fromEntries(
        CALLS.map(([id, tool]) => {
          const content = last.find((m) => m.role === "tool" && m.toolCallId === id)?.content;
          expect(typeof content).toBe("string");
          return [id, tool === "read" ? content : JSON.parse(content as string)];
        }),
      );
      return { values, offered: { description: exec.description, parameters: Object.keys(exec.inputSchema.properties) } };
    });
    expectAgentRun(out);
  });

  // FIXED defect: LocalWorkspaceContainerAPI passed ContainerBackend's MOUNT_POINT "/workspace" to the local host, which
  // resolved it as is, so every local container ran in, and synced, the machine's real /workspace (shared by all
  // objects and sessions). The host now picks each container's directory.
  it("local host: two agents with ContainerBackend's default MOUNT_POINT get containers of their own (each its own /workspace)", async () => {
    const name = `isolation-${crypto.randomUUID()}.txt`;
    const sh = async (agent: Agent, command: string) =>
      (await agent.workspace.runtime.exec(command, { backend: "container-shell", cwd: "/workspace", encoding: "utf8", timeoutMs: 30_000 })).result();
    const made = await inAgent(undefined, (a) => sh(a, `echo from-a > ${name}`));
    expect(made.exitCode).toBe(0);
    // B's own container must not have A's file; B removes it either way (nothing left behind in the shared directory).
    const seen = await inAgent(undefined, (b) => sh(b, `test -e ${name}; r=$?; rm -f ${name}; exit $r`));
    expect(seen.exitCode).toBe(1);
  });
});
