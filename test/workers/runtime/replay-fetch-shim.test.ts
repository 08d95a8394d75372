// The isolate side of the replayed fetch (spec 02 §5, "Replayed fetch"): isolate/__modules__/workspace-fetch.js
// loaded into a real Dynamic Worker, its `send` a host RpcTarget that records the serialised
// request and answers a scripted SerializedResponse.
import { env } from "cloudflare:test";
import { RpcTarget } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ISOLATE_SOURCES } from "../../../src/backends/worker-javascript/isolate-source.generated.js";
import { FetchGate, type SerializedRequest, type SerializedResponse } from "../../../src/backends/worker-javascript/fetch.js";

const encoder = new TextEncoder();

/** The Dynamic Worker's main module: named scenarios, each calling the replay fetch. */
const MAIN = `
import { WorkerEntrypoint } from "cloudflare:workers";
import { createReplayFetch } from "./workspace-fetch.js";

async function summary(r) {
  const isResponse = r instanceof Response;
  const bodyNull = r.body === null;
  return { isResponse, status: r.status, statusText: r.statusText, ok: r.ok, url: r.url, redirected: r.redirected, headers: [...r.headers], bodyNull, bytes: [...new Uint8Array(await r.arrayBuffer())] };
}
function failure(e, mine) {
  return { error: { name: e?.name, message: e?.message, code: e?.code, isDOMException: e instanceof DOMException, isMine: e === mine } };
}
const URL_A = "https://example.com/a?b=1";

const scenarios = {
  async stringPost(f) {
    return summary(await f(URL_A, { method: "POST", headers: { "X-One": "1", "content-type": "application/json" }, body: JSON.stringify({ a: 1 }), redirect: "manual" }));
  },
  async plainGet(f) { return summary(await f("https://example.com/")); },
  async urlObject(f) { return summary(await f(new URL("https://example.com/u#frag"))); },
  async requestObject(f) {
    return summary(await f(new Request("https://example.com/r", { method: "PUT", body: new Uint8Array([1, 2, 3, 0, 255]), headers: [["x-r", "a"], ["x-r", "b"]] })));
  },
  async requestWithInit(f) {
    const base = new Request("https://example.com/r", { method: "PUT", body: "old", headers: { "x-old": "1" } });
    return summary(await f(base, { method: "PATCH", body: new Uint8Array(256).map((_, i) => i).buffer, headers: { "x-new": "2" } }));
  },
  async redirectError(f) { return summary(await f(URL_A, { redirect: "error" })); },
  async redirectErrorFails(f) {
    try { await f(URL_A, { redirect: "error" }); return "resolved"; } catch (e) { return failure(e); }
  },
  async status(f, status) { return summary(await f(URL_A)); },
  async head(f) { return summary(await f(URL_A, { method: "HEAD" })); },
  async abortedBefore(f, _arg, host) {
    const c = new AbortController();
    c.abort();
    try { await f(URL_A, { signal: c.signal }); return "resolved"; } catch (e) { return failure(e, c.signal.reason); }
  },
  async abortedBeforeRequest(f) {
    const c = new AbortController();
    const mine = new Error("mine");
    c.abort(mine);
    try { await f(new Request(URL_A, { signal: c.signal })); return "resolved"; } catch (e) { return failure(e, mine); }
  },
  async abortWhileWaiting(f, withReason, host) {
    const c = new AbortController();
    const mine = new RangeError("stop waiting");
    const p = f(URL_A, { method: "POST", body: "x", signal: c.signal });
    await host.arrived();
    if (withReason) c.abort(mine); else c.abort();
    try { await p; return "resolved"; } catch (e) { return failure(e, withReason ? mine : c.signal.reason); }
  },
  async hostFails(f) {
    try { await f(URL_A); return "resolved"; } catch (e) { return failure(e); }
  },
  async badInput(f) {
    try { await f("/relative"); return "resolved"; } catch (e) { return failure(e); }
  },
};

export default class extends WorkerEntrypoint {
  async run(name, arg, host) {
    const f = createReplayFetch((request) => host.send(request));
    return scenarios[name](f, arg, host);
  }
}
`;

/** The host's `send`: records each request and answers with `answer`. */
class Host extends RpcTarget {
  readonly requests: SerializedRequest[] = [];
  #arrived: Array<() => void> = [];
  constructor(readonly answer: (request: SerializedRequest) => SerializedResponse | Promise<SerializedResponse>) {
    super();
  }
  send(request: SerializedRequest): SerializedResponse | Promise<SerializedResponse> {
    this.requests.push(request);
    for (const w of this.#arrived.splice(0)) w();
    return this.answer(request);
  }
  arrived(): Promise<void> {
    if (this.requests.length > 0) return Promise.resolve();
    return new Promise((r) => this.#arrived.push(r));
  }
}

interface Summary {
  isResponse: boolean;
  status: number;
  statusText: string;
  ok: boolean;
  url: string;
  redirected: boolean;
  headers: [string, string][];
  bodyNull: boolean;
  bytes: number[];
}
interface Failure {
  error: { name: string; message: string; code?: string; isDOMException: boolean; isMine: boolean };
}

function isolate(): { run(name: string, arg: unknown, host: Host): Promise<Summary | Failure | string> } {
  const worker = env.LOADER.load({
    compatibilityDate: "2026-05-23",
    compatibilityFlags: ["nodejs_compat"],
    mainModule: "main.js",
    modules: { "main.js": MAIN, "workspace-fetch.js": ISOLATE_SOURCES["__modules__/workspace-fetch.js"] },
    globalOutbound: null,
  });
  return worker.getEntrypoint() as unknown as { run(name: string, arg: unknown, host: Host): Promise<Summary | Failure | string> };
}

const OK: SerializedResponse = {
  url: "https://example.com/final",
  status: 200,
  statusText: "OK",
  headers: [["content-type", "text/plain"], ["set-cookie", "a=1"], ["set-cookie", "b=2"], ["x-answer", "yes"]],
  body: encoder.encode("hello body"),
  redirected: true,
};

describe("createReplayFetch in a Dynamic Worker: the serialised request", () => {
  it("a string URL with method, header object, string body and redirect manual", async () => {
    const host = new Host(() => OK);
    const r = (await isolate().run("stringPost", null, host)) as Summary;
    expect(host.requests).toHaveLength(1);
    const q = host.requests[0];
    expect(Object.keys(q).sort()).toEqual(["body", "headers", "method", "redirect", "url"]);
    expect(q.url).toBe("https://example.com/a?b=1");
    expect(q.method).toBe("POST");
    expect(q.headers).toEqual([["content-type", "application/json"], ["x-one", "1"]]);
    expect(q.body).toBeInstanceOf(Uint8Array);
    expect(q.body).toEqual(encoder.encode('{"a":1}'));
    expect(q.redirect).toBe("manual");
    expect(r.status).toBe(200);
  });

  it("a plain GET: no body (null), redirect follow, no headers", async () => {
    const host = new Host(() => OK);
    await isolate().run("plainGet", null, host);
    expect(host.requests).toEqual([{ url: "https://example.com/", method: "GET", headers: [], body: null, redirect: "follow" }]);
  });

  it("a URL object (the fragment dropped, as fetch does)", async () => {
    const host = new Host(() => OK);
    await isolate().run("urlObject", null, host);
    expect(host.requests[0].url).toBe("https://example.com/u");
  });

  it("a Request: its method, repeated headers and binary body bytes", async () => {
    const host = new Host(() => OK);
    await isolate().run("requestObject", null, host);
    expect(host.requests).toEqual([{ url: "https://example.com/r", method: "PUT", headers: [["x-r", "a, b"]], body: new Uint8Array([1, 2, 3, 0, 255]), redirect: "follow" }]);
  });

  it("a Request with init: init's method, headers and ArrayBuffer body win", async () => {
    const host = new Host(() => OK);
    await isolate().run("requestWithInit", null, host);
    const q = host.requests[0];
    expect({ method: q.method, headers: q.headers }).toEqual({ method: "PATCH", headers: [["x-new", "2"]] });
    expect(q.body).toEqual(new Uint8Array(256).map((_, i) => i));
  });

  it('redirect "error" is sent as "error" (workerd\'s Request knows only follow and manual)', async () => {
    const host = new Host(() => OK);
    await isolate().run("redirectError", null, host);
    expect(host.requests[0].redirect).toBe("error");
  });

  it("a bad input fails as the Request constructor does, and sends nothing", async () => {
    const host = new Host(() => OK);
    const r = (await isolate().run("badInput", null, host)) as Failure;
    expect(r.error.name).toBe("TypeError");
    expect(host.requests).toHaveLength(0);
  });
});

describe("createReplayFetch in a Dynamic Worker: the Response", () => {
  it("status, statusText, headers (set-cookie apart), body bytes, url and redirected", async () => {
    const r = await isolate().run("plainGet", null, new Host(() => OK));
    expect(r).toEqual({
      isResponse: true,
      status: 200,
      statusText: "OK",
      ok: true,
      url: "https://example.com/final",
      redirected: true,
      headers: [["content-type", "text/plain"], ["set-cookie", "a=1"], ["set-cookie", "b=2"], ["x-answer", "yes"]],
      bodyNull: false,
      bytes: [...encoder.encode("hello body")],
    });
  });

  it("a 404 with an empty body keeps a (empty) body and ok false", async () => {
    const r = (await isolate().run("status", 404, new Host(() => ({ ...OK, status: 404, statusText: "Not Found", body: new Uint8Array(0), redirected: false })))) as Summary;
    expect({ status: r.status, statusText: r.statusText, ok: r.ok, bodyNull: r.bodyNull, bytes: r.bytes, redirected: r.redirected }).toEqual({
      status: 404,
      statusText: "Not Found",
      ok: false,
      bodyNull: false,
      bytes: [],
      redirected: false,
    });
  });

  for (const status of [101, 103, 204, 205, 304]) {
    it(`status ${status} gets a null body`, async () => {
      const r = (await isolate().run("status", status, new Host(() => ({ ...OK, status, statusText: "", body: new Uint8Array(0), redirected: false })))) as Summary;
      expect({ isResponse: r.isResponse, status: r.status, ok: r.ok, bodyNull: r.bodyNull, bytes: r.bytes, url: r.url }).toEqual({
        isResponse: true,
        status,
        ok: status >= 200 && status <= 299,
        bodyNull: true,
        bytes: [],
        url: "https://example.com/final",
      });
    });
  }

  it("a manual redirect answer (302 with location) comes back as is", async () => {
    const r = (await isolate().run("stringPost", null, new Host(() => ({ url: "https://example.com/a?b=1", status: 302, statusText: "Found", headers: [["location", "/next"]], body: new Uint8Array(0), redirected: false })))) as Summary;
    expect({ status: r.status, headers: r.headers, redirected: r.redirected, url: r.url }).toEqual({ status: 302, headers: [["location", "/next"]], redirected: false, url: "https://example.com/a?b=1" });
  });

  it("HEAD gets a null body", async () => {
    const r = (await isolate().run("head", null, new Host(() => ({ ...OK, body: new Uint8Array(0) })))) as Summary;
    expect({ status: r.status, bodyNull: r.bodyNull }).toEqual({ status: 200, bodyNull: true });
  });

  it("the host's failure rejects the fetch as it came (class and message)", async () => {
    const host = new Host(() => {
      throw Object.assign(new Error("fetch response body from https://example.com/a?b=1 is over maxCapabilityBytes (1024 bytes)"), { code: "E2BIG" });
    });
    const r = (await isolate().run("hostFails", null, host)) as Failure;
    expect(r.error.name).toBe("Error");
    expect(r.error.message).toBe("fetch response body from https://example.com/a?b=1 is over maxCapabilityBytes (1024 bytes)");
  });
});

describe("createReplayFetch in a Dynamic Worker: abort", () => {
  it("a signal aborted before the call rejects with an AbortError and sends nothing", async () => {
    const host = new Host(() => OK);
    const r = (await isolate().run("abortedBefore", null, host)) as Failure;
    expect(r.error).toMatchObject({ name: "AbortError", isDOMException: true, isMine: true });
    expect(host.requests).toHaveLength(0);
  });

  it("a Request's aborted signal rejects with its reason", async () => {
    const host = new Host(() => OK);
    const r = (await isolate().run("abortedBeforeRequest", null, host)) as Failure;
    expect(r.error).toMatchObject({ name: "Error", message: "mine", isMine: true });
    expect(host.requests).toHaveLength(0);
  });

  for (const withReason of [true, false]) {
    it(`aborting while the host has not answered rejects with ${withReason ? "the reason" : "an AbortError"}`, async () => {
      let answer = (_: SerializedResponse): void => {};
      const host = new Host(() => new Promise<SerializedResponse>((r) => (answer = r)));
      const r = (await isolate().run("abortWhileWaiting", withReason, host)) as Failure;
      answer(OK);
      expect(host.requests).toHaveLength(1);
      expect(host.requests[0].body).toEqual(encoder.encode("x"));
      expect(r.error).toMatchObject(withReason ? { name: "RangeError", message: "stop waiting", isMine: true } : { name: "AbortError", isDOMException: true, isMine: true });
    });
  }
});

describe("createReplayFetch with FetchGate on the host (both in workerd)", () => {
  /** A gateway (egress "http-gateway") that records what reached it and answers `answer`. */
  function gateway(answer: () => Response) {
    const got: Array<{ url: string; method: string; headers: [string, string][]; body: string; redirect: string }> = [];
    const fetcher = {
      async fetch(request: Request): Promise<Response> {
        got.push({ url: request.url, method: request.method, headers: [...request.headers], body: await request.text(), redirect: request.redirect });
        return answer();
      },
    };
    return { got, gate: new FetchGate({ egress: { mode: "http-gateway", gateway: fetcher as unknown as Fetcher }, maxBytes: 1024 }) };
  }

  it("an isolate fetch reaches the gateway as sent and its response comes back", async () => {
    const { got, gate } = gateway(() => new Response("created", { status: 201, statusText: "Created", headers: { "x-gw": "1" } }));
    const r = (await isolate().run("stringPost", null, new Host((q) => gate.fetch(q, new AbortController().signal)))) as Summary;
    expect(got).toEqual([{ url: "https://example.com/a?b=1", method: "POST", headers: [["content-type", "application/json"], ["x-one", "1"]], body: '{"a":1}', redirect: "manual" }]);
    expect(r).toEqual({
      isResponse: true,
      status: 201,
      statusText: "Created",
      ok: true,
      url: "https://example.com/a?b=1",
      redirected: false,
      headers: [["content-type", "text/plain;charset=UTF-8"], ["x-gw", "1"]],
      bodyNull: false,
      bytes: [...encoder.encode("created")],
    });
  });

  it('redirect "error" and a redirect response: the isolate gets the host\'s TypeError', async () => {
    const { got, gate } = gateway(() => new Response(null, { status: 302, headers: { location: "/next" } }));
    const r = (await isolate().run("redirectErrorFails", null, new Host((q) => gate.fetch(q, new AbortController().signal)))) as Failure;
    expect(got[0].redirect).toBe("manual");
    expect(r.error).toMatchObject({ name: "TypeError", message: 'fetch failed: https://example.com/a?b=1 redirected to /next and its redirect mode is "error"' });
  });

  it("a response body over maxBytes fails the isolate's fetch with the E2BIG message", async () => {
    const { gate } = gateway(() => new Response(new Uint8Array(1025)));
    const r = (await isolate().run("hostFails", null, new Host((q) => gate.fetch(q, new AbortController().signal)))) as Failure;
    expect(r.error).toMatchObject({ name: "Error", message: "fetch response body from https://example.com/a?b=1 is over maxCapabilityBytes (1024 bytes)" });
  });
});
