// @ts-check
/**
 * Module `__modules__/workspace-fetch.js` of a replay run's Dynamic Worker: the isolate
 * side of the replayed `fetch` (spec 02 §5, "Replayed fetch"). The run's
 * `fetch` serialises each request, hands it to the host (which runs it under
 * the backend's `egress`, journals the answer and serves it again on
 * replay) and rebuilds a `Response` from the host's answer.
 *
 * Runs inside the Dynamic Worker, never in the host: this folder mirrors the
 * isolate's module tree (a file's path under isolate/ is its module name),
 * and isolate-source.generated.ts carries the text.
 */

/**
 * A request as the isolate sends it to the host (src/backends/worker-javascript/fetch.ts
 * has the same shape): `body` is the request's bytes, `null` for none.
 * @typedef {object} SerializedRequest
 * @property {string} url absolute URL.
 * @property {string} method
 * @property {[string, string][]} headers pairs in order; a name may repeat.
 * @property {Uint8Array | null} body
 * @property {"follow" | "manual" | "error"} redirect
 */

/**
 * A response as the host answers it, its body read to the end.
 * @typedef {object} SerializedResponse
 * @property {string} url final URL (after followed redirects).
 * @property {number} status
 * @property {string} statusText
 * @property {[string, string][]} headers
 * @property {Uint8Array} body every byte of the body (empty when none).
 * @property {boolean} redirected `true` when a redirect was followed.
 */

/**
 * The host call that runs one request.
 * @typedef {(request: SerializedRequest) => Promise<SerializedResponse>} ReplayFetchSend
 */

/** Statuses whose response has no body (Fetch standard "null body status", and 103). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * The abort reason of `signal`: its `reason`, else an AbortError DOMException.
 * @param {AbortSignal} signal
 * @returns {unknown}
 */
function reasonOf(signal) {
  return signal.reason !== undefined ? signal.reason : new DOMException("The operation was aborted.", "AbortError");
}

/**
 * `promise`, or a rejection with the abort reason as soon as `signal` aborts.
 * @template T
 * @param {AbortSignal | null} signal
 * @param {Promise<T>} promise
 * @returns {Promise<T>}
 */
function unlessAborted(signal, promise) {
  if (!signal) return promise;
  const s = signal;
  return new Promise((resolve, reject) => {
    if (s.aborted) {
      promise.catch(() => {});
      reject(reasonOf(s));
      return;
    }
    const onAbort = () => reject(reasonOf(s));
    s.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        s.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (err) => {
        s.removeEventListener("abort", onAbort);
        reject(err);
      },
    );
  });
}

/**
 * Turns the host's answer into a `Response`: a null body for the null-body
 * statuses (101, 103, 204, 205, 304) and for HEAD, the host's `url` and
 * `redirected` as own properties (a constructed Response has none). A
 * status outside 200–599, which the Response constructor refuses, is set
 * as an own `status` (and `ok: false`) on a Response built with 200.
 *
 * @param {SerializedResponse} answer
 * @param {string} method the request's method.
 * @returns {Response}
 */
function toResponse(answer, method) {
  if (typeof answer !== "object" || answer === null || typeof answer.status !== "number" || !Array.isArray(answer.headers)) {
    throw new TypeError("fetch failed: the host's answer is not a response");
  }
  const headers = new Headers();
  for (const [name, value] of answer.headers) headers.append(name, value);
  const status = answer.status;
  const inRange = status >= 200 && status <= 599;
  const noBody = NULL_BODY_STATUSES.has(status) || !inRange || method === "HEAD";
  const response = new Response(noBody ? null : answer.body, { status: inRange ? status : 200, statusText: answer.statusText, headers });
  if (!inRange) {
    Object.defineProperty(response, "status", { value: status, enumerable: true, configurable: true });
    Object.defineProperty(response, "ok", { value: false, enumerable: true, configurable: true });
  }
  Object.defineProperty(response, "url", { value: answer.url, enumerable: true, configurable: true });
  Object.defineProperty(response, "redirected", { value: answer.redirected === true, enumerable: true, configurable: true });
  return response;
}

/**
 * A `fetch` for replay runs: each call builds a `Request` from `input` and
 * `init` (a string, URL or Request, as the global fetch takes), reads its
 * body into bytes, hands the {@link SerializedRequest} to `send` and builds
 * a `Response` of the answer (see {@link toResponse}).
 *
 * The URL is sent without its fragment (the network never sees it).
 * `redirect: "error"` is sent as `"error"` (the host fails on a redirect)
 * even where the Request constructor only knows "follow" and "manual".
 * The signal (`init.signal`, else the Request's) aborted before the call or
 * while it waits rejects with its reason (an AbortError DOMException when
 * it has none); the host's failure rejects as it came.
 *
 * @param {ReplayFetchSend} send
 * @returns {(input: RequestInfo | URL, init?: RequestInit) => Promise<Response>}
 */
export function createReplayFetch(send) {
  if (typeof send !== "function") throw new TypeError("createReplayFetch: send must be a function");
  return async function fetch(input, init) {
    const wantsError = init != null && init.redirect === "error";
    const request = new Request(input, wantsError ? { ...init, redirect: "manual" } : init);
    /** @type {AbortSignal | null} */
    const signal = init != null && init.signal != null ? init.signal : input instanceof Request ? input.signal : null;
    if (signal && signal.aborted) throw reasonOf(signal);
    const body = request.body === null ? null : new Uint8Array(await unlessAborted(signal, request.arrayBuffer()));
    /** @type {SerializedRequest["redirect"]} */
    const redirect = wantsError ? "error" : request.redirect === "manual" ? "manual" : request.redirect === "error" ? "error" : "follow";
    const url = new URL(request.url);
    url.hash = ""; // never sent, as fetch does
    /** @type {SerializedRequest} */
    const serialized = { url: url.href, method: request.method, headers: [...request.headers], body, redirect };
    const answer = await unlessAborted(signal, Promise.resolve().then(() => send(serialized)));
    return toResponse(answer, request.method);
  };
}
