/**
 * The runtime type names of 0.8.0's root export list (spec 01 §7, spec 02
 * §1, §8), each an alias of what this package's API takes or returns — so
 * they follow it and are never a second copy.
 *
 * @module
 */
import type { WorkerLoaderLike } from "../backends/worker-javascript/options.js";
import type { WorkspaceModuleCallContext } from "../modules/types.js";
import type {
  ExecSyncResult,
  ShellRPC,
  WorkspaceBackendHost,
  WorkspaceModuleBackendHandle,
  WorkspaceRuntimeGetExecOptions,
  WorkspaceRuntimeLike,
  WorkspaceRuntimeResult,
} from "./types.js";

/** The `encoding` of `exec`/`getExec`: `"utf8"` (string chunks and results) or `undefined` (bytes). */
export type ExecEncoding = "utf8" | undefined;

/** What a command backend's `rpc.shell.exec` receives from the router (spec 02 §8): `{ source, cwd?, id?, timeoutMs?, env?, stdin? }`. */
export type RuntimeExecOptions = Parameters<ShellRPC["exec"]>[0];

/** What a backend's `getExec` receives (spec 02 §8): `{ id, after?, runtimeId? }` (command backends ignore `runtimeId`). */
export type RuntimeGetOptions = Parameters<WorkspaceModuleBackendHandle["getExec"]>[0];

/** What a backend's `killExec` receives (spec 02 §8): `{ id, signal?, runtimeId? }` (command backends ignore `runtimeId`). */
export type RuntimeKillOptions = Parameters<WorkspaceModuleBackendHandle["killExec"]>[0];

/** What a module backend's `exec` receives (spec 02 §8): `{ id?, source, cwd?, input?, env?, stdin?, timeoutMs?, sync?, onInterrupt? }`. */
export type ModuleExecutionInput = Parameters<WorkspaceModuleBackendHandle["exec"]>[0];

/** What a module backend's `connect` receives (spec 02 §8): the Workspace's db, fs, runtime, clock, git, artifacts and assets. */
export type WorkspaceModuleBackendHost = WorkspaceBackendHost;

/** A backend's (and a host call's) file access: `"read"` refuses writes, `"read-write"` allows them (spec 02 §3.1). */
export type WorkspaceRuntimeAccess = WorkspaceModuleCallContext["access"];

/** Options of `runtime.disposeExec(id, options)`: `{ backend? }` (spec 02 §1.6). */
export type WorkspaceRuntimeDisposeOptions = NonNullable<Parameters<WorkspaceRuntimeLike["disposeExec"]>[1]>;

/** Options of `runtime.killExec(id, options)`: `{ backend?, signal? }` (spec 02 §1.6). */
export type WorkspaceRuntimeKillOptions = NonNullable<Parameters<WorkspaceRuntimeLike["killExec"]>[1]>;

/** Options of `runtime.getExec(id, options)`: `{ backend?, encoding?, resume?, output? }` (spec 02 §1.6). Same as `WorkspaceRuntimeGetExecOptions`. */
export type WorkspaceRuntimeGetOptions<E extends ExecEncoding = undefined> = WorkspaceRuntimeGetExecOptions<E>;

/** The Worker Loader binding the JavaScript backend runs each module in (`env.LOADER`; `WorkerJavaScriptBackend({ loader })`, spec 02 §3.2). */
export type WorkspaceRuntimeLoader = WorkerLoaderLike;

/** A settled run's `status`: `"completed"` (exit 0), `"cancelled"` (129, 130, 137, 143) or `"failed"` (spec 02 §1.5). */
export type WorkspaceRuntimeStatus = WorkspaceRuntimeResult["status"];

/** What applying a pull to the Workspace did: entries `applied` and those `skipped` (as in `ExecSyncResult`, spec 02 §7.3). */
export type ApplyResult = Pick<ExecSyncResult, "applied" | "skipped">;
