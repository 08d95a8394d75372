/**
 * The size check of what a filesystem stub answers over Workers RPC.
 *
 * workerd refuses to serialize an RPC result past 32 MiB and the caller gets
 * a bare `Error` (`Serialized RPC arguments or return values are limited to
 * 32MiB, …`) with no code and no hint. The filesystem stub measures a
 * result before returning it and, past {@link MAX_FS_RPC_RESULT_BYTES},
 * rejects with a `WorkspaceFsError` `E2BIG` that says how to ask for less:
 * a listing page (`limit`/`offset`), or the stream form of `readFile`. (The
 * git stub clips its output instead: `clipGitResultForRpc`.) The runtime
 * stub's `pending()` is measured the same way ({@link checkPendingRpcResult}),
 * and so is an exec handle stub's `result()` ({@link checkExecRpcResult}),
 * and every answer of the Artifacts stub and of an `ArtifactsCLITarget`
 * ({@link checkArtifactsRpcResult}). The shell's host target measures its
 * `readFile`, `readdir` and `artifacts` answers with the same checks, and
 * sends file bytes and listings past 16 MiB as streams (util/rpc-bytes.ts).
 *
 * @module
 */
import { ArtifactError } from "../artifacts/errors.js";
import { WorkspaceFsError } from "../fs/errors.js";
import { runtimeError } from "../runtime/errors.js";
import { compactView } from "../util/rpc-bytes.js"; // compact views: run 35, fixer UV

/**
 * Largest estimated size, in bytes, of a filesystem result sent over RPC:
 * 30 MiB, below workerd's 32 MiB limit on serialized RPC values so that the
 * estimate's slack (per-value overhead) never reaches it.
 */
export const MAX_FS_RPC_RESULT_BYTES = 30 * 1024 * 1024;

const TWO_BYTE = /[^\u0000-\u00ff]/;

/** Bytes of a string's characters serialized: one a character when all are Latin-1 (how V8 stores it), else two. */
function stringBytes(text: string): number {
  return text.length * (TWO_BYTE.test(text) ? 2 : 1);
}

/**
 * An estimate of `value`'s size as workerd serializes it (V8's structured
 * clone): strings by their characters (one byte each when all are Latin-1,
 * else two), byte arrays by their bytes, a few bytes for each number, key
 * and container — never less than V8's own count for the shapes the
 * filesystem answers. A view (`Uint8Array`, `DataView`, …) counts its whole
 * backing `ArrayBuffer`, once for all the views of one buffer: structured
 * clone sends the buffer, not just the view's bytes (send
 * `compactView(view)`, util/rpc-bytes.ts, to send only its bytes; issue 20,
 * run 35, fixer UV). Walks without recursion and
 * stops as soon as the total passes `stopAt`. A stream (`ReadableStream`)
 * counts as nothing: it crosses as a stream, in chunks.
 */
export function estimateRpcSize(value: unknown, stopAt: number = Number.POSITIVE_INFINITY): number {
  let total = 0;
  const todo: unknown[] = [value];
  const buffers = new Set<ArrayBufferLike>(); // each backing buffer crosses once (run 35, fixer UV)
  while (todo.length > 0 && total <= stopAt) {
    const v = todo.pop();
    if (typeof v === "string") total += stringBytes(v) + 6;
    else if (typeof v === "number") total += Number.isInteger(v) && Math.abs(v) < 2 ** 30 ? 6 : 9;
    else if (typeof v === "bigint") total += 9 + Math.ceil(v.toString(16).length / 2);
    else if (typeof v !== "object" || v === null) total += 1;
    else if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) {
      // A view sends its whole buffer (run 35, fixer UV); a buffer already counted is a back-reference.
      const buffer = ArrayBuffer.isView(v) ? v.buffer : v;
      total += 9 + (buffers.has(buffer) ? 0 : buffer.byteLength);
      buffers.add(buffer);
    }
    else if (typeof ReadableStream !== "undefined" && v instanceof ReadableStream) total += 1;
    else if (Array.isArray(v)) {
      total += 5;
      for (const item of v) todo.push(item);
    } else {
      total += 3;
      for (const [key, item] of Object.entries(v)) {
        total += stringBytes(key) + 2;
        todo.push(item);
      }
    }
  }
  return total;
}

/** What to do instead, by method. */
function advice(method: string): string {
  switch (method) {
    case "readFile":
      return "read it as a stream (readFile without an encoding), or a range at a time with { byteOffset, byteLength }";
    case "readdir":
    case "find":
      return "page it with { limit, offset }";
    case "grep":
      return "page it with { limit, offset }, or bound it with { maxLineLength, maxTotalLength }";
    case "ls":
      return "list it a page at a time with find(prefix, \"**\", { limit, offset }) instead";
    default:
      return "ask for less at a time";
  }
}

/**
 * `result` of the filesystem method `method`, when its estimated size fits
 * in {@link MAX_FS_RPC_RESULT_BYTES}; bytes (a view of a larger buffer) as a
 * compact copy of their own (`compactView`; issue 20, run 35, fixer UV).
 * @throws WorkspaceFsError `E2BIG` (`syscall` `method`, `path` the call's
 * path) naming the size and the limit, and saying to page (`limit`/`offset`)
 * or to stream (`readFile` without an encoding).
 */
export function checkFsRpcResult<T>(method: string, path: unknown, result: T): T {
  // Bytes that are a view of a larger buffer go compact: structured clone would send the whole buffer (run 35, fixer UV).
  if (ArrayBuffer.isView(result)) result = compactView(result);
  const size = estimateRpcSize(result, MAX_FS_RPC_RESULT_BYTES);
  if (size <= MAX_FS_RPC_RESULT_BYTES) return result;
  throw new WorkspaceFsError(
    "E2BIG",
    method,
    typeof path === "string" ? path : undefined,
    `the result is over ${MAX_FS_RPC_RESULT_BYTES} bytes, more than crosses RPC (workerd's limit is 32 MiB); ${advice(method)}`,
  );
}

/**
 * Waiting calls that always cross RPC in one `runtime.pending({ limit })`
 * page: 32. A payload is at most 262,144 characters of JSON, which the size
 * estimate counts as at most 786,432 bytes (3 a character, for an array of
 * one-digit numbers), so 32 calls with their ids stay under the 30 MiB a
 * remote `pending()` answer may take (past it the answer rejects `E2BIG`).
 */
export const PENDING_RPC_PAGE = 32;

/**
 * `calls`, the answer of `runtime.pending(options)`, when its estimated size
 * fits in {@link MAX_FS_RPC_RESULT_BYTES} (30 MiB).
 * @throws WorkspaceRuntimeError `E2BIG` naming the number of calls, the size
 * and the limit, and saying to list a page at a time with
 * `pending({ limit, offset })` ({@link PENDING_RPC_PAGE} calls always fit).
 */
export function checkPendingRpcResult<T extends readonly unknown[]>(calls: T): T {
  const size = estimateRpcSize(calls, MAX_FS_RPC_RESULT_BYTES);
  if (size <= MAX_FS_RPC_RESULT_BYTES) return calls;
  throw runtimeError(
    "E2BIG",
    `runtime.pending(): the ${calls.length} waiting calls listed are over ${MAX_FS_RPC_RESULT_BYTES} bytes with their payloads, more than crosses RPC (workerd's limit is 32 MiB); list them a page at a time with pending({ limit: ${PENDING_RPC_PAGE}, offset })`,
  );
}

/**
 * `result`, the settled result of execution `id` that an exec handle stub's
 * `result()` answers, when its estimated size fits in
 * {@link MAX_FS_RPC_RESULT_BYTES} (30 MiB). Output kept whole (`output:
 * false`, or output limits raised) can pass it: a JavaScript run keeps up to
 * 64 MiB a stream.
 * @throws WorkspaceRuntimeError `E2BIG` naming the execution, the size and
 * the limit, and saying to read the run's events instead (the handle's
 * `stream()`, or `runtime.getExec(id)`: they cross in chunks), or to keep
 * the output limits on (the result keeps a tail, the whole stream is saved
 * to a file). The run itself is not affected.
 */
export function checkExecRpcResult<T>(id: string, result: T): T {
  const size = estimateRpcSize(result, MAX_FS_RPC_RESULT_BYTES);
  if (size <= MAX_FS_RPC_RESULT_BYTES) return result;
  throw runtimeError(
    "E2BIG",
    `the result of execution ${id} is over ${MAX_FS_RPC_RESULT_BYTES} bytes with its output, more than crosses RPC (workerd's limit is 32 MiB); read its events instead (runtime.getExec("${id}") and its stream, which crosses in chunks), or keep the output limits on (the result keeps a tail and the whole output is saved to a file)`,
  );
}

/** What to ask for instead of an Artifacts answer too large for RPC, by method. */
function artifactsAdvice(method: string): string {
  const here = `or call workspace.artifacts.${method === "cli" ? "cli(input)" : `${method}()`} in the Durable Object and send on only what is needed`;
  switch (method) {
    case "list":
    case "cli":
      return `scope the Workspace's Artifacts client to a session (the Workspace option sessionId, or artifacts: { sessionId }) so that it lists only that session's repositories, ${here}`;
    case "listTokens":
      return `revoke the tokens no longer needed, ${here}`;
    default:
      return here.slice("or ".length);
  }
}

/**
 * `result`, the answer of Artifacts method `method` (`list`, `cli`,
 * `listTokens`, … of `WorkspaceStub.artifacts`, or `cli` of an
 * `ArtifactsCLITarget`), when its estimated size fits in
 * {@link MAX_FS_RPC_RESULT_BYTES} (30 MiB). `list()` answers every
 * repository in scope in one array, and `artifacts repo list` prints it.
 * @throws ArtifactError `E2BIG` naming the method (and, for `list`, the
 * number of repositories), the size and the limit, and saying to scope the
 * client to a session or to call the method in the Durable Object.
 */
export function checkArtifactsRpcResult<T>(method: string, result: T): T {
  const size = estimateRpcSize(result, MAX_FS_RPC_RESULT_BYTES);
  if (size <= MAX_FS_RPC_RESULT_BYTES) return result;
  const what = method === "list" && Array.isArray(result) ? `artifacts.list(): the ${result.length} repositories listed are` : `artifacts.${method}(): the answer is`;
  throw new ArtifactError("E2BIG", `${what} over ${MAX_FS_RPC_RESULT_BYTES} bytes, more than crosses RPC (workerd's limit is 32 MiB); ${artifactsAdvice(method)}`);
}
