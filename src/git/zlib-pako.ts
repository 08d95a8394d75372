/**
 * The part of `pako` (1.x) that isomorphic-git uses, implemented with
 * `node:zlib` (spec 04 §2.1: "`pako` swapped for `node:zlib` → needs
 * `nodejs_compat`"). scripts/gen-git.mjs aliases `pako` to this module when
 * it bundles isomorphic-git, so the git entry carries no second zlib.
 *
 * isomorphic-git calls:
 * - `pako.inflate(buffer)` to read a loose object (it never uses the
 *   `DecompressionStream` path: its feature flag is hard-wired off);
 * - `pako.deflate(buffer)` to write one, only where `CompressionStream` is
 *   missing (Node and workerd have it);
 * - `new pako.Inflate()` + `push(chunk, false)` in its pack parser
 *   (`listpack`), which needs to know where each object's deflate stream
 *   ends inside the pack: after a `push` that completes the stream, `result`
 *   holds the inflated bytes and `strm.avail_in` the number of bytes of that
 *   last chunk left after the stream's end.
 *
 * Works in Node and in workerd under `nodejs_compat` (both give
 * `inflateSync(buf, { info: true })` with the engine's `bytesWritten`: the
 * input consumed up to the end of the stream; bytes after it are ignored).
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { constants, deflateSync, inflateSync } from "node:zlib";
import { GIT_MAX_OBJECT_BYTES, objectTooLarge } from "./limits.js";

/** zlib's status codes as pako reports them in {@link Inflate.err}. */
const Z_OK = 0;
const Z_DATA_ERROR = -3;

/** node:zlib's `inflateSync(buf, { info: true })` result (not in every @types/node overload). */
interface InflateInfo {
  buffer: Buffer;
  engine?: { bytesWritten?: number };
}

/** Bytes of any view, without copying. */
function bytesOf(data: ArrayBufferView | ArrayBuffer): Buffer {
  if (data instanceof ArrayBuffer) return Buffer.from(data);
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

/** True when zlib stopped because the input ended before the stream did (more input may complete it). */
function isTruncated(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  // Node sets code Z_BUF_ERROR; workerd gives only the message.
  return e?.code === "Z_BUF_ERROR" || (typeof e?.message === "string" && /unexpected end of file/i.test(e.message));
}

/** The message of a zlib error (pako reports messages, e.g. `"incorrect header check"`). */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Inflates a whole zlib (RFC 1950) stream, as `pako.inflate` does. Bytes
 * after the end of the stream are ignored.
 * @throws string the zlib message (e.g. `"incorrect header check"`,
 *   `"unexpected end of file"`), as pako 1.x throws it; isomorphic-git wraps
 *   a thrown string into its `DecompressionError`.
 */
export function inflate(data: ArrayBufferView | ArrayBuffer): Uint8Array {
  const input = bytesOf(data);
  const declared = declaredSize(input);
  if (declared !== undefined && declared > GIT_MAX_OBJECT_BYTES) throw new Error(objectTooLarge(declared));
  try {
    // Past the limit (+ the header) zlib stops instead of allocating on.
    return inflateSync(input, { maxOutputLength: GIT_MAX_OBJECT_BYTES + 64 });
  } catch (error) {
    if (isTooLarge(error)) throw new Error(objectTooLarge(undefined));
    // A string, as pako throws: isomorphic-git turns it into its DecompressionError.
    throw messageOf(error);
  }
}

/**
 * The size a loose object's header (`<type> <size>\0`) declares, read by
 * inflating only the first compressed bytes; undefined when the data is not
 * a loose object or the header does not parse.
 */
function declaredSize(input: Buffer): number | undefined {
  let head: Buffer;
  try {
    head = inflateSync(input.subarray(0, 64), { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: 1 << 20 });
  } catch {
    return undefined;
  }
  const nul = head.indexOf(0);
  if (nul < 0 || nul > 40) return undefined;
  const m = /^(?:blob|tree|commit|tag) (\d{1,20})$/.exec(head.subarray(0, nul).toString("latin1"));
  return m ? Number(m[1]) : undefined;
}

/** True when zlib stopped at `maxOutputLength`. */
function isTooLarge(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  return e?.code === "ERR_BUFFER_TOO_LARGE" || (typeof e?.message === "string" && /larger than|too large|maxOutputLength/i.test(e.message));
}

/** Deflates bytes into a zlib (RFC 1950) stream, as `pako.deflate` does (default level). */
export function deflate(data: ArrayBufferView | ArrayBuffer | string): Uint8Array {
  return deflateSync(typeof data === "string" ? Buffer.from(data, "utf8") : bytesOf(data));
}

/**
 * pako's streaming inflater, as far as isomorphic-git's pack parser uses it:
 * `push(chunk, false)` until `result` is set (the stream ended) or `err` is
 * non-zero. Input is kept until the stream completes; each push inflates the
 * input so far from its start and stops at the stream's end, so a stream
 * delivered in one chunk (isomorphic-git passes the rest of the pack at once)
 * is inflated once. After the end, further pushes are ignored.
 */
export class Inflate {
  /** The inflated bytes, once the stream has ended; `undefined` before. */
  result: Uint8Array | undefined = undefined;
  /** `0` while fine; a zlib error code (e.g. `-3`, `Z_DATA_ERROR`) after corrupt input. */
  err = Z_OK;
  /** The zlib message of the error (`""` when none). */
  msg = "";
  /** `true` once the stream has ended or failed. */
  ended = false;
  /** `avail_in`: bytes of the last pushed chunk that lie after the end of the stream (`0` until it ends). */
  readonly strm = { avail_in: 0 };
  #pending: Buffer[] = [];
  #pendingBytes = 0;

  /**
   * Feeds a chunk. The second argument (pako's flush mode) is accepted and
   * ignored: completion is detected from the data.
   * @returns `false` after an error, else `true`.
   */
  push(chunk: ArrayBufferView | ArrayBuffer, _mode?: boolean | number): boolean {
    if (this.ended) return this.err === Z_OK;
    const bytes = bytesOf(chunk);
    const input = this.#pendingBytes === 0 ? bytes : Buffer.concat([...this.#pending, bytes]);
    let out: InflateInfo;
    try {
      out = (inflateSync as unknown as (b: Buffer, o: { info: true; maxOutputLength: number }) => InflateInfo)(input, {
        info: true,
        maxOutputLength: GIT_MAX_OBJECT_BYTES + 64,
      });
    } catch (error) {
      if (isTooLarge(error)) {
        this.ended = true;
        this.err = Z_DATA_ERROR;
        this.msg = objectTooLarge(undefined);
        this.#pending = [];
        this.#pendingBytes = 0;
        return false;
      }
      if (isTruncated(error)) {
        this.#pending.push(bytes);
        this.#pendingBytes += bytes.length;
        return true;
      }
      this.ended = true;
      this.err = Z_DATA_ERROR;
      this.msg = messageOf(error);
      this.#pending = [];
      this.#pendingBytes = 0;
      return false;
    }
    this.ended = true;
    this.#pending = [];
    this.#pendingBytes = 0;
    const consumed = out.engine?.bytesWritten;
    if (typeof consumed !== "number" || consumed > input.length) {
      // A zlib without `info` cannot say where the stream ends inside the pack.
      this.err = Z_DATA_ERROR;
      this.msg = "node:zlib inflateSync({ info: true }) did not report the input consumed (engine.bytesWritten)";
      return false;
    }
    this.result = out.buffer;
    this.strm.avail_in = input.length - consumed;
    return true;
  }
}

/** The default export isomorphic-git imports (`import pako from "pako"`). */
const pako = { inflate, deflate, Inflate };
export default pako;
