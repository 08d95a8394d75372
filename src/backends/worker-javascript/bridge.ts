/**
 * The host side of a run: `node:fs` over the Workspace and `ws:*` host
 * modules, with the bridge limits of spec 02 §3.6 (sizes, plain data,
 * concurrency, call counts, cumulative bytes, per-call deadlines).
 *
 * @module
 */
import type { WorkspaceFilesystem } from "../../fs/types.js";
import type { WorkspaceModuleCallContext, WorkspaceModuleFunctions } from "../../modules/types.js";
import type { WorkspaceRuntimeValue } from "../../runtime/types.js";
import type { StoreVersion } from "../../storage/store-version.js";
import { explainArguments, measure, normalizeJson, type ExplainsArguments } from "../../runtime/json-value.js";
import { concatBytes, decodeUtf8 } from "../../util/bytes.js";
import { directoryForm } from "../../util/path.js";
import { MAX_PATH_BYTES, utf8Length } from "../../fs/path.js";
import type { ResolvedOptions } from "./options.js";
import { checkLinkTarget, ConfinedResolver, pathError, type ConfinedPath } from "./paths.js";
import type { BridgeCallKind, BridgeError, BridgeResult, CallMeta } from "./protocol.js";
import { isUnsafeToRepeat, startsAtOnce } from "../../runtime/unsafe.js";
import { encodeValue, isRefusalArgs, MAX_JOURNALED_CALL_BYTES, refusalArgs, type DurableJournal } from "./durable.js";
import { FetchGate, type SerializedRequest } from "./fetch.js";
import { lostCallError } from "../../modules/replay.js";
import { estimateRpcSize, MAX_FS_RPC_RESULT_BYTES } from "../../do/rpc-size.js";
import { compactView } from "../../util/rpc-bytes.js"; // compact views: run 35, fixer UV

/** Characters of JSON a `ctx.interrupt()` payload or a `respond()` answer may have (spec 02 §5). */
export const MAX_INTERRUPT_JSON = 262_144;

/** `value` as JSON text of at most {@link MAX_INTERRUPT_JSON} characters, checked (`what` names it in errors). */
export function interruptJson(value: unknown, what: string): string {
  const json = JSON.stringify(normalizeJson(value, what));
  if (json.length > MAX_INTERRUPT_JSON) throw new RangeError(`${what} is ${json.length} characters of JSON, over ${MAX_INTERRUPT_JSON} characters`);
  return json;
}

const encoder = new TextEncoder();
const MAX_RESPONSE_VALUES = 4096;

/**
 * Entries one page of a run's `readdir` reads at most (64): the listing is
 * read page by page — fewer per page when that many entries with names of
 * the most a name in the directory can hold (`MAX_PATH_BYTES` less the
 * directory's path) would pass what the run may still receive, down to one —
 * and stops `E2BIG` as soon as the entries read pass
 * `maxCapabilityResponseBytes` less the run's responses so far, so at most
 * that plus one name is read before a listing is refused.
 */
export const READDIR_PAGE_ENTRIES = 64;
/** The run's umask, as Node's on a usual Linux: a new file or directory gets the mode asked less these bits. */
const UMASK = 0o022;
/** Times a `writeFile` looks at the path again when the file there changed between its `stat` and its write. */
const WRITE_ATTEMPTS = 3;

/**
 * Times a run's `readdir` of more than one page starts over when the store
 * changed between confining its path and reading its last page (8); then it
 * fails `EIO`. Each attempt confines the path again.
 */
export const READDIR_ATTEMPTS = 8;

/** What a `readdir` entry with an empty name measures (as measure() counts the answer). */
const EMPTY_ENTRY_BYTES = measure({ name: "", isFile: false, isDirectory: false, isSymbolicLink: false });

/**
 * True when a run's `node:fs` call `name` with the isolate's `args` changes
 * the tree in a way a repeat answers differently (issue 20 run 29, RP): `mkdir`
 * without `recursive` (a repeat meets its own directory: EEXIST), `rm`
 * without `force` (ENOENT), `symlink` (EEXIST) and `writeFile` with flag
 * `wx` (EEXIST). In a replay run such a call runs at most once: its start
 * is journaled before it runs, and resumed in flight it is not run again but
 * rejects {@link fsLostError} (`EEXEC_LOST`), as `ws:tools`' changing tools
 * do. The other changing calls (`writeFile` `w`, `chmod`, `rm` with `force`,
 * `mkdir` with `recursive`) leave the same tree when repeated and run again.
 */
export function fsRunsAtMostOnce(name: string, args: readonly unknown[]): boolean {
  switch (name) {
    case "mkdir":
      return args[1] !== true;
    case "rm":
      return args[2] !== true;
    case "symlink":
      return true;
    case "writeFile":
      return args[2] === "wx";
    default:
      return false;
  }
}

/** The `EEXEC_LOST` answer of a resumed {@link fsRunsAtMostOnce} call `name` (call id `callId`) of a replay run. */
function fsLostError(name: string, args: readonly unknown[], callId: string): Error {
  const path = name === "symlink" ? args[1] : args[0];
  const what = typeof path === "string" ? `node:fs ${name} '${path}'` : `node:fs ${name}`;
  return lostCallError(
    `${what}: this call was in flight when the run was interrupted (call "${callId}"), and it may have made its change; it is not run again. Look at the path to see whether it was made.`,
  );
}

/** A call as messages name it: `fs.readFile`, `fetch`, `ws:side hold`. */
function callLabel(kind: string, target: string, name: string): string {
  return kind === "fs" ? `fs.${name}` : kind === "fetch" ? "fetch" : `${target} ${name}`;
}

/**
 * The `E2BIG` error of a replay run's call whose arguments or answer take
 * `bytes` as journaled, past {@link MAX_JOURNALED_CALL_BYTES}; undefined
 * within it.
 */
function journalTooBig(part: "arguments" | "answer", bytes: number, label: string): BridgeError | undefined {
  if (bytes <= MAX_JOURNALED_CALL_BYTES) return undefined;
  const head = `${label}: its ${part} ${part === "answer" ? "is" : "are"} ${bytes} bytes as a replay run journals ${part === "answer" ? "it" : "them"} (JSON), over the ${MAX_JOURNALED_CALL_BYTES} (1.5 MiB) one journaled call may hold (a Durable Object SQLite value is at most 2 MB)`;
  const tail =
    part === "answer"
      ? "the call ran, but its answer cannot be kept for a resumed attempt. Return less per call (write big data to a file and return its path)."
      : "the call did not run. Pass less per call (write big data to a file and pass its path).";
  return { name: "RangeError", code: "E2BIG", message: `${head}; ${tail}` };
}

/** `read()`, or undefined when reading throws (a getter or Proxy trap of a thrown value). */
function safely<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/**
 * Any thrown value as data that survives RPC: its class (TypeError,
 * RangeError, else Error), message, code and path. Total: a value whose
 * fields or conversion to a string throw (getters, Proxy traps, a
 * null-prototype object) still gives an error, never a throw.
 */
function toBridgeError(err: unknown): BridgeError {
  const e = err as { name?: unknown; message?: unknown; code?: unknown; path?: unknown } | null | undefined;
  const name = safely(() => e?.name);
  const message = safely(() => e?.message);
  const code = safely(() => e?.code);
  const path = safely(() => e?.path);
  const out: BridgeError = {
    name: name === "TypeError" || name === "RangeError" ? name : "Error",
    message: clipText(
      typeof message === "string"
        ? message
        : (safely(() => String(err)) ?? "a host function threw a value that cannot be converted to a string"),
    ),
  };
  if (typeof code === "string" && code.length <= MAX_ERROR_CODE_CHARS) out.code = code;
  if (typeof path === "string") out.path = clipText(path);
  return out;
}

/**
 * Characters of a host call's error message (and of its `path`) handed to
 * the code — and journaled in a replay run: 16,384. A longer one is cut, on
 * a character boundary, with a marker saying how much was cut, so errors
 * stay within a call's budget whatever a host function throws (a replay
 * run's 256 calls of errors journal at most about 4 MiB).
 */
export const MAX_HOST_ERROR_CHARS = 16_384;

/** Longest error `code` passed on (a longer one is no code: dropped). */
const MAX_ERROR_CODE_CHARS = 256;

/** `text` cut to {@link MAX_HOST_ERROR_CHARS} characters with a marker, never between a character's halves. */
function clipText(text: string): string {
  if (text.length <= MAX_HOST_ERROR_CHARS) return text;
  let end = MAX_HOST_ERROR_CHARS;
  if ((text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
  return `${text.slice(0, end)}… [${text.length - end} more characters cut]`;
}

/** Collects a byte stream into one array (a lone chunk is kept when it spans its whole buffer, else copied). */
/** `fs.stat(path)`; `undefined` when nothing is there (`ENOENT`, `ENOTDIR`). Other errors pass on. */
async function statOrUndefined(fs: WorkspaceFilesystem, path: string): Promise<Awaited<ReturnType<WorkspaceFilesystem["stat"]>> | undefined> {
  try {
    return await fs.stat(path);
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw err;
  }
}

/** `fs.lstat(path)`; `undefined` when nothing is there (`ENOENT`, `ENOTDIR`). Other errors pass on. */
async function lstatOrUndefined(fs: WorkspaceFilesystem, path: string): Promise<Awaited<ReturnType<WorkspaceFilesystem["lstat"]>> | undefined> {
  try {
    return await fs.lstat(path);
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw err;
  }
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    parts.push(value);
    size += value.byteLength;
  }
  const only = parts.length === 1 ? parts[0] : undefined;
  if (only) return only.byteOffset === 0 && only.byteLength === only.buffer.byteLength ? only : only.slice();
  return concatBytes(parts, size);
}

export { measure } from "../../runtime/json-value.js";
export { defineKey, normalizeJson } from "../../runtime/json-value.js";

/** Fails a replay run whose call `seq` is not the one its journal holds (kind, target, name or arguments). */
function diverged(run: BridgeRun, seq: number, journaled: { kind: string; target: string; name: string }, kind: BridgeCallKind, target: string, name: string): BridgeResult {
  const same = journaled.kind === kind && journaled.target === target && journaled.name === name;
  const message = `${DIVERGED_PREFIX}call ${seq} was ${callLabel(journaled.kind, journaled.target, journaled.name)}${same ? " with other arguments" : ""}, now ${callLabel(kind, target, name)}.`;
  void run.fail?.(message);
  return { ok: false, error: { name: "Error", message } };
}

/** Connected host modules: name → module object. */
export type HostModules = ReadonlyMap<string, WorkspaceModuleFunctions>;

/** The run the bridge serves. */
export interface BridgeRun {
  readonly id: string;
  /** Null while calls are accepted, else why they are refused. */
  refusal(): string | null;
  /** Signals a call's deadline passed: the run will end failed. */
  deadlineMissed(name: string): void;
  /** Tracks an accepted call until it settles (drain rule); the returned function releases it (deadline passed). */
  track(promise: Promise<unknown>, controller: AbortController): () => void;
  /** Controllers of calls in flight (aborted on cancel). */
  readonly controllers: Set<AbortController>;
  /** Replay runs (spec 02 §5): their calls are numbered and journaled. */
  readonly replays?: boolean;
  /** Restart and replay runs: where calls, waits and tape are kept. */
  readonly durable?: { journal: DurableJournal; known?: number };
  /** True while new calls are held (the run is releasing its isolate to wait for an answer). */
  held?(): boolean;
  /** Releases the isolate to wait for an answer (the first `ctx.interrupt()`). */
  suspend?(): Promise<void>;
  /** An answer for a call held while the run releases its isolate: settles (unseen) when the isolate is disposed. */
  hold?(): Promise<BridgeResult>;
  /** Journals tape entries the isolate recorded (replay runs). */
  tape?(entries: unknown): void;
  /** Ends the run failed with `message` (divergence). */
  fail?(message: string): Promise<void>;
  /** Called once per wait, after it was saved (the backend's `onWait`). */
  waiting?(seq: number, payload: string, since: number): void;
}

/** A call that waits for an answer: the host function's promise never settles in this attempt. */
const WAITING: unique symbol = Symbol("waiting");

/** The start of every divergence message (spec 02 §5; also run.ts `DIVERGED`). */
const DIVERGED_PREFIX = "The execution took a different path when it resumed after an interruption: ";

/** Filesystem and host-module calls for one run, with its limits. */
export class RunCapabilities {
  readonly #fs: WorkspaceFilesystem;
  readonly #o: ResolvedOptions;
  readonly #modules: HostModules;
  readonly #run: BridgeRun;
  #calls = 0;
  #inFlight = 0;
  #requestBytes = 0;
  #responseBytes = 0;

  readonly #paths: ConfinedResolver;
  readonly #version: StoreVersion | undefined;

  /**
   * @param version Store version for the per-run memo of checked directories
   *   (see {@link ConfinedResolver}); without it every call checks every component.
   */
  constructor(fs: WorkspaceFilesystem, options: ResolvedOptions, modules: HostModules, run: BridgeRun, version?: StoreVersion) {
    this.#fs = fs;
    this.#o = options;
    this.#modules = modules;
    this.#run = run;
    this.#paths = new ConfinedResolver(fs, options.root, version);
    this.#version = version;
  }

  /**
   * One call from the isolate. Never throws: failures come back as
   * `{ ok: false }`. In replay runs (`meta` given, spec 02 §5) a call whose
   * answer is journaled is answered from the journal (after checking it is
   * the same call) and counts against the run's budgets as it did when it
   * ran, so the budgets bound the whole run, not each attempt; any other is
   * admitted under the budgets, journaled as started, run, and its answer
   * journaled; a call that waits for an answer never settles. A call the
   * budgets refuse journals nothing (a resumed attempt reaches it with the
   * same counts and refuses it again), except one refused for
   * `maxConcurrentCapabilityCalls`, which depends on timing: its refusal is
   * journaled without its arguments (a fingerprint, see {@link refusalArgs})
   * and it counts against `maxCapabilityCalls`.
   */
  async call(kind: BridgeCallKind, target: string, name: string, args: unknown[], meta?: CallMeta): Promise<BridgeResult> {
    const run = this.#run;
    // The tape the isolate recorded before this call goes first (a held call's too: it precedes the hold).
    if (meta && Array.isArray(meta.tape)) run.tape?.(meta.tape);
    if (run.held?.()) return run.hold!();
    const durable = run.replays && meta && Number.isSafeInteger(meta.seq) && meta.seq > 0 ? run.durable!.journal : undefined;
    if (!durable) {
      const refused = this.#admit(kind, args);
      return refused ? { ok: false, error: refused.error } : this.#perform(kind, target, name, args, undefined);
    }
    const seq = meta!.seq;
    // Admission's bounded size check first: what the isolate sent may be a sparse array of any length, which
    // encodeValue would walk whole and build as text (2·10^7 holes: 100 MB of JSON, the object held ~15 s).
    const oversize = this.#oversize(kind, args);
    if (oversize) {
      const journaled = seq <= (run.durable!.known ?? 0) ? durable.call(run.id, seq) : undefined;
      if (journaled) {
        // What was journaled passed this check: these are other arguments.
        return diverged(run, seq, journaled, kind, target, name);
      }
      return { ok: false, error: oversize };
    }
    let encoded: string;
    try {
      encoded = encodeValue(args);
    } catch {
      return { ok: false, error: { name: "TypeError", message: "malformed host call" } };
    }
    // Calls past the journal's end when the attempt started are new: no lookup (it would flush held writes).
    const journaled = seq <= (run.durable!.known ?? 0) ? durable.call(run.id, seq) : undefined;
    if (journaled) {
      const refusal = isRefusalArgs(journaled.args);
      if (journaled.kind !== kind || journaled.target !== target || journaled.name !== name || journaled.args !== (refusal ? refusalArgs(encoded) : encoded)) {
        return diverged(run, seq, journaled, kind, target, name);
      }
      if (journaled.state === "done") {
        const answer = durable.answer(run.id, seq);
        if (answer) {
          this.#replayed(kind, args, answer, refusal);
          return answer.ok ? { ok: true, value: answer.value } : { ok: false, error: answer.value as BridgeError };
        }
      }
    }
    // A new call, or a journaled one that is not done: it was in flight when the run was interrupted, and runs again (`ctx.resumed`;
    // a node:fs call of fsRunsAtMostOnce rejects EEXEC_LOST instead).
    if (!journaled) {
      // Arguments too big for a journal row: refused before anything counts or is journaled (a resumed attempt refuses them again).
      const tooBig = journalTooBig("arguments", utf8Length(encoded), callLabel(kind, target, name));
      if (tooBig) return { ok: false, error: tooBig };
    }
    const refused = this.#admit(kind, args);
    if (refused) {
      if (run.refusal() === null && (journaled || refused.timing)) {
        try {
          if (journaled) durable.done(run.id, seq, false, refused.error);
          else durable.refused(run.id, { seq, kind, target, name, args: refusalArgs(encoded) }, refused.error);
        } catch {
          /* not journaled: a replay decides it again */
        }
      }
      return { ok: false, error: refused.error };
    }
    if (!journaled) {
      const fn = kind === "host" ? this.#modules.get(target)?.[name] : undefined;
      // A node:fs call that runs at most once has its start written before it runs, as a marked host function's.
      const atOnce = kind === "fs" ? fsRunsAtMostOnce(name, args) : startsAtOnce(fn, args);
      try {
        durable.started(run.id, { seq, kind, target, name, args: encoded, unsafe: isUnsafeToRepeat(fn) }, atOnce);
      } catch {
        /* not journaled: a replay runs it again */
      }
    }
    let result = await this.#perform(kind, target, name, args, seq, journaled !== undefined);
    // Not journaled: answers of a run being stopped, and those of calls held or waiting while it
    // released its isolate (ERELEASED: the code never sees them). Calls that finish meanwhile are.
    const released = !result.ok && result.error.code === "ERELEASED";
    if (run.refusal() === null && !released) {
      try {
        const answer = result.ok ? result.value : result.error;
        let encodedAnswer = answer instanceof Uint8Array && result.ok ? undefined : encodeValue(answer ?? null);
        const tooBig = journalTooBig(
          "answer",
          encodedAnswer === undefined ? (answer as Uint8Array).byteLength : utf8Length(encodedAnswer),
          callLabel(kind, target, name),
        );
        if (tooBig) {
          // The code gets what a resumed attempt will be served from the journal.
          result = { ok: false, error: tooBig };
          encodedAnswer = encodeValue(tooBig);
        }
        durable.done(run.id, seq, result.ok, result.ok ? result.value : result.error, encodedAnswer);
      } catch {
        /* not journaled: a replay runs it again */
      }
    }
    return result;
  }

  /**
   * The refusal of a replay run's call whose arguments are over what
   * admission takes — `maxCapabilityBytes` (a fetch: the run's
   * `maxCapabilityRequestBytes` left) or {@link MAX_JOURNALED_CALL_BYTES},
   * whichever is larger — found by the bounded {@link measure} walk before
   * anything encodes them; `undefined` when they may be within. Nothing is
   * counted or journaled for it (as for any call refused by size); the
   * message is admission's (the size is where the walk stopped).
   */
  #oversize(kind: BridgeCallKind, args: unknown[]): BridgeError | undefined {
    if (!Array.isArray(args)) return undefined;
    const o = this.#o;
    const cap = Math.max(MAX_JOURNALED_CALL_BYTES, kind === "fetch" ? o.maxCapabilityRequestBytes - this.#requestBytes : o.maxCapabilityBytes);
    let size: number;
    try {
      size = measure(args, undefined, undefined, cap);
    } catch {
      return undefined; // not JSON-compatible: encodeValue refuses it
    }
    if (size <= cap) return undefined;
    return toBridgeError(
      kind === "fetch"
        ? pathError("E2BIG", `fetch requests exceed maxCapabilityRequestBytes (${o.maxCapabilityRequestBytes}) for this run: a replay run journals every fetch; fetch less, or raise the backend's maxCapabilityRequestBytes`)
        : pathError("E2BIG", `host call request is ${size} bytes, over maxCapabilityBytes (${o.maxCapabilityBytes})`),
    );
  }

  /**
   * Counts a call answered from the journal on a resumed attempt as it was
   * counted when it ran: a call (not `fetch`), its request bytes, and its
   * answer's bytes when it succeeded; a journaled refusal (`refusal`) counts
   * one call, as it did.
   */
  #replayed(kind: BridgeCallKind, args: unknown[], answer: { ok: boolean; value: unknown }, refusal: boolean): void {
    if (kind !== "fetch") this.#calls++;
    if (refusal) return;
    try {
      this.#requestBytes += measure(args);
      if (answer.ok) this.#responseBytes += measure(answer.value);
    } catch {
      /* not measurable (it was when it ran): not counted */
    }
  }

  /**
   * Admits a call under the run's limits, counting it; else the refusal
   * (`timing`: refused for `maxConcurrentCapabilityCalls`, which depends on
   * timing, not on the calls before it — in replay runs it counts against
   * `maxCapabilityCalls`).
   */
  #admit(kind: BridgeCallKind, args: unknown[]): { error: BridgeError; timing: boolean } | null {
    const o = this.#o;
    try {
      const refusal = this.#run.refusal();
      if (refusal) throw pathError("ECANCELED", refusal);
      if (!Array.isArray(args)) throw new TypeError("malformed host call");
      if (kind !== "fs" && kind !== "host" && kind !== "fetch") throw new TypeError("malformed host call");
      if (kind === "fetch") {
        // Outside maxCapabilityCalls and the host-call deadline (the fetch gate bounds each fetch), but
        // every request and answer is journaled until the run ends: their bytes count against the run's
        // byte budgets, as a host call's do.
        if (!this.#run.replays) throw new TypeError("fetch goes through the host only in replay runs");
        const size = measure(args, undefined, undefined, o.maxCapabilityRequestBytes - this.#requestBytes);
        if (this.#requestBytes + size > o.maxCapabilityRequestBytes) {
          throw pathError(
            "E2BIG",
            `fetch requests exceed maxCapabilityRequestBytes (${o.maxCapabilityRequestBytes}) for this run: a replay run journals every fetch; fetch less, or raise the backend's maxCapabilityRequestBytes`,
          );
        }
        this.#requestBytes += size;
      } else {
        if (this.#calls >= o.maxCapabilityCalls) throw pathError("E2BIG", `this run made more than maxCapabilityCalls (${o.maxCapabilityCalls}) host calls`);
        if (this.#inFlight >= o.maxConcurrentCapabilityCalls) {
          if (this.#run.replays) this.#calls++;
          const error = toBridgeError(pathError("E2BIG", `more than maxConcurrentCapabilityCalls (${o.maxConcurrentCapabilityCalls}) host calls are in flight`));
          return { error, timing: true };
        }
        // The walk stops once past either limit: what the isolate sent may be a sparse array of any length.
        const size = measure(args, undefined, undefined, Math.min(o.maxCapabilityBytes, o.maxCapabilityRequestBytes - this.#requestBytes));
        if (size > o.maxCapabilityBytes) throw pathError("E2BIG", `host call request is ${size} bytes, over maxCapabilityBytes (${o.maxCapabilityBytes})`);
        if (this.#requestBytes + size > o.maxCapabilityRequestBytes) {
          throw pathError("E2BIG", `host call requests exceed maxCapabilityRequestBytes (${o.maxCapabilityRequestBytes}) for this run`);
        }
        this.#calls++;
        this.#requestBytes += size;
      }
      return null;
    } catch (err) {
      return { error: toBridgeError(err), timing: false };
    }
  }

  /** Runs an admitted call (see {@link #admit}); `seq` is the call's number in replay runs. */
  async #perform(kind: BridgeCallKind, target: string, name: string, args: unknown[], seq: number | undefined, resumed = false): Promise<BridgeResult> {
    const o = this.#o;
    const controller = new AbortController();
    const deadline = Date.now() + o.maxHostCallMs;
    const limited = kind !== "fetch";
    if (limited) this.#inFlight++;
    let startWaiting!: () => void;
    const waiting = new Promise<typeof WAITING>((resolve) => (startWaiting = () => resolve(WAITING)));
    const work = (async () =>
      kind === "fs"
        ? resumed && seq !== undefined && fsRunsAtMostOnce(name, args)
          ? this.#fsLost(name, args, seq)
          : this.#fs_(name, args, controller.signal)
        : kind === "fetch"
          ? this.#fetch(args, controller.signal)
          : this.#host(target, name, args, controller, deadline, seq, startWaiting, resumed))();
    const release = this.#run.track(work, controller);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      if (!limited) return;
      timer = setTimeout(() => {
        controller.abort(pathError("ETIMEDOUT", "capability call timed out."));
        this.#run.deadlineMissed(kind === "fs" ? `fs.${name}` : `${target} ${name}`);
        // Past its deadline the call no longer holds the run's end back, even
        // when a stop aborted its signal earlier (that abort makes this one a no-op).
        release();
        reject(pathError("ETIMEDOUT", "capability call timed out."));
      }, o.maxHostCallMs);
    });
    try {
      const value = await Promise.race([work, timeout, waiting]);
      if (value === WAITING) {
        // The call waits for an answer: it no longer holds the run's end or
        // its deadline; the isolate is released and this never answers.
        clearTimeout(timer);
        release();
        if (limited) this.#inFlight--;
        return await this.#run.hold!();
      }
      // Bytes that are a view of a larger buffer cross back compact, not with the whole buffer (run 35, fixer UV).
      const sent = ArrayBuffer.isView(value) ? compactView(value) : value;
      const counter = { values: 0 };
      const size = measure(sent, counter);
      if (kind === "host" && size > o.maxCapabilityBytes) {
        throw pathError("E2BIG", `host call response is ${size} bytes, over maxCapabilityBytes (${o.maxCapabilityBytes})`);
      }
      // Host modules answer any shape: their values are counted. The fs answers are this bridge's own shapes, bounded by
      // their own limits (maxDirectoryEntries: a full listing of 1,024 entries is 5,121 values).
      if (kind === "host" && counter.values > MAX_RESPONSE_VALUES) throw pathError("E2BIG", `host call response holds more than ${MAX_RESPONSE_VALUES} values`);
      // With maxCapabilityBytes raised past workerd's 32 MiB, an answer within it may still not cross RPC back to
      // the isolate (which would get workerd's uncoded error): refused E2BIG here, counted as nothing.
      if (estimateRpcSize(sent, MAX_FS_RPC_RESULT_BYTES) > MAX_FS_RPC_RESULT_BYTES) {
        throw pathError(
          "E2BIG",
          `host call response is over ${MAX_FS_RPC_RESULT_BYTES} bytes, more than crosses RPC back to the run (workerd's limit is 32 MiB); ${
            kind === "fs" ? "read less at once (a file is read whole)" : "the call ran, but its answer cannot be sent: return less per call (write big data to a file and return its path)"
          }`,
        );
      }
      if (this.#responseBytes + size > o.maxCapabilityResponseBytes) {
        throw pathError(
          "E2BIG",
          limited
            ? `host call responses exceed maxCapabilityResponseBytes (${o.maxCapabilityResponseBytes}) for this run`
            : `fetch responses exceed maxCapabilityResponseBytes (${o.maxCapabilityResponseBytes}) for this run: a replay run journals every fetch; fetch less, or raise the backend's maxCapabilityResponseBytes`,
        );
      }
      this.#responseBytes += size;
      return { ok: true, value: sent };
    } catch (err) {
      return { ok: false, error: toBridgeError(err) };
    } finally {
      clearTimeout(timer);
      if (limited) this.#inFlight--;
    }
  }

  /** The run's fetch gate (replay runs), made on first use. */
  #gate: FetchGate | undefined;

  /** A replay run's `fetch`, sent by the host under the backend's egress policy (spec 02 §5). */
  async #fetch(args: unknown[], signal: AbortSignal): Promise<unknown> {
    if (!this.#run.replays) throw new TypeError("fetch goes through the host only in replay runs");
    this.#gate ??= new FetchGate({ egress: this.#o.egress, maxBytes: this.#o.maxCapabilityBytes });
    return this.#gate.fetch(args[0] as SerializedRequest, signal);
  }

  #writable(): void {
    if (this.#o.access !== "read-write") throw pathError("EROFS", "write access is not available: this backend is read-only (access: \"read\")");
    // The run is about to change the tree: check every component on its next call.
    this.#paths.forget();
  }

  async #resolve(path: unknown, allowLastLink = false): Promise<string> {
    return (await this.#resolveWithStat(path, allowLastLink)).path;
  }

  /** Like #resolve, plus the `lstat` of the last component when it was checked (then it is no link: `lstat` = `stat`). */
  async #resolveWithStat(path: unknown, allowLastLink = false): Promise<ConfinedPath> {
    if (typeof path !== "string") throw new TypeError(`path must be a string, got ${path === null ? "null" : typeof path}`);
    return this.#paths.resolve(path, { allowLastLink });
  }

  /**
   * Resolves a node:fs path as Node on Linux reads it, before the Workspace
   * drops what it would not keep: `""` is `ENOENT` (Node joins nothing to
   * the cwd; resolved, it would name the root); a path in directory form
   * (`f.txt/`, `f.txt/.`: {@link directoryForm}) must lead to a directory —
   * its last component is checked, never taken as a link (the form follows
   * it) — so a non-directory there is `ENOTDIR`; with `create` (writeFile:
   * open(2) with `O_CREAT`) `f/` is `EISDIR` whatever is there and a
   * missing `f/.` is `ENOENT`. Messages name `syscall` and the path as
   * written, as Node's do.
   */
  async #resolveNode(path: unknown, syscall: string, options: { allowLastLink?: boolean; create?: boolean } = {}): Promise<ConfinedPath> {
    if (path === "") throw pathError("ENOENT", `ENOENT: no such file or directory, ${syscall} ''`, "");
    const form = typeof path === "string" ? directoryForm(path) : null;
    const resolved = await this.#resolveWithStat(path, options.allowLastLink === true && form === null);
    if (form === null) return resolved;
    const where = `${syscall} '${path as string}'`;
    if (options.create && form === "slash") throw pathError("EISDIR", `EISDIR: illegal operation on a directory, ${where}`, resolved.path);
    if (resolved.last === undefined) {
      if (options.create) throw pathError("ENOENT", `ENOENT: no such file or directory, ${where}`, resolved.path);
      return resolved;
    }
    if (!resolved.last.isDirectory) throw pathError("ENOTDIR", `ENOTDIR: not a directory, ${where}`, resolved.path);
    return resolved;
  }

  /**
   * A replay run's resumed {@link fsRunsAtMostOnce} call, in flight when the
   * run was interrupted: not run again, rejects `EEXEC_LOST` — unless the
   * backend is read-only (then the first attempt changed nothing: `EROFS`).
   */
  async #fsLost(name: string, args: unknown[], seq: number): Promise<never> {
    this.#writable();
    throw fsLostError(name, args, `${this.#run.id}:${seq}`);
  }

  async #fs_(name: string, args: unknown[], signal: AbortSignal): Promise<unknown> {
    const fs = this.#fs;
    switch (name) {
      case "readFile": {
        const { path: p, last } = await this.#resolveNode(args[0], "open");
        const st = last ?? (await fs.stat(p));
        if (st.isDirectory) throw pathError("EISDIR", `EISDIR: illegal operation on a directory, read: ${p}`, p);
        if (st.size > this.#o.maxCapabilityBytes) {
          throw pathError("E2BIG", `file read exceeds maxCapabilityBytes (${this.#o.maxCapabilityBytes} bytes): ${p} is ${st.size} bytes`, p);
        }
        const bytes = await readAll(await fs.readFile(p));
        // As Node's readFile(p, "utf8") (Buffer#toString): a leading byte order mark stays in the text.
        return args[1] === "utf8" ? decodeUtf8(bytes) : bytes;
      }
      case "writeFile": {
        this.#writable();
        const data = args[1];
        if (typeof data !== "string" && !(data instanceof Uint8Array)) throw new TypeError("writeFile: data must be a string or bytes");
        const exclusive = args[2] === "wx";
        // A new file: the mode asked (default 0o666) less the umask, as open(2) with O_CREAT.
        const created = (typeof args[3] === "number" ? args[3] : 0o666) & 0o7777 & ~UMASK;
        for (let attempt = 1; ; attempt++) {
          const { path: p, last } = await this.#resolveNode(args[0], "open", { create: true });
          if (exclusive) {
            await fs.writeFile(p, data, { exclusive: true, mode: created });
            return null;
          }
          try {
            // An existing file keeps its mode, as open(2) with O_TRUNC: the write is bound to the file whose mode
            // was read (ifInode); a missing one is created only if still missing (exclusive). Either changed in
            // between (ESTALE, ENOENT, EEXIST): look again.
            if (last?.isFile) await fs.writeFile(p, data, { mode: last.mode & 0o7777, ifInode: last.inode });
            else if (last === undefined) await fs.writeFile(p, data, { mode: created, exclusive: true });
            else await fs.writeFile(p, data, { mode: created });
            return null;
          } catch (err) {
            const code = (err as { code?: string }).code;
            const raced = last?.isFile ? code === "ESTALE" || code === "ENOENT" : last === undefined && code === "EEXIST";
            if (!raced || attempt >= WRITE_ATTEMPTS) throw err;
          }
        }
      }
      case "mkdir": {
        this.#writable();
        if (args[0] === "") throw pathError("ENOENT", "ENOENT: no such file or directory, mkdir ''", "");
        const recursive = args[1] === true;
        const { path: p, last } = await this.#resolveWithStat(args[0]);
        // As mkdir(2) on Linux reads a path in directory form: `nd/.` names an entry of `nd`, so a missing
        // `nd` is ENOENT (without recursive); `f/.` of a file, and `f/` with recursive, are ENOTDIR.
        const form = typeof args[0] === "string" ? directoryForm(args[0]) : null;
        if (form !== null && (form === "dot" || recursive)) {
          const st = last ?? (await statOrUndefined(fs, p));
          const where = `mkdir '${args[0] as string}'`;
          if (st === undefined && form === "dot" && !recursive) throw pathError("ENOENT", `ENOENT: no such file or directory, ${where}`, p);
          if (st !== undefined && !st.isDirectory) throw pathError("ENOTDIR", `ENOTDIR: not a directory, ${where}`, p);
        }
        // As mkdir(2): the mode asked (default 0o777) less the umask; with recursive, missing parents get 0o755.
        const mode = (typeof args[2] === "number" ? args[2] : 0o777) & 0o7777 & ~UMASK;
        const first = recursive ? await this.#firstMissing(args[0] as string) : undefined;
        await fs.mkdir(p, { recursive, mode });
        return first ?? null;
      }
      case "rm": {
        this.#writable();
        // As node:fs: "" is a missing path (nothing removed; resolved with force).
        if (args[0] === "" && args[2] === true) return null;
        const { path: p, last: checked } = await this.#resolveNode(args[0], "rm", { allowLastLink: true });
        // As node:fs: rm without recursive never removes a directory (that is rmdir's job), empty or not, with
        // force or not — Node's lstat sees it first (a link to one is removed, as unlink(2)).
        if (args[1] !== true && (checked ?? (await lstatOrUndefined(fs, p)))?.isDirectory) {
          throw pathError("ERR_FS_EISDIR", `Path is a directory: rm returned EISDIR (is a directory) ${args[0] as string}`, p);
        }
        if (p === this.#o.root) throw pathError("EPERM", `refusing to remove the backend root ${p}`, p);
        // As node:fs on Linux: a last segment "." or ".." (as written) is EINVAL — resolved, it names the directory
        // itself (or its parent), which the Workspace would remove.
        const last = typeof args[0] === "string" ? args[0].replace(/\/+$/, "").split("/").pop() : undefined;
        if (last === "." || last === "..") throw pathError("EINVAL", `EINVAL: invalid argument, rm '${p}' (a path ending in "${last}")`, p);
        await fs.rm(p, { recursive: args[1] === true, force: args[2] === true });
        return null;
      }
      case "chmod": {
        this.#writable();
        const { path: p } = await this.#resolveNode(args[0], "chmod");
        if (typeof args[1] !== "number") throw new TypeError("chmod: mode must be a number");
        await fs.chmod(p, args[1]);
        return null;
      }
      case "symlink": {
        this.#writable();
        if (typeof args[0] !== "string") throw new TypeError("symlink: target must be a string");
        if (args[1] === "") throw pathError("ENOENT", "ENOENT: no such file or directory, symlink ''", "");
        if (typeof args[1] === "string" && directoryForm(args[1]) !== null) {
          // A link path in directory form (`new/`, `new/.`) can name no new link, as symlink(2) on Linux
          // answers: EEXIST when something is there, else ENOENT; nothing is created.
          const { path: p, last } = await this.#resolveWithStat(args[1]);
          const there = last !== undefined || (await lstatOrUndefined(fs, p)) !== undefined;
          const where = `symlink '${args[0]}' -> '${args[1]}'`;
          throw there ? pathError("EEXIST", `EEXIST: file already exists, ${where}`, p) : pathError("ENOENT", `ENOENT: no such file or directory, ${where}`, p);
        }
        const p = await this.#resolve(args[1], true);
        // Where the target leads through the links that exist now, not its text alone (spec 01 §2.3);
        // stored without ".." after a name, so no later link can move it out of root.
        await fs.symlink(await checkLinkTarget(fs, this.#o.root, p, args[0]), p);
        return null;
      }
      case "readlink":
        return fs.readlink((await this.#resolveNode(args[0], "readlink", { allowLastLink: true })).path);
      case "readdir": {
        return args[1] === true ? this.#readdirRecursive(args[0] ?? ".", signal) : this.#readdir(args[0] ?? ".", signal);
      }
      case "stat":
      case "lstat": {
        const { path: p, last } = await this.#resolveNode(args[0], name, { allowLastLink: name === "lstat" });
        const s = last ?? (name === "stat" ? await fs.stat(p) : await fs.lstat(p));
        return { name: s.name, inode: s.inode, mode: s.mode, mtime: s.mtime, size: s.size, isFile: s.isFile, isDirectory: s.isDirectory, isSymbolicLink: s.isSymbolicLink };
      }
      case "access": {
        const { path: p, last } = await this.#resolveNode(args[0], "access");
        if (last) return null;
        try {
          await fs.stat(p);
        } catch (err) {
          if ((err as { code?: string }).code === "ENOENT") throw pathError("ENOENT", `ENOENT: no such file or directory, access '${p}'`, p);
          throw err;
        }
        return null;
      }
      default:
        throw new TypeError(`node:fs has no method ${name}`);
    }
  }

  /**
   * The first directory a recursive `mkdir` of run path `path` would create, as the path was written (its
   * whole text when that is the leaf), as Node's `mkdir` resolves it; `undefined` when everything is there.
   */
  async #firstMissing(path: string): Promise<string | undefined> {
    const ends: number[] = [];
    for (let i = 1; i < path.length; i++) if (path[i] === "/" && path[i - 1] !== "/") ends.push(i);
    if (!path.endsWith("/")) ends.push(path.length);
    for (let k = 0; k < ends.length; k++) {
      const prefix = path.slice(0, ends[k]);
      const name = prefix.slice(prefix.lastIndexOf("/") + 1);
      if (name === "" || name === "." || name === "..") continue;
      if ((await this.#resolveWithStat(prefix)).last === undefined) return k === ends.length - 1 ? path : prefix;
    }
    return undefined;
  }

  /**
   * A run's `readdir(path, { recursive: true })`, walked as Node's (libuv's
   * `readdir` of each directory; the directory found last is read first):
   * every entry with `dir`, its directory relative to `path` (`""` at the
   * top). Directories are entered, links never followed (the run follows
   * none). At most `maxDirectoryEntries` entries in all.
   * @throws `E2BIG` past `maxDirectoryEntries` in all; {@link #readdir}'s errors.
   */
  async #readdirRecursive(path: unknown, signal: AbortSignal): Promise<unknown[]> {
    const max = this.#o.maxDirectoryEntries;
    const top = typeof path === "string" ? path : "";
    const out: unknown[] = [];
    let read = 0;
    const tooMany = (): never => {
      throw pathError("E2BIG", `readdir of ${top} with recursive has more than maxDirectoryEntries (${max}) entries in all`, top);
    };
    const first = (await this.#readdir(path, signal)) as { name: string; isDirectory: boolean }[];
    read += first.length;
    if (read > max) tooMany();
    const stack: [string, { name: string; isDirectory: boolean }[]][] = [["", first]];
    while (stack.length > 0) {
      const [dir, entries] = stack.pop()!;
      for (const e of entries) {
        out.push({ ...e, dir });
        if (!e.isDirectory) continue;
        const rel = dir === "" ? e.name : `${dir}/${e.name}`;
        const below = (await this.#readdir(top.endsWith("/") ? top + rel : `${top}/${rel}`, signal, max - read)) as typeof entries;
        read += below.length;
        if (read > max) tooMany();
        stack.push([rel, below]);
      }
    }
    return out;
  }

  /**
   * The entries of the directory at run path `path` for a run's `readdir`,
   * read {@link READDIR_PAGE_ENTRIES} at a time (fewer when that many names
   * of the longest a name there can be would pass what the run may still
   * receive). Each attempt confines the path (the resolver's check) and reads
   * the store version first; a listing of more than one page starts over when
   * the version after any page differs, so every page read the directory that
   * was confined (a directory swapped for a link out of the root is refused
   * `EACCES` on the next attempt).
   *
   * @throws `E2BIG` past `maxDirectoryEntries` entries, or as soon as the
   *   entries read measure more than `maxCapabilityResponseBytes` less the
   *   run's responses so far (the message of the run's response budget: the
   *   answer would be refused whole anyway); `EIO` when the store changed
   *   during the listing {@link READDIR_ATTEMPTS} times in a row (a listing
   *   of one page needs no check; without a store version none is made); the
   *   resolver's errors (`EACCES`, `ENOENT`, …) for the path.
   */
  async #readdir(path: unknown, signal: AbortSignal, limit = this.#o.maxDirectoryEntries): Promise<unknown[]> {
    const o = this.#o;
    if (path === "") throw pathError("ENOENT", "ENOENT: no such file or directory, scandir ''", "");
    for (let attempt = 1; ; attempt++) {
      const stamp = this.#version?.();
      const p = await this.#resolve(path);
      // The most an entry can measure: a name of what the path bound leaves after `p/`.
      const widest = EMPTY_ENTRY_BYTES + Math.max(1, MAX_PATH_BYTES - utf8Length(p));
      const out: unknown[] = [];
      let size = 8; // the array, as measure() counts it
      let changed = false;
      for (;;) {
        signal.throwIfAborted();
        const left = o.maxCapabilityResponseBytes - this.#responseBytes - size;
        const want = Math.min(READDIR_PAGE_ENTRIES, Math.max(1, Math.floor(left / widest)), limit + 1 - out.length);
        const page = await this.#fs.readdir(p, { limit: want, offset: out.length });
        const last = page.length < want;
        if (stamp !== undefined && !(last && out.length === 0) && this.#version!() !== stamp) {
          changed = true;
          break;
        }
        for (const e of page) {
          const entry = { name: e.name, isFile: e.isFile, isDirectory: e.isDirectory, isSymbolicLink: e.isSymbolicLink };
          out.push(entry);
          size += measure(entry);
        }
        if (out.length > limit) {
          if (limit !== o.maxDirectoryEntries) return out; // the recursive walk's bound, reported by it
          throw pathError("E2BIG", `readdir of ${p} has more than maxDirectoryEntries (${o.maxDirectoryEntries}) entries`, p);
        }
        if (this.#responseBytes + size > o.maxCapabilityResponseBytes) {
          throw pathError("E2BIG", `host call responses exceed maxCapabilityResponseBytes (${o.maxCapabilityResponseBytes}) for this run`);
        }
        if (last) break;
      }
      if (!changed) return out;
      if (attempt >= READDIR_ATTEMPTS) {
        throw pathError("EIO", `readdir of ${p}: the store kept changing while the directory was listed (${READDIR_ATTEMPTS} attempts)`, p);
      }
    }
  }

  async #host(
    target: string,
    name: string,
    args: unknown[],
    controller: AbortController,
    deadline: number,
    seq: number | undefined,
    startWaiting: () => void,
    resumed: boolean,
  ): Promise<unknown> {
    const mod = this.#modules.get(target);
    if (!mod || !Object.prototype.hasOwnProperty.call(mod, name) || typeof mod[name] !== "function") {
      throw new TypeError(`${target} has no function ${name}`);
    }
    let normalized: WorkspaceRuntimeValue[];
    try {
      normalized = args.map((a) => normalizeJson(a, `arguments of ${target} ${name}`));
    } catch (err) {
      // The module may name the argument and what it accepts better than the generic message.
      (mod[name] as ExplainsArguments)[explainArguments]?.(args);
      throw err;
    }
    const run = this.#run;
    let interrupted = false;
    /** Set once the host function has settled: a kept `ctx` cannot wait any more. */
    let returned = false;
    const ctx: WorkspaceModuleCallContext = {
      signal: controller.signal,
      deadline,
      access: this.#o.access,
      root: this.#o.root,
      resumed,
      // Stable across replays in replay runs (spec 02 §4.1), so a function can deduplicate by it.
      callId: seq !== undefined ? `${run.id}:${seq}` : `${run.id}:${crypto.randomUUID()}`,
      maxResponseBytes: Math.max(0, Math.min(this.#o.maxCapabilityBytes, this.#o.maxCapabilityResponseBytes - this.#responseBytes)),
      resolvePath: async (path, options) => {
        const p = await this.#resolve(path);
        if (!options?.allowMissing) await this.#fs.lstat(p);
        return p;
      },
      interrupt: async <A = WorkspaceRuntimeValue>(payload: WorkspaceRuntimeValue): Promise<A> => {
        if (seq === undefined || !run.replays || !run.durable) {
          throw new Error('ctx.interrupt() only works in runs with onInterrupt: "replay" (pass it to exec, or set it on the backend).');
        }
        if (interrupted) throw new Error("ctx.interrupt() was already called in this host call; a call can wait for one answer.");
        if (returned) throw new Error("ctx.interrupt() was called after its host call returned; call it before the host function returns.");
        interrupted = true;
        const json = interruptJson(payload, "the ctx.interrupt() payload");
        const journal = run.durable.journal;
        const known = journal.waitAnswer(run.id, seq);
        if (known !== null) return JSON.parse(known) as A;
        const since = Date.now();
        journal.wait(run.id, seq, json, since);
        run.waiting?.(seq, json, since);
        startWaiting();
        void run.suspend?.();
        return new Promise<never>(() => {});
      },
    };
    try {
      const value = await mod[name].call(mod, normalized, ctx);
      return normalizeJson(value, `the result of ${target} ${name}`);
    } finally {
      returned = true;
    }
  }
}