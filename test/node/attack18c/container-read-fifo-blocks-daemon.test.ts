/**
 * Issue 20, eighteenth attack run: the daemon's `read` opens the path without O_NONBLOCK, so a file the scan listed
 * that a process in the container replaced by a FIFO before the pull read it blocks the daemon's `open()` for ever
 * (until something opens the FIFO for writing) — the pull fails after REMOTE_SYNC_CALL_TIMEOUT_MS, and a thread of the
 * daemon's libuv pool stays blocked.
 *
 * Tried: the real daemon (`Computerd` in process, attack18c/real-daemon.ts) under `daemonHandle`; a command makes
 * file `f`; the pull after it walks (`f`, a file of 2 bytes) and reads it — the daemon's `read` wrapped so that, just
 * before the real call, `f` is replaced by a FIFO (what a background process the command left, `(rm f; mkfifo f) &`,
 * does between the scan and the read: the race made deterministic). (Held: the host's call is bounded: the pull fails
 * `ETIMEDOUT … did not answer read within 10000 ms (REMOTE_SYNC_CALL_TIMEOUT_MS)`, the run keeps exit 0 with
 * `sync.status: "pending"`, and the lock is released; a FIFO the scan sees is skipped as "special file".)
 *
 * Found (medium-low; 2 of 2 runs): container/lib/sync.mjs `read` does `fs.open(host, O_RDONLY | O_NOFOLLOW)` and
 * checks the kind only after (`fh.stat()`: EISDIR for a directory): on a FIFO the open never returns — the daemon's
 * `read` had not answered 10 s later, and returns only when the test opens the FIFO's write end. Each such read holds
 * one of libuv's threads (4 by default) for as long: a command that leaves a few of these makes every later file
 * call of the daemon (scan, read, apply) queue behind them — every push and pull then fails ETIMEDOUT until the
 * container restarts.
 *
 * Suggested fix: open with O_NONBLOCK as well (a FIFO then opens at once), `fstat` the handle and refuse anything but a
 * regular file (`EINVAL`/"special file", an entry error: the pull skips it), then read as now.
 *
 * Fixed: container/lib/sync.mjs `read` opens `O_RDONLY | O_NOFOLLOW | O_NONBLOCK`, and refuses a handle that is not a
 * regular file (and a socket/device open's ENXIO/ENODEV) as `EINVAL` "not a regular file (fifo, socket or device)": the
 * pull skips the entry with that reason, at once.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { realDaemonWorkspace, workspaceOver, wrapDaemon } from "./real-daemon.js";

describe("attack18c: a listed file that became a FIFO before the pull read it", () => {
  it("the daemon answers the read at once (an entry error the pull skips), not never", { timeout: 40_000 }, async () => {
    const real = await realDaemonWorkspace();
    await real.ws.close(); // only its daemon and directory are used
    const fifo = path.join(real.dir, "f");
    let readAnswered: string | undefined;
    const daemon = wrapDaemon(real.daemon, {
      read: async (input: { path: string }) => {
        if (input.path === "f" && !fs.statSync(fifo).isFIFO()) {
          fs.rmSync(fifo);
          (await import("node:child_process")).execFileSync("mkfifo", [fifo]);
        }
        return real.daemon.read(input as Parameters<typeof real.daemon.read>[0]).then(
          (answer) => ((readAnswered = "answered"), answer),
          (error: { code?: string }) => ((readAnswered = `refused ${error.code}`), Promise.reject(error)),
        );
      },
    });
    const ws = await workspaceOver(daemon);
    try {
      const result = await (await ws.runtime.exec("printf hi > f", { backend: "box" })).result();
      // Found: { answered: false, status: "pending" } (sync.error "ETIMEDOUT: the container's daemon did not answer read within 10000 ms …").
      expect({ answered: readAnswered !== undefined, status: result.sync.status }).toEqual({ answered: true, status: "complete" });
      // Fixed: refused at once as EINVAL, skipped by the pull with that reason; nothing written to the Workspace.
      expect(readAnswered).toBe("refused EINVAL");
      expect(result.sync).toEqual({ status: "complete", applied: 0, skipped: [{ path: "/workspace/f", op: "write", reason: 'EINVAL: not a regular file (fifo, socket or device): "f"' }] });
      expect(await ws.fs.stat("/workspace/f").then(() => "present", (error: { code?: string }) => error.code)).toBe("ENOENT");
    } finally {
      // Release the daemon's blocked open(): a writer opening the FIFO lets it return.
      try {
        if (fs.statSync(fifo).isFIFO()) fs.closeSync(fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
      } catch {
        // no reader left
      }
      await ws.close();
      await real.close();
    }
  });
});
