/**
 * The real container daemon's RPC object (`Computerd`, container/lib/api.mjs) in this process over a fresh
 * temp directory as its mount point — no stand-in: what the daemon really answers — and a Workspace whose
 * remote command backend `box` is `daemonHandle` over it (as both container backends use it); `wrapDaemon` replaces some
 * of its calls (a race made deterministic, an answer that never comes), `workspaceOver` gives such a Workspace over any
 * daemon (a stand-in too).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { nodeSqliteStorage, Workspace } from "../../../src/index.js";
import { daemonHandle, type DaemonApi } from "../../../src/backends/daemon/handle.js";

/** One of the daemon's modules (plain JavaScript without declarations: loaded by URL, typed loosely). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const lib = (name: string): Promise<any> => import(/* @vite-ignore */ new URL(`../../../container/lib/${name}.mjs`, import.meta.url).href);

/** `env`: more of the daemon's settings (e.g. `MOUNT_IGNORE`); its `MOUNT_POINT` is the temp directory. */
export async function realDaemonWorkspace(env: Record<string, string> = {}): Promise<{ ws: Workspace; daemon: DaemonApi; dir: string; close(): Promise<void> }> {
  const [{ Computerd }, { Runs }, { Mount }, { ignoreMatcher, readConfig }] = await Promise.all([lib("api"), lib("runs"), lib("paths"), lib("config")]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "attack18c-"));
  const config = readConfig({ ...env, MOUNT_POINT: dir });
  const state = { config, mount: await Mount.open(config.mountPoint), ignored: ignoreMatcher(config.ignore), runs: new Runs(config), version: "test", bootId: "boot-1" };
  const daemon = new Computerd(state) as unknown as DaemonApi;
  const ws = await workspaceOver(daemon);
  return {
    ws,
    daemon,
    dir,
    async close() {
      await ws.close();
      fs.rmSync(dir, { recursive: true, force: true });
      // The daemon's disk id, kept beside its mount point (container/lib/disk.mjs).
      fs.rmSync(path.join(path.dirname(dir), `.${path.basename(dir)}.computerd-disk`), { force: true });
    },
  };
}

/** `daemon`'s calls passed through, but for those `overrides` replaces (a stand-in wrapped around the real daemon). */
export function wrapDaemon(daemon: DaemonApi, overrides: Partial<Record<keyof DaemonApi, (input: never) => Promise<unknown>>>): DaemonApi {
  const calls = ["info", "scan", "read", "apply", "exec", "events", "kill", "dispose"] as const;
  const real = daemon as unknown as Record<string, (input: unknown) => Promise<unknown>>;
  return Object.fromEntries(calls.map((m) => [m, overrides[m] ?? ((input: unknown) => real[m]!(input))])) as unknown as DaemonApi;
}

/** A Workspace whose remote command backend `box` is `daemonHandle` over `daemon`. */
export async function workspaceOver(daemon: DaemonApi): Promise<Workspace> {
  const ws = new Workspace({
    storage: nodeSqliteStorage(":memory:"),
    backends: [{ id: "box", type: "test", connect: async () => daemonHandle(daemon, { closed: new Promise(() => {}), close() {} }) }],
  });
  await ws.fs.mkdir("/workspace", { recursive: true });
  return ws;
}

/** The real daemon's RPC object over `dir` as its mount point, announcing `bootId` (a relaunch: another boot id). */
export async function daemonOn(dir: string, bootId: string): Promise<DaemonApi> {
  const [{ Computerd }, { Runs }, { Mount }, { ignoreMatcher, readConfig }] = await Promise.all([lib("api"), lib("runs"), lib("paths"), lib("config")]);
  const config = readConfig({ MOUNT_POINT: dir });
  return new Computerd({ config, mount: await Mount.open(config.mountPoint), ignored: ignoreMatcher(config.ignore), runs: new Runs(config), version: "test", bootId }) as unknown as DaemonApi;
}

/**
 * A Workspace whose backend `box` connects to `first`; `relaunch(next)` reports the connection closed and makes
 * the next connect reach `next` (a container restarted, on the same disk or another).
 */
export function relaunchableWorkspace(first: DaemonApi): { ws: Workspace; relaunch(next: DaemonApi): void } {
  let current = first;
  let lose: () => void = () => {};
  const ws = new Workspace({
    storage: nodeSqliteStorage(":memory:"),
    backends: [
      {
        id: "box",
        type: "test",
        connect: async () => {
          const closed = new Promise<void>((resolve) => (lose = resolve));
          return daemonHandle(current, { closed, close() {} });
        },
      },
    ],
  });
  return {
    ws,
    relaunch(next) {
      current = next;
      lose();
    },
  };
}
