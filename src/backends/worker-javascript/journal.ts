/**
 * The execution journal (spec 02 §3.7): run records and their events in the
 * Workspace database, tables prefixed `__ws_exec_`. Events are appended as
 * they happen; `getExec` replays them.
 *
 * Each run row records its owner (the id of the backend connection that runs
 * it) and a lease (`lease_until`, ms, real clock), see ownership.ts. Only the
 * owner appends a run's events or finishes it; another connection settles
 * it ({@link ExecJournal.settle}) or takes it over ({@link ExecJournal.claim})
 * only from the owner it found, once that owner is judged gone. A non-owner
 * on another process asks for a kill through `kill_requested`. Journals made
 * before these columns get them on open (`owner`, `lease_until` NULL: an
 * owner that is gone; `kill_requested` 0).
 *
 * @module
 */
import { toBytes, type WorkspaceDatabase } from "../../storage/database.js";

/** One stored event. */
export interface JournalEvent {
  seq: number;
  name: "stdout" | "stderr" | "exit";
  data: Uint8Array | null;
  code: number | null;
  result: string | null;
}

/** One stored run. */
export interface JournalRun {
  id: string;
  status: "running" | "done";
  exit_code: number | null;
  started_at: number;
  finished_at: number | null;
  last_seq: number;
  /** The owning connection's id; null for runs of journals made before owners, or released at close. */
  owner: string | null;
  /** When the owner's lease lapses (ms since the epoch, real clock); null: none. */
  lease_until: number | null;
  /** 1 when another process asked the owner to kill the run. */
  kill_requested: number;
}

/** Columns added after the first release, with their definitions (added on open when missing). */
const ADDED_COLUMNS: readonly (readonly [string, string])[] = [
  // Output bytes journaled per run (for the byte budget of prune); journals made before it start at 0.
  ["bytes", "bytes INTEGER NOT NULL DEFAULT 0"],
  // Ownership (issue 20): see the module comment.
  ["owner", "owner TEXT"],
  ["lease_until", "lease_until INTEGER"],
  ["kill_requested", "kill_requested INTEGER NOT NULL DEFAULT 0"],
];

const RUN_COLUMNS = "id, status, exit_code, started_at, finished_at, last_seq, owner, lease_until, kill_requested";

/** SQL access to the journal of one backend. */
export class ExecJournal {
  readonly #db: WorkspaceDatabase;
  readonly #backend: string;
  /** The owner id this journal writes runs as. */
  readonly owner: string;

  /** @param owner the owner id of the connection writing through this journal (random per connection). */
  constructor(db: WorkspaceDatabase, backend: string, owner: string) {
    this.#db = db;
    this.#backend = backend;
    this.owner = owner;
    db.run(
      `CREATE TABLE IF NOT EXISTS __ws_exec_runs (
        backend TEXT NOT NULL, id TEXT NOT NULL, status TEXT NOT NULL, exit_code INTEGER,
        started_at INTEGER NOT NULL, finished_at INTEGER, last_seq INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (backend, id))`,
    );
    db.run(
      `CREATE TABLE IF NOT EXISTS __ws_exec_events (
        backend TEXT NOT NULL, id TEXT NOT NULL, seq INTEGER NOT NULL, name TEXT NOT NULL,
        data BLOB, code INTEGER, result TEXT, PRIMARY KEY (backend, id, seq))`,
    );
    try {
      db.all(`SELECT ${ADDED_COLUMNS.map(([name]) => name).join(", ")} FROM __ws_exec_runs LIMIT 0`);
    } catch {
      // A journal made by an earlier version: add what it lacks.
      for (const [, definition] of ADDED_COLUMNS) {
        try {
          db.run(`ALTER TABLE __ws_exec_runs ADD COLUMN ${definition}`);
        } catch {
          /* the column exists */
        }
      }
    }
  }

  /** Runs `fn` in one transaction of the Workspace database (with other journals' writes, e.g. a durable run's start). */
  tx<T>(fn: () => T): T {
    return this.#db.tx(fn);
  }

  get(id: string): JournalRun | undefined {
    return this.#db.one<JournalRun>(
      `SELECT ${RUN_COLUMNS} FROM __ws_exec_runs WHERE backend = ? AND id = ?`,
      this.#backend,
      id,
    );
  }

  /** Records run `id` as running, owned by {@link owner} with a lease until `leaseUntil` (ms, real clock). */
  start(id: string, now: number, leaseUntil: number): void {
    this.#db.run(
      "INSERT INTO __ws_exec_runs (backend, id, status, started_at, last_seq, owner, lease_until) VALUES (?, ?, 'running', ?, 0, ?, ?)",
      this.#backend,
      id,
      now,
      this.owner,
      leaseUntil,
    );
  }

  /**
   * Takes running run `id` over from `from` (an owner judged gone): it
   * becomes {@link owner}'s, leased until `leaseUntil`, with no kill request.
   * False when it is no longer running or `from` no longer owns it.
   */
  claim(id: string, from: string | null, leaseUntil: number): boolean {
    return this.#db.tx(() => {
      const run = this.get(id);
      if (!run || run.status !== "running" || run.owner !== from) return false;
      if (from === this.owner) return true;
      this.#db.run(
        "UPDATE __ws_exec_runs SET owner = ?, lease_until = ?, kill_requested = 0 WHERE backend = ? AND id = ?",
        this.owner,
        leaseUntil,
        this.#backend,
        id,
      );
      return true;
    });
  }

  /**
   * Settles running run `id` of `from` (an owner judged gone) as failed:
   * `message` on stderr, then exit 1. False when it is no longer running or
   * `from` no longer owns it.
   */
  settle(id: string, from: string | null, message: Uint8Array, now: number): boolean {
    return this.#db.tx(() => {
      const run = this.get(id);
      if (!run || run.status !== "running" || run.owner !== from) return false;
      const seq = run.last_seq;
      this.#db.run("INSERT INTO __ws_exec_events (backend, id, seq, name, data) VALUES (?, ?, ?, 'stderr', ?)", this.#backend, id, seq + 1, message);
      this.#db.run("INSERT INTO __ws_exec_events (backend, id, seq, name, code, result) VALUES (?, ?, ?, 'exit', 1, NULL)", this.#backend, id, seq + 2);
      this.#db.run(
        "UPDATE __ws_exec_runs SET status = 'done', exit_code = 1, finished_at = ?, last_seq = ?, bytes = bytes + ? WHERE backend = ? AND id = ?",
        now,
        seq + 2,
        message.byteLength,
        this.#backend,
        id,
      );
      return true;
    });
  }

  /** Extends the lease of every running run {@link owner} owns to `until` (ms, real clock). */
  renew(until: number): void {
    this.#db.run(
      "UPDATE __ws_exec_runs SET lease_until = max(coalesce(lease_until, 0), ?) WHERE backend = ? AND owner = ? AND status = 'running'",
      until,
      this.#backend,
      this.owner,
    );
  }

  /** The running runs {@link owner} owns, with their kill requests. */
  owned(): { id: string; kill_requested: number }[] {
    return this.#db.all<{ id: string; kill_requested: number }>(
      "SELECT id, kill_requested FROM __ws_exec_runs WHERE backend = ? AND owner = ? AND status = 'running'",
      this.#backend,
      this.owner,
    );
  }

  /** Asks the owner of running run `id` (in another process) to kill it; it does on its next lease renewal. */
  requestKill(id: string): void {
    this.#db.run("UPDATE __ws_exec_runs SET kill_requested = 1 WHERE backend = ? AND id = ? AND status = 'running'", this.#backend, id);
  }

  /** Gives up {@link owner}'s ownership of running runs `ids` (runs left waiting at close): the next connection takes them over at once. */
  release(ids: readonly string[]): void {
    for (const id of ids) {
      this.#db.run(
        "UPDATE __ws_exec_runs SET owner = NULL, lease_until = NULL WHERE backend = ? AND id = ? AND owner = ? AND status = 'running'",
        this.#backend,
        id,
        this.owner,
      );
    }
  }

  /** Appends an output event while the run is still running and {@link owner}'s; returns false otherwise. */
  append(id: string, seq: number, name: "stdout" | "stderr", data: Uint8Array): boolean {
    return this.appendAll(id, [{ seq, name, data }]);
  }

  /**
   * Appends output events (ascending `seq`) in one transaction while the run
   * is still running and {@link owner}'s — all of them or, when it is not
   * (it ended, or another connection settled or took it over), none; returns
   * false then.
   */
  appendAll(id: string, events: readonly { seq: number; name: "stdout" | "stderr"; data: Uint8Array }[]): boolean {
    if (events.length === 0) return true;
    return this.#db.tx(() => {
      const run = this.get(id);
      if (!run || run.status !== "running" || run.owner !== this.owner) return false;
      let bytes = 0;
      for (const { seq, name, data } of events) {
        this.#db.run(
          "INSERT INTO __ws_exec_events (backend, id, seq, name, data) VALUES (?, ?, ?, ?, ?)",
          this.#backend,
          id,
          seq,
          name,
          data,
        );
        bytes += data.byteLength;
      }
      this.#db.run(
        "UPDATE __ws_exec_runs SET last_seq = ?, bytes = bytes + ? WHERE backend = ? AND id = ?",
        events[events.length - 1]!.seq,
        bytes,
        this.#backend,
        id,
      );
      return true;
    });
  }

  /** Writes the exit event and marks the run done (only if it is still running and {@link owner}'s). */
  finish(id: string, seq: number, code: number, result: string | null, now: number): boolean {
    return this.#db.tx(() => {
      const run = this.get(id);
      if (!run || run.status !== "running" || run.owner !== this.owner) return false;
      this.#db.run(
        "INSERT INTO __ws_exec_events (backend, id, seq, name, code, result) VALUES (?, ?, ?, 'exit', ?, ?)",
        this.#backend,
        id,
        seq,
        code,
        result,
      );
      this.#db.run(
        "UPDATE __ws_exec_runs SET status = 'done', exit_code = ?, finished_at = ?, last_seq = ? WHERE backend = ? AND id = ?",
        code,
        now,
        seq,
        this.#backend,
        id,
      );
      return true;
    });
  }

  events(id: string, after: number, limit: number): JournalEvent[] {
    return this.#db
      .all<JournalEvent>(
        "SELECT seq, name, data, code, result FROM __ws_exec_events WHERE backend = ? AND id = ? AND seq > ? ORDER BY seq LIMIT ?",
        this.#backend,
        id,
        after,
        limit,
      )
      .map((e) => ({ ...e, data: e.data === null || e.data === undefined ? null : toBytes(e.data) }));
  }

  /**
   * How much of `stream` run `id` journaled in events up to seq `upTo`:
   * its bytes, and its last byte (10, `\n`, when there are none). Reads no
   * output (sums in SQL, one byte of the last row).
   */
  outputSize(id: string, stream: "stdout" | "stderr", upTo: number): { bytes: number; last: number } {
    const sum = this.#db.one<{ bytes: number | null }>(
      "SELECT sum(length(data)) AS bytes FROM __ws_exec_events WHERE backend = ? AND id = ? AND name = ? AND seq <= ?",
      this.#backend,
      id,
      stream,
      upTo,
    );
    const tail = this.#db.one<{ last: unknown }>(
      "SELECT substr(data, -1) AS last FROM __ws_exec_events WHERE backend = ? AND id = ? AND name = ? AND seq <= ? AND length(data) > 0 ORDER BY seq DESC LIMIT 1",
      this.#backend,
      id,
      stream,
      upTo,
    );
    return { bytes: sum?.bytes ?? 0, last: tail ? (toBytes(tail.last)[0] ?? 10) : 10 };
  }

  /** The first event of `stream` of run `id` with a seq in (`after`, `upTo`] and bytes in it (one row: at most one output window), or undefined. */
  nextOutput(id: string, stream: "stdout" | "stderr", after: number, upTo: number): { seq: number; data: Uint8Array } | undefined {
    const row = this.#db.one<{ seq: number; data: unknown }>(
      "SELECT seq, data FROM __ws_exec_events WHERE backend = ? AND id = ? AND seq > ? AND seq <= ? AND name = ? AND length(data) > 0 ORDER BY seq LIMIT 1",
      this.#backend,
      id,
      after,
      upTo,
      stream,
    );
    return row ? { seq: row.seq, data: toBytes(row.data) } : undefined;
  }

  /** Every run marked running, of any owner. */
  running(): JournalRun[] {
    return this.#db.all<JournalRun>(`SELECT ${RUN_COLUMNS} FROM __ws_exec_runs WHERE backend = ? AND status = 'running'`, this.#backend);
  }

  delete(id: string): void {
    this.#db.tx(() => {
      this.#db.run("DELETE FROM __ws_exec_events WHERE backend = ? AND id = ?", this.#backend, id);
      this.#db.run("DELETE FROM __ws_exec_runs WHERE backend = ? AND id = ?", this.#backend, id);
    });
  }

  /**
   * Deletes finished runs older than `retentionMs`, beyond the newest `max`,
   * and past `maxBytes` of journaled output counted from the newest (the
   * newest finished run is always kept). Running runs are never pruned.
   */
  prune(now: number, retentionMs: number, max: number, maxBytes = Infinity): void {
    const expired = this.#db.all<{ id: string }>(
      `SELECT id FROM __ws_exec_runs WHERE backend = ? AND status = 'done'
        AND (finished_at < ? OR id IN (
          SELECT id FROM __ws_exec_runs WHERE backend = ? AND status = 'done'
          ORDER BY finished_at DESC, rowid DESC LIMIT -1 OFFSET ?))`,
      this.#backend,
      now - retentionMs,
      this.#backend,
      max,
    );
    for (const { id } of expired) this.delete(id);
    if (!Number.isFinite(maxBytes)) return;
    const over = this.#db.all<{ id: string }>(
      `SELECT id FROM (
        SELECT id,
          SUM(bytes) OVER (ORDER BY finished_at DESC, rowid DESC ROWS UNBOUNDED PRECEDING) AS total,
          ROW_NUMBER() OVER (ORDER BY finished_at DESC, rowid DESC) AS n
        FROM __ws_exec_runs WHERE backend = ? AND status = 'done')
      WHERE n > 1 AND total > ?`,
      this.#backend,
      maxBytes,
    );
    for (const { id } of over) this.delete(id);
  }
}
