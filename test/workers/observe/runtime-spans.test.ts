/**
 * Spec 04 §4 in real workerd: `workspace.connect`, `workspace.runtime.exec.spawn`
 * and the sync spans (`workspace.sync.push`/`.pull` around a command,
 * `workspace.sync.push.block`/`.pull.block` for `workspace.push()`/`pull()`)
 * — on a real `computerd` (TestBackend, remote sync), the worker-shell
 * backend (a command backend without sync) and the JavaScript backend (a
 * module backend: connect only) — and error sanitising on connect and spawn
 * failures: a secret in the message never reaches the span.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { WorkerShellBackend } from "../../../src/backends/worker-shell/index.js";
import type { WorkspaceCommandBackend } from "../../../src/index.js";
import { drain, inWorkspace, startContainer } from "../container/helpers.js";
import { inObservedWorkspace, named, recordingObserver, rejection } from "./helpers.js";

/**
 * A custom command backend (spec 02 §8) whose connect or spawn fails with a
 * message carrying credentials, as a misbehaving gateway's error might.
 */
function failingBackend(failAt: "connect" | "spawn"): WorkspaceCommandBackend {
  const secretMessage = "gateway refused: Authorization: Bearer sk-live-XYZ123\nretry with api_key=AKIA-SECRET-9 or token=tok_777";
  return {
    id: "flaky",
    type: "gateway",
    async connect() {
      if (failAt === "connect") throw new Error(secretMessage);
      return {
        sync: "none",
        rpc: {
          shell: {
            exec: async () => {
              throw new TypeError(secretMessage);
            },
            getExec: async () => Promise.reject(new Error("unused")),
            killExec: async () => {},
            disposeExec: async () => {},
          },
        },
        close: async () => {},
      };
    },
  };
}

const SANITISED = "gateway refused: Authorization: Bearer [REDACTED] retry with api_key=[REDACTED] or token=[REDACTED]";

describe("runtime spans", () => {
  it("a command on a remote-sync backend: connect, sync.push, spawn, sync.pull with their result attributes", async () => {
    const c = await startContainer();
    const { observer, spans } = recordingObserver();
    await inWorkspace(
      c,
      async (ws) => {
        await ws.fs.writeFile("/workspace/in.txt", "one\n");
        const run = await ws.runtime.exec("cat in.txt > out.txt && echo done", { backend: "box", cwd: "/workspace", timeoutMs: 60_000, id: "run-1", encoding: "utf8" });
        const result = await run.result();
        expect([result.exitCode, result.stdout, result.pushed, result.pulled]).toEqual([0, "done\n", 1, 1]);
      },
      { observer },
    );
    expect(named(spans)).toEqual([
      ["workspace.connect", { "workspace.backend.id": "box", "workspace.backend.type": "test" }],
      ["workspace.sync.push", { "workspace.sync.backend": "box", "workspace.sync.pushed": 1, "workspace.sync.skipped": 0 }],
      [
        "workspace.runtime.exec.spawn",
        { "workspace.runtime.cwd": "/workspace", "workspace.runtime.timeout_ms": 60_000, "workspace.runtime.id": "run-1" },
      ],
      ["workspace.sync.pull", { "workspace.sync.backend": "box", "workspace.sync.applied": 1, "workspace.sync.skipped": 0 }],
    ]);
    expect(spans.every((s) => s.outcome === "ok")).toBe(true);
  });

  it("spawn's result attribute is the run's actual id when none was asked for", async () => {
    const c = await startContainer();
    const { observer, spans } = recordingObserver();
    let id = "";
    await inWorkspace(
      c,
      async (ws) => {
        const run = await ws.runtime.exec("true", { backend: "box" });
        id = run.id;
        await run.result();
      },
      { observer },
    );
    const spawn = spans.find((s) => s.name === "workspace.runtime.exec.spawn")!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(spawn.attributes).toEqual({ "workspace.runtime.id": id });
  });

  it("workspace.push() and pull(): one .block span per block with workspace.sync.entries", async () => {
    const c = await startContainer();
    const { observer, spans } = recordingObserver();
    await inWorkspace(
      c,
      async (ws) => {
        await (await ws.runtime.exec("true", { backend: "box" })).result();
        spans.length = 0;
        await ws.fs.writeFile("/workspace/a.txt", "a");
        await ws.fs.writeFile("/workspace/b.txt", "b");
        const pushed = await drain(ws.push());
        expect(pushed.map((p) => [p.complete, p.entries])).toEqual([[true, 2]]);
        await c.put("made.txt", "by the container");
        const pulled = await drain(ws.pull("box"));
        expect(pulled.map((p) => [p.complete, p.entries])).toEqual([[true, 1]]);
        expect(await ws.fs.readFile("/workspace/made.txt", "utf8")).toBe("by the container");
      },
      { observer },
    );
    expect(named(spans)).toEqual([
      ["workspace.sync.push.block", { "workspace.sync.backend": "box", "workspace.sync.entries": 2 }],
      ["workspace.sync.pull.block", { "workspace.sync.backend": "box", "workspace.sync.entries": 1 }],
    ]);
  });

  it("a command backend without sync (worker-shell): connect and spawn only; a module backend (JavaScript): connect only", async () => {
    const { observer, spans } = recordingObserver();
    await inObservedWorkspace(
      observer,
      async (ws) => {
        await ws.fs.mkdir("/workspace", { recursive: true });
        const shell = await (await ws.runtime.exec("echo hi", { backend: "sh", encoding: "utf8", cwd: "/workspace", timeoutMs: 30_000 })).result();
        expect(shell.stdout).toBe("hi\n");
        const js = await (await ws.runtime.exec("export default () => 42;", { backend: "js" })).result();
        expect(js.value).toBe(42);
      },
      { backends: [new WorkerShellBackend({ loader: env.LOADER, id: "sh" }), new WorkerJavaScriptBackend({ loader: env.LOADER, id: "js" })] },
    );
    const spawnId = spans.find((s) => s.name === "workspace.runtime.exec.spawn")?.attributes["workspace.runtime.id"];
    expect(named(spans)).toEqual([
      ["workspace.connect", { "workspace.backend.id": "sh", "workspace.backend.type": "worker-shell" }],
      ["workspace.runtime.exec.spawn", { "workspace.runtime.cwd": "/workspace", "workspace.runtime.timeout_ms": 30_000, "workspace.runtime.id": spawnId }],
      ["workspace.connect", { "workspace.backend.id": "js", "workspace.backend.type": "worker-javascript" }],
    ]);
    expect(typeof spawnId).toBe("string");
  });

  it("connect and spawn failures: error.name and a sanitised error.message; no secret reaches any span", async () => {
    const { observer, spans } = recordingObserver();
    await inObservedWorkspace(observer, async (ws) => {
      const error = await rejection(ws.runtime.exec("true", { backend: "flaky" }));
      expect(error.message).toContain("sk-live-XYZ123");
    }, { backends: [failingBackend("connect")] });
    await inObservedWorkspace(observer, async (ws) => {
      const error = await rejection(ws.runtime.exec("true", { backend: "flaky", id: "r" }));
      expect(error).toBeInstanceOf(TypeError);
    }, { backends: [failingBackend("spawn")] });
    expect(spans).toEqual([
      {
        name: "workspace.connect",
        attributes: { "workspace.backend.id": "flaky", "workspace.backend.type": "gateway", "error.name": "Error", "error.message": SANITISED },
        outcome: "error",
        parent: -1,
      },
      { name: "workspace.connect", attributes: { "workspace.backend.id": "flaky", "workspace.backend.type": "gateway" }, outcome: "ok", parent: -1 },
      {
        name: "workspace.runtime.exec.spawn",
        attributes: { "workspace.runtime.id": "r", "error.name": "TypeError", "error.message": SANITISED },
        outcome: "error",
        parent: -1,
      },
    ]);
    const recorded = JSON.stringify(spans);
    for (const secret of ["sk-live-XYZ123", "AKIA-SECRET-9", "tok_777"]) expect(recorded).not.toContain(secret);
  });
});
