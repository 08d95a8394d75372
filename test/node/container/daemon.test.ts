// The container daemon (computerd, issue 17, spec 02 §7 and §1.3–1.7) as a real process on
// loopback: a capnweb client over `ws` to its `/api`, and the `POST /connect` path where the daemon
// dials out to a WebSocket server standing in for the Durable Object.
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { newWebSocketRpcSession, RpcSession } from "capnweb";
import { WebSocket, WebSocketServer } from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const DAEMON = path.resolve(import.meta.dirname, "../../../container/daemon.mjs");
const SECRET = "s3cret-for-tests";

type RunEvent = { seq: number; name: "stdout" | "stderr"; data: Uint8Array } | { seq: number; name: "exit"; code: number; signal?: string; timedOut?: true };
type ScanEntry = { path: string; kind: "file" | "directory" | "symlink"; mode: number; size: number; mtimeMs: number; target?: string };
type ScanPage = { entries: ScanEntry[]; skipped: { path: string; reason: string }[]; cursor: string | null; done: boolean };
type EntryStat = { kind: string; mode: number; size: number; mtimeMs: number; ctimeMs: number; target?: string };
type ApplyResult = { ok: true; stat?: EntryStat } | { ok: false; error: { code: string; message: string; syscall?: string; path?: string } };
interface Api {
  info(): Promise<{ version: string; mountPoint: string; ignore: string[]; pid: number; bootId: string; diskId?: string }>;
  exec(a: { id: string; command: string; cwd?: string; env?: Record<string, string>; stdin?: Uint8Array | string; timeoutMs?: number }): Promise<{ id: string; pid: number }>;
  events(a: { id: string; after?: number; waitMs?: number }): Promise<{ events: RunEvent[]; done: boolean }>;
  kill(a: { id: string; signal?: string | number }): Promise<{ killed: boolean }>;
  scan(a?: { since?: number; cursor?: string | null; limit?: number }): Promise<ScanPage>;
  read(a: { path: string; offset?: number; length?: number }): Promise<{ data: Uint8Array; size: number; mtimeMs: number; eof: boolean }>;
  apply(a: { ops: unknown[] }): Promise<{ results: ApplyResult[] }>;
}

interface Daemon {
  proc: ChildProcess;
  port: number;
  mount: string;
  stop(): Promise<number | null>;
  /** What it wrote to stderr so far. */
  stderr(): string;
}

const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), "computerd-test-"));
const text = (b: Uint8Array) => Buffer.from(b).toString("utf8");
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

async function startDaemon(name: string, env: Record<string, string> = {}): Promise<Daemon> {
  const mount = path.join(tmpRoot, name);
  const proc = spawn(process.execPath, [DAEMON], {
    env: { ...process.env, HOST: "127.0.0.1", PORT: "0", MOUNT_POINT: mount, COMPUTERD_SECRET: SECRET, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  proc.stderr!.on("data", (d) => (stderr += d));
  const line = await new Promise<string>((resolve, reject) => {
    let out = "";
    proc.stdout!.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve(out.slice(0, out.indexOf("\n")));
    });
    proc.once("exit", (code) => reject(new Error(`daemon exited (${code}): ${stderr}`)));
  });
  const ready = JSON.parse(line) as { computerd: string; port: number; pid: number; mountPoint: string };
  expect(ready).toMatchObject({ computerd: "listening", host: "127.0.0.1", pid: proc.pid, mountPoint: mount });
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
  return {
    proc,
    port: ready.port,
    mount,
    stderr: () => stderr,
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGTERM");
      return exited;
    },
  };
}

const sockets: WebSocket[] = [];
function connect(port: number, secret = SECRET): Api {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/api`, { headers: { authorization: `Bearer ${secret}` } });
  sockets.push(ws);
  return newWebSocketRpcSession(ws as unknown as globalThis.WebSocket) as unknown as Api;
}

/** Read a run's events to its exit, long-polling. */
async function drain(api: Api, id: string, after = 0) {
  const events: RunEvent[] = [];
  for (;;) {
    const page = await api.events({ id, after, waitMs: 10_000 });
    events.push(...page.events);
    if (page.events.length > 0) after = page.events[page.events.length - 1].seq;
    if (page.done) break;
  }
  const join = (name: "stdout" | "stderr") => Buffer.concat(events.flatMap((e) => (e.name === name ? [Buffer.from(e.data)] : []))).toString("utf8");
  const exit = events[events.length - 1];
  return { events, stdout: join("stdout"), stderr: join("stderr"), exit };
}

async function run(api: Api, id: string, command: string, more: Partial<Parameters<Api["exec"]>[0]> = {}) {
  await api.exec({ id, command, ...more });
  return drain(api, id);
}

async function rejection(p: Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await p;
  } catch (err) {
    return err as { code?: string; message: string };
  }
  throw new Error("expected a rejection");
}

/** A pid is gone (or a zombie waiting for init to reap it). */
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    try {
      if (/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8"))) return true;
    } catch {
      return true;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

let d: Daemon;
let api: Api;

beforeAll(async () => {
  d = await startDaemon("main", { MOUNT_IGNORE: "**/node_modules, **/.cache", COMPUTERD_KILL_GRACE_MS: "500" });
  api = connect(d.port);
});

afterAll(async () => {
  for (const ws of sockets) ws.terminate();
  const code = await d?.stop();
  expect(code).toBe(0);
  fs.rmSync(tmpRoot, { recursive: true, force: true });
});

describe("HTTP and authentication", () => {
  it("GET /health → 200 ok without a secret; unknown paths 404", async () => {
    const res = await fetch(`http://127.0.0.1:${d.port}/health`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("ok");
    expect((await fetch(`http://127.0.0.1:${d.port}/nope`)).status).toBe(404);
  });

  it("/api without or with a wrong bearer → 401; with the right one but no upgrade → 426", async () => {
    expect((await fetch(`http://127.0.0.1:${d.port}/api`)).status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${d.port}/api`, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${d.port}/api`, { headers: { authorization: `Basic ${SECRET}` } })).status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${d.port}/api`, { headers: { authorization: `Bearer ${SECRET}` } })).status).toBe(426);
  });

  it("a WebSocket upgrade on /api without or with a wrong bearer is refused with 401", async () => {
    const status = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(`ws://127.0.0.1:${d.port}/api`, { headers });
        ws.on("unexpected-response", (_req, res) => {
          resolve(res.statusCode ?? 0);
          ws.terminate();
        });
        ws.on("open", () => reject(new Error("upgrade accepted")));
        ws.on("error", () => {});
      });
    expect(await status({})).toBe(401);
    expect(await status({ authorization: "Bearer wrong" })).toBe(401);
  });

  it("info() reports the version, mount point, ignore globs and pid", async () => {
    const info = await api.info();
    expect(info).toEqual({ version: "0.1.0", mountPoint: d.mount, ignore: ["**/node_modules", "**/.cache"], pid: d.proc.pid, bootId: expect.stringMatching(/^[0-9a-f-]{36}$/), diskId: fs.readFileSync(path.join(path.dirname(d.mount), `.${path.basename(d.mount)}.computerd-disk`), "utf8").trim() });
    expect(info.diskId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it("POST /connect: the daemon dials the given URL with the bearer and serves the session on it", async () => {
    const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
    await new Promise((r) => wss.once("listening", r));
    const wsPort = (wss.address() as { port: number }).port;
    const seen: { url?: string; authorization?: string }[] = [];
    const dialed = new Promise<WebSocket>((resolve) =>
      wss.on("connection", (ws, req) => {
        seen.push({ url: req.url, authorization: req.headers.authorization });
        resolve(ws);
      }),
    );
    try {
      const post = (body: string, secret = SECRET) => fetch(`http://127.0.0.1:${d.port}/connect`, { method: "POST", headers: { authorization: `Bearer ${secret}` }, body });
      expect((await post(JSON.stringify({ url: `http://127.0.0.1:${wsPort}/api` }), "wrong")).status).toBe(401);
      expect((await fetch(`http://127.0.0.1:${d.port}/connect`, { method: "POST", body: "{}" })).status).toBe(401);
      expect((await post("not json")).status).toBe(400);
      expect((await post(JSON.stringify({ token: "x" }))).status).toBe(400);
      expect((await post(JSON.stringify({ url: "ftp://127.0.0.1/" }))).status).toBe(400);

      const res = await post(JSON.stringify({ url: `http://127.0.0.1:${wsPort}/api`, token: "do-token" }));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ connected: true });
      const ws = await dialed;
      expect(seen).toEqual([{ url: "/api", authorization: "Bearer do-token" }]);
      // The Durable Object's side: a capnweb session on the accepted socket, calling the daemon's main.
      const transport = {
        queue: [] as string[],
        waiting: undefined as undefined | ((m: string) => void),
        send: (m: string) => ws.send(m),
        receive(): Promise<string> {
          const m = this.queue.shift();
          return m !== undefined ? Promise.resolve(m) : new Promise((r) => (this.waiting = r));
        },
      };
      ws.on("message", (m) => {
        const s = m.toString();
        if (transport.waiting) {
          const w = transport.waiting;
          transport.waiting = undefined;
          w(s);
        } else transport.queue.push(s);
      });
      const remote = new RpcSession(transport).getRemoteMain() as unknown as Api;
      expect((await remote.info()).pid).toBe(d.proc.pid);
      const r = await run(remote, "via-connect", "printf dialed");
      expect(r.stdout).toBe("dialed");
      expect(r.exit).toEqual({ seq: 2, name: "exit", code: 0 });
      ws.terminate();

      // Nothing listening there: 502 with the reason.
      const refused = await post(JSON.stringify({ url: `ws://127.0.0.1:1/api` }));
      expect(refused.status).toBe(502);
      expect(((await refused.json()) as { error: string }).error).toMatch(/ECONNREFUSED/);
    } finally {
      await new Promise((r) => wss.close(r));
    }
  });
});

describe("exec", () => {
  it("streams stdout and stderr as numbered events and ends with the exit code", async () => {
    const r = await run(api, "hello", "printf 'out\\n'; printf 'err\\n' >&2; exit 0");
    expect(r.stdout).toBe("out\n");
    expect(r.stderr).toBe("err\n");
    expect(r.events.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(r.exit).toEqual({ seq: 3, name: "exit", code: 0 });

    const three = await run(api, "three", "echo failing; exit 3");
    expect(three.events).toEqual([
      { seq: 1, name: "stdout", data: expect.anything() },
      { seq: 2, name: "exit", code: 3 },
    ]);
    expect(three.stdout).toBe("failing\n");
  });

  it("a shell ended by a signal exits 128 + n", async () => {
    const r = await run(api, "sig", "kill -TERM $$");
    expect(r.exit).toEqual({ seq: 1, name: "exit", code: 143, signal: "SIGTERM" });
    const k = await run(api, "sig9", "kill -KILL $$");
    expect(k.exit).toEqual({ seq: 1, name: "exit", code: 137, signal: "SIGKILL" });
  });

  it("splits output into events of at most 64 KiB, nothing lost", async () => {
    const r = await run(api, "big-out", "head -c 300000 /dev/zero | tr '\\0' x");
    const out = r.events.filter((e) => e.name === "stdout") as { data: Uint8Array }[];
    expect(Math.max(...out.map((e) => e.data.length))).toBeLessThanOrEqual(65536);
    expect(r.stdout).toBe("x".repeat(300000));
    expect(r.events.map((e) => e.seq)).toEqual(r.events.map((_, i) => i + 1));
  });

  it("stdin: bytes or text written then closed; absent → /dev/null", async () => {
    const bytes = new Uint8Array(256).map((_, i) => i);
    const r = await run(api, "stdin-bytes", "od -An -tx1 -v | tr -d ' \\n'", { stdin: bytes });
    expect(r.stdout).toBe(Buffer.from(bytes).toString("hex"));
    expect((await run(api, "stdin-text", "wc -c", { stdin: "héllo" })).stdout.trim()).toBe("6");
    expect((await run(api, "stdin-none", "cat; echo end")).stdout).toBe("end\n");
  });

  it("env is merged over the daemon's; the daemon's secret is not passed on", async () => {
    const r = await run(api, "env", 'printf "%s|%s|%s" "$FOO" "${COMPUTERD_SECRET-unset}" "$PATH"', { env: { FOO: "bär baz" } });
    expect(r.stdout).toBe(`bär baz|unset|${process.env.PATH}`);
    expect((await rejection(api.exec({ id: "bad-env", command: "true", env: { "A=B": "x" } }))).code).toBe("EINVAL");
  });

  it("cwd is relative to the mount point and confined to it", async () => {
    await api.apply({ ops: [{ op: "mkdir", path: "work/sub" }] });
    fs.symlinkSync(tmpRoot, path.join(d.mount, "work/outside"));
    const real = fs.realpathSync(d.mount);
    expect((await run(api, "cwd-root", "pwd")).stdout).toBe(`${real}\n`);
    expect((await run(api, "cwd-sub", "pwd", { cwd: "work/sub" })).stdout).toBe(`${real}/work/sub\n`);
    expect((await run(api, "cwd-abs", "pwd", { cwd: "/work/./sub/../sub" })).stdout).toBe(`${real}/work/sub\n`);
    expect((await rejection(api.exec({ id: "cwd-up", command: "pwd", cwd: "../" }))).code).toBe("EACCES");
    expect((await rejection(api.exec({ id: "cwd-link", command: "pwd", cwd: "work/outside" }))).code).toBe("EACCES");
    expect((await rejection(api.exec({ id: "cwd-missing", command: "pwd", cwd: "work/none" }))).code).toBe("ENOENT");
    await api.apply({ ops: [{ op: "write", path: "work/file", data: "x" }] });
    expect((await rejection(api.exec({ id: "cwd-file", command: "pwd", cwd: "work/file" }))).code).toBe("ENOTDIR");
    await api.apply({ ops: [{ op: "rm", path: "work" }] });
  });

  it("bad arguments are EINVAL", async () => {
    expect((await rejection(api.exec({ id: "", command: "true" }))).code).toBe("EINVAL");
    expect((await rejection(api.exec({ id: "x".repeat(257), command: "true" }))).code).toBe("EINVAL");
    expect((await rejection(api.exec({ id: "t", command: "true", timeoutMs: -1 }))).code).toBe("EINVAL");
    expect((await rejection(api.exec({ id: "t", command: 42 as unknown as string }))).code).toBe("EINVAL");
  });

  it("timeout: SIGTERM to the group → 143", async () => {
    const r = await run(api, "timeout-term", "echo start; sleep 30", { timeoutMs: 300 });
    expect(r.stdout).toBe("start\n");
    expect(r.exit).toEqual({ seq: 2, name: "exit", code: 143, signal: "SIGTERM", timedOut: true });
  });

  it("timeout: a process trapping SIGTERM gets SIGKILL after the grace → 137", async () => {
    const started = Date.now();
    const r = await run(api, "timeout-trap", "trap 'echo got TERM' TERM; echo ready; while :; do sleep 0.05; done", { timeoutMs: 300 });
    expect(r.stdout).toBe("ready\ngot TERM\n");
    expect(r.exit).toMatchObject({ name: "exit", code: 137, signal: "SIGKILL", timedOut: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(800); // 300 ms timeout + 500 ms grace
  });

  it("timeoutMs 0 means no timeout", async () => {
    const r = await run(api, "no-timeout", "sleep 0.2; echo done", { timeoutMs: 0 });
    expect(r.exit).toEqual({ seq: 2, name: "exit", code: 0 });
  });

  it("kill reaches the whole process group; a finished run is left alone; unknown → ENOENT", async () => {
    await api.exec({ id: "tree", command: "sleep 30 & echo $!; sleep 31 & echo $!; wait" });
    const first = await api.events({ id: "tree", after: 0, waitMs: 5000 });
    let out = first.events.map((e) => (e.name === "exit" ? "" : text(e.data))).join("");
    let after = first.events[first.events.length - 1].seq;
    while (out.split("\n").length < 3) {
      const more = await api.events({ id: "tree", after, waitMs: 5000 });
      out += more.events.map((e) => (e.name === "exit" ? "" : text(e.data))).join("");
      after = more.events[more.events.length - 1].seq;
    }
    const pids = out.trim().split("\n").map(Number);
    expect(pids).toHaveLength(2);
    expect(await api.kill({ id: "tree" })).toEqual({ killed: true });
    const r = await drain(api, "tree", after);
    expect(r.exit).toMatchObject({ name: "exit", code: 143, signal: "SIGTERM" });
    expect(await gone(pids[0])).toBe(true);
    expect(await gone(pids[1])).toBe(true);
    expect(await api.kill({ id: "tree" })).toEqual({ killed: false });

    await api.exec({ id: "int", command: "sleep 30" });
    expect(await api.kill({ id: "int", signal: "INT" })).toEqual({ killed: true });
    expect((await drain(api, "int")).exit).toEqual({ seq: 1, name: "exit", code: 130, signal: "SIGINT" });

    expect((await rejection(api.kill({ id: "never-ran" }))).code).toBe("ENOENT");
    expect((await rejection(api.kill({ id: "int", signal: "SIGNOPE" }))).code).toBe("EINVAL");
  });

  it("kill without a signal escalates to SIGKILL for a process ignoring SIGTERM", async () => {
    await api.exec({ id: "stubborn", command: "trap '' TERM; echo ready; while :; do sleep 0.05; done" });
    await api.events({ id: "stubborn", after: 0, waitMs: 5000 });
    expect(await api.kill({ id: "stubborn" })).toEqual({ killed: true });
    expect((await drain(api, "stubborn", 1)).exit).toEqual({ seq: 2, name: "exit", code: 137, signal: "SIGKILL" });
  });

  it("events resume after any seq; an idle long-poll returns when the next event comes", async () => {
    const all = await run(api, "resume", "for i in 1 2 3 4; do echo $i; sleep 0.02; done");
    expect(all.stdout).toBe("1\n2\n3\n4\n");
    const n = all.events.length;
    const tail = await api.events({ id: "resume", after: 2 });
    expect(tail.events).toEqual(all.events.slice(2));
    expect(tail.done).toBe(true);
    expect(await api.events({ id: "resume", after: n })).toEqual({ events: [], done: true });

    await api.exec({ id: "late", command: "sleep 0.3; printf late" });
    expect(await api.events({ id: "late", after: 0 })).toEqual({ events: [], done: false });
    const page = await api.events({ id: "late", after: 0, waitMs: 10_000 });
    expect(page.events.length).toBeGreaterThan(0);
    expect(page.events[0]).toMatchObject({ seq: 1, name: "stdout" });
    expect(text((page.events[0] as { data: Uint8Array }).data)).toBe("late");
    await drain(api, "late");
  });

  it("a live id is EEXEC_BUSY; a finished id can be reused and starts again from seq 1; unknown → ENOENT", async () => {
    await api.exec({ id: "busy", command: "sleep 30" });
    expect((await rejection(api.exec({ id: "busy", command: "true" }))).code).toBe("EEXEC_BUSY");
    await api.kill({ id: "busy", signal: "KILL" });
    await drain(api, "busy");
    const again = await run(api, "busy", "echo again");
    expect(again.events.map((e) => e.seq)).toEqual([1, 2]);
    expect(again.stdout).toBe("again\n");
    expect((await rejection(api.events({ id: "who" }))).code).toBe("ENOENT");
  });
});

describe("byte-at-a-time output", () => {
  it("is kept as few events (coalesced until a reader is handed them), arriving whole and in order while read concurrently", async () => {
    // 20,000 single-byte writes of a known sequence, on both streams.
    await api.exec({ id: "drip", command: "i=0; while [ $i -lt 20000 ]; do printf $((i % 10)); printf x >&2; i=$((i+1)); done" });
    const events: RunEvent[] = [];
    let after = 0;
    for (;;) {
      const page = await api.events({ id: "drip", after, waitMs: 10_000 });
      if (page.events.length > 0) {
        expect(page.events.map((e) => e.seq)).toEqual(page.events.map((_, i) => after + 1 + i));
        after = page.events[page.events.length - 1].seq;
      }
      events.push(...page.events);
      if (page.done) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    const text = (name: string) => Buffer.concat(events.flatMap((e) => (e.name === name ? [Buffer.from((e as { data: Uint8Array }).data)] : []))).toString();
    expect(text("stdout")).toBe(Array.from({ length: 20000 }, (_, i) => String(i % 10)).join(""));
    expect(text("stderr")).toBe("x".repeat(20000));
    expect(events[events.length - 1]).toMatchObject({ name: "exit", code: 0 });
    // Far fewer events than writes; replaying from the start gives the same events.
    expect(events.length).toBeLessThan(2000);
    const replay = await drain(api, "drip", 0);
    expect(replay.events).toEqual(events);
  });
});

describe("event log limits and daemon shutdown", () => {
  it("flow control of unread output; ELOG_TRUNCATED for dropped output and evicted runs; stopping the daemon kills running commands", async () => {
    const small = await startDaemon("small", { COMPUTERD_LOG_MAX_BYTES: "65536", COMPUTERD_LOG_MAX_RUNS: "1" });
    const sapi = connect(small.port);
    try {
      await sapi.exec({ id: "flood", command: "head -c 400000 /dev/zero" });
      // Flow control: nobody reads past seq 0, so once the budget (64 KiB) is unread the daemon stops
      // reading the command's pipe and the command waits; nothing is dropped meanwhile.
      // (A long-poll: it answers as soon as the first output is there, however loaded the machine.)
      const early = await sapi.events({ id: "flood", after: 0, waitMs: 10_000 });
      expect(early.done).toBe(false);
      expect(early.events[0]).toMatchObject({ seq: 1, name: "stdout" });
      // Reading drains it: every byte arrives, then exit 0.
      const all = await drain(sapi, "flood", 0);
      expect(all.exit).toMatchObject({ name: "exit", code: 0 });
      expect(all.stdout.length).toBe(400000);
      // Read and finished, the oldest output was dropped past the budget: a replay from the start is ELOG_TRUNCATED.
      const err = (await rejection(sapi.events({ id: "flood", after: 0 }))) as { code?: string; firstSeq?: number };
      expect(err).toMatchObject({ code: "ELOG_TRUNCATED" });
      expect(err.firstSeq).toBeGreaterThan(1);
      const kept = await drain(sapi, "flood", err.firstSeq! - 1);
      expect(kept.exit).toMatchObject({ name: "exit", code: 0 });
      expect(kept.stdout.length).toBeGreaterThan(0);
      // At most the budget, or — when the drain's last page was not yet acknowledged (asked past) — that
      // page, which flow control bounds by the budget plus what the pipe stream had read when it was paused:
      // the chunk that crossed the budget and the stream's buffer (its highWaterMark, 64 KiB), two pipe reads
      // (seen 109,184 and, on a loaded machine, 174,720).
      expect(kept.stdout.length).toBeLessThanOrEqual(65536 + 2 * 65536);
      let last = 0;

      // A slow reader loses nothing either: once the command has ended, what the reader has not
      // asked past is kept (past the budget by at most the last read), never dropped in silence.
      for (let round = 0; round < 3; round++) {
        await sapi.exec({ id: "slow", command: "head -c 300000 /dev/zero" });
        const got: RunEvent[] = [];
        let after = 0;
        for (;;) {
          await new Promise((r) => setTimeout(r, 60));
          const page = await sapi.events({ id: "slow", after, waitMs: 10_000 });
          if (page.events.length > 0) expect(page.events[0].seq).toBe(after + 1);
          got.push(...page.events);
          if (page.events.length > 0) after = page.events[page.events.length - 1].seq;
          if (page.done) break;
        }
        const bytes = got.reduce((n, e) => n + (e.name === "exit" ? 0 : (e as { data: Uint8Array }).data.length), 0);
        expect(bytes).toBe(300000);
      }

      // Only one finished run is kept: the first becomes ELOG_TRUNCATED, from its end it is done.
      const one = await run(sapi, "one", "echo one");
      last = one.exit.seq;
      await run(sapi, "two", "echo two");
      expect((await rejection(sapi.events({ id: "one", after: 0 }))).code).toBe("ELOG_TRUNCATED");
      expect(await sapi.events({ id: "one", after: last })).toEqual({ events: [], done: true });
      expect((await rejection(sapi.events({ id: "never" }))).code).toBe("ENOENT");

      // Shutdown: SIGTERM to the daemon SIGKILLs running commands' groups, then it exits 0.
      await sapi.exec({ id: "long", command: "sleep 60 & echo $!; wait" });
      const p = await sapi.events({ id: "long", after: 0, waitMs: 5000 });
      const pid = Number(text((p.events[0] as { data: Uint8Array }).data).trim());
      expect(pid).toBeGreaterThan(0);
      expect(await small.stop()).toBe(0);
      expect(await gone(pid)).toBe(true);
    } finally {
      await small.stop();
    }
  });
});

describe("configuration", () => {
  it("MOUNT_IGNORE as a JSON array with a ! re-include; the last matching glob decides", async () => {
    const globs = ["**/node_modules", "!**/keep/node_modules", "/nowhere/**"];
    const cfg = await startDaemon("ignore-json", { MOUNT_IGNORE: JSON.stringify(globs) });
    const capi = connect(cfg.port);
    try {
      expect((await capi.info()).ignore).toEqual(globs);
      const { results } = await capi.apply({
        ops: [
          { op: "write", path: "node_modules/a.js", data: "a" },
          { op: "write", path: "keep/node_modules/b.js", data: "b" },
          { op: "write", path: "keep/c.js", data: "c" },
        ],
      });
      expect(results.every((r) => r.ok)).toBe(true);
      expect((await capi.scan()).entries.map((e) => e.path)).toEqual(["keep", "keep/c.js", "keep/node_modules", "keep/node_modules/b.js"]);
    } finally {
      expect(await cfg.stop()).toBe(0);
    }
  });

  it("without COMPUTERD_SECRET every /api is 401 until the first POST /connect sets the secret", async () => {
    const tofu = await startDaemon("tofu", { COMPUTERD_SECRET: "" });
    try {
      const api401 = (secret?: string) => fetch(`http://127.0.0.1:${tofu.port}/api`, { headers: secret ? { authorization: `Bearer ${secret}` } : {} }).then((r) => r.status);
      expect(await api401()).toBe(401);
      expect(await api401("anything")).toBe(401);
      const res = await fetch(`http://127.0.0.1:${tofu.port}/connect`, { method: "POST", headers: { authorization: "Bearer first" }, body: JSON.stringify({ url: "ws://127.0.0.1:1/api" }) });
      expect(res.status).toBe(502); // nothing listens there, but the secret is set
      expect(await api401("first")).toBe(426);
      expect(await api401("second")).toBe(401);
      const again = await fetch(`http://127.0.0.1:${tofu.port}/connect`, { method: "POST", headers: { authorization: "Bearer second" }, body: "{}" });
      expect(again.status).toBe(401);
    } finally {
      expect(await tofu.stop()).toBe(0);
    }
  });

  it("COMPUTERD_AUTH_FILE: the secret is read from the file, which is deleted; neither commands nor /proc/<daemon>/environ show it", async () => {
    const dir = fs.mkdtempSync(path.join(tmpRoot, "auth-"));
    const file = path.join(dir, "secret");
    fs.writeFileSync(file, "from-a-file\n", { mode: 0o600 });
    const d = await startDaemon("authfile", { COMPUTERD_SECRET: "", COMPUTERD_AUTH_FILE: file });
    try {
      expect(fs.existsSync(file)).toBe(false);
      const status = (secret: string) => fetch(`http://127.0.0.1:${d.port}/api`, { headers: { authorization: `Bearer ${secret}` } }).then((r) => r.status);
      expect(await status("from-a-file")).toBe(426); // authenticated (the trailing newline dropped), not an upgrade
      expect(await status("from-a-file\n".trim() + "x")).toBe(401);
      const fapi = connect(d.port, "from-a-file");
      const r = await run(fapi, "authenv", 'printf "%s|%s|" "${COMPUTERD_SECRET-unset}" "${COMPUTERD_AUTH_FILE-unset}"; tr "\\0" "\\n" < /proc/$PPID/environ | grep -c from-a-file; true');
      expect(r.stdout).toBe("unset|unset|0\n");
    } finally {
      expect(await d.stop()).toBe(0);
    }
  });

  it("COMPUTERD_AUTH_FILE that cannot be read: exit 2, naming it", async () => {
    const missing = path.join(tmpRoot, "no-such-secret");
    const proc = spawn(process.execPath, [DAEMON], { env: { ...process.env, HOST: "127.0.0.1", PORT: "0", MOUNT_POINT: path.join(tmpRoot, "authmissing"), COMPUTERD_AUTH_FILE: missing }, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    proc.stderr!.on("data", (d) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => proc.once("exit", (c) => resolve(c)));
    expect(code).toBe(2);
    expect(stderr).toContain(`computerd: EINVAL: COMPUTERD_AUTH_FILE ${JSON.stringify(missing)} cannot be read: ENOENT`);
  });

  it("SIGUSR1 from a command opens no inspector (the daemon's own handler; started here without --disable-sigusr1)", async () => {
    const d = await startDaemon("usr1");
    const uapi = connect(d.port);
    const r = await run(uapi, "usr1", "kill -USR1 $PPID && echo sent");
    expect(r.stdout).toBe("sent\n");
    const res = await fetch(`http://127.0.0.1:${d.port}/health`);
    expect(res.status).toBe(200);
    await res.body?.cancel();
    expect(await d.stop()).toBe(0);
    // Node's inspector announces itself on stderr when a signal opens it ("Debugger listening on ws://…").
    expect(d.stderr()).not.toContain("Debugger listening");
    expect(d.stderr()).toContain("computerd: SIGTERM, stopping");
  });
});

describe("sync primitives", () => {
  const enc = (s: string) => new TextEncoder().encode(s);

  it("apply: every op kind, non-ASCII names, modes and bytes on disk", async () => {
    const { results } = await api.apply({
      ops: [
        { op: "mkdir", path: "tree/日本語", mode: 0o750 },
        { op: "write", path: "tree/日本語/ファイル.txt", data: enc("こんにちは") },
        { op: "write", path: "tree/run.sh", data: "#!/bin/sh\necho hi\n", mode: 0o755 },
        { op: "write", path: "tree/deep/new/é ü.txt", data: enc("accents") },
        { op: "symlink", path: "tree/link", target: "日本語/ファイル.txt" },
        { op: "chmod", path: "tree/deep/new/é ü.txt", mode: 0o600 },
        { op: "write", path: "tree/gone.txt", data: "bye" },
        { op: "rename", from: "tree/gone.txt", to: "tree/moved/here.txt" },
        { op: "write", path: "tree/rmdir/a/b.txt", data: "b" },
        { op: "rm", path: "tree/rmdir" },
      ],
    });
    const at = (p: string) => path.join(d.mount, p);
    // Each op but rm reports the entry it left, as scan would (kind, mode, size, times, link target).
    const statOf = (p: string): EntryStat => {
      const st = fs.lstatSync(at(p));
      const kind = st.isDirectory() ? "directory" : st.isFile() ? "file" : "symlink";
      const base = { kind, mode: st.mode & 0o7777, size: kind === "directory" ? 0 : st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
      return kind === "symlink" ? { ...base, target: fs.readlinkSync(at(p)) } : base;
    };
    expect(results.map((r) => r.ok)).toEqual(Array(10).fill(true));
    expect(results[0]).toMatchObject({ ok: true, stat: { kind: "directory", mode: 0o750, size: 0 } }); // its times moved with the ops after
    expect(results[1]).toMatchObject({ ok: true, stat: { kind: "file", size: 15, mode: 0o644 } });
    expect(results[4]).toEqual({ ok: true, stat: statOf("tree/link") });
    expect(results[4]).toMatchObject({ stat: { kind: "symlink", target: "日本語/ファイル.txt" } });
    expect(results[5]).toEqual({ ok: true, stat: statOf("tree/deep/new/é ü.txt") });
    expect(results[7]).toEqual({ ok: true, stat: statOf("tree/moved/here.txt") });
    expect(results[9]).toEqual({ ok: true });
    expect(fs.statSync(at("tree/日本語")).mode & 0o7777).toBe(0o750);
    expect(fs.readFileSync(at("tree/日本語/ファイル.txt"), "utf8")).toBe("こんにちは");
    expect(fs.statSync(at("tree/日本語/ファイル.txt")).mode & 0o7777).toBe(0o644);
    expect(fs.statSync(at("tree/run.sh")).mode & 0o7777).toBe(0o755);
    expect(fs.statSync(at("tree/deep/new/é ü.txt")).mode & 0o7777).toBe(0o600);
    expect(fs.readlinkSync(at("tree/link"))).toBe("日本語/ファイル.txt");
    expect(fs.existsSync(at("tree/gone.txt"))).toBe(false);
    expect(fs.readFileSync(at("tree/moved/here.txt"), "utf8")).toBe("bye");
    expect(fs.existsSync(at("tree/rmdir"))).toBe(false);
    expect((await run(api, "run-sh", "./tree/run.sh")).stdout).toBe("hi\n");

    // A symlink or a fifo is replaced by a file write (never followed, never blocked on); rm of a symlink leaves its target.
    expect((await run(api, "mkfifo", "mkfifo tree/pipe")).exit).toMatchObject({ code: 0 });
    expect((await api.apply({ ops: [{ op: "write", path: "tree/pipe", data: "plain" }] })).results).toMatchObject([{ ok: true, stat: { kind: "file", size: 5 } }]);
    expect(fs.readFileSync(at("tree/pipe"), "utf8")).toBe("plain");
    const second = await api.apply({
      ops: [
        { op: "symlink", path: "tree/link2", target: "run.sh" },
        { op: "rm", path: "tree/link2" },
        { op: "symlink", path: "tree/link3", target: "run.sh" },
        { op: "write", path: "tree/link3", data: "now a file" },
        { op: "mkdir", path: "tree/日本語", mode: 0o755 },
      ],
    });
    expect(second.results.map((r) => r.ok)).toEqual(Array(5).fill(true));
    expect(second.results[1]).toEqual({ ok: true });
    expect(fs.existsSync(at("tree/run.sh"))).toBe(true);
    expect(fs.lstatSync(at("tree/link3")).isFile()).toBe(true);
    expect(fs.readFileSync(at("tree/run.sh"), "utf8")).toBe("#!/bin/sh\necho hi\n");
    expect(fs.statSync(at("tree/日本語")).mode & 0o7777).toBe(0o755);
  });

  it("apply: errors per op with POSIX codes, the other ops still applied", async () => {
    fs.symlinkSync(tmpRoot, path.join(d.mount, "escape-link"));
    const { results } = await api.apply({
      ops: [
        { op: "write", path: "../escape.txt", data: "x" },
        { op: "write", path: "escape-link/x.txt", data: "x" },
        { op: "mkdir", path: "escape-link/dir" },
        { op: "rm", path: "/" },
        { op: "rm", path: "no/such" },
        { op: "write", path: "errs/f.txt", data: "f" },
        { op: "mkdir", path: "errs/f.txt" },
        { op: "write", path: "errs", data: "x" },
        { op: "chmod", path: "errs/missing", mode: 0o644 },
        { op: "write", path: "a\0b", data: "x" },
        { op: "frobnicate", path: "x" },
        { op: "write", path: "big", data: new Uint8Array(1024 * 1024 + 1) },
        { op: "rename", from: "errs/nothing", to: "errs/other" },
        { op: "symlink", path: "errs", target: "x" },
        { op: "chmod", path: "escape-link", mode: 0o700 },
      ],
    });
    expect(results.map((r) => (r.ok ? "ok" : r.error.code))).toEqual([
      "EACCES",
      "EACCES",
      "EACCES",
      "EINVAL",
      "ENOENT",
      "ok",
      "EEXIST",
      "EISDIR",
      "ENOENT",
      "EINVAL",
      "EINVAL",
      "EINVAL",
      "ENOENT",
      "EEXIST",
      "EINVAL",
    ]);
    const r4 = results[4] as { error: { message: string; path?: string; syscall?: string } };
    expect(r4.error).toEqual({ code: "ENOENT", message: "ENOENT: no such file or directory (no/such)", syscall: "lstat", path: "no/such" });
    expect(JSON.stringify(results)).not.toContain(tmpRoot); // no host paths leak
    expect(fs.existsSync(path.join(tmpRoot, "escape.txt"))).toBe(false);
    expect(fs.existsSync(path.join(tmpRoot, "x.txt"))).toBe(false);
    expect(fs.existsSync(path.join(tmpRoot, "dir"))).toBe(false);
    expect((await rejection(api.apply({ ops: "nope" as unknown as unknown[] }))).code).toBe("EINVAL");
    await api.apply({ ops: [{ op: "rm", path: "escape-link" }, { op: "rm", path: "errs" }] });
    expect(fs.existsSync(tmpRoot)).toBe(true);
  });

  it("read: byte ranges; errors for symlinks, directories, escapes and oversized lengths", async () => {
    await api.apply({ ops: [{ op: "write", path: "r/data.bin", data: new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]) }, { op: "symlink", path: "r/link", target: "data.bin" }] });
    const mid = await api.read({ path: "r/data.bin", offset: 3, length: 4 });
    expect([...mid.data]).toEqual([3, 4, 5, 6]);
    expect(mid).toMatchObject({ size: 10, eof: false });
    const end = await api.read({ path: "/r/data.bin", offset: 8 });
    expect([...end.data]).toEqual([8, 9]);
    expect(end.eof).toBe(true);
    expect((await api.read({ path: "r/data.bin", offset: 50 })).data.length).toBe(0);
    expect((await rejection(api.read({ path: "r/link" }))).code).toBe("ELOOP");
    expect((await rejection(api.read({ path: "r" }))).code).toBe("EISDIR");
    expect((await rejection(api.read({ path: "r/none" }))).code).toBe("ENOENT");
    expect((await rejection(api.read({ path: "../../etc/passwd" }))).code).toBe("EACCES");
    expect((await rejection(api.read({ path: "r/data.bin", length: 1024 * 1024 + 1 }))).code).toBe("EINVAL");
    fs.symlinkSync("/etc", path.join(d.mount, "r/etc"));
    expect((await rejection(api.read({ path: "r/etc/hostname" }))).code).toBe("EACCES");
    await api.apply({ ops: [{ op: "rm", path: "r" }] });
  });

  it("a 5 MiB file written and read back in 1 MiB chunks; a shorter rewrite truncates", async () => {
    const size = 5 * 1024 * 1024 + 123;
    const big = new Uint8Array(size);
    for (let i = 0; i < size; i++) big[i] = (i * 31 + (i >> 13)) & 0xff;
    const chunk = 1024 * 1024;
    for (let off = 0; off < size; off += chunk) {
      const { results } = await api.apply({ ops: [{ op: "write", path: "big/five.bin", data: big.subarray(off, off + chunk), offset: off, truncate: off === 0 }] });
      expect(results).toMatchObject([{ ok: true, stat: { kind: "file", size: Math.min(off + chunk, size) } }]);
    }
    expect(sha(fs.readFileSync(path.join(d.mount, "big/five.bin")))).toBe(sha(big));
    const parts: Buffer[] = [];
    for (let off = 0; ; off += chunk) {
      const r = await api.read({ path: "big/five.bin", offset: off, length: chunk });
      parts.push(Buffer.from(r.data));
      expect(r.size).toBe(size);
      if (r.eof) break;
    }
    expect(parts).toHaveLength(6);
    expect(sha(Buffer.concat(parts))).toBe(sha(big));
    await api.apply({ ops: [{ op: "write", path: "big/five.bin", data: "short" }] });
    expect(fs.readFileSync(path.join(d.mount, "big/five.bin"), "utf8")).toBe("short");
    await api.apply({ ops: [{ op: "rm", path: "big" }] });
  });

  it("5,000 small files: applied in batches of 1,000, scanned back in pages of the default size", async () => {
    const names = Array.from({ length: 5000 }, (_, i) => `many/d${Math.floor(i / 500)}/f${String(i).padStart(4, "0")}-ü.txt`);
    for (let i = 0; i < names.length; i += 1000) {
      const { results } = await api.apply({ ops: names.slice(i, i + 1000).map((p) => ({ op: "write", path: p, data: p })) });
      expect(results.every((r) => r.ok)).toBe(true);
    }
    const seen: ScanEntry[] = [];
    let cursor: string | null = null;
    let pages = 0;
    for (;;) {
      const p: ScanPage = await api.scan({ cursor });
      pages++;
      seen.push(...p.entries);
      if (p.done) break;
      cursor = p.cursor;
    }
    const files = seen.filter((e) => e.path.startsWith("many/") && e.kind === "file");
    expect(files.map((e) => e.path)).toEqual([...names].sort());
    expect(files.every((e) => e.size === Buffer.byteLength(e.path))).toBe(true);
    expect(seen.filter((e) => e.path.startsWith("many")).length).toBe(5000 + 11); // + many/ and its 10 directories
    expect(pages).toBeGreaterThanOrEqual(6);
    expect(new Set(seen.map((e) => e.path)).size).toBe(seen.length);
    await api.apply({ ops: [{ op: "rm", path: "many" }] });
  });

  it("scan: the tree in walk order with kinds, modes, sizes and targets; ignore globs honoured; paged; since", async () => {
    // Fresh subtree; everything else from earlier tests is removed first.
    for (const name of fs.readdirSync(d.mount)) fs.rmSync(path.join(d.mount, name), { recursive: true, force: true });
    const { results } = await api.apply({
      ops: [
        { op: "write", path: "package.json", data: "{}" },
        { op: "write", path: "src/ä.ts", data: "export {};\n", mode: 0o600 },
        { op: "write", path: "src/b.ts", data: "b" },
        { op: "symlink", path: "src/link", target: "b.ts" },
        { op: "mkdir", path: "src/empty", mode: 0o700 },
        { op: "write", path: ".cache/x", data: "cached" },
      ],
    });
    expect(results.every((r) => r.ok)).toBe(true);
    const made = await run(api, "mk-modules", "mkdir -p node_modules/dep src/node_modules/x && echo 'module' > node_modules/dep/index.js && echo y > src/node_modules/x/y.js && mkfifo src/fifo");
    expect(made.exit).toMatchObject({ code: 0 });

    const page = await api.scan();
    const shape = page.entries.map((e) => [e.path, e.kind, e.mode.toString(8), e.size, e.target ?? null]);
    expect(shape).toEqual([
      ["package.json", "file", "644", 2, null],
      ["src", "directory", "755", 0, null],
      ["src/b.ts", "file", "644", 1, null],
      ["src/empty", "directory", "700", 0, null],
      ["src/link", "symlink", "777", 4, "b.ts"],
      ["src/ä.ts", "file", "600", 11, null],
    ]);
    expect(page.skipped).toEqual([{ path: "src/fifo", reason: "special" }]);
    expect(page).toMatchObject({ cursor: null, done: true });
    for (const e of page.entries) expect(e.mtimeMs).toBeCloseTo(fs.lstatSync(path.join(d.mount, e.path)).mtimeMs, 3);

    // Paged: two entries a page, the same entries in the same order.
    const paged: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    for (;;) {
      const p: ScanPage = await api.scan({ cursor, limit: 2 });
      pages++;
      expect(p.entries.length).toBeLessThanOrEqual(2);
      paged.push(...p.entries.map((e) => e.path));
      if (p.done) break;
      cursor = p.cursor;
    }
    expect(paged).toEqual(page.entries.map((e) => e.path));
    expect(pages).toBeGreaterThanOrEqual(3);

    // since: only what changed from then on.
    await new Promise((r) => setTimeout(r, 50));
    const since = Date.now();
    await new Promise((r) => setTimeout(r, 20));
    await api.apply({ ops: [{ op: "write", path: "src/b.ts", data: "changed" }] });
    const changed = await api.scan({ since });
    // (A whole-file write is a new file renamed into place: its directory changed too.)
    expect(changed.entries.map((e) => e.path)).toEqual(["src", "src/b.ts"]);

    expect((await rejection(api.scan({ limit: 0 }))).code).toBe("EINVAL");
  });
});
