/**
 * Change tracking (spec 01 §4 item 8): the store revision, node stamps,
 * tombstones and `changesSince` paging, on node:sqlite. Internal API of
 * `WorkspaceFs` (issue 17, the container backend's sync).
 */
import { lstatSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import type { ChangeCursor, ChangeEntry } from "../../../src/fs/changes.js";
import type { WorkspaceFs } from "../../../src/fs/index.js";
import { SCHEMA_VERSION } from "../../../src/fs/schema.js";

type Storage = ReturnType<typeof nodeSqliteStorage>;

const T0 = 1_700_000_000_000;

function open(location = ":memory:"): { storage: Storage; ws: Workspace; fs: WorkspaceFs } {
  const storage = nodeSqliteStorage(location);
  const ws = new Workspace({ storage, now: () => T0 });
  return { storage, ws, fs: ws.fs as unknown as WorkspaceFs };
}

/** Every change after `cursor`, paging with `limit`; checks each page's shape. */
function drain(fs: WorkspaceFs, cursor: ChangeCursor = { rev: 0, path: null }, limit?: number): { entries: ChangeEntry[]; cursor: ChangeCursor; pages: number } {
  const entries: ChangeEntry[] = [];
  let pages = 0;
  for (;;) {
    const page = fs.changesSince(cursor, limit === undefined ? undefined : { limit });
    pages++;
    if (limit !== undefined) expect(page.entries.length).toBeLessThanOrEqual(limit);
    entries.push(...page.entries);
    cursor = page.cursor;
    if (page.done) return { entries, cursor, pages };
    expect(page.entries.length).toBe(limit ?? 1000);
  }
}

async function code(promise: Promise<unknown> | (() => unknown)): Promise<string | undefined> {
  try {
    await (typeof promise === "function" ? promise() : promise);
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
}

function streamOf(...pieces: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  });
}

describe("change tracking: revisions and stamps", () => {
  let storage: Storage;
  let ws: Workspace;
  let fs: WorkspaceFs;
  beforeEach(() => ({ storage, ws, fs } = open()));
  afterEach(async () => {
    await ws.close();
    storage.close();
  });

  /** The changes of exactly the next mutation: its revision is the old one + 1. */
  async function step(mutate: () => Promise<unknown>): Promise<ChangeEntry[]> {
    const before = fs.revision();
    const cursor = drain(fs).cursor;
    expect(cursor).toEqual({ rev: before, path: null });
    await mutate();
    expect(fs.revision()).toBe(before + 1);
    const after = drain(fs, cursor);
    expect(after.cursor).toEqual({ rev: before + 1, path: null });
    for (const entry of after.entries) expect(entry.rev).toBe(before + 1);
    return after.entries;
  }

  it("a new store is at revision 0 with no change", () => {
    expect(fs.revision()).toBe(0);
    expect(fs.changesSince({ rev: 0, path: null })).toEqual({ entries: [], cursor: { rev: 0, path: null }, done: true });
  });

  it("each mutation kind advances the revision once and stamps exactly the nodes it touched", async () => {
    expect(await step(() => fs.writeFile("/a.txt", "hello"))).toEqual([{ path: "/a.txt", kind: "file", rev: 1, mode: 0o644, mtime: T0, size: 5 }]);
    expect(await step(() => fs.writeFile("/a.txt", "hello, world", { mode: 0o600 }))).toEqual([
      { path: "/a.txt", kind: "file", rev: 2, mode: 0o600, mtime: T0 + 1, size: 12 }, // an overwrite on a clock that stood still: + 1 ms
    ]);
    expect(await step(() => fs.mkdir("/d"))).toEqual([{ path: "/d", kind: "directory", rev: 3, mode: 0o755, mtime: T0 }]);
    // Recursive mkdir: one revision for every directory it created, none for the one that existed.
    expect(await step(() => fs.mkdir("/d/e/f/g", { recursive: true, mode: 0o700 }))).toEqual([
      { path: "/d/e", kind: "directory", rev: 4, mode: 0o755, mtime: T0 },
      { path: "/d/e/f", kind: "directory", rev: 4, mode: 0o755, mtime: T0 },
      { path: "/d/e/f/g", kind: "directory", rev: 4, mode: 0o700, mtime: T0 },
    ]);
    expect(await step(() => fs.symlink("../a.txt", "/d/link"))).toEqual([
      { path: "/d/link", kind: "symlink", rev: 5, mode: 0o777, mtime: T0, size: 8, target: "../a.txt" },
    ]);
    expect(await step(() => fs.chmod("/d/link", 0o640))).toEqual([{ path: "/a.txt", kind: "file", rev: 6, mode: 0o640, mtime: T0 + 1, size: 12 }]);
    // A write through a link stamps the file it lands on.
    expect(await step(() => fs.writeFile("/d/link", "via"))).toEqual([{ path: "/a.txt", kind: "file", rev: 7, mode: 0o644, mtime: T0 + 2, size: 3 }]);
    expect(await step(() => fs.rename("/a.txt", "/d/e/b.txt"))).toEqual([
      { path: "/a.txt", kind: "deleted", rev: 8, subtree: false },
      { path: "/d/e/b.txt", kind: "file", rev: 8, mode: 0o644, mtime: T0 + 2, size: 3 },
    ]);
    expect(await step(() => fs.rm("/d/link"))).toEqual([{ path: "/d/link", kind: "deleted", rev: 9, subtree: false }]);
    // A file of several chunks (staged write) and a stream: one revision each.
    const big = new Uint8Array(600 * 1024).fill(7);
    expect(await step(() => fs.writeFile("/d/big.bin", big))).toEqual([
      { path: "/d/big.bin", kind: "file", rev: 10, mode: 0o644, mtime: T0, size: 600 * 1024 },
    ]);
    expect(await step(() => fs.writeFile("/d/s.bin", streamOf(new Uint8Array(3), new Uint8Array(700 * 1024))))).toEqual([
      { path: "/d/s.bin", kind: "file", rev: 11, mode: 0o644, mtime: T0, size: 700 * 1024 + 3 },
    ]);
    // Recursive rm: one tombstone for the whole subtree.
    expect(await step(() => fs.rm("/d", { recursive: true }))).toEqual([{ path: "/d", kind: "deleted", rev: 12, subtree: true }]);
    expect(drain(fs).entries).toEqual([
      { path: "/a.txt", kind: "deleted", rev: 8, subtree: false },
      { path: "/d/link", kind: "deleted", rev: 9, subtree: false },
      { path: "/d", kind: "deleted", rev: 12, subtree: true },
    ]);
  });

  it("mutations that change nothing advance nothing", async () => {
    await fs.mkdir("/d/e", { recursive: true });
    expect(fs.revision()).toBe(1);
    await fs.mkdir("/d/e", { recursive: true });
    await fs.rm("/missing", { force: true });
    await fs.rename("/d", "/d");
    expect(fs.revision()).toBe(1);
    expect(drain(fs, { rev: 1, path: null }).entries).toEqual([]);
  });

  it("a failed mutation advances nothing, and the next one takes the next revision", async () => {
    await fs.mkdir("/d/e", { recursive: true });
    await fs.writeFile("/d/f", "F");
    await fs.mkdir("/full/x", { recursive: true });
    const rev = fs.revision();
    const state = drain(fs);
    const failing: [string, () => Promise<unknown>][] = [
      ["ENOENT", () => fs.writeFile("/nope/f", "x")],
      ["EISDIR", () => fs.writeFile("/d/e", "x")],
      ["EISDIR", () => fs.writeFile("/d/e", new Uint8Array(600 * 1024))],
      ["EEXIST", () => fs.writeFile("/d/f", "x", { exclusive: true })],
      ["EEXIST", () => fs.mkdir("/d")],
      ["ENOENT", () => fs.rename("/nope", "/x")],
      ["EINVAL", () => fs.rename("/d", "/d/e/inside")],
      ["ENOTEMPTY", () => fs.rename("/d", "/full")],
      ["ENOTEMPTY", () => fs.rm("/d")],
      ["EEXIST", () => fs.symlink("x", "/d/f")],
      ["ENOENT", () => fs.chmod("/nope", 0o600)],
    ];
    for (const [expected, run] of failing) expect([expected, await code(run)]).toEqual([expected, expected]);
    // A stream that fails after a chunk was staged.
    const broken = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(512 * 1024));
        controller.error(new Error("source broke"));
      },
    });
    await expect(fs.writeFile("/d/g", broken)).rejects.toThrow("source broke");
    expect(fs.revision()).toBe(rev);
    expect(drain(fs)).toEqual(state);
    await fs.writeFile("/d/f", "G");
    expect(fs.revision()).toBe(rev + 1);
    expect(drain(fs, state.cursor).entries).toEqual([{ path: "/d/f", kind: "file", rev: rev + 1, mode: 0o644, mtime: expect.any(Number), size: 1 }]);
  });

  it("renaming a directory stamps its whole subtree at the new path and leaves one tombstone for the old", async () => {
    await fs.mkdir("/src/b", { recursive: true });
    await fs.writeFile("/src/a", "A");
    await fs.writeFile("/src/b/c", "C");
    await fs.symlink("a", "/src/l");
    await fs.mkdir("/dst");
    const { cursor } = drain(fs);
    await fs.rename("/src", "/dst/moved");
    const rev = cursor.rev + 1;
    expect(drain(fs, cursor).entries.map(({ path, kind, rev, subtree }) => ({ path, kind, rev, ...(subtree === undefined ? {} : { subtree }) }))).toEqual([
      { path: "/dst/moved", kind: "directory", rev },
      { path: "/dst/moved/a", kind: "file", rev },
      { path: "/dst/moved/b", kind: "directory", rev },
      { path: "/dst/moved/b/c", kind: "file", rev },
      { path: "/dst/moved/l", kind: "symlink", rev },
      { path: "/src", kind: "deleted", rev, subtree: true },
    ]);
    // Onto an existing file: the new path's entry replaces it; only the old path is a tombstone.
    await fs.writeFile("/x", "X");
    await fs.writeFile("/y", "Y");
    const mark = drain(fs).cursor;
    await fs.rename("/x", "/y");
    expect(drain(fs, mark).entries).toEqual([
      { path: "/x", kind: "deleted", rev: mark.rev + 1, subtree: false },
      { path: "/y", kind: "file", rev: mark.rev + 1, mode: 0o644, mtime: expect.any(Number), size: 1 },
    ]);
  });

  it("pages with a small limit return every change once, in (rev, path) order, and see later changes", async () => {
    for (let i = 0; i < 9; i++) await fs.mkdir(`/p${i}/q/r`, { recursive: true });
    await fs.rm("/p3", { recursive: true });
    await fs.rename("/p4", "/p0/q/p4");
    const whole = drain(fs).entries;
    expect(whole.length).toBe(26);
    for (const limit of [1, 2, 3, 7, 25, 26, 27]) {
      const paged = drain(fs, undefined, limit);
      expect(paged.entries).toEqual(whole);
      expect(paged.pages).toBe(Math.floor(26 / limit) + 1);
    }
    const order = whole.map((e) => [e.rev, e.path] as const);
    for (let i = 1; i < order.length; i++) expect(order[i][0] > order[i - 1][0] || (order[i][0] === order[i - 1][0] && order[i][1] > order[i - 1][1])).toBe(true);
    // Mutations between pages: a page already read is not repeated, the change comes later.
    const first = fs.changesSince({ rev: 0, path: null }, { limit: 4 });
    expect(first.entries).toEqual(whole.slice(0, 4));
    await fs.chmod("/p0", 0o700);
    const rest = drain(fs, first.cursor, 4).entries;
    const rev = fs.revision();
    expect(rest).toEqual([...whole.slice(4).filter((e) => e.path !== "/p0"), { path: "/p0", kind: "directory", rev, mode: 0o700, mtime: expect.any(Number) }]);
  });

  it("refuses bad cursors and limits with EINVAL", async () => {
    await fs.writeFile("/f", "x");
    const bad: unknown[][] = [
      [null],
      [{ rev: -1, path: null }],
      [{ rev: 1.5, path: null }],
      [{ rev: "1", path: null }],
      [{ rev: 2, path: null }],
      [{ rev: 0, path: "relative" }],
      [{ rev: 0, path: "/a//b" }],
      [{ rev: 0, path: null }, { limit: 0 }],
      [{ rev: 0, path: null }, { limit: 10_001 }],
      [{ rev: 0, path: null }, { limit: 2.5 }],
    ];
    for (const args of bad) {
      expect([args, await code(() => (fs.changesSince as (...a: unknown[]) => unknown)(...args))]).toEqual([args, "EINVAL"]);
    }
    expect(fs.changesSince({ rev: 0, path: "/a" }).entries).toEqual([{ path: "/f", kind: "file", rev: 1, mode: 0o644, mtime: T0, size: 1 }]);
    expect(fs.changesSince({ rev: 1, path: null })).toEqual({ entries: [], cursor: { rev: 1, path: null }, done: true });
  });

  it("prunes tombstones up to a revision and then refuses older cursors", async () => {
    await fs.writeFile("/a", "a");
    await fs.writeFile("/b", "b");
    await fs.rm("/a"); // 3
    await fs.writeFile("/c", "c");
    await fs.rm("/b"); // 5
    expect(await code(() => fs.pruneTombstones(6))).toBe("EINVAL");
    expect(await code(() => fs.pruneTombstones(-1))).toBe("EINVAL");
    expect(fs.pruneTombstones(3)).toBe(1);
    expect(fs.pruneTombstones(3)).toBe(0);
    expect(await code(() => fs.changesSince({ rev: 2, path: null }))).toBe("EINVAL");
    // Starting over (nothing held yet) needs no deletion: revision 0 is never refused.
    expect(drain(fs).entries).toEqual([
      { path: "/c", kind: "file", rev: 4, mode: 0o644, mtime: T0, size: 1 },
      { path: "/b", kind: "deleted", rev: 5, subtree: false },
    ]);
    expect(drain(fs, { rev: 3, path: null }).entries).toEqual([
      { path: "/c", kind: "file", rev: 4, mode: 0o644, mtime: T0, size: 1 },
      { path: "/b", kind: "deleted", rev: 5, subtree: false },
    ]);
    // Pruning never lowers the mark.
    expect(fs.pruneTombstones(1)).toBe(0);
    expect(await code(() => fs.changesSince({ rev: 2, path: null }))).toBe("EINVAL");
    expect(Number(storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM __ws_tombstones").toArray()[0].n)).toBe(1);
  });

  it("leaves read-only mount content out, and keeps the cursor moving past it", async () => {
    await ws.close();
    storage.close();
    storage = nodeSqliteStorage(":memory:");
    ws = new Workspace({
      storage,
      now: () => T0,
      mounts: {
        "/fixtures": {
          kind: "fixtures",
          strategy: "eager",
          mode: "read-only",
          version: "1",
          async materialize(api) {
            await api.mkdir(`${api.root}/sub`);
            await api.writeFile(`${api.root}/sub/hello.txt`, new Blob(["hello\n"]).stream());
          },
        },
      },
    });
    fs = ws.fs as unknown as WorkspaceFs;
    await ws.ready();
    await fs.writeFile("/mine.txt", "mine");
    expect(await fs.readFile("/fixtures/sub/hello.txt", "utf8")).toBe("hello\n");
    const all = drain(fs, undefined, 1);
    expect(all.entries).toEqual([{ path: "/mine.txt", kind: "file", rev: fs.revision(), mode: 0o644, mtime: T0, size: 4 }]);
    expect(all.cursor).toEqual({ rev: fs.revision(), path: null });
  });
});

describe("change tracking across restarts and upgrades", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "ws-changes-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("a cursor taken before a restart gives exactly the later changes", async () => {
    const file = join(dir, "store.db");
    let { storage, ws, fs } = open(file);
    await fs.mkdir("/a/b", { recursive: true });
    await fs.writeFile("/a/b/f", "one");
    const cursor = JSON.parse(JSON.stringify(drain(fs).cursor)) as ChangeCursor;
    expect(cursor).toEqual({ rev: 2, path: null });
    await fs.writeFile("/a/b/f", "two");
    await fs.rename("/a/b", "/a/c");
    await ws.close();
    storage.close();
    ({ storage, ws, fs } = open(file));
    expect(fs.revision()).toBe(4);
    await fs.symlink("c/f", "/a/l");
    expect(drain(fs, cursor).entries).toEqual([
      { path: "/a/b", kind: "deleted", rev: 4, subtree: true },
      { path: "/a/c", kind: "directory", rev: 4, mode: 0o755, mtime: T0 },
      { path: "/a/c/f", kind: "file", rev: 4, mode: 0o644, mtime: T0 + 1, size: 3 },
      { path: "/a/l", kind: "symlink", rev: 5, mode: 0o777, mtime: T0, size: 3, target: "c/f" },
    ]);
    await ws.close();
    storage.close();
  });

  it("a schema-3 store is upgraded: what it holds is revision 1", async () => {
    const file = join(dir, "old.db");
    let { storage, ws, fs } = open(file);
    await fs.mkdir("/a/b", { recursive: true });
    await fs.writeFile("/a/b/f", "one");
    await fs.symlink("/a", "/l");
    await ws.close();
    storage.sql.exec("DROP INDEX __ws_nodes_rev");
    storage.sql.exec("ALTER TABLE __ws_nodes DROP COLUMN rev");
    storage.sql.exec("DROP TABLE __ws_tombstones");
    storage.sql.exec("DELETE FROM __ws_meta WHERE key = 'rev'");
    storage.sql.exec("UPDATE __ws_meta SET value = 3 WHERE key = 'schema'");
    storage.close();
    ({ storage, ws, fs } = open(file));
    expect(Number(storage.sql.exec<{ value: number }>("SELECT value FROM __ws_meta WHERE key = 'schema'").toArray()[0].value)).toBe(SCHEMA_VERSION);
    expect(SCHEMA_VERSION).toBe(4);
    expect(fs.revision()).toBe(1);
    expect(drain(fs).entries.map((e) => [e.path, e.kind, e.rev])).toEqual([
      ["/a", "directory", 1],
      ["/a/b", "directory", 1],
      ["/a/b/f", "file", 1],
      ["/l", "symlink", 1],
    ]);
    await fs.rm("/a", { recursive: true });
    expect(drain(fs, { rev: 1, path: null }).entries).toEqual([{ path: "/a", kind: "deleted", rev: 2, subtree: true }]);
    await ws.close();
    storage.close();
  });
});

// ── differential: replaying the change list onto a real directory ─────────

/** Deterministic generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Snapshot = Record<string, { kind: "file"; mode: number; bytes: string } | { kind: "directory"; mode: number } | { kind: "symlink"; target: string }>;

async function readBytes(fs: WorkspaceFs, path: string): Promise<Uint8Array> {
  const stream = await fs.readFile(path);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function snapshotWorkspace(fs: WorkspaceFs): Promise<Snapshot> {
  const out: Snapshot = {};
  for (const entry of await fs.find("/")) {
    const stat = await fs.lstat(entry.path);
    if (entry.type === "dir") out[entry.path] = { kind: "directory", mode: stat.mode };
    else if (entry.type === "symlink") out[entry.path] = { kind: "symlink", target: await fs.readlink(entry.path) };
    else out[entry.path] = { kind: "file", mode: stat.mode, bytes: Buffer.from(await readBytes(fs, entry.path)).toString("hex") };
  }
  return out;
}

function snapshotDirectory(root: string, out: Snapshot = {}, prefix = ""): Snapshot {
  for (const name of readdirSync(join(root, prefix))) {
    const path = `${prefix}/${name}`;
    const stat = lstatSync(join(root, path));
    if (stat.isSymbolicLink()) out[path] = { kind: "symlink", target: readlinkSync(join(root, path)) };
    else if (stat.isDirectory()) {
      out[path] = { kind: "directory", mode: stat.mode & 0o7777 };
      snapshotDirectory(root, out, path);
    } else out[path] = { kind: "file", mode: stat.mode & 0o7777, bytes: readFileSync(join(root, path)).toString("hex") };
  }
  return out;
}

/** Applies one entry to `root` as a sync consumer would: replace what is there, create missing parents. */
async function apply(fs: WorkspaceFs, root: string, entry: ChangeEntry): Promise<void> {
  if (entry.path === "/") return;
  const real = join(root, entry.path);
  const existing = (() => {
    try {
      return lstatSync(real);
    } catch {
      return undefined;
    }
  })();
  if (entry.kind === "deleted") {
    rmSync(real, { recursive: true, force: true });
    return;
  }
  if (existing && !(entry.kind === "directory" && existing.isDirectory())) rmSync(real, { recursive: true, force: true });
  mkdirSync(join(real, ".."), { recursive: true });
  if (entry.kind === "directory") {
    mkdirSync(real, { recursive: true });
    chmodSync(real, entry.mode!);
  } else if (entry.kind === "symlink") symlinkSync(entry.target!, real);
  else {
    writeFileSync(real, await readBytes(fs, entry.path));
    chmodSync(real, entry.mode!);
  }
}

describe("change tracking: differential against a real directory", () => {
  for (const seed of [1, 2, 3, 4]) {
    it(`seed ${seed}: replaying the changes reproduces the tree byte for byte`, async () => {
      const { storage, ws, fs } = open();
      const root = mkdtempSync(join(tmpdir(), `ws-replay-${seed}-`));
      try {
        const random = rng(seed);
        const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
        const names = ["a", "b", "c d", "é", "x\u0001y"];
        const path = () => "/" + Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(names)).join("/");
        let cursor: ChangeCursor = { rev: 0, path: null };
        for (let step = 0; step < 300; step++) {
          const before = fs.revision();
          const op = random();
          try {
            if (op < 0.3) {
              const size = pick([0, 1, 5, 100, 20_000]);
              const bytes = Uint8Array.from({ length: size }, () => Math.floor(random() * 256));
              await fs.writeFile(path(), random() < 0.2 ? streamOf(bytes) : bytes, { mode: pick([0o644, 0o600, 0o755]) });
            } else if (op < 0.5) await fs.mkdir(path(), { recursive: random() < 0.7, mode: pick([0o755, 0o700]) });
            else if (op < 0.6) await fs.rm(path(), { recursive: random() < 0.7, force: random() < 0.5 });
            else if (op < 0.75) await fs.rename(path(), path());
            else if (op < 0.85) await fs.symlink(pick(["a", "../b", "/c d/é", "nowhere"]), path());
            else {
              const target = path();
              if ((await fs.lstat(target)).isFile) await fs.chmod(target, pick([0o600, 0o644, 0o755]));
            }
          } catch (error) {
            expect((error as { code?: string }).code).toMatch(/^E[A-Z]+$/);
            expect(fs.revision()).toBe(before);
          }
          expect(fs.revision() - before).toBeLessThanOrEqual(1);
          if (random() < 0.1 || step === 299) {
            const { entries, cursor: next } = drain(fs, cursor, pick([1, 3, 50, undefined]));
            for (const entry of entries) await apply(fs, root, entry);
            cursor = next;
            expect(snapshotDirectory(root)).toEqual(await snapshotWorkspace(fs));
          }
        }
        expect(cursor.rev).toBe(fs.revision());
        expect(cursor.rev).toBeGreaterThan(50);
      } finally {
        await ws.close();
        storage.close();
        rmSync(root, { recursive: true, force: true });
      }
    });
  }
});
