/**
 * What the stubs below a `WorkspaceStub` share: the state they are switched
 * off by, and a base class that holds their host.
 *
 * @module
 */
import type { WorkspaceRuntimeExecHandleStub } from "./exec-handle-stub.js";
import type { WorkspaceHost } from "./host.js";
import { RpcTargetBase } from "./rpc-target.js";

/**
 * State shared by a `WorkspaceStub` and its sub-stubs. Workers RPC calls
 * `[Symbol.dispose]` on a target whenever a caller's reference to it is
 * released (for example the `stub.fs` in a pipelined `stub.fs.stat(p)`), so a
 * sub-stub's own dispose must not switch it off; only the parent's does.
 */
export interface StubState {
  /** Set once by the parent's `[Symbol.dispose]()`; every later call fails. */
  disposed: boolean;
  /** Exec handle stubs still open, disposed with the parent. */
  readonly handles: Set<WorkspaceRuntimeExecHandleStub>;
}

/** A fresh, live {@link StubState}. */
export function newStubState(): StubState {
  return { disposed: false, handles: new Set() };
}

/** The error every call on a disposed stub (or sub-stub) fails with; `what` names the class. */
export function disposedError(what: string): Error {
  return new Error(`${what} is disposed: get a new one with getWorkspace() or workspace.stub()`);
}

let hostOf: (stub: SubStub) => { readonly host: WorkspaceHost; readonly state: StubState };

/**
 * Base of the `fs`, `runtime` and `assets` stubs: holds the host and the
 * shared state in a private field (RPC exposes prototype members only, and
 * this class adds none but `[Symbol.dispose]`).
 */
export abstract class SubStub extends RpcTargetBase {
  readonly #hosted: { readonly host: WorkspaceHost; readonly state: StubState };

  /**
   * @param host the Workspace it forwards to.
   * @param state shared with the parent `WorkspaceStub`. Default: a state of its own.
   */
  constructor(host: WorkspaceHost, state: StubState = newStubState()) {
    super();
    this.#hosted = { host, state };
  }

  static {
    hostOf = (stub) => stub.#hosted;
  }

  /** Releases a reference; the stub stays usable until its `WorkspaceStub` is disposed. */
  [Symbol.dispose](): void {}
}

/**
 * The host of `stub`, or (throws) {@link disposedError} naming `what` once
 * its `WorkspaceStub` is disposed.
 */
export function liveHost(stub: SubStub, what: string): WorkspaceHost {
  const { host, state } = hostOf(stub);
  if (state.disposed) throw disposedError(what);
  return host;
}

/** The shared state of `stub` (the runtime stub records its exec handles there). */
export function stateOf(stub: SubStub): StubState {
  return hostOf(stub).state;
}
