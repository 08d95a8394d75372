/**
 * Issue 20, sixteenth attack run: a remote run whose event stream fails never gets its pull, and its
 * connection then stops pulling first — a Workspace write made while the command ran overwrites the
 * command's change in the container, against "the container's changes win".
 *
 * Tried: a remote command backend (`daemonHandle` over a stand-in container that keeps its files, as the
 * container backends use it) running `make-a` (creates `a` in the container) while the Workspace writes
 * `/workspace/a` = "ws"; the daemon's `events` for that run then fails with `ELOG_TRUNCATED` (its answer
 * for a run "replaced or evicted while waiting", container/lib/runs.mjs) — or answers a malformed event.
 * Then a second command on the same connection. (Held: the exit-code check, the host deadline, a pull
 * left pending with its reason.)
 *
 * Found (medium; 3 of 3 runs): runtime/handle.ts `processEvents` runs the sync bracket's `finish` only
 * after `exit` or a clean end: when the source errors, `#pullAfter` never runs, so `commandSettled()` is
 * never called and `RemoteSync.#live` stays 1 for the connection's life. The pull is left pending
 * (COMMAND_SENT), but `#push` pulls first only when `#live === 0`: the next command's push sends the
 * Workspace's `a` = "ws" over the container's "container" (daemon calls: exec make-a, write a, exec true,
 * scan); both sides end with "ws" — the command's change is lost. The same leak follows a run whose
 * stream is cancelled or a handle never read. A malformed event (name "xx", `events: null`, a null event)
 * fails `result()` with a raw TypeError (`Cannot read properties of undefined (reading 'kept')`) that the
 * exec tool returns as its error text; the run's output is dropped.
 *
 * Suggested fix: run the pull bracket (or at least `commandSettled()` and the pending mark) in
 * processEvents' error/cancel path too, so a failed stream leaves the connection's next push pulling
 * first; check each daemon event's shape in daemon/handle.ts `eventStream` (an array of { seq: safe
 * integer above the last, name stdout|stderr|exit }) and fail with EPROTOCOL naming the daemon's
 * misbehaviour, as `lastSeq` does.
 *
 * Fixed: a run's handle calls the sync bracket's `abandon` when its events end without the pull (the stream
 * failed or was cancelled; runtime/handle.ts, index.ts `#pullAfter`): the command is settled on the
 * connection (`commandSettled`, once) and its pull left pending as COMMAND_SENT, so the next push pulls
 * first and the container's change wins. daemon/handle.ts checks each `events` answer (`checkedEvents`: an
 * array of objects, seq a safe integer above the last, name stdout|stderr|exit) and fails the run with
 * EPROTOCOL `run "<id>": the container's daemon answered …: its daemon misbehaves …`.
 */
import { describe, expect, it } from "vitest";
import { nodeSqliteStorage, Workspace } from "../../../src/index.js";
import { daemonHandle, type DaemonApi } from "../../../src/backends/daemon/handle.js";
import { emptyDaemon } from "../attack15c/daemon-stand-in.js";

const enc = new TextEncoder();
const dec = new TextDecoder();

/** A container that keeps its files: `make-a` creates `a`; `events` is the test's. */
function fakeContainer(onEvents: (id: string, after: number) => Promise<unknown>) {
  const files = new Map<string, { data: Uint8Array; mtimeMs: number }>();
  let clock = 1000;
  const calls: string[] = [];
  const stat = (f: { data: Uint8Array; mtimeMs: number }) => ({ kind: "file" as const, mode: 0o644, size: f.data.byteLength, mtimeMs: f.mtimeMs, ctimeMs: f.mtimeMs });
  const api = {
    ...emptyDaemon(),
    scan: async () => {
      calls.push("scan");
      return { entries: [...files].sort(([x], [y]) => (x < y ? -1 : 1)).map(([path, f]) => ({ path, ...stat(f) })), skipped: [], cursor: null, done: true };
    },
    read: async ({ path }: { path: string }) => {
      const f = files.get(path)!;
      return { data: f.data, size: f.data.byteLength, eof: true };
    },
    apply: async ({ ops }: { ops: { op: string; path: string; data?: Uint8Array }[] }) => ({
      results: ops.map((o) => {
        calls.push(`${o.op} ${o.path}`);
        if (o.op !== "write") return { ok: true };
        const f = { data: o.data!, mtimeMs: ++clock };
        files.set(o.path, f);
        return { ok: true, stat: stat(f) };
      }),
    }),
    exec: async ({ id, command }: { id: string; command: string }) => {
      calls.push(`exec ${command}`);
      if (command === "make-a") files.set("a", { data: enc.encode("container"), mtimeMs: ++clock });
      return { id, pid: 1 };
    },
    events: async ({ id, after }: { id: string; after: number }) => onEvents(id, after),
  } as unknown as DaemonApi;
  return { api, files, calls };
}

const exited = (after: number) => ({ events: [{ seq: 1, name: "exit", code: 0 }].filter((e) => e.seq > after), done: true });

describe("attack16c: a failed event stream skips the run's pull", () => {
  it("ELOG_TRUNCATED mid-run: the command's change still wins over a Workspace write made while it ran", async () => {
    let ws!: Workspace;
    const box = fakeContainer(async (id, after) => {
      if (id !== "r1") return exited(after);
      await ws.fs.writeFile("/workspace/a", "ws"); // while the command runs
      throw Object.assign(new Error(`ELOG_TRUNCATED: run "r1" was replaced or evicted while waiting`), { code: "ELOG_TRUNCATED" });
    });
    ws = new Workspace({
      storage: nodeSqliteStorage(":memory:"),
      backends: [{ id: "box", type: "test", connect: async () => daemonHandle(box.api, { closed: new Promise(() => {}), close() {} }) }],
    });
    await ws.fs.mkdir("/workspace", { recursive: true });
    const r1 = await (await ws.runtime.exec("make-a", { backend: "box", encoding: "utf8", id: "r1" })).result().then(
      () => "resolved",
      (e: { code?: string }) => `rejected ${e.code}`,
    );
    expect(r1).toBe("rejected ELOG_TRUNCATED");
    const r2 = await (await ws.runtime.exec("true", { backend: "box", encoding: "utf8", id: "r2" })).result();
    const here = await ws.fs.readFile("/workspace/a", "utf8");
    await ws.close();
    expect(r2.exitCode).toBe(0);
    // Found: "ws" on both sides; daemon calls ["exec make-a", "write a", "exec true", "scan"].
    expect({ workspace: here, container: dec.decode(box.files.get("a")!.data) }).toEqual({ workspace: "container", container: "container" });
    expect(box.calls).not.toContain("write a");
  });

  it("a malformed event answer fails the run with EPROTOCOL naming the daemon, not a raw TypeError", async () => {
    const outcomes: string[] = [];
    const messages: string[] = [];
    for (const answer of [{ events: null, done: true }, { events: [null], done: true }, { events: [{ seq: 1, name: "xx", data: "a" }], done: true }]) {
      const box = fakeContainer(async (_id, after) => (after === 0 ? answer : exited(after)));
      const ws = new Workspace({
        storage: nodeSqliteStorage(":memory:"),
        backends: [{ id: "box", type: "test", connect: async () => daemonHandle(box.api, { closed: new Promise(() => {}), close() {} }) }],
      });
      await ws.fs.mkdir("/workspace", { recursive: true });
      outcomes.push(
        await (await ws.runtime.exec("true", { backend: "box", encoding: "utf8", id: "r" })).result().then(
          () => "resolved",
          (e: { code?: string; message?: string }) => {
            messages.push(String(e.message));
            return `${e.code} ${/misbehaves/.test(String(e.message))}`;
          },
        ),
      );
      await ws.close();
    }
    // Found: TypeErrors (no code): "Cannot read properties of null (reading 'length')", "… of null (reading 'name')",
    // "… of undefined (reading 'kept')".
    expect(outcomes).toEqual(["EPROTOCOL true", "EPROTOCOL true", "EPROTOCOL true"]);
    const tail = ": its daemon misbehaves (a command may have taken it over); restart the container";
    expect(messages).toEqual([
      `run "r": the container's daemon answered events that are not an array (null)${tail}`,
      `run "r": the container's daemon answered event 0 that is not an object (null)${tail}`,
      `run "r": the container's daemon answered event 0 named "xx", not stdout, stderr or exit${tail}`,
    ]);
  });
});
