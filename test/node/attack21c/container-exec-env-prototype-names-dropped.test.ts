/**
 * Issue 20, twenty-first attack run: `exec`'s `env` is the one caller-keyed object that crosses the container's RPC
 * (capnweb over a WebSocket). capnweb's evaluator deletes every key that is `in Object.prototype` (or `toJSON`) from a
 * plain object it receives (node_modules/capnweb `Evaluator.evaluateImpl`: `if (key in Object.prototype || key ===
 * "toJSON") … delete result[key]`), and its devaluator writes `result[key] =` into a `{}`, so an own `__proto__` key is
 * lost before it is sent. The daemon then merges what is left over its environment (`env[k] = v`, which drops a
 * `__proto__` too). So variables named `constructor`, `toString`, `valueOf`, `hasOwnProperty`, `toLocaleString`,
 * `isPrototypeOf`, `toJSON` or `__proto__` — valid POSIX shell names (`toString=t bash -c 'echo $toString'` prints t) —
 * are silently unset in the command: no error from the Workspace, the handle or the daemon.
 *
 * Tried: the real daemon as a process (container/daemon.mjs, as test/node/container/daemon.test.ts starts it), a capnweb
 * session over `ws` to its /api, and a Workspace whose backend `box` is `daemonHandle` over that session (the path both
 * container backends take); `exec('echo "[$toString]…"', { env })` with those names and one ordinary name.
 * Held: `plain` arrives; a name with `=` or NUL is refused EINVAL by the daemon; the in-process daemon (no capnweb)
 * keeps every name but `__proto__`.
 *
 * Found (low; 2 of 2 runs): stdout "[][][][][][][][][ok]" — every prototype-named variable is unset, silently.
 *
 * Suggested fix: send `env` as an array of [name, value] pairs (the daemon building its environment with
 * Object.create(null) / a Map), or refuse such names in the handle with EINVAL naming the variable, so nothing is
 * dropped without a word.
 *
 * Fixed: the daemon's `exec` (container/lib/api.mjs) takes `env` as an object or as an array of `[name, value]` pairs
 * (malformed pairs EINVAL) and builds the command's environment in a prototype-less object; the handle
 * (src/backends/daemon/handle.ts `wireEnv`) sends pairs when a name is a member of Object.prototype, `toJSON` or
 * `__proto__`. Siblings: test/node/fix21/container-exec-env-pairs.test.ts.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { newWebSocketRpcSession } from "capnweb";
import { WebSocket } from "ws";
import { describe, expect, it } from "vitest";
import type { DaemonApi } from "../../../src/backends/daemon/handle.js";
import { workspaceOver } from "../attack18c/real-daemon.js";

const DAEMON = path.resolve(import.meta.dirname, "../../../container/daemon.mjs");
const SECRET = "attack21c-secret";
const NAMES = ["constructor", "toString", "valueOf", "hasOwnProperty", "toLocaleString", "isPrototypeOf", "toJSON", "__proto__"];

describe("attack21c: exec env names that are Object.prototype members, over the container's RPC", () => {
  it("reach the command like any other name", { timeout: 60_000 }, async () => {
    const mount = fs.mkdtempSync(path.join(os.tmpdir(), "attack21c-env-"));
    const proc = spawn(process.execPath, [DAEMON], {
      env: { ...process.env, HOST: "127.0.0.1", PORT: "0", MOUNT_POINT: mount, COMPUTERD_SECRET: SECRET },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise((resolve) => proc.once("exit", resolve));
    const socket: { ws?: WebSocket } = {};
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = "";
        proc.stdout!.on("data", (b: Buffer) => {
          out += b.toString("utf8");
          const nl = out.indexOf("\n");
          if (nl >= 0) resolve(out.slice(0, nl));
        });
        proc.once("exit", () => reject(new Error("daemon exited")));
      });
      const { port } = JSON.parse(line) as { port: number };
      socket.ws = new WebSocket(`ws://127.0.0.1:${port}/api`, { headers: { authorization: `Bearer ${SECRET}` } });
      const api = newWebSocketRpcSession(socket.ws as unknown as globalThis.WebSocket) as unknown as DaemonApi;
      const ws = await workspaceOver(api);
      try {
        const env: Record<string, string> = {};
        for (const name of [...NAMES, "plain"]) Object.defineProperty(env, name, { value: name === "plain" ? "ok" : name.slice(0, 3), enumerable: true, writable: true, configurable: true });
        const command = `echo "${[...NAMES, "plain"].map((n) => `[$${n}]`).join("")}"`;
        const result = await (await ws.runtime.exec(command, { backend: "box", env, encoding: "utf8" })).result();
        expect(result.exitCode).toBe(0);
        // Found: "[][][][][][][][][ok]\n".
        expect(result.stdout).toBe(`${[...NAMES, "plain"].map((n) => `[${n === "plain" ? "ok" : n.slice(0, 3)}]`).join("")}\n`);
      } finally {
        await ws.close();
      }
    } finally {
      socket.ws?.terminate();
      proc.kill("SIGTERM");
      await exited;
      fs.rmSync(mount, { recursive: true, force: true });
    }
  });
});
