/**
 * Issue 20, run 34, fixer CS — siblings of test/workers/attack34a/container-slow-reader-finished-run-ended-137.test.ts:
 * a reader of a container run's stream that lags behind the run's output past the host's stop deadline
 * (src/backends/daemon/handle.ts, `REMOTE_STOP_GRACE_MS`) gets the run's own end when the daemon has ended the run,
 * and the host's end (exit 137, its note) only when the daemon has not.
 *
 * Over the real daemon's RPC object in this process (container/lib/api.mjs, `realDaemonWorkspace`), the reader takes
 * one event each 600 ms. The daemon keeps output in events of at most 64 KiB (container/lib/runs.mjs
 * `MAX_EVENT_BYTES`) and answers at most 1 MiB per `events` call, so the stream asks the daemon again only after
 * 16 events (~9.6 s): its second call is past the deadline (`timeoutMs` 1000 + 7000 ms, or a `killExec` + 7000 ms)
 * and starts the host's 7 s wall-clock bound, its third (~19.2 s) is past that bound. Before the fix the third call
 * ended every such run with exit 137 after ~2 MiB of its output; the command's output here is more than 2 MiB
 * (`seq 1 400000`: 2,688,895 bytes: 2.56 MiB), so three calls are needed.
 *
 * Expected outputs are the real tools' (bash 5.2.15 running GNU `seq` on this machine), not the code under test's.
 * Cases (run concurrently, each its own daemon): exit 0; exit 3 with stderr; a `killExec` sent after the daemon
 * recorded the exit (it answers `killed: false`) while the reader lags; and the bound kept — a daemon that does not
 * end the run (its timeout and kills dropped by a wrapper, a command that never exits) is still ended by the host,
 * exit 137 with the host's note, its output cut (a prefix of what the command wrote).
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import type { DaemonApi } from "../../../src/backends/daemon/handle.js";
import { realDaemonWorkspace, workspaceOver, wrapDaemon } from "../attack18c/real-daemon.js";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const bash = (command: string) => execFileSync("bash", ["-c", command], { maxBuffer: 64 << 20 });

interface Read {
  code: number | undefined;
  stdout: Buffer;
  stderr: string;
  events: number;
}

/** Reads the run's stream, `ms` per event (the caller's work on each); `onFirst` after the first event. */
async function slowRead(stream: ReadableStream<unknown>, ms: number, onFirst?: () => Promise<void>): Promise<Read> {
  const reader = stream.getReader();
  const out: Uint8Array[] = [];
  let stderr = "";
  let code: number | undefined;
  let events = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const event = value as { name: string; value?: Uint8Array; code?: number };
    if (event.name === "stdout") out.push(event.value!);
    if (event.name === "stderr") stderr += new TextDecoder().decode(event.value);
    if (event.name === "exit") code = event.code;
    if (++events === 1 && onFirst !== undefined) await onFirst();
    await sleep(ms);
  }
  return { code, stdout: Buffer.concat(out), stderr, events };
}

/** Waits until the real daemon has recorded run `id`'s exit (a look past every seq answers `done: true`). */
async function exited(daemon: DaemonApi, id: string): Promise<void> {
  while (!(await daemon.events({ id, after: Number.MAX_SAFE_INTEGER, waitMs: 0, ack: false })).done) await sleep(20);
}

describe("fix34 CS: a container run read slowly past the host's stop deadline", () => {
  it.concurrent("a run that exited 0 at once: exit 0 and every byte, no host note", { timeout: 90_000 }, async () => {
    const d = await realDaemonWorkspace();
    try {
      const h = await d.ws.runtime.exec("seq 1 400000", { backend: "box", timeoutMs: 1000, id: "ok" });
      const got = await slowRead(h, 600);
      expect(got.stderr).toBe("");
      expect(got.code).toBe(0);
      expect(got.stdout.equals(bash("seq 1 400000"))).toBe(true);
      expect(got.stdout.byteLength).toBe(2_688_895); // `seq 1 400000 | wc -c`
      expect(got.events).toBeGreaterThan(33); // three `events` calls of 16 events: past the 7 s bound
    } finally {
      await d.close();
    }
  });

  it.concurrent("a run that exited 3 with stderr: exit 3, its stderr, every byte of stdout", { timeout: 90_000 }, async () => {
    const d = await realDaemonWorkspace();
    try {
      const command = "seq 1 400000; echo oops >&2; exit 3";
      const h = await d.ws.runtime.exec(command, { backend: "box", timeoutMs: 1000, id: "three" });
      const got = await slowRead(h, 600);
      let code = 0;
      let stderr = "";
      try {
        bash(`${command} 2>/dev/null`);
      } catch (error) {
        code = (error as { status: number }).status;
      }
      try {
        bash(`(${command}) 2>&1 >/dev/null`);
      } catch (error) {
        stderr = String((error as { stdout: Buffer }).stdout);
      }
      expect({ code: got.code, stderr: got.stderr }).toEqual({ code, stderr });
      expect(code).toBe(3);
      expect(got.stdout.equals(bash("seq 1 400000"))).toBe(true);
    } finally {
      await d.close();
    }
  });

  it.concurrent("a killExec after the run exited, while the reader lags: the run's exit 0 and every byte", { timeout: 90_000 }, async () => {
    const d = await realDaemonWorkspace();
    try {
      // No timeoutMs: the only host deadline is the one the killExec sets (now + 7000 ms).
      const h = await d.ws.runtime.exec("seq 1 400000", { backend: "box", id: "killed-late" });
      const kills: unknown[] = [];
      const got = await slowRead(h, 600, async () => {
        await exited(d.daemon, "killed-late");
        kills.push(await d.daemon.kill({ id: "killed-late" })); // what the daemon answers for a finished run
        await d.ws.runtime.killExec("killed-late", { backend: "box" });
      });
      expect(kills).toEqual([{ killed: false }]);
      expect(got.stderr).toBe("");
      expect(got.code).toBe(0);
      expect(got.stdout.equals(bash("seq 1 400000"))).toBe(true);
      // The run's result (a replay on this connection) agrees.
      const replay = await (await d.ws.runtime.getExec("killed-late", { backend: "box", encoding: "utf8" })).result();
      expect({ exitCode: replay.exitCode, status: replay.status, stderr: replay.stderr }).toEqual({ exitCode: 0, status: "completed", stderr: "" });
    } finally {
      await d.close();
    }
  });

  it.concurrent("still bounded: a daemon that does not end the run is cut by the host, exit 137 with its note", { timeout: 90_000 }, async () => {
    const d = await realDaemonWorkspace();
    // The daemon never ends this run: its timeout is dropped on the way in, and kills are not passed on.
    const kills: unknown[] = [];
    const daemon = wrapDaemon(d.daemon, {
      exec: ((input: Parameters<DaemonApi["exec"]>[0]) => d.daemon.exec({ ...input, timeoutMs: 0 })) as never,
      kill: (async (input: unknown) => (kills.push(input), { killed: true })) as never,
    });
    const ws = await workspaceOver(daemon);
    try {
      const command = "seq 1 400000; exec sleep 300";
      const h = await ws.runtime.exec(command, { backend: "box", timeoutMs: 1000, id: "stuck" });
      const got = await slowRead(h, 600);
      expect(got.code).toBe(137);
      expect(got.stderr).toBe(
        '[run "stuck": the container did not end it within 7000 ms of its timeout (1000 ms); the host ended it (exit 137), asked the container to SIGKILL it, and ignores its later output]\n',
      );
      const all = bash("seq 1 400000");
      expect(got.stdout.byteLength).toBeLessThan(all.byteLength);
      expect(got.stdout.equals(all.subarray(0, got.stdout.byteLength))).toBe(true);
      expect(kills).toEqual([{ id: "stuck", signal: "SIGKILL" }]);
    } finally {
      await Promise.resolve()
        .then(() => d.daemon.kill({ id: "stuck", signal: "SIGKILL" }))
        .catch(() => {});
      await ws.close().catch(() => {});
      await d.close();
    }
  });
});
