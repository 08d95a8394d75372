/**
 * Issue 20, sixteenth attack run: a container sync costs O(n²) in the number of deletions — every
 * Workspace deletion a push sends, and every entry a pull finds gone, rescans the backend's whole manifest.
 *
 * Tried: `RemoteSync` (src/runtime/sync.ts) against a stand-in daemon whose container held `build/` with
 * n files, pulled into the Workspace; then (1) the Workspace deletes the n files one by one (`rm build/*.o`)
 * and pushes; (2) the container deletes them (the Workspace had deleted them too) and the Workspace pulls.
 * (Held: the first pull of n files is linear — 5,000 in ~3 s, 10,000 in ~5 s; a deletion of the whole
 * directory takes the one recursive removal.)
 *
 * Found (medium; 2 of 2 runs): the manifest's subtree queries — `#removals` (SELECT) and `#forget`
 * (DELETE) — are `WHERE backend = ? AND (path = ? OR (path >= ? AND path < ?))`; SQLite's plan for it is
 * `SEARCH __ws_sync_manifest USING PRIMARY KEY (backend=?)`: the OR keeps `path` out of the index, so each
 * call visits every row of the backend. A push of n deletions calls `#removals` n times: 5,000 → 3.8 s,
 * 10,000 → 13.9 s. A pull whose gone entries are missing in the Workspace calls `#forget` per entry, and
 * `groups.findLast` compares each gone row with every group before it (a new template string each): 5,000 →
 * 4.5 s, 10,000 → 10.8 s, 20,000 → 124 s (manifest rows of one directory). In a Durable Object that is
 * past the 30 s CPU limit for a few tens of thousands of files (a `rm -rf node_modules/*` or a build
 * clean), with n² rows read billed; the pull stays pending and is retried the same way. Here (n = 6,000,
 * a loaded machine): push 7.9 s, pull 7.7 s; n = 1,000: 556 ms and 182 ms (the linear part: under 1.2 s
 * at 6,000, hence the 3 s budgets).
 *
 * Suggested fix: split the subtree queries into `path = ?` and a range (`path >= ? AND path < ?`) — two
 * indexed statements, or `UNION ALL`; group gone rows by keeping only the last group (rows come sorted by
 * path, so a row can only fall under the latest top), e.g. `groups.at(-1)`.
 *
 * Fixed: `#forget` and `#removals` look up `path = ?` and the range `[path/, path0)` in two statements (each
 * a primary-key search); the pull groups gone rows (sorted by UTF-16 code units) with a stack of the groups a
 * later row can still fall under — not only the latest: `a-b` sorts between `a` and `a/x` — so each row meets
 * few groups. Here 6,000: push ~0.5 s, pull ~0.7 s.
 */
import { describe, expect, it } from "vitest";
import { nodeSqliteStorage, Workspace } from "../../../src/index.js";
import { RemoteSync, type SyncFilesystem, type SyncRPC } from "../../../src/runtime/sync.js";

const N = 6_000;
const name = (i: number) => `build/f${String(i).padStart(6, "0")}.o`;

/** A Workspace that pulled `build/` with N one-byte files; `container.files` says how many the container still holds. */
async function pulled() {
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
  await ws.fs.mkdir("/workspace", { recursive: true });
  const container = { files: N };
  const rpc: SyncRPC = {
    info: async () => ({ mountPoint: "/workspace", ignore: [], bootId: "boot-1" }),
    scan: async () => ({
      entries: [
        { path: "build", kind: "directory", mode: 0o755, size: 0, mtimeMs: 1 },
        ...Array.from({ length: container.files }, (_, i) => ({ path: name(i), kind: "file" as const, mode: 0o644, size: 1, mtimeMs: 1, ctimeMs: 1 })),
      ],
      skipped: [],
      cursor: null,
      done: true,
    }),
    read: async () => ({ data: new Uint8Array([120]), size: 1, eof: true }),
    apply: async ({ ops }) => ({ results: ops.map(() => ({ ok: true as const })) }),
  };
  const sync = new RemoteSync(ws.db, ws.fs as SyncFilesystem, "box", rpc);
  expect((await sync.pull()).applied).toBe(N + 1);
  return { ws, sync, container };
}

describe("attack16c: sync deletions are quadratic", () => {
  it("gone entries are grouped under their highest gone path, with other tops sorting in between (a, a-b, a.c, a/x, a/y/z)", async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    await ws.fs.mkdir("/workspace", { recursive: true });
    const all = [
      { path: "a", kind: "directory" as const, mode: 0o755, size: 0, mtimeMs: 1 },
      { path: "a-b", kind: "file" as const, mode: 0o644, size: 1, mtimeMs: 1, ctimeMs: 1 },
      { path: "a.c", kind: "directory" as const, mode: 0o755, size: 0, mtimeMs: 1 },
      { path: "a.c/d", kind: "file" as const, mode: 0o644, size: 1, mtimeMs: 1, ctimeMs: 1 },
      { path: "a/x", kind: "file" as const, mode: 0o644, size: 1, mtimeMs: 1, ctimeMs: 1 },
      { path: "a/y", kind: "directory" as const, mode: 0o755, size: 0, mtimeMs: 1 },
      { path: "a/y/z", kind: "file" as const, mode: 0o644, size: 1, mtimeMs: 1, ctimeMs: 1 },
      { path: "b", kind: "file" as const, mode: 0o644, size: 1, mtimeMs: 1, ctimeMs: 1 },
    ];
    let entries = all;
    const rpc: SyncRPC = {
      info: async () => ({ mountPoint: "/workspace", ignore: [], bootId: "boot-1" }),
      scan: async () => ({ entries, skipped: [], cursor: null, done: true }),
      read: async () => ({ data: new Uint8Array([120]), size: 1, eof: true }),
      apply: async ({ ops }) => ({ results: ops.map(() => ({ ok: true as const })) }),
    };
    const sync = new RemoteSync(ws.db, ws.fs as SyncFilesystem, "box", rpc);
    expect((await sync.pull()).applied).toBe(8);
    entries = all.filter((e) => e.path === "b");
    const out = await sync.pull();
    const left = ws.db.all<{ path: string }>(`SELECT path FROM __ws_sync_manifest WHERE backend = 'box' ORDER BY path`).map((r) => r.path);
    const found = (await ws.fs.find("/workspace")).map((e) => e.path);
    await ws.close();
    // Three groups (a, a-b, a.c), each removed whole.
    expect(out).toEqual({ applied: 3, bytes: 0, skipped: [] });
    expect(left).toEqual(["b"]);
    expect(found).toEqual(["/workspace/b"]);
  });

  it(`a push of ${N} Workspace deletions takes under 3 s`, { timeout: 60_000 }, async () => {
    const { ws, sync } = await pulled();
    for (let i = 0; i < N; i++) await ws.fs.rm(`/workspace/${name(i)}`);
    const t = performance.now();
    const out = await sync.push();
    const ms = performance.now() - t;
    const left = ws.db.one<{ n: number }>(`SELECT count(*) AS n FROM __ws_sync_manifest WHERE backend = 'box'`);
    await ws.close();
    console.log(`push of ${N} deletions: ${Math.round(ms)} ms`);
    expect(out.pushed).toBe(N);
    expect(left?.n).toBe(1); // build/ itself
    // Found: 5,000 → 3.8 s, 10,000 → 13.9 s (each #removals visits every manifest row).
    expect(ms).toBeLessThan(3_000);
  });

  it(`a pull finding ${N} entries gone (deleted on both sides) takes under 3 s`, { timeout: 60_000 }, async () => {
    const { ws, sync, container } = await pulled();
    for (let i = 0; i < N; i++) await ws.fs.rm(`/workspace/${name(i)}`);
    container.files = 0;
    const t = performance.now();
    const out = await sync.pull();
    const ms = performance.now() - t;
    const left = ws.db.one<{ n: number }>(`SELECT count(*) AS n FROM __ws_sync_manifest WHERE backend = 'box'`);
    await ws.close();
    console.log(`pull of ${N} gone entries: ${Math.round(ms)} ms`);
    expect(out.skipped).toEqual([]);
    expect(left?.n).toBe(1);
    // Found: 5,000 → 4.5 s, 10,000 → 10.8 s, 20,000 → 124 s (#forget per entry, findLast over every group).
    expect(ms).toBeLessThan(3_000);
  });
});
