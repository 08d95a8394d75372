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
function sentArguments(method: string, args: unknown[], source: SourceFailure): unknown[] {
  if (method !== "writeFile" && method !== "appendFile") return args; // appendFile too: fixer AP, run 36
  const content = args[1];
  if (typeof content === "object" && content !== null && typeof (content as ReadableStream).getReader === "function") {
    // Sent through a stream that records the caller's stream's own failure (run 40, fixer f40fs): workerd tells the
    // object only that the stream "disconnected prematurely", and the call rejects with that.
    const stream = content as ReadableStream<Uint8Array>;
    if (stream.locked) return args;
    const sent = [...args];
    sent[1] = recordingStream(stream, source);
    return sent;
  }
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

/** A `writeFile`/`appendFile` content stream as the client sent it: the error it failed with, if it failed. */
interface SourceFailure {
  failed: boolean;
  error?: unknown;
  /** Cancels the caller's stream unless it ended, failed or was cancelled already (set once it is sent). */
  abandon?: (reason: unknown) => Promise<void>;
}

/**
 * `stream`, pulled as the receiver reads (`highWaterMark` 0), its chunks as they are, cancel passed on; a read of
 * `stream` that fails is recorded in `source` (and fails this stream, as before), so the call can reject with the
 * caller's own error rather than workerd's uncoded disconnection (issue 20, run 40, fixer f40fs).
 */
function recordingStream(stream: ReadableStream<Uint8Array>, source: SourceFailure): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  let settled = false;
  const cancel = (reason: unknown): Promise<void> => {
    if (settled) return Promise.resolve();
    settled = true;
    return reader.cancel(reason);
  };
  source.abandon = (reason) => cancel(reason).catch(() => {});
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let next: ReadableStreamReadResult<Uint8Array>;
        try {
          next = await reader.read();
        } catch (error) {
          settled = true;
          source.failed = true;
          source.error = error;
          throw error;
        }
        if (next.done) {
          settled = true;
          controller.close();
        } else controller.enqueue(next.value);
      },
      cancel,
    },
    { highWaterMark: 0 },
  );
}

/**
 * Builds the remote `fs`. `fs()` returns the (pipelined) `stub.fs` for each
 * call, so a disposed client fails there with its own message. `writeFile`
 * sends a content past 16 MiB as a stream ({@link sentArguments}); any
 * other call whose arguments workerd refuses as too large (past 32 MiB)
 * rejects `E2BIG`, not with workerd's bare error. A `writeFile`/`appendFile`
 * whose content stream fails on the client rejects with that stream's own
 * error (its `code` kept), as in the object, not workerd's uncoded
 * "ReadableStream received over RPC disconnected prematurely."; one the call
 * refuses before reading it to its end is cancelled with the refusal (run 40, fixer f40fs).
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
    const source: SourceFailure = { failed: false };
    let result: unknown;
    try {
      result = await callRemote(
        () => {
          const stub = fs();
          return Reflect.apply(stub[method], stub, sentArguments(method, args, source));
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
    } catch (error) {
      // The caller's content stream failed: its own error, as in the object (run 40, fixer f40fs).
      if (source.failed) throw source.error;
      // Refused before (or while) it was read: the caller's stream is cancelled, as in the object (a remote read
      // stream then ends its chunk leases), whether or not workerd passed the object's cancel on.
      await source.abandon?.(error);
      throw error;
    }
    // A stream read across a restart of the object rejects ECONNRESET naming the call.
    if (result instanceof ReadableStream) return remoteByteStream(result, `fs.${method}`, probe, onBroken);
    return result;
  });
}
