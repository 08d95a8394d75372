/**
 * Fix 21 (fixer CH), siblings of attack21c findings 1, 6, 2 and 8 (container sync, host side):
 * - the daemon's disk id (container/lib/disk.mjs, `info().diskId`): kept beside the mount point, the same for every
 *   daemon on that directory, another on another; the host compares it (src/runtime/sync.ts `#adopt`), falls back to the
 *   stat check for a daemon that announces none, refuses a malformed one (EPROTO), and adds its column to a state table
 *   made by an earlier version;
 * - a push beside a live run pulls first only when it has something to send: a new Workspace file where the live run
 *   made one gets the container's version (container wins), and a push with nothing to send walks nothing;
 * - a pull replacing a Workspace directory by the container's file or link applies the deletion rules first: a link
 *   over a directory with a Workspace addition is refused (kept, reported), a changed synced file under it is kept, an
 *   unchanged directory is replaced.
 * Real daemon code in process (`Computerd`, as attack18c/real-daemon.ts), real node:sqlite storage.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { daemonHandle, type DaemonApi } from "../../../src/backends/daemon/handle.js";
import { nodeSqliteStorage, Workspace } from "../../../src/index.js";
import { realDaemonWorkspace, wrapDaemon } from "../attack18c/real-daemon.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const lib = (name: string): Promise<any> => import(/* @vite-ignore */ new URL(`../../../container/lib/${name}.mjs`, import.meta.url).href);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const REPLACED_KEPT = "the container replaced this directory by a file or link, but the Workspace changed or added entries in it since the last sync: the directory is kept";

async function daemonOn(dir: string, bootId: string): Promise<DaemonApi> {
  const [{ Computerd }, { Runs }, { Mount }, { ignoreMatcher, readConfig }] = await Promise.all([lib("api"), lib("runs"), lib("paths"), lib("config")]);
  const config = readConfig({ MOUNT_POINT: dir });
  return new Computerd({ config, mount: await Mount.open(config.mountPoint), ignored: ignoreMatcher(config.ignore), runs: new Runs(config), version: "test", bootId }) as unknown as DaemonApi;
}

/** A Workspace (on `storage`) whose backend `box` reconnects to `current()` after `lose()`. */
function reconnecting(current: () => DaemonApi, storage = nodeSqliteStorage(":memory:")): { ws: Workspace; lose: () => void } {
  let lost: () => void = () => {};
  const ws = new Workspace({
    storage,
    backends: [{ id: "box", type: "test", connect: async () => daemonHandle(current(), { closed: new Promise<void>((resolve) => (lost = resolve)), close() {} }) }],
  });
  return { ws, lose: () => lost() };
}

describe("fix21 CH: the daemon's disk id", () => {
  it("is written beside the mount point once, read back by every daemon on it, another for another directory", async () => {
    const { diskId, diskIdFile } = await lib("disk");
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "fix21-disk-"));
    try {
      const one = path.join(root, "one");
      const two = path.join(root, "two");
      fs.mkdirSync(one);
      fs.mkdirSync(two);
      expect(diskIdFile(one)).toBe(path.join(root, ".one.computerd-disk"));
      expect(diskIdFile("/")).toBe(undefined);
      const a = await diskId(one);
      expect(a).toMatch(UUID);
      expect(fs.readFileSync(path.join(root, ".one.computerd-disk"), "utf8")).toBe(`${a}\n`);
      expect(await diskId(one)).toBe(a);
      const b = await diskId(two);
      expect(b).toMatch(UUID);
      expect(b).not.toBe(a);
      // Nothing is left beside it but the two ids (no temporary file).
      expect(fs.readdirSync(root).sort()).toEqual([".one.computerd-disk", ".two.computerd-disk", "one", "two"]);
      // Two daemons on one directory (a restart on the same disk) announce one disk id, each its own boot id.
      const [first, second, other] = await Promise.all([daemonOn(one, "boot-1"), daemonOn(one, "boot-2"), daemonOn(two, "boot-3")]);
      const infos = await Promise.all([first.info(), second.info(), other.info()]);
      expect(infos.map((i) => [i.bootId, (i as { diskId?: string }).diskId])).toEqual([
        ["boot-1", a],
        ["boot-2", a],
        ["boot-3", b],
      ]);
      // A file that does not hold an id: none announced (the host falls back to comparing file stats), and it is left as it is.
      fs.writeFileSync(path.join(root, ".one.computerd-disk"), "not an id\n");
      expect(await diskId(one)).toBe(undefined);
      expect("diskId" in (await (await daemonOn(one, "boot-4")).info())).toBe(false);
      expect(fs.readFileSync(path.join(root, ".one.computerd-disk"), "utf8")).toBe("not an id\n");
      expect(await diskId("/")).toBe(undefined);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("fix21 CH: the host compares the disk id", () => {
  it("the same directory with its disk id file removed is another disk: the Workspace keeps its files and pushes them all again", { timeout: 60_000 }, async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "fix21-disk-"));
    const dir = path.join(root, "workspace");
    fs.mkdirSync(dir);
    let current = await daemonOn(dir, "boot-1");
    const { ws, lose } = reconnecting(() => current);
    try {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.writeFile("/workspace/a.txt", "a");
      const first = await (await ws.runtime.exec("true", { backend: "box" })).result();
      expect([first.exitCode, first.pushed, first.pulled]).toEqual([0, 1, 0]);
      // Every file still as recorded (the stat check would call it the same disk), but the disk id is new.
      fs.rmSync(path.join(root, ".workspace.computerd-disk"));
      current = await daemonOn(dir, "boot-2");
      lose();
      await new Promise((r) => setTimeout(r, 50));
      const second = await (await ws.runtime.exec("cat a.txt", { backend: "box", encoding: "utf8" })).result();
      expect([second.exitCode, second.pushed, second.pulled, second.stdout]).toEqual([0, 1, 0, "a"]);
      expect(await ws.fs.readFile("/workspace/a.txt", "utf8")).toBe("a");
    } finally {
      await ws.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it("a daemon that announces no disk id: a restart on the same disk is told by file stats, as before", { timeout: 60_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fix21-nodisk-"));
    const withoutDisk = (daemon: DaemonApi): DaemonApi =>
      wrapDaemon(daemon, {
        info: async () => {
          const { diskId: _, ...rest } = (await daemon.info()) as { diskId?: string };
          return rest;
        },
      });
    let current = withoutDisk(await daemonOn(dir, "boot-1"));
    const { ws, lose } = reconnecting(() => current);
    try {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.writeFile("/workspace/a.txt", "old a\n");
      await ws.fs.writeFile("/workspace/c.txt", "untouched\n");
      expect((await (await ws.runtime.exec("true", { backend: "box" })).result()).exitCode).toBe(0);
      const edit = await (await ws.runtime.exec("sed -i s/old/new/ a.txt", { backend: "box", sync: "defer" })).result();
      expect(edit.sync?.status).toBe("pending");
      current = withoutDisk(await daemonOn(dir, "boot-2"));
      lose();
      await new Promise((r) => setTimeout(r, 50));
      const after = await (await ws.runtime.exec("cat a.txt", { backend: "box", encoding: "utf8" })).result();
      expect([after.stdout, await ws.fs.readFile("/workspace/a.txt", "utf8")]).toEqual(["new a\n", "new a\n"]);
    } finally {
      await ws.close();
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(path.join(path.dirname(dir), `.${path.basename(dir)}.computerd-disk`), { force: true });
    }
  });

  it("a malformed disk id is refused with EPROTO, nothing run", { timeout: 60_000 }, async () => {
    const real = await realDaemonWorkspace();
    try {
      for (const diskId of ["", "x".repeat(257), 7, null]) {
        const daemon = wrapDaemon(real.daemon, { info: async () => ({ ...(await real.daemon.info()), diskId }) });
        const ws = new Workspace({
          storage: nodeSqliteStorage(":memory:"),
          backends: [{ id: "box", type: "test", connect: async () => daemonHandle(daemon, { closed: new Promise(() => {}), close() {} }) }],
        });
        try {
          const error = await ws.runtime.exec("touch ran", { backend: "box" }).then(
            () => undefined,
            (e: Error) => e.message,
          );
          expect(error).toMatch(/^EPROTO: the container's daemon announced a disk id that is not a string of 1 to 256 characters/);
          expect(fs.existsSync(path.join(real.dir, "ran"))).toBe(false);
        } finally {
          await ws.close();
        }
      }
    } finally {
      await real.close();
    }
  });

  it("a state table made by an earlier version (no disk column) gets one, and the sync runs", { timeout: 60_000 }, async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "fix21-migrate-"));
    const file = path.join(root, "ws.sqlite");
    const dir = path.join(root, "workspace");
    fs.mkdirSync(dir);
    const old = new DatabaseSync(file);
    old.exec(`CREATE TABLE __ws_sync_state (backend TEXT PRIMARY KEY, boot TEXT, pushed_rev INTEGER NOT NULL DEFAULT 0, pushed_path TEXT,
      pull_pending INTEGER NOT NULL DEFAULT 0, pull_error TEXT)`);
    old.close();
    const daemon = await daemonOn(dir, "boot-1");
    const { ws } = reconnecting(() => daemon, nodeSqliteStorage(file));
    try {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.writeFile("/workspace/a.txt", "a");
      const run = await (await ws.runtime.exec("cat a.txt", { backend: "box", encoding: "utf8" })).result();
      expect([run.exitCode, run.pushed, run.stdout]).toEqual([0, 1, "a"]);
    } finally {
      await ws.close();
    }
    const db = new DatabaseSync(file);
    try {
      const disk = fs.readFileSync(path.join(root, ".workspace.computerd-disk"), "utf8").trim();
      expect(db.prepare(`SELECT backend, boot, disk FROM __ws_sync_state`).all().map((r) => ({ ...r }))).toEqual([{ backend: "box", boot: "boot-1", disk }]);
    } finally {
      db.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("fix21 CH: a push beside a live run", () => {
  it("a new Workspace file where the live run made one meanwhile: the container's version wins on both sides", { timeout: 60_000 }, async () => {
    const real = await realDaemonWorkspace();
    const { ws, dir } = real;
    try {
      expect((await (await ws.runtime.exec("true", { backend: "box" })).result()).exitCode).toBe(0);
      const live = (await ws.runtime.exec("echo container > n; while [ ! -f go ]; do sleep 0.1; done", { backend: "box", id: "live" })).result();
      for (let i = 0; i < 200 && !fs.existsSync(path.join(dir, "n")); i++) await new Promise((r) => setTimeout(r, 50));
      for (let i = 0; i < 40 && fs.readFileSync(path.join(dir, "n"), "utf8") !== "container\n"; i++) await new Promise((r) => setTimeout(r, 50));
      await ws.fs.writeFile("/workspace/n", "workspace");
      expect((await (await ws.runtime.exec("touch go", { backend: "box", id: "second" })).result()).exitCode).toBe(0);
      expect((await live).exitCode).toBe(0);
      expect({ container: fs.readFileSync(path.join(dir, "n"), "utf8"), workspace: await ws.fs.readFile("/workspace/n", "utf8") }).toEqual({
        container: "container\n",
        workspace: "container\n",
      });
    } finally {
      await real.close();
    }
  });

  it("with nothing to send, the push walks nothing (one walk per command's pull)", { timeout: 60_000 }, async () => {
    const real = await realDaemonWorkspace();
    let walks = 0;
    const counted = wrapDaemon(real.daemon, {
      scan: async (input: never) => {
        if ((input as { cursor?: string | null }).cursor == null) walks++;
        return real.daemon.scan(input);
      },
    });
    const ws = new Workspace({
      storage: nodeSqliteStorage(":memory:"),
      backends: [{ id: "box", type: "test", connect: async () => daemonHandle(counted, { closed: new Promise(() => {}), close() {} }) }],
    });
    try {
      await ws.fs.mkdir("/workspace", { recursive: true });
      expect((await (await ws.runtime.exec("true", { backend: "box" })).result()).exitCode).toBe(0);
      expect(walks).toBe(1);
      const live = (await ws.runtime.exec("while [ ! -f go ]; do sleep 0.1; done", { backend: "box", id: "live" })).result();
      expect((await (await ws.runtime.exec("touch go", { backend: "box", id: "second" })).result()).exitCode).toBe(0);
      expect((await live).exitCode).toBe(0);
      // The second command's pull and the live run's: no walk before the second command's push.
      expect(walks).toBe(3);
      // With a Workspace change to send beside a live run: one walk more, before the push.
      const live2 = (await ws.runtime.exec("while [ ! -f go2 ]; do sleep 0.1; done", { backend: "box", id: "live2" })).result();
      await ws.fs.writeFile("/workspace/w", "w");
      expect((await (await ws.runtime.exec("cat w; touch go2", { backend: "box", id: "third", encoding: "utf8" })).result()).stdout).toBe("w");
      expect((await live2).exitCode).toBe(0);
      expect(walks).toBe(6);
    } finally {
      await ws.close();
      await real.close();
    }
  });
});

describe("fix21 CH: a pull beside a live run leaves the live run's pull owed", () => {
  it("the pending mark (COMMAND_SENT) stays in storage until the last live command's pull", { timeout: 60_000 }, async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "fix21-owed-"));
    const dir = path.join(root, "workspace");
    fs.mkdirSync(dir);
    const file = path.join(root, "ws.sqlite");
    const daemon = await daemonOn(dir, "boot-1");
    const { ws } = reconnecting(() => daemon, nodeSqliteStorage(file));
    const mark = () => {
      const db = new DatabaseSync(file, { readOnly: true });
      try {
        const row = db.prepare(`SELECT pull_pending, pull_error FROM __ws_sync_state WHERE backend = 'box'`).get() as { pull_pending: number; pull_error: string | null };
        return [row.pull_pending, row.pull_error === null ? null : row.pull_error.startsWith("a command was sent") ? "COMMAND_SENT" : row.pull_error];
      } finally {
        db.close();
      }
    };
    try {
      await ws.fs.mkdir("/workspace", { recursive: true });
      expect((await (await ws.runtime.exec("true", { backend: "box" })).result()).exitCode).toBe(0);
      expect(mark()).toEqual([0, null]);
      const live = (await ws.runtime.exec("while [ ! -f go ]; do sleep 0.1; done; echo live > l", { backend: "box", id: "live" })).result();
      expect(mark()).toEqual([1, "COMMAND_SENT"]);
      // Another command's pull completes while the live run goes on: its pull is still owed (the object may die first).
      const other = await (await ws.runtime.exec("echo other > o", { backend: "box", id: "other" })).result();
      expect([other.exitCode, other.sync]).toEqual([0, { status: "complete", applied: 1, skipped: [] }]);
      expect(mark()).toEqual([1, "COMMAND_SENT"]);
      fs.writeFileSync(path.join(dir, "go"), "");
      const done = await live;
      expect([done.exitCode, done.sync?.status]).toEqual([0, "complete"]);
      expect(mark()).toEqual([0, null]);
      expect(await ws.fs.readFile("/workspace/l", "utf8")).toBe("live\n");
    } finally {
      await ws.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("fix21 CH: a pull replacing a Workspace directory by the container's file or link", () => {
  async function replace(command: string, workspaceWrite?: (ws: Workspace) => Promise<void>) {
    const real = await realDaemonWorkspace();
    const { ws, dir } = real;
    try {
      await ws.fs.mkdir("/workspace/d", { recursive: true });
      await ws.fs.writeFile("/workspace/d/a", "a");
      expect((await (await ws.runtime.exec("true", { backend: "box" })).result()).exitCode).toBe(0);
      const run = (await ws.runtime.exec(`while [ ! -f go ]; do sleep 0.05; done; ${command}`, { backend: "box", id: "replace" })).result();
      await new Promise((r) => setTimeout(r, 200));
      await workspaceWrite?.(ws);
      fs.writeFileSync(path.join(dir, "go"), "");
      const result = await run;
      expect(result.exitCode).toBe(0);
      const st = await ws.fs.lstat("/workspace/d");
      const inside = st.isDirectory ? (await ws.fs.find("/workspace/d")).map((e) => e.path).sort() : [];
      const a = st.isDirectory ? await ws.fs.readFile("/workspace/d/a", "utf8").catch((e: { code?: string }) => e.code) : undefined;
      return { kind: st.isDirectory ? "directory" : st.isSymbolicLink ? "symlink" : "file", inside, a, skipped: result.sync?.skipped };
    } finally {
      await real.close();
    }
  }

  it("a link over a directory the Workspace added to: kept, reported once", { timeout: 60_000 }, async () => {
    expect(await replace("rm -rf d; ln -s elsewhere d", (ws) => ws.fs.writeFile("/workspace/d/new.txt", "workspace work"))).toEqual({
      kind: "directory",
      inside: ["/workspace/d/new.txt"],
      a: "ENOENT",
      skipped: [{ path: "/workspace/d", op: "write", reason: REPLACED_KEPT }],
    });
  });

  it("a file over a directory whose synced file the Workspace changed: the change kept, reported", { timeout: 60_000 }, async () => {
    expect(await replace("rm -rf d; echo file > d", (ws) => ws.fs.writeFile("/workspace/d/a", "workspace a"))).toEqual({
      kind: "directory",
      inside: ["/workspace/d/a"],
      a: "workspace a",
      skipped: [
        { path: "/workspace/d/a", op: "delete", reason: "changed in the Workspace since the last sync" },
        { path: "/workspace/d", op: "write", reason: REPLACED_KEPT },
      ],
    });
  });

  it("a file over a directory the Workspace left as synced: replaced, nothing skipped", { timeout: 60_000 }, async () => {
    expect(await replace("rm -rf d; echo file > d")).toEqual({ kind: "file", inside: [], a: undefined, skipped: [] });
  });
});
