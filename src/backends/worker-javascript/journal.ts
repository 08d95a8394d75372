/**
 * The execution journal (spec 02 §3.7): run records and their events in the
 * Workspace database, tables prefixed `__ws_exec_`. Events are appended as
 * they happen; `getExec` replays them.
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
}

/** SQL access to the journal of one backend. */
export class ExecJournal {
  readonly #db: WorkspaceDatabase;
  readonly #backend: string;

  constructor(db: WorkspaceDatabase, backend: string) {
    this.#db = db;
    this.#backend = backend;
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
    // Output bytes journaled per run (for the byte budget of prune); journals made before it start at 0.
    try {
      db.run("ALTER TABLE __ws_exec_runs ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0");
    } catch {
      /* the column exists */
    }
  }

  /** Runs `fn` in one transaction of the Workspace database (with other journals' writes, e.g. a durable run's start). */
  tx<T>(fn: () => T): T {
    return this.#db.tx(fn);
  }

  get(id: string): JournalRun | undefined {
    return this.#db.one<JournalRun>(
      "SELECT id, status, exit_code, started_at, finished_at, last_seq FROM __ws_exec_runs WHERE backend = ? AND id = ?",
      this.#backend,
      id,
    );
  }

  start(id: string, now: number): void {
    this.#db.run(
      "INSERT INTO __ws_exec_runs (backend, id, status, started_at, last_seq) VALUES (?, ?, 'running', ?, 0)",
      this.#backend,
      id,
      now,
    );
  }

  /** Appends an output event while the run is still running; returns false otherwise. */
  append(id: string, seq: number, name: "stdout" | "stderr", data: Uint8Array): boolean {
    return this.appendAll(id, [{ seq, name, data }]);
  }

  /**
   * Appends output events (ascending `seq`) in one transaction while the run
   * is still running — all of them or, when it is not running, none; returns
   * false then.
   */
  appendAll(id: string, events: readonly { seq: number; name: "stdout" | "stderr"; data: Uint8Array }[]): boolean {
    if (events.length === 0) return true;
    return this.#db.tx(() => {
      const run = this.get(id);
      if (!run || run.status !== "running") return false;
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

  /** Writes the exit event and marks the run done (only if it is still running). */
  finish(id: string, seq: number, code: number, result: string | null, now: number): boolean {
    return this.#db.tx(() => {
      const run = this.get(id);
      if (!run || run.status !== "running") return false;
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

  running(): string[] {
    return this.#db
      .all<{ id: string }>("SELECT id FROM __ws_exec_runs WHERE backend = ? AND status = 'running'", this.#backend)
      .map((r) => r.id);
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
