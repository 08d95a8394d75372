/**
 * Workspace ⇄ container sync for command backends whose files live
 * elsewhere (`sync: "remote"`, spec 02 §7.3, spec 01 §1.2 `push`/`pull`).
 *
 * The Workspace directory {@link SYNC_ROOT} mirrors the daemon's mount
 * point (`MOUNT_POINT`, `/workspace` by default): `/workspace/app/x` is
 * `app/x` on the wire and `<MOUNT_POINT>/app/x` in the container.
 *
 * - **Push** sends the Workspace changes after a durable cursor (the VFS
 *   change log, `fs.changesSince`) as `apply` ops: files (in 1 MiB pieces; a
 *   larger file goes to a temporary name and is renamed into place),
 *   directories, links, deletions. An entry whose revision is the one the
 *   manifest already holds for that path (it came from the container, or was
 *   pushed) is not sent again. A rename of a synced directory is sent as the
 *   daemon's `rename` op (what only the container holds in it, ignored
 *   entries included, moves with it, as `mv`), told by the Workspace inode the
 *   manifest records; the moved entries are sent only when changed
 *   (`RemoteSync.#pushRename`, issue 20, run 36, fixer RN). Any sequence of
 *   renames, removals and creations between two pushes leaves the container as
 *   `mv`, `rm -r` and `mkdir` leave a directory (run 37, fixer RA): an entry
 *   under an `rm` not answered yet is sent, a directory moved on from a renamed
 *   one is renamed again, one moved into a directory made at its old path goes
 *   through a parked name (`.ws-sync-move-<8 hex>` at the mount root; one
 *   left by a push cut short is removed by the next push or pull and never
 *   pulled: run 37, fixer RA2); a recorded directory whose Workspace inode
 *   lives on is parked so before the removal of a recorded ancestor, and never
 *   taken with it (`mkdir c; mv a/s c/s; rm -r a; mv c a`: run 38, fixer RB).
 * - **Pull** walks the container tree (`scan`) and compares every entry
 *   with the manifest — what the container held after the last push or pull
 *   (kind, mode, size, mtime, ctime, link target). What differs is copied
 *   into the Workspace (files streamed in 1 MiB reads); manifest paths the
 *   walk no longer finds are deleted. The container's changes win over
 *   Workspace writes made while the command ran. A pull is idempotent: one
 *   cut short (the daemon died) is completed by the next, with nothing
 *   applied twice or lost.
 * - A Workspace deletion is not sent for what a pull brought back after it
 *   (the container's version won while the command ran): only what was
 *   synced before the deletion is removed.
 * - The manifest is checked on every new daemon boot (`info().bootId`): a
 *   restarted daemon on the same disk (the disk id it announces,
 *   `info().diskId`, is the one recorded; for a daemon without one, an entry
 *   is there with the recorded stat, ctime included) keeps it, so a pull left
 *   pending completes without overwriting the Workspace's later changes;
 *   another disk (a relaunched container) drops it, and the next push sends
 *   the whole tree.
 * - While commands are live, a push with anything to send pulls first: a
 *   Workspace deletion or rewrite never destroys what a live run wrote since
 *   the last pull (the container wins, as in the pull).
 * - A pull replaces a Workspace directory by the container's file or link
 *   only when nothing in it changed in the Workspace since the last sync (a
 *   deletion's rules); else the directory is kept and listed in `skipped`.
 * - A pull keeps a Workspace file or link the container deleted when the same
 *   content is among the entries it did not apply (`mv notes.md docs/` into a
 *   read-only mount the container does not see: the write is skipped, the
 *   source stays; {@link Stranded}, issue 20, run 38, fixer RC).
 * - A file pushed in pieces goes to `.<name>.ws-sync-<8 hex>` first (`<name>`
 *   cut to keep it within 255 bytes; the name
 *   recorded in `__ws_sync_temps` until the push settles it); one a push cut
 *   short left behind is never pulled, and the next pull removes it. Only the
 *   names a push recorded: a file the command names like one is pulled.
 * - Nothing the daemon answers is trusted (a command can take it over): a
 *   path that is not a relative POSIX path of non-empty segments without
 *   `.`, `..` or NUL (`""`, `/workspace` itself, included), an entry of
 *   another kind, a link without a string target — refused into `skipped`
 *   (`"invalid path from the container"`, `"invalid entry from the
 *   container"`), never applied, never recorded. A pull never follows a
 *   Workspace link on the way to an entry: every parent under /workspace is
 *   lstat-ed, and a link or file where the container has a directory is
 *   replaced by a directory first (the container wins). A link the container
 *   makes whose target leads outside /workspace in the Workspace (as text,
 *   or through the links that exist) is refused (`"link leads outside
 *   /workspace"`), as the JavaScript backend refuses it for a confined run;
 *   one with `..` after a name is stored in its lexical form, as there.
 *
 * Tables (this module owns them): `__ws_sync_state` (per backend: push
 * cursor, boot id, disk id, whether a pull is pending and why),
 * `__ws_sync_manifest` (per backend and container path: the entry as last
 * synced, the Workspace revision it corresponds to, and the Workspace inode
 * and signature then — `ino`, `wsig`, NULL when not known; run 36, fixer RN) and
 * `__ws_sync_temps` (per backend: the temporary names of pushes in pieces
 * not settled yet).
 *
 * @module
 */
import type { WorkspaceDatabase } from "../storage/database.js";
import type { ChangeCursor, ChangeEntry, ChangePage } from "../fs/changes.js";
import type { WorkspaceFilesystem } from "../fs/types.js";
import { compileLinearPrefixGlob, MAX_GLOB_SIZE } from "../fs/glob.js";
import { MAX_PATH_BYTES, utf8Length } from "../fs/path.js";
import { mountGuardFor } from "../fs/mount-guard.js";
import { concatBytes } from "../util/bytes.js";
import { checkLinkTarget } from "../backends/worker-javascript/paths.js";
import type { SkippedEntry } from "./types.js";
import { SyncTelemetryRun, type SyncLogger, type SyncTotals } from "./sync-telemetry.js";
import { cutWithMark } from "../util/cut.js";
import { isUnder } from "../util/path.js"; // fixer RC
import { pathKey } from "../fs/path-key.js"; // run 39, fixer CR

/** The Workspace directory a container's mount point mirrors. */
export const SYNC_ROOT = "/workspace";

/** Largest piece of a file in one `apply` write op or one `read` (1 MiB, the daemon's limit). */
export const SYNC_PIECE_BYTES = 1024 * 1024;

/**
 * Bytes gathered into one `apply` call before it is sent: file data plus every
 * op's paths and link target as they travel (JSON-escaped), see {@link applyOpWeight}.
 * A batch ends at the op that reaches it, so a message stays under ~10 MiB
 * (one op adds at most a 1 MiB piece and two 256 KiB paths), far below the
 * daemon connection's 32 MiB message limit.
 */
const APPLY_BATCH_BYTES = 4 * 1024 * 1024;

/** Ops in one `apply` call at most. */
const APPLY_BATCH_OPS = 2000;

/** Files whose first piece a pull reads ahead of the one it is applying. */
const READ_AHEAD = 16;

/**
 * Only files up to this size (bytes) in the scan are read ahead. Each read asks for one piece
 * ({@link SYNC_PIECE_BYTES}) and an answer longer than asked is refused, so at most 16 pieces are held at once.
 */
const READ_AHEAD_MAX_BYTES = 256 * 1024;

/** One `read` of the daemon. */
type RemoteRead = { data: Uint8Array; size: number; eof: boolean } & FileIdentity;

/** The file a `read` read (the daemon's fstat of it; absent from a daemon older than these fields). */
type FileIdentity = { dev?: number; ino?: number; ctimeMs?: number; mtimeMs?: number };

/** Entries per `scan` page. */
const SCAN_PAGE = 5000;

/** Entries per change-log page. */
const CHANGES_PAGE = 1000;

/** An entry of the container tree, as `scan` lists it and `apply` reports it. */
export interface RemoteEntryStat {
  kind: "file" | "directory" | "symlink";
  mode: number;
  size: number;
  mtimeMs: number;
  ctimeMs?: number;
  target?: string;
}

/** One page of the daemon's `scan`. */
export interface RemoteScanPage {
  entries: (RemoteEntryStat & { path: string })[];
  /**
   * Entries the scan passed over. A name that is not UTF-8 carries what it is (`stat`; for a directory, `inside`: its
   * files and links, at most {@link SKIP_INSIDE_MAX}, `cut` when it holds more), so the pull keeps a synced file the
   * container moved there ({@link Stranded}; issue 20, run 39, fixer CR). A link with a valid name whose target is not
   * UTF-8 is `reason: "target"` (run 40, fixer f40ct). Unchecked here: {@link entryOf} checks each.
   */
  skipped: { path: string; reason: string; stat?: unknown; inside?: unknown; cut?: unknown }[];
  cursor: string | null;
  done: boolean;
}

/** One op of the daemon's `apply`. */
export type RemoteApplyOp =
  | { op: "write"; path: string; data: Uint8Array; mode?: number; offset?: number; truncate?: boolean }
  | { op: "mkdir"; path: string; mode?: number }
  | { op: "rm"; path: string }
  | { op: "symlink"; path: string; target: string }
  | { op: "chmod"; path: string; mode: number }
  | { op: "rename"; from: string; to: string; parents?: boolean }; // parents false: a missing parent of `to` is ENOENT (run 39, fixer CR)

/** The result of one `apply` op. */
export type RemoteApplyResult = { ok: true; stat?: RemoteEntryStat } | { ok: false; error: { code: string; message: string; path?: string } };

/**
 * The file-sync surface of a remote-store backend (`BackendHandle.rpc.sync`):
 * the `computerd` daemon's `info`, `scan`, `read` and `apply` (container/README.md).
 * Paths are relative to the mount point, `/`-separated, without a leading `/`.
 */
export interface SyncRPC {
  /**
   * The daemon: its mount point, applied ignore globs, boot id (new on every start) and disk id (the same
   * after a restart on the same disk, a new one on a fresh disk; absent from a daemon that keeps none).
   */
  info(): Promise<{ mountPoint: string; ignore: string[]; bootId: string; diskId?: string; version?: string }>;
  /** One page of the whole tree (ignored paths left out), depth first, a directory before its children. */
  scan(input: { cursor?: string | null; limit?: number }): Promise<RemoteScanPage>;
  /** `length` (≤ 1 MiB) bytes of a file from `offset`. */
  read(input: { path: string; offset?: number; length?: number }): Promise<{ data: Uint8Array; size: number; eof: boolean } & FileIdentity>;
  /** Applies ops in order, each on its own. */
  apply(input: { ops: RemoteApplyOp[] }): Promise<{ results: RemoteApplyResult[] }>;
}

/** The change-log part of the Workspace filesystem (internal methods of `WorkspaceFs`). */
export interface SyncFilesystem extends WorkspaceFilesystem {
  changesSince(cursor: ChangeCursor, options?: { limit?: number }): ChangePage;
  stampOf(path: string): number | undefined;
  /** The store revision (`WorkspaceFs.revision`): a pull keeps what it checked only while it can follow the change log from it. */
  revision?(): number;
  /** The entry at `path` as the sync fingerprints it (`WorkspaceFs.inodeOf`); absent: no rename is told from a deletion (issue 20, run 36, fixer RN). */
  inodeOf?(path: string): { ino: number; rev: number; kind: "file" | "directory" | "symlink"; mode: number; mtime: number; size: number } | undefined;
  /** Where inode `ino` is now (`WorkspaceFs.inodePath`), `undefined` when it is gone (run 36, fixer RN). */
  inodePath?(ino: number): string | undefined;
}

/** What one push did. */
export interface PushOutcome {
  /** Entries sent (files, directories, links, deletions). */
  pushed: number;
  /** Bytes of file content sent. */
  bytes: number;
  /**
   * Entries the container refused (e.g. a file where it has a directory it cannot replace); bounded as {@link PullOutcome.skipped}.
   * One refused for a reason that passes ({@link RETRIED_CODES}), or because the container's entry is in the way
   * ({@link IN_THE_WAY_CODES}: its reason ends with {@link IN_THE_WAY}; run 35, fixer CR), stays owed and is sent,
   * and listed while refused, again by every later push.
   */
  skipped: SkippedEntry[];
  /** The change-log position pushed up to. */
  cursor: ChangeCursor;
}

/** What one pull did. */
export interface PullOutcome {
  /** Entries applied to the Workspace (files, directories, links, deletions). */
  applied: number;
  /** Bytes of file content copied. */
  bytes: number;
  /**
   * Entries not applied: read-only mounts, special files, names that are not UTF-8, refused writes, Workspace
   * directories the container replaced by a file or link while the Workspace changed or added entries in them
   * (kept: `op: "write"`, `"the container replaced this directory by a file or link, but the Workspace changed …"`),
   * invalid answers of the daemon (`"invalid path from the container"`, `"invalid entry from the container"`)
   * and container links whose target leads outside /workspace (`"link leads outside /workspace"`).
   * Each `reason` is at most {@link MAX_SYNC_REASON_CHARS} characters; the first
   * {@link MAX_SYNC_SKIPPED} entries within {@link MAX_SYNC_SKIPPED_CHARS} are listed, and when there
   * are more, a last entry `{ path: "/workspace", reason: "<n> more skipped entries not listed (…)" }` counts the rest.
   */
  skipped: SkippedEntry[];
}

interface ManifestRow {
  kind: string;
  mode: number;
  size: number;
  mtime: number;
  ctime: number;
  target: string | null;
  rev: number;
  /** The Workspace inode the entry was synced from or to (NULL: not known; run 36, fixer RN). */
  ino: number | null;
  /** The Workspace entry's `kind:mode:mtime:size` then ({@link workspaceSignature}; NULL: not known; run 36, fixer RN). */
  wsig: string | null;
}

/**
 * What the push compares to tell a Workspace entry unchanged since it was synced although its revision moved (a
 * rename of a directory above it restamps it, run 36, fixer RN): kind and mode, and for a file or link its mtime and
 * size (a content write always moves a file's mtime, `Nodes.setContent`), as git's index and rsync's quick check do.
 */
function workspaceSignature(id: { kind: string; mode: number; mtime: number; size: number }): string {
  return id.kind === "directory" ? `directory:${id.mode}` : `${id.kind}:${id.mode}:${id.mtime}:${id.size}`;
}

/**
 * Whether `e` (from a scan) is the entry the manifest row describes. A
 * directory is compared by kind and mode only: its times change whenever an
 * entry is added or removed in it (a push does that too), and those entries
 * are compared on their own.
 */
function sameEntry(row: ManifestRow, e: RemoteEntryStat): boolean {
  if (e.kind === "directory") return row.kind === "directory" && row.mode === e.mode;
  return row.kind === e.kind && row.mode === e.mode && row.size === e.size && row.mtime === e.mtimeMs && row.ctime === (e.ctimeMs ?? 0) && (row.target ?? undefined) === e.target;
}

/** The wire path of a Workspace path under {@link SYNC_ROOT}, `""` for the root itself, `null` outside. */
export function wirePath(path: string): string | null {
  if (path === SYNC_ROOT) return "";
  return path.startsWith(`${SYNC_ROOT}/`) ? path.slice(SYNC_ROOT.length + 1) : null;
}

/** A POSIX-ish code of an error from the daemon: `code` when it survived the transport, else the message's `CODE:` prefix. */
export function remoteCode(error: unknown): string | undefined {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (typeof e?.code === "string") return e.code;
  const match = typeof e?.message === "string" ? /^([A-Z][A-Z0-9_]+): /.exec(e.message) : null;
  return match?.[1];
}

/**
 * The sync state of one remote-store backend in one Workspace. Every
 * operation runs under the backend's lock ({@link RemoteSync.exclusive}).
 */
export class RemoteSync {
  readonly #db: WorkspaceDatabase;
  readonly #fs: SyncFilesystem;
  readonly #backend: string;
  readonly #rpc: SyncRPC;
  #queue: Promise<unknown> = Promise.resolve();
  #info: Promise<{ mountPoint: string; ignore: string[]; bootId: string; diskId?: string }> | undefined;
  #ignored: (wire: string) => boolean = () => false;
  /** Commands this connection sent whose pull has not started. */
  #live = 0;
  /** Commands of this connection that settled without their pull ({@link commandAbandoned}) since a pull started: the next push pulls first, whatever else is live. */
  #owed = 0;
  /**
   * Container paths (wire form) whose `rm` a push has queued but not had answered yet (issue 20, run 37, fixer RA):
   * the manifest rows at and under them are forgotten only when the answer comes, so until then an entry there is
   * checked as one the container does not hold ({@link #pendingAt}). Emptied whenever the queued ops are answered.
   */
  readonly #pendingRm = new Set<string>();
  /** Where blocks and operations are reported (`WorkspaceOptions.syncTelemetry`, when enabled). */
  readonly #telemetry: SyncLogger | undefined;

  /**
   * @param db the Workspace database; creates the tables when missing.
   * @param telemetry receives a record per block and per push or pull (sync-telemetry.ts); none by default.
   */
  constructor(db: WorkspaceDatabase, fs: SyncFilesystem, backend: string, rpc: SyncRPC, telemetry?: SyncLogger) {
    this.#db = db;
    this.#fs = fs;
    this.#backend = backend;
    this.#rpc = rpc;
    this.#telemetry = telemetry;
    RemoteSync.createTables(db);
  }

  /** Creates the sync tables (idempotent). */
  static createTables(db: WorkspaceDatabase): void {
    db.run(
      `CREATE TABLE IF NOT EXISTS __ws_sync_state (
        backend TEXT PRIMARY KEY, boot TEXT, pushed_rev INTEGER NOT NULL DEFAULT 0, pushed_path TEXT,
        pull_pending INTEGER NOT NULL DEFAULT 0, pull_error TEXT, pull_owed INTEGER NOT NULL DEFAULT 0)`,
    );
    db.run(
      `CREATE TABLE IF NOT EXISTS __ws_sync_manifest (
        backend TEXT NOT NULL, path TEXT NOT NULL, kind TEXT NOT NULL, mode INTEGER NOT NULL, size INTEGER NOT NULL,
        mtime REAL NOT NULL, ctime REAL NOT NULL, target TEXT, rev INTEGER NOT NULL, PRIMARY KEY (backend, path)) WITHOUT ROWID`,
    );
    db.run(`CREATE TABLE IF NOT EXISTS __ws_sync_temps (backend TEXT NOT NULL, path TEXT NOT NULL, PRIMARY KEY (backend, path)) WITHOUT ROWID`);
    db.run(
      `CREATE TABLE IF NOT EXISTS __ws_sync_owed (
        backend TEXT NOT NULL, path TEXT NOT NULL, rev INTEGER NOT NULL, deleted INTEGER NOT NULL, PRIMARY KEY (backend, path)) WITHOUT ROWID`,
    );
    try {
      db.all(`SELECT disk FROM __ws_sync_state LIMIT 0`);
    } catch {
      // A state table made by an earlier version: the disk id the backend's daemon announced (NULL: none recorded).
      try {
        db.run(`ALTER TABLE __ws_sync_state ADD COLUMN disk TEXT`);
      } catch {
        /* the column exists */
      }
    }
    try {
      db.all(`SELECT pull_owed FROM __ws_sync_state LIMIT 0`);
    } catch {
      // A state table made by an earlier version, which kept "a command's pull is owed" as the error text alone.
      try {
        db.run(`ALTER TABLE __ws_sync_state ADD COLUMN pull_owed INTEGER NOT NULL DEFAULT 0`);
        db.run(`UPDATE __ws_sync_state SET pull_owed = 1 WHERE pull_pending = 1 AND pull_error = ?`, COMMAND_SENT);
      } catch {
        /* the column exists */
      }
    }
    try {
      db.all(`SELECT ino, wsig FROM __ws_sync_manifest LIMIT 0`);
    } catch {
      // A manifest made by an earlier version: the Workspace inode and signature of each entry (NULL: not known; a
      // rename of such a directory is pushed as a deletion and a re-creation, as then). Issue 20, run 36, fixer RN.
      for (const column of ["ino INTEGER", "wsig TEXT"]) {
        try {
          db.run(`ALTER TABLE __ws_sync_manifest ADD COLUMN ${column}`);
        } catch {
          /* the column exists */
        }
      }
    }
    // Where the manifest recorded a Workspace directory, by its inode: a rename is told from the new path (run 36, fixer RN).
    db.run(`CREATE INDEX IF NOT EXISTS __ws_sync_manifest_ino ON __ws_sync_manifest (backend, ino) WHERE ino IS NOT NULL`);
  }

  /** The backends that have synced in this Workspace (they have a state row), in id order. */
  static known(db: WorkspaceDatabase): { backend: string; pending: boolean; error: string | null }[] {
    RemoteSync.createTables(db);
    return db
      .all<{ backend: string; pull_pending: number; pull_error: string | null }>(`SELECT backend, pull_pending, pull_error FROM __ws_sync_state ORDER BY backend`)
      .map((r) => ({ backend: r.backend, pending: r.pull_pending === 1, error: r.pull_error }));
  }

  /** The change-log position this backend has pushed up to. */
  pushedCursor(): ChangeCursor {
    const row = this.#db.one<{ pushed_rev: number; pushed_path: string | null }>(`SELECT pushed_rev, pushed_path FROM __ws_sync_state WHERE backend = ?`, this.#backend);
    return { rev: row?.pushed_rev ?? 0, path: row?.pushed_path ?? null };
  }

  /** Runs `fn` after every earlier operation of this backend settled (push, spawn and pull are serialised). */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(fn, fn);
    this.#queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** The daemon's boot id (cached for the connection). */
  async bootId(): Promise<string> {
    return (await this.#daemon()).bootId;
  }

  #daemon(): Promise<{ mountPoint: string; ignore: string[]; bootId: string; diskId?: string }> {
    this.#info ??= this.#rpc.info().then(
      async (info) => {
        checkBootId((info as { bootId?: unknown } | null)?.bootId);
        checkMountPoint((info as { mountPoint?: unknown } | null)?.mountPoint);
        const disk = (info as { diskId?: unknown }).diskId;
        if (disk !== undefined) checkDiskId(disk);
        this.#ignored = ignoreMatcher(info.mountPoint, info.ignore);
        await this.#adopt(info.bootId, disk as string | undefined);
        return info;
      },
    );
    // A failed lookup (the daemon went away, the check's scan failed) is not kept: the next operation asks again.
    const info = this.#info;
    info.catch(() => {
      if (this.#info === info) this.#info = undefined;
    });
    return info;
  }

  /**
   * A new daemon boot. A restarted daemon on the same disk still holds what
   * the manifest describes: the manifest stays (what the container changed
   * meanwhile is pulled as usual, and the Workspace's changes, even those
   * made while a pull was pending, are neither overwritten nor undone). The
   * same disk is recognised by its disk id (`info().diskId`, a random id the
   * daemon keeps beside its mount point): the one recorded, whatever the
   * files hold — a file of the container's image is on every fresh disk, and
   * a command may have changed every synced file. Only when the daemon or the
   * record has no disk id (an earlier version) is it recognised by an entry
   * the manifest holds whose kind, mode, size, mtime and ctime are all as
   * recorded. Another disk (a relaunched container): the manifest is dropped
   * and the next push sends the whole tree.
   */
  async #adopt(boot: string, disk: string | undefined): Promise<void> {
    const row = this.#db.one<{ boot: string | null; disk: string | null }>(`SELECT boot, disk FROM __ws_sync_state WHERE backend = ?`, this.#backend);
    if (row?.boot === boot && (disk === undefined || row.disk === disk)) return;
    const same = row !== undefined && (disk !== undefined && row.disk !== null ? row.disk === disk : row.boot === boot || (await this.#sameDisk()));
    if (same) {
      this.#db.run(`UPDATE __ws_sync_state SET boot = ?, disk = ? WHERE backend = ?`, boot, disk ?? row.disk, this.#backend);
      return;
    }
    this.#db.tx(() => {
      this.#db.run(`DELETE FROM __ws_sync_manifest WHERE backend = ?`, this.#backend);
      this.#db.run(`DELETE FROM __ws_sync_temps WHERE backend = ?`, this.#backend);
      this.#db.run(`DELETE FROM __ws_sync_owed WHERE backend = ?`, this.#backend);
      this.#db.run(
        `INSERT INTO __ws_sync_state (backend, boot, disk, pushed_rev, pushed_path, pull_pending, pull_error, pull_owed) VALUES (?, ?, ?, 0, NULL, 0, NULL, 0)
         ON CONFLICT (backend) DO UPDATE SET boot = excluded.boot, disk = excluded.disk, pushed_rev = 0, pushed_path = NULL, pull_pending = 0, pull_error = NULL, pull_owed = 0`,
        this.#backend,
        boot,
        disk ?? null,
      );
    });
  }

  /** Whether the container still holds a file or link exactly as the manifest recorded it (walks until one is found). */
  async #sameDisk(): Promise<boolean> {
    const any = this.#db.one<{ n: number }>(`SELECT count(*) AS n FROM __ws_sync_manifest WHERE backend = ? AND kind != 'directory'`, this.#backend);
    if (!any || any.n === 0) return false;
    for await (const page of scanPages(this.#rpc)) {
      for (const raw of page.entries) {
        const entry = entryOf(raw);
        if (!entry || entry.kind === "directory") continue;
        const row = this.#manifestRow(entry.path);
        if (row && sameEntry(row, entry)) return true;
      }
    }
    return false;
  }

  /** Whether the manifest holds `path` (a primary-key look-up). */
  #recorded(path: string): boolean {
    return this.#db.one<{ one: number }>(`SELECT 1 AS one FROM __ws_sync_manifest WHERE backend = ? AND path = ?`, this.#backend, path) !== undefined;
  }

  #manifestRow(path: string): ManifestRow | undefined {
    return this.#db.one<ManifestRow>(
      `SELECT kind, mode, size, mtime, ctime, target, rev, ino, wsig FROM __ws_sync_manifest WHERE backend = ? AND path = ?`,
      this.#backend,
      path,
    );
  }

  /**
   * Records `path` as synced: the container's `stat`, the Workspace revision `rev`, and — when the Workspace entry at
   * the path is still that revision — its inode and signature (run 36, fixer RN), which tell a later rename.
   */
  #record(path: string, stat: RemoteEntryStat, rev: number, looked?: ReturnType<NonNullable<SyncFilesystem["inodeOf"]>> | null): void {
    // `looked`: the caller's look-up of the Workspace entry (`null`: nothing there), else one here (run 36, fixer RN).
    const id = looked === undefined ? this.#fs.inodeOf?.(`${SYNC_ROOT}/${path}`) : (looked ?? undefined);
    const known = id !== undefined && id.rev === rev && id.kind === stat.kind;
    this.#db.run(
      `INSERT OR REPLACE INTO __ws_sync_manifest (backend, path, kind, mode, size, mtime, ctime, target, rev, ino, wsig) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      this.#backend,
      path,
      stat.kind,
      stat.mode,
      stat.size,
      stat.mtimeMs,
      stat.ctimeMs ?? 0,
      stat.target ?? null,
      rev,
      known ? id.ino : null,
      known ? workspaceSignature(id) : null,
    );
  }

  /**
   * Forgets `path` and everything under it. Two statements, each a look-up
   * in the primary key (`path = ?`, then the range `[path/, path0)`): an `OR`
   * of the two would visit every row of the backend.
   */
  #forget(path: string): void {
    this.#db.run(`DELETE FROM __ws_sync_manifest WHERE backend = ? AND path = ?`, this.#backend, path);
    this.#db.run(`DELETE FROM __ws_sync_manifest WHERE backend = ? AND path >= ? AND path < ?`, this.#backend, `${path}/`, `${path}0`);
  }

  /**
   * Call under {@link exclusive} right before a command is sent: marks a pull
   * pending and owed (`pull_owed`, `pull_error` {@link COMMAND_SENT}) until a
   * pull completes. Should the object die first, the next push — by a
   * Workspace with no command of its own in flight — pulls first, so the
   * interrupted command's changes win as they would have (docs/container.md).
   * A failed or deferred pull ({@link markPullPending}) keeps the mark: the
   * next push with anything to send still pulls first.
   */
  commandSent(): void {
    this.#live++;
    this.#markOwed();
  }

  /** A command's pull is owed (`pull_owed`, apart from the last error text): the next push pulls first. */
  #markOwed(): void {
    this.#db.run(`UPDATE __ws_sync_state SET pull_pending = 1, pull_error = ?, pull_owed = 1 WHERE backend = ?`, COMMAND_SENT, this.#backend);
  }

  /** The command {@link commandSent} announced was not sent after all, or its pull is about to run (or be deferred). */
  commandSettled(): void {
    this.#live = Math.max(0, this.#live - 1);
  }

  /**
   * The command {@link commandSent} announced ended without its pull (its
   * event stream failed or was cancelled, or the call that sent it failed —
   * it may have started): its pull is owed, and the next
   * push pulls first even while other commands of this connection are live
   * (a long run beside it), so the command's changes win as they would have.
   */
  commandAbandoned(): void {
    this.commandSettled();
    this.#owed++;
  }

  /**
   * Marks a pull as pending (it failed, or was deferred) with its reason. A
   * command's owed pull ({@link commandSent}) stays owed: only a pull that
   * completes clears it.
   */
  markPullPending(error: string | null): void {
    this.#db.run(`UPDATE __ws_sync_state SET pull_pending = 1, pull_error = ? WHERE backend = ?`, error === null ? null : clipText(error), this.#backend);
  }

  /**
   * Sends the Workspace changes since the last push. Call under {@link exclusive}.
   * @throws the transport's error (nothing after the failing page is recorded as pushed).
   */
  async push(): Promise<PushOutcome> {
    const telemetry = new SyncTelemetryRun(this.#telemetry, "push", this.#backend);
    let totals: SyncTotals = { entries: 0, bytes: 0, skipped: 0 };
    try {
      const outcome = await this.#push((t) => telemetry.block((totals = t)));
      telemetry.end(totals);
      return withSkippedCount({ pushed: outcome.pushed, bytes: outcome.bytes, skipped: outcome.skipped.entries(), cursor: outcome.cursor }, outcome.skipped);
    } catch (error) {
      telemetry.end(totals, error);
      throw clipError(error);
    }
  }

  /** {@link push}; `block` gets the running totals after each page of the change log. */
  async #push(block: (totals: SyncTotals) => void): Promise<Omit<PushOutcome, "skipped"> & { skipped: SkipList }> {
    await this.#daemon();
    const state = () => this.#db.one<{ pushed_rev: number; pushed_path: string | null; pull_owed: number; pull_error: string | null }>(
      `SELECT pushed_rev, pushed_path, pull_owed, pull_error FROM __ws_sync_state WHERE backend = ?`,
      this.#backend,
    );
    const before = state();
    const owedPull = before?.pull_owed === 1 && (this.#live === 0 || this.#owed > 0);
    let sends: boolean | undefined;
    const toSend = () => (sends ??= this.#toSend({ rev: before?.pushed_rev ?? 0, path: before?.pushed_path ?? null }));
    // A command sent by an earlier life of the object (or connection), or abandoned by this one, whose pull never ran:
    // its changes first. So too — when the push has anything to send — a command whose own pull failed or was
    // deferred (the mark stays owed, its error text replaced). And while commands of this connection are live, what
    // they changed since the last pull is pulled first when the push has anything to send, so a push deleting or
    // rewriting an entry never destroys what a live run wrote there (the container's changes win, as in the pull;
    // docs/container.md) — their pulls stay owed.
    if ((owedPull && (before.pull_error === COMMAND_SENT || toSend())) || (this.#live > 0 && toSend())) {
      await this.pull();
    }
    const after = state();
    let cursor: ChangeCursor = { rev: after?.pushed_rev ?? 0, path: after?.pushed_path ?? null };
    const outcome = { pushed: 0, bytes: 0, skipped: new SkipList(), cursor };
    // A parked directory lives for one push only (issue 20, run 37, fixer RA2): one an earlier push left (the object
    // died mid-push, or its removal failed) is removed before this one parks any, and this push's are removed at its
    // end, whether it completes or is cut short (a transport failure there is left to the next push's start).
    await this.#unpark(); // fixer RA2
    try {
      await this.#pushOwed(outcome);
      for (;;) {
        const page = this.#fs.changesSince(cursor, { limit: CHANGES_PAGE });
        await this.#pushEntries(page.entries, outcome, true); // in change-log order (run 39, fixer CR)
        cursor = page.cursor;
        outcome.cursor = cursor;
        this.#db.run(`UPDATE __ws_sync_state SET pushed_rev = ?, pushed_path = ? WHERE backend = ?`, cursor.rev, cursor.path, this.#backend);
        block({ entries: outcome.pushed, bytes: outcome.bytes, skipped: outcome.skipped.count });
        if (page.done) return outcome;
      }
    } finally {
      await this.#unpark().catch(() => {}); // fixer RA2
    }
  }

  /**
   * Removes every parked directory ({@link MOVE_PARK_PREFIX}) the records of `__ws_sync_temps` name, in the container
   * (the daemon's `rm`, recursive; `ENOENT` counts as removed) and in the manifest (its rows at and under the name):
   * what a change-log entry did not rename into place — the push was cut short, or the Workspace removed the
   * directory while the push ran — is not left at the mount root (issue 20, run 37, fixer RA2). A name whose `rm`
   * the container refuses stays recorded, and is tried again by the next push or pull. One round trip per
   * {@link APPLY_BATCH_OPS} names; none when nothing is parked (a primary-key range look-up).
   * @throws the transport's error (what was answered before it is settled).
   */
  async #unpark(): Promise<void> {
    const parked = this.#db
      .all<{ path: string }>(`SELECT path FROM __ws_sync_temps WHERE backend = ? AND path >= ? AND path < ?`, this.#backend, MOVE_PARK_PREFIX, MOVE_PARK_END)
      .map((r) => r.path)
      .filter(isParkName);
    for (let i = 0; i < parked.length; i += APPLY_BATCH_OPS) {
      const batch = parked.slice(i, i + APPLY_BATCH_OPS);
      const { results } = await this.#rpc.apply({ ops: batch.map((path): RemoteApplyOp => ({ op: "rm", path })) });
      const list: unknown[] = Array.isArray(results) ? results : [];
      batch.forEach((path, k) => {
        const answer = list[k] === undefined ? undefined : applyResultOf(list[k]);
        if (answer === undefined || (!answer.ok && answer.error.code !== "ENOENT")) return;
        this.#db.tx(() => {
          this.#forget(path);
          this.#db.run(`DELETE FROM __ws_sync_temps WHERE backend = ? AND path = ?`, this.#backend, path);
        });
      });
    }
  }

  /**
   * Sends again the entries earlier pushes owe ({@link MAX_SYNC_OWED} at most, `__ws_sync_owed`): those the
   * container refused for a reason that passes ({@link RETRIED_CODES}: a busy executable, a full disk; or
   * {@link IN_THE_WAY_CODES}: the container's entry in the way, run 35, fixer CR). Each is
   * sent as the Workspace holds it now, when that is still the revision refused; a later change is in the change
   * log, which sends it (the row goes). Refused again, it is reported again and stays owed.
   */
  async #pushOwed(outcome: { pushed: number; bytes: number; skipped: SkipList }): Promise<void> {
    for (let after = ""; ; ) {
      const rows = this.#db.all<{ path: string; rev: number; deleted: number }>(
        `SELECT path, rev, deleted FROM __ws_sync_owed WHERE backend = ? AND path > ? ORDER BY path LIMIT ?`,
        this.#backend,
        after,
        OWED_PAGE,
      );
      if (rows.length === 0) return;
      after = rows[rows.length - 1]!.path;
      const entries: ChangeEntry[] = [];
      for (const row of rows) {
        const entry = await this.#owedEntry(row.path, row.rev, row.deleted === 1);
        if (entry) entries.push(entry);
        else this.#settleOwed(row.path, undefined);
      }
      await this.#pushEntries(entries, outcome);
    }
  }

  /** The entry an owed row stands for, as the Workspace holds it now; `undefined` when the Workspace changed it since (the change log sends that). */
  async #owedEntry(path: string, rev: number, deleted: boolean): Promise<ChangeEntry | undefined> {
    if (deleted) return this.#fs.stampOf(path) === undefined ? { path, kind: "deleted", rev } : undefined;
    if (this.#fs.stampOf(path) !== rev) return undefined;
    const stat = await this.#fs.lstat(path).catch(() => undefined);
    if (!stat) return undefined;
    const target = stat.isSymbolicLink ? await this.#fs.readlink(path).catch(() => undefined) : undefined;
    if (this.#fs.stampOf(path) !== rev || (stat.isSymbolicLink && target === undefined)) return undefined;
    const kind = stat.isSymbolicLink ? "symlink" : stat.isDirectory ? "directory" : "file";
    return { path, kind, rev, mode: stat.mode, mtime: stat.mtime, size: stat.size, ...(target !== undefined ? { target } : {}) };
  }

  /**
   * After the ops of `entry` (a Workspace path) were answered: owed again when one was refused for a reason
   * that passes (`owe`, the entry), else no longer owed. At most {@link MAX_SYNC_OWED} entries are owed; past
   * that a refusal is reported once, as before.
   */
  #settleOwed(path: string, owe: ChangeEntry | undefined): void {
    if (owe === undefined) {
      this.#db.run(`DELETE FROM __ws_sync_owed WHERE backend = ? AND path = ?`, this.#backend, path);
      return;
    }
    const held = this.#db.one<{ n: number }>(`SELECT count(*) AS n FROM __ws_sync_owed WHERE backend = ?`, this.#backend)?.n ?? 0;
    if (held >= MAX_SYNC_OWED && this.#db.one<{ one: number }>(`SELECT 1 AS one FROM __ws_sync_owed WHERE backend = ? AND path = ?`, this.#backend, path) === undefined) return;
    this.#db.run(
      `INSERT OR REPLACE INTO __ws_sync_owed (backend, path, rev, deleted) VALUES (?, ?, ?, ?)`,
      this.#backend,
      path,
      owe.rev,
      owe.kind === "deleted" ? 1 : 0,
    );
  }

  /**
   * Whether the Workspace changes after `cursor` hold an entry a push would send (under /workspace, not
   * ignored, not the revision the manifest holds), or an entry is owed: reads the change log up to the first such entry.
   */
  #toSend(cursor: ChangeCursor): boolean {
    if (this.#db.one<{ one: number }>(`SELECT 1 AS one FROM __ws_sync_owed WHERE backend = ? LIMIT 1`, this.#backend) !== undefined) return true;
    for (;;) {
      const page = this.#fs.changesSince(cursor, { limit: CHANGES_PAGE });
      for (const entry of page.entries) {
        const wire = wirePath(entry.path);
        if (wire === null || wire === "" || this.#ignored(wire) || (entry.kind === "file" && isDaemonWriteTemp(wire))) continue;
        if (entry.kind === "deleted" ? this.#removals(wire, entry.rev).length > 0 : this.#manifestRow(wire)?.rev !== entry.rev) return true;
      }
      if (page.done) return false;
      cursor = page.cursor;
    }
  }

  /**
   * Whether `wire` or one of its parents has an `rm` queued and not answered yet ({@link #pendingRm}; run 37, fixer
   * RA): its manifest rows are about to be forgotten with the container's entries, so an entry there must not be
   * taken for one the container holds. O(depth) set look-ups, none while nothing is queued.
   */
  #pendingAt(wire: string): boolean {
    if (this.#pendingRm.size === 0) return false;
    for (let path = wire; ; ) {
      if (this.#pendingRm.has(path)) return true;
      const slash = path.lastIndexOf("/");
      if (slash < 0) return false;
      path = path.slice(0, slash);
    }
  }

  async #pushEntries(entries: readonly ChangeEntry[], outcome: { pushed: number; bytes: number; skipped: SkipList }, log = false): Promise<void> {
    let ops: RemoteApplyOp[] = [];
    let done: ((result: RemoteApplyResult) => void)[] = [];
    let bytes = 0;
    this.#pendingRm.clear(); // a push cut short (the transport failed) left none answered: its rows were never forgotten
    const flush = async (): Promise<void> => {
      if (ops.length === 0) return;
      const sent = ops;
      const after = done;
      ops = [];
      done = [];
      bytes = 0;
      const { results } = await this.#rpc.apply({ ops: sent });
      const list: unknown[] = Array.isArray(results) ? results : [];
      sent.forEach((_, i) => after[i]!(list[i] === undefined ? { ok: false, error: { code: "EIO", message: "EIO: no result for this op" } } : applyResultOf(list[i])));
      this.#pendingRm.clear(); // every queued rm answered (and its rows forgotten, or kept where refused): run 37, fixer RA
    };
    const add = async (op: RemoteApplyOp, then: (result: RemoteApplyResult) => void): Promise<void> => {
      ops.push(op);
      done.push(then);
      bytes += applyOpWeight(op);
      if (ops.length >= APPLY_BATCH_OPS || bytes >= APPLY_BATCH_BYTES) await flush();
    };
    const refused = (path: string) => (result: RemoteApplyResult): boolean => {
      if (result.ok) return false;
      outcome.skipped.push({ path, reason: result.error.message });
      return true;
    };
    for (const entry of entries) {
      const wire = wirePath(entry.path);
      // A file named as the daemon's write temporary is not pushed: its scan never lists one (a directory or link so
      // named is an ordinary entry on both sides).
      if (wire === null || wire === "" || this.#ignored(wire) || (entry.kind === "file" && isDaemonWriteTemp(wire))) continue;
      // Whether an op of this entry was refused for a reason that passes: then the entry stays owed (#pushOwed).
      let passes = false;
      const passing = (result: RemoteApplyResult): void => {
        if (!result.ok && RETRIED_CODES.has(result.error.code)) passes = true;
      };
      // Refused because the container's own entry is in the way (IN_THE_WAY_CODES): owed too, until one side gives
      // way, and reported on every push with which side is in the way (issue 20, run 35, fixer CR).
      const inTheWay = (result: RemoteApplyResult): RemoteApplyResult => {
        if (result.ok || !IN_THE_WAY_CODES.has(result.error.code)) return result;
        passes = true;
        return { ok: false, error: { ...result.error, message: `${result.error.message}: ${IN_THE_WAY}` } };
      };
      if (entry.kind === "deleted") {
        // A synced directory the Workspace renamed: moved in the container too, with what only the container holds
        // in it (ignored entries), instead of removed and sent again (issue 20, run 36, fixer RN).
        if (entry.subtree === true && (await this.#pushRename(wire, entry.rev, add, flush, outcome, log ? entry : undefined))) {
          this.#settleOwed(entry.path, undefined);
          continue;
        }
        const targets = this.#removals(wire, entry.rev);
        if (targets.length === 0) {
          this.#settleOwed(entry.path, undefined);
          continue; // never reached the container, or synced again since
        }
        outcome.pushed++;
        let left = targets.length;
        await this.#parkLiving(wire, entry.rev, flush, new Set(targets)); // run 38, fixer RB
        for (const target of targets) {
          this.#pendingRm.add(target); // run 37, fixer RA
          await add({ op: "rm", path: target }, (result) => {
            if (!result.ok && result.error.code !== "ENOENT") {
              passing(result);
              refused(`${SYNC_ROOT}/${target}`)(result);
            } else this.#forget(target);
            if (--left === 0) this.#settleOwed(entry.path, passes ? entry : undefined);
          });
        }
        continue;
      }
      // Under a removal queued and not answered yet (`rm -r a; mkdir a; mv t a/f`), the rows there are about to be
      // forgotten with the container's entries: the entry is checked as one the container does not hold, and sent
      // (issue 20, run 37, fixer RA). Its answer comes after the removal's, so it is recorded again.
      let row = this.#pendingAt(wire) ? undefined : this.#manifestRow(wire);
      const id = entry.kind === "directory" ? this.#fs.inodeOf?.(entry.path) : undefined;
      if (id !== undefined && id.rev === entry.rev && row?.ino !== id.ino) {
        // A synced directory renamed here, met before the deletion at its old path (the new path sorts first), or
        // left at a path a rename of its parent gave it (run 37, fixer RA): the rename is pushed now, and the
        // deletion then finds nothing recorded (run 36, fixer RN).
        const from = this.#db.one<{ path: string }>(
          `SELECT path FROM __ws_sync_manifest WHERE backend = ? AND ino = ? AND kind = 'directory' AND path != ? LIMIT 1`,
          this.#backend,
          id.ino,
          wire,
        );
        if (from !== undefined && !this.#pendingAt(from.path)) {
          if (await this.#pushRename(from.path, entry.rev, add, flush, outcome, log ? entry : undefined)) row = this.#pendingAt(wire) ? undefined : this.#manifestRow(wire);
          else if (!from.path.startsWith(`${wire}/`) && !wire.startsWith(`${from.path}/`) && this.#fs.inodeOf?.(`${SYNC_ROOT}/${from.path}`) === undefined) {
            // Not renamed (the container refused it, or changed it since): the copy at the old path, where the
            // Workspace holds nothing, goes by the deletion's rules — its own deletion may be at another path, or
            // none (`a → b; b/s → c; b → d`: the rows are at `d/s`, the tombstone at `b/s`; a parked directory; run
            // 37, fixer RA). Something there now sends its own entry (a directory of another inode replaces it).
            const targets = this.#removals(from.path, entry.rev);
            if (targets.length > 0) await this.#parkLiving(from.path, entry.rev, flush, new Set(targets)); // run 38, fixer RB
            for (const target of targets) {
              this.#pendingRm.add(target);
              await add({ op: "rm", path: target }, (result) => {
                if (result.ok || result.error.code === "ENOENT") this.#forget(target);
                else outcome.skipped.push({ path: `${SYNC_ROOT}/${target}`, reason: result.error.message });
              });
            }
          }
        }
      }
      if (row && row.kind === "directory" && row.ino !== null && this.#fs.inodeOf) {
        // The container's directory here is another Workspace directory, which lives at a path whose entry is still
        // to come (`mv a b; mv b/s c; mv b d; mkdir d/s`: the rows a rename moved to `d/s` are `c`'s): parked for
        // that entry to rename, so none of its entries stays under the new one (run 37, fixer RA). Only then: a
        // directory a pull made again as a parent keeps the inode recorded before, and holds what the pull brought.
        const here = entry.kind === "directory" ? id : this.#fs.inodeOf(entry.path);
        if (here !== undefined && here.rev === entry.rev && here.ino !== row.ino && this.#movedOn(row.ino, entry.rev) && (await this.#park(wire, flush))) {
          row = undefined;
        }
      }
      if (row && row.rev === entry.rev) {
        this.#settleOwed(entry.path, undefined);
        continue; // the container has this revision already
      }
      if (row && this.#unchangedSince(entry, row)) {
        // Restamped without a change (a rename above it moved it, run 36, fixer RN): the container has it already.
        this.#db.run(`UPDATE __ws_sync_manifest SET rev = ? WHERE backend = ? AND path = ?`, entry.rev, this.#backend, wire);
        this.#settleOwed(entry.path, undefined);
        continue;
      }
      const rev = entry.rev;
      // Another kind of entry in the container's way (a directory where a file now is): removed first. Forgotten
      // only once it is gone (as a deletion's): one the container keeps (EBUSY: a mount under it) stays as recorded,
      // so the pull does not take it for the container's new work. Its refusal is the write's, which reports it.
      if (row && row.kind !== entry.kind) {
        if (row.kind === "directory") await this.#parkLiving(wire, entry.rev, flush); // run 38, fixer RB
        this.#pendingRm.add(wire); // run 37, fixer RA
        await add({ op: "rm", path: wire }, (result) => {
          if (result.ok || result.error.code === "ENOENT") this.#forget(wire);
          else passing(result);
        });
      }
      const recorded = (answer: RemoteApplyResult): void => {
        const result = inTheWay(answer); // run 35, fixer CR
        passing(result);
        this.#settleOwed(entry.path, passes ? entry : undefined);
        if (refused(entry.path)(result) || !result.ok) return;
        if (result.stat) this.#record(wire, result.stat, rev);
      };
      if (entry.kind === "directory") {
        outcome.pushed++;
        await add({ op: "mkdir", path: wire, mode: entry.mode ?? 0o755 }, recorded);
      } else if (entry.kind === "symlink") {
        outcome.pushed++;
        await add({ op: "symlink", path: wire, target: entry.target ?? "" }, recorded);
      } else {
        const sent = await this.#pushFile(entry, wire, add, flush, recorded);
        if (sent >= 0) {
          outcome.pushed++;
          outcome.bytes += sent;
        } else this.#settleOwed(entry.path, undefined);
      }
    }
    await flush();
  }

  /**
   * Whether the Workspace entry `entry` is the one `row` recorded, unchanged though its revision moved: the same inode
   * (never reused), still at the entry's revision, with the recorded {@link workspaceSignature} (and link target).
   * A rename restamps everything it moves (`Nodes.move`) without changing it. Not told apart: a rewrite of the same
   * size whose mtime `utimes` set back to the recorded one (as git's index without ctime and rsync's quick check).
   */
  #unchangedSince(entry: ChangeEntry, row: ManifestRow): boolean {
    if (row.ino === null || row.wsig === null || row.kind !== entry.kind) return false;
    const id = this.#fs.inodeOf?.(entry.path);
    if (id === undefined || id.ino !== row.ino || id.rev !== entry.rev || workspaceSignature(id) !== row.wsig) return false;
    return entry.kind !== "symlink" || row.target === (entry.target ?? "");
  }

  /**
   * A Workspace subtree deletion of `wire` at revision `rev` that is a rename of the directory recorded there
   * (issue 20, run 36, fixer RN): the manifest's directory at `wire` has a Workspace inode, that inode is a directory
   * now at another synced path `to` (not ignored, not inside `wire` nor holding it), and nothing at or under `wire`
   * was synced after `rev` (a pull brought it back: the deletion's rules apply). Then the daemon's `rename` op moves
   * the container's directory (with the entries only the container holds there, ignored ones included, as `mv`
   * does), the manifest rows at and under `wire` move to `to` (two range statements, replacing what it recorded at
   * `to`), and the moved rows whose Workspace entry is gone are removed in the container (one look-up per row:
   * deletions made inside the moved tree before a later rename are not under its new path in the change log) —
   * but a moved directory that lives at another synced path now, not synced there yet, is kept for the entry there
   * to rename ({@link #movedOn}; issue 20, run 37, fixer RA). Something made at `wire` since does not stop the
   * rename (its entry is later in the change log, run 37, fixer RA); a `to` inside `wire` or holding it (`mv a t;
   * mkdir a; mv t a/t`) is reached in two renames, through a parked name at the mount root ({@link MOVE_PARK_PREFIX}).
   * Rows under an `rm` not answered yet are settled first ({@link #pendingAt}).
   * The moved entries then come in the change log at their new paths and are sent only when changed
   * ({@link #unchangedSince}). A directory still at `wire` (renamed away and back) is only checked so.
   * Returns `false` — the deletion is pushed as one, as before — when it is no such rename, or the container refuses
   * the rename (e.g. `ENOTEMPTY`: its directory at `to` holds entries the Workspace never synced, which `mv` would
   * not replace either).
   * `at`: the change-log entry being pushed (absent for an owed one). When the entry at `to` comes after it in the
   * change log, the rename is sent without making `to`'s missing parents (`parents: false`): a parent that is not in
   * the container yet is made by its own entry — or is the new path of a directory whose rename is still to come
   * (`mv a/u a/x; mv a b`: `a/u → b/x` met before `a → b`), which a parent made here would block (`ENOTEMPTY`, and
   * `a`, with what only the container holds in it, removed). Then (`ENOENT`) the directory is parked at the mount
   * root ({@link #park}) for the entry at `to` to rename into place (issue 20, run 39, fixer CR).
   */
  async #pushRename(
    wire: string,
    rev: number,
    add: (op: RemoteApplyOp, then: (result: RemoteApplyResult) => void) => Promise<void>,
    flush: () => Promise<void>,
    outcome: { pushed: number; skipped: SkipList },
    at?: { rev: number; path: string },
  ): Promise<boolean> {
    // Rows under a removal not answered yet are about to go: answered first, so they are not moved (run 37, fixer RA).
    if (this.#pendingAt(wire)) await flush();
    const row = this.#manifestRow(wire);
    if (!row || row.kind !== "directory" || row.ino === null || !this.#fs.inodePath) return false;
    const now = this.#fs.inodePath(row.ino);
    const to = now === undefined ? null : wirePath(now);
    if (to === null || to === "" || this.#ignored(to)) return false;
    const place = this.#fs.inodeOf?.(now!);
    if (place?.kind !== "directory") return false;
    // Moved into a directory made at its old path since, or up over its old parent (`mv a t; mkdir a; mv t a/t`,
    // `mv a/s t; rm -r a; mv t a`): no single rename gets there, the new parent not being in the container yet. It
    // is parked at the mount root under a name of the sync's (`.ws-sync-move-<8 hex>`) and renamed into place by the
    // entry at its new path, later in the change log (its revision is newer); else pushed as a deletion, as before
    // (issue 20, run 37, fixer RA).
    const nested = to.startsWith(`${wire}/`) || wire.startsWith(`${to}/`);
    if (nested && place.rev <= rev) return false;
    const newer = this.#db.one<{ one: number }>(
      `SELECT 1 AS one FROM __ws_sync_manifest WHERE backend = ? AND path >= ? AND path < ? AND rev > ? LIMIT 1`,
      this.#backend,
      `${wire}/`,
      `${wire}0`,
      rev,
    );
    if (row.rev > rev || newer !== undefined) return false;
    if (to !== wire) {
      // Something at `wire` in the Workspace again is renamed away all the same (issue 20, run 37, fixer RA: `mv a z;
      // mkdir a`, as `mv`): what was made there is newer than the deletion, so it comes later in the change log and is
      // sent to the vacated path then. One a pull brought back has a newer row at or under `wire`: declined above.
      if (!nested && this.#pendingAt(to)) await flush(); // rows there about to go: answered first (run 38, fixer RB)
      const there = nested ? undefined : this.#manifestRow(to);
      // The Workspace directory was synced at `to` already (pushed there after a refused rename): `wire` is a stale copy.
      if (there?.ino === row.ino) return false;
      await flush();
      const dest = nested ? this.#parkName() : to; // recorded before it is made (fixer RA2)
      // The entry at `to` is still to come: a missing parent is not made here (run 39, fixer CR).
      const later = !nested && at !== undefined && changeAfter(place.rev, now!, at.rev, at.path);
      const ops: RemoteApplyOp[] = [];
      // A file or link the rename replaced in the Workspace: removed first (a directory cannot be renamed over one).
      if (there && there.kind !== "directory") ops.push({ op: "rm", path: to });
      ops.push(later ? { op: "rename", from: wire, to: dest, parents: false } : { op: "rename", from: wire, to: dest });
      const { results } = await this.#rpc.apply({ ops });
      const list: unknown[] = Array.isArray(results) ? results : [];
      const answers = ops.map((_, i) => (list[i] === undefined ? ({ ok: false, error: { code: "EIO", message: "EIO: no result for this op" } } as RemoteApplyResult) : applyResultOf(list[i])));
      const answer = answers.at(-1)!;
      if (!answer.ok) {
        if (nested) this.#db.run(`DELETE FROM __ws_sync_temps WHERE backend = ? AND path = ?`, this.#backend, dest); // nothing parked (fixer RA2)
        // `to`'s parent is not in the container yet: parked, for the entry at `to` to rename it there (run 39, fixer CR).
        if (later && (answer.error.code === "ENOENT" || answer.error.code === "ENOTDIR") && (await this.#park(wire, flush))) {
          outcome.pushed++;
          return true;
        }
        return false;
      }
      outcome.pushed++;
      this.#moveRows(wire, dest);
      // Parked: the entry at `to` finds it by its inode and renames it there (and removes what the Workspace removed).
      if (nested) return true;
    }
    // What the Workspace removed inside the moved tree: removed in the container too (each highest one).
    const removed = new Set<string>();
    for (let after = `${to}/`; ; ) {
      const rows = this.#db.all<{ path: string; ino: number | null; kind: string }>(
        `SELECT path, ino, kind FROM __ws_sync_manifest WHERE backend = ? AND path > ? AND path < ? ORDER BY path LIMIT ?`,
        this.#backend,
        after,
        `${to}0`,
        CHANGES_PAGE,
      );
      if (rows.length === 0) break;
      after = rows[rows.length - 1]!.path;
      for (const moved of rows) {
        let parent = moved.path;
        let covered = false;
        for (let slash = parent.lastIndexOf("/"); slash > to.length; slash = parent.lastIndexOf("/")) {
          parent = parent.slice(0, slash);
          if (removed.has(parent)) {
            covered = true;
            break;
          }
        }
        // Something at the path that is not the entry recorded (another inode: replaced since) counts as gone (run 37, fixer RA).
        const here = this.#fs.inodeOf?.(`${SYNC_ROOT}/${moved.path}`);
        if (covered || (here !== undefined && (moved.ino === null || here.ino === moved.ino))) continue;
        // A directory moved out of the moved tree since (`mv a b; mv b/s c`, `mv a z; mkdir a; mv z/s a/s`) and not
        // synced at its new place yet: kept, so the entry there — later in the change log, its revision being newer —
        // renames it (with what only the container holds in it), instead of it being removed and sent again
        // (issue 20, run 37, fixer RA). Its new place is checked as a rename's target is; else it is removed.
        if (moved.kind === "directory" && moved.ino !== null && this.#movedOn(moved.ino, rev)) continue;
        // What lives on under it is parked first, not taken by the removal (run 38, fixer RB).
        if (moved.kind === "directory") await this.#parkLiving(moved.path, rev, flush);
        removed.add(moved.path);
        outcome.pushed++;
        await add({ op: "rm", path: moved.path }, (result) => {
          if (result.ok || result.error.code === "ENOENT") this.#forget(moved.path);
          else outcome.skipped.push({ path: `${SYNC_ROOT}/${moved.path}`, reason: result.error.message });
        });
      }
    }
    // Answered (and forgotten) before the change log's own deletions there come: each is sent once.
    if (removed.size > 0) await flush();
    return true;
  }

  /** Moves the manifest rows at and under `from` to `to` (two range statements), replacing what it recorded at `to`. */
  #moveRows(from: string, to: string): void {
    this.#db.tx(() => {
      this.#forget(to);
      this.#db.run(`UPDATE __ws_sync_manifest SET path = ? WHERE backend = ? AND path = ?`, to, this.#backend, from);
      this.#db.run(
        `UPDATE __ws_sync_manifest SET path = ? || substr(path, length(?) + 1) WHERE backend = ? AND path >= ? AND path < ?`,
        to,
        from,
        this.#backend,
        `${from}/`,
        `${from}0`,
      );
    });
  }

  /**
   * Parks the container's directory at `wire` (and its manifest rows) under {@link MOVE_PARK_PREFIX} at the mount
   * root, for the change-log entry at the path its Workspace directory lives at now to rename it there (issue 20,
   * run 37, fixer RA). `false` when the container refuses the rename (nothing moved).
   */
  async #park(wire: string, flush: () => Promise<void>): Promise<boolean> {
    await flush();
    const dest = this.#parkName(); // recorded before it is made (fixer RA2)
    const { results } = await this.#rpc.apply({ ops: [{ op: "rename", from: wire, to: dest }] });
    const answer = Array.isArray(results) && results[0] !== undefined ? applyResultOf(results[0]) : undefined;
    if (!answer?.ok) {
      this.#db.run(`DELETE FROM __ws_sync_temps WHERE backend = ? AND path = ?`, this.#backend, dest); // nothing parked (fixer RA2)
      return false;
    }
    this.#moveRows(wire, dest);
    return true;
  }

  /**
   * A fresh parked name ({@link parkName}), recorded in `__ws_sync_temps` before the rename that parks a directory
   * there is sent: should the push be cut short (or the object die) before the rename's answer, {@link #unpark} still
   * knows the name (issue 20, run 37, fixer RA2).
   */
  #parkName(): string {
    const name = parkName();
    this.#db.run(`INSERT OR IGNORE INTO __ws_sync_temps (backend, path) VALUES (?, ?)`, this.#backend, name);
    return name;
  }

  /**
   * Whether the Workspace directory `ino` (recorded at a path where nothing is now) lives at a synced, non-ignored
   * path whose change-log entry is still to come — its revision newer than `rev`, the deletion being pushed — and is
   * not recorded there yet: that entry then finds the row by its inode and renames it ({@link #pushRename}; issue
   * 20, run 37, fixer RA).
   */
  #movedOn(ino: number, rev: number): boolean {
    const now = this.#fs.inodePath?.(ino);
    const there = now === undefined ? null : wirePath(now);
    if (there === null || there === "" || this.#ignored(there)) return false;
    const id = this.#fs.inodeOf?.(now!);
    return id !== undefined && id.kind === "directory" && id.rev > rev && this.#manifestRow(there)?.ino !== ino;
  }

  /**
   * Whether the Workspace directory `ino` lives on — at a synced, non-ignored path (its recorded one included) whose
   * change-log entry is still to come, its revision newer than `rev` — so that entry renames the container's
   * directory recorded with that inode into place ({@link #pushRename}; issue 20, run 38, fixer RB). One look-up of
   * the inode's stamp when it is gone.
   */
  #livesOn(ino: number, rev: number): boolean {
    const now = this.#fs.inodePath?.(ino);
    const there = now === undefined ? null : wirePath(now);
    if (there === null || there === "" || this.#ignored(there)) return false;
    const id = this.#fs.inodeOf?.(now!);
    return id !== undefined && id.ino === ino && id.kind === "directory" && id.rev > rev;
  }

  /**
   * Before the container's directory `target` is removed for a Workspace change at revision `rev` (a deletion, a
   * replacement by a file or link, a row a rename left where the Workspace holds nothing): every recorded directory
   * under it whose Workspace inode lives on ({@link #livesOn} — moved out, even into a directory later renamed or
   * made at `target`'s own path, or back to its recorded path under a new `target`: `mkdir c; mv a/s c/s; rm -r a;
   * mv c a`) is parked first ({@link #park}, `.ws-sync-move-<8 hex>` at the mount root), each highest one with what
   * is under it, so the removal does not take it, and the entry at its path renames it there later in the push, with
   * what only the container holds in it (ignored entries), as `mv` and `rm -r` leave a directory (issue 20, run 38,
   * fixer RB). A park the container refuses leaves the directory to the removal, as before. `targets`: the
   * directories about to be removed, `target` itself or — for a deletion a pull partly undid ({@link #removals}) —
   * some of those under it; only a directory row strictly under one of them is looked at. One range read of the
   * directory rows under `target` (pages of {@link CHANGES_PAGE}; file rows are passed over inside SQLite), an
   * O(depth) set check and one inode look-up per directory row; a round trip per parked directory only.
   */
  async #parkLiving(target: string, rev: number, flush: () => Promise<void>, targets: ReadonlySet<string> = new Set([target])): Promise<void> { // fixer RB
    if (!this.#fs.inodePath || !this.#fs.inodeOf) return;
    const parked = new Set<string>();
    for (let after = `${target}/`; ; ) {
      const rows = this.#db.all<{ path: string; ino: number }>(
        `SELECT path, ino FROM __ws_sync_manifest WHERE backend = ? AND path > ? AND path < ? AND kind = 'directory' AND ino IS NOT NULL ORDER BY path LIMIT ?`,
        this.#backend,
        after,
        `${target}0`,
        CHANGES_PAGE,
      );
      if (rows.length === 0) return;
      after = rows[rows.length - 1]!.path;
      for (const row of rows) {
        // Under a directory parked already (it moved with it), or under none of the removed ones (it stays): passed over (fixer RB).
        let moved = false;
        let removed = false;
        for (let slash = row.path.lastIndexOf("/"); slash >= target.length && !moved; slash = row.path.lastIndexOf("/", slash - 1)) {
          const parent = row.path.slice(0, slash);
          moved = parked.has(parent);
          removed ||= targets.has(parent);
        }
        if (moved || !removed || !this.#livesOn(row.ino, rev)) continue; // fixer RB
        if (await this.#park(row.path, flush)) parked.add(row.path);
      }
    }
  }

  /**
   * What to remove in the container for a Workspace deletion of `wire` at
   * revision `rev`. Normally `wire` itself. But an entry at or under it that
   * was synced after the deletion (its manifest revision is newer: a pull
   * brought the container's version back while the command ran, or it was
   * pushed again) is the current state on both sides and must stay: then only
   * the entries synced before the deletion are removed, each highest one
   * that holds nothing newer. Empty: nothing to remove (nothing at or under
   * it reached the container, or all of it was synced again since).
   */
  #removals(wire: string, rev: number): string[] {
    // `wire` itself, then what is under it (two primary-key look-ups, as in #forget).
    const rows = [
      ...this.#db.all<{ path: string; rev: number }>(`SELECT path, rev FROM __ws_sync_manifest WHERE backend = ? AND path = ?`, this.#backend, wire),
      ...this.#db.all<{ path: string; rev: number }>(
        `SELECT path, rev FROM __ws_sync_manifest WHERE backend = ? AND path >= ? AND path < ? ORDER BY path`,
        this.#backend,
        `${wire}/`,
        `${wire}0`,
      ),
    ];
    if (rows.length === 0) return []; // nothing at or under it ever reached the container
    if (!rows.some((r) => r.rev > rev)) return [wire];
    // In tree order ("/" before every other character) each row's subtree follows it in one run, so a
    // stack of the open rows is the row's ancestors: one pass marks the rows holding a newer entry,
    // a second picks each highest row that holds none — linear in the rows (after the sort), not quadratic.
    const key = (path: string) => path.replaceAll("/", "\0");
    const tree = rows.map((r) => ({ path: r.path, key: key(r.path), fresh: r.rev > rev, holds: r.rev > rev, gone: false }));
    tree.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const walk = (visit: (node: (typeof tree)[number], parent: (typeof tree)[number] | undefined) => void, leave: (node: (typeof tree)[number], parent: (typeof tree)[number] | undefined) => void) => {
      const open: (typeof tree)[number][] = [];
      for (const node of tree) {
        while (open.length > 0 && !node.key.startsWith(`${open.at(-1)!.key}\0`)) leave(open.pop()!, open.at(-1));
        visit(node, open.at(-1));
        open.push(node);
      }
      while (open.length > 0) leave(open.pop()!, open.at(-1));
    };
    walk(() => {}, (node, parent) => {
      if (node.holds && parent) parent.holds = true;
    });
    const removed = new Set<string>();
    walk((node, parent) => {
      if (parent?.gone) node.gone = true; // goes with a removed directory
      else if (!node.holds) {
        node.gone = true;
        removed.add(node.path);
      }
    }, () => {});
    return rows.filter((r) => removed.has(r.path)).map((r) => r.path);
  }

  /** Queues a file's content; returns its size, or -1 when it is gone already (its tombstone follows). */
  async #pushFile(
    entry: ChangeEntry,
    wire: string,
    add: (op: RemoteApplyOp, then: (result: RemoteApplyResult) => void) => Promise<void>,
    flush: () => Promise<void>,
    recorded: (result: RemoteApplyResult) => void,
  ): Promise<number> {
    let stream: ReadableStream<Uint8Array>;
    try {
      stream = (await this.#fs.readFile(entry.path)) as ReadableStream<Uint8Array>;
    } catch (error) {
      if ((error as { code?: string }).code === "ENOENT") return -1;
      throw error;
    }
    const mode = entry.mode ?? 0o644;
    const pieces = pieceStream(stream);
    const first = await pieces.next();
    const data = first.done ? new Uint8Array(0) : first.value;
    const second = first.done ? first : await pieces.next();
    if (second.done) {
      await add({ op: "write", path: wire, data, mode, truncate: true }, recorded);
      return data.byteLength;
    }
    // Larger than one piece: written beside it under a temporary name, renamed into place at the end.
    const slash = wire.lastIndexOf("/");
    const temp = `${wire.slice(0, slash + 1)}.${pieceNamePart(wire.slice(slash + 1))}${PIECE_SUFFIX}${crypto.randomUUID().slice(0, 8)}`;
    // Recorded before its first piece is sent: should the push be cut short, the next pull knows it is not the container's.
    this.#db.run(`INSERT OR IGNORE INTO __ws_sync_temps (backend, path) VALUES (?, ?)`, this.#backend, temp);
    let failed = false;
    const check = (result: RemoteApplyResult): void => {
      if (!result.ok && !failed) {
        failed = true;
        recorded(result);
      }
    };
    let offset = 0;
    const piece = async (bytes: Uint8Array): Promise<void> => {
      await add({ op: "write", path: temp, data: bytes, mode, offset, truncate: offset === 0 }, check);
      offset += bytes.byteLength;
    };
    await piece(data);
    await piece(second.value);
    for (let next = await pieces.next(); !next.done; next = await pieces.next()) await piece(next.value);
    await add({ op: "rename", from: temp, to: wire }, (result) => {
      if (failed) return;
      if (!result.ok) failed = true; // (the temporary file is removed below, as after a failed piece)
      recorded(result);
    });
    await flush();
    if (failed) await this.#rpc.apply({ ops: [{ op: "rm", path: temp }] }).catch(() => {});
    this.#db.run(`DELETE FROM __ws_sync_temps WHERE backend = ? AND path = ?`, this.#backend, temp);
    return offset;
  }

  /**
   * Copies the container's changes into the Workspace. Call under
   * {@link exclusive}. Clears the pending mark when it completes — unless
   * commands of this connection are still live: then the mark stays
   * ({@link COMMAND_SENT}), as their pulls are owed.
   * @throws the transport's error: what was applied stays applied (and recorded); the next pull finishes the rest.
   *   The error carries what was applied before it ({@link pulledBefore}).
   */
  async pull(): Promise<PullOutcome> {
    const outcome: Outcome = { applied: 0, bytes: 0, skipped: new SkipList(), stranded: new Stranded() }; // run 38, fixer RC
    const telemetry = new SyncTelemetryRun(this.#telemetry, "pull", this.#backend);
    const totals = (): SyncTotals => ({ entries: outcome.applied, bytes: outcome.bytes, skipped: outcome.skipped.count });
    try {
      await this.#pull(outcome, () => telemetry.block(totals()));
      telemetry.end(totals());
      return withSkippedCount({ applied: outcome.applied, bytes: outcome.bytes, skipped: outcome.skipped.entries() }, outcome.skipped);
    } catch (thrown) {
      telemetry.end(totals(), thrown);
      const error = clipError(thrown);
      if (error !== null && (typeof error === "object" || typeof error === "function")) {
        try {
          Object.defineProperty(error, PARTIAL, { value: withSkippedCount({ applied: outcome.applied, bytes: outcome.bytes, skipped: outcome.skipped.entries() }, outcome.skipped), enumerable: false, configurable: true });
        } catch {
          // a frozen error: no partial outcome on it
        }
      }
      throw error;
    }
  }

  /** {@link pull}; `block` is called after each page of the walk and after the deletions. */
  async #pull(outcome: Outcome, block: () => void): Promise<void> {
    const owed = this.#owed;
    await this.#daemon();
    const seen = new Set<string>();
    // Entries the daemon could not look into (a path past the container's PATH_MAX): nothing recorded under them is gone.
    const unlooked = new Set<string>();
    const leftovers: string[] = [];
    // Temporary names of pushes cut short (pushes run under the same lock: none is writing now).
    const temps = new Set(this.#db.all<{ path: string }>(`SELECT path FROM __ws_sync_temps WHERE backend = ?`, this.#backend).map((r) => r.path));
    // Directories a push parked and left (cut short): internal, never pulled, removed below (run 37, fixer RA2).
    const parks = new Set([...temps].filter(isParkName));
    const parked = (path: string): boolean => {
      if (parks.size === 0) return false;
      const slash = path.indexOf("/");
      return parks.has(slash < 0 ? path : path.slice(0, slash));
    };
    // The Workspace folders this pull found to be real directories: each entry checks only the parents not known yet.
    const dirs = new RealDirs(this.#fs);
    for await (const page of scanPages(this.#rpc)) {
      for (const skip of page.skipped) {
        const path = (skip as { path?: unknown } | null)?.path;
        if (!validWire(path)) {
          outcome.skipped.push({ path: shownPath(path), op: "write", reason: invalidPathReason(path) });
          continue;
        }
        if (parked(path)) continue; // fixer RA2
        // Seen only when the manifest holds it (the deletion pass looks at nothing else): a walk of a million
        // special files keeps none of their paths in memory. A name that is not UTF-8 is reported under its lossy
        // decoding, which only a valid name can have been recorded under: it marks nothing (a valid twin the
        // container deleted is deleted here too).
        if (skip.reason !== "encoding" && this.#recorded(path)) seen.add(path);
        if (skip.reason === "toolong") {
          unlooked.add(path);
          outcome.skipped.push({ path: `${SYNC_ROOT}/${path}`, op: "write", reason: TOO_DEEP });
          // What is there is not known: a deleted file or link of this pull may have gone there (run 39, fixer CR).
          outcome.stranded?.opaque(`${SYNC_ROOT}/${path}`, TOO_DEEP);
          continue;
        }
        const reason = skip.reason === "encoding" ? NOT_UTF8 : skip.reason === "target" ? TARGET_NOT_UTF8 : "special file (fifo, socket or device)";
        outcome.skipped.push({ path: `${SYNC_ROOT}/${path}`, op: "write", reason });
        // A write the pull does not apply: a deletion of the same content is held back (issue 20, run 39, fixer CR).
        // Not for a link whose target is not UTF-8: nothing can be moved into a link, and no synced link (its target a
        // Workspace string) has such a target, so it holds back no deletion (issue 20, run 40, fixer f40ct).
        if (skip.reason === "encoding") this.#strandSkipped(skip, `${SYNC_ROOT}/${path}`, outcome);
      }
      const todo: (RemoteEntryStat & { path: string })[] = [];
      // Modes of the directories this page lists: a Workspace link or file in the way of one is replaced by it.
      const dirModes = new Map<string, number>();
      for (const raw of page.entries) {
        const path = (raw as { path?: unknown } | null)?.path;
        if (!validWire(path)) {
          outcome.skipped.push({ path: shownPath(path), op: "write", reason: invalidPathReason(path) });
          continue;
        }
        if (parked(path)) continue; // a parked directory and what is in it: not the container's work (fixer RA2)
        const entry = entryOf(raw);
        if (!entry) {
          // Seen: what the Workspace holds there stays (it is not the container's deletion).
          if (this.#recorded(path)) seen.add(path);
          outcome.skipped.push({ path: `${SYNC_ROOT}/${path}`, op: "write", reason: "invalid entry from the container" });
          continue;
        }
        seen.add(entry.path);
        if (entry.kind === "directory") dirModes.set(entry.path, entry.mode);
        const row = this.#manifestRow(entry.path);
        if (!row && entry.kind === "file" && temps.has(entry.path)) {
          leftovers.push(entry.path); // a push cut short left it: not the container's, never pulled
          continue;
        }
        if (row && sameEntry(row, entry)) continue;
        todo.push(entry);
      }
      // Applied in walk order, one at a time; the first piece of the next files is read ahead, so
      // the round trips to the daemon overlap instead of adding up.
      const ahead = new Map<string, Promise<RemoteRead>>();
      let queued = 0;
      for (let i = 0; i < todo.length; i++) {
        for (; queued < todo.length && queued <= i + READ_AHEAD; queued++) {
          const next = todo[queued]!;
          if (next.kind !== "file" || next.size > READ_AHEAD_MAX_BYTES || this.#readOnly(next.path)) continue;
          const read = this.#rpc.read({ path: next.path, offset: 0, length: SYNC_PIECE_BYTES });
          read.catch(() => {}); // an abandoned read (the pull failed first) is not an unhandled rejection
          ahead.set(next.path, read);
        }
        const entry = todo[i]!;
        const first = ahead.get(entry.path);
        ahead.delete(entry.path);
        await this.#pullEntry(entry, outcome, dirModes, dirs, first);
      }
      block();
    }
    // What the manifest holds and the walk did not find was deleted in the container.
    const known = this.#db.all<{ path: string; kind: string; rev: number }>(`SELECT path, kind, rev FROM __ws_sync_manifest WHERE backend = ? ORDER BY path`, this.#backend);
    const gone: { path: string; kind: string; rev: number }[] = [];
    for (const row of known) {
      if (seen.has(row.path) || parked(row.path)) continue; // a parked directory's rows: forgotten by #unpark (fixer RA2)
      if (unlooked.size > 0 && underUnlooked(row.path, unlooked)) continue;
      if (!validWire(row.path)) {
        // Recorded before paths were checked: never removed from the Workspace, only forgotten.
        this.#db.run(`DELETE FROM __ws_sync_manifest WHERE backend = ? AND path = ?`, this.#backend, row.path);
        continue;
      }
      gone.push(row);
    }
    // Each highest gone path with what the manifest held under it. In path order (UTF-16 code units, as compared
    // here) a subtree is one run of rows after its top, though other tops may come between (`a-b` sorts between
    // `a` and `a/x`): `open` keeps the groups a later row may still fall under, innermost last, so each row is
    // compared with few groups, not all of them.
    gone.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    type Group = { top: { path: string; kind: string; rev: number }; rows: { path: string; kind: string; rev: number }[] };
    const groups: Group[] = [];
    const open: Group[] = [];
    for (const row of gone) {
      let group: Group | undefined;
      while (open.length > 0) {
        const top = open[open.length - 1]!.top.path;
        const next = row.path.startsWith(top) ? row.path.charCodeAt(top.length) : -1;
        if (next === 0x2f) group = open[open.length - 1];
        if (next === 0x2f || (next !== -1 && next < 0x2f)) break; // under it, or before its subtree (which is still to come)
        open.pop(); // past its subtree: no later row falls under it
      }
      if (group) group.rows.push(row);
      else {
        group = { top: row, rows: [row] };
        groups.push(group);
        open.push(group);
      }
    }
    for (const group of groups) if (await this.#removeGone(group.top, group.rows, outcome, dirs)) outcome.applied++;
    block();
    // Commands of this connection still live (a dev server beside): their pulls stay owed should the object die first.
    if (this.#live > 0) this.#markOwed();
    else this.#db.run(`UPDATE __ws_sync_state SET pull_pending = 0, pull_error = NULL, pull_owed = 0 WHERE backend = ?`, this.#backend);
    this.#owed -= owed; // abandoned before this walk began: their changes are in (one abandoned since is still owed)
    // Pushes run under the same lock, so no push is writing these now.
    for (let i = 0; i < leftovers.length; i += APPLY_BATCH_OPS) {
      await this.#rpc.apply({ ops: leftovers.slice(i, i + APPLY_BATCH_OPS).map((path): RemoteApplyOp => ({ op: "rm", path })) }).catch(() => {});
    }
    // A parked name whose removal fails stays recorded (and unpulled) for the next push or pull (fixer RA2).
    if (parks.size > 0) await this.#unpark().catch(() => {});
    for (const temp of temps) if (!parks.has(temp)) this.#db.run(`DELETE FROM __ws_sync_temps WHERE backend = ? AND path = ?`, this.#backend, temp); // fixer RA2
  }

  /**
   * A scanned entry whose name is not UTF-8 (never applied) added to the pull's {@link Stranded}: a file or link by
   * its stat, a directory by the files and links under it the daemon listed (`inside`, at most
   * {@link SKIP_INSIDE_MAX}), and — when it holds more (`cut`) or its stat is missing — as a place whose content is
   * not known ({@link Stranded.opaque}). A daemon of before run 39 sends no stat: opaque too (issue 20, run 39, fixer CR).
   */
  #strandSkipped(skip: { stat?: unknown; inside?: unknown; cut?: unknown }, full: string, outcome: Outcome): void {
    const stranded = outcome.stranded;
    if (!stranded) return;
    const stat = entryOf(skip.stat !== null && typeof skip.stat === "object" ? { ...skip.stat, path: "x" } : undefined);
    if (!stat) {
      stranded.opaque(full, NOT_UTF8);
      return;
    }
    if (stat.kind !== "directory") {
      stranded.add(stat, full, NOT_UTF8);
      return;
    }
    const inside = Array.isArray(skip.inside) ? skip.inside : [];
    if (skip.cut === true || inside.length > SKIP_INSIDE_MAX) stranded.opaque(full, NOT_UTF8);
    for (const raw of inside.slice(0, SKIP_INSIDE_MAX)) {
      const e = entryOf(raw);
      if (e) stranded.add(e, `${SYNC_ROOT}/${e.path}`, NOT_UTF8);
    }
  }

  async #pullEntry(
    entry: RemoteEntryStat & { path: string },
    outcome: Outcome,
    dirModes: ReadonlyMap<string, number>,
    dirs: RealDirs,
    first?: Promise<RemoteRead>,
  ): Promise<void> {
    const full = `${SYNC_ROOT}/${entry.path}`;
    let changed = true;
    // A file or link not applied stays only in the container: a deletion of the same content is held back (run 38, fixer RC).
    const skip = (skipped: SkippedEntry): void => {
      outcome.skipped.push(skipped);
      outcome.stranded?.add(entry, full, skipped.reason);
    };
    try {
      // Every parent is a real directory from here on: nothing below follows a Workspace link on the way.
      const refused = await this.#parents(entry.path, outcome, dirModes, dirs);
      if (refused !== null) {
        skip({ path: full, op: "write", reason: refused }); // fixer RC
        return;
      }
      if (entry.kind === "file" && entry.size > MAX_PULL_FILE_BYTES) {
        skip({ path: full, op: "write", reason: TOO_LARGE }); // fixer RC
        return;
      }
      // The Workspace would refuse the write (EROFS): skipped before anything of the file is read from the container.
      if (entry.kind === "file" && this.#readOnly(entry.path)) {
        skip({ path: full, op: "write", reason: "read-only" }); // fixer RC
        return;
      }
      let target: string | undefined;
      if (entry.kind === "symlink") {
        target = await this.#linkTarget(full, entry.target ?? "");
        if (target === undefined) {
          skip({ path: full, op: "write", reason: LINK_OUTSIDE }); // fixer RC
          return;
        }
      }
      // Under a folder this pull made, nothing is there unless the change log says so: no look-up of a missing path.
      const segments = entry.path.split("/");
      const existing = dirs.absent(segments) ? undefined : await this.#fs.lstat(full).catch(() => undefined);
      if (existing?.isDirectory && entry.kind !== "directory" && !(await this.#clearDirectory(entry.path, outcome, dirs))) {
        // A directory replaced by a file or link, in which the Workspace wrote since the last sync: kept, as a deletion keeps it.
        skip({ path: full, op: "write", reason: REPLACED_KEPT }); // fixer RC
        return;
      }
      if (entry.kind === "directory") {
        if (existing && !existing.isDirectory) await this.#fs.rm(full, { recursive: true, force: true });
        if (!existing) {
          await this.#fs.mkdir(full, { recursive: true, mode: entry.mode });
          dirs.made(segments);
        } else if (!existing.isDirectory) await this.#fs.mkdir(full, { recursive: true, mode: entry.mode });
        else if (existing.mode !== entry.mode) await this.#fs.chmod(full, entry.mode);
        else changed = false; // only its times moved: nothing to apply
      } else {
        if (existing?.isSymbolicLink || (existing && !existing.isDirectory && entry.kind === "symlink")) await this.#fs.rm(full, { force: true });
        // Parents only when missing: one lstat instead of a mkdir transaction (mkdir -p of an existing one is a no-op, run 33, fixer MB).
        if (!existing) {
          const parent = full.slice(0, full.lastIndexOf("/")) || "/";
          if (!(await this.#fs.lstat(parent).catch(() => undefined))) await this.#fs.mkdir(parent, { recursive: true });
        }
        if (entry.kind === "symlink") await this.#fs.symlink(target!, full);
        else {
          let written = 0;
          // A file replaced or written between two of its reads is copied again from its start (then skipped, EAGAIN).
          for (let attempt = 0; ; attempt++) {
            written = 0;
            try {
              await this.#fs.writeFile(full, this.#download(entry.path, entry.size, attempt === 0 ? first : undefined, (n) => (written += n)), { mode: entry.mode });
              break;
            } catch (error) {
              if (!(error instanceof EntryError && error.code === "EAGAIN") || attempt >= CHANGED_RETRIES) throw error;
            }
          }
          outcome.bytes += written;
        }
      }
    } catch (error) {
      if (isTransport(error)) throw error;
      // Gone (or no longer a file) since the scan listed it — a process still at work in the container: the next pull sees what is there then.
      if (error instanceof EntryError && GONE_CODES.has(error.code)) return;
      skip(skippedOf(full, error, "write")); // fixer RC
      return;
    }
    if (changed) outcome.applied++;
    // One look-up gives the stamp and the inode (run 36, fixer RN): a pull resolves each entry's path once, as before.
    const id = this.#fs.inodeOf ? (this.#fs.inodeOf(full) ?? null) : undefined;
    this.#record(entry.path, entry, id === undefined ? (this.#fs.stampOf(full) ?? 0) : (id?.rev ?? 0), id);
  }

  /**
   * Removes from the Workspace what the container deleted: `top` (a highest
   * gone path) and `rows` (it and every gone manifest entry under it, in path
   * order). Only what is still as last synced goes: a file or link whose
   * Workspace stamp is the one recorded, a directory once empty — a Workspace
   * write since (a changed file, an entry added under a deleted directory,
   * another kind of entry) is kept and reported in `skipped`
   * (`"changed in the Workspace since the last sync"`); it goes in with the
   * next push. Nothing is removed through a Workspace link: an entry whose
   * parent under /workspace is not a real directory is not there for the
   * Workspace (only forgotten). Answers whether anything was removed.
   *
   * A deleted file or link whose content this pull found at a path it did not
   * apply (`outcome.stranded`: a container `mv notes.md docs/` into a read-only
   * mount the container does not see, a write refused) is kept, not removed —
   * the Workspace's copy is the only durable one — and reported as a `delete`
   * in `skipped` naming where the container put it ({@link Stranded.reason});
   * a directory kept because such an entry is in it says so too, and one kept
   * because a read-only mount lies in it (a mount is never removed: spec 01
   * §6.3) names the mount. Issue 20, run 38, fixer RC.
   */
  async #removeGone(
    top: { path: string; kind: string; rev: number },
    rows: { path: string; kind: string; rev: number }[],
    outcome: { skipped: Pick<SkipList, "push">; stranded?: Stranded },
    dirs: RealDirs,
  ): Promise<boolean> {
    const full = `${SYNC_ROOT}/${top.path}`;
    if (!(await this.#realParents(top.path, dirs))) {
      this.#forget(top.path);
      return false;
    }
    // Deleted entries whose content the container holds only at a path this pull did not apply: kept (fixer RC).
    const held = new Map<string, string>();
    if (outcome.stranded && outcome.stranded.size > 0) {
      for (const row of rows) {
        if (row.kind === "directory") continue;
        const reason = outcome.stranded.reason(this.#manifestRow(row.path));
        if (reason !== undefined) held.set(`${SYNC_ROOT}/${row.path}`, reason);
      }
    }
    // Fast path: the Workspace subtree is exactly what the manifest held — one recursive removal.
    const st = await this.#fs.lstat(full).catch(() => undefined);
    if (!st) {
      this.#forget(top.path);
      return false;
    }
    if (st.isDirectory && top.kind === "directory" && held.size === 0) { // fixer RC: none held back
      const recorded = new Map(rows.map((r) => [`${SYNC_ROOT}/${r.path}`, r]));
      const inside = await this.#fs.find(full).catch(() => [{ path: "", type: "dir" as const }]); // unreadable: entry by entry
      const unchanged = inside.every(({ path, type }) => {
        const row = recorded.get(path);
        if (!row) return false;
        if (type === "dir") return row.kind === "directory";
        return row.kind === (type === "file" ? "file" : "symlink") && this.#fs.stampOf(path) === row.rev;
      });
      if (unchanged) {
        try {
          await this.#fs.rm(full, { recursive: true, force: true });
          this.#forget(top.path);
          return true;
        } catch (error) {
          outcome.skipped.push(skippedOf(full, error, "delete"));
          return false;
        }
      }
    }
    // Entry by entry, deepest first (a path sorts after its directory).
    let removed = false;
    for (const row of [...rows].reverse()) {
      const path = `${SYNC_ROOT}/${row.path}`;
      try {
        if (row !== top && !(await this.#realParents(row.path, dirs))) {
          this.#forgetOne(row.path);
          continue;
        }
        const at = await this.#fs.lstat(path).catch(() => undefined);
        if (!at) {
          this.#forgetOne(row.path);
          continue;
        }
        const same =
          row.kind === "directory"
            ? at.isDirectory && (await this.#fs.readdir(path, { limit: 1 })).length === 0
            : !at.isDirectory && (at.isSymbolicLink ? "symlink" : "file") === row.kind && this.#fs.stampOf(path) === row.rev;
        const hold = same ? held.get(path) : undefined; // fixer RC
        if (same && hold === undefined) {
          await this.#fs.rm(path, { force: true });
          removed = true;
        } else outcome.skipped.push({ path, op: "delete", reason: hold ?? (row.kind === "directory" && at.isDirectory ? this.#keptDirReason(path, held) : KEPT) }); // fixer RC
        this.#forgetOne(row.path);
      } catch (error) {
        outcome.skipped.push(skippedOf(path, error, "delete"));
      }
    }
    return removed;
  }

  /**
   * Clears the Workspace directory at wire path `wire` for the container's
   * file or link that replaced it, by the rules of a deletion
   * ({@link #removeGone}): only what is still as last synced goes. Answers
   * whether the directory is gone; when it is not (the Workspace changed or
   * added something in it since the last sync, or it was never synced with
   * entries in it), what the Workspace wrote is kept, and so is the
   * directory; only the entries under it the Workspace changed are reported
   * (the directory itself is reported by the caller).
   */
  async #clearDirectory(wire: string, outcome: Outcome, dirs: RealDirs): Promise<boolean> {
    const full = `${SYNC_ROOT}/${wire}`;
    const rows = [
      ...this.#db.all<{ path: string; kind: string; rev: number }>(`SELECT path, kind, rev FROM __ws_sync_manifest WHERE backend = ? AND path = ?`, this.#backend, wire),
      ...this.#db.all<{ path: string; kind: string; rev: number }>(
        `SELECT path, kind, rev FROM __ws_sync_manifest WHERE backend = ? AND path >= ? AND path < ? ORDER BY path`,
        this.#backend,
        `${wire}/`,
        `${wire}0`,
      ),
    ];
    // A directory the manifest does not hold as one (made by the Workspace): it goes only when empty.
    if (rows[0]?.path !== wire || rows[0].kind !== "directory") rows.unshift({ path: wire, kind: "directory", rev: -1 });
    // Path order, as #removeGone takes them (a path sorts after its directory).
    rows.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const skipped = { push: (entry: SkippedEntry) => void (entry.path === full ? undefined : outcome.skipped.push(entry)) };
    await this.#removeGone(rows[0]!, rows, { skipped }, dirs);
    return (await this.#fs.lstat(full).catch(() => undefined)) === undefined;
  }

  /**
   * Whether every parent of wire path `wire` under /workspace is a real
   * directory in the Workspace (lstat, no link followed): those `dirs`
   * knows are not looked at again.
   */
  async #realParents(wire: string, dirs: RealDirs): Promise<boolean> {
    const root = await this.#fs.lstat(SYNC_ROOT).catch(() => undefined);
    if (!root?.isDirectory) return false;
    const segments = wire.split("/");
    const parents = segments.length - 1;
    for (let i = dirs.known(segments, parents) + 1; i <= parents; i++) {
      const st = await this.#fs.lstat(`${SYNC_ROOT}/${segments.slice(0, i).join("/")}`).catch(() => undefined);
      if (!st?.isDirectory) return false;
      dirs.add(segments, i);
    }
    return true;
  }

  /**
   * Why a Workspace directory the container deleted is kept (it is not empty): an entry under it {@link #removeGone}
   * held back (its content only at a path the pull did not apply), a read-only mount in it (never removed, spec 01
   * §6.3; a container does not see a mount, docs/container.md), else {@link KEPT}. Issue 20, run 38, fixer RC.
   */
  #keptDirReason(path: string, held: ReadonlyMap<string, string>): string {
    for (const [under, reason] of held) if (isUnder(under, path)) return `${HELD_UNDER}: ${reason}`;
    const mount = mountGuardFor(this.#db).readOnlyRoots.find((root) => root !== path && isUnder(root, path));
    return mount === undefined ? KEPT : `${MOUNT_KEPT} (${mount})`;
  }

  #forgetOne(path: string): void {
    this.#db.run(`DELETE FROM __ws_sync_manifest WHERE backend = ? AND path = ?`, this.#backend, path);
  }

  /**
   * Whether the Workspace refuses a file write at `wire` (under {@link SYNC_ROOT}) for a read-only mount: the path is
   * a read-only mount's root, under one or above one (the mount guard `writeFile` asks). Lexical: a pull's entry
   * reaches its path through real directories only ({@link #parents} replaces Workspace links on the way).
   */
  #readOnly(wire: string): boolean {
    return mountGuardFor(this.#db).refusal(`${SYNC_ROOT}/${wire}`, "writeFile") !== undefined;
  }

  /**
   * Makes the Workspace parents of wire path `wire` real directories, checked
   * without following links (lstat from /workspace down): a link or file
   * where the container has a directory is replaced by a directory (the
   * container wins; mode from this page's scan, else `0o755` until the next
   * pull). Stops at the first missing one (created later, under real
   * directories). Parents `dirs` knows as real directories are not looked
   * at again: a chain of n directories costs n lookups, not n² (each lstat
   * resolves from the root). Answers `null`, or why the entry cannot be applied.
   */
  async #parents(wire: string, outcome: Outcome, dirModes: ReadonlyMap<string, number>, dirs: RealDirs): Promise<string | null> {
    const root = await this.#fs.lstat(SYNC_ROOT).catch(() => undefined);
    if (!root) return null; // created with the entry's parents
    if (!root.isDirectory) return `${SYNC_ROOT} is not a directory in the Workspace`;
    const segments = wire.split("/");
    for (let i = dirs.known(segments, segments.length - 1) + 1; i < segments.length; i++) {
      const prefix = segments.slice(0, i).join("/");
      const path = `${SYNC_ROOT}/${prefix}`;
      const st = await this.#fs.lstat(path).catch((error: unknown) => {
        if ((error as { code?: string })?.code === "ENOENT") return undefined;
        throw error;
      });
      if (!st) return null;
      if (!st.isDirectory) {
        await this.#fs.rm(path, { force: true }); // a link itself, never what it leads to
        await this.#fs.mkdir(path, { mode: dirModes.get(prefix) ?? 0o755 });
        outcome.applied++;
      }
      dirs.add(segments, i);
    }
    return null;
  }

  /**
   * The target to store for a link the container made at `full`: its
   * lexical form when it stays under /workspace as text and as the
   * Workspace resolves it now (the JavaScript backend's rule for a confined
   * run), `undefined` when it leads outside.
   * @throws the Workspace's error for a target whose `..` follows a link (`EINVAL`) or too many links (`ELOOP`).
   */
  async #linkTarget(full: string, target: string): Promise<string | undefined> {
    try {
      return await checkLinkTarget(this.#fs, SYNC_ROOT, full, target);
    } catch (error) {
      if ((error as { code?: string })?.code === "EACCES") return undefined;
      throw error;
    }
  }

  /**
   * The container file's bytes as a stream of 1 MiB reads, to its end or to the `size` the scan listed,
   * whichever comes first: no read is asked for at or past `size` (a file that keeps growing, or a daemon
   * answering a byte at a time, cannot keep the pull going; a file grown since the scan has a newer mtime,
   * so the next pull copies it again), though the last read's answer is kept whole (it may run past `size`
   * by at most one piece). `first`: its first read, already asked for; `took` gets the length of each piece.
   * A piece from another file than the first (`dev`/`ino`: renamed over it between two reads) or from the file
   * changed since the first (`ctimeMs`, `size`, `mtimeMs`) errors the stream `EAGAIN` ({@link CHANGED_WHILE_READ}),
   * so no file is ever made of two versions (a daemon answering no `dev`/`ino` is not checked).
   * A read whose `data` is not bytes, or is longer than the {@link SYNC_PIECE_BYTES} asked, errors the stream
   * `EINVAL` (`invalid read from the container …`: the entry is skipped).
   */
  #download(path: string, size: number, first?: Promise<RemoteRead>, took?: (bytes: number) => void): ReadableStream<Uint8Array> {
    let offset = 0;
    let ahead = first;
    let file: (FileIdentity & { size: number }) | undefined;
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        try {
          const read = ahead ?? this.#rpc.read({ path, offset, length: SYNC_PIECE_BYTES });
          ahead = undefined;
          const answer = await read;
          const { data, eof } = answer;
          if (typeof answer.ino === "number" && typeof answer.dev === "number") {
            const now = { dev: answer.dev, ino: answer.ino, ctimeMs: answer.ctimeMs, mtimeMs: answer.mtimeMs, size: answer.size };
            file ??= now;
            if ((Object.keys(now) as (keyof typeof now)[]).some((k) => now[k] !== (file as typeof now)[k])) {
              controller.error(new EntryError("EAGAIN", new Error(CHANGED_WHILE_READ)));
              return;
            }
          }
          if (!(data instanceof Uint8Array)) throw Object.assign(new Error("EINVAL: invalid read from the container"), { code: "EINVAL" });
          if (data.byteLength > SYNC_PIECE_BYTES) {
            throw Object.assign(new Error(`EINVAL: invalid read from the container (${data.byteLength} bytes answered, at most ${SYNC_PIECE_BYTES} asked)`), { code: "EINVAL" });
          }
          if (offset + data.byteLength > MAX_PULL_FILE_BYTES) throw Object.assign(new Error(`EFBIG: ${TOO_LARGE}`), { code: "EFBIG" });
          took?.(data.byteLength);
          if (data.byteLength > 0) controller.enqueue(data);
          offset += data.byteLength;
          // (The first piece's file, unchanged to here, has the size to read: a file grown since the scan lands whole.)
          if (eof || data.byteLength === 0 || offset >= (file?.size ?? size)) controller.close();
        } catch (error) {
          const code = remoteCode(error);
          controller.error(code !== undefined && ENTRY_CODES.has(code) ? new EntryError(code, error) : new TransportError(error));
        }
      },
    });
  }
}

/** A folder of {@link RealDirs}: its known subfolders by name. */
interface DirNode {
  children?: Map<string, DirNode>;
  /** Made empty by this pull: the names that (may) have appeared in it since, from the change log. */
  made?: Set<string>;
}

/** Folders a {@link RealDirs} keeps at most (then it starts over: only slower, never wrong). */
const REAL_DIRS_MAX = 100_000;

/**
 * The folders under /workspace one pull found to be real directories in the
 * Workspace (every parent too, none a link): a tree of wire path segments.
 * It follows the Workspace's change log (`revision()`, `changesSince`), so
 * what the pull itself or anything else running meanwhile (a tool, another
 * run) changes is forgotten before the next look-up: a path deleted or
 * renamed away, or now a file or link, drops with everything under it. A
 * folder the pull made itself also keeps the names that appeared in it
 * since, so a new entry there needs no look-up of its (missing) path. A
 * change log it cannot read in one page (or none: a filesystem without
 * `revision()`) makes it start over.
 */
class RealDirs {
  readonly #fs: SyncFilesystem;
  #root: DirNode = {};
  #size = 0;
  /** The store revision everything known was checked against; `undefined`: nothing is kept. */
  #rev: number | undefined;

  constructor(fs: SyncFilesystem) {
    this.#fs = fs;
    this.#rev = typeof fs.revision === "function" ? fs.revision() : undefined;
  }

  /** How many leading segments of `segments` (at most `max`) are known real directories, after catching up with the change log. */
  known(segments: readonly string[], max: number): number {
    this.#catchUp();
    let node = this.#root;
    let n = 0;
    while (n < max) {
      const next = node.children?.get(segments[n]!);
      if (!next) break;
      node = next;
      n++;
    }
    return n;
  }

  /** Records the first `count` segments of `segments` as a real directory (its parents are); answers its folder, `undefined` when nothing is kept. */
  add(segments: readonly string[], count: number): DirNode | undefined {
    if (this.#rev === undefined) return undefined;
    if (this.#size >= REAL_DIRS_MAX) this.#clear();
    let node = this.#root;
    for (let i = 0; i < count; i++) {
      node.children ??= new Map();
      let next = node.children.get(segments[i]!);
      if (!next) {
        next = {};
        node.children.set(segments[i]!, next);
        this.#size++;
      }
      node = next;
    }
    return node;
  }

  /** Whether nothing is at wire path `segments` for sure: its parent is a folder this pull made and no such name appeared in it since. */
  absent(segments: readonly string[]): boolean {
    this.#catchUp();
    const parent = this.#find(segments, segments.length - 1);
    return parent?.made !== undefined && !parent.made.has(segments[segments.length - 1]!);
  }

  /** The pull made directory `segments` where nothing was (its parents are known real directories). */
  made(segments: readonly string[]): void {
    const parent = this.#find(segments, segments.length - 1);
    if (!parent || parent.children?.has(segments[segments.length - 1]!)) return; // known before: not known empty
    const node = this.add(segments, segments.length);
    if (node) node.made = new Set();
  }

  /** The folder of the first `count` segments, when known. */
  #find(segments: readonly string[], count: number): DirNode | undefined {
    let node: DirNode | undefined = this.#root;
    for (let i = 0; i < count && node; i++) node = node.children?.get(segments[i]!);
    return node;
  }

  #clear(): void {
    this.#root = {};
    this.#size = 0;
  }

  /** Forgets what changed in the Workspace since the last look (anything but a directory at its path now). */
  #catchUp(): void {
    if (this.#rev === undefined || typeof this.#fs.revision !== "function") return;
    const now = this.#fs.revision();
    if (now === this.#rev) return;
    try {
      const page = this.#fs.changesSince({ rev: this.#rev, path: null }, { limit: CHANGES_PAGE });
      if (!page.done) this.#clear();
      else for (const change of page.entries) this.#changed(change.path, change.kind !== "directory");
    } catch {
      this.#clear(); // tombstones pruned meanwhile: start over
    }
    this.#rev = now;
  }

  /** Workspace path `path` changed: its name appeared in its folder; unless it is a directory now (`gone`), it is forgotten with everything under it. */
  #changed(path: string, gone: boolean): void {
    const wire = wirePath(path);
    if (wire === null) return;
    if (wire === "") {
      if (gone) this.#clear();
      return;
    }
    const segments = wire.split("/");
    const name = segments[segments.length - 1]!;
    const parent = this.#find(segments, segments.length - 1);
    parent?.made?.add(name);
    if (gone) parent?.children?.delete(name);
  }
}

const PARTIAL = Symbol("ws.sync.partialPull");

/**
 * Codes of an `apply` refusal that can pass with nothing changed in the Workspace (an executable a run is
 * running, a disk full for a while, a mount under a directory): the entry stays owed and the next pushes send it
 * again ({@link MAX_SYNC_OWED}). Other refusals (a name too long, an invalid op) are reported once.
 */
export const RETRIED_CODES: ReadonlySet<string> = new Set(["ETXTBSY", "ENOSPC", "EDQUOT", "EBUSY", "EAGAIN", "EINTR", "EIO", "EMFILE", "ENFILE", "ENOMEM", "ETIMEDOUT", "ENOTEMPTY"]);

/**
 * Codes of an `apply` refusal of a file, directory or link because the container's own entry stands in the way:
 * `EEXIST` (`mkdir` or `symlink` where the container has a file, link or directory of another kind), `ENOTDIR` (a
 * parent of the path is a file or link in the container), `EISDIR` (a file written where it has a directory). The
 * documented standoff (docs/container.md, "Container changes win") leaves them so while both sides keep their
 * entry: the entry stays owed as for {@link RETRIED_CODES} — every later push sends it again, and lists it in
 * `skipped` with {@link IN_THE_WAY} after the daemon's message, until it lands (the container's entry went) or the
 * Workspace changes or deletes it (issue 20, run 35, fixer CR).
 */
export const IN_THE_WAY_CODES: ReadonlySet<string> = new Set(["EEXIST", "ENOTDIR", "EISDIR"]);

/** What a push's `skipped` reason adds after the daemon's message for a refusal in {@link IN_THE_WAY_CODES} (run 35, fixer CR). */
export const IN_THE_WAY = "the container's entry at this path or a parent is in the way; every push sends the Workspace's entry again until one side gives way";

/** Entries a backend's pushes owe at most (refused for a reason in {@link RETRIED_CODES} or {@link IN_THE_WAY_CODES}); a refusal past it is reported once. */
export const MAX_SYNC_OWED = 1000;

/** Owed entries read per page by a push. */
const OWED_PAGE = 100;

/** The pending-pull reason a command carries from its sending until its own pull (see {@link RemoteSync.commandSent}). */
export const COMMAND_SENT = "a command was sent and its pull has not run yet (the object or its connection went away while it ran)";

/** The `skipped` reason of a path from the daemon that is not a relative path under the mount point. */
const INVALID_PATH = "invalid path from the container";

/** The `skipped` reason of a container link whose target leads outside /workspace in the Workspace. */
const LINK_OUTSIDE = "link leads outside /workspace";

/**
 * Largest file a pull copies into the Workspace (bytes): 1 GiB. A larger
 * one (`truncate -s 1T`, a disk image) is left in the container and listed
 * in `skipped`; a file that grows past it while it is copied is left as it
 * was in the Workspace. A Durable Object's storage holds 10 GB in all.
 */
export const MAX_PULL_FILE_BYTES = 1024 * 1024 * 1024;

/**
 * The `skipped` reason of a container entry whose path (the mount point's and its own) is longer than the
 * container's PATH_MAX: the daemon cannot look at it, so it is not pulled, and what the Workspace holds there stays.
 */
const TOO_DEEP = "path longer than the container's PATH_MAX (4096 bytes): not synced; what the Workspace holds there is kept";

/** Whether `path` or one of its parents is in `tops`. */
function underUnlooked(path: string, tops: ReadonlySet<string>): boolean {
  for (let at = path.length; at > 0; at = path.lastIndexOf("/", at - 1)) if (tops.has(path.slice(0, at))) return true;
  return false;
}

/**
 * The `skipped` reason of a container file replaced (renamed over) or written between two reads of one copy, after
 * {@link CHANGED_RETRIES} copies again from its start: not copied (the Workspace keeps what it had); the next pull tries again.
 */
const CHANGED_WHILE_READ = "EAGAIN: the file changed in the container while it was copied (replaced or written between two 1 MiB reads): not copied; the next pull copies it again";

/** How many more times a pull copies a file that changed while it was copied (see {@link CHANGED_WHILE_READ}). */
const CHANGED_RETRIES = 2;

/** The `skipped` reason of a file over {@link MAX_PULL_FILE_BYTES}. */
const TOO_LARGE = `file larger than the pull limit (${MAX_PULL_FILE_BYTES} bytes)`;

/** The `skipped` reason of an entry the container deleted that the Workspace changed since the last sync (kept). */
const KEPT = "changed in the Workspace since the last sync";

/** The `skipped` reason of a directory the container deleted, kept because it holds a read-only mount (fixer RC, run 38). */
const MOUNT_KEPT = "holds a read-only mount, which a container does not see and the Workspace never removes: kept";

/** Start of the `skipped` reason of a directory the container deleted, kept for an entry held back in it (fixer RC, run 38). */
const HELD_UNDER = "an entry in it was kept";

/**
 * Container files and links one pull did not apply (skipped: a read-only mount, a refused write, …), by content
 * signature, so that the pull keeps a Workspace file or link the container deleted when its content
 * went there (`mv notes.md docs/` into a read-only mount, which the container does not see): removing it would
 * leave its bytes only in the container's scratch copy, at a path the Workspace never takes. A deleted entry
 * matches a stranded one of the same kind with the same mode, size, mtime and link target as recorded at the
 * last sync (what `mv` — rename(2), or GNU mv's copy across file systems — keeps; a file edited before it was
 * moved is not told, and its deletion applies as before). At most {@link MAX_STRANDED} are kept; past that every deleted file or
 * link of the pull matches (kept: nothing is lost, the list says why). Issue 20, run 38, fixer RC.
 */
class Stranded {
  readonly #bySignature = new Map<string, { path: string; reason: string }>();
  #count = 0;
  /** A place the pull could not look into (a name that is not UTF-8 holding too much, a path past PATH_MAX): run 39, fixer CR. */
  #opaque: { path: string; reason: string } | undefined;

  /**
   * Marks a place whose content the pull does not know (`full`, why: `reason`): then every deleted file or link of
   * the pull is kept, as past {@link MAX_STRANDED} (issue 20, run 39, fixer CR).
   */
  opaque(full: string, reason: string): void {
    this.#count++;
    this.#opaque ??= { path: full, reason };
  }

  /** How many were added (past {@link MAX_STRANDED} too). */
  get size(): number {
    return this.#count;
  }

  /** Adds a container entry not applied: `full` its Workspace path, `reason` why (the `skipped` reason). */
  add(entry: RemoteEntryStat & { path: string }, full: string, reason: string): void {
    if (entry.kind === "directory") return;
    this.#count++;
    if (this.#count > MAX_STRANDED) return;
    const at = { path: full, reason };
    this.#bySignature.set(strandedSignature(entry.kind, entry.mode, entry.size, entry.mtimeMs, entry.target), at);
  }

  /** The `skipped` reason for keeping the deleted entry `row` at wire path `wire`, or `undefined` (none matches). */
  reason(row: ManifestRow | undefined): string | undefined {
    if (!row || row.kind === "directory") return undefined;
    const at = this.#bySignature.get(strandedSignature(row.kind, row.mode, row.size, row.mtime, row.target ?? undefined));
    if (at) return `the container moved or copied it to ${at.path}, which was not applied (${at.reason}): kept, it is not lost`;
    if (this.#opaque) return `the container may have moved it into ${this.#opaque.path}, which this pull cannot look into (${this.#opaque.reason}): kept, it is not lost`;
    if (this.#count > MAX_STRANDED) return `more than MAX_STRANDED (${MAX_STRANDED}) container entries were not applied this pull, so no deletion is: kept`;
    return undefined;
  }
}

/**
 * Whether the change-log entry at Workspace path `path`, revision `rev`, comes after the one at `atPath`, `atRev`
 * (`(rev, path key)` order, as `changesSince` lists them: {@link pathKey}).
 */
function changeAfter(rev: number, path: string, atRev: number, atPath: string): boolean {
  if (rev !== atRev) return rev > atRev;
  // Keys compare as SQLite's BINARY collation does: by UTF-8 bytes (not UTF-16 code units).
  const a = new TextEncoder().encode(pathKey(path));
  const b = new TextEncoder().encode(pathKey(atPath));
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return a.length > b.length;
}

/** The `skipped` reason of a container entry whose name is not valid UTF-8. */
const NOT_UTF8 = "name is not valid UTF-8";

/** The `skipped` reason of a container link whose name is valid but whose target is not UTF-8 (issue 20, run 40, fixer f40ct). */
const TARGET_NOT_UTF8 = "link target is not valid UTF-8";

/** The most entries of one skipped directory's `inside` the pull reads (the daemon's `SKIP_INSIDE_MAX`): 256. */
export const SKIP_INSIDE_MAX = 256;

/** Entries one pull's {@link Stranded} tells apart at most: 10,000 (beyond, every deletion of the pull is held back). */
const MAX_STRANDED = 10_000;

function strandedSignature(kind: string, mode: number, size: number, mtime: number, target: string | undefined): string {
  return `${kind}:${mode}:${size}:${mtime}:${target ?? ""}`;
}

/** The `skipped` reason of a container file or link not written over a Workspace directory the Workspace changed since the last sync (kept). */
const REPLACED_KEPT = "the container replaced this directory by a file or link, but the Workspace changed or added entries in it since the last sync: the directory is kept";

/**
 * Whether the daemon's `path` is a wire path: a string, relative (no
 * leading `/`), of non-empty segments that are not `.` or `..`, without NUL,
 * whose Workspace path (`/workspace/<path>`) holds at most `MAX_PATH_BYTES`
 * (262,144) bytes of UTF-8. `""` (the mount point itself) is not one.
 */
export function validWire(path: unknown): path is string {
  if (typeof path !== "string" || path === "" || tooLongWire(path) || path.includes("\0")) return false;
  for (const segment of path.split("/")) if (segment === "" || segment === "." || segment === "..") return false;
  return true;
}

/**
 * What an `apply` op weighs in its batch ({@link APPLY_BATCH_BYTES}): its file
 * data, its paths and link target as JSON strings (escapes included), and 64
 * bytes for the rest of the op and its result.
 */
function applyOpWeight(op: RemoteApplyOp): number {
  const text = (s: string): number => JSON.stringify(s).length;
  switch (op.op) {
    case "write":
      return op.data.byteLength + text(op.path) + 64;
    case "symlink":
      return text(op.path) + text(op.target) + 64;
    case "rename":
      return text(op.from) + text(op.to) + 64;
    default:
      return text(op.path) + 64;
  }
}

/** Whether wire path `path` is too long for the Workspace: `/workspace/<path>` over `MAX_PATH_BYTES` bytes of UTF-8. */
function tooLongWire(path: string): boolean {
  const extra = SYNC_ROOT.length + 1;
  return path.length + extra > MAX_PATH_BYTES && (path.length > MAX_PATH_BYTES || utf8Length(path) + extra > MAX_PATH_BYTES);
}

/** The `skipped` reason of a daemon path that is not a wire path ({@link validWire}). */
function invalidPathReason(path: unknown): string {
  return typeof path === "string" && tooLongWire(path) ? `${INVALID_PATH} (longer than MAX_PATH_BYTES, ${MAX_PATH_BYTES} bytes of UTF-8)` : INVALID_PATH;
}

/** A daemon path as `skipped` shows it (never resolved: only text), cut to {@link MAX_SYNC_REASON_CHARS} characters with a marker. */
function shownPath(path: unknown): string {
  return `${SYNC_ROOT}/${clipText(typeof path === "string" ? path : String(path)).replaceAll("\0", "\\0")}`;
}

/**
 * Characters of each text a sync keeps from the daemon or an error: a
 * `skipped` entry's `reason`, a path from the daemon that is not a wire path
 * (as `skipped` shows it), the error a failed push or pull throws (its
 * `message`), and the pending pull's reason stored in `__ws_sync_state`
 * (`pull_error`, the run's `sync.error`): 16,384. A longer one is cut, on a
 * character boundary, to at most that with the marker `… [<n> more characters cut]` — what
 * a daemon answers (a command can take it over) never makes a row past
 * SQLite's bound or a result of megabytes.
 */
export const MAX_SYNC_REASON_CHARS = 16_384;

/**
 * Entries one push or pull lists in its `skipped` at most: 1000. The rest
 * are counted, not listed: a last entry `{ path: "/workspace", reason: "<n>
 * more skipped entries not listed (…)" }` says how many (a container with
 * 200,000 fifos, or a daemon that lists them, gives a result of a bounded size).
 */
export const MAX_SYNC_SKIPPED = 1000;

/**
 * Characters of the entries one push or pull lists in its `skipped` at most
 * (each entry's path and reason, and 64 for the rest of it): 524,288 (512 Ki).
 * Past it, as past {@link MAX_SYNC_SKIPPED}, the rest are counted, not listed.
 */
export const MAX_SYNC_SKIPPED_CHARS = 512 * 1024;

/**
 * `text` cut to at most {@link MAX_SYNC_REASON_CHARS} characters, the marker included (so a cut text is
 * kept as it is when cut again), never between a character's halves.
 */
function clipText(text: string): string {
  if (text.length <= MAX_SYNC_REASON_CHARS) return text;
  // Room for the marker: "… [", at most 16 digits, " more characters cut]".
  let end = MAX_SYNC_REASON_CHARS - 40;
  if ((text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
  return `${text.slice(0, end)}… [${text.length - end} more characters cut]`;
}

/**
 * `error` with its message cut to {@link MAX_SYNC_REASON_CHARS} characters:
 * the same error (its `message` and `stack` replaced) when it can be changed,
 * else a new `Error` with the cut message and the `code`.
 */
function clipError(error: unknown): unknown {
  const message = (error as { message?: unknown } | null)?.message;
  if (typeof message !== "string" || message.length <= MAX_SYNC_REASON_CHARS) return error;
  const clipped = clipText(message);
  try {
    Object.defineProperty(error, "message", { value: clipped, writable: true, enumerable: false, configurable: true });
    const stack = (error as { stack?: unknown }).stack;
    if (typeof stack === "string") Object.defineProperty(error, "stack", { value: stack.replace(message, () => clipped), writable: true, enumerable: false, configurable: true });
    return error;
  } catch {
    const code = remoteCode(error);
    return Object.assign(new Error(clipped), code !== undefined ? { code } : {});
  }
}

/** What a push or pull skipped: the entries it lists ({@link MAX_SYNC_SKIPPED}, {@link MAX_SYNC_SKIPPED_CHARS}) and how many in all. */
class SkipList {
  readonly #listed: SkippedEntry[] = [];
  #chars = 0;
  #full = false;
  /** Entries skipped in all, listed or not. */
  count = 0;

  /** Adds an entry: listed (its reason cut to {@link MAX_SYNC_REASON_CHARS}) while the bounds allow, else counted. */
  push(entry: SkippedEntry): void {
    this.count++;
    if (this.#full) return;
    const listed = { ...entry, reason: clipText(entry.reason) };
    const weight = listed.path.length + listed.reason.length + 64;
    if (this.#listed.length >= MAX_SYNC_SKIPPED || this.#chars + weight > MAX_SYNC_SKIPPED_CHARS) {
      this.#full = true;
      return;
    }
    this.#chars += weight;
    this.#listed.push(listed);
  }

  /** The listed entries, and one counting those not listed when there are any; the array carries {@link count} ({@link skippedEntriesCount}). */
  entries(): SkippedEntry[] {
    const more = this.count - this.#listed.length;
    const entries =
      more === 0
        ? [...this.#listed]
        : [
            ...this.#listed,
            {
              path: SYNC_ROOT,
              reason: `${more} more skipped entries not listed (a push or pull lists at most MAX_SYNC_SKIPPED (${MAX_SYNC_SKIPPED}) entries of MAX_SYNC_SKIPPED_CHARS (${MAX_SYNC_SKIPPED_CHARS}) characters)`,
            },
          ];
    Object.defineProperty(entries, SKIPPED_COUNT, { value: this.count, enumerable: false });
    return entries;
  }
}

/** A pull's running outcome. */
interface Outcome {
  applied: number;
  bytes: number;
  skipped: SkipList;
  /** Container files and links this pull did not apply (read-only mount, …): where they are, told by {@link Stranded} (run 38, fixer RC). */
  stranded?: Stranded;
}

const isNumber = (n: unknown): n is number => typeof n === "number" && Number.isFinite(n);

/** A scan entry as the pull uses it, or `undefined` when the daemon's answer is not one (kind, numbers, a link's target). */
function entryOf(raw: unknown): (RemoteEntryStat & { path: string }) | undefined {
  const e = raw as Partial<RemoteEntryStat & { path: string }> | null;
  if (!e || typeof e !== "object" || !validWire(e.path)) return undefined;
  if (e.kind !== "file" && e.kind !== "directory" && e.kind !== "symlink") return undefined;
  if (!isNumber(e.mode) || !Number.isInteger(e.mode) || e.mode < 0 || !isNumber(e.size) || e.size < 0 || !isNumber(e.mtimeMs)) return undefined;
  if (e.ctimeMs !== undefined && !isNumber(e.ctimeMs)) return undefined;
  if (e.kind === "symlink" && (typeof e.target !== "string" || e.target === "" || e.target.includes("\0"))) return undefined;
  const out: RemoteEntryStat & { path: string } = { path: e.path, kind: e.kind, mode: e.mode, size: e.size, mtimeMs: e.mtimeMs };
  if (e.ctimeMs !== undefined) out.ctimeMs = e.ctimeMs;
  if (e.kind === "symlink") out.target = e.target;
  return out;
}

/** A scan page's shape checked (its entries are checked one by one): a malformed page fails the pull like a transport error. */
function scanPageOf(raw: unknown): RemoteScanPage {
  const p = raw as Partial<RemoteScanPage> | null;
  if (!p || typeof p !== "object" || !Array.isArray(p.entries) || !Array.isArray(p.skipped) || (p.cursor !== null && typeof p.cursor !== "string")) {
    throw new TransportError(new Error("EPROTO: invalid scan page from the container"));
  }
  return p as RemoteScanPage;
}

/**
 * Most `scan` pages one walk of the container reads (a pull, or the check of
 * a new daemon boot): 10,000 — 50 million entries at full pages of 5,000 (the
 * daemon ends a page sooner at its byte or visit bound). Each page's cursor
 * must also come after the one before in the walk's order (depth first,
 * names by UTF-16 code units, a directory before its children), as the
 * daemon's cursor (the last path it visited) does. A walk that does not end
 * within it, or a cursor that does not advance, fails the pull with `EPROTO`
 * (`the container's scan …`): the daemon misbehaves (a command may have taken
 * it over); what was applied stays applied, the pull stays pending, and a
 * restart of the container is the way out.
 */
export const MAX_SCAN_PAGES = 10_000;

/**
 * Most entries and skipped entries together one `scan` page may list: 50,000
 * (the daemon ends a page after 50,000 visited entries, `SCAN_MAX_VISITS`,
 * and after 5,000 entries, the `limit` asked). A page over it fails the walk
 * with `EPROTO` (`the container's scan answered a page of …`), as
 * {@link MAX_SCAN_PAGES} does: one answer cannot make a pull hold a million
 * paths at once.
 */
export const MAX_SCAN_PAGE_VISITS = 50_000;

/** Whether scan cursor `next` comes after `prev` in the daemon's walk order (segment by segment; a path before what is under it). */
function afterInWalk(prev: string, next: string): boolean {
  const a = prev.split("/");
  const b = next.split("/");
  for (let i = 0; i < a.length && i < b.length; i++) if (a[i] !== b[i]) return b[i]! > a[i]!;
  return b.length > a.length;
}

/** A misbehaving daemon's scan: fails the walk like a transport error (`EPROTO`). */
function scanError(detail: string): TransportError {
  return new TransportError(new Error(`EPROTO: the container's scan ${detail}: its daemon misbehaves (a command may have taken it over); restart the container`));
}

/** A short form of a daemon's cursor for a message. */
function shownCursor(cursor: string): string {
  return JSON.stringify(cutWithMark(cursor, 81));
}

/**
 * The pages of one walk of the container tree (`scan` from the start), each
 * checked ({@link scanPageOf}) and required to advance ({@link MAX_SCAN_PAGES}).
 * @throws TransportError `EPROTO` for a malformed page, a cursor that does not advance, more than MAX_SCAN_PAGES pages.
 */
async function* scanPages(rpc: SyncRPC): AsyncGenerator<RemoteScanPage> {
  let cursor: string | null = null;
  for (let pages = 1; ; pages++) {
    const page = scanPageOf(await rpc.scan({ cursor, limit: SCAN_PAGE }));
    if (page.entries.length + page.skipped.length > MAX_SCAN_PAGE_VISITS) {
      throw scanError(`answered a page of ${page.entries.length} entries and ${page.skipped.length} skipped (at most MAX_SCAN_PAGE_VISITS (${MAX_SCAN_PAGE_VISITS}) together)`);
    }
    const last = page.done === true || page.cursor === null;
    if (!last && cursor !== null && !afterInWalk(cursor, page.cursor!)) {
      throw scanError(`did not advance (page ${pages} answered cursor ${shownCursor(page.cursor!)} after ${shownCursor(cursor)})`);
    }
    if (!last && pages >= MAX_SCAN_PAGES) throw scanError(`did not end within MAX_SCAN_PAGES (${MAX_SCAN_PAGES}) pages`);
    yield page;
    if (last) return;
    cursor = page.cursor;
  }
}

/** An `apply` result as the push uses it: anything else is a refusal; a `stat` that is not a valid entry is dropped (nothing recorded). */
function applyResultOf(raw: unknown): RemoteApplyResult {
  const r = raw as { ok?: unknown; stat?: unknown; error?: { code?: unknown; message?: unknown } } | null;
  if (r && typeof r === "object" && r.ok === true) {
    if (r.stat === undefined) return { ok: true };
    const stat = entryOf({ ...(r.stat as object), path: "x" });
    // A link target the Workspace could not hold either (over MAX_PATH_BYTES) is no entry to record.
    if (!stat || (stat.target !== undefined && stat.target.length > MAX_PATH_BYTES / 3 && utf8Length(stat.target) > MAX_PATH_BYTES)) return { ok: true };
    const { path: _, ...rest } = stat;
    return { ok: true, stat: rest };
  }
  const code = typeof r?.error?.code === "string" ? r.error.code : "EIO";
  const message = typeof r?.error?.message === "string" ? r.error.message : `${code}: invalid result from the container`;
  return { ok: false, error: { code, message } };
}

/**
 * What a failed {@link RemoteSync.pull} applied before it failed (entries
 * stay applied and recorded), from the error it threw; zeros for any other
 * error. The sync result of a pending pull reports it (`applied`, `skipped`).
 */
export function pulledBefore(error: unknown): PullOutcome {
  const partial = (error as { [PARTIAL]?: PullOutcome } | null | undefined)?.[PARTIAL];
  return partial ?? { applied: 0, bytes: 0, skipped: [] };
}

/** Where a push's or pull's outcome keeps how many entries it skipped in all (not enumerable: not part of its shape). */
const SKIPPED_COUNT = Symbol("ws.sync.skippedCount");

/** `outcome` carrying `list`'s count of skipped entries, for {@link skippedCount}. */
function withSkippedCount<T extends PushOutcome | PullOutcome>(outcome: T, list: SkipList): T {
  Object.defineProperty(outcome, SKIPPED_COUNT, { value: list.count, enumerable: false });
  return outcome;
}

/**
 * How many entries a push or pull skipped in all (an outcome of
 * {@link RemoteSync.push}, {@link RemoteSync.pull} or {@link pulledBefore}):
 * its `skipped` lists at most {@link MAX_SYNC_SKIPPED} of them and counts the
 * rest in a last entry; this is the true number (`skipped.length` for an
 * outcome built elsewhere).
 */
export function skippedCount(outcome: PushOutcome | PullOutcome): number {
  return (outcome as { [SKIPPED_COUNT]?: number })[SKIPPED_COUNT] ?? skippedEntriesCount(outcome.skipped);
}

/**
 * How many entries a skipped list stands for: the true count when it is the
 * `skipped` of a push's or pull's outcome (a run's `result().sync.skipped`
 * is the same array), which lists at most {@link MAX_SYNC_SKIPPED} and counts
 * the rest in a last entry; its length for a list built elsewhere (or copied).
 */
export function skippedEntriesCount(entries: readonly SkippedEntry[]): number {
  return (entries as { [SKIPPED_COUNT]?: number })[SKIPPED_COUNT] ?? entries.length;
}

/** What ends the temporary name of a file pushed in pieces (`.<name>.ws-sync-<8 hex>`), before its 8 hex digits. */
const PIECE_SUFFIX = ".ws-sync-";
/**
 * Where a push parks a synced directory it cannot rename into place in one step (moved into a directory made at its
 * old path since, or over its old parent): `.ws-sync-move-<8 hex>` at the mount root, until the change-log entry at
 * its new path renames it there later in the same push (issue 20, run 37, fixer RA). Recorded in the manifest, so a
 * pull does not take it for the container's work; a parked directory whose entry never renames it is removed there.
 * The name is recorded in `__ws_sync_temps` before the rename is sent, and lives for one push: at the end of every
 * push (complete or cut short), at the start of the next and in every pull, each recorded one still there is removed
 * with its manifest rows; a pull never copies one, nor anything in it, into the Workspace (issue 20, run 37, fixer RA2).
 */
const MOVE_PARK_PREFIX = ".ws-sync-move-";
/** The first string past every name that starts with {@link MOVE_PARK_PREFIX} (`-` + 1 is `.`): a primary-key range's end (fixer RA2). */
const MOVE_PARK_END = ".ws-sync-move.";

/** Whether `path` is a parked name: {@link MOVE_PARK_PREFIX} and 8 hex digits, at the mount root (fixer RA2). */
function isParkName(path: string): boolean {
  return /^\.ws-sync-move-[0-9a-f]{8}$/.test(path);
}

/** A fresh {@link MOVE_PARK_PREFIX} name: the prefix and 8 random hex digits. */
function parkName(): string {
  return `${MOVE_PARK_PREFIX}${crypto.randomUUID().slice(0, 8)}`;
}

/** The longest name the container takes (Linux NAME_MAX), in bytes of UTF-8. */
const CONTAINER_NAME_MAX = 255;

/**
 * The part of a temporary name a file's `name` gives: the name itself, or — when `.<name>.ws-sync-<8 hex>`
 * would pass CONTAINER_NAME_MAX — its longest start (whole characters) that keeps it within, so a file
 * whose own name fits is pushed in pieces too. (The temporary name is recorded, never told by its shape.)
 */
function pieceNamePart(name: string): string {
  const room = CONTAINER_NAME_MAX - 1 - PIECE_SUFFIX.length - 8;
  let bytes = 0;
  let end = 0;
  for (const ch of name) {
    const cp = ch.codePointAt(0)!;
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (bytes > room) return name.slice(0, end);
    end += ch.length;
  }
  return name;
}

/** An error of the transport to the daemon during a pull (not of one entry). */
class TransportError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = "TransportError";
  }
}

/** Codes the daemon answers a `read` with about the file itself (not the transport). */
const ENTRY_CODES = new Set(["ENOENT", "ENOTDIR", "EISDIR", "ELOOP", "EACCES", "EPERM", "EINVAL", "EFBIG"]);
/** Of those, the ones that say the file is no longer there as the scan saw it. */
const GONE_CODES = new Set(["ENOENT", "ENOTDIR", "EISDIR", "ELOOP"]);

/** The daemon refused a `read` of one file (it is gone, unreadable, …): that entry's problem, not the pull's. */
class EntryError extends Error {
  readonly code: string;
  constructor(code: string, cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = "EntryError";
    this.code = code;
  }
}

function isTransport(error: unknown): boolean {
  return error instanceof TransportError;
}

function skippedOf(path: string, error: unknown, op: "write" | "delete"): SkippedEntry {
  const code = (error as { code?: string })?.code;
  if (code === "EROFS") return { path, op, reason: "read-only" };
  return { path, op, reason: error instanceof Error ? error.message : String(error) };
}

/**
 * Characters a daemon's ignore glob may not hold: those the container
 * backends refuse in `ignore` (`{}[]?\`) and the extglob/alternation syntax
 * `()|` — where the daemon's picomatch reads them as syntax, the host's
 * matcher could not agree with it.
 */
const UNSUPPORTED_IGNORE = /[{}[\]?\\()|]/;

/** A daemon answer the host refuses: `EPROTO` with `message`. */
function protocolError(message: string): Error & { code: string } {
  return Object.assign(new Error(`EPROTO: ${message}`), { code: "EPROTO" });
}

/**
 * Longest boot id (`info().bootId`) a daemon may announce: 256 characters
 * (the daemon's is a UUID). It is stored per backend (`__ws_sync_state.boot`)
 * and is the handle's `runtimeId`.
 */
export const MAX_BOOT_ID_CHARS = 256;

/**
 * `bootId` when it is a daemon's boot id: a non-empty string of at most
 * {@link MAX_BOOT_ID_CHARS} characters.
 * @throws Error `EPROTO` (`the container's daemon announced a boot id that is not …`) otherwise.
 */
export function checkBootId(bootId: unknown): string {
  if (typeof bootId === "string" && bootId !== "" && bootId.length <= MAX_BOOT_ID_CHARS) return bootId;
  const shown = typeof bootId === "string" ? `a string of ${bootId.length} characters` : bootId === null ? "null" : `a value of type ${typeof bootId}`;
  throw protocolError(`the container's daemon announced a boot id that is not a string of 1 to ${MAX_BOOT_ID_CHARS} characters (${shown}): its daemon misbehaves (a command may have taken it over); restart the container`);
}

/**
 * Longest disk id (`info().diskId`) a daemon may announce: 256 characters, as
 * {@link MAX_BOOT_ID_CHARS} (the daemon's is a UUID). Stored per backend (`__ws_sync_state.disk`).
 */
export const MAX_DISK_ID_CHARS = 256;

/**
 * `diskId` when it is a daemon's disk id: a non-empty string of at most {@link MAX_DISK_ID_CHARS} characters.
 * @throws Error `EPROTO` (`the container's daemon announced a disk id that is not …`) otherwise.
 */
export function checkDiskId(diskId: unknown): string {
  if (typeof diskId === "string" && diskId !== "" && diskId.length <= MAX_DISK_ID_CHARS) return diskId;
  const shown = typeof diskId === "string" ? `a string of ${diskId.length} characters` : diskId === null ? "null" : `a value of type ${typeof diskId}`;
  throw protocolError(`the container's daemon announced a disk id that is not a string of 1 to ${MAX_DISK_ID_CHARS} characters (${shown}): its daemon misbehaves (a command may have taken it over); restart the container`);
}

/**
 * Longest mount point (`info().mountPoint`) a daemon may announce: 4096
 * characters (Linux's `PATH_MAX`; the daemon's is `/workspace`). Every pushed
 * path is matched against the ignore globs as `<mountPoint>/<path>`
 * ({@link ignoreMatcher}), so its length is part of each path's cost.
 */
export const MAX_MOUNT_POINT_CHARS = 4096;

/**
 * `mountPoint` when it is a daemon's mount point: an absolute path (a string
 * starting with `/`) of at most {@link MAX_MOUNT_POINT_CHARS} characters.
 * @throws Error `EPROTO` (`the container's daemon announced a mount point that is not …`) otherwise.
 */
export function checkMountPoint(mountPoint: unknown): string {
  if (typeof mountPoint === "string" && mountPoint.startsWith("/") && mountPoint.length <= MAX_MOUNT_POINT_CHARS) return mountPoint;
  const shown = typeof mountPoint === "string" ? `a string of ${mountPoint.length} characters` : mountPoint === null ? "null" : `a value of type ${typeof mountPoint}`;
  throw protocolError(`the container's daemon announced a mount point that is not an absolute path of at most ${MAX_MOUNT_POINT_CHARS} characters (MAX_MOUNT_POINT_CHARS; ${shown}): its daemon misbehaves (a command may have taken it over); restart the container`);
}

/**
 * The daemon's ignore rule on wire paths: the globs are matched against the
 * absolute container path, a `!` glob re-includes, the last matching glob
 * decides; a path under an ignored directory is ignored (the daemon does not
 * walk into one), and `X/**` also ignores `X` itself, as the daemon's
 * picomatch does — unless `X` ends with `*` (`**\/.*\/**`, `/workspace/*\/**`),
 * where picomatch's `X/**` needs a segment after `X`: `**\/.*\/**` ignores
 * `.cache/x` but keeps `.cache`. (`X/**\/**` is `X/**`.) The globs come from the
 * daemon, which a command can take over, so they never reach a backtracking
 * matcher: they are matched by the Workspace's linear glob matcher
 * (`src/fs/glob.ts`, as `find`'s patterns without picomatch), on the path and
 * all its ancestors in one pass ({@link compileLinearPrefixGlob}): the cost
 * per path is at most its length times the globs', however deep it is and
 * however many directories a push meets, and nothing is kept between paths.
 * @throws Error `EPROTO` (`the container's daemon announced …`) when `globs` is
 *   not an array of non-empty strings, a glob holds one of `{}[]?\()|` or a
 *   second leading `!`, or the globs come to more than `MAX_GLOB_SIZE` (4096)
 *   characters together.
 */
export function ignoreMatcher(mountPoint: string, globs: readonly string[]): (wire: string) => boolean {
  if (!Array.isArray(globs)) throw protocolError("the container's daemon announced ignore globs that are not an array; restart the container");
  if (globs.length === 0) return () => false;
  let size = 0;
  const rules = globs.map((glob: unknown) => {
    const shown = typeof glob === "string" ? JSON.stringify(cutWithMark(glob, 41)) : String(glob);
    if (typeof glob !== "string") throw protocolError(`the container's daemon announced an ignore glob that is not a string (${typeof glob}); restart the container`);
    const negate = glob.startsWith("!");
    const body = negate ? glob.slice(1) : glob;
    size += glob.length;
    if (body === "" || body.startsWith("!") || UNSUPPORTED_IGNORE.test(body)) {
      throw protocolError(`the container's daemon announced ignore glob ${shown}, which the Workspace cannot match as the daemon does (empty, a second "!", or one of {}[]?\\()|); use globs of "*", "**" and plain names (restart the container if its daemon was taken over)`);
    }
    if (size > MAX_GLOB_SIZE) throw protocolError(`the container's daemon announced ignore globs of more than ${MAX_GLOB_SIZE} characters together (MAX_GLOB_SIZE); use fewer or shorter globs`);
    const alternatives = [body];
    // picomatch's `X/**` matches `X` too, but not after a `*` (its "afterStar"); it reads `X/**/**` as `X/**`.
    let base = body;
    while (base.endsWith("/**/**")) base = base.slice(0, -3);
    if (base.endsWith("/**") && base.length > 3 && !base.endsWith("*/**")) alternatives.push(base.slice(0, -3));
    const matchers = alternatives.map((alternative) => compileLinearPrefixGlob(alternative));
    return { negate, prefixes: (abs: string) => matchers.map((match) => match(abs)) };
  });
  const root = mountPoint.endsWith("/") ? mountPoint.slice(0, -1) : mountPoint;
  // `${root}/${wire}`'s segment of the wire path's first name: the prefixes from there on are the path and its ancestors.
  const first = root.split("/").length;
  return (wire) => {
    const matched = rules.map((rule) => rule.prefixes(`${root}/${wire}`));
    const depth = matched[0]![0]!.length;
    for (let k = first; k < depth; k++) {
      let ignored = false;
      for (const [r, rule] of rules.entries()) if (matched[r]!.some((prefixes) => prefixes[k])) ignored = !rule.negate;
      if (ignored) return true;
    }
    return false;
  };
}

/**
 * Whether `wire`'s last name is the daemon's temporary name for a whole-file write
 * (`.ws-sync-write-<16 hex>`, container/lib/sync.mjs `WRITE_TEMP`): the daemon's scan never lists a regular file so
 * named, so a Workspace file of that name is never pushed either (it would read as deleted in the container on the
 * next pull) and stays in the Workspace only. A directory or link so named syncs as any entry.
 */
function isDaemonWriteTemp(wire: string): boolean {
  return /(?:^|\/)\.ws-sync-write-[0-9a-f]{16}$/.test(wire);
}

/** A byte stream re-cut into pieces of at most {@link SYNC_PIECE_BYTES}. */
async function* pieceStream(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let held: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      let chunk = value;
      while (chunk.byteLength > 0) {
        const take = Math.min(SYNC_PIECE_BYTES - size, chunk.byteLength);
        held.push(chunk.subarray(0, take));
        size += take;
        chunk = chunk.subarray(take);
        if (size === SYNC_PIECE_BYTES) {
          yield concatBytes(held, size);
          held = [];
          size = 0;
        }
      }
    }
    if (size > 0) yield concatBytes(held, size);
  } finally {
    reader.releaseLock();
  }
}
