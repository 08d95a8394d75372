/**
 * `ws:container`'s rules in real workerd (spec 02 §4.3): the factory's
 * option checks, the connect-time backend checks against
 * `runtime.backends()`, strict argument parsing with exact messages, the
 * read-only refusal, and the description (no network claim).
 */
import { describe, expect, it } from "vitest";
import { createContainerModule, type ContainerModuleOptions } from "../../../src/modules/container.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { env } from "cloudflare:test";
import { SYNC_COMPLETE, attempts, exists, inContainerWorkspace, runJs, valueOf } from "./helpers.js";

const thrown = (options: unknown) => {
  try {
    createContainerModule(options as ContainerModuleOptions);
    return "no throw";
  } catch (e) {
    return `${(e as Error).name}: ${(e as Error).message}`;
  }
};

describe("createContainerModule options", () => {
  it("throws for non-positive-integer limits, a non-string prelude, a bad backend id or non-object options", () => {
    const where = "createContainerModule(options)";
    expect([
      thrown({ maxOutputBytes: 0 }),
      thrown({ maxOutputBytes: 1.5 }),
      thrown({ maxOutputBytes: "10" }),
      thrown({ maxOutputLines: -1 }),
      thrown({ maxOutputLines: Number.NaN }),
      thrown({ prelude: 5 }),
      thrown({ prelude: null }),
      thrown({ backend: "" }),
      thrown({ backend: 7 }),
      thrown({ backend: null }),
      thrown({ maxOutputBytes: null }),
      thrown(null),
      thrown("x"),
    ]).toEqual([
      `TypeError: ${where}: maxOutputBytes must be a positive integer, got 0`,
      `TypeError: ${where}: maxOutputBytes must be a positive integer, got 1.5`,
      `TypeError: ${where}: maxOutputBytes must be a positive integer, got "10"`,
      `TypeError: ${where}: maxOutputLines must be a positive integer, got -1`,
      `TypeError: ${where}: maxOutputLines must be a positive integer, got NaN`,
      `TypeError: ${where}: prelude must be a string, got number`,
      `TypeError: ${where}: prelude must be a string, got null`,
      `TypeError: ${where}: backend must be a non-empty string (a backend id), got an empty string`,
      `TypeError: ${where}: backend must be a non-empty string (a backend id), got number`,
      `TypeError: ${where}: backend must be a non-empty string (a backend id), got null`,
      `TypeError: ${where}: maxOutputBytes must be a positive integer, got null`,
      `TypeError: ${where}: options must be an object, got null`,
      `TypeError: ${where}: options must be an object, got string`,
    ]);
    expect([thrown(undefined), thrown({}), thrown({ maxOutputBytes: 1, maxOutputLines: 1, prelude: "", backend: "b" })]).toEqual([
      "no throw",
      "no throw",
      "no throw",
    ]);
  });

  it("describes the container, the call, output at the end with the file path, exit codes and sync — and says nothing about the network", () => {
    const text = createContainerModule().description!;
    for (const part of [
      "Linux container that shares this Workspace's files",
      "npm, node, python",
      "The first command may be slow while the container starts.",
      "`exec(command, { cwd?, env?, stdin?, timeoutMs? })`",
      "`{ exitCode, stdout, stderr, truncated?, sync }`",
      "Output arrives at the end",
      "Each stream keeps its end, at most the Workspace's line limit (2000 lines by default) and 64 KiB",
      "`truncated.stdout.path`",
      "usually outside the files this code can read with node:fs",
      "A non-zero exit code is returned in `exitCode`, not thrown.",
      '`"pending"`',
      "the command's change wins",
    ]) {
      expect(text).toContain(part);
    }
    expect(text).not.toMatch(/network|internet|fetch|curl/i);
    expect(createContainerModule({ maxOutputLines: 50, maxOutputBytes: 1000 }).description).toContain("Each stream keeps its end, at most 50 lines and 1000 bytes");
    // The JavaScript backend shows it to the model.
    const js = new WorkerJavaScriptBackend({ loader: env.LOADER, modules: { "ws:container": createContainerModule() } });
    expect(js.description).toContain(`- \`ws:container\`: ${text}`);
  });
});

describe("ws:container at connect", () => {
  it("fails the JavaScript backend's connect when the Workspace has no such backend", async () => {
    const out = await inContainerWorkspace(
      async (ws) => ws.runtime.exec(`export default 1;`, { encoding: "utf8" }).then(
        () => "connected",
        (e: Error) => e.message,
      ),
      { shellId: "worker-shell" },
    );
    expect(out).toBe('ws:container: this Workspace has no backend "container-shell" (it has "worker-javascript", "worker-shell").');
  });

  it("fails the connect when the named backend runs module source", async () => {
    const out = await inContainerWorkspace(
      async (ws) => ws.runtime.exec(`export default 1;`, { encoding: "utf8" }).then(
        () => "connected",
        (e: Error) => e.message,
      ),
      { module: { backend: "worker-javascript" } },
    );
    expect(out).toBe('ws:container: backend "worker-javascript" runs module source, not shell commands; createContainerModule needs a command backend.');
  });
});

describe("ws:container exec arguments and access", () => {
  it("parses its arguments strictly, each failure a TypeError with its message, before anything runs", async () => {
    const out = await inContainerWorkspace(async (ws) => {
      const r = await runJs(
        ws,
        attempts([
          ``,
          `"echo x > /workspace/ran1.txt", {}, 3`,
          `undefined`,
          `""`,
          `42`,
          `["ls"]`,
          `"echo x > /workspace/ran2.txt", "opts"`,
          `"echo x > /workspace/ran3.txt", [1]`,
          `"echo x > /workspace/ran4.txt", { cwd: "/workspace", shell: "bash" }`,
          `"echo x > /workspace/ran5.txt", { timeout: 5 }`,
          `"pwd", { cwd: 1 }`,
          `"pwd", { cwd: "" }`,
          `"pwd", { env: "A=1" }`,
          `"pwd", { env: { A: 1 } }`,
          `"pwd", { env: { A: "1", B: null } }`,
          `"pwd", { stdin: { bytes: [1] } }`,
          `"pwd", { stdin: 5 }`,
          `"pwd", { timeoutMs: 0 }`,
          `"pwd", { timeoutMs: -5 }`,
          `"pwd", { timeoutMs: "100" }`,
        ]),
      );
      return { value: valueOf(r), ran: await Promise.all([1, 2, 3, 4, 5].map((n) => exists(ws, `/workspace/ran${n}.txt`))) };
    });
    const e = "ws:container exec";
    expect(out.value).toEqual(
      [
        `${e} takes a command and an optional options object, got 0 arguments`,
        `${e} takes a command and an optional options object, got 3 arguments`,
        `${e}: command must be a non-empty string, got null`,
        `${e}: command must be a non-empty string, got an empty string`,
        `${e}: command must be a non-empty string, got number`,
        `${e}: command must be a non-empty string, got an array`,
        `${e}: options must be an object, got string`,
        `${e}: options must be an object, got an array`,
        `${e}: unknown option "shell" (options are cwd, env, stdin, timeoutMs)`,
        `${e}: unknown option "timeout" (options are cwd, env, stdin, timeoutMs)`,
        `${e}: cwd must be a non-empty string, got number`,
        `${e}: cwd must be a non-empty string, got an empty string`,
        `${e}: env must be an object of strings, got string`,
        `${e}: env.A must be a string, got number`,
        `${e}: env.B must be a string, got null`,
        `${e}: stdin must be a string, got object`,
        `${e}: stdin must be a string, got number`,
        `${e}: timeoutMs must be a positive number of milliseconds, got 0`,
        `${e}: timeoutMs must be a positive number of milliseconds, got -5`,
        `${e}: timeoutMs must be a positive number of milliseconds, got string`,
      ].map((message) => ({ error: [message, null] })),
    );
    expect(out.ran).toEqual([false, false, false, false, false]);
  });

  it('refuses on a read-only backend with "ws:container exec requires Workspace write access." and runs nothing', async () => {
    const out = await inContainerWorkspace(
      async (ws) => {
        const r = await runJs(ws, attempts([`"echo x > /workspace/ran.txt"`]));
        return { value: valueOf(r), ran: await exists(ws, "/workspace/ran.txt") };
      },
      { javascript: { access: "read" } },
    );
    expect(out.value).toEqual([{ error: ["ws:container exec requires Workspace write access.", "EROFS"] }]);
    expect(out.ran).toBe(false);
  });

  it("a read-write backend runs the same command", async () => {
    const out = await inContainerWorkspace(async (ws) => {
      const r = await runJs(ws, attempts([`"echo x > /workspace/ran.txt"`]));
      return { value: valueOf(r), ran: await ws.fs.readFile("/workspace/ran.txt", "utf8") };
    });
    expect(out.value).toEqual([{ ok: { exitCode: 0, stdout: "", stderr: "", sync: SYNC_COMPLETE } }]);
    expect(out.ran).toBe("x\n");
  });
});
