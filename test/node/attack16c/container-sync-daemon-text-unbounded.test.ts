/**
 * Issue 20, sixteenth attack run: what a container's daemon answers during a sync is kept whole — every
 * refused entry's path, every refusal's message, the pull's error — with no bound on their number or size.
 *
 * Tried: a remote command backend (`daemonHandle` over a stand-in daemon, as the container backends use it;
 * "Nothing the daemon answers is trusted (a command can take it over)", src/runtime/sync.ts) running `true`,
 * then its pull (`result()` of the run) and push, with a daemon that (a) fails `scan` with a 4 MiB message,
 * (b) lists 200,000 entries of an unknown kind over 10 scan pages, (c) lists entries whose paths are 4 MiB
 * and refuses a `read` with a 4 MiB EACCES message, (d) refuses every `apply` op of a push with a 4 MiB
 * message. (Held: MAX_SCAN_PAGES, cursor order, exit-code checks, invalid paths/kinds never applied.)
 *
 * Found (medium; 3 of 3 runs each):
 * (a) the pull's error is kept whole: `result().sync.error` is the 4,194,309-character message and
 *     `__ws_sync_state.pull_error` holds it too — a 4 MiB value in one row, over production SQLite's 2 MB
 *     row bound, so the UPDATE fails with SQLITE_TOOBIG in the catch of `#pullAfter` and the run's
 *     `result()` rejects instead of reporting the command (workspace.pull() likewise, runtime/index.ts).
 * (b) `outcome.skipped` (and `seen`) grow by one object per refused entry without bound: 200,000 entries
 *     from 10 pages are 200,000 `skipped` items (17,688,901 characters of JSON) in the result, twice referenced
 *     (`skipped` and `sync.skipped`); 20 pages × 50,000 gave 1,000,000 items and 88 MB of JSON in 9.5 s.
 *     MAX_SCAN_PAGES allows 10,000 pages and nothing bounds entries per page, far past a 128 MB object.
 * (c) a 4 MiB path (no length check in `validWire`: MAX_PATH_BYTES is 262,144) is listed whole in
 *     `skipped` — per entry, so 4 entries are 16,777,541 characters of JSON; a `read` refusal's 4 MiB
 *     message is copied whole into `reason`.
 * (d) a push keeps each `apply` refusal's message whole as `reason` (4 files → 16,777,397 characters).
 * (e) a push records the `stat` an `apply` answers whole: a `target` of 4,194,304 characters becomes a
 *     `__ws_sync_manifest` row over production's 2 MB bound (SQLITE_TOOBIG thrown from inside the push's
 *     flush, the batch's other results unrecorded). (Held: a pulled link with a 4 MiB target is refused
 *     ENAMETOOLONG by the Workspace, nothing recorded.)
 * (f) `info().bootId` is not checked: a 4,194,304-character boot id is stored whole in
 *     `__ws_sync_state.boot` (and is the handle's `runtimeId`); an object as boot id makes `exec` reject
 *     with node:sqlite's raw `TypeError: Provided value cannot be bound to SQLite parameter 2.` (ERR_INVALID_ARG_TYPE)
 * Reproduction (b):
 *
 *   scan: async ({ cursor }) => ({ entries: 20,000 × { path: `p${page}-${i}`, kind: "fifo" }, skipped: [], cursor: `p${page}`, done: page === 10 })
 *   (await (await ws.runtime.exec("true", { backend: "box" })).result()).skipped.length   // 200000
 *
 * Suggested fix: refuse a daemon path longer than MAX_PATH_BYTES as "invalid path from the container"
 * (shown clipped); clip every reason and the pull error (pull_error, sync.error) to MAX_HOST_ERROR_CHARS
 * (16,384) with a marker, as host errors are; list at most a bounded number of skipped entries per sync
 * (the container module lists 100 and a count) and count the rest; keep `seen` for valid entries only;
 * drop an `apply` stat whose link target is over MAX_PATH_BYTES (as an invalid stat is dropped); refuse
 * a boot id that is not a short string (EPROTO naming the daemon's misbehaviour).
 *
 * Fixed (runtime/sync.ts): every `skipped` reason, a shown invalid path, the error a push or pull throws and
 * `pull_error` are cut to MAX_SYNC_REASON_CHARS (16,384) with `… [<n> more characters cut]`; a push or pull
 * lists at most MAX_SYNC_SKIPPED (1000) entries within MAX_SYNC_SKIPPED_CHARS (512 Ki characters), then one
 * entry `{ path: "/workspace", reason: "<n> more skipped entries not listed (…)" }`; a daemon path whose
 * Workspace path is over MAX_PATH_BYTES is refused as `invalid path from the container (longer than
 * MAX_PATH_BYTES, …)`; an `apply` stat whose link target is over MAX_PATH_BYTES is dropped; a boot id that is
 * not a string of 1–MAX_BOOT_ID_CHARS (256) characters is refused EPROTO (RemoteSync and daemonHandle).
 * (f)'s expectation read `__ws_sync_state`, which a connect refused before any sync never creates: no table
 * counts as nothing stored.
 */
import { describe, expect, it } from "vitest";
import { nodeSqliteStorage, Workspace } from "../../../src/index.js";
import { daemonHandle, type DaemonApi } from "../../../src/backends/daemon/handle.js";
import { MAX_BOOT_ID_CHARS, MAX_SYNC_REASON_CHARS, MAX_SYNC_SKIPPED, MAX_SYNC_SKIPPED_CHARS, RemoteSync, type SyncFilesystem } from "../../../src/runtime/sync.js";
import { emptyDaemon } from "../attack15c/daemon-stand-in.js";

const BIG = "a".repeat(4 * 1024 * 1024);
/** MAX_HOST_ERROR_CHARS (16,384) and room for a marker. */
const MAX_REASON = 16_384 + 200;
/** MAX_PATH_BYTES (262,144), "/workspace/" and room for a marker. */
const MAX_SHOWN_PATH = 262_144 + 200;

/** `text` as the sync keeps it: at most MAX_SYNC_REASON_CHARS (16,384) characters, the marker included. */
const clipped = (text: string) => (text.length <= 16_384 ? text : `${text.slice(0, 16_344)}… [${text.length - 16_344} more characters cut]`);

/** A daemon whose run of any command exits 0 at once; `over` replaces its sync calls. */
function workspace(over: Partial<DaemonApi>): Workspace {
  const daemon = {
    ...emptyDaemon(),
    events: async ({ after }: { after: number }) => ({ events: [{ seq: 1, name: "exit", code: 0 }].filter((e) => e.seq > after), done: true }),
    ...over,
  } as unknown as DaemonApi;
  return new Workspace({
    storage: nodeSqliteStorage(":memory:"),
    backends: [{ id: "box", type: "test", connect: async () => daemonHandle(daemon, { closed: new Promise(() => {}), close() {} }) }],
  });
}

async function run(ws: Workspace) {
  await ws.fs.mkdir("/workspace", { recursive: true });
  return (await ws.runtime.exec("true", { backend: "box", encoding: "utf8", id: "r" })).result();
}

describe("attack16c: a sync keeps the daemon's text whole", () => {
  it("(a) a pull failing with a 4 MiB message stores and reports it clipped (no 4 MiB pull_error row)", async () => {
    const ws = workspace({ scan: async () => Promise.reject(new Error(`EIO: ${BIG}`)) });
    const r = await run(ws);
    const row = ws.db.one<{ pending: number; n: number }>(`SELECT pull_pending AS pending, length(pull_error) AS n FROM __ws_sync_state WHERE backend = 'box'`);
    await ws.close();
    expect(r.exitCode).toBe(0);
    expect(r.sync.status).toBe("pending");
    expect(row?.pending).toBe(1);
    // Found: 4,194,309 and 4,194,309.
    expect(String((r.sync as { error?: string }).error).length).toBeLessThanOrEqual(MAX_REASON);
    expect(row!.n).toBeLessThanOrEqual(MAX_REASON);
    expect(MAX_SYNC_REASON_CHARS).toBe(16_384);
    expect((r.sync as { error?: string }).error).toBe(`EIO: ${"a".repeat(16_339)}… [4177965 more characters cut]`);
    expect(row!.n).toBe(clipped(`EIO: ${BIG}`).length);
    expect(row!.n).toBeLessThanOrEqual(16_384);
  });

  it("(b) 200,000 refused entries over 10 scan pages: the result lists a bounded number (under 1 MiB of JSON)", { timeout: 60_000 }, async () => {
    let page = 0;
    const ws = workspace({
      scan: async () => {
        page++;
        const entries = Array.from({ length: 20_000 }, (_, i) => ({ path: `p${String(page).padStart(2, "0")}-${i}`, kind: "fifo" }));
        return { entries, skipped: [], cursor: `p${String(page).padStart(2, "0")}`, done: page === 10 } as never;
      },
    });
    const r = await run(ws);
    await ws.close();
    expect(r.sync.status).toBe("complete");
    expect(r.skipped[0]).toEqual({ path: "/workspace/p01-0", op: "write", reason: "invalid entry from the container" });
    // Found: 200,000 items, 17,688,901 characters.
    expect(JSON.stringify(r.skipped).length).toBeLessThan(1024 * 1024);
    expect(MAX_SYNC_SKIPPED).toBe(1000);
    expect(MAX_SYNC_SKIPPED_CHARS).toBe(512 * 1024);
    // The first 1000 listed, then one entry counting the other 199,000.
    expect(r.sync.skipped.length).toBe(1001);
    expect(r.sync.skipped[999]).toEqual({ path: "/workspace/p01-999", op: "write", reason: "invalid entry from the container" });
    expect(r.sync.skipped[1000]).toEqual({
      path: "/workspace",
      reason: "199000 more skipped entries not listed (a push or pull lists at most MAX_SYNC_SKIPPED (1000) entries of MAX_SYNC_SKIPPED_CHARS (524288) characters)",
    });
    expect(r.skipped).toEqual(r.sync.skipped);
  });

  it("(c) 4 MiB paths and a 4 MiB read refusal: each skipped path and reason is clipped", { timeout: 60_000 }, async () => {
    const ws = workspace({
      scan: async () =>
        ({
          entries: [
            { path: `f1`, kind: "file", mode: 0o644, size: 1, mtimeMs: 1 },
            { path: `k${BIG}`, kind: "fifo" },
            { path: `l${BIG}`, kind: "file", mode: 0o644, size: 1, mtimeMs: 1 },
            { path: `m${BIG}`, kind: "directory", mode: 0o755, size: 0, mtimeMs: 1 },
          ],
          skipped: [],
          cursor: null,
          done: true,
        }) as never,
      read: async () => Promise.reject(Object.assign(new Error(`EACCES: ${BIG}`), { code: "EACCES" })),
    });
    const r = await run(ws);
    await ws.close();
    expect(r.sync.skipped.length).toBe(4);
    // Found: paths of 4,194,316 characters; the EACCES reason of 4,194,312.
    for (const s of r.sync.skipped) {
      expect(s.path.length).toBeLessThanOrEqual(MAX_SHOWN_PATH);
      expect(s.reason.length).toBeLessThanOrEqual(MAX_REASON);
    }
    // Paths over MAX_PATH_BYTES are refused as invalid (shown cut); the read refusal's reason is cut.
    const long = "invalid path from the container (longer than MAX_PATH_BYTES, 262144 bytes of UTF-8)";
    expect(r.sync.skipped).toEqual([
      { path: `/workspace/${clipped(`k${BIG}`)}`, op: "write", reason: long },
      { path: `/workspace/${clipped(`l${BIG}`)}`, op: "write", reason: long },
      { path: `/workspace/${clipped(`m${BIG}`)}`, op: "write", reason: long },
      { path: "/workspace/f1", op: "write", reason: clipped(`EACCES: ${BIG}`) },
    ]);
  });

  it("(d) a push whose every op is refused with a 4 MiB message keeps each reason clipped", { timeout: 60_000 }, async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    await ws.fs.mkdir("/workspace", { recursive: true });
    for (let i = 0; i < 4; i++) await ws.fs.writeFile(`/workspace/f${i}`, "x");
    const daemon = {
      ...emptyDaemon(),
      apply: async ({ ops }: { ops: unknown[] }) => ({ results: ops.map(() => ({ ok: false, error: { code: "EACCES", message: `EACCES: ${BIG}` } })) }),
    } as unknown as DaemonApi;
    const sync = new RemoteSync(ws.db, ws.fs as SyncFilesystem, "box", daemon);
    const out = await sync.push();
    await ws.close();
    expect(out.skipped.map((s) => s.path)).toEqual(["/workspace/f0", "/workspace/f1", "/workspace/f2", "/workspace/f3"]);
    // Found: 4 reasons of 4,194,312 characters (16,777,397 characters of JSON).
    for (const s of out.skipped) expect(s.reason.length).toBeLessThanOrEqual(MAX_REASON);
    expect(out.skipped.map((s) => s.reason)).toEqual(Array(4).fill(clipped(`EACCES: ${BIG}`)));
  });

  it("(e) an apply stat with a 4 MiB link target is not recorded whole in the manifest", async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    await ws.fs.mkdir("/workspace", { recursive: true });
    await ws.fs.writeFile("/workspace/f", "x");
    const daemon = {
      ...emptyDaemon(),
      apply: async ({ ops }: { ops: unknown[] }) => ({ results: ops.map(() => ({ ok: true, stat: { kind: "symlink", mode: 0o777, size: 1, mtimeMs: 1, target: BIG } })) }),
    } as unknown as DaemonApi;
    const out = await new RemoteSync(ws.db, ws.fs as SyncFilesystem, "box", daemon).push();
    const row = ws.db.one<{ n: number | null }>(`SELECT max(length(target)) AS n FROM __ws_sync_manifest WHERE backend = 'box'`);
    await ws.close();
    expect(out.pushed).toBe(1);
    // Found: 4,194,304 (one row of 4 MiB).
    expect(row?.n ?? 0).toBeLessThanOrEqual(262_144);
    // The stat is dropped (as an invalid one is): nothing recorded for the file.
    expect(row?.n).toBe(null);
  });

  it("(f) a daemon's boot id must be a short string: 4 MiB or an object is refused with EPROTO, not stored or bound raw", async () => {
    const outcomes: string[] = [];
    const stored: (number | null)[] = [];
    for (const bootId of [BIG, { x: 1 }] as unknown[]) {
      const ws = workspace({ info: async () => ({ mountPoint: "/workspace", ignore: [], bootId }) as never });
      outcomes.push(
        await run(ws).then(
          (r) => `resolved ${r.sync.status}`,
          (e: { code?: string; message?: string }) => `${e.code ?? /^EPROTO/.exec(String(e.message))?.[0]} ${String(e.message).length < 1000}`,
        ),
      );
      // The connect is refused before any sync: no sync table at all is "nothing stored".
      const tables = ws.db.one<{ n: number }>(`SELECT count(*) AS n FROM sqlite_master WHERE name = '__ws_sync_state'`)!.n;
      stored.push(tables === 0 ? null : (ws.db.one<{ n: number | null }>(`SELECT max(length(boot)) AS n FROM __ws_sync_state`)?.n ?? null));
      await ws.close();
    }
    // Found: ["resolved complete", "ERR_INVALID_ARG_TYPE true"] (node:sqlite's TypeError), and a stored boot of 4,194,304 characters.
    expect(outcomes).toEqual(["EPROTO true", "EPROTO true"]);
    expect(stored.every((n) => n === null || n <= 256)).toBe(true);
    expect(MAX_BOOT_ID_CHARS).toBe(256);
    // RemoteSync itself refuses one too (a SyncRPC not behind daemonHandle): nothing stored.
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    await ws.fs.mkdir("/workspace", { recursive: true });
    const daemon = { ...emptyDaemon(), info: async () => ({ mountPoint: "/workspace", ignore: [], bootId: BIG }) } as unknown as DaemonApi;
    const error = await new RemoteSync(ws.db, ws.fs as SyncFilesystem, "box", daemon).push().then(
      () => undefined,
      (e: { code?: string; message?: string }) => e,
    );
    const boots = ws.db.all<{ n: number }>(`SELECT length(boot) AS n FROM __ws_sync_state`);
    await ws.close();
    expect(error?.code).toBe("EPROTO");
    expect(error?.message).toBe(
      "EPROTO: the container's daemon announced a boot id that is not a string of 1 to 256 characters (a string of 4194304 characters): its daemon misbehaves (a command may have taken it over); restart the container",
    );
    expect(boots).toEqual([]);
  });
});
