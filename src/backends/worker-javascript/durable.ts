/**
 * What a restart or replay run (spec 02 §5) keeps in the Workspace database
 * until it ends, tables prefixed `__ws_exec_`:
 *
 * - `__ws_exec_durable`: one row per run — its policy, what it was started
 *   with (module graph, input, env, cwd, stdin, timeout, CPU limit, seed,
 *   start time, the runtime it started on) and its attempts;
 * - `__ws_exec_calls`: replay runs' calls, by number — the request (its
 *   arguments, up to {@link MAX_JOURNALED_CALL_BYTES}) and its state;
 * - `__ws_exec_answers`: the answer of a call once there is one, or its
 *   wait (payload, since, answer), one row per call keyed like its request:
 *   apart from it, so that neither row passes the 2 MB Durable Object SQLite
 *   accepts for one row (arguments and answer may take 1.5 MiB each);
 * - `__ws_exec_tape`: replay runs' tape batches (the order the code saw
 *   answers and timer firings, see isolate/workspace-durable.js);
 * - `__ws_exec_spec`: the start of a run whose JSON is too long for one SQL
 *   value, in parts (see {@link SPEC_PART_CHARS}).
 *
 * All of a run's rows are deleted when it ends.
 *
 * @module
 */
import type { WorkspaceRuntimeValue } from "../../runtime/types.js";
import { toBytes, type WorkspaceDatabase } from "../../storage/database.js";
import { fromBase64, toBase64 } from "../../util/bytes.js";

/**
 * Version of the replay format (the tape, the journal of calls, the
 * deterministic runtime). A run interrupted under another version does not
 * resume (spec 02 §5: "the JavaScript runtime changed since it started").
 * 2: answers and waits in `__ws_exec_answers`, not in the request's row.
 */
export const REPLAY_VERSION = 2;

/** The runtime a run started on; a resumed run needs the same (spec 02 §5). */
export interface RuntimeIdentity {
  replayVersion: number;
  maxStdioBytes: number;
  maxCapabilityBytes: number;
  compatibilityDate: string;
  compatibilityFlags: string[];
}

/** What a durable run was started with (saved at start, spec 02 §5). */
export interface DurableSpec {
  /** The run's own modules (internal name → source); internal modules, libraries and host stubs are rebuilt. */
  modules: [string, string][];
  /** Internal name → the name the code used. */
  names: [string, string][];
  /** Internal name of the entry module. */
  entry: string;
  input: WorkspaceRuntimeValue;
  env: Record<string, string>;
  cwd: string;
  /** stdin, base64. */
  stdin: string;
  /** The run's timeout (ms). */
  timeoutMs: number;
  /** The run's CPU limit (ms). */
  cpuMs: number;
  /** Replay runs: the random seed (four unsigned 32-bit integers). */
  seed: number[];
  /** When the run started (ms since the epoch, real clock): the deadline and the replay clock count from it. */
  startedAt: number;
  runtime: RuntimeIdentity;
}

/** One durable run's row. */
export interface DurableRecord {
  policy: "restart" | "replay";
  spec: DurableSpec;
  /** Launches so far without progress (1 after the first launch). */
  attempts: number;
  /** Calls journaled when the last attempt started (progress is measured against it). */
  progress: number;
  /** Time (ms) spent waiting for answers; the deadline moves by it. */
  waitedMs: number;
}

/** One journaled call of a replay run. */
export interface JournaledCall {
  seq: number;
  kind: string;
  target: string;
  name: string;
  /** The request's arguments, encoded (see {@link encodeValue}). */
  args: string;
  state: "started" | "done" | "waiting";
  /** True when the function was wrapped with `unsafeToRepeat`. */
  unsafe: boolean;
}

const BYTES_KEY = "\u0000bytes";

/**
 * Characters of a run's start (its {@link DurableSpec} as JSON) kept in the
 * run's row; a longer one (a 1 MiB module graph with a 1 MiB input is
 * within the defaults) goes to `__ws_exec_spec` in parts of at most this
 * many characters: 524,288, at most 1.5 MiB of UTF-8, under the 2 MB
 * Durable Object SQLite accepts for one value.
 */
export const SPEC_PART_CHARS = 524_288;

/** What the run's row holds in `spec` when the JSON is in parts. */
const SPEC_IN_PARTS = "\u0000parts";

/**
 * Numbers of the tape per journal row: 48,000 (16,000 entries). An entry's
 * numbers are a kind (1 digit), an event number and a clock time (13
 * digits), so a row's JSON stays under about 1 MB.
 */
export const TAPE_ROW_NUMBERS = 48_000;

/**
 * The most tape entries (events the code saw: host-call answers and timer
 * firings, 3 numbers each) one replay run may journal over all its attempts:
 * 262,144. Its tape then takes at most about 6 MB of rows in ordinary use
 * (about 24 characters of JSON an entry, 10 MB if every number had 16
 * digits), and a resumed attempt reads it whole into one array (786,432
 * numbers, 6 MiB). A run that sees more events than that fails (its journal
 * could not replay it), with a message naming the limit; so does a run whose
 * isolate sends a batch that is not whole [kind, event, time] triples.
 */
export const MAX_TAPE_ENTRIES = 262_144;

/**
 * Checks a tape batch the isolate sent: a dense array of [kind, event, time]
 * triples — kind 0 (a call answered) or 1 (a timer fired), the event's
 * number a positive safe integer, its time a non-negative safe integer —
 * of at most `room` entries. The length is checked before any element is
 * read, so a sparse array of any length costs nothing.
 *
 * @returns null when it is fine, else why not (for the run's failure message).
 */
export function checkTape(entries: unknown, room: number): string | null {
  if (!Array.isArray(entries) || entries.length % 3 !== 0) return "a replay tape batch that is not whole [kind, event, time] triples";
  if (entries.length / 3 > room) return `more than MAX_TAPE_ENTRIES (${MAX_TAPE_ENTRIES}) events (host-call answers and timer firings) for its replay tape`;
  for (let i = 0; i < entries.length; i += 3) {
    const kind: unknown = entries[i], n: unknown = entries[i + 1], t: unknown = entries[i + 2];
    if ((kind !== 0 && kind !== 1) || !Number.isSafeInteger(n) || (n as number) < 1 || !Number.isSafeInteger(t) || (t as number) < 0) {
      return "a replay tape batch that is not whole [kind, event, time] triples";
    }
  }
  return null;
}

/**
 * The most bytes one journaled host call's arguments or answer may take in a
 * replay run (spec 02 §5): 1,572,864 (1.5 MiB) of UTF-8, as journaled (JSON
 * text, bytes inside it as base64; an answer that is bytes, as they are).
 * Each is one SQL value of the run journal, and Durable Object SQLite refuses
 * a value or row past 2 MB; the default `maxCapabilityBytes` (1 MiB) fits
 * with room for JSON escapes and base64; the arguments and the answer are
 * kept in two rows (`__ws_exec_calls`, `__ws_exec_answers`), each under the
 * 2 MB Durable Object SQLite accepts for one row. Past it, a call's arguments refuse
 * the call before it runs and an answer is replaced by an `E2BIG` error
 * (journaled, so a resumed attempt gets the same), both with code `E2BIG`.
 */
export const MAX_JOURNALED_CALL_BYTES = 1_572_864;

/**
 * A call's value as JSON text, bytes included (`Uint8Array` →
 * `{"\u0000bytes": "<base64>"}` at any depth).
 */
export function encodeValue(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v instanceof Uint8Array ? { [BYTES_KEY]: toBase64(v) } : v));
}

/** The value of {@link encodeValue}'s text. */
export function decodeValue(text: string): unknown {
  return JSON.parse(text, (_key, v: unknown) => {
    if (v && typeof v === "object" && !Array.isArray(v)) {
      const keys = Object.keys(v);
      if (keys.length === 1 && keys[0] === BYTES_KEY) return fromBase64((v as Record<string, string>)[BYTES_KEY]!);
    }
    return v;
  });
}

const REFUSAL_PREFIX = "\u0000refused ";

/**
 * What a replay run journals as the arguments of a call it refused for a
 * reason that depends on timing (`maxConcurrentCapabilityCalls`): not the
 * arguments (up to `maxCapabilityBytes` each) but a fingerprint of their
 * encoded text (`encoded`, see {@link encodeValue}) — its length and a
 * 53-bit hash — enough for the divergence check of a resumed attempt.
 * Never equal to an encoded argument list (those start with `[`).
 */
export function refusalArgs(encoded: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < encoded.length; i++) {
    const c = encoded.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const hash = 4294967296 * (2097151 & h2) + (h1 >>> 0);
  return `${REFUSAL_PREFIX}${encoded.length} ${hash.toString(16)}`;
}

/** True when journaled `args` are a refusal's fingerprint ({@link refusalArgs}). */
export function isRefusalArgs(args: string): boolean {
  return args.startsWith(REFUSAL_PREFIX);
}

/**
 * How long (ms) journal writes of calls and tape may be held before they are
 * written, in one transaction. A Durable Object holds every outgoing message
 * (here: the answer to the isolate) until the writes before it are durable,
 * so a write per call would cost a storage flush per call (7.7× a run's
 * time in the bench); held writes cost one flush per interval. A restart
 * loses at most the last interval's records: those calls count as in flight
 * and run again (spec 02 §5), except calls of `unsafeToRepeat` and
 * `journalStartAtOnce` functions, the node:fs calls of `fsRunsAtMostOnce`
 * (bridge.ts) and waits, which are written before they go on.
 */
export const JOURNAL_FLUSH_MS = 50;

/** SQL access to the durable state of one backend's runs. */
export class DurableJournal {
  readonly #db: WorkspaceDatabase;
  readonly #backend: string;
  /** Writes held for the next flush: statement and bindings, in order. */
  #held: [string, unknown[]][] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** Holds a write for the next flush (at most {@link JOURNAL_FLUSH_MS} away). */
  #defer(query: string, ...bindings: unknown[]): void {
    this.#held.push([query, bindings]);
    this.#timer ??= setTimeout(() => this.flush(), JOURNAL_FLUSH_MS);
  }

  /** Writes the held writes now, in one transaction. */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#held.length === 0) return;
    const held = this.#held;
    this.#held = [];
    this.#db.tx(() => {
      for (const [query, bindings] of held) this.#db.run(query, ...bindings);
    });
  }

  constructor(db: WorkspaceDatabase, backend: string) {
    this.#db = db;
    this.#backend = backend;
    db.run(
      `CREATE TABLE IF NOT EXISTS __ws_exec_durable (
        backend TEXT NOT NULL, id TEXT NOT NULL, policy TEXT NOT NULL, spec TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 1, progress INTEGER NOT NULL DEFAULT 0, waited_ms INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (backend, id))`,
    );
    // Tables of REPLAY_VERSION 1 have the answer columns too (left NULL now: a run of that version does not resume).
    db.run(
      `CREATE TABLE IF NOT EXISTS __ws_exec_calls (
        backend TEXT NOT NULL, id TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL, target TEXT NOT NULL,
        name TEXT NOT NULL, args TEXT NOT NULL, state TEXT NOT NULL, unsafe INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (backend, id, seq))`,
    );
    db.run(
      `CREATE TABLE IF NOT EXISTS __ws_exec_answers (
        backend TEXT NOT NULL, id TEXT NOT NULL, seq INTEGER NOT NULL,
        ok INTEGER, value TEXT, bytes BLOB, payload TEXT, since INTEGER, answer TEXT,
        PRIMARY KEY (backend, id, seq))`,
    );
    db.run(
      `CREATE TABLE IF NOT EXISTS __ws_exec_tape (
        backend TEXT NOT NULL, id TEXT NOT NULL, n INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (backend, id, n))`,
    );
    db.run(
      `CREATE TABLE IF NOT EXISTS __ws_exec_spec (
        backend TEXT NOT NULL, id TEXT NOT NULL, n INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (backend, id, n))`,
    );
  }

  /** Saves a durable run's start (in the caller's transaction with the run's record). */
  start(id: string, policy: "restart" | "replay", spec: DurableSpec): void {
    const json = JSON.stringify(spec);
    const inParts = json.length > SPEC_PART_CHARS;
    this.#db.run("DELETE FROM __ws_exec_spec WHERE backend = ? AND id = ?", this.#backend, id);
    this.#db.run(
      "INSERT OR REPLACE INTO __ws_exec_durable (backend, id, policy, spec, attempts, progress, waited_ms) VALUES (?, ?, ?, ?, 1, 0, 0)",
      this.#backend,
      id,
      policy,
      inParts ? SPEC_IN_PARTS : json,
    );
    if (!inParts) return;
    for (let at = 0, n = 1; at < json.length; n++) {
      let end = Math.min(json.length, at + SPEC_PART_CHARS);
      // Never between the two halves of a character (a lone half would not survive as SQL text).
      if (end < json.length && (json.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
      this.#db.run("INSERT INTO __ws_exec_spec (backend, id, n, data) VALUES (?, ?, ?, ?)", this.#backend, id, n, json.slice(at, end));
      at = end;
    }
  }

  get(id: string): DurableRecord | undefined {
    this.flush();
    const row = this.#db.one<{ policy: string; spec: string; attempts: number; progress: number; waited_ms: number }>(
      "SELECT policy, spec, attempts, progress, waited_ms FROM __ws_exec_durable WHERE backend = ? AND id = ?",
      this.#backend,
      id,
    );
    if (!row) return undefined;
    return {
      policy: row.policy === "replay" ? "replay" : "restart",
      spec: JSON.parse(row.spec === SPEC_IN_PARTS ? this.#specParts(id) : row.spec) as DurableSpec,
      attempts: row.attempts,
      progress: row.progress,
      waitedMs: row.waited_ms,
    };
  }

  /** The JSON of run `id`'s start kept in parts, joined. */
  #specParts(id: string): string {
    return this.#db
      .all<{ data: string }>("SELECT data FROM __ws_exec_spec WHERE backend = ? AND id = ? ORDER BY n", this.#backend, id)
      .map((r) => r.data)
      .join("");
  }

  /** Records a new attempt: `attempts` launches without progress, measured against `progress` calls. */
  attempt(id: string, attempts: number, progress: number): void {
    this.#db.run("UPDATE __ws_exec_durable SET attempts = ?, progress = ? WHERE backend = ? AND id = ?", attempts, progress, this.#backend, id);
  }

  /** Adds `ms` to the time the run spent waiting for answers. */
  waited(id: string, ms: number): void {
    this.#db.run("UPDATE __ws_exec_durable SET waited_ms = waited_ms + ? WHERE backend = ? AND id = ?", Math.max(0, Math.round(ms)), this.#backend, id);
  }

  /** Deletes everything kept for run `id` (it ended). */
  delete(id: string): void {
    this.flush();
    this.#db.tx(() => {
      this.#db.run("DELETE FROM __ws_exec_durable WHERE backend = ? AND id = ?", this.#backend, id);
      this.#db.run("DELETE FROM __ws_exec_calls WHERE backend = ? AND id = ?", this.#backend, id);
      this.#db.run("DELETE FROM __ws_exec_answers WHERE backend = ? AND id = ?", this.#backend, id);
      this.#db.run("DELETE FROM __ws_exec_tape WHERE backend = ? AND id = ?", this.#backend, id);
      this.#db.run("DELETE FROM __ws_exec_spec WHERE backend = ? AND id = ?", this.#backend, id);
    });
  }

  /** Number of calls journaled for run `id`. */
  callCount(id: string): number {
    this.flush();
    return this.#db.one<{ n: number }>("SELECT count(*) AS n FROM __ws_exec_calls WHERE backend = ? AND id = ?", this.#backend, id)?.n ?? 0;
  }

  /** The highest call number journaled for run `id` (0: none). */
  lastCall(id: string): number {
    this.flush();
    return this.#db.one<{ n: number | null }>("SELECT max(seq) AS n FROM __ws_exec_calls WHERE backend = ? AND id = ?", this.#backend, id)?.n ?? 0;
  }

  /** Call `seq` of run `id`, or undefined when it was never journaled. */
  call(id: string, seq: number): JournaledCall | undefined {
    this.flush();
    const row = this.#db.one<{ seq: number; kind: string; target: string; name: string; args: string; state: string; unsafe: number }>(
      "SELECT seq, kind, target, name, args, state, unsafe FROM __ws_exec_calls WHERE backend = ? AND id = ? AND seq = ?",
      this.#backend,
      id,
      seq,
    );
    if (!row) return undefined;
    return { ...row, state: row.state as JournaledCall["state"], unsafe: row.unsafe === 1 };
  }

  /** The answer of a call in state `done`: `{ ok, value }` (value decoded). */
  answer(id: string, seq: number): { ok: boolean; value: unknown } | undefined {
    this.flush();
    const row = this.#db.one<{ ok: number; value: string | null; bytes: unknown }>(
      `SELECT a.ok, a.value, a.bytes FROM __ws_exec_calls c JOIN __ws_exec_answers a ON a.backend = c.backend AND a.id = c.id AND a.seq = c.seq
        WHERE c.backend = ? AND c.id = ? AND c.seq = ? AND c.state = 'done'`,
      this.#backend,
      id,
      seq,
    );
    if (!row) return undefined;
    if (row.bytes !== null && row.bytes !== undefined) return { ok: true, value: toBytes(row.bytes) };
    return { ok: row.ok === 1, value: row.value === null ? null : decodeValue(row.value) };
  }

  /**
   * Journals call `seq` as started (before it runs): held for the next
   * flush, except when `atOnce` (an `unsafeToRepeat` function's call, or one
   * marked `journalStartAtOnce`), written at once.
   */
  started(id: string, call: Omit<JournaledCall, "state">, atOnce = call.unsafe): void {
    if (atOnce) this.flush();
    this.#putCall(atOnce, id, call, "started", call.unsafe, null, null);
  }

  /**
   * Journals call `seq` as refused, answered with `error` (it did not run):
   * `call.args` is the fingerprint of its arguments ({@link refusalArgs}).
   * Held for the next flush.
   */
  refused(id: string, call: Omit<JournaledCall, "state" | "unsafe">, error: unknown): void {
    this.#putCall(false, id, call, "done", false, 0, encodeValue(error));
  }

  /**
   * Writes (at once) or defers the rows of call `call.seq` of run `id`: its
   * `__ws_exec_calls` row, and its `__ws_exec_answers` row (the answer when
   * `ok` is 0, none otherwise).
   */
  #putCall(
    atOnce: boolean,
    id: string,
    call: Omit<JournaledCall, "state" | "unsafe">,
    state: "started" | "done",
    unsafe: boolean,
    ok: 0 | null,
    value: string | null,
  ): void {
    const writes: [string, unknown[]][] = [
      [
        "INSERT OR REPLACE INTO __ws_exec_calls (backend, id, seq, kind, target, name, args, state, unsafe) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [this.#backend, id, call.seq, call.kind, call.target, call.name, call.args, state, unsafe ? 1 : 0],
      ],
      ok === null
        ? ["DELETE FROM __ws_exec_answers WHERE backend = ? AND id = ? AND seq = ?", [this.#backend, id, call.seq]]
        : ["INSERT OR REPLACE INTO __ws_exec_answers (backend, id, seq, ok, value) VALUES (?, ?, ?, ?, ?)", [this.#backend, id, call.seq, ok, value]],
    ];
    if (atOnce) this.#db.tx(() => writes.forEach(([q, b]) => this.#db.run(q, ...b)));
    else for (const [q, b] of writes) this.#defer(q, ...b);
  }

  /**
   * Journals call `seq`'s answer (`ok` false: `value` is the error data); a
   * wait it had is over. Held for the next flush. `encoded`: the answer's
   * {@link encodeValue} text when the caller has it already (not for bytes).
   */
  done(id: string, seq: number, ok: boolean, value: unknown, encoded?: string): void {
    const bytes = ok && value instanceof Uint8Array ? value : null;
    this.#defer("UPDATE __ws_exec_calls SET state = 'done' WHERE backend = ? AND id = ? AND seq = ?", this.#backend, id, seq);
    // The answer replaces the wait; only for a journaled call (as the update).
    this.#defer(
      `INSERT OR REPLACE INTO __ws_exec_answers (backend, id, seq, ok, value, bytes)
        SELECT backend, id, seq, ?, ?, ? FROM __ws_exec_calls WHERE backend = ? AND id = ? AND seq = ?`,
      ok ? 1 : 0,
      bytes ? null : (encoded ?? encodeValue(value ?? null)),
      bytes,
      this.#backend,
      id,
      seq,
    );
  }

  /** Records that call `seq` waits for an answer to `payload` (JSON text) since `since` (ms); written at once. */
  wait(id: string, seq: number, payload: string, since: number): void {
    this.flush();
    this.#db.tx(() => {
      this.#db.run("UPDATE __ws_exec_calls SET state = 'waiting' WHERE backend = ? AND id = ? AND seq = ?", this.#backend, id, seq);
      this.#db.run(
        `INSERT OR REPLACE INTO __ws_exec_answers (backend, id, seq, payload, since)
          SELECT backend, id, seq, ?, ? FROM __ws_exec_calls WHERE backend = ? AND id = ? AND seq = ?`,
        payload,
        since,
        this.#backend,
        id,
        seq,
      );
    });
  }

  /** Records the answer (JSON text) of waiting call `seq`; false when it is not waiting or already answered. */
  respond(id: string, seq: number, answer: string): boolean {
    this.flush();
    return this.#db.tx(() => {
      const row = this.#db.one<{ answer: string | null }>(
        `SELECT a.answer FROM __ws_exec_calls c JOIN __ws_exec_answers a ON a.backend = c.backend AND a.id = c.id AND a.seq = c.seq
          WHERE c.backend = ? AND c.id = ? AND c.seq = ? AND c.state = 'waiting'`,
        this.#backend,
        id,
        seq,
      );
      if (!row || row.answer !== null) return false;
      this.#db.run("UPDATE __ws_exec_answers SET answer = ? WHERE backend = ? AND id = ? AND seq = ?", answer, this.#backend, id, seq);
      return true;
    });
  }

  /** The answer (JSON text) of call `seq` of run `id` when it waited and was answered, else null (reads no payload). */
  waitAnswer(id: string, seq: number): string | null {
    this.flush();
    return (
      this.#db.one<{ answer: string | null }>(
        `SELECT a.answer FROM __ws_exec_calls c JOIN __ws_exec_answers a ON a.backend = c.backend AND a.id = c.id AND a.seq = c.seq
          WHERE c.backend = ? AND c.id = ? AND c.seq = ? AND c.state = 'waiting'`,
        this.#backend,
        id,
        seq,
      )?.answer ?? null
    );
  }

  /** Calls of run `id` waiting and not yet answered (reads no payload). */
  unanswered(id: string): number {
    this.flush();
    return (
      this.#db.one<{ n: number }>(
        `SELECT count(*) AS n FROM __ws_exec_calls c JOIN __ws_exec_answers a ON a.backend = c.backend AND a.id = c.id AND a.seq = c.seq
          WHERE c.backend = ? AND c.id = ? AND c.state = 'waiting' AND a.answer IS NULL`,
        this.#backend,
        id,
      )?.n ?? 0
    );
  }

  /** When the oldest wait of run `id` began (ms), or null when none of its calls waits (reads no payload). */
  waitingSince(id: string): number | null {
    this.flush();
    return (
      this.#db.one<{ since: number | null }>(
        `SELECT min(a.since) AS since FROM __ws_exec_calls c JOIN __ws_exec_answers a ON a.backend = c.backend AND a.id = c.id AND a.seq = c.seq
          WHERE c.backend = ? AND c.id = ? AND c.state = 'waiting'`,
        this.#backend,
        id,
      )?.since ?? null
    );
  }

  /**
   * Calls of this backend's runs waiting for an answer (not yet answered),
   * without their payloads: at least the first `first` of them by `since`
   * (every call whose `since` is at most the `first`-th call's, ties
   * included, so that any order that sorts by `since` first can take its
   * first `first` from them); all of them when `first` is undefined.
   */
  unansweredCalls(first?: number): { id: string; seq: number; since: number }[] {
    this.flush();
    const from = `FROM __ws_exec_calls c JOIN __ws_exec_answers a ON a.backend = c.backend AND a.id = c.id AND a.seq = c.seq
      WHERE c.backend = ? AND c.state = 'waiting' AND a.answer IS NULL`;
    if (first === 0) return [];
    let bound = "";
    const args: unknown[] = [this.#backend];
    if (first !== undefined) {
      const cut = this.#db.one<{ since: number }>(`SELECT a.since ${from} ORDER BY a.since LIMIT 1 OFFSET ?`, this.#backend, first - 1);
      if (cut) {
        bound = " AND a.since <= ?";
        args.push(cut.since);
      }
    }
    return this.#db.all<{ id: string; seq: number; since: number }>(`SELECT c.id, c.seq, a.since ${from}${bound} ORDER BY a.since, c.id, c.seq`, ...args);
  }

  /** The payload (JSON text) and `since` of call `seq` of run `id` while it waits unanswered, else undefined. */
  unansweredCall(id: string, seq: number): { payload: string; since: number } | undefined {
    this.flush();
    return this.#db.one<{ payload: string; since: number }>(
      `SELECT a.payload, a.since FROM __ws_exec_calls c JOIN __ws_exec_answers a ON a.backend = c.backend AND a.id = c.id AND a.seq = c.seq
        WHERE c.backend = ? AND c.id = ? AND c.seq = ? AND c.state = 'waiting' AND a.answer IS NULL`,
      this.#backend,
      id,
      seq,
    );
  }

  /**
   * The first call of run `id` still `started` (in flight when it was
   * interrupted) of a function wrapped with `unsafeToRepeat`, by number:
   * its target and name (its arguments are not read); undefined when none.
   */
  unsafeInFlight(id: string): { seq: number; target: string; name: string } | undefined {
    this.flush();
    return this.#db.one<{ seq: number; target: string; name: string }>(
      "SELECT seq, target, name FROM __ws_exec_calls WHERE backend = ? AND id = ? AND state = 'started' AND unsafe = 1 ORDER BY seq LIMIT 1",
      this.#backend,
      id,
    );
  }

  /**
   * Appends tape entries (flat triples) recorded by the isolate; held for the
   * next flush. A batch is stored in rows of at most {@link TAPE_ROW_NUMBERS}
   * numbers (under 1 MB of JSON each: Durable Object SQLite refuses a value
   * past 2 MB, and a run that fires many timers between two calls sends them
   * all in one batch).
   */
  appendTape(id: string, entries: readonly number[]): void {
    for (let at = 0; at < entries.length; at += TAPE_ROW_NUMBERS) {
      this.#defer(
        "INSERT INTO __ws_exec_tape (backend, id, n, data) VALUES (?, ?, COALESCE((SELECT max(n) + 1 FROM __ws_exec_tape WHERE backend = ? AND id = ?), 1), ?)",
        this.#backend,
        id,
        this.#backend,
        id,
        JSON.stringify(entries.slice(at, at + TAPE_ROW_NUMBERS)),
      );
    }
  }

  /** The whole tape of run `id`, flat triples in order. */
  tape(id: string): number[] {
    this.flush();
    const out: number[] = [];
    for (const { data } of this.#db.all<{ data: string }>("SELECT data FROM __ws_exec_tape WHERE backend = ? AND id = ? ORDER BY n", this.#backend, id)) {
      for (const v of JSON.parse(data) as number[]) out.push(v);
    }
    return out;
  }
}
