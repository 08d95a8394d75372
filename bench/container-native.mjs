// The Node side of the `container` bench suite (issue 17), started by bench/run.mjs.
//
// The suite runs inside workerd (no child processes there). This module does, for it, what only
// Node can:
//
// - starts the local container host (container/local-host.mjs: each container is the real
//   `computerd` daemon run as a local process in a directory of its own), whose URL the suite
//   hands to `LocalWorkspaceContainerAPI`;
// - runs the native baselines with child_process on the SAME disk, under the same temp root as
//   the containers' directories (`cp -r`, `npm ci`), and answers how long they took (timed in
//   Node with performance.now() around the spawn: process start included, HTTP round trip
//   excluded);
// - serves the npm fixture (bench/fixtures/container-npm) so both sides install the same bytes.
//
// | route | body | answer |
// | --- | --- | --- |
// | `GET /info` | | `{ host, root, npmCache }`: the local host's URL, the temp root, the npm cache both sides use |
// | `GET /fixture` | | `{ "package.json": text, "package-lock.json": text }` |
// | `POST /native/write` | `{ dir, files: [[path, text], …] }` | `{ files }`: written under `<root>/native/<dir>` |
// | `POST /native/run` | `{ dir, command, env? }` | `{ code, stdout, stderr, ms }`: `/bin/sh -c command` in `<root>/native/<dir>` (created) |
// | `POST /native/rm` | `{ dir }` | `{}`: `<root>/native/<dir>` removed |
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { startLocalHost } from "../container/local-host.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const FIXTURE = join(here, "fixtures", "container-npm");

/**
 * Starts the local container host and the native side.
 * @returns {Promise<{ url: string, close(): Promise<void> } | { error: string }>}
 */
export async function startContainerNative() {
  let root;
  let host;
  try {
    root = await mkdtemp(join(tmpdir(), "bench-container-"));
    host = await startLocalHost({ root: join(root, "host") });
  } catch (error) {
    if (root) await rm(root, { recursive: true, force: true });
    return { error: String(error?.message ?? error) };
  }
  const nativeRoot = join(root, "native");
  const npmCache = join(root, "npm-cache");
  await mkdir(nativeRoot, { recursive: true });
  const fixture = {
    "package.json": readFileSync(join(FIXTURE, "package.json"), "utf8"),
    "package-lock.json": readFileSync(join(FIXTURE, "package-lock.json"), "utf8"),
  };
  const sockets = new Set();

  const inside = (base, rel) => {
    const full = resolve(base, rel);
    if (full !== base && !full.startsWith(base + sep)) throw new Error(`path outside ${base}: ${rel}`);
    return full;
  };
  const dirOf = (dir) => {
    if (typeof dir !== "string" || !/^[A-Za-z0-9._-]{1,100}$/.test(dir)) throw new Error(`bad dir ${JSON.stringify(dir)}`);
    return inside(nativeRoot, dir);
  };
  const readAll = async (req) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    return Buffer.concat(chunks).toString("utf8");
  };
  const run = (cwd, command, env) =>
    new Promise((done) => {
      const start = performance.now();
      const child = spawn("/bin/sh", ["-c", command], { cwd, env: { ...process.env, ...env } });
      const out = [];
      const err = [];
      child.stdout.on("data", (c) => out.push(c));
      child.stderr.on("data", (c) => err.push(c));
      child.on("error", (e) => err.push(Buffer.from(String(e))));
      child.on("close", (code) =>
        done({ code: code ?? 1, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8").slice(-4000), ms: performance.now() - start }),
      );
    });

  async function handle(req, res) {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const json = (status, value) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
    if (req.method === "GET" && url.pathname === "/info") return json(200, { host: host.url, root, npmCache });
    if (req.method === "GET" && url.pathname === "/fixture") return json(200, fixture);
    if (req.method !== "POST") return json(404, { error: `no route ${req.method} ${url.pathname}` });
    const body = JSON.parse((await readAll(req)) || "{}");
    switch (url.pathname) {
      case "/native/write": {
        const base = dirOf(body.dir);
        for (const [path, text] of body.files) {
          const full = inside(base, path);
          await mkdir(dirname(full), { recursive: true });
          await writeFile(full, text);
        }
        return json(200, { files: body.files.length });
      }
      case "/native/run": {
        const cwd = dirOf(body.dir);
        await mkdir(cwd, { recursive: true });
        return json(200, await run(cwd, String(body.command), body.env ?? {}));
      }
      case "/native/rm":
        await rm(dirOf(body.dir), { recursive: true, force: true });
        return json(200, {});
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
  await new Promise((listening) => server.listen(0, "127.0.0.1", listening));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((closed) => server.close(() => closed()));
      await host.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}
