/**
 * Event streams of the JavaScript backend (spec 02 §3.7): each stream reads
 * a run's events from the journal page by page and, while the run is live,
 * waits for the next one; it ends after the exit event. Open streams of a
 * live run are counted against `maxExecutionSubscribers`; a stream opened
 * after the run ended only reads the journal and is not counted, so handles
 * left unread (never consumed, cancelled or disposed) cannot lock a finished
 * run's result away. A run another runtime owns (another Workspace object
 * over the same storage, see ownership.ts) is followed through the journal
 * until its owner ends it.
 *
 * @module
 */
import { runtimeError } from "../../runtime/errors.js";
import type { WorkspaceRuntimeEvent, WorkspaceRuntimeValue } from "../../runtime/types.js";
import type { ExecJournal } from "./journal.js";

/** Journal rows read per pull. */
const READ_PAGE = 64;

/** A run the streams can wait on. */
export interface FollowedRun {
  /** Resolves on the run's next event or state change. */
  changed(): Promise<void>;
}

/** Where the streams read from. */
export interface EventSource {
  /** The backend's journal. */
  readonly journal: ExecJournal;
  /** Open streams allowed per run (`maxExecutionSubscribers`). */
  readonly maxSubscribers: number;
  /** The live run with this id, if any. */
  live(id: string): FollowedRun | undefined;
  /** The exit event of a finished run that could not be persisted, if any. */
  terminal(id: string): WorkspaceRuntimeEvent | undefined;
  /**
   * Called when run `id` has no new rows after `cursor` and no live run to
   * wait on: resolves true when the stream should read the journal again
   * (the run ended meanwhile, or another runtime still owns it and the call
   * waited for it), false when nothing more will come.
   */
  follow?(id: string, cursor: number): Promise<boolean>;
}

/** Opens event streams over the journal and counts them per live run. */
export class EventStreams {
  readonly #source: EventSource;
  /** Open streams per live run (weak: a finished run with unread streams is not kept). */
  readonly #subscribers = new WeakMap<FollowedRun, number>();

  constructor(source: EventSource) {
    this.#source = source;
  }

  /**
   * A stream of run `id`'s events with `seq > after`, following the live
   * run; it closes after the exit event (or, for a run gone from memory
   * and journal, at the end of what is there). `highWaterMark` 0: rows are
   * read as the consumer pulls.
   *
   * @returns a stream that errors `EEXEC_BUSY` when the run is live and
   *   already has `maxSubscribers` open streams.
   */
  open(id: string, after: number): ReadableStream<WorkspaceRuntimeEvent> {
    const live = this.#source.live(id);
    let release = (): void => {};
    if (live) {
      const count = this.#subscribers.get(live) ?? 0;
      if (count >= this.#source.maxSubscribers) {
        return new ReadableStream<WorkspaceRuntimeEvent>({
          start(controller) {
            controller.error(runtimeError("EEXEC_BUSY", `execution ${JSON.stringify(id)} already has ${count} open event streams (maxExecutionSubscribers)`));
          },
        });
      }
      this.#subscribers.set(live, count + 1);
      let released = false;
      release = () => {
        if (released) return;
        released = true;
        const n = (this.#subscribers.get(live) ?? 1) - 1;
        if (n <= 0) this.#subscribers.delete(live);
        else this.#subscribers.set(live, n);
      };
    }
    const source = this.#source;
    let cursor = after;
    return new ReadableStream<WorkspaceRuntimeEvent>(
      {
        pull: async (controller) => {
          for (;;) {
            const rows = source.journal.events(id, cursor, READ_PAGE);
            if (rows.length > 0) {
              for (const row of rows) {
                cursor = row.seq;
                if (row.name === "exit") {
                  const exit: WorkspaceRuntimeEvent = { id, seq: row.seq, name: "exit", code: row.code ?? 1 };
                  if (row.result !== null && row.result !== undefined) exit.result = JSON.parse(row.result) as WorkspaceRuntimeValue;
                  controller.enqueue(exit);
                  release();
                  controller.close();
                  return;
                }
                controller.enqueue({ id, seq: row.seq, name: row.name, value: row.data ?? new Uint8Array(0) });
              }
              return;
            }
            const run = source.live(id);
            if (!run) {
              if (source.follow && (await source.follow(id, cursor))) continue;
              const terminal = source.terminal(id);
              if (terminal && terminal.seq > cursor) controller.enqueue(terminal);
              release();
              controller.close();
              return;
            }
            await run.changed();
          }
        },
        cancel: () => release(),
      },
      { highWaterMark: 0 },
    );
  }
}
