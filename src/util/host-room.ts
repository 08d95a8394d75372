/**
 * Pacing of back-to-back host calls, so a busy run leaves its Durable Object
 * room (issue 20: attack run 4 for the shell, run 34 for JavaScript).
 *
 * workerd hands a Durable Object a new request (a fresh stub's call, `fetch`,
 * an alarm, `ctx.abort()` or `killExec` from another request) and fires its
 * timers only in moments when its event loop is idle. A run whose code calls
 * the host back to back — a loop of `await fs.writeFile(...)` in JavaScript, of
 * `: > f$i` in the shell — never lets it be: each answer starts the next call.
 * So after every {@link HOST_BUSY_SLICE_MS} of back-to-back calls (by the
 * clock, which in workerd moves at I/O, i.e. at every call) the next call
 * waits {@link HOST_IDLE_GAP_MS} on a real timer, leaving the loop idle:
 * about 4% of a call-bound loop's time.
 *
 * Used by the shell's Dynamic Worker before each call to the host
 * (src/backends/worker-shell/worker.ts) and by the JavaScript backend's host
 * before it answers each call of a run (src/backends/worker-javascript/run.ts
 * `RunBridge.call`), which code in the run cannot bypass.
 *
 * @module
 */

/**
 * After this long (ms, `Date.now()`) of back-to-back host calls, the next call waits {@link HOST_IDLE_GAP_MS}.
 */
export const HOST_BUSY_SLICE_MS = 50;
/** How long (ms) the host is left idle after a busy slice: about 4% of a call-bound run's time. */
export const HOST_IDLE_GAP_MS = 2;

/**
 * Paces one run's host calls: {@link HostRoom.pace} returns `undefined` while
 * the current slice is shorter than `sliceMs`, else a promise that resolves
 * after a real `gapMs` timer. Calls made while a gap is open (concurrent
 * calls, `Promise.all` batches) wait for that same gap, so nothing is
 * answered during it; the next slice starts when it ends. After the gap the
 * waiting calls go on one per task, in the order they came — as they would
 * have arrived, each in its own message — never all in one microtask turn,
 * which would put them all in flight at once (past
 * `maxConcurrentCapabilityCalls`, refused `E2BIG`; the lead, issue 20 run 34).
 * A call made while some still wait queues behind them.
 */
export class HostRoom {
  readonly #sliceMs: number;
  readonly #gapMs: number;
  #sliceStart = Date.now();
  #gap: Promise<void> | undefined;
  /** The last waiting call's turn (resolves one task after the one before it); `undefined` when none waits. */
  #tail: Promise<void> | undefined;
  #waiting = 0;

  /**
   * @param sliceMs busy time (ms) after which a gap is left; default {@link HOST_BUSY_SLICE_MS}.
   * @param gapMs length (ms) of the idle gap; default {@link HOST_IDLE_GAP_MS}.
   */
  constructor(sliceMs = HOST_BUSY_SLICE_MS, gapMs = HOST_IDLE_GAP_MS) {
    this.#sliceMs = sliceMs;
    this.#gapMs = gapMs;
  }

  /**
   * To be called before each host call: `undefined` to go on at once, or the
   * open gap to await first. Never rejects.
   */
  pace(): Promise<void> | undefined {
    if (this.#gap === undefined && this.#waiting === 0) {
      if (Date.now() - this.#sliceStart < this.#sliceMs) return undefined;
      const gap = new Promise<void>((resolve) =>
        setTimeout(() => {
          this.#gap = undefined;
          this.#sliceStart = Date.now();
          resolve();
        }, this.#gapMs),
      );
      this.#gap = gap;
      this.#tail = gap;
    }
    // Each waiting call goes on one task after the one before it (the first, one task after the gap).
    this.#waiting++;
    const turn = (this.#tail as Promise<void>).then(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
    this.#tail = turn;
    return turn.then(() => {
      if (--this.#waiting === 0) this.#tail = undefined;
    });
  }
}
