/**
 * Issue 20, fifteenth attack run: a container run's `timeoutMs` and `kill` are carried out only by the
 * daemon — a daemon that does not end the run (taken over, or stopped by its own command) keeps the run,
 * `result()` and `killExec()` pending for ever.
 *
 * Tried: (1) real local computerd through TestBackend: a command `kill -STOP $PPID; sleep 30` with
 * `timeoutMs: 2000` — `result()` still pending after 15 s, `killExec()` pending after 10 s more; only
 * killing the daemon process from outside settled it (connection lost). (ContainerBackend and
 * LegacyContainerBackend have a 20 s heartbeat that would turn a FROZEN daemon into a lost connection;
 * TestBackend has none.) (2) Below, the daemon handle every container backend uses
 * (src/backends/daemon/handle.ts `daemonHandle`) over a stand-in daemon that answers every call (so no
 * heartbeat fails) but never sends `exit` and ignores `kill` — what a command that replaced the daemon
 * (docs/container.md: "a command can kill the daemon …, replace its files for the next start"; "Treat
 * what the daemon answers as coming from the model's side") does.
 *
 * Found (medium-low): `exec({ timeoutMs: 1000 })` passes the timeout to the daemon and the host never
 * enforces it; `killExec` only asks the daemon. Both stay pending (10 s bound here; for ever in fact), so
 * the exec tool — whose abort path calls kill — stalls the agent loop, the issue's #3 for containers.
 * Reproduction:
 *
 *   backend { connect: () => daemonHandle({ …, events: () => wait 50 ms, { events: [], done: false },
 *                                           kill: () => ({ killed: true }) }, transport) }
 *   (await ws.runtime.exec("sleep 1", { backend: "box", timeoutMs: 1000 })).result()   // never settles
 *
 * Suggested fix: keep the run's deadline on the host too: past `timeoutMs` + the kill grace (and a bounded
 * time after `killExec`) settle the run locally (143/137, cancelled, a stderr line saying the container did
 * not stop it) and drop its stream; later events of that id are ignored.
 *
 * Fixed: the daemon handle keeps each run's deadline on the host: `timeoutMs` + REMOTE_STOP_GRACE_MS
 * (7000 ms: the daemon's default SIGTERM → SIGKILL grace, its pipe drain and a margin), or a `killExec`
 * + REMOTE_STOP_GRACE_MS. Past it the host ends the run itself — exit 137, `cancelled`, after the stderr
 * line `[run "<id>": the container did not end it within 7000 ms of its timeout (1000 ms); the host ended
 * it (exit 137), asked the container to SIGKILL it, and ignores its later output]` — asks the daemon to
 * SIGKILL it, and drops what the daemon sends later. `killExec` settles on the daemon's answer or within
 * the grace.
 */
import { describe, expect, it } from "vitest";
import { nodeSqliteStorage, Workspace } from "../../../src/index.js";
import { daemonHandle, REMOTE_STOP_GRACE_MS, type DaemonApi } from "../../../src/backends/daemon/handle.js";
import { emptyDaemon } from "./daemon-stand-in.js";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Never ends a run by itself; once the host asks for SIGKILL, answers with late output and exit 0. */
function hostileDaemon(kills: unknown[], answerKill = true): DaemonApi & Record<string, unknown> {
  const sigkilled = new Set<string>();
  return {
    ...emptyDaemon(),
    // Answers (nothing new) after a short wait, as a long-poll does: the session is alive.
    events: async ({ id, after }: { id: string; after: number }) => {
      await sleep(50);
      if (sigkilled.has(id)) {
        const late = [
          { seq: 1, name: "stdout", data: new TextEncoder().encode("late\n") },
          { seq: 2, name: "exit", code: 0 },
        ];
        return { events: late.filter((e) => e.seq > after), done: true };
      }
      return { events: [], done: false };
    },
    kill: async (input: { id: string; signal?: string }) => {
      kills.push(input);
      if (input.signal === "SIGKILL") sigkilled.add(input.id);
      return answerKill ? { killed: true } : new Promise(() => {});
    },
  } as unknown as DaemonApi & Record<string, unknown>;
}

function workspace(api: DaemonApi): { ws: Workspace; close: () => void } {
  let closeTransport!: () => void;
  const closed = new Promise<void>((r) => (closeTransport = r));
  const ws = new Workspace({
    storage: nodeSqliteStorage(":memory:"),
    backends: [{ id: "box", type: "test", connect: async () => daemonHandle(api, { closed, close: () => closeTransport() }) }],
  });
  return { ws, close: () => closeTransport() };
}

const bound = (ms: number, what: string) => new Promise<string>((r) => setTimeout(() => r(what), ms));
const outcome = (r: { status: string; exitCode: number; stdout: string; stderr: string }) => ({ status: r.status, exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr });

describe("attack15c: a container run's timeout is the daemon's alone", () => {
  it("a run with timeoutMs 1000 settles within 10 s, and killExec settles, whatever the daemon does", { timeout: 60_000 }, async () => {
    expect(REMOTE_STOP_GRACE_MS).toBe(7_000);
    const kills: unknown[] = [];
    const { ws, close } = workspace(hostileDaemon(kills));
    await ws.fs.mkdir("/workspace", { recursive: true });
    const h = await ws.runtime.exec("sleep 1", { backend: "box", encoding: "utf8", timeoutMs: 1000, id: "t" });
    const result = h.result();
    const settled = result.then(
      (r) => `settled ${r.status}`,
      (e: Error) => `rejected ${e.message}`,
    );
    const first = await Promise.race([settled, bound(10_000, "result pending after 10 s")]);
    const kill = ws.runtime.killExec(h.id, { backend: "box" }).then(() => "killed", (e: Error) => `kill rejected ${e.message}`);
    const killed = await Promise.race([kill, bound(5_000, "killExec pending after 5 s")]);
    const after = await Promise.race([settled, bound(5_000, "result pending after kill")]);
    // The daemon's late "late\n" and exit 0 (sent once the host asked for SIGKILL) are dropped.
    await sleep(200);
    expect(outcome(await result)).toEqual({
      status: "cancelled",
      exitCode: 137,
      stdout: "",
      stderr: '[run "t": the container did not end it within 7000 ms of its timeout (1000 ms); the host ended it (exit 137), asked the container to SIGKILL it, and ignores its later output]\n',
    });
    // A replay ends the same way, at the same event: the daemon's late output and exit stay dropped.
    const replay = await (await ws.runtime.getExec("t", { backend: "box", encoding: "utf8" })).result();
    expect(outcome(replay)).toEqual(outcome(await result));
    close();
    await ws.close().catch(() => {});
    // Found: "result pending after 10 s", then killExec resolved ("killed") yet "result pending after kill".
    expect({ first, killed, after }).toEqual({ first: "settled cancelled", killed: "killed", after: "settled cancelled" });
    expect(kills).toEqual([{ id: "t", signal: "SIGKILL" }, { id: "t" }]);
  });

  it("a killed run the daemon does not end settles within the grace, even when the daemon never answers the kill", { timeout: 60_000 }, async () => {
    const kills: unknown[] = [];
    const { ws, close } = workspace(hostileDaemon(kills, false));
    await ws.fs.mkdir("/workspace", { recursive: true });
    const h = await ws.runtime.exec("sleep 100", { backend: "box", encoding: "utf8", id: "k" });
    const result = h.result();
    const killed = await Promise.race([ws.runtime.killExec("k", { backend: "box", signal: "SIGINT" }).then(() => "killed"), bound(15_000, "killExec pending after 15 s")]);
    const r = await Promise.race([result.then(outcome), bound(15_000, "result pending after 15 s")]);
    close();
    await ws.close().catch(() => {});
    expect({ killed, r }).toEqual({
      killed: "killed",
      r: {
        status: "cancelled",
        exitCode: 137,
        stdout: "",
        stderr: '[run "k": the container did not end it within 7000 ms of killExec; the host ended it (exit 137), asked the container to SIGKILL it, and ignores its later output]\n',
      },
    });
    expect(kills).toEqual([{ id: "k", signal: "SIGINT" }, { id: "k", signal: "SIGKILL" }]);
  });

  it("a reader late to a run the daemon ended in time gets the daemon's exit, not the host's", { timeout: 60_000 }, async () => {
    const events = [
      { seq: 1, name: "stdout", data: new TextEncoder().encode("hi\n") },
      { seq: 2, name: "exit", code: 0 },
    ];
    const api = { ...hostileDaemon([]), events: async ({ after }: { after: number }) => ({ events: events.filter((e) => e.seq > after), done: true }) } as unknown as DaemonApi;
    const { ws, close } = workspace(api);
    await ws.fs.mkdir("/workspace", { recursive: true });
    const h = await ws.runtime.exec("echo hi", { backend: "box", encoding: "utf8", timeoutMs: 1, id: "late" });
    await sleep(REMOTE_STOP_GRACE_MS + 300); // the host's deadline (1 ms + the grace) has passed before anything is read
    const r = outcome(await h.result());
    close();
    await ws.close().catch(() => {});
    expect(r).toEqual({ status: "completed", exitCode: 0, stdout: "hi\n", stderr: "" });
  });
});
