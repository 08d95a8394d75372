/**
 * Issue 20, seventeenth attack run: the push of a directory deletion whose subtree a pull partly brought back
 * costs O(n²) — `#removals` (src/runtime/sync.ts) compares every stale row with every fresh one and with
 * every removal it picked so far.
 *
 * Tried: a stand-in container with `build/` of n files, pulled into the Workspace; then a command during which
 * the Workspace removes `/workspace/build` (`rm -rf`, a tool or another client) while the command rewrites
 * every other file in the container (a rebuild); the run's pull brings those n/2 back (their manifest rows
 * newer than the deletion); then `workspace.push()`, which sends the deletion of what was synced before it.
 * (Held: the outcome is right — the n/2 stale files are removed in the container, the n/2 rebuilt ones stay;
 * attack16c made `#forget`/`#removals`' look-ups primary-key range scans.)
 *
 * Found (medium-low; 2 of 2 runs): for each row not newer than the deletion, `holdsFresh` runs
 * `fresh.some(startsWith)` over every fresh row, and `out.some(startsWith)` over every removal chosen so far —
 * (n/2)² + (n/2)²/2 string compares. Push times (host side, a stand-in that removes in O(1)): n = 2,000 →
 * 44 ms, 8,000 → 263 ms, 16,000 → 1,326 ms (×5 per doubling), 32,000 → 3,979 ms; ~64,000 files (a node_modules or build tree)
 * → ~20 s, ~100,000 → past the 30 s CPU limit, and the push is retried the same way on every command.
 *
 * Suggested fix: walk the rows in path order once, keeping the stack of open directories (as the pull's
 * deletion grouping now does): a row holds a fresh entry iff a fresh row lies in its range `[path/, path0)`
 * — answer that with a sorted fresh list and binary search, or one SQL range query per directory row — and
 * skip rows under the last removal chosen by a prefix check against it alone. *
 * Fixed: `#removals` (runtime/sync.ts) sorts the rows in tree order ("/" before every other character, so a
 * row's subtree follows it in one run) and walks them twice with a stack of the open rows: once marking the
 * rows that hold a newer entry (propagated to the parent as each row closes), once picking each highest row
 * that holds none (a row under a picked or covered parent goes with it) — O(n log n), no pairwise compares.
 */
import { describe, expect, it } from "vitest";
import { nodeSqliteStorage, Workspace } from "../../../src/index.js";
import { daemonHandle, type DaemonApi } from "../../../src/backends/daemon/handle.js";
import { emptyDaemon } from "../attack15c/daemon-stand-in.js";

async function pushAfterPartialRebuild(n: number): Promise<{ ms: number; left: number; pulled: number; steps: string[] }> {
  const files = new Map<string, number>();
  for (let i = 0; i < n; i++) files.set(`build/f${String(i).padStart(6, "0")}`, 1000);
  let ws!: Workspace;
  const api = {
    ...emptyDaemon(),
    scan: async () => ({
      entries: [
        { path: "build", kind: "directory", mode: 0o755, size: 0, mtimeMs: 1 },
        ...[...files].map(([path, m]) => ({ path, kind: "file", mode: 0o644, size: 1, mtimeMs: m, ctimeMs: m })),
      ],
      skipped: [],
      cursor: null,
      done: true,
    }),
    read: async () => ({ data: new Uint8Array([65]), size: 1, eof: true }),
    apply: async ({ ops }: { ops: { op: string; path: string }[] }) => ({
      results: ops.map((o) => {
        if (o.op === "rm") files.delete(o.path);
        return { ok: true };
      }),
    }),
    events: async ({ id, after }: { id: string; after: number }) => {
      if (id === "rebuild" && after === 0) {
        await ws.fs.rm("/workspace/build", { recursive: true }); // the Workspace's deletion, while the command runs
        let i = 0;
        for (const k of files.keys()) if (i++ % 2 === 0) files.set(k, 2000); // the command rewrites every other file
      }
      return { events: [{ seq: 1, name: "exit", code: 0 }].filter((e) => e.seq > after), done: true };
    },
  } as unknown as DaemonApi;
  ws = new Workspace({
    storage: nodeSqliteStorage(":memory:"),
    backends: [{ id: "box", type: "test", connect: async () => daemonHandle(api, { closed: new Promise(() => {}), close() {} }) }],
  });
  await ws.fs.mkdir("/workspace", { recursive: true });
  await (await ws.runtime.exec("true", { backend: "box", id: "first" })).result();
  const { pulled } = await (await ws.runtime.exec("rebuild", { backend: "box", id: "rebuild" })).result();
  const started = Date.now();
  const steps: string[] = [];
  for await (const step of ws.push("box")) steps.push(`${step.complete}`);
  const ms = Date.now() - started;
  await ws.close();
  return { ms, left: files.size, pulled, steps };
}

describe("attack17c: pushing a deletion a pull partly undid", () => {
  // The timeout covers the set-up (32,000 files pulled into the Workspace: 30–55 s on a loaded 2-core machine);
  // the bound below is on the push alone.
  it("costs about linear time in the subtree's size", { timeout: 240_000 }, async () => {
    const n = 32_000;
    const out = await pushAfterPartialRebuild(n);
    // Held: the outcome.
    expect({ left: out.left, pulled: out.pulled, steps: out.steps }).toEqual({ left: n / 2, pulled: n / 2, steps: ["true"] });
    // Found: 3,979 ms at 32,000 (24,000: 2,032 ms; 16,000: 1,326 ms; 8,000: 263 ms); linear would be ~0.7 s.
    expect(out.ms).toBeLessThan(1_500);
  });
});
