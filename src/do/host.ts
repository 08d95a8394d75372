/**
 * What the Durable Object layer needs of a Workspace: the narrow host
 * interface the stubs and the local client work over. A `Workspace`
 * satisfies it structurally, so nothing in `do/` but `withWorkspace` (which
 * constructs one) and `getWorkspace` (which recognises one) imports the
 * Workspace class, and the core never imports `do/`.
 *
 * @module
 */
import type { ArtifactClient } from "../artifacts/types.js";
import type { AssetsClient } from "../assets/types.js";
import type { WorkspaceFilesystem } from "../fs/types.js";
import type { GitClient } from "../git/types.js";
import type { WorkspaceObserver } from "../observer.js";
import type {
  WorkspaceRuntime,
  WorkspaceRuntimeEvent,
  WorkspaceRuntimeExecHandle,
  WorkspaceRuntimeExecOptions,
  WorkspaceRuntimeGetExecOptions,
} from "../runtime/index.js";

/** The runtime calls the stubs and clients forward (spec 02 §1). */
export type WorkspaceHostRuntime = Pick<
  WorkspaceRuntime,
  "backends" | "exec" | "getExec" | "killExec" | "disposeExec" | "pending" | "respond"
>;

/** An execution handle as it crosses the boundary: output bytes or, with `encoding: "utf8"`, strings (spec 02 §1.3). */
export type AnyExecHandle = WorkspaceRuntimeExecHandle<"utf8" | undefined>;

/** One event of {@link AnyExecHandle} (spec 02 §1.4). */
export type AnyRuntimeEvent = WorkspaceRuntimeEvent<"utf8" | undefined>;

/** `runtime.exec` options with the encoding left open (spec 02 §1). */
export type AnyExecOptions = WorkspaceRuntimeExecOptions<"utf8" | undefined>;

/** `runtime.getExec` options with the encoding left open (spec 02 §1). */
export type AnyGetExecOptions = WorkspaceRuntimeGetExecOptions<"utf8" | undefined>;

/** A Workspace as the Durable Object layer sees it (spec 01 §1.2). */
export interface WorkspaceHost {
  /** The filesystem every `fs` stub call goes to (spec 01 §3). */
  readonly fs: WorkspaceFilesystem;
  /** The runtime every `runtime` stub and client call goes to (spec 02 §1). */
  readonly runtime: WorkspaceHostRuntime;
  /** The assets publisher; `undefined` when the Workspace has none (spec 04 §1.7). */
  readonly assets?: AssetsClient;
  /**
   * The git client (spec 04 §2.2). A `Workspace` without
   * `WorkspaceOptions.git` throws the not-configured error on read; a host
   * without one may leave it undefined. Default: none.
   */
  readonly git?: GitClient;
  /**
   * The Artifacts client (spec 04 §3.3): a `Workspace` always has one (its
   * methods throw `ENOCONFIG` without `WorkspaceOptions.artifacts`); a host
   * without one may leave it undefined. Default: none.
   */
  readonly artifacts?: ArtifactClient;
  /** Receives one span per `fs` stub call (spec 01 §5.4). */
  readonly observer: WorkspaceObserver;
  /** The Workspace's session id; `""` when none. */
  readonly sessionId: string;
  /**
   * Materialises the mounts and, given a backend id, connects that backend
   * (spec 01 §1.2). The runtime stub awaits it before `exec` and `getExec`.
   */
  ready(backend?: string): Promise<void>;
}
