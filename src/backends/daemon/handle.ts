/**
 * A {@link BackendHandle} over a `computerd` session (container/README.md):
 * `rpc.shell` runs commands through the daemon's `exec`/`events`/`kill`/
 * `dispose`, `rpc.sync` is its `info`/`scan`/`read`/`apply` (the sync of
 * spec 02 §7.3, `runtime/sync.ts`). Shared by `TestBackend` (a daemon at a
 * URL) and the container backend.
 *
 * @module
 */
import { checkBootId, remoteCode, SYNC_ROOT, wirePath, type SyncRPC } from "../../runtime/sync.js";
import type { BackendHandle, ExecEvent, KillSignal, ShellRPC } from "../../runtime/types.js";
import { checkKillSignal, WorkspaceRuntimeError } from "../../runtime/errors.js";
import { StdioBudget } from "../worker-javascript/stdio.js";
import { headCut } from "../../util/cut.js";

/**
 * `exec`'s `env` as sent to the daemon: the object itself, or — when a name is one capnweb drops from an object it
 * passes (a member of `Object.prototype` such as `constructor`, `toString`, `valueOf`, `hasOwnProperty`, or
 * `__proto__`, `toJSON`) — its own enumerable entries as `[name, value]` pairs, which the daemon takes as well; so
 * every variable reaches the command. (A daemon image from before pairs refuses them `EINVAL`: such a name is
 * refused there, never dropped.)
 */
function wireEnv(env: Record<string, string>): Record<string, string> | [string, string][] {
  const entries = Object.entries(env);
  return entries.some(([name]) => name in Object.prototype || name === "toJSON" || name === "__proto__") ? entries : env;
}

/** One event of a daemon run (`events`). */
type DaemonEvent = { seq: number; name: "stdout" | "stderr"; data: Uint8Array } | { seq: number; name: "exit"; code: number; signal?: string; timedOut?: true };

/** The daemon's RPC surface this library calls (`Computerd` in container/lib/api.mjs). */
export interface DaemonApi extends SyncRPC {
  exec(input: { id: string; command: string; cwd?: string; env?: Record<string, string> | [string, string][]; stdin?: Uint8Array; timeoutMs?: number }): Promise<{ id: string; pid?: number }>;
  events(input: { id: string; after?: number; waitMs?: number; ack?: boolean }): Promise<{ events: DaemonEvent[]; done: boolean }>;
  kill(input: { id: string; signal?: string | number }): Promise<{ killed: boolean }>;
  dispose(input: { id: string }): Promise<{ disposed: true }>;
}

/**
 * Bytes of each output stream (stdout, stderr apart) of one run on a remote
 * command backend (a container: `ContainerBackend`, `LegacyContainerBackend`,
 * `TestBackend`) that reach the caller and the saved output file: 64 MiB
 * (67108864), the JavaScript backend's default `maxStdioBytes`. The rest of a
 * stream is still read from the daemon (the command is never blocked by it)
 * and counted, not kept: before `exit` the stream gets the marker line
 * `[stdout truncated: MAX_REMOTE_OUTPUT_BYTES (67108864 bytes) reached; <n>
 * bytes dropped]`. Counted from where a handle's replay starts
 * (`getExec` with `resume` replays count afresh). Write large output to a
 * Workspace file instead (`cmd > /workspace/out.log`).
 */
export const MAX_REMOTE_OUTPUT_BYTES = 64 * 1024 * 1024;

/**
 * How long the host waits for a container's daemon to end a run itself
 * (ms) — after the run's `timeoutMs`, or after `killExec` — before it ends
 * the run on its own: 7000, the daemon's default SIGTERM → SIGKILL grace
 * (`COMPUTERD_KILL_GRACE_MS`, 5 s), its wait for the pipes to close and a
 * margin for the round trip. Past that deadline the run's stream still
 * takes what the daemon has already (a reader late to the run loses
 * nothing), then — once the daemon answers with nothing more (no events
 * without `done`, or output events without bytes), or another 7000 ms have
 * passed on the wall clock since the stream found the deadline passed (or
 * since the daemon last reported the run's exit recorded) and the daemon,
 * asked then (an `events` look past every seq, `ack: false`, answered
 * within another 7000 ms), does not report the run done — ends
 * with exit 137 (`cancelled`) after the stderr line `[run "<id>": the container did not end it within 7000
 * ms of its timeout (<n> ms); the host ended it (exit 137), asked the
 * container to SIGKILL it, and ignores its later output]` (`… within 7000
 * ms of killExec; …` after a kill). The daemon is asked to SIGKILL the run,
 * and what it sends later for the run is dropped (a replay ends at the same
 * event). `killExec` settles on the daemon's answer, or within this grace.
 * A daemon that ends runs as it should never meets it: a run whose exit the
 * daemon has recorded (it answers `done: true` to that look; container/lib/runs.mjs
 * marks a run not live and appends its `exit` at once) is not cut while it
 * says so, so a reader slower than the run's output — after an exit 0, a
 * non-zero exit, or a `killExec` that came after the exit — reads every
 * event to the daemon's own exit (issue 20, run 34, fixer CS). Kept per connection
 * (a reattach on a new connection has no deadline until `killExec`, and a
 * `killExec` there — before or after the reattach — sets one); a run
 * without `timeoutMs` has only the daemon's own timeout
 * (`COMPUTERD_TIMEOUT_MS`) until killed.
 */
export const REMOTE_STOP_GRACE_MS = 7_000;

/**
 * How long one sync call to a container's daemon — `info`, `scan` (a page
 * of the walk) or `read` (a piece of up to 1 MiB) — may take (ms): 10000.
 * A call still unanswered then fails with `ETIMEDOUT: the container's
 * daemon did not answer <call> within 10000 ms (REMOTE_SYNC_CALL_TIMEOUT_MS)
 * …`, as a lost connection would fail it: a pull is left pending with that
 * reason (the run's result keeps its exit code, `sync.status: "pending"`;
 * `workspace.pull()` or the next command walks again) and the backend's
 * sync lock is released, so the next command runs. A daemon answers these
 * in well under a second; one that does not is stuck on a file system that
 * hangs (a stalled mount) or was taken over by a command. The connection is
 * kept (its heartbeat is `info`), and the daemon may still answer the call
 * later: that answer is dropped.
 */
export const REMOTE_SYNC_CALL_TIMEOUT_MS = 10_000;

/**
 * How long one `apply` call to a container's daemon may take (ms): 120000.
 * A batch holds up to 2,000 ops — writes of 4 MiB in all, or removals of
 * whole directories, which take the daemon longer — so it gets more time
 * than {@link REMOTE_SYNC_CALL_TIMEOUT_MS}; past it the call fails the same
 * way (`ETIMEDOUT: … did not answer apply within 120000 ms
 * (REMOTE_SYNC_APPLY_TIMEOUT_MS) …`): a push fails as on a lost connection
 * (nothing after the last answered batch is recorded as pushed, the next
 * push sends it again) and the command is not sent.
 */
export const REMOTE_SYNC_APPLY_TIMEOUT_MS = 120_000;

/**
 * How long one command call to a container's daemon may take (ms): 20000 —
 * `exec` (its request up to 30 MiB, with a stdin of up to 20 MiB), `dispose`
 * (`disposeExec`), and the `events` calls of `getExec` that do not wait (the
 * check that the run exists, the search for the tail). A call still
 * unanswered then fails with `ETIMEDOUT: the container's daemon did not
 * answer <call> within 20000 ms (REMOTE_EXEC_CALL_TIMEOUT_MS) …`, as a lost
 * connection would fail it; for `exec` the error adds that the command may
 * have started (check with `getExec`), and the backend's sync lock is
 * released with the pull left pending, so the next command and push run. A
 * daemon answers these in well under a second; one that does not was taken
 * over by a command or is wedged. The connection is kept; a late answer is
 * dropped.
 */
export const REMOTE_EXEC_CALL_TIMEOUT_MS = 20_000;

/** `answer`, or a rejection `ETIMEDOUT` once `ms` pass first (`after`: what the failure means for the caller). */
async function answeredWithin<T>(answer: Promise<T>, call: string, ms: number, limit: string, after = "the push or pull it was part of did not finish (workspace.pull() or the next command tries again)"): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          Object.assign(
            new Error(`ETIMEDOUT: the container's daemon did not answer ${call} within ${ms} ms (${limit}): a file system in the container may hang, or a command took the daemon over; ${after}`),
            { code: "ETIMEDOUT" },
          ),
        ),
      ms,
    );
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A command call (`exec`, `dispose`, a `getExec` `events` call that does not wait), translated and bounded by {@link REMOTE_EXEC_CALL_TIMEOUT_MS}. */
function commandCall<T>(fn: () => Promise<T>, name: string, after: string): Promise<T> {
  return answeredWithin(call(fn), name, REMOTE_EXEC_CALL_TIMEOUT_MS, "REMOTE_EXEC_CALL_TIMEOUT_MS", after);
}

/**
 * `api`'s sync calls, each bounded in time: `info`, `scan` and `read` by
 * {@link REMOTE_SYNC_CALL_TIMEOUT_MS}, `apply` by
 * {@link REMOTE_SYNC_APPLY_TIMEOUT_MS}.
 */
export function boundedSync(api: SyncRPC): SyncRPC {
  const call = "REMOTE_SYNC_CALL_TIMEOUT_MS";
  return {
    info: () => answeredWithin(Promise.resolve().then(() => api.info()), "info", REMOTE_SYNC_CALL_TIMEOUT_MS, call),
    scan: (input) => answeredWithin(Promise.resolve().then(() => api.scan(input)), "scan", REMOTE_SYNC_CALL_TIMEOUT_MS, call),
    read: (input) => answeredWithin(Promise.resolve().then(() => api.read(input)), "read", REMOTE_SYNC_CALL_TIMEOUT_MS, call),
    apply: (input) => answeredWithin(Promise.resolve().then(() => api.apply(input)), "apply", REMOTE_SYNC_APPLY_TIMEOUT_MS, "REMOTE_SYNC_APPLY_TIMEOUT_MS"),
  };
}

/** How long one `events` call may wait for the next event (ms). */
const EVENTS_WAIT_MS = 20_000;

/**
 * Largest output event (bytes) a run's stream on a remote command backend
 * passes on: 1 MiB (1048576), what the real daemon sends in one `events`
 * answer. A longer event the daemon sends is passed on in pieces of this
 * size (the last one may be shorter), so each event line over RPC stays well
 * within `MAX_EVENT_LINE_BYTES`. The pieces of an event with seq `s` cut in
 * `n` have seqs `s - 1 + k / n` (k = 1…n: the last keeps `s`); `getExec`
 * with `resume` set to such a seq replays the pieces after it.
 */
export const REMOTE_OUTPUT_PIECE_BYTES = 1024 * 1024;

/**
 * Empty `events` answers in a row (no events, or only output events that
 * carry no bytes after the stream's `after`), each back before half the `waitMs` it
 * was asked with (the real daemon holds an empty answer until an event
 * comes or `waitMs` passes), that a run's stream takes before it paces
 * itself: 3. Past them it waits out the rest of each such call's `waitMs`
 * (up to 20 s; less near the run's host deadline, and not past a
 * `killExec`) before asking again, so a daemon answering nothing at once is
 * called about once per `waitMs`, not as fast as it answers.
 */
export const REMOTE_EARLY_EMPTY_ANSWERS = 3;

/**
 * Runs whose host deadline a daemon shell remembers at most: past it the
 * oldest one no open stream reads is forgotten (a watch a stream reads is
 * never forgotten, so a `killExec` always reaches the stream).
 */
const MAX_WATCHED_RUNS = 10_000;

/** The exit code the host gives a run it ended itself (128 + SIGKILL), as the daemon's own kill would. */
const HOST_STOP_CODE = 137;

/** A run's host-side deadline on one daemon session. */
interface RunWatch {
  /** Epoch ms past which the host ends the run itself; absent: none (the daemon's own timeout only). */
  deadline?: number;
  /** What set the deadline: `timeoutMs` (its value) or a `killExec`. */
  reason?: { timeoutMs: number } | "kill";
  /** Set once the host ended the run: its note line, and the seq of the last event it took (later ones are dropped). */
  ended?: { note: string; seq: number };
  /** Set once a stream of the run got the daemon's `exit`: no deadline applies any more. */
  exited?: boolean;
  /** Streams waiting on the daemon: woken when the deadline moves or the run ends. */
  wake: Set<() => void>;
  /**
   * Set once the run is gone from the daemon for this connection's streams: a later `exec` on this connection
   * started a new run of the same id (`"exec"`), or `disposeExec` disposed of it (`"dispose"`). The run's
   * streams fail `ELOG_TRUNCATED` (whatever the daemon answers for the id now may be another run's).
   */
  replaced?: "exec" | "dispose";
  /**
   * Streams of the run open now (not ended, errored or cancelled), oldest first: a watch with any is never
   * forgotten. Only the oldest acknowledges what it read to the daemon; the others call `events` with
   * `ack: false`, so the daemon keeps (and flow control holds for) what the oldest has not read.
   */
  readers: Set<object>;
  /** Resolves when a stream of the run has ended (by the daemon's exit or by the host). */
  done: Promise<void>;
  settle: () => void;
}

/**
 * Translates a daemon error into the runtime's codes where one applies (`ENOENT`, `EEXEC_BUSY`, `EINVAL`,
 * `ELOG_TRUNCATED`). An `ELOG_TRUNCATED` keeps the daemon's `firstSeq` (the oldest seq it still keeps) as a
 * property when the daemon's error carries it, or its message names it (`… oldest kept seq is <n>)`).
 */
function translate(error: unknown): unknown {
  const code = remoteCode(error);
  const message = error instanceof Error ? error.message : String(error);
  if (code === "ENOENT" || code === "EEXEC_BUSY" || code === "EINVAL" || code === "ELOG_TRUNCATED") {
    const translated = new WorkspaceRuntimeError(code as never, message.replace(/^[A-Z_]+: /, ""));
    const firstSeq = code === "ELOG_TRUNCATED" ? oldestKeptSeq(error, message) : undefined;
    return firstSeq === undefined ? translated : Object.assign(translated, { firstSeq });
  }
  return error;
}

/** The oldest seq the daemon still keeps, from its `ELOG_TRUNCATED` (its `firstSeq`, else its message), when a safe integer ≥ 1. */
function oldestKeptSeq(error: unknown, message: string): number | undefined {
  const property = (error as { firstSeq?: unknown } | null)?.firstSeq;
  const seq = typeof property === "number" ? property : Number(/oldest kept seq is (\d{1,16})\)/.exec(message)?.[1]);
  return Number.isSafeInteger(seq) && seq >= 1 ? seq : undefined;
}

async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw translate(error);
  }
}

/** The daemon's cwd (relative to its mount point) for a Workspace cwd. */
function daemonCwd(cwd: string | undefined): string | undefined {
  if (cwd === undefined) return undefined;
  if (!cwd.startsWith("/")) return cwd;
  // Lexically, like the daemon: "/workspace/../etc" is "/etc", outside.
  const parts: string[] = [];
  for (const part of cwd.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  const wire = wirePath(`/${parts.join("/")}`);
  if (wire === null) {
    throw new WorkspaceRuntimeError("EINVAL", `exec: cwd ${JSON.stringify(cwd)} is outside ${SYNC_ROOT}, the directory the container shares with the Workspace`);
  }
  return wire;
}

/**
 * The daemon's `timeoutMs` (a whole number of ms) for a command's: any non-negative number, as the JavaScript and
 * shell backends take, rounded up (Node's `spawn` timeout takes integers only, and the daemon refused a fraction).
 * @throws WorkspaceRuntimeError `EINVAL` for a value that is not a finite non-negative number (NaN, Infinity, -1,
 *   a string), before anything reaches the container (issue 20, run 40, fixer f40ct).
 */
function daemonTimeout(timeoutMs: unknown): number {
  if (typeof timeoutMs !== "number" || !Number.isFinite(timeoutMs) || timeoutMs < 0) {
    const got = typeof timeoutMs === "number" ? String(timeoutMs) : typeof timeoutMs === "string" ? JSON.stringify(headCut(timeoutMs, 64)) : typeof timeoutMs;
    throw new WorkspaceRuntimeError("EINVAL", `exec: timeoutMs must be a non-negative number of milliseconds (got ${got})`);
  }
  return Math.ceil(timeoutMs);
}

const encoder = new TextEncoder();

/** A value the daemon sent, for a message: at most 40 characters of a string, never the whole of a big value. */
function describe(value: unknown): string {
  if (typeof value === "string") return value.length > 40 ? `${JSON.stringify(headCut(value, 40))}… (a string of ${value.length} characters)` : JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint" || value === null || value === undefined) return String(value);
  return Array.isArray(value) ? "an array" : `a value of type ${typeof value}`;
}

/** A run's exit code when the daemon's is valid (an integer 0–255), else `undefined`. */
function exitCode(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 255 ? value : undefined;
}

/**
 * Resolves with the call's answer, or `"deadline"` when `until` (epoch ms)
 * passes or `watch` is woken (its deadline moved, or the host ended the run) first.
 */
async function untilDeadline<T>(promise: Promise<T>, watch: RunWatch | undefined, until: number | undefined): Promise<{ answer: T } | "deadline"> {
  if (watch === undefined) return { answer: await promise };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wake: (() => void) | undefined;
  const deadline = new Promise<"deadline">((resolve) => {
    wake = () => resolve("deadline");
    watch.wake.add(wake);
    if (until !== undefined) timer = setTimeout(wake, Math.max(0, until - Date.now()));
  });
  try {
    return await Promise.race([promise.then((answer) => ({ answer })), deadline]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    watch.wake.delete(wake!);
  }
}

/**
 * A run's events from `after` as a stream: long-polls the daemon, closes
 * after `exit`. Each output stream is cut at {@link MAX_REMOTE_OUTPUT_BYTES}
 * (the rest read and counted), with the marker line before `exit`; an output
 * event longer than {@link REMOTE_OUTPUT_PIECE_BYTES} is passed on in pieces
 * (`after` may be a piece's seq). An exit code that is not an integer 0–255,
 * or an answer `done: true` without the exit, ends the run with exit 1 and a
 * stderr line naming it — but for a resume (`after` > 0) whose first answer
 * is an empty `done: true` (the daemon's answer for `after` at or past the
 * run's exit), the stream ends with no events. Past {@link REMOTE_EARLY_EMPTY_ANSWERS} empty
 * answers in a row back early, each next call waits out the last one's
 * `waitMs` first.
 *
 * Past `watch`'s deadline (see {@link REMOTE_STOP_GRACE_MS}) the stream
 * still takes what the daemon has now (calls without waiting, a reader late
 * to the run loses nothing), and the host ends the run itself (exit 137)
 * once the daemon has nothing more (an empty answer without `done`), or
 * another {@link REMOTE_STOP_GRACE_MS} have passed (wall clock) since the
 * stream found the deadline passed and the daemon does not report the run's
 * exit recorded (an `events` look past every seq, `ack: false`, answered
 * `done: true`); when it does, the stream reads on, asking again each
 * {@link REMOTE_STOP_GRACE_MS}, to the daemon's `exit`. A run the host ended ends
 * the same way in every stream, at the same event: what the daemon sends
 * after it is dropped.
 *
 * The stream errors with WorkspaceRuntimeError `ELOG_TRUNCATED` (`run
 * "<id>": a later exec started a new run with this id …`) once an `exec` of
 * the same id on this connection replaced the run (`watch.replaced`), or
 * (`run "<id>": disposeExec disposed of the run …`) once `disposeExec` on
 * this connection disposed of it.
 */
function eventStream(api: DaemonApi, id: string, after: number, watch: RunWatch | undefined): ReadableStream<ExecEvent> {
  /** The daemon's seq read up to (an integer: a piece's seq `after` asks the daemon from its whole event). */
  let last = Math.floor(after);
  let cancelled = false;
  /** Empty answers in a row that came back before half their `waitMs`. */
  let early = 0;
  /** Ends a {@link pause} at once (the stream was cancelled). */
  let wakePause: (() => void) | undefined;
  /** Waits until `until` (epoch ms), or until `watch` is woken or the stream cancelled. */
  const pause = (until: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        watch?.wake.delete(done);
        wakePause = undefined;
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, until - Date.now()));
      watch?.wake.add(done);
      wakePause = done;
    });
  let stderrLast = 10;
  /** When (epoch ms) this stream found the deadline passed: the host ends the run {@link REMOTE_STOP_GRACE_MS} after it, on the wall clock. */
  let pastSince: number | undefined;
  const budget = new StdioBudget(MAX_REMOTE_OUTPUT_BYTES, { reserve: 0, limit: "MAX_REMOTE_OUTPUT_BYTES" });
  /** This stream among `watch.readers`. */
  const reader = {};
  watch?.readers.add(reader);
  /** The stream no longer reads the run (ended, errored or cancelled). */
  const release = () => void watch?.readers.delete(reader);
  /** Whether this stream's `events` calls acknowledge: it is the run's oldest open stream on this connection. */
  const acks = () => watch === undefined || watch.readers.values().next().value === reader;
  /**
   * Ends the stream: the markers, `note` on stderr (its own line), then exit `code` — all before the next whole seq;
   * those at or before `after` (a resume past them: the reader has them) are not sent again.
   */
  const end = (controller: ReadableStreamDefaultController<ExecEvent>, code: number, note: string | undefined, exitSeq: number) => {
    let seq = last;
    const step = () => (seq += (exitSeq - seq) / 4);
    for (const marker of budget.markers()) {
      if (step() > after) controller.enqueue({ id, seq, name: marker.stream, value: encoder.encode(marker.text) });
      if (marker.stream === "stderr") stderrLast = 10;
    }
    if (note !== undefined && step() > after) controller.enqueue({ id, seq, name: "stderr", value: encoder.encode(`${stderrLast === 10 ? "" : "\n"}${note}\n`) });
    if (exitSeq > after) controller.enqueue({ id, seq: exitSeq, name: "exit", code });
    controller.close();
    release();
    watch?.settle();
  };
  /** Ends the stream with no more events: a resume at or past the run's exit has nothing after `after`. */
  const closeEmpty = (controller: ReadableStreamDefaultController<ExecEvent>) => {
    if (watch !== undefined && watch.ended === undefined) {
      watch.exited = true;
      watch.deadline = undefined;
    }
    controller.close();
    release();
    watch?.settle();
  };
  /**
   * Whether the daemon has recorded the run's exit, asked without waiting: an `events` look (`ack: false`, so
   * nothing unread is dropped) past every seq (`after: Number.MAX_SAFE_INTEGER`), which the daemon answers
   * `done: true` exactly when the run is no longer live (its `exit` event is then in the log). `false` when the
   * daemon refuses the call or does not answer within {@link REMOTE_STOP_GRACE_MS} (or the watch is woken first).
   * Issue 20, run 34, fixer CS.
   */
  const exitRecorded = async (): Promise<boolean> => {
    const look = call(() => api.events({ id, after: Number.MAX_SAFE_INTEGER, waitMs: 0, ack: false })).then(
      (answer) => (answer as { done?: unknown } | null)?.done === true,
      () => false,
    );
    const answer = await untilDeadline(look, watch, Date.now() + REMOTE_STOP_GRACE_MS);
    return answer !== "deadline" && answer.answer;
  };
  /** The host ends the run (first time: the note, SIGKILL asked of the daemon, once); exit 137 after the last event it took. */
  const endByHost = (controller: ReadableStreamDefaultController<ExecEvent>) => {
    const w = watch!;
    if (w.ended === undefined) {
      const grace = `${REMOTE_STOP_GRACE_MS} ms of ${w.reason === "kill" || w.reason === undefined ? "killExec" : `its timeout (${w.reason.timeoutMs} ms)`}`;
      w.ended = { note: `[run "${id}": the container did not end it within ${grace}; the host ended it (exit ${HOST_STOP_CODE}), asked the container to SIGKILL it, and ignores its later output]`, seq: last };
      for (const wake of [...w.wake]) wake();
      api.kill({ id, signal: "SIGKILL" }).catch(() => {});
    }
    end(controller, HOST_STOP_CODE, w.ended.note, Math.floor(w.ended.seq) + 1);
  };
  return new ReadableStream<ExecEvent>(
    {
      async pull(controller) {
        try {
          await read(controller);
        } catch (error) {
          release();
          throw error;
        }
      },
      cancel() {
        cancelled = true;
        release();
        wakePause?.();
      },
    },
    { highWaterMark: 0 },
  );
  function replaced(): WorkspaceRuntimeError {
    return new WorkspaceRuntimeError(
      "ELOG_TRUNCATED",
      watch?.replaced === "dispose"
        ? `run "${id}": disposeExec disposed of the run; the rest of this run's events are no longer kept`
        : `run "${id}": a later exec started a new run with this id (the container replaced the finished run); the rest of this run's events are no longer kept`,
    );
  }
  /** One pull: reads until it has passed on an event or ended the stream. */
  async function read(controller: ReadableStreamDefaultController<ExecEvent>): Promise<void> {
    for (;;) {
      if (cancelled) return;
      if (watch?.replaced) throw replaced();
      if (watch?.ended !== undefined && last >= watch.ended.seq) return endByHost(controller);
      const deadline = watch?.ended !== undefined ? 0 : watch?.deadline;
      const past = deadline !== undefined && Date.now() >= deadline;
      pastSince = past ? (pastSince ?? Date.now()) : undefined;
      if (pastSince !== undefined && Date.now() - pastSince >= REMOTE_STOP_GRACE_MS) {
        // Cut only a run the daemon has not ended: one whose exit it recorded is read to that exit, however
        // slowly (issue 20, run 34, fixer CS).
        // Asked again each REMOTE_STOP_GRACE_MS: a daemon that stops answering is still cut.
        if (watch!.ended === undefined && (await exitRecorded())) {
          pastSince = Date.now();
          continue;
        }
        if (cancelled) return;
        if (watch?.replaced) throw replaced();
        return endByHost(controller);
      }
      const waitMs = past ? 0 : deadline !== undefined ? Math.min(EVENTS_WAIT_MS, Math.ceil(deadline - Date.now())) : EVENTS_WAIT_MS;
      const asked = Date.now();
      const answer = await untilDeadline(
        call(() => api.events(acks() ? { id, after: last, waitMs } : { id, after: last, waitMs, ack: false })),
        watch,
        pastSince !== undefined ? pastSince + REMOTE_STOP_GRACE_MS : deadline,
      );
      if (cancelled) return;
      if (watch?.replaced) throw replaced(); // the answer may be the new run's
      if (answer === "deadline") continue; // the deadline passed or moved, or the host ended the run: look again
      const events = checkedEvents(id, answer.answer, last);
      // `done` without the run's exit: the daemon has nothing more of it (the real daemon sends `exit` first).
      const done = (answer.answer as { done?: unknown }).done === true;
      const noExit = `[run "${id}": the container's daemon reported the run done without its exit event; the run is reported failed with exit code 1]`;
      if (events.length === 0) {
        // Past the deadline and the daemon has nothing more of a run it has not ended (with `done` it has: below; run 34, fixer CS).
        if (past && !done) return endByHost(controller);
        // A resume at or past a finished run's exit: the daemon has no event after `after` (its documented answer).
        if (done && after > 0 && last === Math.floor(after)) return closeEmpty(controller);
        if (done) return end(controller, 1, noExit, last + 1);
        // Nothing, at once: after a few in a row, wait out the rest of the call's waitMs before asking again.
        if (Date.now() - asked < waitMs / 2) {
          if (++early >= REMOTE_EARLY_EMPTY_ANSWERS) await pause(asked + waitMs);
        } else early = 0;
        continue;
      }
      let delivered = false;
      /** Output bytes of this answer after `after` (kept or cut by the budget): none is an empty answer for the pacing. */
      let got = 0;
      for (const event of events) {
        if (watch?.ended !== undefined && event.seq > watch.ended.seq) return endByHost(controller);
        if (event.name === "exit") {
          const code = exitCode(event.code);
          const note = code === undefined ? `[run "${id}": the container reported exit code ${describe(event.code)}, not an integer 0–255; the run is reported failed with exit code 1]` : undefined;
          if (watch !== undefined) {
            watch.exited = true;
            watch.deadline = undefined;
          }
          return end(controller, code ?? 1, note, event.seq);
        }
        last = event.seq;
        const raw: unknown = event.data;
        const bytes = raw instanceof Uint8Array ? raw : typeof raw === "string" ? encoder.encode(raw) : new Uint8Array(0);
        // In pieces of REMOTE_OUTPUT_PIECE_BYTES, the last keeping the daemon's seq; those at or before `after` were read already.
        const pieces = Math.max(1, Math.ceil(bytes.byteLength / REMOTE_OUTPUT_PIECE_BYTES));
        for (let k = 1; k <= pieces; k++) {
          const seq = k === pieces ? event.seq : event.seq - 1 + k / pieces;
          if (seq <= after) continue;
          got += Math.min(k * REMOTE_OUTPUT_PIECE_BYTES, bytes.byteLength) - (k - 1) * REMOTE_OUTPUT_PIECE_BYTES;
          const data = budget.accept(event.name, bytes.subarray((k - 1) * REMOTE_OUTPUT_PIECE_BYTES, k * REMOTE_OUTPUT_PIECE_BYTES));
          if (data.byteLength === 0) continue;
          if (event.name === "stderr") stderrLast = data[data.byteLength - 1]!;
          controller.enqueue({ id, seq, name: event.name, value: data });
          delivered = true;
        }
      }
      if (done) return end(controller, 1, noExit, last + 1);
      if (got > 0) early = 0;
      if (delivered) return;
      if (got > 0) continue; // output cut by the budget: the daemon is making progress
      // Output events without bytes: nothing, as an empty answer is.
      if (past) return endByHost(controller);
      if (Date.now() - asked < waitMs / 2) {
        if (++early >= REMOTE_EARLY_EMPTY_ANSWERS) await pause(asked + waitMs);
      } else early = 0;
    }
  }
}

/**
 * The events of a daemon's `events` answer, checked: an array of objects
 * whose `seq` is a safe integer above the one before (the first above
 * `after`) and whose `name` is `stdout`, `stderr` or `exit`.
 * @throws WorkspaceRuntimeError `EPROTOCOL` (`run "<id>": the container's
 *   daemon answered …: its daemon misbehaves …`) otherwise.
 */
function checkedEvents(id: string, answer: unknown, after: number): DaemonEvent[] {
  const events = (answer as { events?: unknown } | null)?.events;
  const fail = (what: string) =>
    new WorkspaceRuntimeError("EPROTOCOL", `run "${id}": the container's daemon answered ${what}: its daemon misbehaves (a command may have taken it over); restart the container`);
  if (!Array.isArray(events)) throw fail(`events that are not an array (${describe(events)})`);
  let last = after;
  for (const [i, event] of events.entries()) {
    if (event === null || typeof event !== "object") throw fail(`event ${i} that is not an object (${describe(event)})`);
    const { seq, name } = event as { seq?: unknown; name?: unknown };
    if (typeof seq !== "number" || !Number.isSafeInteger(seq) || seq <= last) throw fail(`event ${i} with seq ${describe(seq)}, not an integer above ${last}`);
    if (name !== "stdout" && name !== "stderr" && name !== "exit") throw fail(`event ${i} named ${describe(name)}, not stdout, stderr or exit`);
    last = seq;
  }
  return events as DaemonEvent[];
}

/**
 * Most `events` calls `getExec` with `after: "tail"` makes to find where a
 * run's log ends now: 64. Each answers up to 1 MiB of events and the daemon
 * keeps at most 8 MiB of a run's log, so only output arriving as fast as it
 * is read gets that far; the tail then starts where the reading got to.
 * The search starts at the run's first event, or — once the daemon dropped
 * the start of the log (its `ELOG_TRUNCATED`) — at the oldest event it
 * keeps (a call of the 64 each time).
 */
export const MAX_TAIL_CALLS = 64;

/**
 * The seq of a run's last event now (for `after: "tail"`), at most
 * {@link MAX_TAIL_CALLS} calls away. A search point the daemon no longer
 * keeps (`ELOG_TRUNCATED` naming the oldest seq it keeps, above it) moves
 * to just before that oldest seq.
 * @throws WorkspaceRuntimeError `EPROTOCOL` when the daemon's events do not
 *   advance (a last seq that is not an integer above the one asked after);
 *   `ELOG_TRUNCATED` when the daemon's refusal names no oldest seq past the
 *   search point.
 */
async function lastSeq(api: DaemonApi, id: string): Promise<number> {
  let after = 0;
  for (let calls = 0; calls < MAX_TAIL_CALLS; calls++) {
    // `ack: false`: a look, not a read — the run's reader keeps what it has not read yet.
    let answer: Awaited<ReturnType<DaemonApi["events"]>>;
    try {
      answer = await commandCall(() => api.events({ id, after, waitMs: 0, ack: false }), "events", `getExec("${id}", { resume: "tail" }) did not reattach`);
    } catch (error) {
      // The daemon dropped the log's start (a long run): search on from the oldest event it keeps.
      const firstSeq = (error as { code?: unknown; firstSeq?: unknown }).code === "ELOG_TRUNCATED" ? (error as { firstSeq?: unknown }).firstSeq : undefined;
      if (typeof firstSeq === "number" && firstSeq - 1 > after) {
        after = firstSeq - 1;
        continue;
      }
      throw error;
    }
    const { events } = answer;
    if (!Array.isArray(events) || events.length === 0) return after;
    const seq: unknown = (events[events.length - 1] as { seq?: unknown } | null)?.seq;
    if (typeof seq !== "number" || !Number.isSafeInteger(seq) || seq <= after) {
      const shown = typeof seq === "string" ? JSON.stringify(headCut(seq, 40)) : typeof seq === "number" ? String(seq) : typeof seq;
      throw new WorkspaceRuntimeError(
        "EPROTOCOL",
        `getExec("${id}", { resume: "tail" }): the container's daemon answered events that do not advance (last seq ${shown} after ${after}): its daemon misbehaves (a command may have taken it over); restart the container`,
      );
    }
    // A finished run's tail is its exit event alone (the stream reads exit codes, not nothing).
    if ((events[events.length - 1] as { name?: unknown }).name === "exit") return seq - 1;
    after = seq;
  }
  return after;
}

/**
 * The command runner over a daemon session. Each run it starts,
 * reattaches to or kills is watched (at most {@link MAX_WATCHED_RUNS}): past its
 * `timeoutMs` or a `killExec`, plus {@link REMOTE_STOP_GRACE_MS}, the host
 * ends it if the daemon has not.
 */
export function daemonShell(api: DaemonApi): ShellRPC {
  const watched = new Map<string, RunWatch>();
  const watch = (id: string): RunWatch => {
    let w = watched.get(id);
    if (w === undefined) {
      let settle!: () => void;
      const done = new Promise<void>((resolve) => (settle = resolve));
      w = { wake: new Set(), readers: new Set(), done, settle };
      watched.set(id, w);
      if (watched.size > MAX_WATCHED_RUNS) {
        // The oldest watch no stream reads (one a stream reads must stay: a killExec sets its deadline there).
        for (const [key, old] of watched) {
          if (old.readers.size === 0 && old !== w) {
            watched.delete(key);
            break;
          }
        }
      }
    }
    return w;
  };
  /** Forgets `id`'s watch, first marking it gone (`why`) and waking its streams, so they fail rather than read another run's events. */
  const forget = (id: string, why: "exec" | "dispose") => {
    const old = watched.get(id);
    if (old === undefined) return;
    old.replaced = why;
    for (const wake of [...old.wake]) wake();
    watched.delete(id);
  };
  return {
    async exec(input) {
      const id = input.id ?? crypto.randomUUID();
      const request: Parameters<DaemonApi["exec"]>[0] = { id, command: input.source };
      const cwd = daemonCwd(input.cwd);
      if (cwd !== undefined) request.cwd = cwd;
      if (input.env !== undefined) request.env = wireEnv(input.env);
      if (input.stdin !== undefined) request.stdin = input.stdin;
      if (input.timeoutMs !== undefined) request.timeoutMs = daemonTimeout(input.timeoutMs);
      await commandCall(() => api.exec(request), "exec", `the command may have started: check with getExec("${id}") before running it again`);
      // A new run of this id: a fresh watch, with the host's deadline when the run has a timeout. The
      // finished run it replaced is gone from the daemon: its streams still behind fail rather than read the new run.
      forget(id, "exec");
      const w = watch(id);
      const timeoutMs = input.timeoutMs;
      if (typeof timeoutMs === "number" && Number.isFinite(timeoutMs) && timeoutMs > 0) {
        w.deadline = Date.now() + timeoutMs + REMOTE_STOP_GRACE_MS;
        w.reason = { timeoutMs };
      }
      return { id, events: eventStream(api, id, 0, w) };
    },
    async getExec(input) {
      let after = input.after === "tail" ? await lastSeq(api, input.id) : (input.after ?? 0);
      if (after === 0) await commandCall(() => api.events({ id: input.id, after: 0, waitMs: 0 }), "events", `getExec("${input.id}") did not reattach`); // ENOENT for an unknown id now
      const w = watch(input.id);
      // The tail of a run the host ended is the host's end (its note and exit 137), not what the daemon sent after it.
      if (input.after === "tail" && w.ended !== undefined) after = Math.min(after, Math.floor(w.ended.seq));
      return { id: input.id, events: eventStream(api, input.id, after, w) };
    },
    async killExec(input: { id: string; signal?: KillSignal }) {
      checkKillSignal(input.signal, "killExec"); // before the watch: a refused signal moves no deadline
      // A run not watched on this connection yet (started before a reconnect) is watched from here: the kill's
      // deadline holds for a later reattach, and this call settles within the grace whatever the daemon does.
      const w = watch(input.id);
      const before = { deadline: w.deadline, reason: w.reason };
      const by = Date.now() + REMOTE_STOP_GRACE_MS;
      const moves = w.ended === undefined && w.exited !== true && (w.deadline === undefined || by < w.deadline);
      if (moves) {
        w.deadline = by;
        w.reason = "kill";
        for (const wake of [...w.wake]) wake();
      }
      const killed = call(() => api.kill(input.signal === undefined ? { id: input.id } : { id: input.id, signal: input.signal })).catch((error: unknown) => {
        // Refused (an unknown id, a bad signal): nothing was stopped, the run keeps the deadline it had.
        if (moves && w.ended === undefined && w.deadline === by && w.reason === "kill") {
          w.deadline = before.deadline;
          w.reason = before.reason;
          for (const wake of [...w.wake]) wake();
        }
        throw error;
      });
      // Settled by the daemon's answer, once the run has ended (by the host at the latest, past the grace), or past the grace.
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        await Promise.race([killed.then(() => {}), w.done, new Promise<void>((resolve) => (timer = setTimeout(resolve, REMOTE_STOP_GRACE_MS)))]);
      } finally {
        clearTimeout(timer);
      }
    },
    async disposeExec(input) {
      await commandCall(() => api.dispose({ id: input.id }), "dispose", `disposeExec("${input.id}") may not have disposed of the run`);
      // Its streams still behind fail rather than read a later run of the id (which no watch would mark replaced).
      forget(input.id, "dispose");
    },
  };
}

/**
 * A handle over a connected daemon session: remote sync (each call bounded
 * in time: {@link REMOTE_SYNC_CALL_TIMEOUT_MS}, {@link REMOTE_SYNC_APPLY_TIMEOUT_MS}),
 * the daemon's boot id as `runtimeId`, `closed` when the transport goes.
 * @throws Error `EPROTO` when the daemon's boot id is not a string of 1 to
 *   `MAX_BOOT_ID_CHARS` (256) characters (runtime/sync.ts `checkBootId`);
 *   Error `ETIMEDOUT` when its `info` is not answered within
 *   {@link REMOTE_SYNC_CALL_TIMEOUT_MS}. The transport is closed before
 *   either rejection (no handle owns it).
 */
export async function daemonHandle(api: DaemonApi, transport: { closed: Promise<void>; close(): void }): Promise<BackendHandle & { runtimeId: string }> {
  const sync = boundedSync(api);
  let runtimeId: string;
  try {
    const info = await sync.info();
    runtimeId = checkBootId((info as { bootId?: unknown } | null)?.bootId);
  } catch (error) {
    // No handle owns the session yet: close it here, or nothing ever would.
    transport.close();
    throw error;
  }
  return {
    rpc: { shell: daemonShell(api), sync },
    runtimeId,
    sync: "remote",
    closed: transport.closed,
    async close() {
      transport.close();
    },
  };
}
