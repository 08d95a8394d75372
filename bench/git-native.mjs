// The native side of the `git` bench suite (issue 15), run by bench/run.mjs in Node.
//
// The suite itself runs inside workerd (no child processes there), so this
// small loopback HTTP server on 127.0.0.1 does, for it, what only Node can:
//
// - runs the REAL git (/usr/bin/git) in work trees on the local disk and
//   answers how long it took (`POST /native/git`, timed in Node with
//   performance.now() around a synchronous spawn: process start included,
//   HTTP round trip excluded);
// - serves bare repositories over smart HTTP (`git http-backend` as CGI,
//   as test/shared/git-server.ts does; that module is TypeScript and this
//   Node cannot import it) for the clone measurements of both sides.
//
// | route | body | answer |
// | --- | --- | --- |
// | `POST /native/write` | `{ repo, files: [[path, text], …] }` | `{ files }`: files written under the work tree `repo` |
// | `POST /native/git` | `{ repo, commands: [argv, …] }` | `{ code, stdout, stderr, ms, cpuMs }`: the commands run one after the other (stops at the first failure); `ms` wall time for all, `cpuMs` their user + system CPU time (10 ms ticks) |
// | `POST /native/rm` | `{ repo }` | `{}`: the work tree removed |
// | `POST /native/du` | `{ repo }` | `{ gitBytes, worktreeBytes, gitDiskBytes, worktreeDiskBytes, files }` (apparent sizes and allocated blocks) |
// | `POST /native/clone-source` | `{}` | `{ url, head, files, treeBytes, packBytes }`: the ~5 MB bare repository (made once) |
// | `GET/POST /git/<name>.git/…` | | smart HTTP (fetch only) |
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { lstat, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join, resolve, sep } from "node:path";

const GIT = "/usr/bin/git";
const BACKEND = "/usr/lib/git-core/git-http-backend";
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** No system or global config; a fixed identity; no pager, no colour. */
function gitEnv(home, extra = {}) {
  return {
    PATH: "/usr/bin:/bin",
    HOME: home,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    GIT_PAGER: "cat",
    LANG: "C.UTF-8",
    GIT_AUTHOR_NAME: "Bench Native",
    GIT_AUTHOR_EMAIL: "native@bench.test",
    GIT_COMMITTER_NAME: "Bench Native",
    GIT_COMMITTER_EMAIL: "native@bench.test",
    ...extra,
  };
}

/**
 * CPU time (user + system, ms) of this process's waited-for children so far,
 * from /proc/self/stat (cutime + cstime, in clock ticks of 10 ms), or NaN off Linux.
 */
function childCpuMs() {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // fields[0] is field 3 (state); cutime and cstime are fields 16 and 17.
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** Deterministic xorshift bytes (incompressible). */
function noise(length, seed) {
  const out = Buffer.alloc(length);
  let x = (seed * 2654435761) >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

/** Distinct source-like text (compressible), about `lines` × 60 bytes. */
function sourceText(file, version, lines) {
  const out = [];
  for (let l = 0; l < lines; l++) out.push(`export const value_${file}_${l} = ${(file * 7919 + l * 104729 + version) % 1000003}; // v${version}`);
  return out.join("\n") + "\n";
}

function readAll(req) {
  return new Promise((resolveBody, reject) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => resolveBody(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

async function sizes(dir) {
  let apparent = 0;
  let disk = 0;
  let files = 0;
  const walk = async (d) => {
    for (const entry of await readdir(d, { withFileTypes: true })) {
      const full = join(d, entry.name);
      const st = await lstat(full);
      disk += st.blocks * 512;
      if (entry.isDirectory()) await walk(full);
      else {
        apparent += st.size;
        files++;
      }
    }
  };
  await walk(dir);
  return { apparent, disk, files };
}

/**
 * Starts the server. Resolves to `undefined` (with the reason on stderr) when
 * the real git is not installed: the `git` suite then fails with that reason.
 * @returns {Promise<{ url: string, close(): Promise<void> } | { error: string }>}
 */
export async function startNativeGit() {
  if (!existsSync(GIT) || !existsSync(BACKEND)) return { error: `the real git is not installed (${GIT}, ${BACKEND}); install Debian's git` };
  const base = await mkdtemp(join(tmpdir(), "ac-bench-git-"));
  const work = join(base, "work");
  const srv = join(base, "srv");
  const home = join(base, "home");
  await mkdir(work, { recursive: true });
  await mkdir(srv, { recursive: true });
  await mkdir(home, { recursive: true });
  const sockets = new Set();
  let cloneSource;

  const repoDir = (repo) => {
    if (typeof repo !== "string" || !NAME.test(repo)) throw new Error(`bad repository name ${JSON.stringify(repo)}`);
    return join(work, repo);
  };

  /** The ~5 MB repository: three commits; the last tree holds 40 × 96 KiB of noise and 400 text files (~1.2 MB). */
  async function makeCloneSource() {
    const tree = join(base, "clone-source");
    await mkdir(tree, { recursive: true });
    const run = (args, when) =>
      spawnSync(GIT, args, { cwd: tree, env: gitEnv(home, { GIT_AUTHOR_DATE: when, GIT_COMMITTER_DATE: when }), encoding: "utf8" });
    const init = run(["init", "-q", "-b", "main"], "1700000000 +0000");
    if (init.status !== 0) throw new Error(`git init: ${init.stderr}`);
    for (let version = 0; version < 3; version++) {
      for (let f = 0; f < 400; f++) {
        if (version > 0 && f % 4 !== version) continue; // later commits change a quarter of the text files
        await mkdir(join(tree, `src/m${f % 20}`), { recursive: true });
        await writeFile(join(tree, `src/m${f % 20}/file${f}.ts`), sourceText(f, version, 50));
      }
      for (let b = 0; b < 40; b++) {
        if (version > 0 && b % 3 !== version) continue;
        await mkdir(join(tree, "assets"), { recursive: true });
        await writeFile(join(tree, `assets/blob${b}.bin`), noise(96 * 1024, b * 10 + version + 1));
      }
      const when = `${1700000000 + version * 3600} +0000`;
      for (const args of [["add", "-A"], ["commit", "-q", "-m", `version ${version}`]]) {
        const r = run(args, when);
        if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
      }
    }
    const bare = join(srv, "big.git");
    for (const [args, cwd] of [
      [["clone", "-q", "--bare", tree, bare], base],
      [["repack", "-a", "-d", "-q"], bare],
    ]) {
      const r = spawnSync(GIT, args, { cwd, env: gitEnv(home), encoding: "utf8" });
      if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
    }
    const head = spawnSync(GIT, ["rev-parse", "HEAD"], { cwd: bare, env: gitEnv(home), encoding: "utf8" }).stdout.trim();
    const ls = spawnSync(GIT, ["ls-tree", "-r", "-l", "HEAD"], { cwd: bare, env: gitEnv(home), encoding: "utf8" }).stdout.trim().split("\n");
    const treeBytes = ls.reduce((n, line) => n + Number(line.split(/\s+/)[3]), 0);
    const pack = await sizes(join(bare, "objects/pack"));
    return { head, files: ls.length, treeBytes, packBytes: pack.apparent };
  }

  async function backend(req, res, pathInfo, query) {
    const input = await readAll(req);
    const env = gitEnv(home, {
      GIT_PROJECT_ROOT: srv,
      GIT_HTTP_EXPORT_ALL: "1",
      REQUEST_METHOD: req.method ?? "GET",
      PATH_INFO: pathInfo,
      QUERY_STRING: query,
      CONTENT_TYPE: req.headers["content-type"] ?? "",
      CONTENT_LENGTH: String(input.length),
      REMOTE_ADDR: "127.0.0.1",
      SERVER_PROTOCOL: "HTTP/1.1",
      GATEWAY_INTERFACE: "CGI/1.1",
    });
    if (typeof req.headers["content-encoding"] === "string") env.HTTP_CONTENT_ENCODING = req.headers["content-encoding"];
    if (typeof req.headers["git-protocol"] === "string") env.GIT_PROTOCOL = req.headers["git-protocol"];
    const output = await new Promise((resolveOut, reject) => {
      const child = spawn(BACKEND, [], { env });
      const chunks = [];
      child.stdout.on("data", (c) => chunks.push(c));
      child.stderr.resume();
      child.on("error", reject);
      child.on("close", () => resolveOut(Buffer.concat(chunks)));
      child.stdin.on("error", () => {});
      child.stdin.end(input);
    });
    let split = output.indexOf("\r\n\r\n");
    let gap = 4;
    const lf = output.indexOf("\n\n");
    if (split < 0 || (lf >= 0 && lf < split)) {
      split = lf;
      gap = 2;
    }
    if (split < 0) return void res.writeHead(502, { "content-type": "text/plain" }).end(output);
    const headers = {};
    let status = 200;
    for (const line of output.subarray(0, split).toString("latin1").split(/\r?\n/)) {
      const colon = line.indexOf(":");
      if (colon < 0) continue;
      const key = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (key === "status") status = Number.parseInt(value, 10);
      else headers[key] = value;
    }
    res.writeHead(status, headers).end(output.subarray(split + gap));
  }

  /** Runs `commands` in `cwd`; synchronous spawns (no other work in between), except `clone`, which needs this server's event loop. */
  async function runGit(cwd, commands) {
    let stdout = "";
    let stderr = "";
    let code = 0;
    const cpu0 = childCpuMs();
    const start = performance.now();
    for (const argv of commands) {
      if (argv[0] === "clone") {
        const r = await new Promise((resolveRun) => {
          const child = spawn(GIT, argv, { cwd, env: gitEnv(home) });
          const out = [];
          const err = [];
          child.stdout.on("data", (c) => out.push(c));
          child.stderr.on("data", (c) => err.push(c));
          child.on("close", (status) => resolveRun({ status, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") }));
        });
        ({ stdout, stderr } = r);
        code = r.status ?? 1;
      } else {
        const r = spawnSync(GIT, argv, { cwd, env: gitEnv(home), encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
        ({ stdout, stderr } = r);
        code = r.status ?? 1;
      }
      if (code !== 0) break;
    }
    const ms = performance.now() - start;
    return { code, stdout, stderr, ms, cpuMs: childCpuMs() - cpu0 };
  }

  async function handle(req, res) {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const json = (status, value) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
    if (url.pathname.startsWith("/git/")) return backend(req, res, decodeURIComponent(url.pathname.slice(4)), url.search.slice(1));
    if (req.method !== "POST" || !url.pathname.startsWith("/native/")) return json(404, { error: `no route ${url.pathname}` });
    const body = JSON.parse((await readAll(req)).toString("utf8") || "{}");
    switch (url.pathname.slice("/native/".length)) {
      case "write": {
        const root = repoDir(body.repo);
        for (const [path, text] of body.files) {
          const full = resolve(root, path);
          if (!full.startsWith(root + sep)) throw new Error(`path outside the work tree: ${path}`);
          await mkdir(dirname(full), { recursive: true });
          await writeFile(full, text);
        }
        return json(200, { files: body.files.length });
      }
      case "git": {
        const root = repoDir(body.repo);
        await mkdir(root, { recursive: true });
        return json(200, await runGit(root, body.commands));
      }
      case "rm":
        await rm(repoDir(body.repo), { recursive: true, force: true });
        return json(200, {});
      case "du": {
        const root = repoDir(body.repo);
        const git = await sizes(join(root, ".git"));
        const all = await sizes(root);
        return json(200, {
          gitBytes: git.apparent,
          gitDiskBytes: git.disk,
          worktreeBytes: all.apparent - git.apparent,
          worktreeDiskBytes: all.disk - git.disk,
          files: all.files - git.files,
        });
      }
      case "clone-source":
        cloneSource ??= makeCloneSource();
        return json(200, { url: `${baseUrl}/git/big.git`, ...(await cloneSource) });
      default:
        return json(404, { error: `no route ${url.pathname}` });
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: String(error?.stack ?? error) }));
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise((resolveListen) => server.listen(0, "127.0.0.1", resolveListen));
  const baseUrl = `http://127.0.0.1:${server.address().port}`;
  return {
    url: baseUrl,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolveClose) => server.close(() => resolveClose()));
      await rm(base, { recursive: true, force: true });
    },
  };
}
