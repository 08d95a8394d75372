/**
 * fix22 (FCH), issue 20 run 22 finding c1, siblings: "a command's pull is owed" (`__ws_sync_state.pull_owed`) is kept
 * apart from the last error text. A failed `workspace.pull()` after a command's failed pull does not clear it; the
 * owed pull of a failed or deferred pull is taken first only by a push with anything to send (deferred commands that
 * leave nothing to send walk nothing); a pull that completes clears it; a state table of an earlier version (no
 * column) keeps an interrupted command's mark. Real daemon in process (attack18c/real-daemon.ts); `scan` is counted,
 * and made to fail (ETIMEDOUT, as REMOTE_SYNC_CALL_TIMEOUT_MS makes it) where a step says so.
 */
import fs from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { RemoteSync, COMMAND_SENT } from "../../../src/runtime/sync.js";
import { realDaemonWorkspace, workspaceOver, wrapDaemon } from "../attack18c/real-daemon.js";

async function counted() {
  const real = await realDaemonWorkspace();
  await real.ws.close();
  const control = { fail: 0, scans: 0 };
  const scan = (real.daemon as unknown as { scan: (i: unknown) => Promise<{ done: boolean }> }).scan.bind(real.daemon);
  const daemon = wrapDaemon(real.daemon, {
    scan: async (input: never) => {
      if (control.fail > 0) {
        control.fail--;
        throw Object.assign(new Error("ETIMEDOUT: the container's daemon did not answer scan within 10000 ms"), { code: "ETIMEDOUT" });
      }
      const page = await scan(input);
      if (page.done) control.scans++; // walks completed
      return page;
    },
  });
  const ws = await workspaceOver(daemon);
  const run = async (command: string, defer = false) => (await ws.runtime.exec(command, { backend: "box", encoding: "utf8", ...(defer ? { sync: "defer" as const } : {}) })).result();
  const mark = () => ws.db.one<{ pending: number; owed: number }>(`SELECT pull_pending AS pending, pull_owed AS owed FROM __ws_sync_state WHERE backend = 'box'`);
  const close = async () => {
    await ws.close();
    fs.rmSync(real.dir, { recursive: true, force: true });
    fs.rmSync(path.join(path.dirname(real.dir), `.${path.basename(real.dir)}.computerd-disk`), { force: true });
  };
  return { ws, dir: real.dir, control, run, mark, close };
}

describe("fix22: a command's owed pull survives failed and deferred pulls", () => {
  it("a failed workspace.pull() after the command's failed pull keeps it owed: the next push pulls first", { timeout: 60_000 }, async () => {
    const { ws, dir, control, run, mark, close } = await counted();
    try {
      await ws.fs.writeFile("/workspace/f.txt", "v1\n");
      expect((await run("true")).sync?.status).toBe("complete");
      control.fail = 2; // the command's pull, then workspace.pull()
      const handle = await ws.runtime.exec("sleep 1; echo 'container edit' > f.txt", { backend: "box" });
      await ws.fs.writeFile("/workspace/f.txt", "workspace edit\n");
      expect((await handle.result()).sync?.status).toBe("pending");
      const progress = [];
      for await (const p of ws.pull("box")) progress.push([p.complete, p.error]);
      expect(progress).toEqual([[false, "ETIMEDOUT: the container's daemon did not answer scan within 10000 ms"]]);
      expect(mark()).toEqual({ pending: 1, owed: 1 });
      const next = await run("cat f.txt");
      expect([next.stdout, next.sync?.status]).toEqual(["container edit\n", "complete"]);
      expect(await ws.fs.readFile("/workspace/f.txt", "utf8")).toBe("container edit\n");
      expect(fs.readFileSync(path.join(dir, "f.txt"), "utf8")).toBe("container edit\n");
      expect(mark()).toEqual({ pending: 0, owed: 0 });
    } finally {
      await close();
    }
  });

  it("deferred commands that leave the push nothing to send walk nothing before it; a completed pull clears the mark", { timeout: 60_000 }, async () => {
    const { ws, control, run, mark, close } = await counted();
    try {
      expect((await run("true")).sync?.status).toBe("complete");
      const before = control.scans;
      for (const n of [1, 2, 3]) expect((await run(`echo ${n} > f${n}.txt`, true)).sync?.status).toBe("pending");
      expect(control.scans - before).toBe(0);
      expect(mark()).toEqual({ pending: 1, owed: 1 });
      const progress = [];
      for await (const p of ws.pull("box")) progress.push([p.complete, p.entries]);
      expect(progress).toEqual([[true, 3]]);
      expect(control.scans - before).toBe(1);
      expect(mark()).toEqual({ pending: 0, owed: 0 });
      expect(await ws.fs.readFile("/workspace/f3.txt", "utf8")).toBe("3\n");
    } finally {
      await close();
    }
  });

  it("a deferred command, then a Workspace write: the next push pulls first (one walk), then sends", { timeout: 60_000 }, async () => {
    const { ws, dir, control, run, close } = await counted();
    try {
      await ws.fs.writeFile("/workspace/f.txt", "v1\n");
      expect((await run("true")).sync?.status).toBe("complete");
      expect((await run("echo 'container edit' > f.txt", true)).sync?.status).toBe("pending");
      await ws.fs.writeFile("/workspace/g.txt", "g\n"); // another path: it has something to send
      const before = control.scans;
      const next = await run("cat f.txt g.txt");
      expect([next.stdout, next.pushed]).toEqual(["container edit\ng\n", 1]);
      expect(control.scans - before).toBe(2); // the pull first, and the command's own
      expect(await ws.fs.readFile("/workspace/f.txt", "utf8")).toBe("container edit\n");
      expect(fs.readFileSync(path.join(dir, "f.txt"), "utf8")).toBe("container edit\n");
    } finally {
      await close();
    }
  });
});

describe("fix22: a state table of an earlier version", () => {
  it("gets pull_owed, set where the error text was COMMAND_SENT", () => {
    const db = new DatabaseSync(":memory:");
    db.exec(`CREATE TABLE __ws_sync_state (backend TEXT PRIMARY KEY, boot TEXT, pushed_rev INTEGER NOT NULL DEFAULT 0, pushed_path TEXT,
      pull_pending INTEGER NOT NULL DEFAULT 0, pull_error TEXT)`);
    db.prepare(`INSERT INTO __ws_sync_state (backend, pull_pending, pull_error) VALUES (?, ?, ?)`).run("a", 1, COMMAND_SENT);
    db.prepare(`INSERT INTO __ws_sync_state (backend, pull_pending, pull_error) VALUES (?, ?, ?)`).run("b", 1, "ETIMEDOUT: …");
    db.prepare(`INSERT INTO __ws_sync_state (backend, pull_pending, pull_error) VALUES (?, ?, ?)`).run("c", 0, null);
    const wrapped = {
      run: (sql: string, ...args: unknown[]) => void db.prepare(sql).run(...(args as never[])),
      all: (sql: string, ...args: unknown[]) => db.prepare(sql).all(...(args as never[])),
      one: (sql: string, ...args: unknown[]) => db.prepare(sql).get(...(args as never[])),
      tx: <T>(fn: () => T) => fn(),
    };
    RemoteSync.createTables(wrapped as never);
    RemoteSync.createTables(wrapped as never); // idempotent
    expect(db.prepare(`SELECT backend, pull_owed FROM __ws_sync_state ORDER BY backend`).all().map((r) => ({ ...r }))).toEqual([
      { backend: "a", pull_owed: 1 },
      { backend: "b", pull_owed: 0 },
      { backend: "c", pull_owed: 0 },
    ]);
  });
});
