/**
 * The examples build for deployment (`wrangler deploy --dry-run`) and run in
 * local workerd with their scripted models, through each library's real loop.
 */
import { createHmac } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalHost, type LocalHost } from "../../../container/local-host.mjs";
import { dryRunBuild, startExample, type RunningExample } from "./harness.js";

const EXAMPLES = ["ai-sdk-agent", "pi-loop", "tanstack-chat"];

describe("wrangler deploy --dry-run", () => {
  for (const name of EXAMPLES) {
    it(`builds examples/${name}`, { timeout: 180_000 }, async () => {
      const { files, output } = await dryRunBuild(name);
      expect(output).toContain("--dry-run: exiting now.");
      expect(files).toContain("index.js");
    });
  }

  // Its `[[containers]]` image is a Dockerfile, which even a dry run builds; `--containers-rollout=none`
  // builds the Worker without it (this machine has no Docker engine).
  it("builds examples/container-agent (Durable Object-managed container, image not built)", { timeout: 180_000 }, async () => {
    const { files, output } = await dryRunBuild("container-agent", ["--containers-rollout=none"]);
    expect(output).toContain("--dry-run: exiting now.");
    expect(output).toContain("- Agent (durable_object)");
    expect(files).toContain("index.js");
  });
});

describe("pi-loop in local workerd", () => {
  let example: RunningExample;
  beforeAll(async () => {
    example = await startExample("pi-loop");
  }, 180_000);
  afterAll(() => example?.dispose());

  it("runs the custom loop: tool calls answered with toolResult messages, then a reply", { timeout: 60_000 }, async () => {
    const response = await example.fetch("/chat?session=t", { method: "POST", body: JSON.stringify({ prompt: "Write a note." }) });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      model: string;
      text: string;
      steps: number;
      messages: Array<{ role: string; toolName?: string; isError?: boolean; content: unknown }>;
    };
    expect(body.model).toMatch(/^SCRIPTED/);
    expect(body.text).toBe("SCRIPTED model: wrote /workspace/notes/pi-loop.md.");
    expect(body.steps).toBe(2);
    expect(body.messages.map((m) => `${m.role}${m.toolName ? `:${m.toolName}` : ""}`)).toEqual([
      "user",
      "assistant",
      "toolResult:ls",
      "assistant",
      "toolResult:write",
      "assistant",
    ]);
    const results = body.messages.filter((m) => m.role === "toolResult");
    expect(results.map((m) => m.isError)).toEqual([false, false]);
    expect(JSON.stringify(results[0].content)).toContain('\\"count\\":0');

    // The note is durable: a second turn on the same session lists it.
    const again = await example.fetch("/chat?session=t", { method: "POST", body: JSON.stringify({ prompt: "Again." }) });
    const second = (await again.json()) as { messages: Array<{ role: string; content: unknown }> };
    expect(JSON.stringify(second.messages.find((m) => m.role === "toolResult")?.content)).toContain('\\"name\\":\\"notes\\"');
  });
});

describe("tanstack-chat in local workerd", () => {
  let example: RunningExample;
  beforeAll(async () => {
    example = await startExample("tanstack-chat");
  }, 180_000);
  afterAll(() => example?.dispose());

  it("streams chat() as server-sent events and pauses the mutating write for approval", { timeout: 60_000 }, async () => {
    const response = await example.fetch("/chat?session=t", {
      method: "POST",
      body: JSON.stringify({ messages: [{ role: "user", content: "Take notes." }] }),
    });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const events = (await response.text())
      .split("\n\n")
      .filter((frame) => frame.startsWith("data: "))
      .map((frame) => JSON.parse(frame.slice("data: ".length)) as { type: string; toolCallId?: string; content?: string; outcome?: { type: string; interrupts: Array<{ toolCallId: string; message: string }> } });
    const results = events.filter((e) => e.type === "TOOL_CALL_RESULT");
    expect(results.map((e) => e.toolCallId)).toEqual(["call-1"]);
    expect(JSON.parse(results[0].content!)).toEqual({ path: "/workspace", count: 0, entries: [] });
    const interrupt = events.find((e) => e.type === "RUN_FINISHED" && e.outcome?.type === "interrupt");
    expect(interrupt?.outcome?.interrupts.map((i) => [i.toolCallId, i.message])).toEqual([["call-2", "Approval required to run write"]]);
  });
});

describe("container-agent in local workerd", () => {
  let host: LocalHost;
  let root: string;
  let example: RunningExample;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "container-agent-host-"));
    host = await startLocalHost({ root });
    example = await startExample("container-agent", { vars: { COMPUTER_CONTAINER_HOST: host.url }, enableContainers: false });
  }, 180_000);
  afterAll(async () => {
    await example?.dispose();
    await host?.close();
    await rm(root, { recursive: true, force: true });
  });

  it("runs npm test in the container through ws:container from JavaScript, and pulls the files it made", { timeout: 120_000 }, async () => {
    const response = await example.fetch("/run?session=t", { method: "POST" });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      model: string;
      tools: string[];
      steps: number;
      text: string;
      exitCode: number | null;
      stdout: string;
      stderr: string;
      sync: string | null;
      written: string[];
      pulled: string[];
    };
    expect(body.model).toBe("SCRIPTED (no model credentials set)");
    expect(body.tools).toEqual(["read", "ls", "find", "grep", "write", "edit", "delete", "exec"]);
    expect(body.steps).toBe(5);
    expect(body.text).toBe("SCRIPTED model: wrote 3 files and ran npm test in the container: passed (exit 0).");
    expect(body.exitCode).toBe(0);
    expect(body.sync).toBe("complete");
    expect(body.stderr).toBe("");
    // npm's banner, then the spec reporter.
    expect(body.stdout).toContain("> app@1.0.0 test\n> mkdir -p reports && node --test");
    expect(body.stdout).toMatch(/✔ add \(\d+(\.\d+)?ms\)/);
    expect(body.stdout).toMatch(/ℹ tests 1\nℹ suites 0\nℹ pass 1\nℹ fail 0\n/);
    expect(body.written).toEqual(["/workspace/app/math.js", "/workspace/app/package.json", "/workspace/app/test/math.test.js"]);
    expect(body.pulled).toEqual(["/workspace/app/reports/junit.xml"]);

    // The report in the Workspace is the container's file, byte for byte.
    const report = await (await example.fetch("/files/workspace/app/reports/junit.xml?session=t")).text();
    expect(report).toMatch(/^<\?xml version="1.0" encoding="utf-8"\?>\n<testsuites>/);
    expect(report).toContain('<testcase name="add"');
    const [container] = await readdir(root);
    expect(await readdir(root)).toEqual([container]);
    expect(await readFile(join(root, container, "workspace/app/reports/junit.xml"), "utf8")).toBe(report);
    expect(await readFile(join(root, container, "workspace/app/package.json"), "utf8")).toContain('"test": "mkdir -p reports && node --test');
  });
});

describe("tool-dirs-agent: TOOL.md directory tools from the Worker bundle, in each library", () => {
  const KEY = "k-TOOLDIRS-7f3a";
  const SUMMARY = "2 files, 4 lines, 14 words in /workspace/notes";
  const SIGNATURE = createHmac("sha256", KEY).update(SUMMARY).digest("hex").slice(0, 16);
  const STATS = `${SUMMARY}\nsignature: ${SIGNATURE}`;
  const FREQ = "3 the\n2 fox\n1 brown\n";
  const PROGRESS = ["counted a.md (1 of 2)", "counted b.md (2 of 2)"];
  const TOOLS = ["read", "ls", "find", "grep", "write", "edit", "delete", "exec", "text_stats", "word_freq"];
  const SKIPPED = [
    {
      name: "py_hello",
      code: "language-unavailable",
      reason: 'python tools need a container backend, and none is configured (pass languages including "python" when one is)',
    },
  ];
  const TEXT = `SCRIPTED model: text_stats said ${JSON.stringify(STATS)}; word_freq said ${JSON.stringify(FREQ)}.`;
  type Reply = {
    library: string;
    tools: string[];
    sync: { copied: string[]; kept: string[]; skipped: unknown[] };
    skipped: unknown[];
    calls: Array<{ id: string; name: string; input: unknown; progress: string[]; result: unknown }>;
    text: string;
  };
  /** Every update of the tool, in order, before the result (a burst of updates is queued, not coalesced). */
  const expectProgress = (progress: string[]) => {
    expect(progress).toEqual(PROGRESS);
  };

  let example: RunningExample;
  beforeAll(async () => {
    example = await startExample("tool-dirs-agent", { vars: { STATS_SIGNING_KEY: KEY } });
  }, 180_000);
  afterAll(() => example?.dispose());

  const turn = async (route: string, session: string): Promise<Reply> => {
    const response = await example.fetch(`${route}?session=${session}`, { method: "POST" });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toContain(KEY);
    return JSON.parse(text) as Reply;
  };

  it("builds examples/tool-dirs-agent with the seed tools as Data modules", { timeout: 180_000 }, async () => {
    const { files, output } = await dryRunBuild("tool-dirs-agent");
    expect(output).toContain("--dry-run: exiting now.");
    expect(files).toEqual(expect.arrayContaining(["index.js", "seed-tools"]));
  });

  it("/ai: generateText runs text_stats (TypeScript, progress as preliminary results, env secret) and word_freq (bash)", { timeout: 120_000 }, async () => {
    const reply = await turn("/ai", "ai");
    expect(reply.library).toBe("ai-sdk");
    expect(reply.tools).toEqual(TOOLS);
    expect(reply.sync).toEqual({ copied: ["py_hello", "text_stats", "word_freq"], kept: [], skipped: [] });
    expect(reply.skipped).toEqual(SKIPPED);
    expect(reply.calls.map(({ progress: _, ...call }) => call)).toEqual([
      { id: "call-1", name: "text_stats", input: { dir: "/workspace/notes" }, result: STATS },
      { id: "call-2", name: "word_freq", input: { path: "/workspace/notes/a.md", top: 3 }, result: FREQ },
    ]);
    expectProgress(reply.calls[0].progress);
    expect(reply.calls[1].progress).toEqual([]);
    expect(reply.text).toBe(TEXT);

    // A second turn keeps the synced copies: the seed versions are not higher.
    const again = await turn("/ai", "ai");
    expect(again.sync).toEqual({ copied: [], kept: ["py_hello", "text_stats", "word_freq"], skipped: [] });
    expect(again.text).toBe(TEXT);
  });

  it("/pi: the pi loop gets { content, isError } passed through and progress through ToolCallContext.onUpdate", { timeout: 120_000 }, async () => {
    const reply = await turn("/pi", "pi");
    expect(reply.library).toBe("pi");
    expect(reply.tools).toEqual(TOOLS);
    expect(reply.sync).toEqual({ copied: ["py_hello", "text_stats", "word_freq"], kept: [], skipped: [] });
    expect(reply.skipped).toEqual(SKIPPED);
    expect(reply.calls.map(({ progress: _, ...call }) => call)).toEqual([
      {
        id: "call-1",
        name: "text_stats",
        input: { dir: "/workspace/notes" },
        result: { content: [{ type: "text", text: SUMMARY }, { type: "text", text: `signature: ${SIGNATURE}` }], isError: false },
      },
      { id: "call-2", name: "word_freq", input: { path: "/workspace/notes/a.md" }, result: { content: [{ type: "text", text: FREQ }], isError: false } },
    ]);
    expectProgress(reply.calls[0].progress);
    expect(reply.calls[1].progress).toEqual([]);
    expect(reply.text).toBe(TEXT);
  });

  it("/tanstack: chat() gets the joined text and progress as custom events (streamEventName)", { timeout: 120_000 }, async () => {
    const reply = await turn("/tanstack", "tanstack");
    expect(reply.library).toBe("tanstack");
    expect(reply.tools).toEqual(TOOLS);
    expect(reply.sync).toEqual({ copied: ["py_hello", "text_stats", "word_freq"], kept: [], skipped: [] });
    expect(reply.skipped).toEqual(SKIPPED);
    expect(reply.calls.map(({ progress: _, ...call }) => call)).toEqual([
      { id: "call-1", name: "text_stats", input: { dir: "/workspace/notes" }, result: STATS },
      { id: "call-2", name: "word_freq", input: { path: "/workspace/notes/a.md" }, result: FREQ },
    ]);
    expectProgress(reply.calls[0].progress);
    expect(reply.calls[1].progress).toEqual([]);
    expect(reply.text).toBe(TEXT);
  });
});
