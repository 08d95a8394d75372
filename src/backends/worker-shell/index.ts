/**
 * `agent-computer/backends/worker-shell`: the shell backend (spec 02 §6) —
 * just-bash in a Dynamic Worker over the Workspace's own files.
 *
 * @module
 */
export { WorkerShellBackend, WORKER_SHELL_DESCRIPTION, DEFAULT_SHELL_MAX_OUTPUT_BYTES, SHELL_COMPATIBILITY_DATE } from "./backend.js";
export { ShellWorker } from "./shell-worker.js";
export { WorkspaceFsAdapter } from "./fs-adapter.js";
export type { WorkspaceFsAdapterOptions, WorkspaceFsAdapterError, WorkspaceFsAdapterWriteOptions } from "./fs-adapter.js";
export { SHELL_CORE_MODULES, SHELL_RUNTIME_MODULES, assembleShellModules } from "./modules.js";
export { defineAssetsCommand, defineGitCommand, defineArtifactsCommand, parseExpiry } from "./commands.js";
export type { ShellCommand, ShellCommandResult } from "./commands.js";
export type {
  ArtifactsCommandHost,
  AssetsCommandHost,
  ExecInput,
  GitCommandHost,
  GitCommandOptions,
  ShellHost,
  ShellModuleGroup,
  ShellWorkerOptions,
  WorkerShellBackendOptions,
  WorkerShellLoader,
  WorkerShellRuntime,
  WorkerShellSource,
  WorkspaceEgressPolicy,
  WorkspaceFs,
} from "./types.js";
