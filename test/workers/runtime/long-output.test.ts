/**
 * Long output of the JavaScript backend as the model sees it (issue 12 §7):
 * the saved full-output file holds each stream whole (up to the backend's
 * per-stream `maxStdioBytes`), the model is shown the *last* lines, and a
 * flood on stdout never starves stderr. Driven through the agent libraries'
 * own loops (AI SDK generateText, pi's faux provider, TanStack chat()).
 */
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { call, done, outputFor } from "../../shared/loops/ai-sdk.js";
import { PI_MAJORS, step } from "../../shared/loops/pi.js";
import { runChat } from "../../node/tools/tanstack-helpers.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import { execDefinition } from "../../../src/tools/core/exec.js";
import { inWorkspace } from "./helpers.js";

/** `seq 1 400000`: 2,688,895 bytes. */
const SEQ = Array.from({ length: 400_000 }, (_, i) => `${i + 1}\n`).join("");
/** The last 2000 lines (the exec tool's default maxLines), as the model is shown them. */
const SEQ_TAIL = Array.from({ length: 2000 }, (_, i) => `${398_001 + i}\n`).join("");

const PRINTERS = {
  "console.log per line": `export default () => { for (let i = 1; i <= 400000; i++) console.log(i); }`,
  "a few big writes": `export default () => {
    const parts = [];
    for (let i = 1; i <= 400000; i++) parts.push(i + "\\n");
    const text = parts.join("");
    for (let at = 0; at < text.length; at += 1 << 20) process.stdout.write(text.slice(at, at + (1 << 20)));
  }`,
};

/** The exec tool's final snapshot as the model saw it (AI SDK lowers it to a json part). */
function execOutput(model: MockLanguageModelV4, id: string): { stdout: string; stderr: string; exitCode: number } {
  const part = outputFor(model, id) as { type: string; value: { stdout: string; stderr: string; exitCode: number } };
  expect(part.type).toBe("json");
  return part.value;
}

/** The full-output path named by the note at the end of a tail. */
const savedPath = (text: string) => /Full output: (\S+)\]$/.exec(text)?.[1];

describe("long output of the JavaScript backend through the exec tool", () => {
  for (const [shape, command] of Object.entries(PRINTERS)) {
    it(`seq 1 400000 (${shape}): the model sees the last lines, the file is whole, read finds line 399,999`, async () => {
      const out = await inWorkspace(async (ws) => {
        let turn = 0;
        const model: MockLanguageModelV4 = new MockLanguageModelV4({
          doGenerate: async () => {
            turn += 1;
            if (turn === 1) return call("x1", "exec", { command });
            if (turn === 2) return call("r1", "read", { path: savedPath(execOutput(model, "x1").stdout) ?? "(no path)", offset: 399_999, limit: 1 });
            return done;
          },
        });
        await generateText({ model, prompt: "count", tools: createAITools({ workspace: ws }), stopWhen: stepCountIs(5) });
        const exec = execOutput(model, "x1");
        const path = savedPath(exec.stdout);
        const saved = path === undefined ? undefined : await ws.fs.readFile(path, "utf8");
        const size = path === undefined ? undefined : (await ws.fs.stat(path)).size;
        return { exec, path, saved, size, read: outputFor(model, "r1") };
      });
      expect(out.exec.exitCode).toBe(0);
      expect(out.exec.stderr).toBe("");
      expect(out.path).toMatch(/^\/\.computer\/output\/worker-javascript\.[0-9a-f-]+\.stdout\.log$/);
      expect(out.exec.stdout).toBe(`${SEQ_TAIL}\n\n[Showing lines 398001-400000 of 400000. Full output: ${out.path}]`);
      expect(out.size).toBe(2_688_895);
      expect(out.saved?.length).toBe(2_688_895);
      expect(out.saved === SEQ).toBe(true);
      expect(out.read).toMatchObject({ type: "json", value: { path: out.path, content: "399999", startLine: 399_999, endLine: 399_999 } });
    });
  }

  // 150,000 progress lines (3,338,895 bytes) on stdout, then the failure on stderr.
  const FAILING = `export default () => {
    for (let i = 1; i <= 150000; i++) console.log("progress " + i + "/150000");
    console.error("FAILED: step 150000 did not pass");
    throw new Error("build failed");
  }`;
  const STDERR = "FAILED: step 150000 did not pass\nbuild failed\n";
  const PROGRESS_TAIL = Array.from({ length: 2000 }, (_, i) => `progress ${148_001 + i}/150000\n`).join("");

  it("stdout flood then a failure: the AI SDK model sees stderr intact and exit 1", async () => {
    const exec = await inWorkspace(async (ws) => {
      const model = new MockLanguageModelV4({ doGenerate: [call("x1", "exec", { command: FAILING }), done] });
      await generateText({ model, prompt: "build", tools: createAITools({ workspace: ws }), stopWhen: stepCountIs(5) });
      return execOutput(model, "x1");
    });
    expect(exec.exitCode).toBe(1);
    expect(exec.stderr).toBe(STDERR);
    expect(exec.stdout.startsWith(PROGRESS_TAIL + "\n\n[Showing lines 148001-150000 of 150000. Full output: ")).toBe(true);
  });

  for (const major of PI_MAJORS) {
    const runLoop = major.piLoop();
    it(`stdout flood then a failure: pi ${major.name} sees stderr intact and exit 1`, async () => {
      const details = await inWorkspace(async (ws) => {
        const { results } = await runLoop(createPiTools({ workspace: ws }), [
          step(major, major.fauxToolCall("exec", { command: FAILING }, { id: "x1" })),
          major.fauxAssistantMessage("done"),
        ]);
        const result = results.get("x1")!;
        return { details: result.details, text: result.content[0]?.text };
      });
      expect(details.details).toMatchObject({ exitCode: 1, stderr: STDERR });
      expect(JSON.parse(details.text!)).toMatchObject({ exitCode: 1, stderr: STDERR });
    });
  }

  it("stdout flood then a failure: TanStack chat() sees stderr intact and exit 1", async () => {
    const content = await inWorkspace(async (ws) => {
      const { toolMessage } = await runChat(createTanStackTools({ workspace: ws }), [{ calls: [{ id: "x1", name: "exec", input: { command: FAILING } }] }, { text: "ok" }]);
      return toolMessage("x1");
    });
    const seen = (typeof content === "string" ? JSON.parse(content) : content) as { exitCode: number; stderr: string; stdout: string };
    expect(seen.exitCode).toBe(1);
    expect(seen.stderr).toBe(STDERR);
    expect(seen.stdout.startsWith(PROGRESS_TAIL)).toBe(true);
  });

  it("past maxStdioBytes the saved file ends with a marker line stating the bytes dropped, and the model's tail shows it", async () => {
    const out = await inWorkspace(
      async (ws) => {
        const tool = execDefinition({ workspace: ws as never });
        let final: { stdout: string; stderr: string; exitCode: number } | undefined;
        for await (const snapshot of tool.execute({ command: PRINTERS["console.log per line"] })) final = snapshot as typeof final;
        const path = savedPath(final!.stdout)!;
        return { final: final!, saved: await ws.fs.readFile(path, "utf8"), path };
      },
      { backend: { maxStdioBytes: 100_000 } },
    );
    // 100,000 bytes end inside line "18518" (after "1851"): the marker goes on a line of its own.
    const marker = "[stdout truncated: maxStdioBytes (100000 bytes) reached; 2588895 bytes dropped]\n";
    expect(SEQ.slice(99_989, 100_000)).toBe("\n18517\n1851");
    expect(out.saved).toBe(SEQ.slice(0, 100_000) + "\n" + marker);
    // 18,519 lines saved; the model is shown the last 2000 of them, the marker last.
    const tail = Array.from({ length: 1998 }, (_, i) => `${16_520 + i}\n`).join("") + "1851\n" + marker;
    expect(out.final).toEqual({
      command: PRINTERS["console.log per line"],
      cwd: null,
      backend: "worker-javascript",
      exitCode: 0,
      stdout: `${tail}\n\n[Showing lines 16520-18519 of 18519. Full output: ${out.path}]`,
      stderr: "",
      result: null,
    });
  });
});

describe("maxStdioBytes is a budget per stream", () => {
  const run = (source: string, maxStdioBytes: number, timeoutMs?: number) =>
    inWorkspace(
      async (ws) => {
        const r = await (await ws.runtime.exec(source, { encoding: "utf8", ...(timeoutMs ? { timeoutMs } : {}) })).result();
        return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
      },
      { backend: { maxStdioBytes } },
    );

  it("cuts the crossing write on a UTF-8 boundary and counts every byte dropped after it", async () => {
    expect(await run(`export default () => { process.stdout.write("é".repeat(10)); console.log("later"); }`, 5)).toEqual({
      stdout: "éé\n[stdout truncated: maxStdioBytes (5 bytes) reached; 22 bytes dropped]\n",
      stderr: "",
      exitCode: 0,
    });
  });

  it("a full stdout leaves stderr its own budget", async () => {
    expect(await run(`export default () => { process.stdout.write("x".repeat(5000)); console.error("err"); }`, 1000)).toEqual({
      stdout: "x".repeat(1000) + "\n[stdout truncated: maxStdioBytes (1000 bytes) reached; 4000 bytes dropped]\n",
      stderr: "err\n",
      exitCode: 0,
    });
  });

  it("a run that filled stderr still says why it failed", async () => {
    expect(await run(`export default () => { console.error("0123456789abc"); throw new Error("boom"); }`, 10)).toEqual({
      stdout: "",
      stderr: "0123456789\nboom\n[stderr truncated: maxStdioBytes (10 bytes) reached; 4 bytes dropped]\n",
      exitCode: 1,
    });
  });

  it("a run that times out still gets its marker", async () => {
    expect(await run(`export default async () => { process.stdout.write("x".repeat(100)); await new Promise((r) => setTimeout(r, 10000)); }`, 10, 500)).toEqual({
      stdout: "x".repeat(10) + "\n[stdout truncated: maxStdioBytes (10 bytes) reached; 90 bytes dropped]\n",
      stderr: "JavaScript execution timed out\n",
      exitCode: 1,
    });
  });
});
