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
import { callRemote, remoteByteStream } from "./remote-error.js";
import { estimateRpcSize } from "./rpc-size.js";
import { WorkspaceFsError } from "../fs/errors.js";
import { byteStream, compactView, RPC_BYTES_AT_ONCE } from "../util/rpc-bytes.js"; // compact views: run 35, fixer UV

/**
 * `workspace.fs` plus the stub-only helpers, as a remote client offers it
 * (spec 01 §5.2–5.3). `writeFile` sends a string or byte content past 16 MiB
 * as a stream of its bytes (workerd refuses an RPC argument past 32 MiB), so
 * it stores any size, as in the object; a call whose arguments are still too
 * large rejects `WorkspaceFsError` `E2BIG` (0.8.0: workerd's bare `Error`).
 */
export interface RemoteWorkspaceFilesystem extends WorkspaceFilesystem, FilesystemStubHelpers {}

/** The filesystem stub as a caller sees it through RPC. */
export type RemoteFilesystemStub = FilesystemStubMethods & FilesystemStubHelpers;

const NAMES = [...FS_METHOD_NAMES, ...STUB_HELPER_NAMES];

/** Longest path an `E2BIG` for arguments too large names (characters); a longer one is left out. */
const MAX_NAMED_PATH_CHARS = 4096;

/**
 * The arguments of `method` as they are sent: a `writeFile` or `appendFile` content (a
 * string, or any `ArrayBufferView`) estimated past `RPC_BYTES_AT_ONCE` (16
 * MiB) goes as a stream of its bytes (UTF-8 for a string, as `writeFile`
 * encodes it): workerd refuses an RPC argument past 32 MiB, and a stream
 * crosses in chunks. The write is the same (atomic, options kept). A view
 * into a larger `ArrayBuffer` (a `subarray`) is sent as a compact copy of its
 * own bytes (`compactView`): structured clone would send its whole buffer
 * (issue 20, run 35, fixer UV).
 */
function sentArguments(method: string, args: unknown[]): unknown[] {
  if (method !== "writeFile" && method !== "appendFile") return args; // appendFile too: fixer AP, run 36
  const content = args[1];
  if (typeof content !== "string" && !ArrayBuffer.isView(content)) return args;
  const sent = [...args];
  if (typeof content === "string") {
    if (estimateRpcSize(content, RPC_BYTES_AT_ONCE) <= RPC_BYTES_AT_ONCE) return args;
    sent[1] = byteStream(new TextEncoder().encode(content));
  } else if (content.byteLength > RPC_BYTES_AT_ONCE) {
    sent[1] = byteStream(new Uint8Array(content.buffer, content.byteOffset, content.byteLength));
  } else {
    // A view of a larger buffer goes as a compact copy of its bytes: structured clone sends a view's whole buffer
    // (issue 20, run 35, fixer UV).
    sent[1] = compactView(content);
    if (sent[1] === content) return args;
  }
  return sent;
}

/**
 * Builds the remote `fs`. `fs()` returns the (pipelined) `stub.fs` for each
 * call, so a disposed client fails there with its own message. `writeFile`
 * sends a content past 16 MiB as a stream ({@link sentArguments}); any
 * other call whose arguments workerd refuses as too large (past 32 MiB)
 * rejects `E2BIG`, not with workerd's bare error.
 * A `readFile` stream (and any other stream a method returns) is handed on through `remoteByteStream`: a read that
 * fails because the Durable Object restarted rejects an `Error` `code` `ECONNRESET` naming `fs.readFile`, and
 * `onBroken` hears of it.
 * @throws (each method rejects) what the stub's method rejects with, rebuilt by `fromRemoteError`: a `WorkspaceFsError` with the codes of `workspace.fs`, or a `TypeError` for bad options; `WorkspaceFsError` `E2BIG` for arguments or an answer workerd refuses to send (past 32 MiB); an `Error` `code` `ECONNRESET` naming the call when the Durable Object restarted under the client.
 */
export function createRemoteFilesystem(fs: () => RemoteFilesystemStub, onBroken?: (error: Error) => void): RemoteWorkspaceFilesystem {
  return forwarders<RemoteWorkspaceFilesystem>(NAMES, async (method, args) => {
    // The path the call names, unless it is what was too large (a message never repeats megabytes).
    const named = method === "symlink" || method === "grep" ? args[1] : args[0];
    const path = typeof named === "string" && named.length <= MAX_NAMED_PATH_CHARS ? named : undefined;
    // One cheap call over the same stub: after an uncoded error, it tells a restart of the object apart.
    const probe = () => fs().exists("/");
    const result: unknown = await callRemote(
      () => {
        const stub = fs();
        return Reflect.apply(stub[method], stub, sentArguments(method, args));
      },
      `fs.${method}`,
      (_message, refused) =>
        new WorkspaceFsError(
          "E2BIG",
          method,
          path,
          `the call is over 32 MiB, more than crosses RPC (${refused.message}); pass less at once (writeFile takes a ReadableStream)`,
        ),
      probe,
    );
    // A stream read across a restart of the object rejects ECONNRESET naming the call.
    if (result instanceof ReadableStream) return remoteByteStream(result, `fs.${method}`, probe, onBroken);
    return result;
  });
}
