/**
 * Errors across Workers RPC, as data.
 *
 * What workerd keeps of an error a stub throws (checked in
 * `test/workers/client/error-transport.test.ts`):
 *
 * - with enhanced error serialization — the default from compatibility date
 *   2026-04-21 (flag `enhanced_error_serialization`); this package is tested
 *   with 2026-11-01 — the message, the built-in class (`TypeError`,
 *   `RangeError`, …; any other class arrives as a plain `Error`) and the
 *   error's own properties whose values can be structured-cloned,
 *   non-enumerable ones and `name` included;
 * - with older dates, the message and the built-in class only: own
 *   properties are dropped and a custom `name` is folded into the message
 *   (`"WorkspaceFsError: ENOENT: …"`).
 *
 * So a stub attaches what identifies a coded error — `name`, `code`,
 * `syscall`, `path`, `message` — as one record, {@link RemoteErrorData},
 * under the own property {@link REMOTE_ERROR_KEY} (the way isomorphic-git's
 * errors carry `code` and `data`), and the client rebuilds the error from
 * that record alone, never from the message text. Where the transport drops
 * own properties (an older compatibility date), the caller gets workerd's
 * plain `Error` with the folded message, without `code`.
 *
 * @module
 */
import { isWorkspaceFsErrorCode, WorkspaceFsError } from "../fs/errors.js";
import { isRpcSizeError } from "../util/rpc-bytes.js";

/** A coded error's identity as it crosses RPC. */
export interface RemoteErrorData {
  /** `error.name` where it was thrown: `"WorkspaceFsError"`, `"WorkspaceRuntimeError"`, `"Error"`, … */
  readonly name: string;
  /** The error's `code`: a filesystem code (spec 01 §2.2) or a runtime one (spec 02 §1.7). */
  readonly code: string;
  /** The whole message, exactly as thrown. */
  readonly message: string;
  /** The `workspace.fs` method that failed, when the error names one. Default: absent. */
  readonly syscall?: string;
  /** The canonical path the error is about, when it names one. Default: absent. */
  readonly path?: string;
}

/** The own property of a thrown error that holds its {@link RemoteErrorData}. */
export const REMOTE_ERROR_KEY = "workspaceError";

function stringField(error: object, key: string): string | undefined {
  const value: unknown = Reflect.get(error, key);
  return typeof value === "string" ? value : undefined;
}

/**
 * The record for an error with a string `code`, else `undefined` (errors
 * without a code, such as `TypeError`s for bad options, cross as they are).
 */
function remoteErrorData(error: Error): RemoteErrorData | undefined {
  const code = stringField(error, "code");
  if (code === undefined) return undefined;
  const data: { -readonly [K in keyof RemoteErrorData]: RemoteErrorData[K] } = { name: error.name, code, message: error.message };
  const syscall = stringField(error, "syscall");
  const path = stringField(error, "path");
  if (syscall !== undefined) data.syscall = syscall;
  if (path !== undefined) data.path = path;
  return data;
}

/**
 * Prepares an error a stub method is about to throw: a coded error gets its
 * {@link RemoteErrorData} as a non-enumerable own property (message, class
 * and stack untouched); anything else is returned as it is. A frozen error
 * is copied into a plain `Error` that carries the record.
 */
export function toRemoteError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const data = remoteErrorData(error);
  if (data === undefined) return error;
  const attach = (target: Error) =>
    Object.defineProperty(target, REMOTE_ERROR_KEY, { value: data, enumerable: false, writable: true, configurable: true });
  try {
    return attach(error);
  } catch {
    const copy = new Error(error.message);
    copy.name = error.name;
    if (error.stack) copy.stack = error.stack;
    return attach(copy);
  }
}

/** The {@link RemoteErrorData} an error received over RPC carries, if any. */
function receivedData(error: Error): RemoteErrorData | undefined {
  const data: unknown = Reflect.get(error, REMOTE_ERROR_KEY);
  if (typeof data !== "object" || data === null) return undefined;
  const record = data as Partial<Record<keyof RemoteErrorData, unknown>>;
  if (typeof record.name !== "string" || typeof record.code !== "string" || typeof record.message !== "string") return undefined;
  return {
    name: record.name,
    code: record.code,
    message: record.message,
    ...(typeof record.syscall === "string" ? { syscall: record.syscall } : {}),
    ...(typeof record.path === "string" ? { path: record.path } : {}),
  };
}

/**
 * Rebuilds an error received over RPC from its {@link RemoteErrorData}: a
 * filesystem error becomes a {@link WorkspaceFsError} again (`instanceof`
 * works) with the same `code`, `syscall`, `path` and message; another coded
 * error (`EEXEC_BUSY`, …) stays the plain `Error` RPC delivered, with `name`,
 * `code`, `syscall` and `path` set from the record. Errors without a record
 * (`TypeError`s, uncoded errors, or any error under an older compatibility
 * date) are returned unchanged.
 */
export function fromRemoteError(error: unknown): unknown {
  if (!(error instanceof Error) || error instanceof WorkspaceFsError) return error;
  const data = receivedData(error);
  if (data === undefined) return error;
  if (data.name === "WorkspaceFsError" && isWorkspaceFsErrorCode(data.code)) {
    const rebuilt = new WorkspaceFsError(data.code, data.syscall, data.path);
    rebuilt.message = data.message;
    if (error.stack) rebuilt.stack = error.stack;
    return rebuilt;
  }
  Reflect.deleteProperty(error, REMOTE_ERROR_KEY);
  const { message: _message, ...fields } = data;
  return Object.assign(error, fields);
}

/** Runs a stub method's work; a failure is thrown as {@link toRemoteError} prepares it. */
export async function answerRemote<T>(run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toRemoteError(error);
  }
}

/**
 * Builds the error a client throws for a call workerd refused as too large: `code` `E2BIG`, `message` as given
 * (`refused` is workerd's own error, for a caller that words the message itself).
 */
export type TooLargeError = (message: string, refused: Error) => Error;

/** A plain `Error` with `code` `E2BIG` (the default {@link TooLargeError}). */
function tooLargeError(message: string): Error {
  return Object.assign(new Error(message), { code: "E2BIG" });
}

/**
 * workerd's messages for a call over a stub whose Durable Object has restarted, been reset or lost its connection
 * (`ctx.abort()`, a code update, an eviction): the stub stays broken, every later call fails the same way.
 */
const BROKEN_STUB_MESSAGES: readonly RegExp[] = [
  /^The execution context which hosts this callback is no longer running\.?$/,
  /^Network connection lost\.?$/,
  /^Durable Object reset because/,
];

/** The `code` a client's call rejects with when its Durable Object restarted under it ({@link callRemote}). */
export const CONNECTION_RESET_CODE = "ECONNRESET";

/** True for workerd's uncoded error of a call over a stub whose Durable Object restarted or was reset. */
export function isBrokenStubError(error: unknown): error is Error {
  if (!(error instanceof Error) || Reflect.get(error, "code") !== undefined) return false;
  return BROKEN_STUB_MESSAGES.some((re) => re.test(error.message));
}

/**
 * The error a client call rejects with when the Durable Object behind it restarted (`code` `ECONNRESET`, as a
 * socket reset by its peer in Node; workerd's error as `cause`): it names the call and says what to do.
 */
function brokenStubError(error: Error, method: string | undefined): Error {
  const what = method === undefined ? "the call" : method;
  return Object.assign(
    new Error(
      `${what}: the Durable Object behind this workspace client restarted or was reset, so the client's connection to it ` +
        `is gone (workerd: ${error.message}); get a new client with getWorkspace(stub) — a lazy client made from a ` +
        `function, getWorkspace(() => env.NS.get(id)), reconnects by itself on its next call. A call in flight when it ` +
        `happened may or may not have taken effect.`,
      { cause: error },
    ),
    { code: CONNECTION_RESET_CODE },
  );
}

/**
 * A cheap call over the stub a client's call went through (`fs.exists("/")`, a handle's `id`, the workspace stub's
 * `sessionId`): after an uncoded error, it tells whether the stub is broken (the Durable Object restarted).
 */
export type RemoteProbe = () => unknown;

/**
 * The `ECONNRESET` error for `error`, met by the call `method`, when the Durable Object behind the client restarted:
 * workerd's broken-stub error ({@link isBrokenStubError}) always; any other uncoded error that is not one the object
 * answered with (no `code`, no {@link RemoteErrorData}) — workerd's `ReadableStream received over RPC disconnected
 * prematurely.` for a stream being read, `ctx.abort(reason)`'s reason for a call in flight — when `probe` meets a
 * broken stub too. Otherwise `undefined` (the error is handed on as it is).
 */
async function restartedError(error: unknown, method: string | undefined, probe: RemoteProbe | undefined): Promise<Error | undefined> {
  if (isBrokenStubError(error)) return brokenStubError(error, method);
  if (probe === undefined || !(error instanceof Error)) return undefined;
  if (Reflect.get(error, "code") !== undefined || Reflect.get(error, REMOTE_ERROR_KEY) !== undefined) return undefined;
  try {
    await probe();
  } catch (probeError) {
    if (isBrokenStubError(probeError)) return brokenStubError(error, method);
  }
  return undefined;
}

/**
 * `stream`, a byte stream the call `method` returned over RPC, as a client hands it on (a byte stream, pulled as it is
 * read, cancel passed through): a read that fails because the Durable Object behind it restarted — workerd's uncoded
 * `ReadableStream received over RPC disconnected prematurely.`, and `probe` meets a broken stub — rejects, as every
 * other call of the client does, with an `Error` `code` `ECONNRESET` naming `method` (workerd's error as `cause`),
 * and `onBroken` hears of it (a lazy client drops its broken load). Any other failure is handed on as it is.
 */
export function remoteByteStream(
  stream: ReadableStream<Uint8Array>,
  method: string,
  probe: RemoteProbe,
  onBroken?: (error: Error) => void,
): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  return new ReadableStream({
    type: "bytes",
    async pull(controller: ReadableByteStreamController) {
      for (;;) {
        let result: ReadableStreamReadResult<Uint8Array>;
        try {
          result = await reader.read();
        } catch (error) {
          const restarted = await restartedError(error, method, probe);
          if (restarted === undefined) throw error;
          onBroken?.(restarted);
          throw restarted;
        }
        if (result.done) {
          controller.close();
          controller.byobRequest?.respond(0);
          return;
        }
        // A byte stream refuses an empty chunk; read on.
        if (result.value.byteLength === 0) continue;
        controller.enqueue(result.value);
        return;
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/**
 * Runs one RPC call from a client; a failure is rethrown as {@link fromRemoteError} rebuilds it. With `method` (the
 * client's name for the call, such as `"runtime.exec"`), workerd's refusal of the call's arguments or answer past its
 * 32 MiB limit — a bare `Error` without a code (`isRpcSizeError`) — is rethrown as `tooLarge(message)`, an error with
 * `code` `E2BIG` whose message names `method`, the limit and workerd's text, and says to put large input in a
 * Workspace file (`fs.writeFile` streams it). workerd's uncoded error of a call over a stub whose Durable Object
 * restarted ({@link isBrokenStubError}) is rethrown as an `Error` with `code` `ECONNRESET` that names the call and says
 * to get a new client; so is any other uncoded error the object did not answer with (`ctx.abort(reason)`'s reason for
 * a call in flight) when `probe`, one cheap call over the same stub, meets a broken stub.
 */
export async function callRemote<T>(
  run: () => T | Promise<T>,
  method?: string,
  tooLarge: TooLargeError = tooLargeError,
  probe?: RemoteProbe,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (method !== undefined && isRpcSizeError(error)) {
      throw tooLarge(
        `${method}: the call is over 32 MiB, more than crosses RPC (${(error as Error).message}); pass less at once — put large input in a Workspace file (fs.writeFile streams it) and name the file`,
        error as Error,
      );
    }
    const restarted = await restartedError(error, method, probe);
    if (restarted !== undefined) throw restarted;
    throw fromRemoteError(error);
  }
}
