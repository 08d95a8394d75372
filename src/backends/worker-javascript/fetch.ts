/**
 * The host side of the isolate's `fetch` in replay runs (spec 02 §5,
 * "Replayed fetch"): the isolate sends a {@link SerializedRequest}, the host
 * runs it under the backend's `egress` and answers a
 * {@link SerializedResponse} with the body buffered, so the answer can be
 * journaled and served again when the run replays.
 *
 * @module
 */
import type { ResolvedOptions } from "./options.js";

/**
 * A request as the isolate sends it to the host (spec 02 §5). The body is
 * the request's bytes (`null`: no body, as for GET and HEAD).
 */
export interface SerializedRequest {
  /** Absolute `http:` or `https:` URL. */
  url: string;
  /** HTTP method, as given (an HTTP token; `CONNECT`, `TRACE` and `TRACK` are refused). */
  method: string;
  /** Header pairs `[name, value]` in order; a name may repeat. */
  headers: [string, string][];
  /** Body bytes, or `null` for none (required for GET and HEAD). At most `maxBytes` bytes. */
  body: Uint8Array | null;
  /** Redirect mode of the Fetch standard. `"error"` fails on a redirect response (301, 302, 303, 307, 308). */
  redirect: "follow" | "manual" | "error";
}

/**
 * A response as the host answers it to the isolate (spec 02 §5), its body
 * read to the end.
 */
export interface SerializedResponse {
  /** Final URL (after redirects when they were followed). */
  url: string;
  /** HTTP status. */
  status: number;
  /** Reason phrase (may be `""`). */
  statusText: string;
  /** Header pairs `[name, value]` (lower-case names, each `set-cookie` on its own). */
  headers: [string, string][];
  /** Every byte of the body (empty when there was none). At most `maxBytes` bytes. */
  body: Uint8Array;
  /** `true` when at least one redirect was followed. */
  redirected: boolean;
}

/** Options of {@link FetchGate}. */
export interface FetchGateOptions {
  /** The backend's network policy (`ResolvedOptions.egress`, spec 02 §3.8). */
  egress: ResolvedOptions["egress"];
  /** Largest request body and largest response body, in bytes (the backend's `maxCapabilityBytes`). A positive safe integer. */
  maxBytes: number;
  /**
   * Requests open at once (sent, response body not yet read to the end);
   * the rest wait in order (FIFO). A positive safe integer.
   * @defaultValue `6`
   */
  maxOpen?: number;
}

/** The methods the Fetch standard forbids. */
const FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);
/** An HTTP token (RFC 9110 §5.6.2): what a method and a header name are. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Characters a header value may not hold. */
const BAD_VALUE = /[\0\r\n]/;
/** The statuses a redirect is (Fetch standard). */
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const REDIRECT_MODES: ReadonlySet<string> = new Set(["follow", "manual", "error"]);

/** An Error with a `code`, like the bridge's `pathError`. */
function coded<E extends Error>(err: E, code: string): E & { code: string } {
  return Object.assign(err, { code });
}

/** `TypeError` (code `EINVAL`) for a request of the wrong shape. */
function badRequest(message: string): TypeError & { code: string } {
  return coded(new TypeError(`fetch request ${message}`), "EINVAL");
}

function isUint8Array(value: unknown): value is Uint8Array {
  return ArrayBuffer.isView(value) && Object.prototype.toString.call(value) === "[object Uint8Array]";
}

/**
 * Checks `request` is a {@link SerializedRequest} a fetch can be made of.
 * @throws TypeError (code `EINVAL`) naming the first thing wrong.
 */
function validate(request: unknown): SerializedRequest {
  if (typeof request !== "object" || request === null || Array.isArray(request)) throw badRequest(`must be an object { url, method, headers, body, redirect }, got ${request === null ? "null" : Array.isArray(request) ? "an array" : typeof request}`);
  const r = request as Record<string, unknown>;
  if (typeof r.url !== "string") throw badRequest(`url must be a string, got ${typeof r.url}`);
  let url: URL;
  try {
    url = new URL(r.url);
  } catch {
    throw badRequest(`url must be an absolute URL, got ${JSON.stringify(r.url)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw badRequest(`url must be http: or https:, got ${JSON.stringify(r.url)}`);
  if (typeof r.method !== "string" || !TOKEN.test(r.method)) throw badRequest(`method must be an HTTP token, got ${JSON.stringify(r.method)}`);
  if (FORBIDDEN_METHODS.has(r.method.toUpperCase())) throw badRequest(`method ${r.method} is not allowed`);
  if (!Array.isArray(r.headers)) throw badRequest(`headers must be an array of [name, value] pairs, got ${typeof r.headers}`);
  for (const [i, pair] of (r.headers as unknown[]).entries()) {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== "string" || typeof pair[1] !== "string") {
      throw badRequest(`headers[${i}] must be a [name, value] pair of strings`);
    }
    if (!TOKEN.test(pair[0])) throw badRequest(`header name ${JSON.stringify(pair[0])} is not an HTTP token`);
    if (BAD_VALUE.test(pair[1])) throw badRequest(`header ${pair[0]} has a value with NUL, CR or LF`);
  }
  if (r.body !== null && !isUint8Array(r.body)) throw badRequest(`body must be a Uint8Array or null, got ${typeof r.body}`);
  const upper = r.method.toUpperCase();
  if (r.body !== null && (upper === "GET" || upper === "HEAD")) throw badRequest(`with method ${r.method} cannot have a body`);
  if (typeof r.redirect !== "string" || !REDIRECT_MODES.has(r.redirect)) throw badRequest(`redirect must be "follow", "manual" or "error", got ${JSON.stringify(r.redirect)}`);
  return r as unknown as SerializedRequest;
}

/** A promise that rejects with `signal.reason` once `signal` aborts, and its cleanup. */
function abortion(signal: AbortSignal): { promise: Promise<never>; dispose(): void } {
  let onAbort = (): void => {};
  const promise = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  promise.catch(() => {});
  return { promise, dispose: () => signal.removeEventListener("abort", onAbort) };
}

/**
 * The host's fetch for one replay run (spec 02 §5): runs the isolate's
 * requests under the backend's `egress`, at most `maxOpen` at once (the
 * rest queue in order), with request and response bodies of at most
 * `maxBytes` bytes each. Requests are not counted in the capability-call
 * budgets.
 *
 * - `egress: { mode: "none" }`: every request fails (TypeError, code `ENETUNREACH`).
 * - `egress: { mode: "direct" }`: `globalThis.fetch`.
 * - `egress: { mode: "http-gateway", gateway }`: `gateway.fetch(request)`.
 *
 * Redirect mode `"error"` runs as `"manual"` (workerd has no `"error"`) and
 * fails with a TypeError when the response is a redirect.
 */
export class FetchGate {
  readonly #egress: ResolvedOptions["egress"];
  readonly #maxBytes: number;
  readonly #maxOpen: number;
  #open = 0;
  readonly #waiting: Array<() => void> = [];

  /**
   * @throws TypeError when `egress` is not one of the three modes, or
   *   `maxBytes` / `maxOpen` is not a positive safe integer.
   */
  constructor(o: FetchGateOptions) {
    const e = o?.egress as { mode?: unknown; gateway?: { fetch?: unknown } } | undefined;
    if (!e || (e.mode !== "none" && e.mode !== "direct" && e.mode !== "http-gateway")) {
      throw new TypeError('FetchGate: egress must be { mode: "none" }, { mode: "direct" } or { mode: "http-gateway", gateway }');
    }
    if (e.mode === "http-gateway" && typeof e.gateway?.fetch !== "function") throw new TypeError("FetchGate: egress.gateway must have a fetch() method");
    const maxOpen = o.maxOpen ?? 6;
    for (const [name, value] of [["maxBytes", o.maxBytes], ["maxOpen", maxOpen]] as const) {
      if (!Number.isSafeInteger(value) || value <= 0) throw new TypeError(`FetchGate: ${name} must be a positive safe integer, got ${String(value)}`);
    }
    this.#egress = o.egress;
    this.#maxBytes = o.maxBytes;
    this.#maxOpen = maxOpen;
  }

  /** Requests open now (sent and their response not yet read to the end). */
  get open(): number {
    return this.#open;
  }

  /** Requests waiting for one of the `maxOpen` places. */
  get queued(): number {
    return this.#waiting.length;
  }

  /**
   * Runs one request and answers its response with the whole body.
   *
   * @param request what the isolate asked for (checked: it crosses from untrusted code).
   * @param signal aborts the request wherever it is (queued, waiting for the
   *   response, reading the body); the promise then rejects with `signal.reason`.
   * @throws TypeError (code `EINVAL`) for a request of the wrong shape;
   *   TypeError (code `ENETUNREACH`) `fetch is not available: this backend has no network access (egress "none")`;
   *   Error (code `E2BIG`) `fetch request body for <url> is <n> bytes, over maxCapabilityBytes (<max> bytes)`
   *   or `fetch response body from <url> is over maxCapabilityBytes (<max> bytes)`;
   *   TypeError `fetch failed: <url> redirected to <location> and its redirect mode is "error"`;
   *   whatever the network or gateway fetch throws.
   */
  async fetch(request: SerializedRequest, signal: AbortSignal): Promise<SerializedResponse> {
    if (signal.aborted) throw signal.reason;
    const r = validate(request);
    if (this.#egress.mode === "none") {
      throw coded(new TypeError('fetch is not available: this backend has no network access (egress "none")'), "ENETUNREACH");
    }
    if (r.body !== null && r.body.byteLength > this.#maxBytes) {
      throw coded(new Error(`fetch request body for ${r.url} is ${r.body.byteLength} bytes, over maxCapabilityBytes (${this.#maxBytes} bytes)`), "E2BIG");
    }
    await this.#acquire(signal);
    try {
      return await this.#run(r, signal);
    } finally {
      this.#release();
    }
  }

  /** Waits for a place (FIFO); rejects with `signal.reason` when it aborts first. */
  #acquire(signal: AbortSignal): Promise<void> {
    if (this.#open < this.#maxOpen) {
      this.#open++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const grant = (): void => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      };
      const onAbort = (): void => {
        const i = this.#waiting.indexOf(grant);
        if (i >= 0) this.#waiting.splice(i, 1);
        reject(signal.reason);
      };
      this.#waiting.push(grant);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Hands the place to the first waiter, else frees it. */
  #release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#open--;
  }

  async #run(r: SerializedRequest, signal: AbortSignal): Promise<SerializedResponse> {
    const controller = new AbortController();
    const forward = (): void => controller.abort(signal.reason);
    signal.addEventListener("abort", forward, { once: true });
    const aborted = abortion(signal);
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    let finished = false;
    try {
      const init: RequestInit = {
        method: r.method,
        headers: r.headers,
        redirect: r.redirect === "error" ? "manual" : r.redirect,
        signal: controller.signal,
      };
      if (r.body !== null) init.body = r.body;
      const req = new Request(r.url, init);
      const sent = this.#egress.mode === "direct" ? globalThis.fetch(req) : this.#egress.mode === "http-gateway" ? this.#egress.gateway.fetch(req) : Promise.reject(new Error("unreachable"));
      sent.catch(() => {});
      const response = await Promise.race([sent, aborted.promise]);
      if (r.redirect === "error" && REDIRECT_STATUSES.has(response.status)) {
        void response.body?.cancel().catch(() => {});
        const location = response.headers.get("location");
        throw new TypeError(`fetch failed: ${r.url} redirected${location === null ? "" : ` to ${location}`} and its redirect mode is "error"`);
      }
      const chunks: Uint8Array[] = [];
      let size = 0;
      if (response.body) {
        reader = response.body.getReader();
        for (;;) {
          const { done, value } = await Promise.race([reader.read(), aborted.promise]);
          if (done) break;
          size += value.byteLength;
          if (size > this.#maxBytes) {
            throw coded(new Error(`fetch response body from ${r.url} is over maxCapabilityBytes (${this.#maxBytes} bytes)`), "E2BIG");
          }
          chunks.push(value);
        }
        reader = undefined;
      }
      const body = new Uint8Array(size);
      let at = 0;
      for (const c of chunks) {
        body.set(c, at);
        at += c.byteLength;
      }
      finished = true;
      return {
        url: response.url || r.url,
        status: response.status,
        statusText: response.statusText,
        headers: [...response.headers],
        body,
        redirected: response.redirected,
      };
    } finally {
      if (reader) void reader.cancel().catch(() => {});
      if (!finished && !controller.signal.aborted) controller.abort();
      signal.removeEventListener("abort", forward);
      aborted.dispose();
    }
  }
}
