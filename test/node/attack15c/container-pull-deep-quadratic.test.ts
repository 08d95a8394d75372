/**
 * Issue 20, fifteenth attack run: a pull checks every parent of every entry from /workspace down — cubic
 * in a tree's depth — so one `mkdir -p` of an ordinary 4 KB-deep path holds the Durable Object's CPU and
 * the backend's sync for many minutes.
 *
 * Tried: (1) on the container backend (real local computerd, TestBackend "box" in workerd), a command
 * `d=$(printf 'a/%.0s' $(seq 2000)); mkdir -p $d && cd $d && touch $(seq -f f%g 20)` (a 3,999-byte path,
 * under PATH_MAX): its result() was still pending after 20 s and after 220 s more (the object's timers
 * fired 50 s late: the pull held its CPU); with 200 files the test hit its 300 s timeout. (2) Below, the
 * same pull in Node (RemoteSync with a stand-in daemon whose scan lists what the real one lists for
 * `mkdir -p` of depth 1,000: each directory, depth first), in a worker thread bounded at 15 s.
 * (Held: a second pull of an unchanged tree is milliseconds — unchanged entries are skipped before the
 * walk; git's deep untracked chain was fixed in attack13b.)
 *
 * Found (medium-high): `RemoteSync.#parents` (src/runtime/sync.ts) lstat-s each ancestor of each pulled
 * entry (`segments.slice(0, i).join("/")`, i = 1…depth) and each lstat resolves from the root: depth²
 * lookups per entry, depth³ for a chain of directories (Node, stand-in: 3 entries at depth 2,000 0.8 s,
 * 52 entries 16.2 s; the 1,000-deep chain below does not finish in 15 s). One command in the container
 * (an agent's, a package's nested folders, an archive unpacked) freezes the pull that ends it — the
 * command's result waits, and every later command, push and pull of that backend queues behind it.
 * `#realParents` (deletions of such a tree) is the same. Reproduction:
 *
 *   scan → [{ path: "a", kind: "directory" }, { path: "a/a" … }, … 1,000 levels]
 *   await sync.pull();   // not done after 15 s (real daemon: a 2,000-deep mkdir -p, minutes)
 *
 * Suggested fix: remember, per pull, the wire prefixes already checked to be real directories (drop one
 * when the pull replaces or removes it), so each entry checks only its new parent — linear in the tree. *
 * Fixed: a pull keeps the folders it found to be real directories (RealDirs in src/runtime/sync.ts: a tree
 * of path segments that follows the Workspace's change log, so what the pull or anything else changes
 * meanwhile is forgotten before the next look-up), and a folder it made knows which names appeared in it
 * since, so each entry checks only the parents not known yet and no missing path is looked up. What is
 * left is the filesystem's own cost of creating a path (its lookup reads every prefix key).
 */
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { runInWorker } from "../attack13b/worker-run.js";
import { nodeSqliteStorage, Workspace } from "../../../src/index.js";
import { RemoteSync, type SyncFilesystem, type SyncRPC } from "../../../src/runtime/sync.js";

const SYNC = resolve(import.meta.dirname, "../../../src/runtime/sync.ts");

describe("attack15c: a pull's parent checks are cubic in depth", () => {
  it("the pull of a 1,000-deep chain of directories settles within 15 s", { timeout: 60_000 }, async () => {
    const run = await runInWorker(
      `const ws = new Workspace({ storage: nodeSqliteStorage() });
await ws.fs.mkdir("/workspace", { recursive: true });
const entries = [];
for (let i = 1; i <= 1000; i++) entries.push({ path: Array.from({ length: i }, () => "a").join("/"), kind: "directory", mode: 0o755, size: 0, mtimeMs: 1, ctimeMs: 1 });
const rpc = {
  info: async () => ({ mountPoint: "/workspace", ignore: [], bootId: "boot-1" }),
  scan: async () => ({ entries, skipped: [], cursor: null, done: true }),
  read: async () => ({ data: new Uint8Array(0), size: 0, eof: true }),
  apply: async ({ ops }: { ops: unknown[] }) => ({ results: ops.map(() => ({ ok: true })) }),
};
const sync = new RemoteSync(ws.db, ws.fs as never, "box", rpc as never);
const out = await sync.pull();
const deepest = await ws.fs.stat("/workspace/" + entries[999].path).then((s) => s.isDirectory);
post({ applied: out.applied, skipped: out.skipped.length, deepest });`,
      15_000,
      `import { RemoteSync } from ${JSON.stringify(SYNC)};`,
    );
    // Found: settled false (the worker was still checking parents when terminated).
    expect(run.settled).toBe(true);
    expect(run.messages).toEqual([{ applied: 1000, skipped: 0, deepest: true }]);
  });
  it("what the Workspace changes while a pull runs is not taken as checked: a folder swapped for a link mid-pull is replaced, nothing written through it", async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    await ws.fs.mkdir("/workspace", { recursive: true });
    await ws.fs.mkdir("/outside/e", { recursive: true });
    const stat = { mode: 0o755, size: 0, mtimeMs: 1, ctimeMs: 1 };
    let scans = 0;
    const rpc: SyncRPC = {
      info: async () => ({ mountPoint: "/workspace", ignore: [], bootId: "boot-1" }),
      scan: async () => {
        scans++;
        if (scans === 1) return { entries: [{ path: "d", kind: "directory", ...stat }, { path: "d/e", kind: "directory", ...stat }], skipped: [], cursor: "d/e", done: false };
        // Meanwhile (a tool, another run) the Workspace swaps the folder the pull made for a link leading out.
        await ws.fs.rm("/workspace/d", { recursive: true });
        await ws.fs.symlink("/outside", "/workspace/d");
        return { entries: [{ path: "d/e/f", kind: "file", mode: 0o644, size: 2, mtimeMs: 1, ctimeMs: 1 }], skipped: [], cursor: null, done: true };
      },
      read: async () => ({ data: new TextEncoder().encode("hi"), size: 2, eof: true }),
      apply: async ({ ops }) => ({ results: ops.map(() => ({ ok: true as const })) }),
    };
    const sync = new RemoteSync(ws.db, ws.fs as SyncFilesystem, "box", rpc);
    const out = await sync.pull();
    const d = await ws.fs.lstat("/workspace/d");
    expect({ applied: out.applied, skipped: out.skipped, d: [d.isDirectory, d.isSymbolicLink] }).toEqual({ applied: 4, skipped: [], d: [true, false] });
    expect(await ws.fs.readFile("/workspace/d/e/f", { encoding: "utf8" })).toBe("hi");
    expect(await ws.fs.readdir("/outside/e")).toEqual([]);
    await ws.close();
  });
});
