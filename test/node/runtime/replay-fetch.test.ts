// FetchGate (spec 02 §5, "Replayed fetch"): the host side of the isolate's fetch in
// replay runs, against a real loopback HTTP server.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FetchGate, type SerializedRequest } from "../../../src/backends/worker-javascript/fetch.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** What the server saw of one request. */
interface Seen {
  path: string;
  method: string;
  headers: Record<string, string | string[] | undefined>;
  body: Uint8Array;
}

let server: Server;
let base: string;
const seen: Seen[] = [];
/** /hold requests: open now, most at once, arrival order of their `id`, and how to answer each. */
const hold = { open: 0, max: 0, arrived: [] as string[], release: new Map<string, () => void>(), waiters: [] as Array<{ n: number; resolve: () => void }> };
/** Resolves when `path` has been requested and its connection closed by the client (aborted). */
const closed = new Map<string, { promise: Promise<void>; resolve: () => void }>();

function closedOf(path: string): Promise<void> {
  if (!closed.has(path)) {
    let resolve = (): void => {};
    const promise = new Promise<void>((r) => (resolve = r));
    closed.set(path, { promise, resolve });
  }
  return closed.get(path)!.promise;
}

/** Resolves once `n` /hold requests have arrived in all. */
function arrivals(n: number): Promise<void> {
  if (hold.arrived.length >= n) return Promise.resolve();
  return new Promise((resolve) => hold.waiters.push({ n, resolve }));
}

/** Resolves when `res` can take more, or has closed. */
function drainOrClose(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const url = new URL(req.url!, base);
  seen.push({ path: url.pathname + url.search, method: req.method!, headers: req.headers, body: new Uint8Array(Buffer.concat(chunks)) });
  res.sendDate = false;
  res.on("close", () => {
    if (!res.writableFinished) {
      closedOf(url.pathname);
      closed.get(url.pathname)!.resolve();
    }
  });
  switch (url.pathname) {
    case "/echo": {
      const body = Buffer.concat(chunks);
      res.writeHead(201, "Made It", [
        ["content-type", "application/octet-stream"],
        ["x-method", req.method!],
        ["x-got", String(req.headers["x-test"])],
        ["set-cookie", "a=1"],
        ["set-cookie", "b=2"],
        ["content-length", String(body.byteLength)],
      ]);
      res.end(body);
      return;
    }
    case "/redirect":
      res.writeHead(302, { location: "/target", "content-length": "0" });
      res.end();
      return;
    case "/target":
      res.writeHead(200, { "content-type": "text/plain", "content-length": "6" });
      res.end("target");
      return;
    case "/bytes": {
      const n = Number(url.searchParams.get("n"));
      res.writeHead(200, { "content-type": "application/octet-stream" });
      // In 64 KiB writes, so a large body streams rather than arriving as one chunk.
      for (let at = 0; at < n; at += 65536) {
        if (!res.write(Buffer.alloc(Math.min(65536, n - at), 97))) await drainOrClose(res);
        if (res.destroyed) return;
      }
      res.end();
      return;
    }
    case "/hold": {
      const id = url.searchParams.get("id")!;
      hold.open++;
      hold.max = Math.max(hold.max, hold.open);
      hold.arrived.push(id);
      for (const w of hold.waiters.filter((w) => hold.arrived.length >= w.n)) w.resolve();
      await new Promise<void>((r) => hold.release.set(id, r));
      hold.open--;
      res.writeHead(200, { "content-length": String(id.length) });
      res.end(id);
      return;
    }
    case "/stall":
      return; // never answers
    case "/drip":
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("first part;");
      return; // never ends the body
    default:
      res.writeHead(404);
      res.end();
  }
}

beforeAll(async () => {
  server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

beforeEach(() => {
  seen.length = 0;
  closed.clear();
  Object.assign(hold, { open: 0, max: 0, arrived: [], release: new Map(), waiters: [] });
});

function req(path: string, more: Partial<SerializedRequest> = {}): SerializedRequest {
  return { url: base + path, method: "GET", headers: [], body: null, redirect: "follow", ...more };
}

const never = new AbortController().signal;
const direct = (maxBytes = 1024 * 1024, maxOpen?: number) => new FetchGate({ egress: { mode: "direct" }, maxBytes, ...(maxOpen === undefined ? {} : { maxOpen }) });

/** The headers but the connection ones Node adds. */
const own = (headers: [string, string][]) => headers.filter(([k]) => k !== "connection" && k !== "keep-alive");

describe("FetchGate: round trip", () => {
  it("sends method, headers and body bytes, and answers status, statusText, headers and body bytes", async () => {
    const gate = direct();
    const body = new Uint8Array([0, 1, 2, 255, 254, 10, 13]);
    const r = await gate.fetch(req("/echo", { method: "PUT", headers: [["x-test", "one"], ["x-multi", "a"], ["x-multi", "b"], ["content-type", "application/x-thing"]], body }), never);
    expect(seen).toHaveLength(1);
    expect(seen[0].method).toBe("PUT");
    expect(seen[0].headers["x-test"]).toBe("one");
    expect(seen[0].headers["x-multi"]).toBe("a, b");
    expect(seen[0].headers["content-type"]).toBe("application/x-thing");
    expect(seen[0].body).toEqual(body);
    expect(r.status).toBe(201);
    expect(r.statusText).toBe("Made It");
    expect(r.url).toBe(base + "/echo");
    expect(r.redirected).toBe(false);
    expect(r.body).toBeInstanceOf(Uint8Array);
    expect([...r.body]).toEqual([0, 1, 2, 255, 254, 10, 13]);
    expect(own(r.headers)).toEqual([
      ["content-length", "7"],
      ["content-type", "application/octet-stream"],
      ["set-cookie", "a=1"],
      ["set-cookie", "b=2"],
      ["x-got", "one"],
      ["x-method", "PUT"],
    ]);
    expect(gate.open).toBe(0);
  });

  it("answers an empty body as zero bytes (HEAD, 302 manual)", async () => {
    const r = await direct().fetch(req("/target", { method: "HEAD" }), never);
    expect(r.status).toBe(200);
    expect(r.body).toEqual(new Uint8Array(0));
    expect(seen[0].method).toBe("HEAD");
  });
});

describe("FetchGate: redirects", () => {
  it('"follow" follows and reports the final url and redirected', async () => {
    const r = await direct().fetch(req("/redirect"), never);
    expect({ status: r.status, url: r.url, redirected: r.redirected, body: decoder.decode(r.body) }).toEqual({ status: 200, url: base + "/target", redirected: true, body: "target" });
    expect(seen.map((s) => s.path)).toEqual(["/redirect", "/target"]);
  });

  it('"manual" answers the redirect itself', async () => {
    const r = await direct().fetch(req("/redirect", { redirect: "manual" }), never);
    expect({ status: r.status, url: r.url, redirected: r.redirected, location: r.headers.find(([k]) => k === "location")?.[1], body: r.body.byteLength }).toEqual({
      status: 302,
      url: base + "/redirect",
      redirected: false,
      location: "/target",
      body: 0,
    });
    expect(seen.map((s) => s.path)).toEqual(["/redirect"]);
  });

  it('"error" fails on a redirect with a TypeError naming the URL, and passes other responses', async () => {
    const gate = direct();
    const err = await gate.fetch(req("/redirect", { redirect: "error" }), never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect((err as Error).message).toBe(`fetch failed: ${base}/redirect redirected to /target and its redirect mode is "error"`);
    expect(seen.map((s) => s.path)).toEqual(["/redirect"]);
    const ok = await gate.fetch(req("/target", { redirect: "error" }), never);
    expect(decoder.decode(ok.body)).toBe("target");
    expect(gate.open).toBe(0);
  });
});

describe("FetchGate: body limits (maxBytes, the backend's maxCapabilityBytes)", () => {
  it("takes a request body of exactly maxBytes and refuses one byte more without sending it", async () => {
    const gate = direct(1024);
    const r = await gate.fetch(req("/echo", { method: "POST", body: new Uint8Array(1024).fill(7) }), never);
    expect(r.body).toEqual(new Uint8Array(1024).fill(7));
    const err = await gate.fetch(req("/echo", { method: "POST", body: new Uint8Array(1025) }), never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as { code?: string }).code).toBe("E2BIG");
    expect((err as Error).message).toBe(`fetch request body for ${base}/echo is 1025 bytes, over maxCapabilityBytes (1024 bytes)`);
    expect(seen).toHaveLength(1);
  });

  it("takes a response body of exactly maxBytes and stops reading one over it", async () => {
    const gate = direct(1024);
    const r = await gate.fetch(req("/bytes?n=1024"), never);
    expect(r.body).toEqual(new Uint8Array(1024).fill(97));
    const err = await gate.fetch(req("/bytes?n=1025"), never).catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe("E2BIG");
    expect((err as Error).message).toBe(`fetch response body from ${base}/bytes?n=1025 is over maxCapabilityBytes (1024 bytes)`);
    expect(gate.open).toBe(0);
  });

  it("aborts a large response once past the limit (the server sees its connection closed)", async () => {
    const gate = direct(100_000);
    const gone = closedOf("/bytes");
    const err = await gate.fetch(req("/bytes?n=67108864"), never).catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe("E2BIG");
    expect((err as Error).message).toBe(`fetch response body from ${base}/bytes?n=67108864 is over maxCapabilityBytes (100000 bytes)`);
    await gone;
  });
});

describe("FetchGate: at most maxOpen requests open at once", () => {
  it("keeps 6 open by default; the 7th and 8th wait and go in order as places free", async () => {
    const gate = direct();
    const results = Array.from({ length: 8 }, (_, i) => gate.fetch(req(`/hold?id=${i}`), never));
    await arrivals(6);
    expect(hold.open).toBe(6);
    expect(gate.open).toBe(6);
    expect(gate.queued).toBe(2);
    expect([...hold.arrived].sort()).toEqual(["0", "1", "2", "3", "4", "5"]);
    hold.release.get("3")!();
    expect(decoder.decode((await results[3]).body)).toBe("3");
    await arrivals(7);
    expect(hold.arrived[6]).toBe("6");
    expect(gate.queued).toBe(1);
    expect(hold.open).toBe(6);
    hold.release.get("0")!();
    await arrivals(8);
    expect(hold.arrived[7]).toBe("7");
    expect(gate.queued).toBe(0);
    for (const id of ["1", "2", "4", "5", "6", "7"]) hold.release.get(id)!();
    expect((await Promise.all(results)).map((r) => decoder.decode(r.body))).toEqual(["0", "1", "2", "3", "4", "5", "6", "7"]);
    expect(hold.max).toBe(6);
    expect(gate.open).toBe(0);
  });

  it("honours maxOpen, and frees a place when a request fails", async () => {
    const gate = direct(1024, 1);
    const first = gate.fetch(req("/hold?id=a"), never);
    const failing = gate.fetch(req("/bytes?n=2000"), never);
    const third = gate.fetch(req("/hold?id=c"), never);
    await arrivals(1);
    expect(gate.queued).toBe(2);
    hold.release.get("a")!();
    await first;
    expect((await failing.catch((e: unknown) => e) as { code?: string }).code).toBe("E2BIG");
    await arrivals(2);
    hold.release.get("c")!();
    expect(decoder.decode((await third).body)).toBe("c");
    expect(hold.max).toBe(1);
  });
});

describe("FetchGate: abort", () => {
  it("rejects at once with the reason when the signal is already aborted", async () => {
    const c = new AbortController();
    const reason = new Error("stop now");
    c.abort(reason);
    await expect(direct().fetch(req("/echo"), c.signal)).rejects.toBe(reason);
    expect(seen).toHaveLength(0);
  });

  it("takes a queued request out of the queue; it is never sent", async () => {
    const gate = direct(1024, 1);
    const first = gate.fetch(req("/hold?id=a"), never);
    await arrivals(1);
    const c = new AbortController();
    const queued = gate.fetch(req("/hold?id=b"), c.signal);
    const after = gate.fetch(req("/hold?id=c"), never);
    expect(gate.queued).toBe(2);
    const reason = { why: "user cancelled" };
    c.abort(reason);
    await expect(queued).rejects.toBe(reason);
    expect(gate.queued).toBe(1);
    hold.release.get("a")!();
    await first;
    await arrivals(2);
    hold.release.get("c")!();
    expect(decoder.decode((await after).body)).toBe("c");
    expect(hold.arrived).toEqual(["a", "c"]);
    expect(gate.open).toBe(0);
  });

  it("aborts a request waiting for its response (the server sees the connection close)", async () => {
    const gate = direct();
    const c = new AbortController();
    const gone = closedOf("/stall");
    const p = gate.fetch(req("/stall"), c.signal);
    while (seen.length === 0) await new Promise((r) => setTimeout(r, 5));
    c.abort(); // no reason given: the signal's own AbortError
    const err = await p.catch((e: unknown) => e);
    expect(err).toBe(c.signal.reason);
    expect((err as Error).name).toBe("AbortError");
    await gone;
    expect(gate.open).toBe(0);
  });

  it("aborts a request while its body is being read", async () => {
    const gate = direct();
    const c = new AbortController();
    const gone = closedOf("/drip");
    const p = gate.fetch(req("/drip"), c.signal);
    while (seen.length === 0) await new Promise((r) => setTimeout(r, 5));
    const reason = new Error("enough");
    c.abort(reason);
    await expect(p).rejects.toBe(reason);
    await gone;
    expect(gate.open).toBe(0);
  });
});

describe("FetchGate: egress", () => {
  it('"none" fails every request with ENETUNREACH and contacts nothing', async () => {
    const gate = new FetchGate({ egress: { mode: "none" }, maxBytes: 1024 });
    const err = await gate.fetch(req("/echo"), never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect((err as Error).message).toBe('fetch is not available: this backend has no network access (egress "none")');
    expect((err as { code?: string }).code).toBe("ENETUNREACH");
    expect(seen).toHaveLength(0);
  });

  it('"http-gateway" hands every request to gateway.fetch (and never to the network)', async () => {
    const got: Array<{ url: string; method: string; header: string | null; body: string; redirect: string }> = [];
    const gateway = {
      async fetch(request: Request): Promise<Response> {
        got.push({ url: request.url, method: request.method, header: request.headers.get("x-test"), body: await request.text(), redirect: request.redirect });
        return new Response("from the gateway", { status: 202, statusText: "Accepted", headers: { "x-gw": "1" } });
      },
    };
    const gate = new FetchGate({ egress: { mode: "http-gateway", gateway: gateway as unknown as Fetcher, revision: "r1" }, maxBytes: 1024 });
    const r = await gate.fetch(req("/echo", { method: "POST", headers: [["x-test", "t"]], body: encoder.encode("hello") }), never);
    expect(got).toEqual([{ url: base + "/echo", method: "POST", header: "t", body: "hello", redirect: "follow" }]);
    expect(r).toEqual({
      url: base + "/echo", // a constructed Response has no url: the request's
      status: 202,
      statusText: "Accepted",
      headers: [["content-type", "text/plain;charset=UTF-8"], ["x-gw", "1"]],
      body: encoder.encode("from the gateway"),
      redirected: false,
    });
    expect(seen).toHaveLength(0);
  });

  it("a gateway's response body is held to maxBytes too", async () => {
    const gateway = { fetch: async () => new Response(new Uint8Array(2048)) };
    const gate = new FetchGate({ egress: { mode: "http-gateway", gateway: gateway as unknown as Fetcher }, maxBytes: 2047 });
    const err = await gate.fetch(req("/x"), never).catch((e: unknown) => e);
    expect((err as Error).message).toBe(`fetch response body from ${base}/x is over maxCapabilityBytes (2047 bytes)`);
  });
});

describe("FetchGate: bad input", () => {
  const cases: Array<[string, unknown, string]> = [
    ["null", null, "fetch request must be an object { url, method, headers, body, redirect }, got null"],
    ["a string", "http://x/", "fetch request must be an object { url, method, headers, body, redirect }, got string"],
    ["no url", { method: "GET", headers: [], body: null, redirect: "follow" }, "fetch request url must be a string, got undefined"],
    ["a relative url", { url: "/a", method: "GET", headers: [], body: null, redirect: "follow" }, 'fetch request url must be an absolute URL, got "/a"'],
    ["a file: url", { url: "file:///etc/passwd", method: "GET", headers: [], body: null, redirect: "follow" }, 'fetch request url must be http: or https:, got "file:///etc/passwd"'],
    ["a bad method", { url: "http://x/", method: "GE T", headers: [], body: null, redirect: "follow" }, 'fetch request method must be an HTTP token, got "GE T"'],
    ["CONNECT", { url: "http://x/", method: "connect", headers: [], body: null, redirect: "follow" }, "fetch request method connect is not allowed"],
    ["headers as an object", { url: "http://x/", method: "GET", headers: { a: "b" }, body: null, redirect: "follow" }, "fetch request headers must be an array of [name, value] pairs, got object"],
    ["a header triple", { url: "http://x/", method: "GET", headers: [["a", "b", "c"]], body: null, redirect: "follow" }, "fetch request headers[0] must be a [name, value] pair of strings"],
    ["a bad header name", { url: "http://x/", method: "GET", headers: [["a b", "c"]], body: null, redirect: "follow" }, 'fetch request header name "a b" is not an HTTP token'],
    ["a header value with CRLF", { url: "http://x/", method: "GET", headers: [["a", "b\r\nx: y"]], body: null, redirect: "follow" }, "fetch request header a has a value with NUL, CR or LF"],
    ["a string body", { url: "http://x/", method: "POST", headers: [], body: "hi", redirect: "follow" }, "fetch request body must be a Uint8Array or null, got string"],
    ["an ArrayBuffer body", { url: "http://x/", method: "POST", headers: [], body: new ArrayBuffer(2), redirect: "follow" }, "fetch request body must be a Uint8Array or null, got object"],
    ["a GET with a body", { url: "http://x/", method: "GET", headers: [], body: new Uint8Array(1), redirect: "follow" }, "fetch request with method GET cannot have a body"],
    ["no redirect", { url: "http://x/", method: "GET", headers: [], body: null }, 'fetch request redirect must be "follow", "manual" or "error", got undefined'],
  ];
  for (const [name, request, message] of cases) {
    it(`refuses ${name} with a TypeError (EINVAL)`, async () => {
      const err = await direct().fetch(request as SerializedRequest, never).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TypeError);
      expect((err as Error).message).toBe(message);
      expect((err as { code?: string }).code).toBe("EINVAL");
    });
  }

  it("checks its options", () => {
    expect(() => new FetchGate({ egress: { mode: "direct" }, maxBytes: 0 })).toThrow("FetchGate: maxBytes must be a positive safe integer, got 0");
    expect(() => new FetchGate({ egress: { mode: "direct" }, maxBytes: 1, maxOpen: 1.5 })).toThrow("FetchGate: maxOpen must be a positive safe integer, got 1.5");
    expect(() => new FetchGate({ egress: { mode: "nope" } as never, maxBytes: 1 })).toThrow('FetchGate: egress must be { mode: "none" }, { mode: "direct" } or { mode: "http-gateway", gateway }');
    expect(() => new FetchGate({ egress: { mode: "http-gateway", gateway: {} as Fetcher }, maxBytes: 1 })).toThrow("FetchGate: egress.gateway must have a fetch() method");
  });
});
