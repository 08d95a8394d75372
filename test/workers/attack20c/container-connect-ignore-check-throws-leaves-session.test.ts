/**
 * Issue 20, twentieth attack run: ContainerConnector.connect (src/backends/container/connector.ts) compares the ignore
 * globs the daemon reports with the configured ones by `JSON.stringify(info.ignore) !== JSON.stringify(o.ignore)` —
 * outside any try, after `daemonHandle` opened the session. The daemon's answer crosses capnweb, which carries BigInt;
 * `JSON.stringify` throws on one, so an `info` answering `ignore: [1n]` makes the comparison itself throw: no
 * ContainerIgnoreMismatchError (89d4355 made its message safe for "a daemon's huge or non-list answer", but it is
 * never reached), and the WebSocket session is not closed (`close()` runs only on the two paths above it) — a session
 * nothing owns, as c00e6c4 fixed for daemonHandle's own `info`.
 *
 * Tried: a ContainerBackend (`ignore: ["**\/x"]`) over the local container host (LocalWorkspaceContainerAPI) whose daemon
 * is the real one with a preload (`containerEnv` NODE_OPTIONS `--import=data:…`, the takeover attack8's
 * container-hostile-daemon plays; a command can kill the daemon and serve its port) that answers `info` with
 * `ignore: [1n]` and writes the number of the daemon's open outgoing sockets (its sessions to the Durable Object,
 * dialled through the host's relay) to `/workspace/.sessions` every 50 ms; `runtime.ready("container-shell")`, then
 * the file read 1 s after the connect failed. (Held: the connect fails — nothing runs against that daemon; the same
 * set-up with `ignore: ["**\/y"]` fails ContainerIgnoreMismatchError and the daemon's count is "0" — the session was
 * closed — 2 of 2 runs.)
 *
 * Found (low; 2 of 2 runs): `ready` rejects with a bare `TypeError: Do not know how to serialize a BigInt` (not
 * ContainerIgnoreMismatchError or ContainerTransportError, the documented failures of the connect), and the daemon
 * still has its session open ("1") after the failed connect (each later connect attempt of the backend would leave
 * another: not measured).
 *
 * Suggested fix: compare inside the `.catch`-guarded block (or a try that calls `close()`), with a comparison that
 * cannot throw — e.g. check `Array.isArray(info.ignore) && info.ignore.every((g) => typeof g === "string")` first and
 * treat anything else as a mismatch; and make `quoteJson` tolerate what JSON cannot show (`String` of it).
 * Fixed: connect compares the lists element by element (anything but the configured strings is a mismatch: the session
 * is closed, ContainerIgnoreMismatchError), and the message shows what JSON cannot as `[array that JSON cannot show]`.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { ContainerBackend, ContainerIgnoreMismatchError, ContainerTransportError, LocalWorkspaceContainerAPI } from "../../../src/backends/container/index.js";

/** Run in the daemon before its modules load: `info` answers `ignore` (JavaScript source); open outgoing sockets counted. */
const preload = (ignore: string) => `
import fs from "node:fs";
import { pathToFileURL } from "node:url";
const { Computerd } = await import(new URL("lib/api.mjs", pathToFileURL(process.argv[1])).href);
const info = Computerd.prototype.info;
Computerd.prototype.info = async function (...args) { return { ...(await info.apply(this, args)), ignore: ${ignore} }; };
setInterval(() => {
  const open = process._getActiveHandles().filter((h) => h?.constructor?.name === "Socket" && h.remotePort !== undefined && !h.server && !h.destroyed).length;
  fs.writeFileSync(process.env.MOUNT_POINT + "/.sessions", String(open));
}, 50).unref();
`;

/** Connects a ContainerBackend (ignore ["**\/x"]) to a daemon whose `info` answers `ignore` → the error, and its open sessions 1 s later. */
async function connectTo(ignore: string): Promise<{ error: unknown; sessions: string }> {
  return runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
    const host = inject("containerHost");
    const name = crypto.randomUUID();
    const api = new LocalWorkspaceContainerAPI({ hostUrl: host, name, storage: state.storage });
    const b = new ContainerBackend({
      container: () => ({ getWorkspaceContainer: () => api }),
      workspace: { binding: "TEST_DO", id: "0".repeat(64) },
      heartbeatIntervalMs: 0,
      connectTimeoutMs: 15_000,
      ignore: ["**/x"],
      containerEnv: { NODE_OPTIONS: `--import=data:text/javascript;base64,${btoa(preload(ignore))}` },
    });
    const ws = new Workspace({ storage: state.storage, backends: [b] });
    try {
      const error = await ws.runtime.ready("container-shell").then(
        () => undefined,
        (e: unknown) => e,
      );
      await new Promise((r) => setTimeout(r, 1000));
      const sessions = await (await fetch(`${host}/containers/${name}/files?path=.sessions`)).text();
      return { error, sessions };
    } finally {
      await ws.close();
      await (await fetch(`${host}/containers/${name}/stop`, { method: "POST", body: JSON.stringify({ signal: "SIGKILL" }) })).body?.cancel();
    }
  });
}

describe("attack20c: a daemon whose info answers ignore globs JSON cannot show", () => {
  it("held: a mismatching list fails ContainerIgnoreMismatchError and the session is closed", { timeout: 60_000 }, async () => {
    const { error, sessions } = await connectTo(`["**/y"]`);
    expect(error).toBeInstanceOf(ContainerIgnoreMismatchError);
    expect(sessions).toBe("0");
  });

  it("a BigInt among them: the connect fails with a documented error and closes the session", { timeout: 60_000 }, async () => {
    const { error, sessions } = await connectTo("[1n]");
    expect(error).toBeDefined(); // held: nothing connects to that daemon
    // Found: TypeError "Do not know how to serialize a BigInt", and "1" session still open.
    expect(error instanceof ContainerIgnoreMismatchError || error instanceof ContainerTransportError).toBe(true);
    expect((error as Error).message).toBe(
      'the container\'s daemon applies ignore [array that JSON cannot show], not the configured ["**/x"]: its MOUNT_IGNORE was overridden (containerEnv) or the image\'s daemon is too old',
    );
    expect(sessions).toBe("0");
  });
});
