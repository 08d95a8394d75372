// The local container host (issue 17, container/local-host.mjs): the container platform played by
// local processes — real daemons (container/daemon.mjs) each in a directory of its own, the test-
// support files API, and the WebSocket relay that lets a Durable Object reach a daemon's
// `POST /connect`. Everything here is a real process on loopback.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { newWebSocketRpcSession } from "capnweb";
import { WebSocket } from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RELAY_TIMEOUT_CODE, startLocalHost, type LocalHost } from "../../../container/local-host.mjs";

const HOST_CLI = path.resolve(import.meta.dirname, "../../../container/local-host.mjs");
const SECRET = "relay-secret-for-tests";

type RunEvent = { seq: number; name: "stdout" | "stderr"; data: Uint8Array } | { seq: number; name: "exit"; code: number; signal?: string; timedOut?: true };
interface Api {
  info(): Promise<{ version: string; mountPoint: string; ignore: string[]; pid: number; bootId: string }>;
  exec(a: { id: string; command: string; cwd?: string; env?: Record<string, string> }): Promise<{ id: string; pid: number }>;
  events(a: { id: string; after?: number; waitMs?: number }): Promise<{ events: RunEvent[]; done: boolean }>;
}
type Started = { name: string; port: number; pid: number; url: string; mountPoint: string; outcome: "launched" | "adopted" | "relaunched" };
type TreeEntry = { path: string; kind: string; size: number; mode: number; target?: string };

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "local-host-test-"));
const root = path.join(tmp, "containers");
let host: LocalHost;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  host = await startLocalHost({ root, relayWaitMs: 200 });
});

afterAll(async () => {
  for (const ws of sockets) ws.terminate();
  await host?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function post(p: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${host.url}${p}`, { method: "POST", headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}
async function status(name: string): Promise<any> {
  const res = await fetch(`${host.url}/containers/${name}`);
  expect(res.status).toBe(200);
  return res.json();
}
async function start(name: string, body: unknown = {}): Promise<Started> {
  const r = await post(`/containers/${name}/start`, body);
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return r.json as Started;
}
const files = (name: string, rel: string, more = "") => `${host.url}/containers/${name}/files?path=${encodeURIComponent(rel)}${more}`;
async function tree(name: string): Promise<TreeEntry[]> {
  const res = await fetch(`${host.url}/containers/${name}/tree`);
  expect(res.status).toBe(200);
  return (await res.json()) as TreeEntry[];
}

/** A pid is gone (or a zombie nobody reaped yet). */
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0);
      if (/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8"))) return true;
    } catch {
      return true;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** A capnweb session straight to a daemon's `/api` (with its secret). */
function direct(port: number, secret = SECRET): Api {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/api`, { headers: { authorization: `Bearer ${secret}` } });
  sockets.push(ws);
  return newWebSocketRpcSession(ws as unknown as globalThis.WebSocket) as unknown as Api;
}

async function run(api: Api, id: string, command: string) {
  await api.exec({ id, command });
  const events: RunEvent[] = [];
  let after = 0;
  for (;;) {
    const page = await api.events({ id, after, waitMs: 10_000 });
    events.push(...page.events);
    if (page.events.length > 0) after = page.events[page.events.length - 1].seq;
    if (page.done) break;
  }
  const stdout = Buffer.concat(events.flatMap((e) => (e.name === "stdout" ? [Buffer.from(e.data)] : []))).toString("utf8");
  return { events, stdout, exit: events[events.length - 1] };
}

/**
 * Open a relay socket; resolves once open with the upgrade response's headers and every message
 * received from the start (frames sent right after the upgrade arrive in the same tick as "open").
 */
function relaySocket(token: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(`${host.url.replace("http:", "ws:")}/relay/${token}`, { headers });
  sockets.push(ws);
  const messages: { data: string; isBinary: boolean }[] = [];
  const waiters: (() => void)[] = [];
  ws.on("message", (data, isBinary) => {
    messages.push({ data: isBinary ? [...(data as Buffer)].join(",") : data.toString(), isBinary });
    for (const w of waiters.splice(0)) w();
  });
  /** Resolves once `n` messages have arrived. */
  const received = async (n: number) => {
    while (messages.length < n) await new Promise<void>((r) => waiters.push(r));
    return messages.slice(0, n);
  };
  return new Promise<{ ws: WebSocket; headers: Record<string, string | string[] | undefined>; received: typeof received }>((resolve, reject) => {
    let upgradeHeaders: Record<string, string | string[] | undefined> = {};
    ws.once("upgrade", (res) => (upgradeHeaders = res.headers));
    ws.once("open", () => resolve({ ws, headers: upgradeHeaders, received }));
    ws.once("error", reject);
    ws.once("unexpected-response", (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
}
const closed = (ws: WebSocket) => new Promise<{ code: number; reason: string }>((resolve) => ws.once("close", (code, reason) => resolve({ code, reason: reason.toString() })));

describe("start, adopt, relaunch", () => {
  it("launches a daemon in <root>/<name>/workspace, adopts an identical spec, relaunches a different one", async () => {
    const first = await start("alpha", { env: { COMPUTERD_SECRET: SECRET, A: "1" }, launch: { image: "app", n: 1 } });
    const mountPoint = path.join(root, "alpha", "workspace");
    expect(first).toEqual({ name: "alpha", port: expect.any(Number), pid: expect.any(Number), url: `http://127.0.0.1:${first.port}`, mountPoint, outcome: "launched" });
    expect(fs.statSync(mountPoint).isDirectory()).toBe(true);
    const health = await fetch(`${first.url}/health`);
    expect([health.status, await health.text()]).toEqual([200, "ok"]);
    expect(await status("alpha")).toEqual({ state: "running", port: first.port, pid: first.pid, mountPoint });
    // The daemon got the env: its secret guards /api, its mount point is the container's directory.
    const info = await direct(first.port).info();
    expect(info).toMatchObject({ mountPoint, pid: first.pid });

    // The same spec (keys in another order) → adopted: same process.
    const again = await start("alpha", { launch: { n: 1, image: "app" }, env: { A: "1", COMPUTERD_SECRET: SECRET } });
    expect(again).toEqual({ ...first, outcome: "adopted" });

    // Another env → relaunched: the old daemon is gone, a new one runs.
    const other = await start("alpha", { env: { COMPUTERD_SECRET: SECRET, A: "2" }, launch: { image: "app", n: 1 } });
    expect(other).toMatchObject({ name: "alpha", mountPoint, outcome: "relaunched" });
    expect(other.pid).not.toBe(first.pid);
    expect(await gone(first.pid)).toBe(true);
    const r = await run(direct(other.port), "env", "printf %s \"$A\"");
    expect(r.stdout).toBe("2");

    // Another launch → relaunched too.
    const third = await start("alpha", { env: { COMPUTERD_SECRET: SECRET, A: "2" }, launch: { image: "app", n: 2 } });
    expect(third.outcome).toBe("relaunched");
    expect(third.pid).not.toBe(other.pid);
    expect(await gone(other.pid)).toBe(true);
    expect(await status("alpha")).toEqual({ state: "running", port: third.port, pid: third.pid, mountPoint });
  });

  it("400 for a bad name or body; unknown containers are state unknown and 404 to stop/restart/files", async () => {
    expect((await post(`/containers/${"x".repeat(129)}/start`, {})).status).toBe(400);
    expect((await post(`/containers/a%20b/start`, {})).status).toBe(400);
    expect((await post(`/containers/a%2Fb/start`, {})).status).toBe(400);
    const badEnv = await post(`/containers/good/start`, { env: { A: 1 } });
    expect(badEnv).toEqual({ status: 400, json: { error: "env must be a Record<string, string>" } });
    const notJson = await fetch(`${host.url}/containers/good/start`, { method: "POST", body: "[1]" });
    expect(notJson.status).toBe(400);
    expect(await status("never")).toEqual({ state: "unknown" });
    expect((await post(`/containers/never/stop`, {})).status).toBe(404);
    expect((await post(`/containers/never/restart`, {})).status).toBe(404);
    expect((await fetch(files("never", "a"))).status).toBe(404);
    expect((await fetch(`${host.url}/nowhere`)).status).toBe(404);
  });

  it("a daemon that cannot start: 500 with its stderr, and the container is stopped", async () => {
    const r = await post(`/containers/broken/start`, { env: { COMPUTERD_TIMEOUT_MS: "not-a-number" } });
    expect(r.status).toBe(500);
    expect(r.json.error).toMatch(/COMPUTERD_TIMEOUT_MS must be an integer/);
    expect(await status("broken")).toMatchObject({ state: "stopped", exitCode: 2, signal: null });
  });
});

describe("isolation", () => {
  it("two containers run in directories of their own", async () => {
    const a = await start("iso-a", { env: { COMPUTERD_SECRET: SECRET } });
    const b = await start("iso-b", { env: { COMPUTERD_SECRET: SECRET } });
    expect(a.mountPoint).toBe(path.join(root, "iso-a", "workspace"));
    expect(b.mountPoint).toBe(path.join(root, "iso-b", "workspace"));
    expect(a.port).not.toBe(b.port);
    const ra = await run(direct(a.port), "w", "pwd; printf a > who; mkdir -p sub && printf x > sub/only-a");
    const rb = await run(direct(b.port), "w", "pwd; printf b > who");
    expect(ra.stdout).toBe(`${fs.realpathSync(a.mountPoint)}\n`);
    expect(rb.stdout).toBe(`${fs.realpathSync(b.mountPoint)}\n`);
    expect(await (await fetch(files("iso-a", "who"))).text()).toBe("a");
    expect(await (await fetch(files("iso-b", "who"))).text()).toBe("b");
    expect((await tree("iso-a")).map((e) => e.path)).toEqual(["sub", "sub/only-a", "who"]);
    expect((await tree("iso-b")).map((e) => e.path)).toEqual(["who"]);
  });

  it("env MOUNT_POINT (relative to <root>/<name>) wins over the default", async () => {
    const c = await start("own-mount", { env: { MOUNT_POINT: "elsewhere/ws" } });
    expect(c.mountPoint).toBe(path.join(root, "own-mount", "elsewhere", "ws"));
    expect(fs.statSync(c.mountPoint).isDirectory()).toBe(true);
  });
});

describe("stop and restart", () => {
  it("SIGTERM (default) ends the daemon with exit 0; SIGKILL with signal SIGKILL; restart relaunches the last spec", async () => {
    const c = await start("stopper", { env: { COMPUTERD_SECRET: SECRET, MARK: "m1" } });
    const term = await post(`/containers/stopper/stop`);
    expect(term).toEqual({ status: 200, json: { exitCode: 0, signal: null } });
    expect(await gone(c.pid)).toBe(true);
    expect(await status("stopper")).toEqual({ state: "stopped", exitCode: 0, signal: null, mountPoint: c.mountPoint });
    // Stopping a stopped container answers how it ended.
    expect(await post(`/containers/stopper/stop`, { signal: "SIGKILL" })).toEqual({ status: 200, json: { exitCode: 0, signal: null } });

    // Restart of a stopped container: launched with the last spec.
    const restarted = await post(`/containers/stopper/restart`);
    expect(restarted.status).toBe(200);
    expect(restarted.json).toMatchObject({ name: "stopper", mountPoint: c.mountPoint, outcome: "launched" });
    expect((await run(direct(restarted.json.port), "mark", "printf %s \"$MARK\"")).stdout).toBe("m1");

    const kill = await post(`/containers/stopper/stop`, { signal: "SIGKILL" });
    expect(kill).toEqual({ status: 200, json: { exitCode: null, signal: "SIGKILL" } });
    expect(await gone(restarted.json.pid)).toBe(true);
    expect(await status("stopper")).toEqual({ state: "stopped", exitCode: null, signal: "SIGKILL", mountPoint: c.mountPoint });

    // Restart of a running container: relaunched, a new process.
    const up = await start("stopper", { env: { COMPUTERD_SECRET: SECRET, MARK: "m1" } });
    expect(up.outcome).toBe("launched");
    const re = await post(`/containers/stopper/restart`);
    expect(re.json).toMatchObject({ outcome: "relaunched" });
    expect(re.json.pid).not.toBe(up.pid);
    expect(await gone(up.pid)).toBe(true);
    expect(await post(`/containers/stopper/stop`, { signal: "SIGHUP" })).toEqual({ status: 400, json: { error: 'signal must be "SIGTERM" or "SIGKILL"' } });
  });
});

describe("files API", () => {
  it("PUT writes bytes and mode (creating parents), GET reads them back, DELETE removes recursively; the daemon sees them", async () => {
    const c = await start("filer", { env: { COMPUTERD_SECRET: SECRET } });
    const bytes = new Uint8Array(256).map((_, i) => i);
    const put = await fetch(files("filer", "deep/er/all-bytes.bin", "&mode=755"), { method: "PUT", body: bytes });
    expect([put.status, await put.json()]).toEqual([200, { written: 256 }]);
    expect(fs.statSync(path.join(c.mountPoint, "deep/er/all-bytes.bin")).mode & 0o7777).toBe(0o755);
    const get = await fetch(files("filer", "deep/er/all-bytes.bin"));
    expect(get.status).toBe(200);
    expect(new Uint8Array(await get.arrayBuffer())).toEqual(bytes);
    // Non-ASCII name, default mode; the daemon reads what the host wrote, and the host reads what the daemon wrote.
    expect((await fetch(files("filer", "naïve ✓.txt"), { method: "PUT", body: "from host" })).status).toBe(200);
    const r = await run(direct(c.port), "cat", "cat 'naïve ✓.txt' && ln -s deep/er link && printf daemon > made.txt");
    expect(r.stdout).toBe("from host");
    expect(await (await fetch(files("filer", "made.txt"))).text()).toBe("daemon");
    expect(await tree("filer")).toEqual([
      { path: "deep", kind: "directory", size: 0, mode: 0o755 },
      { path: "deep/er", kind: "directory", size: 0, mode: 0o755 },
      { path: "deep/er/all-bytes.bin", kind: "file", size: 256, mode: 0o755 },
      { path: "link", kind: "symlink", size: 7, mode: expect.any(Number), target: "deep/er" },
      { path: "made.txt", kind: "file", size: 6, mode: 0o644 },
      { path: "naïve ✓.txt", kind: "file", size: 9, mode: 0o644 },
    ]);
    // A PUT onto a symlink replaces the link, never writes through it.
    expect((await fetch(files("filer", "link"), { method: "PUT", body: "now a file" })).status).toBe(200);
    expect(fs.lstatSync(path.join(c.mountPoint, "link")).isFile()).toBe(true);
    expect(fs.readdirSync(path.join(c.mountPoint, "deep/er"))).toEqual(["all-bytes.bin"]);

    expect((await fetch(files("filer", "deep"), { method: "DELETE" })).status).toBe(200);
    expect((await tree("filer")).map((e) => e.path)).toEqual(["link", "made.txt", "naïve ✓.txt"]);
    expect((await fetch(files("filer", "deep/er/all-bytes.bin"))).status).toBe(404);
    expect((await fetch(files("filer", "deep"), { method: "DELETE" })).status).toBe(404);
    expect((await fetch(files("filer", "x", "&mode=999"), { method: "PUT", body: "" })).status).toBe(400);
  });

  it("400 for absolute paths, .. escapes, the root itself and symlinks leading out; nothing outside is read or written", async () => {
    const c = await start("jail", {});
    const outside = path.join(tmp, "outside");
    fs.mkdirSync(outside, { recursive: true });
    fs.writeFileSync(path.join(outside, "secret.txt"), "outside secret");
    fs.symlinkSync(outside, path.join(c.mountPoint, "out-dir"));
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(c.mountPoint, "out-file"));
    const escapes = ["../outside/secret.txt", "/etc/passwd", "a/../../x", "..", "", ".", "out-dir/secret.txt", "out-dir/new.txt"];
    for (const rel of escapes) {
      const get = await fetch(files("jail", rel));
      expect([rel, get.status]).toEqual([rel, 400]);
      const put = await fetch(files("jail", rel), { method: "PUT", body: "pwned" });
      expect([rel, put.status]).toEqual([rel, 400]);
      const del = await fetch(files("jail", rel), { method: "DELETE" });
      expect([rel, del.status]).toEqual([rel, 400]);
    }
    // A final symlink leading out is not followed by GET.
    expect((await fetch(files("jail", "out-file"))).status).toBe(400);
    expect((await fetch(`${host.url}/containers/jail/files`)).status).toBe(400);
    expect(fs.readdirSync(outside)).toEqual(["secret.txt"]);
    expect(fs.readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("outside secret");
    // DELETE of the link removes the link, not its target.
    expect((await fetch(files("jail", "out-dir"), { method: "DELETE" })).status).toBe(200);
    expect(fs.readdirSync(outside)).toEqual(["secret.txt"]);
    // An inner .. that stays inside is fine.
    expect((await fetch(files("jail", "a/../inside.txt"), { method: "PUT", body: "in" })).status).toBe(200);
    expect(await (await fetch(files("jail", "inside.txt"))).text()).toBe("in");
  });
});

describe("relay", () => {
  it("pairs the daemon's POST /connect socket with a second socket: a real capnweb session through the relay only", async () => {
    const c = await start("relayed", { env: { COMPUTERD_SECRET: SECRET } });
    const token = randomUUID();
    const relayUrl = `${host.url.replace("http:", "ws:")}/relay/${token}`;
    // The daemon dials the relay (first socket); its /connect answers once the relay accepted it.
    const connect = await fetch(`${c.url}/connect`, { method: "POST", headers: { authorization: `Bearer ${SECRET}` }, body: JSON.stringify({ url: relayUrl }) });
    expect([connect.status, await connect.json()]).toEqual([200, { connected: true }]);
    // The Durable Object's side (here the test): the second socket, told the daemon's Authorization.
    const { ws, headers } = await relaySocket(token);
    expect(headers["x-relay-authorization"]).toBe(`Bearer ${SECRET}`);
    const api = newWebSocketRpcSession(ws as unknown as globalThis.WebSocket) as unknown as Api;
    const info = await api.info();
    expect(info).toMatchObject({ mountPoint: c.mountPoint, pid: c.pid });
    const r = await run(api, "hi", "echo hi");
    expect(r.stdout).toBe("hi\n");
    expect(r.exit).toEqual({ seq: 2, name: "exit", code: 0 });
    expect(r.events.map((e) => e.name)).toEqual(["stdout", "exit"]);
    // The daemon's /api stays closed to anyone without the secret: this session came through the relay.
    expect((await fetch(`${c.url}/api`)).status).toBe(401);
  });

  it("pipes text and binary both ways, delivers what the first sent before the pair, and mirrors close code and reason", async () => {
    const token = `t-${randomUUID()}`;
    const a = await relaySocket(token, { authorization: "Bearer abc" });
    expect(a.headers["x-relay-authorization"]).toBeUndefined();
    a.ws.send("early");
    a.ws.send(Buffer.from([0, 1, 2, 255]));
    const b = await relaySocket(token);
    expect(b.headers["x-relay-authorization"]).toBe("Bearer abc");
    expect(await b.received(2)).toEqual([
      { data: "early", isBinary: false },
      { data: "0,1,2,255", isBinary: true },
    ]);
    b.ws.send("from b");
    expect(await a.received(1)).toEqual([{ data: "from b", isBinary: false }]);
    a.ws.send(new Uint8Array([9, 8, 7]));
    expect(await b.received(3)).toEqual([
      { data: "early", isBinary: false },
      { data: "0,1,2,255", isBinary: true },
      { data: "9,8,7", isBinary: true },
    ]);

    const bClosed = closed(b.ws);
    a.ws.close(4001, "bye now");
    expect(await bClosed).toEqual({ code: 4001, reason: "bye now" });
  });

  it("an unpaired socket is closed with 4408 after the wait; a late peer waits on its own", async () => {
    const token = `lonely-${randomUUID()}`;
    const a = await relaySocket(token);
    expect(await closed(a.ws)).toEqual({ code: RELAY_TIMEOUT_CODE, reason: "relay: no peer within 200 ms" });
    const late = await relaySocket(token);
    expect(await closed(late.ws)).toEqual({ code: RELAY_TIMEOUT_CODE, reason: "relay: no peer within 200 ms" });
  });

  it("a bad token is 400 and another path 404 at the upgrade", async () => {
    await expect(relaySocket("bad token!")).rejects.toThrow("HTTP 400");
    const other = new WebSocket(`${host.url.replace("http:", "ws:")}/elsewhere`);
    const status = await new Promise<number>((resolve) => other.once("unexpected-response", (_q, res) => resolve(res.statusCode ?? 0)));
    expect(status).toBe(404);
  });
});

describe("web pages are refused", () => {
  /** A raw HTTP request (fetch cannot set Host), answered with status and body text. */
  const raw = (method: string, p: string, headers: Record<string, string>, body = "") =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request({ host: "127.0.0.1", port: host.port, method, path: p, headers }, (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.once("error", reject);
      req.end(body);
    });
  const startBody = JSON.stringify({ env: { COMPUTERD_SECRET: SECRET } });

  it("403 and nothing started for a foreign Origin, a cross-site Sec-Fetch-Site or a Host that is not the host's own", async () => {
    const name = `web-${randomUUID().slice(0, 8)}`;
    const cases: [Record<string, string>, string][] = [
      [{ origin: "https://evil.example", "content-type": "text/plain;charset=UTF-8", "sec-fetch-site": "cross-site" }, 'refused: a request from the web page "https://evil.example" (Origin header); the local host serves local programs only'],
      [{ origin: "null" }, 'refused: a request from the web page "null" (Origin header); the local host serves local programs only'],
      [{ "sec-fetch-site": "same-site" }, 'refused: a "same-site" request from a web page (Sec-Fetch-Site); the local host serves local programs only'],
      [{ host: `evil.example:${host.port}` }, `refused: Host "evil.example:${host.port}" is not this local host (127.0.0.1:${host.port}, localhost:${host.port} or [::1]:${host.port}); requests from web pages are not served`],
    ];
    for (const [headers, error] of cases) {
      const r = await raw("POST", `/containers/${name}/start`, headers, startBody);
      expect([r.status, JSON.parse(r.text)]).toEqual([403, { error }]);
    }
    expect(await status(name)).toEqual({ state: "unknown" });
    expect(fs.existsSync(path.join(root, name))).toBe(false);
    // The host's own origin, localhost and a same-origin fetch metadata are served.
    for (const headers of <Record<string, string>[]>[{ origin: `http://127.0.0.1:${host.port}` }, { host: `localhost:${host.port}`, origin: `http://localhost:${host.port}`, "sec-fetch-site": "same-origin" }, { "sec-fetch-site": "none" }]) {
      expect(await raw("GET", `/containers/${name}`, headers)).toEqual({ status: 200, text: '{"state":"unknown"}' });
    }
  });

  it("a WebSocket upgrade to the relay from a web page is 403", async () => {
    await expect(relaySocket(`web-${randomUUID()}`, { origin: "https://evil.example" })).rejects.toThrow("HTTP 403");
  });

  it("a started daemon gets its secret by a file it deleted, not by its environment; it runs with --disable-sigusr1", async () => {
    const name = `secret-${randomUUID().slice(0, 8)}`;
    const s = await start(name, { env: { COMPUTERD_SECRET: SECRET } });
    try {
      const environ = fs.readFileSync(`/proc/${s.pid}/environ`, "utf8").split("\0");
      expect(environ.filter((kv) => kv.includes(SECRET))).toEqual([]);
      const file = environ.find((kv) => kv.startsWith("COMPUTERD_AUTH_FILE="))!.slice("COMPUTERD_AUTH_FILE=".length);
      expect(fs.existsSync(file)).toBe(false);
      const args = fs.readFileSync(`/proc/${s.pid}/cmdline`, "utf8").split("\0");
      if (process.allowedNodeEnvironmentFlags.has("--disable-sigusr1")) expect(args).toContain("--disable-sigusr1");
      const r = await run(direct(s.port), "env", 'printf "%s|%s" "${COMPUTERD_SECRET-unset}" "${COMPUTERD_AUTH_FILE-unset}"');
      expect(r.stdout).toBe("unset|unset");
    } finally {
      await post(`/containers/${name}/stop`, { signal: "SIGKILL" });
    }
  });
});

describe("lifetime", () => {
  it("close() ends every daemon and the server", async () => {
    const own = await startLocalHost({ root: path.join(tmp, "own") });
    const res = await fetch(`${own.url}/containers/one/start`, { method: "POST", body: "{}" });
    const one = (await res.json()) as Started;
    expect(one.outcome).toBe("launched");
    const res2 = await fetch(`${own.url}/containers/two/start`, { method: "POST", body: "{}" });
    const two = (await res2.json()) as Started;
    expect(alive(one.pid) && alive(two.pid)).toBe(true);
    await own.close();
    expect(alive(one.pid)).toBe(false);
    expect(alive(two.pid)).toBe(false);
    await expect(fetch(`${own.url}/health`)).rejects.toThrow();
  });

  it("refuses a non-loopback host", async () => {
    await expect(startLocalHost({ host: "0.0.0.0" })).rejects.toThrow('local-host: host must be a loopback address, got "0.0.0.0"');
  });

  it("as a CLI: prints its URL; SIGTERM stops its daemons and exits 0", async () => {
    const cliRoot = path.join(tmp, "cli");
    const proc = spawn(process.execPath, [HOST_CLI, "--port", "0", "--root", cliRoot], { stdio: ["ignore", "pipe", "pipe"] });
    const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
    const url = await new Promise<string>((resolve) => {
      let out = "";
      proc.stdout.on("data", (d) => {
        out += d;
        if (out.includes("\n")) resolve(out.slice(0, out.indexOf("\n")));
      });
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${url}/containers/cli-one/start`, { method: "POST", body: "{}" });
    const c = (await res.json()) as Started;
    expect(c.mountPoint).toBe(path.join(cliRoot, "cli-one", "workspace"));
    expect(alive(c.pid)).toBe(true);
    proc.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(await gone(c.pid)).toBe(true);
  });
});
