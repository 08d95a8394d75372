/**
 * Issue 20, thirteenth attack run: a big command or env on the container backend drops the daemon connection
 * and every live run on it (attack8's big-stdin defect, fixed for stdin only).
 *
 * Tried: on the container backend (real local computerd, TestBackend "box"), a live run waiting for a file,
 * then `runtime.exec` of (a) a 40,000,000-character command (`: xxxx…; echo ran`), (b) `echo ${#BIG}` with
 * env `{ BIG: <40,000,000 characters> }`. attack8 container-big-stdin made `exec` refuse a stdin over
 * MAX_REMOTE_STDIN_BYTES (20 MiB) before sending anything; the command text and env travel in the same
 * single `exec` message and are not checked.
 *
 * Found (low): both (a) and (b) send one message over the daemon connection's 32 MiB; the connection drops.
 * The big exec rejects with the misleading `the connection to backend "box" was lost while run "<uuid>" was
 * being started; the command may have started: check with getExec(...)` (it did not start; nothing names the
 * size), and the unrelated live run's `result()` rejects ECLOSED (`the connection to backend "box" was lost
 * while run "live" was running; …`): its exec tool call fails and its pull waits for a reattach.
 * Reproduction:
 *
 *   const live = await ws.runtime.exec(`echo one; <wait for .go>; echo two`, { backend: "box", id: "live" });
 *   await ws.runtime.exec(`: ${"x".repeat(40_000_000)}; echo ran`, { backend: "box" });   // rejects as above
 *   await live.result();                                                                  // rejects ECLOSED
 *
 * Suggested fix: measure the whole exec request (command + env + stdin) against one documented limit before
 * sending (RangeError E2BIG naming what is too big, as for stdin).
 *
 * Fixed: `runtime.exec` on a remote command backend measures the whole request as it travels (command, cwd,
 * id, env as JSON text; stdin as base64) against MAX_REMOTE_EXEC_BYTES (30 MiB) before pushing or sending
 * anything, and refuses a larger one with RangeError E2BIG naming each part's size. A request within it that the
 * container's kernel cannot start (an argument or env entry over 128 KiB) is refused by the daemon with E2BIG and
 * a message saying so; the run's id stays free.
 */
import { describe, expect, it } from "vitest";
import { MAX_REMOTE_EXEC_BYTES } from "../../../src/runtime/index.js";
import { inWorkspace, startContainer, waitFor } from "../container/helpers.js";

const refusal = (total: number, parts: string) =>
  `refused RangeError E2BIG: exec: the request is ${total} bytes of UTF-8 as sent (${parts}), over the ${MAX_REMOTE_EXEC_BYTES} bytes (30 MiB) backend "box" accepts; nothing was sent. Put long text in a Workspace file and have the command read it (sh /workspace/script.sh, cmd < /workspace/input) instead.`;

describe("attack13c: a 40 MB command on the container backend", () => {
  it("is refused before sending (naming its size) and a live run on the backend is not disturbed", { timeout: 120_000 }, async () => {
    expect(MAX_REMOTE_EXEC_BYTES).toBe(31_457_280);
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      const live = await ws.runtime.exec(`echo one; ${waitFor(".go")}; echo two`, { backend: "box", encoding: "utf8", timeoutMs: 60_000, id: "live" });
      const attempt = (source: string, env?: Record<string, string>) =>
        ws.runtime
          .exec(source, { backend: "box", encoding: "utf8", timeoutMs: 60_000, id: "big", ...(env ? { env } : {}) })
          .then((h) => h.result())
          .then(
            (r) => r.stdout,
            (e: Error & { code?: string }) => `refused ${e.name} ${e.code}: ${e.message}`,
          );
      // (a) a 40,000,000-character command: 40,000,014 as a JSON string; the id "big" is 5.
      expect(await attempt(`: ${"x".repeat(40_000_000)}; echo ran`)).toBe(refusal(40_000_019, "command 40000014, other fields 5"));
      // (b) a 40,000,000-character env value: "BIG" 5 + the value 40,000,002 + 2.
      expect(await attempt("echo ${#BIG}", { BIG: "y".repeat(40_000_000) })).toBe(refusal(40_000_028, "command 14, env 40000009, other fields 5"));
      // Within the limit but past what the kernel starts (an env entry over 128 KiB): the daemon refuses it E2BIG,
      // the connection and the id stay usable.
      expect(await attempt("echo ${#BIG}", { BIG: "y".repeat(1_000_000) })).toBe(
        "refused Error E2BIG: E2BIG: the command and its environment are too large for the kernel to start (each of the command and the env entries at most 128 KiB, all of them together about 2 MiB); nothing was started. Put long text in a file under the mount point and run or read it from there",
      );
      expect(await attempt("echo ${#BIG}", { BIG: "y".repeat(100_000) })).toBe("100000\n");
      await c.put(".go", "");
      const r = await live.result().then(
        (r) => ({ exitCode: r.exitCode, stdout: r.stdout }),
        (e: Error) => ({ rejected: e.message }),
      );
      expect(r).toEqual({ exitCode: 0, stdout: "one\ntwo\n" });
    });
  });
});
