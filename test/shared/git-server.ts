/**
 * A real smart-HTTP git server for the git tests (issue 15): Debian's
 * `git http-backend` (CGI) behind a small Node `http` server on
 * `127.0.0.1:<random port>`, serving bare repositories made with the real
 * `git` CLI. Node-only (child processes); it runs in vitest's main process
 * through the global setup (`test/shared/git-global-setup.ts`), and tests —
 * on Node or inside workerd — reach it over HTTP only (see
 * `test/shared/git-remote.ts`).
 *
 * URL layout under {@link GitServerInfo.baseUrl}:
 *
 * | path | what |
 * | --- | --- |
 * | `/git/<name>.git` | smart HTTP, fetch and push (`http.receivepack` on) |
 * | `/hang/<name>.git` | accepts every request and never answers |
 * | `/truncated/<name>.git` | refs as usual; the `git-upload-pack` response is cut to half its bytes (a well-formed HTTP body holding a truncated pack) |
 * | `/stall/<name>.git` | refs as usual; the `git-upload-pack` response sends half its bytes, then nothing more (connection left open) |
 * | `POST /admin/fork` | `{ from?: "fixture", to?: string }` → `{ name, url }`: a fresh copy of a bare repository (each test pushes to its own) |
 * | `POST /admin/git` | `{ repo, args, stdin? }` → `{ code, stdout, stdoutBase64, stderr }`: the real `git` run with `args` in `<root>/<repo>.git` (no shell) |
 * | `GET /admin/fixture` | the {@link FixtureManifest} |
 *
 * `fixture.git` is never pushed to by the tests' helpers: fork it first.
 *
 * @module
 */
import { execFile, execFileSync, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { cp, mkdir, mkdtemp, rm, writeFile, chmod, symlink } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** What the tests get (through vitest `inject("gitServer")`). */
export interface GitServerInfo {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  baseUrl: string;
  /** Directory holding the bare repositories (`<name>.git`), readable on Node only. */
  root: string;
  /** The fixture's refs and HEAD tree. */
  fixture: FixtureManifest;
}

/** One file of the fixture's `main` tree (`git ls-tree -r -l main`). */
export interface FixtureFile {
  /** Path relative to the repository root (UTF-8, never quoted). */
  path: string;
  /** `100644`, `100755` or `120000`. */
  mode: string;
  /** Blob oid. */
  oid: string;
  /** Blob size in bytes. */
  size: number;
}

/** The fixture repository, as the real git reports it. */
export interface FixtureManifest {
  /** Branch name → commit oid (`main`, `feature`). */
  branches: Record<string, string>;
  /** Tag name → the oid the tag ref holds (an annotated tag's own oid for `v1.0`). */
  tags: Record<string, string>;
  /** Annotated tag name → the commit it points to. */
  tagTargets: Record<string, string>;
  /** `git rev-list main` (newest first), `git rev-list --all` count. */
  mainHistory: string[];
  /** Every commit reachable from any ref. */
  allCommits: string[];
  /** Files of `main`'s tree. */
  files: FixtureFile[];
  /** Files of `feature`'s tree. */
  featureFiles: FixtureFile[];
}

/** A running server. */
export interface GitServerHandle {
  info: GitServerInfo;
  close(): Promise<void>;
}

/** Environment for every git run here: no system/global config, fixed identity. */
function gitEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    LANG: "C.UTF-8",
    ...extra,
  };
}

/** The bytes of the fixture's binary file (every byte value, NULs included). */
export function fixtureBinary(): Uint8Array {
  const out = new Uint8Array(4096);
  for (let i = 0; i < out.length; i++) out[i] = (i * 7 + (i >> 8)) & 0xff;
  return out;
}

/** The bytes of the fixture's file over 1 MiB (deterministic xorshift noise, incompressible). */
export function fixtureLarge(): Uint8Array {
  const out = new Uint8Array(1024 * 1024 + 300_001);
  let x = 0x9e3779b9;
  for (let i = 0; i < out.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** The non-ASCII path of the fixture. */
export const FIXTURE_UNICODE_PATH = "docs/café ünï.md";

/**
 * Builds the fixture with the real git CLI in `work` and returns the bare
 * copy `<root>/fixture.git`. History (dates fixed, so oids are stable):
 *
 * ```
 * main:    c1 (v0.1) ─ c3 ─ M4 (v1.0, annotated) ─ c5
 *            \             /
 * feature:    c2 ────────── ─ c6
 * ```
 */
async function buildFixture(work: string, root: string, home: string): Promise<void> {
  let tick = 0;
  const run = (args: string[]) => {
    tick += 60;
    const when = `${1_700_000_000 + tick} +0100`;
    return execFileSync("git", args, {
      cwd: work,
      env: gitEnv(home, {
        GIT_AUTHOR_NAME: "Fixture Author",
        GIT_AUTHOR_EMAIL: "author@fixture.test",
        GIT_COMMITTER_NAME: "Fixture Committer",
        GIT_COMMITTER_EMAIL: "committer@fixture.test",
        GIT_AUTHOR_DATE: when,
        GIT_COMMITTER_DATE: when,
      }),
      encoding: "utf8",
    });
  };
  await mkdir(work, { recursive: true });
  run(["init", "-q", "-b", "main"]);
  run(["config", "core.quotePath", "false"]);
  await writeFile(join(work, "README.md"), "# Fixture\n\nA repository made by the real git for the Workspace git tests.\n");
  await mkdir(join(work, "bin"));
  await writeFile(join(work, "bin/run.sh"), "#!/bin/sh\necho run\n");
  await chmod(join(work, "bin/run.sh"), 0o755);
  await mkdir(join(work, "assets"));
  await writeFile(join(work, "assets/blob.bin"), fixtureBinary());
  await mkdir(join(work, "big"));
  await writeFile(join(work, "big/large.dat"), fixtureLarge());
  await symlink("README.md", join(work, "link-to-readme"));
  await mkdir(join(work, "docs"));
  await writeFile(join(work, FIXTURE_UNICODE_PATH), "Ça marche: ünïcödé ✓\n");
  run(["add", "-A"]);
  run(["commit", "-q", "-m", "c1: initial"]);
  run(["tag", "v0.1"]);
  run(["checkout", "-q", "-b", "feature"]);
  await writeFile(join(work, "docs/feature.txt"), "feature line 1\n");
  run(["add", "-A"]);
  run(["commit", "-q", "-m", "c2: feature notes"]);
  run(["checkout", "-q", "main"]);
  await writeFile(join(work, "README.md"), "# Fixture\n\nA repository made by the real git for the Workspace git tests.\n\nSecond paragraph.\n");
  run(["commit", "-q", "-am", "c3: README second paragraph"]);
  run(["merge", "-q", "--no-ff", "-m", "M4: merge branch 'feature'", "feature"]);
  run(["tag", "-a", "v1.0", "-m", "release 1.0"]);
  await writeFile(join(work, "bin/run.sh"), "#!/bin/sh\necho run twice\necho run twice\n");
  run(["commit", "-q", "-am", "c5: run twice"]);
  run(["checkout", "-q", "feature"]);
  await writeFile(join(work, "docs/feature.txt"), "feature line 1\nfeature line 2\n");
  run(["commit", "-q", "-am", "c6: feature line 2"]);
  run(["checkout", "-q", "main"]);
  execFileSync("git", ["clone", "-q", "--bare", work, join(root, "fixture.git")], { env: gitEnv(home) });
  // One pack on disk: http-backend then reuses its deltas instead of compressing every object per request.
  execFileSync("git", ["repack", "-a", "-d", "-q"], { cwd: join(root, "fixture.git"), env: gitEnv(home) });
}

function git(cwd: string, home: string, args: string[]): string {
  return execFileSync("git", args, { cwd, env: gitEnv(home), encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
}

function lsTree(repo: string, home: string, ref: string): FixtureFile[] {
  const out = git(repo, home, ["ls-tree", "-r", "-l", "-z", ref]);
  return out
    .split("\0")
    .filter(Boolean)
    .map((line) => {
      const tab = line.indexOf("\t");
      const [mode, , oid, size] = line.slice(0, tab).split(/\s+/);
      return { path: line.slice(tab + 1), mode, oid, size: Number(size) };
    });
}

function manifest(repo: string, home: string): FixtureManifest {
  const refs = (prefix: string) =>
    Object.fromEntries(
      git(repo, home, ["for-each-ref", "--format=%(refname:strip=2) %(objectname)", prefix])
        .trim()
        .split("\n")
        .map((l) => l.split(" ") as [string, string]),
    );
  const tags = refs("refs/tags");
  const tagTargets: Record<string, string> = {};
  for (const name of Object.keys(tags)) tagTargets[name] = git(repo, home, ["rev-parse", `${name}^{commit}`]).trim();
  return {
    branches: refs("refs/heads"),
    tags,
    tagTargets,
    mainHistory: git(repo, home, ["rev-list", "main"]).trim().split("\n"),
    allCommits: git(repo, home, ["rev-list", "--all"]).trim().split("\n"),
    files: lsTree(repo, home, "main"),
    featureFiles: lsTree(repo, home, "feature"),
  };
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/**
 * Starts the server with a fresh `fixture.git`.
 * @throws when `git` is not installed (install Debian's `git`; `.ci/run` does).
 */
export async function startGitServer(): Promise<GitServerHandle> {
  const base = await mkdtemp(join(tmpdir(), "ac-git-server-"));
  const root = join(base, "repos");
  const home = join(base, "home");
  await mkdir(root, { recursive: true });
  await mkdir(home, { recursive: true });
  await buildFixture(join(base, "work"), root, home);
  const fixture = manifest(join(root, "fixture.git"), home);

  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(error));
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}`;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", baseUrl);
    const [, mode, ...rest] = url.pathname.split("/");
    if (mode === "hang") return; // never answered; closed by close()
    if (mode === "admin") return admin(rest.join("/"), req, res);
    if (mode !== "git" && mode !== "truncated" && mode !== "stall") {
      res.writeHead(404, { "content-type": "text/plain" }).end(`no route for ${url.pathname}\n`);
      return;
    }
    const pathInfo = `/${rest.map(decodeURIComponent).join("/")}`;
    const cgi = await runBackend(req, pathInfo, url.search.slice(1));
    const cut = mode !== "git" && pathInfo.endsWith("/git-upload-pack") && req.method === "POST";
    if (!cut) {
      res.writeHead(cgi.status, cgi.headers);
      res.end(cgi.body);
      return;
    }
    const half = cgi.body.subarray(0, Math.floor(cgi.body.length / 2));
    delete cgi.headers["content-length"];
    res.writeHead(cgi.status, cgi.headers);
    if (mode === "truncated") res.end(half);
    else res.write(half); // stall: the rest never comes
  }

  async function admin(route: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
    };
    if (route === "fixture") return json(200, fixture);
    const body = JSON.parse((await readAll(req)).toString("utf8") || "{}") as Record<string, unknown>;
    if (route === "fork") {
      const from = (body.from as string | undefined) ?? "fixture";
      const to = (body.to as string | undefined) ?? `repo-${randomUUID()}`;
      if (!NAME.test(from) || !NAME.test(to)) return json(400, { error: "bad repository name" });
      await cp(join(root, `${from}.git`), join(root, `${to}.git`), { recursive: true, errorOnExist: true, force: false });
      return json(200, { name: to, url: `${baseUrl}/git/${to}.git` });
    }
    if (route === "git") {
      const repo = body.repo as string;
      const args = body.args as unknown;
      if (typeof repo !== "string" || !NAME.test(repo) || !Array.isArray(args) || !args.every((a) => typeof a === "string")) {
        return json(400, { error: "want { repo, args: string[] }" });
      }
      const stdin = typeof body.stdin === "string" ? Buffer.from(body.stdin, "base64") : undefined;
      const result = await new Promise<{ code: number; stdout: Buffer; stderr: string }>((resolve) => {
        const child = execFile(
          "git",
          args as string[],
          { cwd: join(root, `${repo}.git`), env: gitEnv(home), encoding: "buffer", maxBuffer: 256 * 1024 * 1024 },
          (error, stdout, stderr) => {
            const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
            resolve({ code, stdout, stderr: stderr.toString("utf8") });
          },
        );
        child.stdin?.end(stdin);
      });
      return json(200, {
        code: result.code,
        stdout: result.stdout.toString("utf8"),
        stdoutBase64: result.stdout.toString("base64"),
        stderr: result.stderr,
      });
    }
    json(404, { error: `no admin route ${route}` });
  }

  async function runBackend(
    req: IncomingMessage,
    pathInfo: string,
    query: string,
  ): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
    const input = await readAll(req);
    const env = gitEnv(home, {
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: "1",
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "http.receivepack",
      GIT_CONFIG_VALUE_0: "true",
      REQUEST_METHOD: req.method ?? "GET",
      PATH_INFO: pathInfo,
      QUERY_STRING: query,
      CONTENT_TYPE: req.headers["content-type"] ?? "",
      CONTENT_LENGTH: String(input.length),
      REMOTE_ADDR: "127.0.0.1",
      REMOTE_USER: "tester",
      SERVER_PROTOCOL: "HTTP/1.1",
      GATEWAY_INTERFACE: "CGI/1.1",
    });
    const encoding = req.headers["content-encoding"];
    if (typeof encoding === "string") env.HTTP_CONTENT_ENCODING = encoding;
    const protocol = req.headers["git-protocol"];
    if (typeof protocol === "string") env.GIT_PROTOCOL = protocol;
    const output = await new Promise<Buffer>((resolve, reject) => {
      const child = spawn("/usr/lib/git-core/git-http-backend", [], { env });
      const chunks: Buffer[] = [];
      child.stdout.on("data", (c: Buffer) => chunks.push(c));
      child.stderr.resume();
      child.on("error", reject);
      child.on("close", () => resolve(Buffer.concat(chunks)));
      child.stdin.on("error", () => {});
      child.stdin.end(input);
    });
    let split = output.indexOf("\r\n\r\n");
    let sep = 4;
    const lf = output.indexOf("\n\n");
    if (split < 0 || (lf >= 0 && lf < split)) {
      split = lf;
      sep = 2;
    }
    if (split < 0) return { status: 502, headers: { "content-type": "text/plain" }, body: output };
    const headers: Record<string, string> = {};
    let status = 200;
    for (const line of output.subarray(0, split).toString("latin1").split(/\r?\n/)) {
      const colon = line.indexOf(":");
      if (colon < 0) continue;
      const key = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (key === "status") status = Number.parseInt(value, 10);
      else headers[key] = value;
    }
    return { status, headers, body: output.subarray(split + sep) };
  }

  return {
    info: { baseUrl, root, fixture },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(base, { recursive: true, force: true });
    },
  };
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}
