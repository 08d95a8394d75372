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
import { interruptJson, RunCapabilities, type HostModules } from "./bridge.js";
import { DurableJournal, REPLAY_VERSION, type DurableSpec, type RuntimeIdentity } from "./durable.js";
import { fromBase64, toBase64 } from "../../util/bytes.js";
import { jsonCut, quoteCut } from "../../util/cut.js";
import type { WorkspaceModulePendingCall, WorkspaceModulePendingOptions, WorkspaceRuntimeValue } from "../../runtime/types.js";
import { EventStreams } from "./events.js";
import { buildGraph, prepareLibrary, type GraphContext, type ModuleGraph } from "./graph.js";
import { libModuleName, runModules } from "./isolate.js";
import { ExecJournal } from "./journal.js";
import type { ResolvedOptions } from "./options.js";
import { RecordedOutput } from "./recorded.js";
import { checkRequest, resolveCwd, type ExecRequest } from "./request.js";
import { DIVERGED, Run, type RunDurability, type RunHost } from "./run.js";
import type { ReplayContext, RunnerContext } from "./protocol.js";
import { STDIO_RESERVE_BYTES } from "./stdio.js";
import type { DurableObjectStorageLike } from "../../storage/types.js";
import { FOLLOW_POLL_MS, isDurableObjectStorage, judgeOwner, registerOwner, RUN_LEASE_MS, RUN_LEASE_RENEW_MS, unregisterOwner, type OwnerVerdict, type RunOwner } from "./ownership.js";
import type { JournalRun } from "./journal.js";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const encoder = new TextEncoder();

/** Interrupted runs relaunched at once, at most (spec 02 §5: a Durable Object runs about ten Dynamic Workers at once). */
export const MAX_RELAUNCHES = 4;
/** Attempts an interrupted run gets without making progress (spec 02 §5). */
export const MAX_ATTEMPTS = 3;

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
  /** Restart and replay runs' saved state (spec 02 §5). */
  readonly durable: DurableJournal;
  /** Relaunched runs holding one of the {@link MAX_RELAUNCHES} slots. */
  readonly #slotted = new Set<Run>();
  /** Relaunches waiting for a slot, in order. */
  readonly #slotQueue: (() => void)[] = [];
  #closed = false;
  /** This connection's owner id (random): the owner of the runs it starts or takes over (ownership.ts). */
  readonly ownerId: string = crypto.randomUUID();
  readonly #storage: DurableObjectStorageLike;
  /** True on a Durable Object's storage: leases are not used there (an owner not in this isolate is gone). */
  readonly #durableObject: boolean;
  /** What other connections of this isolate reach this one by, while it is registered (it has live runs). */
  readonly #asOwner: RunOwner;
  #registered = false;
  #renewTimer: ReturnType<typeof setInterval> | undefined;

  /**
   * @param type the backend's `type`, named in "not configured" errors.
   * @param hostModules the connected `ws:*` modules (factories already run).
   */
  constructor(options: ResolvedOptions, type: string, host: WorkspaceBackendHost, hostModules: HostModules) {
    this.options = options;
    this.fs = host.fs;
    this.now = host.now;
    this.#storage = host.db.storage;
    this.#durableObject = isDurableObjectStorage(this.#storage);
    this.journal = new ExecJournal(host.db, options.id, this.ownerId);
    this.#asOwner = {
      storage: this.#storage,
      liveRun: (id) => this.#live.get(id),
      killExec: (request) => this.killExec(request),
      answered: (id) => this.#afterSuspend(id),
    };
    this.durable = new DurableJournal(host.db, options.id);
    this.#version = sqlStoreVersion(host.db);
    this.#hostModules = hostModules;
    this.#events = new EventStreams({
      journal: this.journal,
      maxSubscribers: options.maxExecutionSubscribers,
      live: (id) => this.#live.get(id) ?? this.#ownerRun(id),
      terminal: (id) => this.#lastTerminal.get(id),
      follow: (id, cursor) => this.#follow(id, cursor),
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
      version: this.#version,
    };
  }

  /**
   * Runs left `running` by an earlier instance (a restart, spec 02 §3.7,
   * §5) — runs whose owner is gone (ownership.ts: not a live runtime of this
   * isolate, and on storage other than a Durable Object's, its lease lapsed);
   * runs of a live owner (another Workspace object over this storage) are
   * left to it. `fail` runs settle failed; `restart` and `replay` runs are
   * taken over and relaunched (at most {@link MAX_RELAUNCHES} at once), or
   * wait for an answer when one of their calls does. Then prunes.
   */
  reconcile(): void {
    let rows: JournalRun[] = [];
    try {
      rows = this.journal.running();
    } catch {
      /* left for the next connect */
    }
    for (const row of rows) {
      if (this.#live.has(row.id)) continue;
      this.#reclaim(row);
    }
    this.#prune();
  }

  /** The verdict on the owner of running run `row` (ownership.ts). */
  #verdict(row: Pick<JournalRun, "owner" | "lease_until">): OwnerVerdict {
    return judgeOwner(row, this.ownerId, this.#storage, Date.now());
  }

  /**
   * Settles (`fail` runs) or takes over (`restart`, `replay`) running run
   * `row` when its owner is gone. Returns false when it was left alone
   * (owner alive) or could not be settled now.
   */
  #reclaim(row: JournalRun): boolean {
    // A closed connection takes nothing over: the next connection does.
    if (this.#closed || this.#verdict(row).kind !== "dead") return false;
    let durable = false;
    try {
      durable = this.durable.get(row.id) !== undefined;
    } catch {
      /* unreadable: settles failed */
    }
    if (durable) {
      this.#resume(row.id, "restart");
      return true;
    }
    try {
      return this.journal.settle(row.id, row.owner, encoder.encode("Execution was interrupted when its Workspace runtime restarted.\n"), this.now());
    } catch {
      return false; // left for the next connect or follower
    }
  }

  /** The live run `id` of another connection of this isolate that owns it, if any (to follow it). */
  #ownerRun(id: string): Run | undefined {
    let row: JournalRun | undefined;
    try {
      row = this.journal.get(id);
    } catch {
      return undefined;
    }
    if (!row || row.status !== "running") return undefined;
    const verdict = this.#verdict(row);
    return verdict.kind === "here" ? (verdict.owner.liveRun(id) as Run | undefined) : undefined;
  }

  /**
   * A stream of run `id` found nothing after `cursor` and no live run to
   * wait on (see `EventSource.follow`): re-read when the run ended
   * meanwhile; when another process owns it, wait {@link FOLLOW_POLL_MS} and
   * re-read; when its owner is gone, settle or take it over, then re-read.
   */
  async #follow(id: string, cursor: number): Promise<boolean> {
    let row: JournalRun | undefined;
    try {
      row = this.journal.get(id);
    } catch {
      return false;
    }
    if (!row) return false;
    if (row.status !== "running") return row.last_seq > cursor;
    if (this.#live.has(id)) return true;
    const verdict = this.#verdict(row);
    switch (verdict.kind) {
      case "mine":
        return false; // ended here without a persisted exit (the terminal event follows)
      case "here": {
        const run = verdict.owner.liveRun(id);
        if (!run) return false;
        await Promise.race([run.changed(), sleep(1_000)]);
        return true;
      }
      case "elsewhere":
        await sleep(FOLLOW_POLL_MS);
        return true;
      case "dead":
        if (!this.#reclaim(row)) await sleep(FOLLOW_POLL_MS);
        return true;
    }
  }

  /** Registers this connection as a live owner while it has live runs (and renews their leases off Durable Objects). */
  #liveChanged(): void {
    const live = this.#live.size > 0;
    if (live === this.#registered) return;
    this.#registered = live;
    if (live) {
      registerOwner(this.ownerId, this.#asOwner);
      if (!this.#durableObject) {
        const timer = setInterval(() => this.#renew(), RUN_LEASE_RENEW_MS);
        (timer as { unref?: () => void }).unref?.();
        this.#renewTimer = timer;
      }
    } else {
      unregisterOwner(this.ownerId);
      clearInterval(this.#renewTimer);
      this.#renewTimer = undefined;
    }
  }

  /**
   * The lease tick (storage other than a Durable Object's): extends the
   * leases of this connection's runs, stops runs another runtime settled or
   * took over (its lease had lapsed) and runs whose kill another process
   * requested, and relaunches waiting runs another process answered.
   */
  #renew(): void {
    try {
      this.journal.renew(Date.now() + RUN_LEASE_MS);
      const owned = new Map(this.journal.owned().map((r) => [r.id, r.kill_requested]));
      for (const [id, run] of [...this.#live]) {
        if (run.done) continue;
        const kill = owned.get(id);
        if (kill === undefined) void run.stop("lost");
        else if (kill) void run.stop("kill");
        else if (run.suspended && this.durable.unanswered(id) === 0) this.#afterSuspend(id);
      }
    } catch {
      /* tried again on the next tick */
    }
  }

  /** The journal refused `run`'s output: another runtime settled it or took it over; it stops without writing. */
  lost(run: Run): void {
    if (run.done) return;
    let row: JournalRun | undefined;
    try {
      row = this.journal.get(run.id);
    } catch {
      return;
    }
    if (row && row.status === "running" && row.owner === this.ownerId) return;
    void run.stop("lost");
  }

  /** The runtime this connection runs on, as a resumed run must find it (spec 02 §5). */
  #identity(): RuntimeIdentity {
    const o = this.options;
    return {
      replayVersion: REPLAY_VERSION,
      maxStdioBytes: o.maxStdioBytes,
      maxCapabilityBytes: o.maxCapabilityBytes,
      compatibilityDate: o.compatibilityDate,
      compatibilityFlags: [...o.compatibilityFlags],
    };
  }

  /** What differs between the runtime a run started on and this one, or null. */
  #changed(was: RuntimeIdentity): string | null {
    const now = this.#identity();
    if (was.replayVersion !== now.replayVersion) return `replay version ${was.replayVersion} → ${now.replayVersion}`;
    if (was.maxStdioBytes !== now.maxStdioBytes) return `maxStdioBytes ${was.maxStdioBytes} → ${now.maxStdioBytes}`;
    if (was.maxCapabilityBytes !== now.maxCapabilityBytes) return `maxCapabilityBytes ${was.maxCapabilityBytes} → ${now.maxCapabilityBytes}`;
    if (was.compatibilityDate !== now.compatibilityDate) return `compatibility date ${was.compatibilityDate} → ${now.compatibilityDate}`;
    if (JSON.stringify(was.compatibilityFlags) !== JSON.stringify(now.compatibilityFlags)) {
      return `compatibility flags ${JSON.stringify(was.compatibilityFlags)} → ${JSON.stringify(now.compatibilityFlags)}`;
    }
    return null;
  }

  /**
   * Relaunches durable run `id` (spec 02 §5): after a restart (`"restart"`:
   * an attempt, counted) or once its waits are answered (`"answer"`: not an
   * attempt). The run is live at once (so `killExec` and `getExec` find it)
   * and starts when a relaunch slot is free. Runs that cannot resume settle
   * failed with the reason.
   */
  #resume(id: string, reason: "restart" | "answer"): void {
    const record = this.durable.get(id);
    const run0 = this.journal.get(id);
    if (!record || !run0 || run0.status !== "running") return;
    // Taken over from its owner (judged gone by the caller), unless this connection runs it already.
    if (!this.#live.has(id) && !this.journal.claim(id, run0.owner, Date.now() + RUN_LEASE_MS)) return;
    const replay = record.policy === "replay";
    // The output journaled so far, by size: the attempt compares what it prints again with the journal a row at a time.
    const recorded = replay ? new RecordedOutput(this.journal, id, run0.last_seq) : undefined;
    const run = new Run(this, id, { policy: record.policy, journal: this.durable, ...(recorded ? { recorded } : {}) });
    run.seq = run0.last_seq;
    const previous = this.#live.get(id);
    this.#live.set(id, run);
    this.#liveChanged();
    previous?.retire();
    const spec = record.spec;
    // Checks that need no slot.
    const changed = this.#changed(spec.runtime);
    if (changed !== null) return void run.fail(`Execution could not resume: the JavaScript runtime changed since it started (${changed}).`);
    if (replay && reason === "restart") {
      if (this.durable.unanswered(id) > 0) {
        // A call still waits for its answer: the run stays waiting.
        run.suspended = true;
        return;
      }
      const unsafe = this.durable.unsafeInFlight(id);
      if (unsafe) {
        return void run.fail(
          `Execution could not resume: ${unsafe.target} ${unsafe.name} was running when the execution was interrupted, and it isn't safe to repeat (unsafeToRepeat).`,
        );
      }
    }
    if (reason === "restart") {
      const calls = replay ? this.durable.callCount(id) : 0;
      const attempts = replay && calls > record.progress ? 1 : record.attempts + 1;
      if (attempts > MAX_ATTEMPTS) return void run.fail(`Execution was interrupted ${MAX_ATTEMPTS} times without making progress.`);
      this.durable.attempt(id, attempts, calls);
    }
    void this.#slot(run).then((granted) => {
      if (!granted || run.done) return;
      const current = this.durable.get(id);
      const remaining = spec.startedAt + spec.timeoutMs + (current?.waitedMs ?? record.waitedMs) - Date.now();
      if (remaining <= 0) return void run.fail("Execution could not resume: its timeout passed before it could resume.");
      try {
        if (!replay) run.output([["stderr", encoder.encode("Execution restarted from the beginning after its Workspace runtime restarted.\n")]]);
        this.#launch(run, spec, remaining, replay ? { seed: spec.seed, clock: spec.startedAt, tape: this.durable.tape(id) } : undefined);
      } catch (err) {
        void run.fail(`Execution could not resume: ${err instanceof Error ? err.message : String(err)}`);
      }
    });
  }

  /** Waits for one of the {@link MAX_RELAUNCHES} relaunch slots for `run`; false when the run ended meanwhile. */
  async #slot(run: Run): Promise<boolean> {
    while (this.#slotted.size >= MAX_RELAUNCHES) {
      await new Promise<void>((resolve) => this.#slotQueue.push(resolve));
      if (run.done) return false;
    }
    if (run.done) return false;
    this.#slotted.add(run);
    return true;
  }

  /** Gives back `run`'s relaunch slot, if it holds one, to the next relaunch waiting. */
  #unslot(run: Run): void {
    if (!this.#slotted.delete(run)) return;
    this.#slotQueue.shift()?.();
  }

  /** Called by a replay run once it released its isolate to wait for an answer. */
  suspended(run: Run): void {
    this.#unslot(run);
  }

  /**
   * Starts `run` (a first attempt or a relaunch) from its saved `spec`, with
   * `timeoutMs` left; `replay` given: a replay attempt.
   */
  #launch(run: Run, spec: DurableSpec, timeoutMs: number, replay: ReplayContext | undefined): void {
    const o = this.options;
    const graph: ModuleGraph = { entry: spec.entry, modules: new Map(spec.modules), names: new Map(spec.names), sourceBytes: 0 };
    const { modules, names } = runModules(graph, this.#libraryModules(), this.#hostModules);
    run.capabilities = new RunCapabilities(this.fs, o, this.#hostModules, run, this.#version);
    const context: Omit<RunnerContext, "entry"> = {
      cwd: spec.cwd,
      env: spec.env,
      stdin: fromBase64(spec.stdin),
      entryName: graph.entry.split("/").pop(),
      maxStdioBytes: o.maxStdioBytes,
      stdioReserveBytes: STDIO_RESERVE_BYTES,
      maxResultBytes: o.maxResultBytes,
      maxCapabilityBytes: o.maxCapabilityBytes,
      maxCapabilityRequestBytes: o.maxCapabilityRequestBytes,
      maxConcurrentCapabilityCalls: o.maxConcurrentCapabilityCalls,
      maxCapabilityCalls: o.maxCapabilityCalls,
      names,
    };
    if (replay) {
      context.replay = replay;
      if (run.durable) {
        run.durable.known = this.durable.lastCall(run.id);
        run.durable.tapeEntries = replay.tape.length / 3;
      }
    }
    run.start(modules, graph.entry, spec.input, context, timeoutMs, spec.cpuMs);
  }

  /**
   * Calls of this backend's runs waiting for an answer (spec 02 §5), oldest
   * first (see {@link WorkspaceModulePendingOptions}): payloads are read
   * only for the calls listed with them.
   */
  async pending(options: WorkspaceModulePendingOptions = {}): Promise<WorkspaceModulePendingCall[]> {
    const backend = this.options.id;
    const withPayload = options.payloads !== false;
    const listed = (id: string, seq: number, since: number, payload: string | undefined): WorkspaceModulePendingCall => ({
      id,
      backend,
      callId: `${id}:${seq}`,
      ...(payload !== undefined ? { payload: JSON.parse(payload) as WorkspaceRuntimeValue } : {}),
      since,
    });
    if (options.callIds !== undefined) {
      const out: WorkspaceModulePendingCall[] = [];
      for (const callId of options.callIds) {
        if (typeof callId !== "string") continue;
        const colon = callId.lastIndexOf(":");
        const seq = callSeq(callId.slice(colon + 1));
        if (colon < 0 || seq === undefined) continue;
        const id = callId.slice(0, colon);
        const call = this.durable.unansweredCall(id, seq);
        if (call) out.push(listed(id, seq, call.since, withPayload ? call.payload : undefined));
      }
      return out;
    }
    const first = options.first !== undefined && Number.isSafeInteger(options.first) && options.first >= 0 ? options.first : undefined;
    return this.durable.unansweredCalls(first).map((c) => listed(c.id, c.seq, c.since, withPayload ? this.durable.unansweredCall(c.id, c.seq)?.payload : undefined));
  }

  /**
   * Answers waiting call `callId` of run `id` (spec 02 §5). Once no call of
   * the run waits, it replays to that call, whose `ctx.interrupt()` then
   * returns `answer`.
   *
   * @throws `ENOTWAITING` when the run is not running or the call is not waiting
   *   (already answered, never waited, unknown); TypeError/RangeError for an
   *   answer that is not JSON data or is over 262,144 characters of JSON.
   */
  async respond({ id, callId, answer }: { id: string; callId: string; answer: WorkspaceRuntimeValue }): Promise<void> {
    const json = interruptJson(answer, "the answer");
    const notWaiting = () =>
      runtimeError("ENOTWAITING", `execution ${quoteOrJson(id)} has no call ${quoteOrJson(callId)} waiting for an answer on backend "${this.options.id}"`);
    if (typeof callId !== "string" || !callId.startsWith(`${id}:`)) throw notWaiting();
    const seq = callSeq(callId.slice(id.length + 1));
    if (seq === undefined) throw notWaiting();
    const row = this.journal.get(id);
    if (row?.status !== "running") throw notWaiting();
    if (!this.durable.respond(id, seq, json)) throw notWaiting();
    if (this.durable.unanswered(id) > 0) return;
    // The deadline moves by the time the run waited (spec 02 §5).
    this.durable.waited(id, Date.now() - (this.durable.waitingSince(id) ?? Date.now()));
    if (!this.#live.has(id)) {
      // Another Workspace object over this storage owns it: that one relaunches it (at once in this
      // isolate; on its next lease renewal in another process). An owner that is gone: taken over here.
      const verdict = this.#verdict(row);
      if (verdict.kind === "here") return verdict.owner.answered(id);
      if (verdict.kind === "elsewhere") return;
    }
    const live = this.#live.get(id);
    // Still releasing its isolate: it relaunches once suspended (see below).
    if (live && !live.suspended && !live.done) {
      void live.changed().then(() => this.#afterSuspend(id));
      return;
    }
    this.#resume(id, "answer");
  }

  /** Relaunches run `id` once it has released its isolate, if all its waits are answered. */
  #afterSuspend(id: string): void {
    const live = this.#live.get(id);
    if (live?.done) return;
    if (live && !live.suspended) {
      void live.changed().then(() => this.#afterSuspend(id));
      return;
    }
    if (this.durable.unanswered(id) > 0) return;
    this.#resume(id, "answer");
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
    if (this.#live.get(run.id) === run) this.#live.delete(run.id);
    this.#liveChanged();
    this.#unslot(run);
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
   *   or running (also when another Workspace over the same storage started
   *   it meanwhile); `EEXEC_EXISTS` when the journal holds it; the errors of
   *   `checkRequest`, `resolveCwd`, `buildGraph` and `runModules`.
   */
  async exec(request: ExecRequest): Promise<ModuleExecutionEnvelope> {
    const o = this.options;
    if (this.#closed) throw runtimeError("ECLOSED", `the ${o.id} backend connection is closed`);
    this.#prune();
    const id = request.id ?? crypto.randomUUID();
    if (this.#live.has(id) || this.#starting.has(id)) throw runtimeError("EEXEC_BUSY", `execution ${JSON.stringify(id)} is already starting or running`);
    const existing = this.journal.get(id);
    if (existing?.status === "running") throw runtimeError("EEXEC_BUSY", `execution ${JSON.stringify(id)} is already running`);
    if (existing) {
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
    const checked = checkRequest(request, o);
    const { timeoutMs, input, stdin, env, source } = checked;
    const cwd = await resolveCwd(this.fs, o.root, request.cwd);
    const graph = await buildGraph(source, cwd, this.#graphContext);
    const { modules, names } = runModules(graph, this.#libraryModules(), this.#hostModules);
    // Re-check after the awaits above.
    if (this.#closed) throw runtimeError("ECLOSED", `the ${o.id} backend connection is closed`);
    if (this.#live.has(id)) throw runtimeError("EEXEC_BUSY", `execution ${JSON.stringify(id)} is already running`);
    if (o.access === "read-write") await this.#ensureRoot();
    let durability: RunDurability | undefined;
    let spec: DurableSpec | undefined;
    if (checked.policy !== "fail") {
      const seed = [...crypto.getRandomValues(new Uint32Array(4))];
      spec = {
        modules: [...graph.modules],
        names: [...graph.names],
        entry: graph.entry,
        input,
        env,
        cwd,
        stdin: toBase64(stdin),
        timeoutMs,
        cpuMs: Math.min(timeoutMs, o.maxCpuMs),
        seed,
        startedAt: Date.now(),
        runtime: this.#identity(),
      };
      durability = { policy: checked.policy, journal: this.durable };
    }
    this.journal.tx(() => {
      // Another Workspace over the same storage may have started this id meanwhile (its claim is not in #starting).
      const other = this.journal.get(id);
      if (other?.status === "running") throw runtimeError("EEXEC_BUSY", `execution ${JSON.stringify(id)} is already running`);
      if (other) throw runtimeError("EEXEC_EXISTS", `execution ${JSON.stringify(id)} already exists; disposeExec it first or use another id`);
      this.journal.start(id, this.now(), Date.now() + RUN_LEASE_MS);
      if (spec) this.durable.start(id, checked.policy as "restart" | "replay", spec);
    });
    const run = new Run(this, id, durability);
    run.capabilities = new RunCapabilities(this.fs, o, this.#hostModules, run, this.#version);
    this.#live.set(id, run);
    this.#liveChanged();
    const events = this.#events.open(id, 0);
    try {
      const context: Omit<RunnerContext, "entry"> = {
        cwd,
        env,
        stdin,
        entryName: graph.entry.split("/").pop(),
        maxStdioBytes: o.maxStdioBytes,
        stdioReserveBytes: STDIO_RESERVE_BYTES,
        maxResultBytes: o.maxResultBytes,
        maxCapabilityBytes: o.maxCapabilityBytes,
        maxCapabilityRequestBytes: o.maxCapabilityRequestBytes,
        maxConcurrentCapabilityCalls: o.maxConcurrentCapabilityCalls,
        maxCapabilityCalls: o.maxCapabilityCalls,
        names,
      };
      if (spec && checked.policy === "replay") context.replay = { seed: spec.seed, clock: spec.startedAt, tape: [] };
      run.start(modules, graph.entry, input, context, timeoutMs);
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
   * Cancels a live run (exit 130); a finished one is left as it is. A run
   * another Workspace object over this storage owns: in this isolate, its
   * owner stops it now; in another process, a kill request is recorded and
   * this resolves at once — the owner stops the run on its next lease
   * renewal (within {@link RUN_LEASE_RENEW_MS}), or, when it is gone, the run
   * is settled once its lease lapses. A run whose owner is gone is settled
   * (or taken over and cancelled) here.
   *
   * @throws `ENOENT` for an id the journal does not hold.
   */
  async killExec({ id }: { id: string; signal?: KillSignal }): Promise<void> {
    const run = this.#live.get(id);
    if (run) return run.stop("kill");
    const row = this.journal.get(id);
    if (!row) throw runtimeError("ENOENT", `no execution ${JSON.stringify(id)} on backend "${this.options.id}"`);
    if (row.status !== "running") return;
    const verdict = this.#verdict(row);
    if (verdict.kind === "here") return verdict.owner.killExec({ id });
    if (verdict.kind === "elsewhere") return this.journal.requestKill(id);
    if (verdict.kind === "dead" && this.#reclaim(row)) await this.#live.get(id)?.stop("kill");
  }

  /**
   * Deletes a finished run's record and events.
   *
   * @throws `EEXEC_BUSY` while it runs (here, or in another Workspace object
   *   over this storage); `ENOENT` for an id the journal does not hold.
   */
  async disposeExec({ id }: { id: string }): Promise<void> {
    const busy = () => runtimeError("EEXEC_BUSY", `execution ${JSON.stringify(id)} is still running; kill it first`);
    if (this.#live.has(id)) throw busy();
    let row = this.journal.get(id);
    if (!row) throw runtimeError("ENOENT", `no execution ${JSON.stringify(id)} on backend "${this.options.id}"`);
    if (row.status === "running" && this.#verdict(row).kind !== "mine") {
      this.#reclaim(row);
      row = this.journal.get(id);
      if (this.#live.has(id) || (row?.status === "running" && this.#verdict(row).kind !== "mine")) throw busy();
    }
    this.journal.delete(id);
  }

  /** Resumes or settles runs an earlier instance left running (see {@link reconcile}). */
  async recover(): Promise<void> {
    this.reconcile();
  }

  /**
   * Refuses new runs (`ECLOSED`) and cancels the live ones (exit 130);
   * resolves once they settled. Runs waiting for an answer hold no isolate
   * and are left waiting: the next connection over this storage resumes
   * them once answered (spec 02 §5).
   */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#live.values()].filter((run) => !run.suspended).map((run) => run.stop("close")));
    // Runs left waiting are released (no owner): the next connection over this storage takes them over at once.
    const waiting = [...this.#live.values()].filter((run) => run.suspended && !run.done);
    try {
      this.journal.release(waiting.map((run) => run.id));
    } catch {
      /* their leases lapse instead */
    }
    for (const run of waiting) {
      if (this.#live.get(run.id) === run) this.#live.delete(run.id);
    }
    this.#liveChanged();
  }
}

/**
 * The number of a call from the part of its `callId` after `<id>:`, as
 * pending() spells it: decimal digits without a leading zero (`1`, `12`),
 * a safe integer; `undefined` for any other spelling (`+1`, `01`, `1.0`,
 * `0x1`, `1e0`, ` 1`), which names no call.
 */
function callSeq(text: string): number | undefined {
  if (!/^[1-9][0-9]*$/.test(text)) return undefined;
  const seq = Number(text);
  return Number.isSafeInteger(seq) ? seq : undefined;
}

/** `value` quoted for a message: a string by {@link quoteCut}, anything else by {@link jsonCut}. */
function quoteOrJson(value: unknown): string {
  return typeof value === "string" ? quoteCut(value) : jsonCut(value);
}
