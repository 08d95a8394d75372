/**
 * `WorkerJavaScriptBackend` (spec 02 §3): runs one ES module per run in a
 * fresh Dynamic Worker from the Worker Loader binding, against the
 * Workspace's durable files.
 *
 * ```ts
 * import { Workspace } from "agent-computer";
 * import { WorkerJavaScriptBackend } from "agent-computer/backends/worker-javascript";
 *
 * workspace = new Workspace({
 *   storage: this.ctx.storage,
 *   backends: [new WorkerJavaScriptBackend({ loader: this.env.LOADER })],
 * });
 * ```
 *
 * @module
 */
import type { WorkspaceFilesystem } from "../../fs/types.js";
import type { WorkspaceModuleFunctions } from "../../modules/types.js";
import { RpcTargetBase } from "../../do/rpc-target.js";
import { runtimeError } from "../../runtime/errors.js";
import type {
  KillSignal,
  ModuleExecutionEnvelope,
  WorkspaceBackendHost,
  WorkspaceModuleBackend,
  WorkspaceModuleBackendHandle,
  WorkspaceRuntimeEvent,
  WorkspaceRuntimeValue,
} from "../../runtime/types.js";
import { sqlStoreVersion, type StoreVersion } from "../../storage/store-version.js";
import { defineKey, normalizeJson, RunCapabilities, type HostModules } from "./bridge.js";
import { buildGraph, NODE_BUILTINS, prepareLibrary, type GraphContext } from "./graph.js";
import { FS_METHODS, libModuleName, runModules, RUNNER_MODULE } from "./isolate.js";
import { ExecJournal } from "./journal.js";
import { isFactory, nodeCompat, resolveOptions, validateFunctions, type ResolvedOptions, type WorkerJavaScriptBackendOptions } from "./options.js";
import { ConfinedResolver, isUnder, normalize, pathError } from "./paths.js";
import type { BridgeCallKind, BridgeResult } from "./protocol.js";

export type { WorkerJavaScriptBackendOptions, WorkerJavaScriptEgress, WorkerLoaderLike } from "./options.js";

const encoder = new TextEncoder();
const READ_PAGE = 64;

/**
 * The RPC object a Dynamic Worker calls back into. Its base is workerd's
 * `RpcTarget`, loaded lazily (do/rpc-target.ts), so this entry point also
 * imports on Node, where there is no Worker Loader to run it with.
 */
class RunBridge extends RpcTargetBase {
  readonly #run: Run;
  constructor(run: Run) {
    super();
    this.#run = run;
  }
  output(stream: string, bytes: Uint8Array): void {
    this.#run.output(stream === "stderr" ? "stderr" : "stdout", bytes);
  }
  call(kind: BridgeCallKind, target: string, name: string, args: unknown[]): Promise<BridgeResult> {
    return this.#run.capabilities.call(kind, target, name, args);
  }
}

type StopReason = "kill" | "timeout" | "close";

/** One live run in this backend connection. */
class Run {
  readonly id: string;
  readonly controllers = new Set<AbortController>();
  capabilities!: RunCapabilities;
  seq = 0;
  done = false;
  /** The exit event when it could not be persisted. */
  terminal: WorkspaceRuntimeEvent | undefined;
  #inflight = new Set<Promise<unknown>>();
  #stopping: Promise<void> | undefined;
  #finishing = false;
  #deadlineMissed: string | undefined;
  #stdioBytes = 0;
  #waiters: (() => void)[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #entry: unknown;
  readonly #conn: Connection;

  constructor(conn: Connection, id: string) {
    this.#conn = conn;
    this.id = id;
  }

  /** Resolves on the next event or state change. */
  changed(): Promise<void> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  #notify(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  refusal(): string | null {
    if (this.#stopping || this.done) return `execution ${this.id} is being cancelled; no new host calls are accepted`;
    if (this.#finishing) return `execution ${this.id} has finished; no new host calls are accepted`;
    return null;
  }

  track(promise: Promise<unknown>, controller: AbortController): void {
    this.controllers.add(controller);
    const settled = promise.then(
      () => {},
      () => {},
    );
    this.#inflight.add(settled);
    void settled.then(() => {
      this.#inflight.delete(settled);
      this.controllers.delete(controller);
    });
    controller.signal.addEventListener("abort", () => {
      // A call past its deadline no longer holds the terminal event back.
      if ((controller.signal.reason as { code?: string })?.code === "ETIMEDOUT") this.#inflight.delete(settled);
    });
  }

  deadlineMissed(name: string): void {
    this.#deadlineMissed ??= name;
  }

  async #drain(): Promise<void> {
    while (this.#inflight.size > 0) await Promise.all([...this.#inflight]);
  }

  output(stream: "stdout" | "stderr", bytes: Uint8Array): void {
    if (this.done || this.#stopping) return;
    const max = this.#conn.options.maxStdioBytes + 64;
    if (this.#stdioBytes >= max) return;
    let chunk = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes as ArrayBuffer);
    if (this.#stdioBytes + chunk.byteLength > max) chunk = chunk.slice(0, max - this.#stdioBytes);
    this.#stdioBytes += chunk.byteLength;
    this.#append(stream, chunk);
  }

  #append(stream: "stdout" | "stderr", bytes: Uint8Array): void {
    if (bytes.byteLength === 0) return;
    const seq = ++this.seq;
    try {
      this.#conn.journal.append(this.id, seq, stream, bytes);
    } catch {
      /* a failed append loses that chunk; the run goes on */
    }
    this.#notify();
  }

  /** Launches the Dynamic Worker. */
  start(
    graphModules: Record<string, { js: string }>,
    mainEntry: string,
    input: WorkspaceRuntimeValue,
    context: Record<string, unknown>,
    timeoutMs: number,
  ): void {
    const o = this.#conn.options;
    const cpuMs = Math.min(timeoutMs, o.maxCpuMs);
    const code: Parameters<ResolvedOptions["loader"]["load"]>[0] = {
      compatibilityDate: o.compatibilityDate,
      compatibilityFlags: o.compatibilityFlags,
      limits: { cpuMs },
      mainModule: RUNNER_MODULE,
      modules: graphModules,
    };
    if (o.egress.mode === "none") code.globalOutbound = null;
    else if (o.egress.mode === "http-gateway") code.globalOutbound = o.egress.gateway;
    const worker = o.loader.load(code);
    const entry = worker.getEntrypoint(undefined, { limits: { cpuMs } }) as {
      evaluate(input: unknown, bridge: RunBridge, context: unknown): Promise<{ code: number; value?: string }>;
    };
    this.#entry = entry;
    this.#timer = setTimeout(() => void this.stop("timeout"), timeoutMs);
    const bridge = new RunBridge(this);
    void (async () => {
      let outcome: { code: number; value?: string };
      try {
        outcome = await entry.evaluate(input, bridge, { ...context, entry: "/" + mainEntry });
      } catch (err) {
        if (this.#stopping || this.done) return;
        this.#finishing = true;
        await this.#drain();
        const message = err instanceof Error ? err.message : String(err);
        this.#append("stderr", encoder.encode(`${message}\n`));
        this.#finish(1, null);
        return;
      }
      if (this.#stopping || this.done) return;
      this.#finishing = true;
      await this.#drain();
      if (this.#stopping || this.done) return;
      if (this.#deadlineMissed !== undefined) {
        this.#append("stderr", encoder.encode(`A host call (${this.#deadlineMissed}) did not settle before its deadline (maxHostCallMs ${o.maxHostCallMs} ms).\n`));
        this.#finish(1, null);
        return;
      }
      const exitCode = Number.isInteger(outcome.code) && outcome.code >= 0 && outcome.code <= 255 ? outcome.code : 1;
      this.#finish(exitCode, exitCode === 0 ? (outcome.value ?? "null") : null);
    })();
  }

  /** Cancels (kill/close → 130) or times out (→ 1) the run; resolves once it settled. */
  stop(reason: StopReason): Promise<void> {
    if (this.done) return Promise.resolve();
    this.#stopping ??= (async () => {
      for (const controller of this.controllers) controller.abort(new Error(`execution ${this.id} was cancelled`));
      this.#dispose();
      await this.#drain();
      const message =
        reason === "timeout"
          ? "JavaScript execution timed out\n"
          : reason === "close"
            ? "Execution cancelled because its Workspace closed.\n"
            : "Execution cancelled.\n";
      const seq = ++this.seq;
      try {
        this.#conn.journal.append(this.id, seq, "stderr", encoder.encode(message));
      } catch {
        /* settles in memory below */
      }
      this.#notify();
      this.#finish(reason === "timeout" ? 1 : 130, null);
    })();
    return this.#stopping;
  }

  #dispose(): void {
    clearTimeout(this.#timer);
    const entry = this.#entry as { [Symbol.dispose]?: () => void } | undefined;
    try {
      entry?.[Symbol.dispose]?.();
    } catch {
      /* already gone */
    }
  }

  #finish(code: number, result: string | null): void {
    if (this.done) return;
    this.#dispose();
    const seq = ++this.seq;
    let persisted = false;
    try {
      persisted = this.#conn.journal.finish(this.id, seq, code, result, this.#conn.now());
    } catch {
      persisted = false;
    }
    if (!persisted) {
      const exit: WorkspaceRuntimeEvent = { id: this.id, seq, name: "exit", code };
      if (result !== null) exit.result = JSON.parse(result) as WorkspaceRuntimeValue;
      this.terminal = exit;
    }
    this.done = true;
    this.#conn.finished(this);
    this.#notify();
  }
}

/** One connection of the backend: live runs, journal, host modules. */
class Connection implements WorkspaceModuleBackendHandle {
  readonly options: ResolvedOptions;
  readonly journal: ExecJournal;
  readonly fs: WorkspaceFilesystem;
  readonly now: () => number;
  readonly #type: string;
  readonly #live = new Map<string, Run>();
  /** Ids whose `exec` is between its id check and `#live.set` (spans awaits). */
  readonly #starting = new Set<string>();
  readonly #subscribers = new Map<string, number>();
  readonly #hostModules: HostModules;
  readonly #graphContext: GraphContext;
  readonly #libraries: Record<string, { js: string }> = {};
  readonly #version: StoreVersion;
  #closed = false;

  constructor(options: ResolvedOptions, type: string, host: WorkspaceBackendHost, hostModules: HostModules) {
    this.options = options;
    this.#type = type;
    this.fs = host.fs;
    this.now = host.now;
    this.journal = new ExecJournal(host.db, options.id);
    this.#version = sqlStoreVersion(host.db);
    this.#hostModules = hostModules;
    const hostExports = new Map<string, readonly string[]>();
    for (const [name, value] of options.modules) {
      if (typeof value === "string") continue;
      hostExports.set(name, Object.keys(hostModules.get(name) ?? {}));
    }
    this.#graphContext = {
      fs: host.fs,
      root: options.root,
      backendType: type,
      flags: options.compatibilityFlags,
      maxSourceBytes: options.maxSourceBytes,
      libraries: new Set(options.modules.filter(([, v]) => typeof v === "string").map(([n]) => n)),
      hostModules: hostExports,
    };
  }

  /** Settles runs left `running` by an earlier instance (restart reconciliation, policy "fail"). */
  reconcile(): void {
    for (const id of this.journal.running()) {
      if (this.#live.has(id)) continue;
      try {
        const last = this.journal.get(id)?.last_seq ?? 0;
        this.journal.append(id, last + 1, "stderr", encoder.encode("Execution was interrupted when its Workspace runtime restarted.\n"));
        this.journal.finish(id, last + 2, 1, null, this.now());
      } catch {
        /* left for the next connect */
      }
    }
    this.#prune();
  }

  #prune(): void {
    try {
      this.journal.prune(this.now(), this.options.retentionMs, this.options.maxRetainedExecutions);
    } catch {
      /* pruning is best effort */
    }
  }

  finished(run: Run): void {
    if (run.terminal) this.#lastTerminal.set(run.id, run.terminal);
    this.#live.delete(run.id);
    this.#prune();
  }

  #libraryModules(): Record<string, { js: string }> {
    for (const [name, value] of this.options.modules) {
      if (typeof value !== "string" || this.#libraries[libModuleName(name)]) continue;
      this.#libraries[libModuleName(name)] = { js: prepareLibrary(name, value, this.#graphContext) };
    }
    return this.#libraries;
  }

  async exec(request: Parameters<WorkspaceModuleBackendHandle["exec"]>[0]): Promise<ModuleExecutionEnvelope> {
    const o = this.options;
    if (this.#closed) throw runtimeError("ECLOSED", `the ${o.id} backend connection is closed`);
    this.#prune();
    const id = request.id ?? crypto.randomUUID();
    if (this.#live.has(id) || this.#starting.has(id)) throw runtimeError("EEXEC_BUSY", `execution ${JSON.stringify(id)} is already starting or running`);
    if (this.journal.get(id)) {
      throw runtimeError("EEXEC_EXISTS", `execution ${JSON.stringify(id)} already exists; disposeExec it first or use another id`);
    }
    // Claim the id before the first await, so a concurrent exec with it rejects EEXEC_BUSY.
    this.#starting.add(id);
    try {
      return await this.#start(request, id);
    } finally {
      this.#starting.delete(id);
    }
  }

  /** The rest of {@link exec}, with `id` claimed in `#starting`. */
  async #start(request: Parameters<WorkspaceModuleBackendHandle["exec"]>[0], id: string): Promise<ModuleExecutionEnvelope> {
    const o = this.options;
    const timeoutMs = request.timeoutMs ?? o.defaultTimeoutMs;
    if (typeof timeoutMs !== "number" || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
      throw new TypeError(`timeoutMs must be a positive number of milliseconds, got ${String(timeoutMs)}`);
    }
    if (timeoutMs > o.maxTimeoutMs) throw new RangeError(`timeout cannot exceed ${o.maxTimeoutMs} milliseconds`);
    const input = normalizeJson(request.input ?? null, "input");
    const inputBytes = encoder.encode(JSON.stringify(input)).byteLength;
    if (inputBytes > o.maxInputBytes) throw new RangeError(`input is ${inputBytes} bytes of JSON, over maxInputBytes (${o.maxInputBytes})`);
    let stdin: Uint8Array = new Uint8Array(0);
    if (request.stdin !== undefined) {
      if (typeof request.stdin === "string") stdin = encoder.encode(request.stdin);
      else if (request.stdin instanceof Uint8Array) stdin = request.stdin;
      else throw new TypeError("stdin must be a string or a Uint8Array");
      if (stdin.byteLength > o.maxStdinBytes) throw new RangeError(`stdin is ${stdin.byteLength} bytes, over maxStdinBytes (${o.maxStdinBytes})`);
    }
    const env: Record<string, string> = {};
    if (request.env !== undefined) {
      if (typeof request.env !== "object" || request.env === null || Array.isArray(request.env)) throw new TypeError("env must be an object of strings");
      let envBytes = 0;
      for (const [k, v] of Object.entries(request.env)) {
        if (typeof v !== "string") throw new TypeError(`env.${k} must be a string, got ${typeof v}`);
        envBytes += encoder.encode(k).byteLength + encoder.encode(v).byteLength;
        defineKey(env, k, v);
      }
      if (envBytes > o.maxEnvBytes) throw new RangeError(`env is ${envBytes} bytes, over maxEnvBytes (${o.maxEnvBytes})`);
    }
    const policy = request.onInterrupt ?? o.onInterrupt;
    if (policy !== "fail" && policy !== "restart" && policy !== "replay") throw new TypeError('onInterrupt must be "fail", "restart" or "replay".');
    if (typeof request.source !== "string") throw new TypeError("source must be a string");
    const sourceBytes = encoder.encode(request.source).byteLength;
    if (sourceBytes > o.maxSourceBytes) throw new RangeError(`source is ${sourceBytes} bytes, over maxSourceBytes (${o.maxSourceBytes})`);
    const cwd = await this.#checkCwd(request.cwd);
    const graph = await buildGraph(request.source, cwd, this.#graphContext);
    const { modules, names } = runModules(graph, this.#libraryModules(), this.#hostModules);
    // Re-check after the awaits above.
    if (this.#closed) throw runtimeError("ECLOSED", `the ${o.id} backend connection is closed`);
    if (this.#live.has(id)) throw runtimeError("EEXEC_BUSY", `execution ${JSON.stringify(id)} is already running`);
    if (o.access === "read-write") await this.#ensureRoot();
    this.journal.start(id, this.now());
    const run = new Run(this, id);
    run.capabilities = new RunCapabilities(this.fs, o, this.#hostModules, run, this.#version);
    this.#live.set(id, run);
    const events = this.#subscribe(id, 0);
    try {
      run.start(modules, graph.entry, input, {
        cwd,
        env,
        stdin,
        entryName: graph.entry.split("/").pop(),
        maxStdioBytes: o.maxStdioBytes,
        maxResultBytes: o.maxResultBytes,
        names,
      }, timeoutMs);
    } catch (err) {
      void events.cancel();
      const message = err instanceof Error ? err.message : String(err);
      run.output("stderr", encoder.encode(`${message}\n`));
      void run.stop("kill");
      throw err;
    }
    return { id, events };
  }

  /**
   * Validates the run's `cwd` (default `root`) and returns it normalised:
   * relative ones resolve against `root`, the result must be at/under `root`,
   * free of symbolic links, and an existing directory. `root` itself may be
   * missing (read-write runs create it).
   *
   * @throws `TypeError` naming `cwd` for a non-string; `EACCES` outside root
   *   (`paths must stay under <root>`) or through a link; `ENOENT` when
   *   missing; `ENOTDIR` when not a directory.
   */
  async #checkCwd(input: unknown): Promise<string> {
    const root = this.options.root;
    if (input === undefined) return root;
    if (typeof input !== "string" || input === "") {
      throw new TypeError(`cwd must be a non-empty path string under ${root}, got ${input === "" ? "an empty string" : input === null ? "null" : typeof input}`);
    }
    if (input.includes("\0")) throw pathError("EINVAL", `cwd contains a NUL byte: ${JSON.stringify(input)}`, input);
    const abs = normalize(input, root);
    if (!isUnder(abs, root)) throw pathError("EACCES", `paths must stay under ${root}: cwd ${input}`, abs);
    const { last } = await new ConfinedResolver(this.fs, root).resolve(abs);
    if (last) {
      if (!last.isDirectory) throw pathError("ENOTDIR", `cwd is not a directory: ${abs}`, abs);
      return abs;
    }
    if (abs === root) return abs;
    let code = "ENOENT";
    try {
      if (!(await this.fs.stat(abs)).isDirectory) code = "ENOTDIR";
      else return abs;
    } catch (err) {
      if ((err as { code?: string }).code === "ENOTDIR") code = "ENOTDIR";
    }
    throw pathError(code, code === "ENOTDIR" ? `cwd is not a directory: ${abs}` : `cwd does not exist: ${abs}`, abs);
  }

  /** Creates `root` when missing: a read when it exists (the common case), a write otherwise. */
  async #ensureRoot(): Promise<void> {
    const root = this.options.root;
    try {
      if ((await this.fs.lstat(root)).isDirectory) return;
    } catch {
      /* missing (or unreadable): mkdir below creates it or throws its own error */
    }
    await this.fs.mkdir(root, { recursive: true });
  }

  /** An event stream over the journal that follows the live run. */
  #subscribe(id: string, after: number): ReadableStream<WorkspaceRuntimeEvent> {
    const count = this.#subscribers.get(id) ?? 0;
    if (count >= this.options.maxExecutionSubscribers) {
      return new ReadableStream<WorkspaceRuntimeEvent>({
        start(controller) {
          controller.error(runtimeError("EEXEC_BUSY", `execution ${JSON.stringify(id)} already has ${count} open event streams (maxExecutionSubscribers)`));
        },
      });
    }
    this.#subscribers.set(id, count + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const n = (this.#subscribers.get(id) ?? 1) - 1;
      if (n <= 0) this.#subscribers.delete(id);
      else this.#subscribers.set(id, n);
    };
    let cursor = after;
    return new ReadableStream<WorkspaceRuntimeEvent>(
      {
        pull: async (controller) => {
          for (;;) {
            const rows = this.journal.events(id, cursor, READ_PAGE);
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
            const run = this.#live.get(id);
            if (!run) {
              const terminal = this.#lastTerminal.get(id);
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

  /** Exit events that could not be persisted, by run id. */
  readonly #lastTerminal = new Map<string, WorkspaceRuntimeEvent>();

  async getExec({ id, after }: { id: string; after?: number | "tail" }): Promise<ModuleExecutionEnvelope> {
    this.#prune();
    const record = this.journal.get(id);
    if (!record) throw runtimeError("ENOENT", `no execution ${JSON.stringify(id)} on backend "${this.options.id}"`);
    const from = after === undefined ? 0 : after === "tail" ? record.last_seq : after;
    return { id, events: this.#subscribe(id, from) };
  }

  async killExec({ id }: { id: string; signal?: KillSignal }): Promise<void> {
    const run = this.#live.get(id);
    if (run) return run.stop("kill");
    if (!this.journal.get(id)) throw runtimeError("ENOENT", `no execution ${JSON.stringify(id)} on backend "${this.options.id}"`);
  }

  async disposeExec({ id }: { id: string }): Promise<void> {
    if (this.#live.has(id)) throw runtimeError("EEXEC_BUSY", `execution ${JSON.stringify(id)} is still running; kill it first`);
    if (!this.journal.get(id)) throw runtimeError("ENOENT", `no execution ${JSON.stringify(id)} on backend "${this.options.id}"`);
    this.journal.delete(id);
  }

  async recover(): Promise<void> {
    this.reconcile();
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#live.values()].map((run) => run.stop("close")));
  }
}

/**
 * Runs model-written ES modules in fresh Dynamic Workers (spec 02 §3).
 * `protocol "module"`, `callable true`; default id `"worker-javascript"`.
 *
 * @throws TypeError at construction for an invalid option, naming it.
 */
export class WorkerJavaScriptBackend implements WorkspaceModuleBackend {
  readonly type = "worker-javascript";
  readonly protocol = "module" as const;
  readonly callable = true;
  readonly id: string;
  readonly #options: ResolvedOptions;

  constructor(options: WorkerJavaScriptBackendOptions) {
    this.#options = resolveOptions(options);
    this.id = this.#options.id;
  }

  /** Plain-language self-description for the exec tool (recomputed on every read, spec 02 §3.8). */
  get description(): string {
    const o = this.#options;
    const lines: string[] = [];
    let header =
      `Runs an ECMAScript module (JavaScript) in an isolated runtime; relative imports resolve from cwd, files come from the Workspace under ${o.root}. ` +
      "Put the work in `export default async function (input) { … }`: it receives `input` and its return value (JSON-compatible) comes back as the result. " +
      "Do no I/O at the top level of a module. To run a file you wrote, use `export { default } from \"./main.js\"`.";
    if (o.egress.mode === "none") header += " There is no network access: fetch() fails.";
    if (o.access === "read") header += " Files are read-only: writes are refused.";
    lines.push(header, "", "Modules code can import:");
    lines.push(`- \`node:fs/promises\` (also \`node:fs\`): ${FS_METHODS.join(", ")}; promise API only, no sync or callback functions.`);
    for (const [name, value] of o.modules) {
      if (typeof value === "string") lines.push(`- \`${name}\`: a bundled library.`);
      else if (isFactory(value)) lines.push(`- \`${name}\`: ${value.description ?? "a host module."}`);
      else lines.push(`- \`${name}\`: exports ${Object.keys(value).map((k) => `\`${k}\``).join(", ")}.`);
    }
    if (nodeCompat(o.compatibilityFlags)) {
      lines.push(`- Node built-ins (bare or \`node:\`): ${NODE_BUILTINS.map((n) => `\`${n}\``).join(", ")}.`);
    }
    return lines.join("\n");
  }

  /** Connects: runs host-module factories, reconciles runs left running by a restart. */
  async connect(host: WorkspaceBackendHost): Promise<WorkspaceModuleBackendHandle> {
    const hostModules = new Map<string, WorkspaceModuleFunctions>();
    for (const [name, value] of this.#options.modules) {
      if (typeof value === "string") continue;
      let fns: WorkspaceModuleFunctions;
      if (isFactory(value)) {
        const moduleHost: Parameters<typeof value>[0] = { git: host.git, artifacts: host.artifacts, runtime: host.runtime };
        if (host.assets !== undefined) moduleHost.assets = host.assets;
        fns = value(moduleHost);
        validateFunctions(name, fns, true);
      } else {
        fns = value;
      }
      hostModules.set(name, fns);
    }
    const connection = new Connection(this.#options, this.type, host, hostModules);
    connection.reconcile();
    return connection;
  }
}
