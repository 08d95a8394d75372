/**
 * Host modules (spec 02 §4.1): functions that run in the host (the Durable
 * Object, with its full authority) and that isolate code imports as
 * `ws:<name>`.
 *
 * @module
 */
import type { WorkspaceRuntimeLike, WorkspaceRuntimeValue } from "../runtime/types.js";
import type { GitClient } from "../git/types.js";
import type { ArtifactClient } from "../artifacts/types.js";

/** What a host function receives besides its arguments. */
export interface WorkspaceModuleCallContext {
  /** Aborts when the call passes its deadline or the run is cancelled. */
  signal: AbortSignal;
  /** Epoch ms: call start + the backend's `maxHostCallMs`. */
  deadline: number;
  /** The backend's access; prebuilt modules refuse mutations unless `"read-write"`. */
  access: "read" | "read-write";
  /**
   * The calling backend's `root` (absolute, normalised; `/workspace` unless
   * configured): the directory the run's files are confined to. A host
   * function that reaches files by other means (another backend, a shell)
   * must keep to it too; `ws:container` refuses runs narrower than what its
   * command backend can reach.
   */
  root: string;
  /**
   * `true` when this call was already in flight when its replay run
   * (`onInterrupt: "replay"`, spec 02 §5) was interrupted, and is called
   * again now that the run resumes (same `callId`): its side effect may
   * have happened, or may still be happening. Always `false` outside replay
   * runs and for a call's first attempt.
   */
  resumed: boolean;
  /**
   * Resolves a path the way `node:fs` in the isolate does (spec 02 §3.4):
   * relative to the backend's root, normalised lexically, confined to the
   * root, no symbolic links on the way. Resolves to the absolute Workspace path.
   *
   * @throws TypeError when `path` is not a string.
   * @throws Error `EINVAL` for a NUL byte (`path contains a NUL byte: "…"`,
   *   past 64 characters its first 64 and `(<n> characters)`); `EACCES` outside the root
   *   (`paths must stay under <root>`) or through a symbolic link
   *   (`cannot traverse symbolic link`); without `allowMissing`, the
   *   filesystem's `ENOENT` (or `ENOTDIR`) when the path does not exist.
   */
  resolvePath(
    path: string,
    options?: {
      /** `true` lets the path (its last components) not exist yet, e.g. a file about to be written. Default `false`. */
      allowMissing?: boolean;
    },
  ): Promise<string>;
  /** `<executionId>:<uuid>`: unique per call, for deduplicating side effects. */
  callId: string;
  /**
   * The most bytes this call's answer may measure (the backend's
   * `maxCapabilityBytes`, or less when the run's `maxCapabilityResponseBytes`
   * is nearly spent), counted as the backend counts them: UTF-8 of strings
   * and keys, 8 per other value. A larger answer rejects the call `E2BIG` in
   * the isolate after the function has run, so a function whose work stands
   * (a tool that changed something) can answer less instead — `ws:tools`
   * does. Absent when the caller sets no such limit.
   */
  maxResponseBytes?: number;
  /** Waiting runs (spec 02 §5) are not supported: always rejects. */
  interrupt<A = WorkspaceRuntimeValue>(payload: WorkspaceRuntimeValue): Promise<A>;
}

/** A host function: `f(a, b)` in the isolate calls `f([a, b], ctx)` here, `this` = the module object. */
export type WorkspaceModuleFunction = (args: readonly WorkspaceRuntimeValue[], ctx: WorkspaceModuleCallContext) => unknown;

/** The exports of a host module. */
export type WorkspaceModuleFunctions = Readonly<Record<string, WorkspaceModuleFunction>>;

/** What a factory receives when its backend connects. */
export interface WorkspaceModuleHost {
  /**
   * `workspace.git` (spec 02 §4.1, spec 04 §2.2); without
   * `WorkspaceOptions.git`, a stand-in whose every method rejects with the
   * not-configured error (`code` `ENOCONFIG`).
   */
  git: GitClient;
  /**
   * `workspace.artifacts` (spec 02 §4.1, spec 04 §3.3); without
   * `WorkspaceOptions.artifacts`, its methods throw `ArtifactError`
   * `ENOCONFIG` (synchronously) and its `cli` runs in unconfigured mode.
   */
  artifacts: ArtifactClient;
  /** The Workspace's runtime (`workspace.runtime`), e.g. to run commands on another backend (spec 02 §4.3). */
  runtime: WorkspaceRuntimeLike;
  /** The Workspace's assets publisher (`createAssets`), when it has one; absent otherwise. */
  assets?: unknown;
}

/**
 * Builds a host module once per backend connection. A throw fails the
 * connect; returning `{}` leaves the module out for that connection.
 */
export interface WorkspaceModuleFactory {
  (host: WorkspaceModuleHost): WorkspaceModuleFunctions;
  /** Shown to the model in the backend's description. Default: "a host module." */
  readonly description?: string;
}

/** A `modules` entry: bundled source, an object of host functions, or a factory. */
export type WorkspaceModule = string | WorkspaceModuleFunctions | WorkspaceModuleFactory;
