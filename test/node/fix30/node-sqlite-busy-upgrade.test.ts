/**
 * Issue 20, run 30, fixer NB: nodeSqliteStorage's transactions take the write lock at `BEGIN IMMEDIATE` (siblings
 * of attack30a/node-sqlite-workspace-write-no-busy-wait). Every Workspace operation that reads before it writes
 * (rename, copyFile, symlink, truncate, a streamed write, the edit tool, chmod, mkdir -p, rm -r) waits for another
 * process's short write lock and succeeds; past `busyTimeoutMs` each rejects `EBUSY` after waiting it out, with the
 * database file's bytes unchanged, and works once the lock is released; six processes writing one fresh file all
 * succeed; an EBUSY SQLite raises without waiting says so; a transaction costs the same statements as before.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSync } from "esbuild";
import { afterEach, beforeEach, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { buildCoreTools } from "../../../src/tools/core/toolset.js";

let dir: string;
let file: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "fix30-nb-"));
  file = join(dir, "w.db");
});
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Another process that takes the write lock of `file` (BEGIN IMMEDIATE, one insert into `t`) and commits after
 * `holdMs`, or, with `holdMs` undefined, once `release()` is called. Resolves once it holds the lock.
 */
async function lockHolder(holdMs?: number): Promise<{ release(): Promise<number | null> }> {
  const script = `
    const { DatabaseSync } = require("node:sqlite");
    const { readSync } = require("node:fs");
    const db = new DatabaseSync(process.argv[1]);
    db.exec("BEGIN IMMEDIATE");
    db.exec("INSERT INTO t VALUES (100)");
    process.stdout.write("locked\\n");
    if (process.argv[2] === "stdin") readSync(0, Buffer.alloc(1));
    else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(process.argv[2]));
    db.exec("COMMIT");
    db.close();
  `;
  const child = spawn(process.execPath, ["--no-warnings", "-e", script, file, holdMs === undefined ? "stdin" : String(holdMs)], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  children.push(child);
  const done = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => (chunk.toString().includes("locked") ? resolve() : undefined));
    child.on("exit", () => reject(new Error("the lock holder exited early")));
  });
  return {
    release() {
      if (holdMs === undefined) child.stdin!.end("\n");
      return done;
    },
  };
}

type Tool = { name: string; execute(input: unknown): Promise<Record<string, unknown>> };

/** A Workspace on `file` with files for every operation below, its provider, its edit tool, and `t`. */
async function prepared(busyTimeoutMs?: number) {
  const storage = nodeSqliteStorage(file, busyTimeoutMs === undefined ? {} : { busyTimeoutMs });
  const workspace = new Workspace({ storage });
  const fs = workspace.fs;
  await fs.writeFile("/a.txt", "one");
  await fs.writeFile("/c.txt", "copy me");
  await fs.writeFile("/t.txt", "truncate me");
  await fs.mkdir("/dir/sub", { recursive: true });
  await fs.writeFile("/dir/sub/f", "f");
  await fs.mkdir("/workspace");
  await fs.writeFile("/workspace/e.txt", "alpha\nbeta\n");
  storage.sql.exec("CREATE TABLE t (v INTEGER)");
  const provider = workspace.provider();
  const tools = buildCoreTools({ workspace }) as unknown as Tool[];
  const read = tools.find((t) => t.name === "read")!;
  const edit = tools.find((t) => t.name === "edit")!;
  await read.execute({ path: "/workspace/e.txt" });
  const stream = () =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 3; i++) controller.enqueue(new Uint8Array(100_000).fill(97 + i));
        controller.close();
      },
    });
  const ops: [string, () => Promise<unknown>][] = [
    ["rename", () => fs.rename("/a.txt", "/a2.txt")],
    ["copyFile", () => provider.copyFile("/c.txt", "/c2.txt")],
    ["symlink", () => fs.symlink("/c.txt", "/l")],
    ["truncate", () => provider.truncate("/t.txt", 4)],
    ["stream write", () => fs.writeFile("/s.bin", stream())],
    [
      "edit",
      async () => {
        const result = await edit.execute({ path: "/workspace/e.txt", oldText: "beta", newText: "gamma" });
        if (result.error !== undefined) throw Object.assign(new Error(String(result.error)), { code: /EBUSY/.test(String(result.error)) ? "EBUSY" : "edit" });
      },
    ],
    ["chmod", () => fs.chmod("/c.txt", 0o600)],
    ["utimes", () => provider.utimes("/c.txt", new Date(), new Date())],
    ["mkdir -p", () => fs.mkdir("/p/q/r", { recursive: true })],
    ["rm -r", () => fs.rm("/dir", { recursive: true })],
  ];
  /** The tree: every path, its kind, mode and content (a file's first and last byte and size; a link's target). */
  const tree = async () => {
    const out: string[] = [];
    for (const entry of await fs.find("/")) {
      const st = await fs.lstat(entry.path);
      const type = st.isSymbolicLink ? "symlink" : st.isDirectory ? "directory" : "file";
      let what = "";
      if (type === "file") {
        const text = await fs.readFile(entry.path, "utf8");
        what = text.length > 20 ? `${text[0]}…${text[text.length - 1]} ${text.length}` : JSON.stringify(text);
      } else if (type === "symlink") what = `-> ${await fs.readlink(entry.path)}`;
      out.push(`${entry.path} ${type} ${st.mode.toString(8)} ${what}`.trimEnd());
    }
    return out.sort();
  };
  return { storage, workspace, ops, tree };
}

const AFTER_ALL_OPS = [
  "/a2.txt file 644 \"one\"",
  "/c.txt file 600 \"copy me\"",
  "/c2.txt file 644 \"copy me\"",
  "/l symlink 777 -> /c.txt",
  "/p directory 755",
  "/p/q directory 755",
  "/p/q/r directory 755",
  "/s.bin file 644 a…c 300000",
  "/t.txt file 644 \"trun\"",
  "/workspace directory 755",
  "/workspace/e.txt file 644 \"alpha\\ngamma\\n\"",
];

it("every Workspace operation that reads before it writes waits for another process's 400 ms write lock, then succeeds", async () => {
  const { storage, ops, tree } = await prepared();
  const outcome: Record<string, string> = {};
  for (const [name, op] of ops) {
    const holder = await lockHolder(400);
    const started = Date.now();
    outcome[name] = await op().then(
      () => "done",
      (e: Error & { code?: string }) => `${e.code}: ${e.message}`,
    );
    // utimes only reads (it leaves mtime): a read never waits for another connection's write lock.
    if (name !== "utimes" && outcome[name] === "done" && Date.now() - started < 150) outcome[name] = "done without waiting";
    expect(await holder.release()).toBe(0);
  }
  const after = await tree();
  const rows = storage.sql.exec<{ v: number }>("SELECT count(*) AS v FROM t").toArray()[0].v;
  storage.close();
  expect(outcome).toEqual(Object.fromEntries(ops.map(([name]) => [name, "done"])));
  expect(after).toEqual(AFTER_ALL_OPS);
  expect(rows).toBe(ops.length);
}, 60_000);

it("past busyTimeoutMs each rejects EBUSY after waiting it out, the file's bytes unchanged, and succeeds once the lock is gone", async () => {
  const { storage, ops, tree } = await prepared(300);
  const before = await tree();
  const holder = await lockHolder();
  const outcome: Record<string, string> = {};
  const provided: Record<string, unknown> = {};
  const busy = "EBUSY: database is locked: another connection to the database file held its lock for busyTimeoutMs (300 ms); try again, or raise nodeSqliteStorage's busyTimeoutMs";
  for (const [name, op] of ops) {
    const bytes = readFileSync(file);
    const started = Date.now();
    const result = await op().then(
      () => "done",
      (e: Error & { code?: string; errno?: number; cause?: Error }) => {
        // The provider's node:fs-style error says it as node:fs does; the storage's error is its cause.
        if (e.cause !== undefined) provided[name] = { message: e.message, errno: e.errno, cause: e.cause.message };
        return e.code === "EBUSY" && (e.cause ?? e).message.includes(busy) ? "EBUSY" : `${e.code}: ${e.message}`;
      },
    );
    const waited = Date.now() - started;
    const unchanged = readFileSync(file).equals(bytes);
    outcome[name] = `${result}${result === "EBUSY" && (waited < 290 || waited > 3000) ? ` after ${waited} ms` : ""}${unchanged ? "" : ", file changed"}`;
  }
  const during = await tree();
  expect(await holder.release()).toBe(0);
  // utimes only reads: it succeeds under the lock.
  expect(outcome).toEqual(Object.fromEntries(ops.map(([name]) => [name, name === "utimes" ? "done" : "EBUSY"])));
  expect(during).toEqual(before);
  expect(provided).toEqual({
    copyFile: { message: "EBUSY: resource busy or locked, copyfile '/c2.txt'", errno: -16, cause: busy },
    truncate: { message: "EBUSY: resource busy or locked, write '/t.txt'", errno: -16, cause: busy },
  });
  for (const [name, op] of ops) await op().catch((e: Error) => expect.unreachable(`${name}: ${e.message}`));
  const after = await tree();
  const rows = storage.sql.exec<{ v: number }>("SELECT v FROM t").toArray().map((r) => r.v);
  storage.close();
  expect({ after, rows }).toEqual({ after: AFTER_ALL_OPS, rows: [100] });
}, 60_000);

it("six processes doing mkdir -p, reads-then-writes and 20 writes each on one fresh file all succeed", async () => {
  const bundle = join(dir, "ws.mjs");
  buildSync({ entryPoints: [join(import.meta.dirname, "../../../src/index.ts")], bundle: true, platform: "node", format: "esm", outfile: bundle, external: ["cloudflare:*"], logLevel: "error" });
  const worker = join(dir, "worker.mjs");
  writeFileSync(
    worker,
    `const { Workspace, nodeSqliteStorage } = await import(${JSON.stringify(bundle)});
     const id = process.argv[2];
     const storage = nodeSqliteStorage(${JSON.stringify(file)});
     const ws = new Workspace({ storage });
     try {
       await ws.fs.mkdir("/shared/deep", { recursive: true });
       for (let j = 0; j < 20; j++) await ws.fs.writeFile("/shared/deep/p" + id + "-" + j + ".txt", id + ":" + j);
       await ws.fs.mkdir("/shared/tmp" + id);
       await ws.fs.rename("/shared/deep/p" + id + "-0.txt", "/shared/tmp" + id + "/moved.txt");
       await ws.fs.rm("/shared/deep/p" + id + "-1.txt");
       await ws.fs.rm("/shared/tmp" + id, { recursive: true });
       process.stdout.write("ok");
     } catch (e) {
       process.stdout.write(e.code + ": " + e.message);
     }
     storage.close();`,
  );
  const runs = Array.from({ length: 6 }, (_, id) => {
    const child = spawn(process.execPath, ["--no-warnings", worker, String(id)], { stdio: ["ignore", "pipe", "inherit"] });
    children.push(child);
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
    return new Promise<string>((resolve) => child.on("exit", (code) => resolve(`${code} ${out}`)));
  });
  const results = await Promise.all(runs);
  const storage = nodeSqliteStorage(file);
  const workspace = new Workspace({ storage });
  const names = (await workspace.fs.readdir("/shared/deep")).map((e) => e.name);
  const top = (await workspace.fs.readdir("/shared")).map((e) => e.name);
  const sample = await workspace.fs.readFile("/shared/deep/p5-19.txt", "utf8");
  storage.close();
  expect(results).toEqual(Array(6).fill("0 ok"));
  expect({ files: names.length, top, sample }).toEqual({ files: 6 * 18, top: ["deep"], sample: "5:19" });
}, 120_000);

it("an EBUSY SQLite raises without waiting (a deferred transaction's upgrade) says after how long, not that busyTimeoutMs passed", async () => {
  const storage = nodeSqliteStorage(file);
  storage.sql.exec("CREATE TABLE t (v INTEGER)");
  // The caller's own deferred transaction: it reads (a shared lock), then another process takes the write lock.
  storage.database.exec("BEGIN");
  storage.sql.exec("SELECT count(*) FROM t");
  const holder = await lockHolder();
  let refused: { code?: string; errcode?: number; message: string } = { message: "written" };
  try {
    storage.sql.exec("INSERT INTO t VALUES (1)");
  } catch (error) {
    const e = error as Error & { code?: string; errcode?: number };
    refused = { code: e.code, errcode: e.errcode, message: e.message.replace(/after \d+ ms/, "after N ms") };
  }
  storage.database.exec("ROLLBACK");
  expect(await holder.release()).toBe(0);
  const rows = storage.sql.exec<{ v: number }>("SELECT v FROM t").toArray().map((r) => r.v);
  storage.close();
  expect({ refused, rows }).toEqual({
    refused: {
      code: "EBUSY",
      errcode: 5,
      message:
        "EBUSY: database is locked: another connection to the database file holds its lock; SQLite refused after N ms without waiting out busyTimeoutMs (5000 ms); try again, or raise nodeSqliteStorage's busyTimeoutMs",
    },
    rows: [100],
  });
}, 20_000);

it("a transaction costs the statements it did (BEGIN IMMEDIATE for BEGIN), savepoints unchanged", () => {
  const log: string[] = [];
  const database = {
    prepare(sql: string) {
      log.push(`prepare ${sql}`);
      return { all: () => [], run: () => ({ changes: 1 }), columns: () => [] };
    },
    exec(sql: string) {
      log.push(sql);
    },
    close() {},
  };
  const storage = nodeSqliteStorage(database);
  storage.transactionSync(() => {
    storage.sql.exec("INSERT INTO x VALUES (1)");
    storage.transactionSync(() => storage.sql.exec("INSERT INTO x VALUES (2)"));
  });
  storage.transactionSync(() => storage.sql.exec("INSERT INTO x VALUES (1)"));
  storage.sql.exec("INSERT INTO x VALUES (3)");
  expect(log).toEqual([
    "BEGIN IMMEDIATE",
    "prepare INSERT INTO x VALUES (1)",
    "SAVEPOINT ws_sp_1",
    "prepare INSERT INTO x VALUES (2)",
    "RELEASE ws_sp_1",
    "COMMIT",
    "BEGIN IMMEDIATE",
    "COMMIT",
    "prepare INSERT INTO x VALUES (3)",
  ]);
});
