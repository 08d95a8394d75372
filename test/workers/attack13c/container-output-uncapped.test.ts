/**
 * Issue 20, thirteenth attack run: a container command's output is saved to the Workspace without any cap.
 *
 * Tried: one command on the container backend (a real local computerd daemon, TestBackend "box", as
 * test/workers/container) that writes 100,000,000 bytes to stdout (`head -c 100000000 /dev/zero`), then
 * read its result and the saved output file. The JavaScript backend stops saving a stream at
 * `maxStdioBytes` (64 MiB, with a `[stdout truncated: …]` marker line, docs/runtime.md "Long output"); the
 * shell backend caps output at 1 MiB (spec 02 §6); the daemon itself keeps only 8 MiB of a run's log.
 *
 * Found (medium): the container run's whole stdout is streamed into
 * `/.computer/output/box.big.stdout.log` in the Durable Object's storage — 100,000,001 bytes in ~3.6 s
 * locally (~28 MB/s). Nothing bounds it but the command's timeout (320 s by default: ~9 GB at that rate),
 * and `output.keep` keeps 50 such files. A model's `cat /dev/urandom`, `yes`, `tail -f` or a chatty build
 * fills the object's storage (10 GB per object; billed), after which every Workspace write fails.
 * Reproduction:
 *
 *   await (await ws.runtime.exec("head -c 100000000 /dev/zero", { backend: "box" })).result();
 *   // truncated.stdout: { status: "saved", totalBytes: 100000001, … }; ws.fs.stat(path).size 100000001
 *
 * Suggested fix: cap what a remote command backend's run saves per stream (as the JavaScript backend's
 * maxStdioBytes, 64 MiB by default, same marker line; the rest drained and counted, not stored), and
 * document it in docs/container.md "Limits".
 *
 * Fixed: each output stream of a run on a remote command backend is cut at MAX_REMOTE_OUTPUT_BYTES (64 MiB,
 * src/backends/daemon/handle.ts) with the JavaScript backend's marker line (its StdioBudget); the rest is
 * read from the daemon and counted, not kept or saved.
 */
import { describe, expect, it } from "vitest";
import { MAX_REMOTE_OUTPUT_BYTES } from "../../../src/backends/daemon/handle.js";
import { inWorkspace, startContainer } from "../container/helpers.js";

const MAX = 64 * 1024 * 1024;
const MARKER = `\n[stdout truncated: MAX_REMOTE_OUTPUT_BYTES (${MAX} bytes) reached; ${100_000_000 - MAX} bytes dropped]\n`;

describe("attack13c: container command output saved to the Workspace", () => {
  it("a 100,000,000-byte stdout is saved up to a per-stream cap, not whole", { timeout: 120_000 }, async () => {
    expect(MAX_REMOTE_OUTPUT_BYTES).toBe(MAX);
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      const handle = await ws.runtime.exec("head -c 100000000 /dev/zero; echo done >&2", { backend: "box", encoding: "utf8", timeoutMs: 100_000, id: "big" });
      const r = await handle.result();
      expect(r).toMatchObject({ exitCode: 0, stderr: "done\n" });
      expect(r.truncated?.stderr).toBeUndefined();
      const total = MAX + MARKER.length;
      expect(r.truncated?.stdout).toMatchObject({ status: "saved", path: "/.computer/output/box.big.stdout.log", totalBytes: total });
      expect(r.stdout).toBe(MARKER.slice(1)); // the kept tail: the last line
      const saved = new Uint8Array(await new Response(await ws.fs.readFile("/.computer/output/box.big.stdout.log")).arrayBuffer());
      expect(saved.byteLength).toBe(total);
      expect(saved.subarray(0, MAX).every((b) => b === 0)).toBe(true);
      expect(new TextDecoder().decode(saved.subarray(MAX))).toBe(MARKER);
    });
  });

  it("a stream within the cap is kept whole, with no marker", { timeout: 120_000 }, async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      const r = await (await ws.runtime.exec("head -c 3000000 /dev/zero | tr '\\0' a", { backend: "box", encoding: "utf8", timeoutMs: 100_000, id: "mid" })).result();
      expect(r.exitCode).toBe(0);
      expect(r.truncated?.stdout).toMatchObject({ status: "saved", totalBytes: 3_000_000 });
      expect((await ws.fs.stat("/.computer/output/box.mid.stdout.log")).size).toBe(3_000_000);
    });
  });
});
