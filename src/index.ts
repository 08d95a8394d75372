/**
 * agent-computer — a durable computer for LLM agents in a Durable Object.
 *
 * @module
 */
export { Workspace } from "./workspace.js";
export type { WorkspaceOptions, WorkspaceOutputOptions, WorkspaceGitFactory } from "./workspace.js";
export { WorkspaceFsError, isWorkspaceFsError } from "./fs/errors.js";
export type { WorkspaceFsErrorCode } from "./fs/errors.js";
export type * from "./fs/types.js";
export { nodeSqliteStorage } from "./storage/index.js";
export { SQLiteWorkspaceProvider, WorkspaceFileHandle, WorkspaceDirent, WorkspaceWatcher, WorkspaceStatWatcher } from "./fs/provider.js";
export type {
  SQLiteWorkspaceProviderOptions,
  ProviderWatchOptions,
  ProviderWatchFileOptions,
  ProviderDataOptions,
  ProviderDataOptionsObject,
  ProviderStatOptions,
  ProviderReaddirOptions,
  ProviderMkdirOptions,
  ProviderRmdirOptions,
  WorkspaceProviderSource,
} from "./fs/provider.js";
export { WorkspaceStats, WorkspaceEntryType } from "./fs/node-stats.js";
export type { NodeFsError } from "./fs/node-errors.js";
export type * from "./storage/index.js";
export { noopObserver } from "./observer.js";
export type { WorkspaceObserver, WorkspaceSpan, WorkspaceAttributes, WorkspaceAttributeValue } from "./observer.js";
export type { WorkspaceBackendInfo, WorkspaceRegisteredBackend } from "./runtime/index.js";
export { WorkspaceRuntime, WorkspaceRuntimeError, WorkspaceExecutionLostError } from "./runtime/index.js";
export type {
  WorkspaceBackend,
  WorkspaceModuleBackend,
  WorkspaceModuleBackendHandle,
  WorkspaceCommandBackend,
  WorkspaceBackendHost,
  BackendHandle,
  ShellRPC,
  ExecEvent,
  ModuleExecutionEnvelope,
  KillSignal,
  WorkspaceRuntimeValue,
  WorkspaceRuntimeArray,
  WorkspaceRuntimeObject,
  WorkspaceRuntimeEvent,
  WorkspaceRuntimeExecHandle,
  WorkspaceRuntimeExecOptions,
  WorkspaceRuntimeGetExecOptions,
  WorkspaceRuntimeResult,
  WorkspaceRuntimeTruncation,
  TruncatedOutput,
  WorkspaceRuntimeErrorCode,
  WorkspaceRuntimePendingCall,
  WorkspaceRuntimeInterruptPolicy,
} from "./runtime/index.js";
export type { ExecSyncResult, SkippedEntry, SyncProgress } from "./runtime/types.js";
export type { SyncRPC } from "./runtime/sync.js";
export { TestBackend } from "./backends/test-backend.js";
export type { WorkspaceProxyProps } from "./backends/container/api.js";
export { WorkspaceProxy } from "./backends/container/proxy.js";
export type { TestBackendOptions } from "./backends/test-backend.js";
export type { WorkspaceModule, WorkspaceModuleFactory, WorkspaceModuleFunctions, WorkspaceModuleCallContext, WorkspaceModuleHost } from "./modules/types.js";
export type { WorkspaceDatabase } from "./storage/database.js";
export {
  withWorkspace,
  getWorkspace,
  WorkspaceStub,
  WorkspaceFilesystemStub,
  WorkspaceRuntimeStub,
  WorkspaceRuntimeExecHandleStub,
  WorkspaceAssetsStub,
  WorkspaceGitStub,
} from "./do/index.js";
export type {
  WithWorkspaceCtor,
  WorkspaceLocalHost,
  WorkspaceStubHost,
  LazyWorkspaceClient,
  WorkspaceClient,
  WorkspaceHandle,
  WorkspaceSource,
  WorkspaceRuntimeClient,
  WorkspaceAssetsClient,
  WorkspaceRemoteGitClient,
  RemoteWorkspaceFilesystem,
  AsyncMethods,
} from "./do/index.js";
export { R2Bucket, WorkerBundle } from "./mounts/index.js";
export type {
  Mount,
  MountBase,
  EagerMount,
  MountFactory,
  MountContext,
  MountWriteAPI,
  R2BucketBinding,
  R2BucketOptions,
  WorkerBundleEntry,
  WorkerBundleFile,
  WorkerBundleOptions,
  WorkerBundleSource,
  WorkerBundleTree,
} from "./mounts/index.js";
export { WorkspaceFileStore } from "./tools/core/store.js";
export type { FileStat, FileStore, MutableFileStore } from "./tools/core/store.js";
export { shellQuote, sh } from "./shell-quote.js";
export { unsafeToRepeat } from "./runtime/unsafe.js";
export { atMostOnce, callRecordId, lostCallError, markAtMostOnce, LOST_CALL_CODE } from "./modules/replay.js";
export type { AtMostOnceSteps } from "./modules/replay.js";
export type { WorkspaceEgressPolicy } from "./backends/worker-shell/types.js";
export type { ShellValue, RawShellValue } from "./shell-quote.js";
export type { WorkspaceRuntimeOutputOptions } from "./runtime/index.js";
export type {
  ApplyResult,
  ExecEncoding,
  ModuleExecutionInput,
  RuntimeExecOptions,
  RuntimeGetOptions,
  RuntimeKillOptions,
  WorkspaceModuleBackendHost,
  WorkspaceRuntimeAccess,
  WorkspaceRuntimeDisposeOptions,
  WorkspaceRuntimeGetOptions,
  WorkspaceRuntimeKillOptions,
  WorkspaceRuntimeLoader,
  WorkspaceRuntimeStatus,
} from "./runtime/aliases.js";
export type { WorkspaceModuleFunction } from "./modules/types.js";
export { DEFAULT_CPU_LIMIT_MS, createSyncLogger, syncBlockLog, syncOperationLog } from "./runtime/sync-telemetry.js";
export type { SyncBlockTelemetry, SyncLogger, SyncLoggerOptions, SyncOperationTelemetry, TelemetryRecord } from "./runtime/sync-telemetry.js";
export { encodeExecEvents, decodeExecEvents, encodeRuntimeEvent, decodeRuntimeEvents } from "./do/event-framing.js";
export type { WorkspaceExecEvent } from "./do/event-framing.js";
export { WorkspaceServiceProxy } from "./do/service-proxy.js";
export { ArtifactsCLITarget } from "./do/artifacts-cli-target.js";
export type { WorkspaceServiceProxyProps } from "./do/service-proxy.js";

/** Conventional working directory for agents. Not created automatically. */
export const WORKSPACE_ROOT = "/workspace";
