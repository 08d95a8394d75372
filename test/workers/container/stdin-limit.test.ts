/**
 * `stdin` on a remote command backend (a container) is bounded:
 * `MAX_REMOTE_STDIN_BYTES` (20 MiB) arrives whole; one byte more is refused
 * before anything is sent (RangeError `E2BIG` naming stdin), and a live run
 * on the same backend keeps its stream (attack8 container-big-stdin).
 * Real local daemon, TestBackend "box".
 */
import { describe, expect, it } from "vitest";
import { MAX_REMOTE_STDIN_BYTES } from "../../../src/runtime/index.js";
import { inWorkspace, startContainer, waitFor } from "./helpers.js";

describe("container backend: the stdin limit", () => {
  it("20 MiB of stdin arrives whole; one byte more is refused E2BIG before sending, and a live run is not disturbed", async () => {
    expect(MAX_REMOTE_STDIN_BYTES).toBe(20971520);
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      const live = await ws.runtime.exec(`echo one; ${waitFor(".go")}; echo two`, { backend: "box", encoding: "utf8", timeoutMs: 60_000, id: "live" });
      const refused = await ws.runtime.exec("wc -c > /workspace/ran.txt", { backend: "box", stdin: new Uint8Array(MAX_REMOTE_STDIN_BYTES + 1) }).then(
        () => "started",
        (e: Error & { code?: string }) => ({ name: e.name, code: e.code, message: e.message }),
      );
      expect(refused).toEqual({
        name: "RangeError",
        code: "E2BIG",
        message:
          'exec: stdin is 20971521 bytes, over the 20971520 bytes (20 MiB) backend "box" accepts; nothing was sent. Write the input to a Workspace file and redirect it (cmd < file) instead.',
      });
      const whole = await (await ws.runtime.exec("wc -c", { backend: "box", encoding: "utf8", timeoutMs: 60_000, stdin: new Uint8Array(MAX_REMOTE_STDIN_BYTES) })).result();
      expect(whole).toMatchObject({ exitCode: 0, stdout: "20971520\n" });
      expect(await c.text("ran.txt")).toBeNull();
      await c.put(".go", "");
      expect(await live.result()).toMatchObject({ exitCode: 0, stdout: "one\ntwo\n" });
    });
  });
});
