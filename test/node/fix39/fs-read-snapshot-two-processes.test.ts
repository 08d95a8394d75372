/**
 * Issue 20, run 39, fixer RR — sibling of test/node/attack39f/utf8-read-races-another-process.test.ts.
 * Every read of a file on `nodeSqliteStorage(file)` returns one whole version of it when another process (a real
 * second process with its own Workspace on the same file) replaces the file in the middle of the read: the result
 * is exactly what the same read returns on a quiet store holding the old content, or exactly what it returns on the
 * new one — never a mix, never `""` for a file that was never empty, never a false `EIO`.
 * The interleaving is forced, at every point: a dry run counts the statements the read runs on this storage; then,
 * for each k, a fresh database holding the old version runs the read with the other process writing the new version
 * right before the read's k-th statement (or, when that statement is inside one of the reader's own write
 * transactions — where the other process would wait for the reader's lock — right after that transaction). Each
 * read's result is compared with the references: the same read of a quiet in-memory store holding each version.
 * Reads: `readFile` as UTF-8 text and as bytes (a drained stream), whole and as a window inside one chunk, of files
 * inline (≤ 16 KiB), of one chunk (16–512 KiB) and of several chunks (600 KiB, 1.5 MiB); replacements shorter,
 * longer, and of the same size; `grep` of one file and of a directory (small files with their bytes from the walk, a
 * one-chunk file, a three-chunk file); the tool set's `read` and `grep` tools.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { buildSync } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage, type NodeSqliteStorage } from "../../../src/index.js";
import { grepDefinition } from "../../../src/tools/core/grep.js";
import { readDefinition } from "../../../src/tools/core/read.js";
import { WorkspaceFileStore } from "../../../src/tools/core/store.js";

const KiB = 1024;

/**
 * A file's content: lines of `fill` × 20, a space and the line number, cut to `size` bytes (the same function runs
 * in the other process). Every 1,000th line ends in `000`, so a grep for `^[ab]+ \d*000$` matches across every chunk.
 */
const CONTENT = `function content(fill, size) {
  const lines = [];
  let length = 0;
  for (let i = 1; length < size; i++) {
    const line = fill.repeat(20) + " " + i + "\\n";
    lines.push(line);
    length += line.length;
  }
  return lines.join("").slice(0, size);
}`;
const content = new Function(`${CONTENT}; return content;`)() as (fill: string, size: number) => string;

let scratch: string;
let child: string;

beforeAll(() => {
  mkdirSync("/tmp/fix39rr", { recursive: true });
  scratch = mkdtempSync(join("/tmp/fix39rr", "snapshot-"));
  child = join(scratch, "child.mjs");
  buildSync({
    stdin: {
      contents: `import { Workspace, nodeSqliteStorage } from "./index.js";
        ${CONTENT}
        const [file, path, fill, size] = process.argv.slice(2);
        const storage = nodeSqliteStorage(file);
        const workspace = new Workspace({ storage });
        await workspace.fs.writeFile(path, content(fill, Number(size)));
        await workspace.close();
        storage.close();`,
      resolveDir: join(import.meta.dirname, "../../../src"),
      loader: "ts",
      sourcefile: "child.ts",
    },
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: child,
    external: ["cloudflare:*"],
    logLevel: "error",
  });
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The other process replaces `path` in database `file` with `content(fill, size)`, synchronously. */
function otherProcessWrites(file: string, path: string, fill: string, size: number): void {
  const result = spawnSync(process.execPath, ["--no-warnings", child, file, path, fill, String(size)], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`child failed: ${result.stderr}`);
}

/**
 * Counts the statements `storage` runs from now on; with `at`, runs `action` once right before the `at`-th of them
 * (1-based), or right after the reader's own transaction when that statement is inside one.
 */
function instrument(storage: NodeSqliteStorage, at?: number, action?: () => void): { count: () => number; ran: () => boolean } {
  const exec = storage.sql.exec.bind(storage.sql);
  const transactionSync = storage.transactionSync.bind(storage);
  let count = 0;
  let depth = 0;
  let due = false;
  let ran = false;
  const fire = () => {
    if (ran) return;
    ran = true;
    action!();
  };
  (storage.sql as { exec: typeof exec }).exec = (query: string, ...bindings: unknown[]) => {
    count++;
    if (at !== undefined && count === at) {
      if (depth > 0) due = true;
      else fire();
    }
    return exec(query, ...(bindings as never[]));
  };
  (storage as { transactionSync: typeof transactionSync }).transactionSync = <T>(closure: () => T): T => {
    depth++;
    try {
      return transactionSync(closure);
    } finally {
      depth--;
      if (depth === 0 && due) fire();
    }
  };
  return { count: () => count, ran: () => ran };
}

/** The files of a case: `path` is the one replaced; `others` stay. */
interface Files {
  path: string;
  old: [fill: string, size: number];
  next: [fill: string, size: number];
  others?: Record<string, [fill: string, size: number]>;
}

type Read = (workspace: Workspace) => Promise<unknown>;

async function seed(workspace: Workspace, files: Files, version: [string, number]): Promise<void> {
  for (const [path, [fill, size]] of Object.entries({ ...files.others, [files.path]: version })) {
    const dir = path.slice(0, path.lastIndexOf("/"));
    if (dir) await workspace.fs.mkdir(dir, { recursive: true });
    await workspace.fs.writeFile(path, content(fill, size));
  }
}

/** What `read` gives on a quiet in-memory store holding `version` of the file. */
async function reference(files: Files, version: [string, number], read: Read): Promise<unknown> {
  const storage = nodeSqliteStorage(":memory:");
  const workspace = new Workspace({ storage });
  try {
    await seed(workspace, files, version);
    return await outcome(read(workspace));
  } finally {
    await workspace.close();
    storage.close();
  }
}

/** A read's result, or its error as `code: message` (what the comparison sees). */
async function outcome(result: Promise<unknown>): Promise<unknown> {
  return result.then(
    (value) => value,
    (error: { code?: string; message?: string }) => `${error.code}: ${error.message}`,
  );
}

/** Runs `read` on a database file holding the old version, the other process writing the new one before statement `at`. */
async function raced(files: Files, read: Read, at?: number): Promise<{ result: unknown; statements: number; ran: boolean }> {
  const dir = mkdtempSync(join(scratch, "db-"));
  const file = join(dir, "w.db");
  const storage = nodeSqliteStorage(file);
  const workspace = new Workspace({ storage });
  try {
    await seed(workspace, files, files.old);
    const probe = instrument(storage, at, () => otherProcessWrites(file, files.path, ...files.next));
    const result = await outcome(read(workspace));
    return { result, statements: probe.count(), ran: probe.ran() };
  } finally {
    await workspace.close();
    storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A short description of a result, for failure messages. */
function shown(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
  return `${text.length} chars: ${JSON.stringify(text.slice(0, 60))}…${JSON.stringify(text.slice(-40))}`;
}

/** Every interleaving point of `read`: the result is exactly the old version's or the new one's. */
async function everyPoint(files: Files, read: Read): Promise<number> {
  const old = await reference(files, files.old, read);
  const next = await reference(files, files.next, read);
  expect(old, "the two versions must read differently").not.toEqual(next);
  const dry = await raced(files, read);
  expect(dry.result).toEqual(old);
  for (let at = 1; at <= dry.statements; at++) {
    const { result, ran } = await raced(files, read, at);
    expect(ran, `the other process wrote before statement ${at} of ${dry.statements}`).toBe(true);
    const which = isEqual(result, old) ? "old" : isEqual(result, next) ? "new" : `neither: ${shown(result)}`;
    expect(["old", "new"], `before statement ${at} of ${dry.statements}`).toContain(which);
  }
  return dry.statements;
}

function isEqual(a: unknown, b: unknown): boolean {
  try {
    expect(a).toEqual(b);
    return true;
  } catch {
    return false;
  }
}

const text = (path: string, window?: { byteOffset?: number; byteLength?: number }): Read => (workspace) =>
  window ? workspace.fs.readFile(path, { ...window, encoding: "utf8" }) : workspace.fs.readFile(path, "utf8");

const bytes = (path: string, window?: { byteOffset?: number; byteLength?: number }): Read => async (workspace) => {
  const stream = await (window ? workspace.fs.readFile(path, window) : workspace.fs.readFile(path));
  return new Uint8Array(await new Response(stream).arrayBuffer());
};

const SPARSE = "^[ab]+ \\d*000$";
const grep = (path: string, pattern = SPARSE): Read => (workspace) => workspace.fs.grep(pattern, path, { regex: true });

/** The case matrix: old → new, shorter, longer and the same size, over inline, one-chunk and listed files. */
const SIZES: Array<[string, [string, number], [string, number]]> = [
  ["inline 10 KiB → 12 KiB", ["a", 10 * KiB], ["b", 12 * KiB]],
  ["one chunk 100 KiB → same size", ["a", 100 * KiB], ["b", 100 * KiB]],
  ["one chunk 100 KiB → 1.5 MiB", ["a", 100 * KiB], ["b", 1536 * KiB]],
  ["600 KiB → 100 B", ["a", 600 * KiB], ["b", 100]],
  ["600 KiB → 1.5 MiB", ["a", 600 * KiB], ["b", 1536 * KiB]],
  ["1.5 MiB → same size", ["a", 1536 * KiB], ["b", 1536 * KiB]],
];

describe("readFile as text returns one whole version at every interleaving", () => {
  for (const [name, old, next] of SIZES) {
    it(name, async () => {
      expect(await everyPoint({ path: "/f.txt", old, next }, text("/f.txt"))).toBeGreaterThan(0);
    }, 300_000);
  }
  it("a window inside the second chunk of a 1.5 MiB file → same size", async () => {
    await everyPoint({ path: "/f.txt", old: ["a", 1536 * KiB], next: ["b", 1536 * KiB] }, text("/f.txt", { byteOffset: 600 * KiB, byteLength: 4 * KiB }));
  }, 300_000);
  it("a window across the first two chunks of 1.5 MiB → 600 KiB", async () => {
    await everyPoint({ path: "/f.txt", old: ["a", 1536 * KiB], next: ["b", 600 * KiB] }, text("/f.txt", { byteOffset: 500 * KiB, byteLength: 100 * KiB }));
  }, 300_000);
});

describe("readFile as bytes (a drained stream) returns one whole version at every interleaving", () => {
  // (A stream over more than one chunk runs many statements — lease, renewals, its end and sweep — so one such case.)
  for (const [name, old, next] of [SIZES[0], SIZES[1], SIZES[3]]) {
    it(name, async () => {
      await everyPoint({ path: "/f.bin", old, next }, bytes("/f.bin"));
    }, 300_000);
  }
  it("a window inside the third chunk of a 1.5 MiB file → same size", async () => {
    await everyPoint({ path: "/f.bin", old: ["a", 1536 * KiB], next: ["b", 1536 * KiB] }, bytes("/f.bin", { byteOffset: 1100 * KiB, byteLength: 8 * KiB }));
  }, 300_000);
});

describe("grep returns the matches of one whole version at every interleaving", () => {
  for (const [name, old, next] of [SIZES[1], SIZES[4], SIZES[5]]) {
    it(`one file, ${name}`, async () => {
      await everyPoint({ path: "/g/f.txt", old, next }, grep("/g/f.txt"));
    }, 300_000);
  }
  it("a directory of small files, one of them rewritten (their bytes come with the walk)", async () => {
    const others = { "/g/a.txt": ["a", 40 * KiB], "/g/c.txt": ["a", 12 * KiB], "/g/d.txt": ["a", 600 * KiB] } as Files["others"];
    await everyPoint({ path: "/g/b.txt", old: ["a", 15 * KiB], next: ["b", 16 * KiB], others }, grep("/g", "^[ab]+ \\d*00$"));
  }, 300_000);
  it("a directory, its three-chunk file rewritten with one of the same size", async () => {
    const others = { "/g/a.txt": ["a", 15 * KiB], "/g/c.txt": ["a", 100 * KiB] } as Files["others"];
    await everyPoint({ path: "/g/b.txt", old: ["a", 1536 * KiB], next: ["b", 1536 * KiB], others }, grep("/g"));
  }, 300_000);
});

describe("the tool set's read and grep return one whole version at every interleaving", () => {
  const readTool: Read = (workspace) => readDefinition({ store: new WorkspaceFileStore(workspace) }).execute({ path: "/workspace/f.txt", offset: 3000, limit: 5 } as never);
  const grepTool: Read = (workspace) =>
    grepDefinition({ workspace }).execute({ path: "/workspace/f.txt", query: SPARSE, regex: true, limit: 100 } as never);
  for (const [name, old, next] of [SIZES[1], SIZES[5]]) {
    it(`read, ${name}`, async () => {
      await everyPoint({ path: "/workspace/f.txt", old, next }, readTool);
    }, 300_000);
    it(`grep, ${name}`, async () => {
      await everyPoint({ path: "/workspace/f.txt", old, next }, grepTool);
    }, 300_000);
  }
});
