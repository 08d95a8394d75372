/**
 * Run ownership on Node (issue 20, attack 7 "two Workspaces over one
 * storage"): two Workspace objects over one `nodeSqliteStorage` file share
 * one run journal. A run belongs to the backend connection that started it
 * (its owner id) and carries a lease; a second Workspace never settles a
 * live owner's run — it follows it — and settles a run only once its owner
 * is gone (on a file: its lease lapsed).
 *
 * Node has no Worker Loader, so the JavaScript backend gets a stand-in
 * (`scriptedLoader`): its "isolate" prints `<tag><i>` lines through the
 * real bridge every `ms` and returns `tag`; disposing it (a kill or stop)
 * ends its loop. Everything else — journal, ownership, streams — is the
 * backend's own code.
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage, type NodeSqliteStorage } from "../../../src/index.js";
import { openWorkspace, storageFile } from "./temp-storage.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { RUN_LEASE_MS, unregisterOwner } from "../../../src/backends/worker-javascript/ownership.js";

const encoder = new TextEncoder();
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** What the stand-in isolates did: per tag, lines printed, whether it ran to its end, whether it was disposed. */
type Trace = Map<string, { printed: number; finished: boolean; disposed: boolean }>;

/** A Worker Loader stand-in: `input` `{ tag, n, ms }` prints `tag0`…`tag<n-1>` (one line per `ms`) and returns `tag`. */
function scriptedLoader(trace: Trace) {
  return {
    load() {
      return {
        getEntrypoint() {
          let disposed = false;
          let tag = "";
          return {
            async evaluate(input: { tag: string; n: number; ms: number }, bridge: { output(bytes: Uint8Array, segments: number[]): void }) {
              tag = input.tag;
              const t = { printed: 0, finished: false, disposed: false };
              trace.set(tag, t);
              for (let i = 0; i < input.n; i++) {
                if (disposed) throw new Error("disposed");
                const line = encoder.encode(`${input.tag}${i}\n`);
                bridge.output(line, [line.byteLength]);
                t.printed++;
                await sleep(input.ms);
              }
              t.finished = true;
              return { code: 0, value: JSON.stringify(input.tag) };
            },
            [Symbol.dispose]() {
              disposed = true;
              const t = trace.get(tag);
              if (t) t.disposed = true;
            },
          };
        },
      };
    },
  };
}

/** A Workspace with the JavaScript backend over `storage` (a new `nodeSqliteStorage(path)` when given a path). */
function workspace(storage: string | NodeSqliteStorage, trace: Trace): { ws: Workspace; storage: NodeSqliteStorage } {
  const make = (s: NodeSqliteStorage) => new Workspace({ storage: s, backends: [new WorkerJavaScriptBackend({ loader: scriptedLoader(trace) as never })] });
  return openWorkspace(storage, make);
}

const SOURCE = `export default (input) => input.tag;`;
const decode = (b: Uint8Array | string) => (typeof b === "string" ? b : new TextDecoder().decode(b));
const lines = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `${tag}${i}\n`).join("");

async function until(probe: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe("two Workspaces over one nodeSqliteStorage file", () => {
  for (const shared of [true, false]) {
    const how = shared ? "one storage object" : "two storage objects on the file";
    it(`(${how}) the second one's start-up leaves the first one's live run alone; its result() follows it to the end`, async () => {
      const trace: Trace = new Map();
      const path = storageFile();
      const a = workspace(path, trace);
      await a.ws.fs.mkdir("/workspace", { recursive: true });
      const h = await a.ws.runtime.exec(SOURCE, { id: "long", input: { tag: "A", n: 15, ms: 20 }, encoding: "utf8" });
      await until(() => (trace.get("A")?.printed ?? 0) >= 3, "A to print");
      const b = workspace(shared ? a.storage : path, trace);
      const followed = await (await b.ws.runtime.getExec("long", { encoding: "utf8" })).result();
      const own = await h.result();
      expect({ status: followed.status, exitCode: followed.exitCode, value: followed.value, stdout: followed.stdout, stderr: followed.stderr }).toEqual({
        status: "completed",
        exitCode: 0,
        value: "A",
        stdout: lines("A", 15),
        stderr: "",
      });
      expect({ status: own.status, value: own.value, stdout: own.stdout }).toEqual({ status: "completed", value: "A", stdout: lines("A", 15) });
    });

    it(`(${how}) the second one's killExec reaches the owner; disposeExec of the live run is EEXEC_BUSY`, async () => {
      const trace: Trace = new Map();
      const path = storageFile();
      const a = workspace(path, trace);
      await a.ws.fs.mkdir("/workspace", { recursive: true });
      const h = await a.ws.runtime.exec(SOURCE, { id: "k", input: { tag: "K", n: 100_000, ms: 10 }, encoding: "utf8" });
      await until(() => (trace.get("K")?.printed ?? 0) >= 1, "K to print");
      const b = workspace(shared ? a.storage : path, trace);
      await expect(b.ws.runtime.disposeExec("k")).rejects.toMatchObject({ code: "EEXEC_BUSY" });
      await b.ws.runtime.killExec("k");
      const own = await h.result();
      const followed = await (await b.ws.runtime.getExec("k", { encoding: "utf8" })).result();
      expect([own.status, own.exitCode, own.stderr]).toEqual(["cancelled", 130, "Execution cancelled.\n"]);
      expect([followed.status, followed.exitCode, followed.stdout]).toEqual(["cancelled", 130, own.stdout]);
      expect(trace.get("K")).toMatchObject({ finished: false, disposed: true });
    });
  }
});

/** Writes run `id` as running, owned by `owner` (a process not in this one), leased until `leaseUntil`, with one stdout line. */
function orphan(storage: NodeSqliteStorage, id: string, owner: string, leaseUntil: number): void {
  storage.sql.exec(
    "INSERT INTO __ws_exec_runs (backend, id, status, started_at, last_seq, owner, lease_until) VALUES ('worker-javascript', ?, 'running', ?, 1, ?, ?)",
    id,
    Date.now(),
    owner,
    leaseUntil,
  );
  storage.sql.exec("INSERT INTO __ws_exec_events (backend, id, seq, name, data) VALUES ('worker-javascript', ?, 1, 'stdout', ?)", id, encoder.encode("before\n"));
}

const statusOf = (storage: NodeSqliteStorage, id: string) =>
  (storage.sql.exec("SELECT status FROM __ws_exec_runs WHERE id = ?", id).toArray()[0] as { status: string } | undefined)?.status;

describe("runs of an owner in another process (the lease)", () => {
  it("a run whose owner's lease has lapsed is settled as interrupted when a Workspace connects", async () => {
    const trace: Trace = new Map();
    const path = storageFile();
    const setup = workspace(path, trace);
    await setup.ws.runtime.ready(); // creates the journal
    orphan(setup.storage, "gone", "another-process", Date.now() - 1);
    const b = workspace(path, trace);
    const r = await (await b.ws.runtime.getExec("gone", { encoding: "utf8" })).result();
    expect([r.status, r.exitCode, r.stdout, r.stderr]).toEqual(["failed", 1, "before\n", "Execution was interrupted when its Workspace runtime restarted.\n"]);
  });

  it("a run whose owner's lease has not lapsed is left running; a follower settles it once the lease lapses", async () => {
    const trace: Trace = new Map();
    const path = storageFile();
    const setup = workspace(path, trace);
    await setup.ws.runtime.ready();
    orphan(setup.storage, "held", "another-process", Date.now() + 60 * RUN_LEASE_MS);
    const b = workspace(path, trace);
    await b.ws.runtime.ready(); // reconciles: the owner may still be alive
    expect(statusOf(setup.storage, "held")).toBe("running");
    const h = await b.ws.runtime.getExec("held", { encoding: "utf8" });
    const result = h.result();
    let settled = false;
    void result.then(() => (settled = true));
    await sleep(300); // the follower polls the journal meanwhile
    expect([settled, statusOf(setup.storage, "held")]).toEqual([false, "running"]);
    // Time passes: the owner stopped renewing, its lease lapses.
    setup.storage.sql.exec("UPDATE __ws_exec_runs SET lease_until = ? WHERE id = 'held'", Date.now() - 1);
    const r = await result;
    expect([r.status, r.exitCode, r.stdout, r.stderr]).toEqual(["failed", 1, "before\n", "Execution was interrupted when its Workspace runtime restarted.\n"]);
  });

  it("a kill from another process is recorded and carried out by the owner on its lease renewal", async () => {
    const trace: Trace = new Map();
    const path = storageFile();
    const a = workspace(path, trace);
    await a.ws.fs.mkdir("/workspace", { recursive: true });
    const h = await a.ws.runtime.exec(SOURCE, { id: "remote-kill", input: { tag: "R", n: 100_000, ms: 10 }, encoding: "utf8" });
    await until(() => (trace.get("R")?.printed ?? 0) >= 1, "R to print");
    const b = workspace(path, trace);
    await b.ws.runtime.ready();
    // As seen from another process: a's connection is not in this process's registry.
    const owner = (a.storage.sql.exec("SELECT owner FROM __ws_exec_runs WHERE id = 'remote-kill'").toArray()[0] as { owner: string }).owner;
    unregisterOwner(owner);
    await b.ws.runtime.killExec("remote-kill");
    expect((a.storage.sql.exec("SELECT kill_requested FROM __ws_exec_runs WHERE id = 'remote-kill'").toArray()[0] as { kill_requested: number }).kill_requested).toBe(1);
    const own = await h.result();
    expect([own.status, own.exitCode, own.stderr]).toEqual(["cancelled", 130, "Execution cancelled.\n"]);
    expect(trace.get("R")).toMatchObject({ finished: false, disposed: true });
  });

  it("an owner whose run another process settled (its lease lapsed) stops the run instead of writing on", async () => {
    const trace: Trace = new Map();
    const path = storageFile();
    const a = workspace(path, trace);
    await a.ws.fs.mkdir("/workspace", { recursive: true });
    const h = await a.ws.runtime.exec(SOURCE, { id: "late", input: { tag: "L", n: 100_000, ms: 10 }, encoding: "utf8" });
    await until(() => (trace.get("L")?.printed ?? 0) >= 1, "L to print");
    const b = workspace(path, trace);
    await b.ws.runtime.ready();
    const owner = (a.storage.sql.exec("SELECT owner FROM __ws_exec_runs WHERE id = 'late'").toArray()[0] as { owner: string }).owner;
    unregisterOwner(owner); // as seen from another process
    // a stalled past its lease (same synchronous turn: a's renewal cannot run in between)…
    a.storage.sql.exec("UPDATE __ws_exec_runs SET lease_until = ? WHERE id = 'late'", Date.now() - 1);
    // …and b settles the run (killExec of a run whose owner is gone).
    const settling = b.ws.runtime.killExec("late");
    await settling;
    const followed = await (await b.ws.runtime.getExec("late", { encoding: "utf8" })).result();
    expect([followed.status, followed.exitCode, followed.stderr]).toEqual(["failed", 1, "Execution was interrupted when its Workspace runtime restarted.\n"]);
    await until(() => trace.get("L")?.disposed === true, "a to stop its run");
    expect(trace.get("L")?.finished).toBe(false);
    const own = await h.result(); // a's handle reads the journal's verdict too
    expect([own.status, own.exitCode, own.stderr]).toEqual(["failed", 1, "Execution was interrupted when its Workspace runtime restarted.\n"]);
    const rows = a.storage.sql.exec("SELECT name FROM __ws_exec_events WHERE id = 'late' ORDER BY seq DESC LIMIT 1").toArray() as { name: string }[];
    expect(rows).toEqual([{ name: "exit" }]); // nothing written after the exit
  });

  it("a journal of an earlier version (no owner or lease columns) is migrated on open; its running runs are settled at once", async () => {
    const trace: Trace = new Map();
    const path = storageFile();
    const old = nodeSqliteStorage(path);
    old.sql.exec(`CREATE TABLE __ws_exec_runs (
        backend TEXT NOT NULL, id TEXT NOT NULL, status TEXT NOT NULL, exit_code INTEGER,
        started_at INTEGER NOT NULL, finished_at INTEGER, last_seq INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (backend, id))`);
    old.sql.exec(`CREATE TABLE __ws_exec_events (
        backend TEXT NOT NULL, id TEXT NOT NULL, seq INTEGER NOT NULL, name TEXT NOT NULL,
        data BLOB, code INTEGER, result TEXT, PRIMARY KEY (backend, id, seq))`);
    old.sql.exec("INSERT INTO __ws_exec_runs (backend, id, status, started_at, last_seq) VALUES ('worker-javascript', 'legacy', 'running', 1, 0)");
    old.close();
    const b = workspace(path, trace);
    const r = await (await b.ws.runtime.getExec("legacy", { encoding: "utf8" })).result();
    expect([r.status, r.exitCode, r.stderr]).toEqual(["failed", 1, "Execution was interrupted when its Workspace runtime restarted.\n"]);
    const columns = (b.storage.sql.exec("SELECT name FROM pragma_table_info('__ws_exec_runs')").toArray() as { name: string }[]).map((c) => c.name);
    expect(columns.slice(7)).toEqual(["bytes", "owner", "lease_until", "kill_requested"]);
  });
});
