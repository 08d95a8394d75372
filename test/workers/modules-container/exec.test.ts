/**
 * `ws:container` from a JavaScript run in real workerd (spec 02 §4.3): isolate
 * code does `import { exec } from "ws:container"`, the host module runs the
 * command on a real command backend (`WorkerShellBackend`, registered under
 * the id the module names) through `workspace.runtime.exec`, and the
 * isolate gets `{ exitCode, stdout, stderr, truncated?, sync }`.
 */
import { describe, expect, it } from "vitest";
import { SYNC_COMPLETE, attempts, inContainerWorkspace, runJs, valueOf } from "./helpers.js";

describe("ws:container exec", () => {
  it("runs the command on the named backend and returns its output; a non-zero exit is returned, not thrown", async () => {
    const out = await inContainerWorkspace(async (ws) => {
      const r = await runJs(ws, attempts([`"echo hello; echo oops >&2"`, `"echo before; echo err >&2; exit 3"`, `"nosuchcmd"`]));
      return valueOf(r);
    });
    expect(out).toEqual([
      { ok: { exitCode: 0, stdout: "hello\n", stderr: "oops\n", sync: SYNC_COMPLETE } },
      { ok: { exitCode: 3, stdout: "before\n", stderr: "err\n", sync: SYNC_COMPLETE } },
      { ok: { exitCode: 127, stdout: "", stderr: "bash: nosuchcmd: command not found\n", sync: SYNC_COMPLETE } },
    ]);
  });

  it("passes stdin, env and cwd through; the command's file changes are in the Workspace at once", async () => {
    const out = await inContainerWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace/app/sub", { recursive: true });
      const r = await runJs(
        ws,
        attempts([
          `"cat; echo \\"$GREETING $WHO\\"; pwd; echo made > made.txt", { stdin: "from stdin\\n", env: { GREETING: "hi", WHO: "there" }, cwd: "/workspace/app/sub" }`,
          `"pwd", { cwd: null, env: null, stdin: null, timeoutMs: null }`,
          `"cat", {}`,
        ]),
      );
      return { value: valueOf(r), made: await ws.fs.readFile("/workspace/app/sub/made.txt", "utf8") };
    });
    expect(out.value).toEqual([
      { ok: { exitCode: 0, stdout: "from stdin\nhi there\n/workspace/app/sub\n", stderr: "", sync: SYNC_COMPLETE } },
      { ok: { exitCode: 0, stdout: "/workspace\n", stderr: "", sync: SYNC_COMPLETE } },
      { ok: { exitCode: 0, stdout: "", stderr: "", sync: SYNC_COMPLETE } },
    ]);
    expect(out.made).toBe("made\n");
  });

  it("a backend id other than the default (backend: \"shell\"), and a prelude run before every command; a blank prelude is ignored", async () => {
    const out = await inContainerWorkspace(
      async (ws) => {
        await ws.fs.mkdir("/workspace/app", { recursive: true });
        return valueOf(await runJs(ws, attempts([`"pwd; echo $MODE"`, `"pwd", { cwd: "/workspace" }`])));
      },
      { shellId: "shell", module: { backend: "shell", prelude: "cd /workspace/app\nMODE=prelude" } },
    );
    expect(out).toEqual([
      { ok: { exitCode: 0, stdout: "/workspace/app\nprelude\n", stderr: "", sync: SYNC_COMPLETE } },
      { ok: { exitCode: 0, stdout: "/workspace/app\n", stderr: "", sync: SYNC_COMPLETE } },
    ]);
    const blank = await inContainerWorkspace(async (ws) => valueOf(await runJs(ws, attempts([`"pwd"`]))), { module: { prelude: "  \n " } });
    expect(blank).toEqual([{ ok: { exitCode: 0, stdout: "/workspace\n", stderr: "", sync: SYNC_COMPLETE } }]);
  });

  it("the runtime's refusals reject the call with their message and code (a missing cwd)", async () => {
    const out = await inContainerWorkspace(async (ws) => valueOf(await runJs(ws, attempts([`"pwd", { cwd: "/workspace/nope" }`]))));
    expect(out).toEqual([{ error: ["ENOENT: cwd does not exist, exec: /workspace/nope", "ENOENT"] }]);
  });
});
