/**
 * Durable Object integration (spec 01 §5): `withWorkspace`, `getWorkspace`
 * and the RPC stubs.
 *
 * @module
 */
export { withWorkspace } from "./mixin.js";
export type { WithWorkspaceCtor, WorkspaceLocalHost, WorkspaceStubHost } from "./mixin.js";
export { getWorkspace } from "./client.js";
export type {
  AsyncMethods,
  LazyWorkspaceClient,
  WorkspaceAssetsClient,
  WorkspaceClient,
  WorkspaceHandle,
  WorkspaceRemoteGitClient,
  WorkspaceSource,
} from "./client.js";
export type { WorkspaceRuntimeClient } from "./runtime-client.js";
export type { RemoteWorkspaceFilesystem } from "./remote-fs.js";
export { WorkspaceStub, createWorkspaceStub } from "./stub.js";
export { WorkspaceFilesystemStub } from "./fs-stub.js";
export type { FilesystemStubHelpers, FilesystemStubMethods } from "./fs-stub.js";
export { WorkspaceRuntimeStub } from "./runtime-stub.js";
export { WorkspaceRuntimeExecHandleStub } from "./exec-handle-stub.js";
export { WorkspaceAssetsStub } from "./assets-stub.js";
export { WorkspaceGitStub } from "./git-stub.js";
export type { PublishOptions } from "./assets-stub.js";
export type { WorkspaceHost, WorkspaceHostRuntime } from "./host.js";
