// @ts-check
import { spawn } from "node:child_process";
import os from "node:os";
import { DaemonError } from "./errors.mjs";

/** Largest `data` of one output event, in bytes (64 KiB). */
export const MAX_EVENT_BYTES = 64 * 1024;
/** Largest sum of `data` bytes one `events` call returns (1 MiB; at least one event is always returned). */
export const MAX_EVENTS_BYTES = 1024 * 1024;
/** Longest `waitMs` of one `events` call (60 s). */
export const MAX_WAIT_MS = 60_000;
/** Largest `timeoutMs` (2^31 − 1 ms, Node's timer limit). */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;
/** How many ids of evicted runs are remembered, so they give `ELOG_TRUNCATED` rather than `ENOENT`. */
const MAX_TOMBSTONES = 10_000;
/**
 * A stopped run (timeout or `kill`) whose shell has exited: once its process group is empty (or got
 * SIGKILL), how long the daemon still waits for stdout/stderr to close before it records the exit
 * anyway (ms). A process outside the group (`setsid`, a daemonised child) holding them open cannot
 * hold the exit back longer.
 */
const PIPE_DRAIN_MS = 500;
/** How often a stopped run whose shell has exited checks whether its process group is empty (ms). */
const GROUP_POLL_MS = 100;

/**
 * Spare room behind an output event's `data` while more output of its stream may still be added to
 * it (see {@link Run.delivered}); an event absent here takes no more.
 * @type {WeakMap<object, Uint8Array>}
 */
const ROOM = new WeakMap();

/**
 * Adds `bytes` to the end of output event `ev` (amortised: its buffer doubles, up to
 * {@link MAX_EVENT_BYTES}).
 * @param {{ data: Uint8Array }} ev
 * @param {Uint8Array} bytes
 */
function appendToEvent(ev, bytes) {
  const length = ev.data.length;
  let room = ROOM.get(ev);
  if (!room || room.byteLength < length + bytes.length) {
    const next = new Uint8Array(Math.min(MAX_EVENT_BYTES, Math.max(length + bytes.length, length * 2, 256)));
    next.set(ev.data);
    room = next;
    ROOM.set(ev, room);
  }
  room.set(bytes, length);
  ev.data = room.subarray(0, length + bytes.length);
}

/**
 * An event about to be handed to a reader takes no more output: its `data` becomes an exact copy
 * (dropping spare room) the first time.
 * @param {{ data?: Uint8Array }} ev
 */
function sealEvent(ev) {
  if (ev.data && ROOM.has(ev)) {
    ev.data = ev.data.slice();
    ROOM.delete(ev);
  }
}

/**
 * One event of a run. `seq` counts from 1 per run; output `data` is at most 64 KiB; exactly one
 * `exit` event, last. `code` is the exit status, or 128 + the signal number when a signal ended
 * the shell (143 SIGTERM, 137 SIGKILL); `signal` names it then; `timedOut` is set when the
 * daemon's timeout stopped the run.
 * @typedef {{ seq: number, name: "stdout" | "stderr", data: Uint8Array }
 *   | { seq: number, name: "exit", code: number, signal?: string, timedOut?: true }} RunEvent
 */

/**
 * @typedef {object} ExecRequest
 * @property {string} id run id chosen by the caller: non-empty, ≤ 256 UTF-8 bytes
 * @property {string} command shell text, run as `/bin/sh -c command`
 * @property {string} cwd real host directory (already confined by the caller)
 * @property {Record<string, string>} env environment of the command
 * @property {Uint8Array | undefined} stdin bytes written to stdin, then closed (absent → /dev/null)
 * @property {number} timeoutMs 0 = none
 */

/** A run and its event log. */
class Run {
  /** @param {string} id */
  constructor(id) {
    this.id = id;
    /** @type {RunEvent[]} kept events (a suffix of all events) */
    this.events = [];
    /** seq of the last event produced */
    this.lastSeq = 0;
    /** output bytes currently kept in {@link events} */
    this.keptBytes = 0;
    /** @type {number | undefined} process group id (= pid of the shell) */
    this.pgid = undefined;
    this.live = true;
    /** @type {number | undefined} Date.now() at exit */
    this.endedAt = undefined;
    this.timedOut = false;
    /** the timeout or a `kill` has signalled the group */
    this.stopped = false;
    /** @type {NodeJS.Signals | number | undefined} the last signal the daemon sent the group */
    this.sentSignal = undefined;
    /** @type {(() => void) | undefined} called when the run is stopped (see {@link PIPE_DRAIN_MS}) */
    this.onStop = undefined;
    /** @type {Set<() => void>} */
    this.waiters = new Set();
    /** @type {NodeJS.Timeout[]} */
    this.timers = [];
    /** the highest `after` an `events` call has asked from: the reader has everything up to it */
    this.acked = 0;
    /**
     * the highest seq an `events` call has returned. Output of a stream that nobody has been handed
     * yet is added to that stream's last event (up to 64 KiB) instead of a new event per pipe read:
     * a command writing a byte at a time would otherwise cost an event (~350 bytes) per byte.
     */
    this.delivered = 0;
    /** output bytes produced, and of those, bytes in events the reader has (seq ≤ acked) */
    this.producedBytes = 0;
    this.ackedBytes = 0;
    /** flow control: output is read from the command only while fewer than the log budget's bytes are unread */
    this.flow = true;
    this.paused = false;
    /** @type {import("node:stream").Readable[]} */
    this.streams = [];
  }

  /** Output bytes the reader has not asked past yet. */
  get unreadBytes() {
    return this.producedBytes - this.ackedBytes;
  }

  /** seq of the oldest event kept (lastSeq + 1 when none are kept). */
  get firstKeptSeq() {
    return this.events.length > 0 ? this.events[0].seq : this.lastSeq + 1;
  }

  /** @param {RunEvent} ev */
  push(ev) {
    this.events.push(ev);
    this.lastSeq = ev.seq;
    for (const w of this.waiters) w();
    this.waiters.clear();
  }
}

/**
 * `ELOG_TRUNCATED` for a resume point older than the kept log; `firstSeq` (a property of the error)
 * is the oldest seq still kept, so a client that accepts the gap resumes with `after: firstSeq - 1`.
 * @param {Run} run
 * @param {number} after
 */
function truncated(run, after) {
  const err = /** @type {DaemonError & { firstSeq?: number }} */ (new DaemonError("ELOG_TRUNCATED", `run ${JSON.stringify(run.id)}: events after ${after} are no longer kept (oldest kept seq is ${run.firstKeptSeq})`));
  err.firstSeq = run.firstKeptSeq;
  return err;
}

/**
 * The daemon's runs: spawning, event logs, long-poll reads, kill, timeouts and retention.
 * Runs are daemon-wide (not per session) so a client that reconnects resumes with `events`.
 */
export class Runs {
  /**
   * @param {{ killGraceMs: number, logRetentionMs: number, logMaxRuns: number, logMaxBytes: number }} limits
   */
  constructor(limits) {
    this.limits = limits;
    /** @type {Map<string, Run>} */
    this.runs = new Map();
    /** @type {Map<string, number>} evicted run id → its last seq */
    this.tombstones = new Map();
    this.sweeper = setInterval(() => this.sweep(), Math.max(1000, Math.min(30_000, limits.logRetentionMs))).unref();
  }

  /**
   * Start a run; returns once the process is spawned.
   * @param {ExecRequest} req
   * @returns {{ id: string, pid: number | undefined }}
   */
  start(req) {
    const prior = this.runs.get(req.id);
    if (prior?.live) throw new DaemonError("EEXEC_BUSY", `run ${JSON.stringify(req.id)} is still running`);
    if (prior) this.runs.delete(req.id);
    this.tombstones.delete(req.id);
    const run = new Run(req.id);
    this.runs.set(req.id, run);
    let child;
    try {
      child = spawn("/bin/sh", ["-c", req.command], {
        cwd: req.cwd,
        env: req.env,
        detached: true, // own process group: kill reaches the whole tree
        stdio: [req.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      });
    } catch (err) {
      this.runs.delete(req.id); // never started: the id stays free
      if (/** @type {{ code?: string }} */ (err).code === "E2BIG") {
        throw new DaemonError(
          "E2BIG",
          "the command and its environment are too large for the kernel to start (each of the command and the env entries at most 128 KiB, all of them together about 2 MiB); nothing was started. Put long text in a file under the mount point and run or read it from there",
        );
      }
      throw err;
    }
    run.pgid = child.pid;
    let seq = 0;
    /** @param {"stdout" | "stderr"} name @param {Buffer} buf */
    const output = (name, buf) => {
      let start = 0;
      // The stream's latest event: the last one, or the one before when the other stream wrote last
      // (the two pipes are not ordered with each other, so interleaving them costs no event either).
      const n = run.events.length;
      const candidate = run.events[n - 1]?.name === name ? run.events[n - 1] : run.events[n - 2]?.name === name ? run.events[n - 2] : undefined;
      const last = candidate && candidate.name !== "exit" ? candidate : undefined;
      if (last && last.seq > run.delivered && last.seq > run.acked && last.data.length < MAX_EVENT_BYTES) {
        start = Math.min(MAX_EVENT_BYTES - last.data.length, buf.length);
        appendToEvent(last, buf.subarray(0, start));
        run.keptBytes += start;
        run.producedBytes += start;
      }
      for (let at = start; at < buf.length; at += MAX_EVENT_BYTES) {
        const data = new Uint8Array(buf.subarray(at, at + MAX_EVENT_BYTES)); // a plain copy
        run.push({ seq: ++seq, name, data });
        run.keptBytes += data.length;
        run.producedBytes += data.length;
      }
      this.trim(run);
      // Flow control: past the log budget of unread output, stop reading the command's pipes (it
      // blocks writing, as on a terminal nobody reads) until the reader catches up.
      if (run.flow && !run.paused && run.unreadBytes >= this.limits.logMaxBytes) {
        run.paused = true;
        for (const stream of run.streams) stream.pause();
      }
    };
    if (child.stdout) run.streams.push(child.stdout);
    if (child.stderr) run.streams.push(child.stderr);
    child.stdout?.on("data", (b) => output("stdout", b));
    child.stderr?.on("data", (b) => output("stderr", b));
    if (req.stdin !== undefined && child.stdin) {
      child.stdin.on("error", () => {}); // EPIPE when the command does not read its input
      child.stdin.end(req.stdin);
    }
    let finished = false;
    /** @param {number} code @param {string} [signal] */
    const finish = (code, signal) => {
      if (finished) return;
      finished = true;
      for (const t of drainTimers) clearTimeout(t);
      // A run cut at its timeout reports the timeout (128 + the last signal the daemon sent the
      // group), whatever the shell's own status: its shell may have exited before the timeout while
      // a background process kept stdout open until the timeout killed it.
      if (run.timedOut && !signal && run.sentSignal !== undefined) {
        const sent = run.sentSignal;
        const name = typeof sent === "number" ? Object.entries(os.constants.signals).find(([, n]) => n === sent)?.[0] : sent;
        const num = typeof sent === "number" ? sent : os.constants.signals[sent];
        if (num !== undefined) {
          code = 128 + num;
          signal = name;
        }
      }
      /** @type {RunEvent} */
      const ev = { seq: ++seq, name: "exit", code };
      if (signal) ev.signal = signal;
      if (run.timedOut) ev.timedOut = true;
      run.live = false;
      run.endedAt = Date.now();
      run.push(ev);
      // An escalation to SIGKILL already scheduled still fires (it reaches group members left behind).
      this.enforceMaxRuns();
    };
    child.on("error", (err) => {
      output("stderr", Buffer.from(`computerd: cannot start /bin/sh: ${err.message}\n`));
      finish(127);
    });
    /** @param {number | null} code @param {NodeJS.Signals | null} signal */
    const settle = (code, signal) => {
      if (signal) finish(128 + (os.constants.signals[signal] ?? 0), signal);
      else finish(code ?? 1);
    };
    child.on("close", settle);
    // The exit event normally waits for stdout/stderr to close too. Once the run is stopped and its
    // shell has exited, that wait is bounded: when nothing is left of the process group (or it got
    // SIGKILL), PIPE_DRAIN_MS later the pipes are closed by the daemon and the exit recorded.
    /** @type {[number | null, NodeJS.Signals | null] | undefined} */
    let shellExit;
    /** @type {NodeJS.Timeout[]} */
    const drainTimers = [];
    let draining = false;
    const drain = () => {
      if (finished || draining || !run.stopped || !shellExit) return;
      draining = true;
      const tick = () => {
        if (finished) return;
        if (run.sentSignal === "SIGKILL" || run.sentSignal === os.constants.signals.SIGKILL || !this.groupAlive(run)) {
          drainTimers.push(
            setTimeout(() => {
              if (finished || !shellExit) return;
              for (const stream of run.streams) stream.destroy();
              settle(...shellExit);
            }, PIPE_DRAIN_MS).unref(),
          );
        } else drainTimers.push(setTimeout(tick, GROUP_POLL_MS).unref());
      };
      tick();
    };
    run.onStop = drain;
    child.on("exit", (code, signal) => {
      shellExit = [code, signal];
      drain();
    });
    if (req.timeoutMs > 0) {
      run.timers.push(
        setTimeout(() => {
          if (!run.live) return;
          run.timedOut = true;
          this.unthrottle(run);
          this.signal(run, "SIGTERM");
          this.escalate(run);
          this.stop(run);
        }, req.timeoutMs).unref(),
      );
    }
    return { id: req.id, pid: child.pid };
  }

  /**
   * Send `signal` to a run's process group (errors such as ESRCH ignored).
   * @param {Run} run
   * @param {NodeJS.Signals | number} signal
   */
  signal(run, signal) {
    if (run.pgid === undefined) return;
    run.sentSignal = signal;
    try {
      process.kill(-run.pgid, signal);
    } catch {
      // the group is gone
    }
  }

  /**
   * Whether any process of the run's group still exists.
   * @param {Run} run
   */
  groupAlive(run) {
    if (run.pgid === undefined) return false;
    try {
      process.kill(-run.pgid, 0);
      return true;
    } catch (err) {
      return /** @type {NodeJS.ErrnoException} */ (err).code === "EPERM";
    }
  }

  /**
   * Marks a run stopped (timeout or `kill`): from then on its exit no longer waits unboundedly for
   * its pipes (see {@link PIPE_DRAIN_MS}).
   * @param {Run} run
   */
  stop(run) {
    run.stopped = true;
    run.onStop?.();
  }

  /**
   * SIGKILL the group after the grace period unless the run ended by then.
   * @param {Run} run
   */
  escalate(run) {
    run.timers.push(
      setTimeout(() => {
        if (run.live) this.signal(run, "SIGKILL");
      }, this.limits.killGraceMs).unref(),
    );
  }

  /**
   * Drop the oldest output events of a run beyond the per-run byte budget (the exit event stays).
   * @param {Run} run
   */
  trim(run) {
    let drop = 0;
    while (run.keptBytes > this.limits.logMaxBytes && drop < run.events.length) {
      const ev = run.events[drop];
      if (ev.name === "exit") break;
      // Under flow control only what the reader already has is dropped, also once the run has ended:
      // its last output can overshoot the budget (by at most two pipe reads per stream: the one that crossed it and
      // what the paused stream had buffered), and dropping it here would be a silent gap for a reader
      // whose `after` was still kept.
      if (run.flow && ev.seq > run.acked) break;
      run.keptBytes -= ev.data.length;
      drop++;
    }
    if (drop > 0) run.events.splice(0, drop);
  }

  /**
   * @param {string} id
   * @returns {Run}
   */
  get(id) {
    const run = this.runs.get(id);
    if (run) return run;
    if (this.tombstones.has(id)) throw new DaemonError("ELOG_TRUNCATED", `the log of run ${JSON.stringify(id)} is no longer kept`);
    throw new DaemonError("ENOENT", `no run with id ${JSON.stringify(id)}`);
  }

  /**
   * Events of run `id` with `seq > after`, at most {@link MAX_EVENTS_BYTES} of data (always at least
   * one event when there is one). With none yet and `waitMs > 0`, waits up to `waitMs` for one.
   * @param {string} id
   * @param {number} after
   * @param {number} waitMs
   * @param {boolean} [ack] default true: the reader has every event up to `after` ({@link ack}); false only looks
   * @returns {Promise<{ events: RunEvent[], done: boolean }>}
   */
  async events(id, after, waitMs, ack = true) {
    let run = this.runs.get(id);
    if (!run) {
      const last = this.tombstones.get(id);
      if (last !== undefined && after >= last) return { events: [], done: true };
      this.get(id); // throws ENOENT or ELOG_TRUNCATED
      throw new Error("unreachable");
    }
    if (after < run.firstKeptSeq - 1) {
      throw truncated(run, after);
    }
    if (ack) this.ack(run, after);
    if (after < run.firstKeptSeq - 1) throw truncated(run, after);
    if (run.lastSeq <= after && run.live && waitMs > 0) {
      const r = run;
      await new Promise((resolve) => {
        const t = setTimeout(() => {
          r.waiters.delete(done);
          resolve(undefined);
        }, waitMs);
        const done = () => {
          clearTimeout(t);
          resolve(undefined);
        };
        r.waiters.add(done);
      });
      run = this.runs.get(id);
      if (run !== r) throw new DaemonError("ELOG_TRUNCATED", `run ${JSON.stringify(id)} was replaced or evicted while waiting`);
      if (after < run.firstKeptSeq - 1) throw truncated(run, after);
    }
    /** @type {RunEvent[]} */
    const out = [];
    let bytes = 0;
    let i = run.events.findIndex((e) => e.seq > after);
    if (i >= 0) {
      for (; i < run.events.length; i++) {
        const ev = run.events[i];
        const n = ev.name === "exit" ? 0 : ev.data.length;
        if (out.length > 0 && bytes + n > MAX_EVENTS_BYTES) break;
        out.push(ev);
        bytes += n;
      }
    }
    for (const ev of out) if (ev.name !== "exit") sealEvent(ev);
    if (out.length > 0) run.delivered = Math.max(run.delivered, out[out.length - 1].seq);
    const done = !run.live && (out.length > 0 ? out[out.length - 1].name === "exit" : after >= run.lastSeq);
    return { events: out, done };
  }

  /**
   * The reader has every event up to `after`: count those bytes as read, and
   * resume reading the command's output once less than half the budget is unread.
   * @param {Run} run
   * @param {number} after
   */
  ack(run, after) {
    const upTo = Math.min(after, run.lastSeq);
    if (upTo <= run.acked) return;
    for (const ev of run.events) {
      if (ev.seq <= run.acked) continue;
      if (ev.seq > upTo) break;
      if (ev.name !== "exit") run.ackedBytes += ev.data.length;
    }
    run.acked = upTo;
    this.trim(run);
    if (run.paused && run.unreadBytes < this.limits.logMaxBytes / 2) this.release(run);
  }

  /**
   * Ends flow control for a run (it is being stopped): its output is read again, and the oldest is
   * dropped past the budget, so the command can end and its exit be recorded.
   * @param {Run} run
   */
  unthrottle(run) {
    run.flow = false;
    this.release(run);
  }

  /** @param {Run} run */
  release(run) {
    if (!run.paused) return;
    run.paused = false;
    for (const stream of run.streams) stream.resume();
  }

  /**
   * Signal a live run's process group; a finished run is left alone.
   * @param {string} id
   * @param {NodeJS.Signals | number | undefined} signal absent → SIGTERM, then SIGKILL after the grace
   * @returns {{ killed: boolean }} whether a live run was signalled
   */
  kill(id, signal) {
    const run = this.get(id);
    if (!run.live) return { killed: false };
    this.unthrottle(run);
    this.signal(run, signal ?? "SIGTERM");
    if (signal === undefined) this.escalate(run);
    this.stop(run);
    return { killed: true };
  }

  /**
   * Forget a finished run's log now: its id is free and unknown (`ENOENT`) from then on.
   * @param {string} id
   * @throws `ENOENT` unknown id; `EEXEC_BUSY` while it runs
   */
  dispose(id) {
    const run = this.get(id);
    if (run.live) throw new DaemonError("EEXEC_BUSY", `run ${JSON.stringify(id)} is still running`);
    // Unlike an eviction, a disposed id leaves no trace: it is unknown (ENOENT) from now on.
    this.runs.delete(id);
  }

  /** Evict finished runs older than the retention, and the oldest beyond the count limit. */
  sweep() {
    const now = Date.now();
    for (const [id, run] of this.runs) {
      if (!run.live && run.endedAt !== undefined && now - run.endedAt >= this.limits.logRetentionMs) this.evict(id, run);
    }
  }

  enforceMaxRuns() {
    const finished = [...this.runs.values()].filter((r) => !r.live).sort((a, b) => (a.endedAt ?? 0) - (b.endedAt ?? 0));
    for (let i = 0; i < finished.length - this.limits.logMaxRuns; i++) this.evict(finished[i].id, finished[i]);
  }

  /** @param {string} id @param {Run} run */
  evict(id, run) {
    this.runs.delete(id);
    this.tombstones.set(id, run.lastSeq);
    if (this.tombstones.size > MAX_TOMBSTONES) {
      const oldest = this.tombstones.keys().next().value;
      if (oldest !== undefined) this.tombstones.delete(oldest);
    }
  }

  /** SIGKILL every live run's process group and stop the sweeper (daemon shutdown). */
  close() {
    clearInterval(this.sweeper);
    for (const run of this.runs.values()) {
      if (run.live) this.signal(run, "SIGKILL");
      for (const t of run.timers) clearTimeout(t);
    }
  }
}
