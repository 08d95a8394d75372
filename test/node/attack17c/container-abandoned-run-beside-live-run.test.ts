/**
 * Issue 20, seventeenth attack run: attack16c's fix for a run whose event stream fails (its pull left
 * pending as COMMAND_SENT, "so the next push pulls first") works only when no other command is live on the
 * connection — beside a running command, the next push does not pull first and overwrites the failed run's
 * change in the container with the Workspace's write, against "the container's changes win".
 *
 * Tried: a remote command backend (`daemonHandle` over a stand-in container that keeps its files, as in
 * attack16c's container-run-stream-error-skips-pull) with (1) a long run `wait` still going, (2) `make-a`
 * (creates `a` in the container) whose `events` fails ELOG_TRUNCATED after the Workspace wrote
 * `/workspace/a` = "ws" while it ran, (3) a third command `true`, then `wait` ends. (Held: with no other run
 * live — attack16c's case — the next push pulls first and the container's "container" wins on both sides.)
 *
 * Found (medium-low; 2 of 2 runs): `RemoteSync.#push` pulls first only when `#live === 0`; `abandon`
 * settles make-a's count, but `wait` keeps `#live` at 1, so the third command's push sends the Workspace's
 * `a` = "ws" over the container's "container" (daemon calls: exec wait, exec make-a, write a, exec true, scan, scan);
 * `wait`'s pull later finds "ws" — both sides end with "ws", the command's change lost. An agent running a
 * dev server or watcher (a long run) beside its commands is the common case.
 *
 * Suggested fix: count abandoned commands apart (or keep a per-connection "pull owed" flag set by
 * `abandon`) and have the next push pull first while one is owed, whatever else is live; or run the
 * abandoned run's pull (under the lock) as soon as its stream fails. *
 * Fixed: `abandon` now calls `RemoteSync.commandAbandoned()` (runtime/index.ts, runtime/sync.ts), which counts
 * the owed pull apart from `#live`; `#push` pulls first (the marker still COMMAND_SENT) when no command is live
 * or one is owed, and a completed pull pays off those abandoned before its walk began.
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

describe("attack17c: a failed run's pull beside a live run", () => {
  it("the command's change still wins over a Workspace write made while it ran, with another run live", async () => {
    let ws!: Workspace;
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const box = fakeContainer(async (id, after) => {
      if (id === "wait") {
        await released;
        return exited(after);
      }
      if (id !== "r1") return exited(after);
      await ws.fs.writeFile("/workspace/a", "ws"); // while the command runs
      throw Object.assign(new Error(`ELOG_TRUNCATED: run "r1" was replaced or evicted while waiting`), { code: "ELOG_TRUNCATED" });
    });
    ws = new Workspace({
      storage: nodeSqliteStorage(":memory:"),
      backends: [{ id: "box", type: "test", connect: async () => daemonHandle(box.api, { closed: new Promise(() => {}), close() {} }) }],
    });
    await ws.fs.mkdir("/workspace", { recursive: true });
    const long = (await ws.runtime.exec("wait", { backend: "box", encoding: "utf8", id: "wait" })).result();
    const r1 = await (await ws.runtime.exec("make-a", { backend: "box", encoding: "utf8", id: "r1" })).result().then(
      () => "resolved",
      (e: { code?: string }) => `rejected ${e.code}`,
    );
    expect(r1).toBe("rejected ELOG_TRUNCATED");
    const r2 = await (await ws.runtime.exec("true", { backend: "box", encoding: "utf8", id: "r2" })).result();
    release();
    expect((await long).exitCode).toBe(0);
    const here = await ws.fs.readFile("/workspace/a", "utf8");
    await ws.close();
    expect(r2.exitCode).toBe(0);
    // Found: "ws" on both sides; the third command's push wrote a ("write a" in the daemon's calls).
    expect({ workspace: here, container: dec.decode(box.files.get("a")!.data) }).toEqual({ workspace: "container", container: "container" });
    expect(box.calls).not.toContain("write a");
  });
});
