/**
 * Who owns a run of the JavaScript backend (issue 20): two Workspace objects
 * over one storage — two Workspaces in one Durable Object, or two Node
 * processes (or objects) on one `nodeSqliteStorage(file)` — share one
 * journal, and each must tell a live run of the other from a run left behind
 * by a runtime that is gone.
 *
 * Every run row (`__ws_exec_runs`) records its **owner** — the random id of
 * the backend connection (one per Workspace runtime and backend) that runs
 * it — and a **lease** (`lease_until`, ms since the epoch, real clock). A run
 * found `running` in the journal is judged by {@link judgeOwner}:
 *
 * - its owner is a connection alive in this isolate or process (the
 *   module-global registry below: a connection is registered while it has
 *   live runs) → alive: never settled; followed through the owner's run;
 * - else, on a Durable Object's storage → dead at once: only one instance of
 *   a Durable Object lives at a time, so an owner not in this isolate (or
 *   registered with another instance's storage, one that was aborted) is
 *   gone — a restart recovers its runs immediately, as before;
 * - else (a file another process may share) → alive until its lease lapses:
 *   the owner renews it every {@link RUN_LEASE_RENEW_MS} while the run lives,
 *   {@link RUN_LEASE_MS} ahead; a lease that has lapsed (or none: rows of
 *   earlier versions, runs released at close) means the owner is gone.
 *
 * @module
 */
import type { DurableObjectStorageLike } from "../../storage/types.js";
import { isDurableObjectStorage } from "../../storage/kind.js";

export { isDurableObjectStorage };

/**
 * How far ahead (ms) a run's lease reaches when it is taken or renewed:
 * 10 s. A run on storage that is not a Durable Object's whose owner is not in
 * this process is left alone until its lease has lapsed.
 */
export const RUN_LEASE_MS = 10_000;

/**
 * How often (ms) an owner renews the leases of its live runs (on storage that
 * is not a Durable Object's): 3 s. The same tick stops runs another runtime
 * settled or took over, and runs whose kill another process requested.
 */
export const RUN_LEASE_RENEW_MS = 3_000;

/**
 * How often (ms) a stream of a run owned by another process re-reads the
 * journal for new events: 100 ms.
 */
export const FOLLOW_POLL_MS = 100;

/** What a registered owner offers the other connections of this isolate. */
export interface RunOwner {
  /** The storage it runs on. */
  readonly storage: object;
  /** Its live run `id`, if any (to follow its changes). */
  liveRun(id: string): { changed(): Promise<void> } | undefined;
  /** Stops its live run `id` (a kill from another Workspace). */
  killExec(request: { id: string }): Promise<void>;
  /** Another Workspace answered the last waiting call of run `id`: relaunch it. */
  answered(id: string): void;
}

const REGISTRY_KEY = Symbol.for("agent-computer.worker-javascript.run-owners.v1");

/** The owners with live runs in this isolate, by owner id (one map even when the package is loaded twice). */
function registry(): Map<string, RunOwner> {
  const g = globalThis as { [REGISTRY_KEY]?: Map<string, RunOwner> };
  return (g[REGISTRY_KEY] ??= new Map());
}

/** Registers owner `id` (it has live runs). */
export function registerOwner(id: string, owner: RunOwner): void {
  registry().set(id, owner);
}

/** Unregisters owner `id` (no live runs left, or closed). */
export function unregisterOwner(id: string): void {
  registry().delete(id);
}

/** The registered owner `id`, if it is alive in this isolate. */
export function liveOwner(id: string | null): RunOwner | undefined {
  return id === null ? undefined : registry().get(id);
}

/** The verdict on a running run's owner. */
export type OwnerVerdict =
  /** Owned by the asking connection. */
  | { kind: "mine" }
  /** Owned by a live connection of this isolate. */
  | { kind: "here"; owner: RunOwner }
  /** Owned by another process whose lease has not lapsed. */
  | { kind: "elsewhere"; leaseUntil: number }
  /** Its owner is gone: the run may be settled or taken over. */
  | { kind: "dead" };

/**
 * Judges the owner of a run still marked running (see the module comment).
 *
 * @param row the run's `owner` and `lease_until` (null: none recorded).
 * @param me the asking connection's owner id.
 * @param storage the asking connection's storage.
 * @param now the real clock (ms since the epoch).
 */
export function judgeOwner(row: { owner: string | null; lease_until: number | null }, me: string, storage: DurableObjectStorageLike, now: number): OwnerVerdict {
  if (row.owner === me) return { kind: "mine" };
  const durableObject = isDurableObjectStorage(storage);
  const owner = liveOwner(row.owner);
  // On a Durable Object, an owner registered with another storage object belongs to an instance that was aborted.
  if (owner && (!durableObject || owner.storage === storage)) return { kind: "here", owner };
  if (durableObject || row.owner === null) return { kind: "dead" };
  const until = row.lease_until ?? 0;
  return until > now ? { kind: "elsewhere", leaseUntil: until } : { kind: "dead" };
}
