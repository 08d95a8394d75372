/**
 * Checks of one `exec` request of the JavaScript backend (spec 02 §3.2):
 * timeout, input, stdin, env, interrupt policy and source against the
 * backend's limits, and the run's cwd against its root. Every check runs
 * before a graph is built or a Worker is created.
 *
 * @module
 */
import type { WorkspaceFilesystem } from "../../fs/types.js";
import type { WorkspaceModuleBackendHandle, WorkspaceRuntimeValue } from "../../runtime/types.js";
import { isUnder, normalizePath } from "../../util/path.js";
import { memberCut, pathCut as shownPath, quoteCut } from "../../util/cut.js";
import { defineKey, normalizeJson } from "./bridge.js";
import type { ResolvedOptions } from "./options.js";
import { ConfinedResolver, pathError } from "./paths.js";
import { estimateRpcSize, MAX_FS_RPC_RESULT_BYTES } from "../../do/rpc-size.js";
import { compactView } from "../../util/rpc-bytes.js"; // compact views: run 35, fixer UV

const encoder = new TextEncoder();

/** What `exec` receives. */
export type ExecRequest = Parameters<WorkspaceModuleBackendHandle["exec"]>[0];

/** A request's values once checked, with defaults applied. */
export interface CheckedRequest {
  /** Wall-clock limit (ms): `request.timeoutMs`, default `defaultTimeoutMs`. */
  timeoutMs: number;
  /** `request.input` as plain JSON data (`undefined` → `null`). */
  input: WorkspaceRuntimeValue;
  /** stdin bytes (a string as UTF-8; none: empty). */
  stdin: Uint8Array;
  /** `process.env` of the run (a copy; a `"__proto__"` key stays an ordinary key). */
  env: Record<string, string>;
  /** The entry module's source. */
  source: string;
  /** What happens to the run when a restart interrupts it (spec 02 §5): the request's, else the backend's. */
  policy: "fail" | "restart" | "replay";
}

/**
 * Checks `request` against the limits in `o`, in this order: timeout,
 * input, stdin, env, onInterrupt, source.
 *
 * @throws TypeError `timeoutMs must be a positive number of milliseconds, got …`,
 *   `stdin must be a string or a Uint8Array`, `env must be an object of strings`,
 *   `env.<key> must be a string, got …` (a key over 64 characters quoted `env["<first 64>…" (<n> characters)]`),
 *   `onInterrupt must be "fail", "restart" or "replay".`,
 *   `source must be a string`, or `input must be JSON-compatible: …`;
 *   RangeError `timeout cannot exceed <maxTimeoutMs> milliseconds`, or
 *   `<what> is <n> bytes…, over <limit> (<max>)` for input, stdin, env and source; RangeError `code` `E2BIG`
 *   when input, stdin and env together are more than crosses RPC to the run's isolate (limits raised past 30 MiB).
 */
export function checkRequest(request: ExecRequest, o: ResolvedOptions): CheckedRequest {
  const timeoutMs = request.timeoutMs ?? o.defaultTimeoutMs;
  if (typeof timeoutMs !== "number" || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new TypeError(`timeoutMs must be a positive number of milliseconds, got ${String(timeoutMs)}`);
  }
  if (timeoutMs > o.maxTimeoutMs) throw new RangeError(`timeout cannot exceed ${o.maxTimeoutMs} milliseconds`);
  const input = normalizeJson(request.input ?? null, "input");
  const inputBytes = encoder.encode(JSON.stringify(input)).byteLength;
  if (inputBytes > o.maxInputBytes) throw new RangeError(`input is ${inputBytes} bytes of JSON, over maxInputBytes (${o.maxInputBytes})`);
  let stdin: Uint8Array = new Uint8Array(0);
  if (request.stdin !== undefined) {
    if (typeof request.stdin === "string") stdin = encoder.encode(request.stdin);
    // A view of a larger buffer crosses to the isolate compact, not with its whole buffer (run 35, fixer UV).
    else if (request.stdin instanceof Uint8Array) stdin = compactView(request.stdin);
    else throw new TypeError("stdin must be a string or a Uint8Array");
    if (stdin.byteLength > o.maxStdinBytes) throw new RangeError(`stdin is ${stdin.byteLength} bytes, over maxStdinBytes (${o.maxStdinBytes})`);
  }
  const env: Record<string, string> = {};
  if (request.env !== undefined) {
    if (typeof request.env !== "object" || request.env === null || Array.isArray(request.env)) throw new TypeError("env must be an object of strings");
    let envBytes = 0;
    for (const [k, v] of Object.entries(request.env)) {
      if (typeof v !== "string") throw new TypeError(`env${memberCut(k)} must be a string, got ${typeof v}`);
      envBytes += encoder.encode(k).byteLength + encoder.encode(v).byteLength;
      defineKey(env, k, v);
    }
    if (envBytes > o.maxEnvBytes) throw new RangeError(`env is ${envBytes} bytes, over maxEnvBytes (${o.maxEnvBytes})`);
  }
  const policy = request.onInterrupt ?? o.onInterrupt;
  if (policy !== "fail" && policy !== "restart" && policy !== "replay") throw new TypeError('onInterrupt must be "fail", "restart" or "replay".');
  if (typeof request.source !== "string") throw new TypeError("source must be a string");
  const sourceBytes = encoder.encode(request.source).byteLength;
  if (sourceBytes > o.maxSourceBytes) throw new RangeError(`source is ${sourceBytes} bytes, over maxSourceBytes (${o.maxSourceBytes})`);
  checkRunnerCall(input, stdin, env);
  return { timeoutMs, input, stdin, env, source: request.source, policy };
}

/** Bytes for the runner call's other fields (cwd, names, limits) in {@link checkRunnerCall}'s estimate. */
const OTHER_FIELDS_BYTES = 1024;

/**
 * Refuses a run whose `input`, `stdin` and `env` estimate (as workerd
 * serializes them) over {@link MAX_FS_RPC_RESULT_BYTES} together: they go to
 * the run's isolate in one RPC call, which workerd refuses past 32 MiB (the
 * run then failed with its uncoded `Serialized RPC arguments …` as stderr).
 * Only reachable with `maxInputBytes`/`maxStdinBytes`/`maxEnvBytes` raised.
 * @throws RangeError `code` `E2BIG`, before anything runs.
 */
function checkRunnerCall(input: WorkspaceRuntimeValue, stdin: Uint8Array, env: Record<string, string>): void {
  const parts = { input: estimateRpcSize(input), stdin: estimateRpcSize(stdin), env: estimateRpcSize(env) };
  const total = parts.input + parts.stdin + parts.env + OTHER_FIELDS_BYTES;
  if (total <= MAX_FS_RPC_RESULT_BYTES) return;
  const message = `exec: the request is ${total} bytes as sent to the run's isolate (input ${parts.input}, stdin ${parts.stdin}, env ${parts.env}, other fields ${OTHER_FIELDS_BYTES}), over the ${MAX_FS_RPC_RESULT_BYTES} bytes (30 MiB) one call to the run's isolate takes (workerd's limit is 32 MiB); nothing ran. Put large input in a Workspace file and have the code read it (node:fs readFile) instead.`;
  throw Object.assign(new RangeError(message), { code: "E2BIG" });
}

/**
 * Validates a run's `cwd` (default `root`) and returns it normalised:
 * relative ones resolve against `root`, the result must be at/under `root`,
 * free of symbolic links, and an existing directory. `root` itself may be
 * missing (read-write runs create it).
 *
 * @throws `TypeError` naming `cwd` for a non-string or empty one; `EINVAL` for
 *   a NUL byte; `EACCES` outside root (`paths must stay under <root>: cwd <cwd>`; in each message a path over 64
 *   characters is quoted as its first 64 and its length, `err.path` holds it whole) or
 *   through a link; `ENOENT` when missing; `ENOTDIR` when not a directory.
 */
export async function resolveCwd(fs: WorkspaceFilesystem, root: string, input: unknown): Promise<string> {
  if (input === undefined) return root;
  if (typeof input !== "string" || input === "") {
    throw new TypeError(`cwd must be a non-empty path string under ${root}, got ${input === "" ? "an empty string" : input === null ? "null" : typeof input}`);
  }
  if (input.includes("\0")) throw pathError("EINVAL", `cwd contains a NUL byte: ${quoteCut(input)}`, input);
  const abs = normalizePath(input, root);
  if (!isUnder(abs, root)) throw pathError("EACCES", `paths must stay under ${root}: cwd ${shownPath(input)}`, abs);
  const { last } = await new ConfinedResolver(fs, root).resolve(abs);
  if (last) {
    if (!last.isDirectory) throw pathError("ENOTDIR", `cwd is not a directory: ${shownPath(abs)}`, abs);
    return abs;
  }
  if (abs === root) return abs;
  let code = "ENOENT";
  try {
    if (!(await fs.stat(abs)).isDirectory) code = "ENOTDIR";
    else return abs;
  } catch (err) {
    if ((err as { code?: string }).code === "ENOTDIR") code = "ENOTDIR";
  }
  throw pathError(code, code === "ENOTDIR" ? `cwd is not a directory: ${shownPath(abs)}` : `cwd does not exist: ${shownPath(abs)}`, abs);
}

