/**
 * A small real module backend for router tests: `source` is a script of
 * lines `out <text>`, `err <text>`, `hex <stream> <hex bytes>`,
 * `repeat <stream> <count> <text>` (text gets "\n" and the 1-based number),
 * `exit <code>`, `result <json>`, `sleep <ms>` (delays the next events), `hang` (waits until `killExec`, then exits
 * with 130 instead of the rest). `\n` in text is a newline. Runs are kept in memory for getExec; every event is
 * emitted in its own chunk.
 */
import type {
  ExecEvent,
  ModuleExecutionEnvelope,
  WorkspaceBackendHost,
  WorkspaceModuleBackend,
  WorkspaceModuleBackendHandle,
} from "../../../src/runtime/index.js";

function hexBytes(hex: string): Uint8Array {
  return new Uint8Array(hex.match(/../g)!.map((h) => parseInt(h, 16)));
}

export class ScriptBackend implements WorkspaceModuleBackend {
  readonly protocol = "module" as const;
  readonly type = "script";
  readonly id: string;
  readonly callable: boolean;
  readonly description?: string;
  connects = 0;
  failNextConnect = false;
  readonly runs = new Map<string, ExecEvent[]>();
  lastInput: unknown;
  /** Per run: seq → ms to wait before emitting that event. */
  readonly delays = new Map<string, Map<number, number>>();
  /** Per run: the seq a `hang` waits before. */
  readonly hangs = new Map<string, number>();
  /** Ids passed to `killExec`, in order. */
  readonly killed: string[] = [];
  /** Called with each new run's id once it has started. */
  onExec?: (id: string) => void;
  readonly #kills = new Map<string, { promise: Promise<void>; resolve: () => void }>();

  #killSignal(id: string): { promise: Promise<void>; resolve: () => void } {
    let entry = this.#kills.get(id);
    if (!entry) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.#kills.set(id, (entry = { promise, resolve }));
    }
    return entry;
  }

  constructor(options: { id?: string; callable?: boolean; description?: string } = {}) {
    this.id = options.id ?? "script";
    this.callable = options.callable ?? true;
    if (options.description !== undefined) this.description = options.description;
  }

  async connect(_host: WorkspaceBackendHost): Promise<WorkspaceModuleBackendHandle> {
    this.connects++;
    await new Promise((r) => setTimeout(r, 5));
    if (this.failNextConnect) {
      this.failNextConnect = false;
      throw new Error("connect failed once");
    }
    const self = this;
    const stream = (id: string, events: ExecEvent[]): ModuleExecutionEnvelope => {
      let i = 0;
      const delays = this.delays.get(id);
      return {
        id,
        events: new ReadableStream<ExecEvent>({
          async pull(controller) {
            const delay = delays?.get(events[i]?.seq ?? -1);
            if (delay) await new Promise((r) => setTimeout(r, delay));
            if (i < events.length && self.hangs.get(id) === events[i].seq) {
              await self.#killSignal(id).promise;
              controller.enqueue({ id, seq: events[i].seq, name: "exit", code: 130 });
              i = events.length;
              controller.close();
              return;
            }
            if (i < events.length) controller.enqueue(events[i++]);
            else controller.close();
          },
        }, { highWaterMark: 0 }),
      };
    };
    return {
      exec: async ({ id = crypto.randomUUID(), source, input }) => {
        if (this.runs.has(id)) throw Object.assign(new Error(`execution ${id} exists`), { code: "EEXEC_EXISTS" });
        this.lastInput = input;
        const events: ExecEvent[] = [];
        let seq = 0;
        let code = 0;
        let result: unknown;
        let hasResult = false;
        const enc = new TextEncoder();
        for (const line of source.split("\n")) {
          const [op, ...rest] = line.split(" ");
          const text = rest.join(" ").replace(/\\n/g, "\n");
          if (op === "out" || op === "err") events.push({ id, seq: ++seq, name: op === "out" ? "stdout" : "stderr", value: enc.encode(text) });
          else if (op === "hex") events.push({ id, seq: ++seq, name: rest[0] as "stdout", value: hexBytes(rest[1]) });
          else if (op === "repeat") {
            const [stream, count, ...words] = rest;
            const body = words.join(" ");
            for (let n = 1; n <= Number(count); n++) events.push({ id, seq: ++seq, name: stream as "stdout", value: enc.encode(`${body}${n}\n`) });
          } else if (op === "exit") code = Number(rest[0]);
          else if (op === "sleep") {
            if (!this.delays.has(id)) this.delays.set(id, new Map());
            this.delays.get(id)!.set(seq + 1, Number(rest[0]));
          } else if (op === "hang") {
            this.hangs.set(id, seq + 1);
          } else if (op === "result") {
            result = JSON.parse(text);
            hasResult = true;
          }
        }
        const exit: ExecEvent = { id, seq: ++seq, name: "exit", code };
        if (hasResult) exit.result = result;
        events.push(exit);
        this.runs.set(id, events);
        const envelope = stream(id, events);
        this.onExec?.(id);
        return envelope;
      },
      getExec: async ({ id, after }) => {
        const events = this.runs.get(id);
        if (!events) throw Object.assign(new Error(`no execution ${id}`), { code: "ENOENT" });
        const from = after === undefined ? 0 : after === "tail" ? events.length : after;
        return stream(id, events.filter((e) => e.seq > from));
      },
      killExec: async ({ id }) => {
        if (!this.runs.has(id)) throw Object.assign(new Error(`no execution ${id}`), { code: "ENOENT" });
        this.killed.push(id);
        this.#killSignal(id).resolve();
      },
      disposeExec: async ({ id }) => {
        if (!this.runs.delete(id)) throw Object.assign(new Error(`no execution ${id}`), { code: "ENOENT" });
      },
    };
  }
}
