/**
 * Fixed in run 40 by fixer f40ct: daemonShell exec sends `Math.ceil(timeoutMs)`; NaN, Infinity, a negative number rejects
 *   EINVAL on the host (sibling: test/node/fix40/container-link-target-and-fractional-timeout.test.ts).
 * Issue 20, run 40, attacker f: a fractional `timeoutMs` — accepted as "a positive number of milliseconds" by
 * `runToolDirectory` (src/tool-dirs/run.ts), by the tool-set option `toolDirectories: { timeoutMs }`
 * (src/tools/core/directory.ts) and by the shell backend (`exec: timeoutMs must be a non-negative number of
 * milliseconds`, src/backends/worker-shell/backend.ts) — is refused by the container's daemon, so every python tool
 * (which only a container runs) fails, and `runtime.exec` on a container backend rejects.
 * Reproduction: `runToolDirectory(py_hello, { workspace, backend: "box", params: { name: "Grace" }, timeoutMs: 30_000.5 })`
 * and `workspace.runtime.exec("echo hi", { backend: "box", timeoutMs: 1500.5 })` against a daemon of the local host.
 * Today (2 of 2 runs): the tool result is `{ isError: true, text: 'Tool "py_hello" failed: timeoutMs must be a
 * non-negative integer, got 30000.5' }` (the same tool with 30000 says `hello from python, Grace`); the exec rejects
 * EINVAL `timeoutMs must be a non-negative integer, got 1500.5` — a value the runner itself validated and passed on.
 * (With `NaN` the daemon's message even says `got null`: the number is lost in JSON on the way.)
 * Expected: the value the runner and the runtime accept runs on every backend, as on the shell and JavaScript
 * backends (the shell backend checks only `Number.isFinite(timeoutMs) && timeoutMs >= 0`): the command runs, with
 * the timeout rounded to whole ms on the way to the daemon (node 22: `setTimeout(f, 1500.5)` fires; `spawn(…,
 * { timeout: 1500.5 })` throws ERR_OUT_OF_RANGE "must be an unsigned integer" — so the host has to round it).
 * Cause: src/backends/daemon/handle.ts (exec: `request.timeoutMs = input.timeoutMs` sent as is) against
 * container/lib/api.mjs exec (`nonNegInt(a.timeoutMs, "timeoutMs")`); the host could send `Math.ceil(timeoutMs)`.
 */
import { expect, it } from "vitest";
import { runToolDirectory } from "../../../src/tool-dirs/run.js";
import { inWorkspace, startContainer } from "../container/helpers.js";
import { FIXTURE_TOOLS } from "../tool-dirs/helpers.js";

it("attack40f: a fractional timeoutMs runs a python tool and a container command", async () => {
  const c = await startContainer();
  try {
    await inWorkspace(c, async (ws) => {
      await ws.fs.mkdir("/workspace/tools/py_hello", { recursive: true });
      await ws.fs.writeFile("/workspace/tools/py_hello/index.py", `import os\nprint(f"hello from python, {os.environ.get('INPUT_NAME', 'world')}")\n`);
      // Was: { content: [{ type: "text", text: 'Tool "py_hello" failed: timeoutMs must be a non-negative integer, got 30000.5' }], isError: true }.
      expect(await runToolDirectory(FIXTURE_TOOLS.py_hello, { workspace: ws, backend: "box", params: { name: "Grace" }, timeoutMs: 30_000.5 })).toEqual({
        content: [{ type: "text", text: "hello from python, Grace\n" }],
      });
      // Was: rejects EINVAL "timeoutMs must be a non-negative integer, got 1500.5".
      const r = await (await ws.runtime.exec("echo hi", { backend: "box", encoding: "utf8", timeoutMs: 1500.5 })).result();
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe("hi\n");
    });
  } finally {
    await c.stop();
  }
});
