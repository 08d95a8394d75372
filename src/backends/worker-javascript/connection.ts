/**
 * One connection of the JavaScript backend to a Workspace (spec 02 §3.2,
 * §3.7): its live runs, its journal, its host modules, and the handle
 * methods the runtime calls (`exec`, `getExec`, `killExec`, `disposeExec`,
 * `recover`, `close`).
 *
 * @module
 */
import type { WorkspaceFilesystem } from "../../fs/types.js";
import { runtimeError } from "../../runtime/errors.js";
import type {
  KillSignal,
  ModuleExecutionEnvelope,
  WorkspaceBackendHost,
  WorkspaceModuleBackendHandle,
  WorkspaceRuntimeEvent,
} from "../../runtime/types.js";
import { sqlStoreVersion, type StoreVersion } from "../../storage/store-version.js";
import { RunCapabilities, type HostModules } from "./bridge.js";
import { EventStreams } from "./events.js";
import { buildGraph, prepareLibrary, type GraphContext } from "./graph.js";
import { libModuleName, runModules } from "./isolate.js";
import { ExecJournal } from "./journal.js";
import type { ResolvedOptions } from "./options.js";
import { checkRequest, resolveCwd, type ExecRequest } from "./request.js";
import { Run, type RunHost } from "./run.js";
import { STDIO_RESERVE_BYTES } from "./stdio.js";

const encoder = new TextEncoder();

/** One connection of the backend: live runs, journal, host modules. */
export class Connection implements WorkspaceModuleBackendHandle, RunHost {
  /** The backend's resolved options. */
  readonly options: ResolvedOptions;
  /** This backend's run journal in the Workspace database. */
  readonly journal: ExecJournal;
  /** The Workspace filesystem. */
  readonly fs: WorkspaceFilesystem;
  /** The Workspace clock (ms since the epoch). */
  readonly now: () => number;
  readonly #live = new Map<string, Run>();
  /** Ids whose `exec` is between its id check and `#live.set` (spans awaits). */
  readonly #starting = new Set<string>();
  /** Exit events that could not be persisted, by run id. */
  readonly #lastTerminal = new Map<string, WorkspaceRuntimeEvent>();
  readonly #events: EventStreams;
  readonly #hostModules: HostModules;
  readonly #graphContext: GraphContext;
  readonly #libraries: Record<string, { js: string }> = {};
  readonly #version: StoreVersion;
  #closed = false;

  /**
   * @param type the backend's `type`, named in "not configured" errors.
   * @param hostModules the connected `ws:*` modules (factories already run).
   */
  constructor(options: ResolvedOptions, type: string, host: WorkspaceBackendHost, hostModules: HostModules) {
    this.options = options;
    this.fs = host.fs;
    this.now = host.now;
    this.journal = new ExecJournal(host.db, options.id);
    this.#version = sqlStoreVersion(host.db);
    this.#hostModules = hostModules;
    this.#events = new EventStreams({
      journal: this.journal,
      maxSubscribers: options.maxExecutionSubscribers,
      live: (id) => this.#live.get(id),
      terminal: (id) => this.#lastTerminal.get(id),
    });
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

  /** Settles runs left `running` by an earlier instance (restart reconciliation, policy "fail"), then prunes. */
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
      this.journal.prune(this.now(), this.options.retentionMs, this.options.maxRetainedExecutions, this.options.maxRetainedBytes);
    } catch {
      /* pruning is best effort */
    }
  }

  /** Called by a run once it has ended. */
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

  /**
   * Starts a run (spec 02 §3.2): checks the request, builds the module
   * graph, journals the start and launches the Dynamic Worker. Resolves
   * with the run's event stream once launched.
   *
   * @throws `ECLOSED` after {@link close}; `EEXEC_BUSY` when the id is starting
   *   or running; `EEXEC_EXISTS` when the journal holds it; the errors of
   *   `checkRequest`, `resolveCwd`, `buildGraph` and `runModules`.
   */
  async exec(request: ExecRequest): Promise<ModuleExecutionEnvelope> {
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
  async #start(request: ExecRequest, id: string): Promise<ModuleExecutionEnvelope> {
    const o = this.options;
    const { timeoutMs, input, stdin, env, source } = checkRequest(request, o);
    const cwd = await resolveCwd(this.fs, o.root, request.cwd);
    const graph = await buildGraph(source, cwd, this.#graphContext);
    const { modules, names } = runModules(graph, this.#libraryModules(), this.#hostModules);
    // Re-check after the awaits above.
    if (this.#closed) throw runtimeError("ECLOSED", `the ${o.id} backend connection is closed`);
    if (this.#live.has(id)) throw runtimeError("EEXEC_BUSY", `execution ${JSON.stringify(id)} is already running`);
    if (o.access === "read-write") await this.#ensureRoot();
    this.journal.start(id, this.now());
    const run = new Run(this, id);
    run.capabilities = new RunCapabilities(this.fs, o, this.#hostModules, run, this.#version);
    this.#live.set(id, run);
    const events = this.#events.open(id, 0);
    try {
      run.start(modules, graph.entry, input, {
        cwd,
        env,
        stdin,
        entryName: graph.entry.split("/").pop(),
        maxStdioBytes: o.maxStdioBytes,
        stdioReserveBytes: STDIO_RESERVE_BYTES,
        maxResultBytes: o.maxResultBytes,
        names,
      }, timeoutMs);
    } catch (err) {
      void events.cancel();
      const message = err instanceof Error ? err.message : String(err);
      run.output([["stderr", encoder.encode(`${message}\n`)]]);
      void run.stop("kill");
      throw err;
    }
    return { id, events };
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

  /**
   * Replays run `id`'s events after `after` (default 0: all; `"tail"`: only
   * what comes next), following it while live.
   *
   * @throws `ENOENT` for an id the journal does not hold.
   */
  async getExec({ id, after }: { id: string; after?: number | "tail" }): Promise<ModuleExecutionEnvelope> {
    this.#prune();
    const record = this.journal.get(id);
    if (!record) throw runtimeError("ENOENT", `no execution ${JSON.stringify(id)} on backend "${this.options.id}"`);
    const from = after === undefined ? 0 : after === "tail" ? record.last_seq : after;
    return { id, events: this.#events.open(id, from) };
  }

  /**
   * Cancels a live run (exit 130); a finished one is left as it is.
   *
   * @throws `ENOENT` for an id the journal does not hold.
   */
  async killExec({ id }: { id: string; signal?: KillSignal }): Promise<void> {
    const run = this.#live.get(id);
    if (run) return run.stop("kill");
    if (!this.journal.get(id)) throw runtimeError("ENOENT", `no execution ${JSON.stringify(id)} on backend "${this.options.id}"`);
  }

  /**
   * Deletes a finished run's record and events.
   *
   * @throws `EEXEC_BUSY` while it runs; `ENOENT` for an id the journal does not hold.
   */
  async disposeExec({ id }: { id: string }): Promise<void> {
    if (this.#live.has(id)) throw runtimeError("EEXEC_BUSY", `execution ${JSON.stringify(id)} is still running; kill it first`);
    if (!this.journal.get(id)) throw runtimeError("ENOENT", `no execution ${JSON.stringify(id)} on backend "${this.options.id}"`);
    this.journal.delete(id);
  }

  /** Settles runs an earlier instance left running (see {@link reconcile}). */
  async recover(): Promise<void> {
    this.reconcile();
  }

  /** Refuses new runs (`ECLOSED`) and cancels the live ones (exit 130); resolves once they settled. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#live.values()].map((run) => run.stop("close")));
  }
}
