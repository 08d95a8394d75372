/**
 * `client.fs` for a remote Workspace: each call goes to the
 * `WorkspaceFilesystemStub` in one RPC (pipelined through `stub.fs`), streams
 * cross as one byte stream, and errors come back rebuilt from their data
 * (`remote-error.ts`). The methods are built from the one method list,
 * `FS_METHODS` in `fs/methods.ts`, plus the stub-only helpers.
 *
 * @module
 */
import { FS_METHOD_NAMES } from "../fs/methods.js";
import type { WorkspaceFilesystem } from "../fs/types.js";
import { forwarders } from "./forward.js";
import { STUB_HELPER_NAMES, type FilesystemStubHelpers, type FilesystemStubMethods } from "./fs-stub.js";
import { callRemote } from "./remote-error.js";

/** `workspace.fs` plus the stub-only helpers, as a remote client offers it (spec 01 §5.2–5.3). */
export interface RemoteWorkspaceFilesystem extends WorkspaceFilesystem, FilesystemStubHelpers {}

/** The filesystem stub as a caller sees it through RPC. */
export type RemoteFilesystemStub = FilesystemStubMethods & FilesystemStubHelpers;

const NAMES = [...FS_METHOD_NAMES, ...STUB_HELPER_NAMES];

/**
 * Builds the remote `fs`. `fs()` returns the (pipelined) `stub.fs` for each
 * call, so a disposed client fails there with its own message.
 * @throws (each method rejects) what the stub's method rejects with, rebuilt by `fromRemoteError`: a `WorkspaceFsError` with the codes of `workspace.fs`, or a `TypeError` for bad options.
 */
export function createRemoteFilesystem(fs: () => RemoteFilesystemStub): RemoteWorkspaceFilesystem {
  return forwarders<RemoteWorkspaceFilesystem>(NAMES, (method, args) =>
    callRemote(() => {
      const stub = fs();
      return Reflect.apply(stub[method], stub, args);
    }),
  );
}
