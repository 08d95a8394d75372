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
    /** @type {Set<() => void>} */
    this.waiters = new Set();
    /** @type {NodeJS.Timeout[]} */
    this.timers = [];
    /** the highest `after` an `events` call has asked from: the reader has everything up to it */
    this.acked = 0;
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
    const child = spawn("/bin/sh", ["-c", req.command], {
      cwd: req.cwd,
      env: req.env,
      detached: true, // own process group: kill reaches the whole tree
      stdio: [req.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    run.pgid = child.pid;
    let seq = 0;
    /** @param {"stdout" | "stderr"} name @param {Buffer} buf */
    const output = (name, buf) => {
      for (let at = 0; at < buf.length; at += MAX_EVENT_BYTES) {
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
    child.on("close", (code, signal) => {
      if (signal) finish(128 + (os.constants.signals[signal] ?? 0), signal);
      else finish(code ?? 1);
    });
    if (req.timeoutMs > 0) {
      run.timers.push(
        setTimeout(() => {
          if (!run.live) return;
          run.timedOut = true;
          this.unthrottle(run);
          this.signal(run, "SIGTERM");
          this.escalate(run);
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
    try {
      process.kill(-run.pgid, signal);
    } catch {
      // the group is gone
    }
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
      // Under flow control only what the reader already has is dropped.
      if (run.flow && run.live && ev.seq > run.acked) break;
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
   * @returns {Promise<{ events: RunEvent[], done: boolean }>}
   */
  async events(id, after, waitMs) {
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
    this.ack(run, after);
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
