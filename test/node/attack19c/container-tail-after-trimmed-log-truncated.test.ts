/**
 * Issue 20, nineteenth attack run: `getExec(id, { resume: "tail" })` — "only events after this call" (spec 02
 * §1.6) — finds the end of a container run's log with daemon/handle.ts `lastSeq`, which walks `events` from
 * `after: 0` (now with `ack: false`, b7b429b). The daemon keeps only the last COMPUTERD_LOG_MAX_BYTES (8 MiB by
 * default) of a run's output once a reader has read it, and answers a call from before its oldest kept event
 * `ELOG_TRUNCATED` — so the walk's very first call fails for every run that has produced more than that.
 *
 * Tried: the real daemon (`Computerd` in process, attack18c/real-daemon.ts; COMPUTERD_LOG_MAX_BYTES 65536, its
 * smallest setting, so 400,000 bytes stand for any run past 8 MiB at the default) under `daemonHandle`. (1) A
 * finished run `head -c 400000 /dev/zero` read to its end by its own handle, then a tail reattach; (2) a live run
 * `head -c 400000 /dev/zero; sleep 20` whose handle has read its 400,000 bytes, then a tail reattach (a second
 * client watching the end), `killExec` and the tail read to its end. (Held: the same reattaches on a run under
 * 64 KiB give [exit 0] / the kill's exit; a tail beside an unread first reader no longer drops its output — attack18c.)
 *
 * Found (medium-low; 2 of 2 runs): both reattaches reject `ELOG_TRUNCATED run "big": events after 0 are no longer
 * kept (oldest kept seq is 8)` (`… "live" … is 7`): a tail reattach — the one resume that wants none of the old
 * output — is refused for exactly the long runs one would watch that way, and the caller cannot ask for anything
 * better (`resume: n` needs the seq it does not know; `translate` also drops the daemon's `firstSeq`, a known lead).
 *
 * Suggested fix: in `lastSeq`, on `ELOG_TRUNCATED` carrying `firstSeq` (kept through `translate`) start the walk at
 * `firstSeq - 1`; or walk from a recent point (the watch's last seen seq) — or give the daemon a `tail({ id })` call
 * answering its last seq at once.
 *
 * Fixed: daemon/handle.ts `translate` keeps the daemon's oldest kept seq as `firstSeq` on the ELOG_TRUNCATED it
 * rethrows (from the error's property, else from its message "oldest kept seq is N" — a transport may keep only
 * the message), and `lastSeq` restarts its walk at `firstSeq - 1` on such a refusal (one of its MAX_TAIL_CALLS).
 */
import { describe, expect, it } from "vitest";
import { realDaemonWorkspace, workspaceOver, wrapDaemon } from "../attack18c/real-daemon.js";

/** The events of a tail reattach to `id`, named (`exit <code>`), or what it threw; `before` runs after the reattach. */
async function tail(ws: Awaited<ReturnType<typeof realDaemonWorkspace>>["ws"], id: string, before?: () => Promise<void>): Promise<string[]> {
  const got: string[] = [];
  try {
    const handle = await ws.runtime.getExec(id, { backend: "box", resume: "tail" });
    await before?.();
    for await (const e of handle) got.push(e.name === "exit" ? `exit ${e.code}` : e.name);
  } catch (error) {
    got.push(`threw ${(error as { code?: string }).code}`);
  }
  return got;
}

describe("attack19c: a tail reattach to a run whose log was trimmed", () => {
  it("a finished run's tail is its exit, not ELOG_TRUNCATED", { timeout: 30_000 }, async () => {
    const real = await realDaemonWorkspace({ COMPUTERD_LOG_MAX_BYTES: "65536" });
    try {
      const result = await (await real.ws.runtime.exec("head -c 400000 /dev/zero", { backend: "box", id: "big" })).result();
      expect(result.exitCode).toBe(0);
      // Found: ["threw ELOG_TRUNCATED"] (events after 0 are no longer kept (oldest kept seq is 8)).
      expect(await tail(real.ws, "big")).toEqual(["exit 0"]);
    } finally {
      await real.close();
    }
  });

  it("a finished run's tail is its exit when the daemon's error reaches the host as its message alone", { timeout: 30_000 }, async () => {
    const real = await realDaemonWorkspace({ COMPUTERD_LOG_MAX_BYTES: "65536" });
    // A transport that keeps an error's message only (no `code`, no `firstSeq`).
    const bare = wrapDaemon(real.daemon, {
      events: (async (input: Parameters<typeof real.daemon.events>[0]) => {
        try {
          return await real.daemon.events(input);
        } catch (error) {
          throw new Error((error as Error).message);
        }
      }) as never,
    });
    const ws = await workspaceOver(bare);
    try {
      const result = await (await ws.runtime.exec("head -c 400000 /dev/zero", { backend: "box", id: "big" })).result();
      expect(result.exitCode).toBe(0);
      expect(await tail(ws, "big")).toEqual(["exit 0"]);
      // A replay from the start is still refused, with the oldest kept seq named.
      const error = await ws.runtime.getExec("big", { backend: "box", resume: 1 }).then(async (handle) => {
        for await (const _ of handle);
      }).then(() => undefined, (e: unknown) => e as { code?: string; message?: string });
      expect(error?.code).toBe("ELOG_TRUNCATED");
      expect(error?.message).toMatch(/^run "big": events after 1 are no longer kept \(oldest kept seq is \d+\)$/);
    } finally {
      await ws.close();
      await real.close();
    }
  });

  it("a live run's tail reattaches and ends with the kill's exit", { timeout: 30_000 }, async () => {
    const real = await realDaemonWorkspace({ COMPUTERD_LOG_MAX_BYTES: "65536" });
    try {
      const handle = await real.ws.runtime.exec("head -c 400000 /dev/zero; sleep 20", { backend: "box", id: "live" });
      const reader = handle[Symbol.asyncIterator]();
      for (let bytes = 0; bytes < 400_000; ) {
        const next = await reader.next();
        if (next.done || next.value.name === "exit") break;
        bytes += (next.value.value as Uint8Array).byteLength;
      }
      // Found: ["threw ELOG_TRUNCATED"] (… "live" … oldest kept seq is 7).
      expect(await tail(real.ws, "live", () => real.ws.runtime.killExec("live", { backend: "box" }))).toEqual(["exit 143"]);
    } finally {
      await real.ws.runtime.killExec("live", { backend: "box" }).catch(() => {});
      await real.close();
    }
  });
});
