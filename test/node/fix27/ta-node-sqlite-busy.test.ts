/**
 * Issue 20, run 27, fixer TA: nodeSqliteStorage and a second connection to its file (siblings of
 * attack27a/node-sqlite-failed-commit-breaks-nesting). A lock another connection holds is waited for up to
 * `busyTimeoutMs` (default 5,000 ms, SQLite's busy_timeout), then refused `EBUSY`; a refused write or COMMIT leaves
 * nothing stored and the storage's transactions (nested ones included) keep working.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterEach, beforeEach, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { DEFAULT_BUSY_TIMEOUT_MS } from "../../../src/storage/node-sqlite.js";

let dir: string;
let file: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "fix27-ta-"));
  file = join(dir, "w.db");
});
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Another process that takes the write lock of `file` (BEGIN IMMEDIATE, one insert), holds it `holdMs`, then
 * commits. Resolves once it holds the lock; `done` resolves when it has committed and exited.
 */
async function lockHolder(holdMs: number): Promise<{ done: Promise<number | null> }> {
  const script = `
    const { DatabaseSync } = require("node:sqlite");
    const db = new DatabaseSync(process.argv[1]);
    db.exec("BEGIN IMMEDIATE");
    db.exec("INSERT INTO t VALUES (100)");
    process.stdout.write("locked\\n");
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(process.argv[2]));
    db.exec("COMMIT");
    db.close();
  `;
  const child = spawn(process.execPath, ["-e", script, file, String(holdMs)], { stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  const done = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => (chunk.toString().includes("locked") ? resolve() : undefined));
    child.on("exit", () => reject(new Error("the lock holder exited early")));
  });
  return { done };
}

it("sets a 5,000 ms busy timeout on a file it opens; a DatabaseSync passed in keeps its own unless given", () => {
  const opened = nodeSqliteStorage(file);
  const passed = new DatabaseSync(file);
  const kept = nodeSqliteStorage(passed as never);
  const other = new DatabaseSync(file);
  const given = nodeSqliteStorage(other as never, { busyTimeoutMs: 250 });
  const timeout = (s: ReturnType<typeof nodeSqliteStorage>) => s.sql.exec<{ timeout: number }>("PRAGMA busy_timeout").toArray()[0].timeout;
  const out = { DEFAULT_BUSY_TIMEOUT_MS, opened: timeout(opened), kept: timeout(kept), given: timeout(given) };
  for (const s of [opened, kept, given]) s.close();
  expect(out).toEqual({ DEFAULT_BUSY_TIMEOUT_MS: 5000, opened: 5000, kept: 0, given: 250 });
  const bad = [-1, 1.5, Number.NaN, 2 ** 31, "10" as never].map((v) => {
    try {
      nodeSqliteStorage(":memory:", { busyTimeoutMs: v }).close();
      return "opened";
    } catch (error) {
      return `${(error as Error).name}: ${(error as Error).message}`;
    }
  });
  expect(bad).toEqual([
    "RangeError: nodeSqliteStorage: busyTimeoutMs must be a whole number of ms from 0 to 2147483647, got -1",
    "RangeError: nodeSqliteStorage: busyTimeoutMs must be a whole number of ms from 0 to 2147483647, got 1.5",
    "RangeError: nodeSqliteStorage: busyTimeoutMs must be a whole number of ms from 0 to 2147483647, got NaN",
    "RangeError: nodeSqliteStorage: busyTimeoutMs must be a whole number of ms from 0 to 2147483647, got 2147483648",
    "RangeError: nodeSqliteStorage: busyTimeoutMs must be a whole number of ms from 0 to 2147483647, got 10",
  ]);
});

it("waits for another process's write lock, then writes", async () => {
  const storage = nodeSqliteStorage(file);
  storage.sql.exec("CREATE TABLE t (v INTEGER)");
  const holder = await lockHolder(400);
  const started = Date.now();
  // Synchronous: blocks this thread in SQLite's busy handler until the other process commits.
  storage.transactionSync(() => storage.sql.exec("INSERT INTO t VALUES (1)"));
  const waited = Date.now() - started;
  expect(await holder.done).toBe(0);
  const rows = storage.sql.exec<{ v: number }>("SELECT v FROM t ORDER BY v").toArray().map((r) => r.v);
  storage.close();
  expect({ rows, waitedEnough: waited >= 200, withinTimeout: waited < DEFAULT_BUSY_TIMEOUT_MS }).toEqual({ rows: [1, 100], waitedEnough: true, withinTimeout: true });
}, 20_000);

it("refuses EBUSY past busyTimeoutMs, stores nothing of the refused transaction, and nests afterwards", async () => {
  const storage = nodeSqliteStorage(file, { busyTimeoutMs: 150 });
  storage.sql.exec("CREATE TABLE t (v INTEGER)");
  const holder = await lockHolder(1500);
  const attempt = (fn: () => void) => {
    try {
      fn();
      return "stored";
    } catch (error) {
      const e = error as Error & { code?: string; errcode?: number };
      return { code: e.code, errcode: e.errcode, message: e.message };
    }
  };
  const refused = {
    write: attempt(() => storage.sql.exec("INSERT INTO t VALUES (1)")),
    transaction: attempt(() => storage.transactionSync(() => storage.sql.exec("INSERT INTO t VALUES (2)"))),
    nested: attempt(() => storage.transactionSync(() => storage.transactionSync(() => storage.sql.exec("INSERT INTO t VALUES (3)")))),
  };
  const busy = {
    code: "EBUSY",
    errcode: 5,
    message: "EBUSY: database is locked: another connection to the database file held its lock for busyTimeoutMs (150 ms); try again, or raise nodeSqliteStorage's busyTimeoutMs",
  };
  expect(refused).toEqual({ write: busy, transaction: busy, nested: busy });
  expect(await holder.done).toBe(0);
  storage.transactionSync(() => {
    storage.sql.exec("INSERT INTO t VALUES (4)");
    storage.transactionSync(() => storage.sql.exec("INSERT INTO t VALUES (5)"));
  });
  const rows = storage.sql.exec<{ v: number }>("SELECT v FROM t ORDER BY v").toArray().map((r) => r.v);
  storage.close();
  expect(rows).toEqual([4, 5, 100]);
}, 20_000);

it("a Workspace's write rejects EBUSY while another process holds the file, and works once it is released", async () => {
  const storage = nodeSqliteStorage(file, { busyTimeoutMs: 150 });
  const workspace = new Workspace({ storage });
  await workspace.fs.writeFile("/a.txt", "one");
  storage.sql.exec("CREATE TABLE t (v INTEGER)");
  const holder = await lockHolder(1500);
  const refused = await workspace.fs.writeFile("/b.txt", "two").then(
    () => "written",
    (e: Error & { code?: string }) => e.code,
  );
  expect(refused).toBe("EBUSY");
  expect(await holder.done).toBe(0);
  await workspace.fs.writeFile("/b.txt", "two");
  const out = { a: await workspace.fs.readFile("/a.txt", "utf8"), b: await workspace.fs.readFile("/b.txt", "utf8"), list: (await workspace.fs.readdir("/")).map((e) => e.name) };
  storage.close();
  expect(out).toEqual({ a: "one", b: "two", list: ["a.txt", "b.txt"] });
}, 20_000);
