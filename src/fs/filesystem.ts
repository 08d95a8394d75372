/**
 * `workspace.fs`: the virtual filesystem on SQL storage (spec 01 §3, §4).
 *
 * This class is the facade: each method canonicalises its path, checks its
 * arguments (`options.ts`), refuses a read-only target ({@link MountGuard})
 * and delegates. It runs no SQL itself: the tree is {@link Nodes}, content
 * is {@link ChunkStore}, ranged and streamed reads are `read.ts`, the
 * `writeFile` pipeline is {@link FileWriter}.
 *
 * Every mutation runs in one synchronous storage transaction, opened through
 * {@link Nodes.transaction}, so it is all or nothing.
 *
 * @module
 */
import type { Database } from "../storage/database.js";
import { changesSince, checkPruneRevision, type ChangeCursor, type ChangePage, type ChangesOptions } from "./changes.js";
import { ChunkStore } from "./chunks.js";
import { throwIfWalkFailed, WorkspaceFsError } from "./errors.js";
import { compileExclude, compileGlob, compileInclude } from "./glob.js";
import { grepFiles, compilePattern } from "./grep.js";
import { MountGuard, mountGuardFor } from "./mount-guard.js";
import { Nodes, type Node, type NodeStat, type Resolution } from "./nodes.js";
import {
  checkMode,
  DIR_MODE,
  excludeOption,
  includeOption,
  FILE_MODE,
  flagOption,
  LINK_MODE,
  maxNameLengthOption,
  modeOption,
  noFollowOption,
  objectOption,
  pageOption,
  positiveOption,
  readOptions,
} from "./options.js";
import { basename } from "../util/path.js";
import { canonicalPath, checkSymlinkTarget, joinPath, segmentsOf } from "./path.js";
import { childKey, isKeyBelow } from "./path-key.js";
import { FileChanged, fileText, readContent } from "./read.js";
import { ensureSchema, Kind } from "./schema.js";
import type {
  AppendFileOptions, // fixer AP, run 36
  FindOptions,
  GrepOptions,
  MkdirOptions,
  ReadFileOptions,
  ReaddirOptions,
  RmOptions,
  WorkspaceDirentResult,
  WorkspaceFilesystem,
  WorkspaceFoundEntry,
  WorkspaceGrepMatch,
  WorkspaceStatResult,
  WriteFileOptions,
} from "./types.js";
import { plainSuffix, walk } from "./walk.js";
import { FileWriter, type AppendRequest, type WriteRequest } from "./write.js"; // AppendRequest: fixer AP, run 36
import { headCut } from "../util/cut.js";

/** Options for {@link WorkspaceFs}. */
export interface WorkspaceFsOptions {
  /** Clock (ms) for `mtime`, and for `mtime` only: chunk leases and the sweep use the wall clock (`Date.now()`), shared by every connection to the storage (run 40, fixer f40fs). */
  now: () => number;
}

/** The SQLite-backed implementation of {@link WorkspaceFilesystem}. */
export class WorkspaceFs implements WorkspaceFilesystem {
  readonly #now: () => number;
  readonly #nodes: Nodes;
  readonly #chunks: ChunkStore;
  readonly #guard: MountGuard;
  readonly #writer: FileWriter;

  constructor(db: Database, options: WorkspaceFsOptions) {
    this.#now = options.now;
    this.#nodes = new Nodes(db);
    const mtime = options.now();
    ensureSchema(db, this.#nodes, () => this.#nodes.createRoot(mtime));
    this.#guard = mountGuardFor(db);
    this.#chunks = new ChunkStore(db, db.storage); // leases on the wall clock, not `now` (run 40, fixer f40fs)
    this.#writer = new FileWriter(this.#nodes, this.#chunks, this.#guard, db.storage); // storage key: appends to a path take turns over it (run 37, fixer AP)
    // The start-up sweep (orphans of a crash) is best-effort too: the schema transaction above has committed, so a
    // lock another connection takes meanwhile leaves the orphans to the next mutation's sweep (run 38, fixer SW).
    this.#chunks.reclaim();
  }

  // ── reads ──────────────────────────────────────────────────────────────

  readFile(path: string): Promise<ReadableStream<Uint8Array>>;
  readFile(path: string, encoding: "utf8"): Promise<string>;
  readFile(path: string, options: ReadFileOptions & { encoding?: undefined }): Promise<ReadableStream<Uint8Array>>;
  readFile(path: string, options: ReadFileOptions & { encoding: "utf8" }): Promise<string>;
  readFile(path: string, options: ReadFileOptions): Promise<string | ReadableStream<Uint8Array>>;
  async readFile(path: string, arg?: "utf8" | ReadFileOptions): Promise<string | ReadableStream<Uint8Array>> {
    const window = readOptions(arg, typeof path === "string" ? path : undefined);
    const canonical = canonicalPath(path, "readFile");
    // Another storage object or process may change the file between its lookup and the read of its bytes (or a
    // stream's lease): look again (issue 20, run 39, fixer RR: string and one-chunk reads check the revision too).
    for (let attempt = 1; ; attempt++) {
      const node = this.#existing(canonical, "readFile", true, true);
      if (node.kind === Kind.Directory) throw new WorkspaceFsError("EISDIR", "readFile", canonical);
      try {
        return readContent(this.#chunks, node, canonical, window);
      } catch (error) {
        if (!(error instanceof FileChanged)) throw error;
        if (attempt >= 8) throw new WorkspaceFsError("EIO", "readFile", canonical, "the file kept changing while it was read; try again");
      }
    }
  }

  async readdir(path: string, options?: ReaddirOptions): Promise<WorkspaceDirentResult[]> {
    const canonical = canonicalPath(path, "readdir");
    const node = this.#existing(canonical, "readdir", true);
    if (node.kind !== Kind.Directory) throw new WorkspaceFsError("ENOTDIR", "readdir", canonical);
    const page = objectOption(options, "readdir");
    const offset = pageOption(page?.offset, "offset", "readdir", 0);
    const limit = pageOption(page?.limit, "limit", "readdir", -1);
    if (limit === 0) return [];
    return this.#nodes.list(node.ino, limit, offset, maxNameLengthOption(page)).map((row) => ({
      name: row.name,
      parentPath: canonical,
      size: row.size,
      mtime: row.mtime,
      isFile: row.kind === Kind.File,
      isDirectory: row.kind === Kind.Directory,
      isSymbolicLink: row.kind === Kind.Symlink,
    }));
  }

  async stat(path: string): Promise<WorkspaceStatResult> {
    const canonical = canonicalPath(path, "stat");
    return statResult(this.#stat(canonical, "stat", true), canonical);
  }

  async lstat(path: string): Promise<WorkspaceStatResult> {
    const canonical = canonicalPath(path, "lstat");
    return statResult(this.#stat(canonical, "lstat", false), canonical);
  }

  async readlink(path: string): Promise<string> {
    const canonical = canonicalPath(path, "readlink");
    const node = this.#existing(canonical, "readlink", false);
    if (node.kind !== Kind.Symlink) throw new WorkspaceFsError("EINVAL", "readlink", canonical, "not a symbolic link");
    return node.target ?? "";
  }

  async find(directory: string, pattern?: string, options?: FindOptions): Promise<WorkspaceFoundEntry[]> {
    const canonical = canonicalPath(directory, "find");
    const root = this.#existing(canonical, "find", true);
    if (root.kind !== Kind.Directory) throw new WorkspaceFsError("ENOTDIR", "find", canonical);
    options = objectOption(options, "find");
    const offset = pageOption(options?.offset, "offset", "find", 0);
    const limit = pageOption(options?.limit, "limit", "find", Infinity);
    if (pattern !== undefined && typeof pattern !== "string") throw new TypeError("find: pattern must be a string");
    if (limit === 0) return [];
    const matches = compileGlob(pattern);
    const exclude = compileExclude(excludeOption(options?.exclude, "find"));
    const wanted = offset + limit;
    const out: WorkspaceFoundEntry[] = [];
    let matched = 0;
    for (const { node, relative } of walk(this.#nodes, root, exclude, () => wanted - matched, false, plainSuffix(pattern))) {
      if (!matches(relative)) continue;
      if (matched++ < offset) continue;
      out.push({ path: joinPath(canonical, relative), type: node.kind === Kind.Directory ? "dir" : node.kind === Kind.File ? "file" : "symlink" });
      if (matched >= wanted) break;
    }
    return out;
  }

  async ls(prefix: string): Promise<string[]> {
    const canonical = canonicalPath(prefix, "ls");
    const found = this.#nodes.resolve(segmentsOf(canonical), { followFinal: false, followLinks: false });
    if (found.status !== "found") return [];
    const node = found.node;
    if (node.kind === Kind.File) return [canonical];
    if (node.kind !== Kind.Directory) return [];
    return this.#nodes.filePaths(node.ino, canonical === "/" ? "/" : canonical + "/");
  }

  async grep(pattern: string, path: string, options?: GrepOptions): Promise<WorkspaceGrepMatch[]> {
    const canonical = canonicalPath(path, "grep");
    const root = this.#existing(canonical, "grep", true);
    options = objectOption(options, "grep");
    const context = pageOption(options?.context, "context", "grep", 0);
    const offset = pageOption(options?.offset, "offset", "grep", 0);
    const limit = pageOption(options?.limit, "limit", "grep", Infinity);
    const skipBinary = flagOption(options?.skipBinary, "skipBinary", "grep");
    const lineWidth = positiveOption(options?.maxLineLength, "maxLineLength", "grep");
    const maxChars = positiveOption(options?.maxTotalLength, "maxTotalLength", "grep");
    if (limit === 0) return [];
    const test = compilePattern(pattern, options?.regex === true, options?.ignoreCase === true);
    const page = { context, offset, limit, matched: 0, lineWidth, maxChars };
    // Each file holds at least one match or is skipped, so the matches still
    // missing bound how many files the next page of the walk should read.
    const want = () => offset + limit - page.matched;
    const files: Iterable<{ node: Node; path: string }> =
      root.kind === Kind.Directory ? this.#grepFiles(root, canonical, options, want) : [{ node: root, path: canonical }];
    return grepFiles(files, (file) => fileText(this.#chunks, file.node, file.path, skipBinary, (ino) => this.#nodes.reread(ino)), test, page);
  }

  *#grepFiles(
    root: Node,
    canonical: string,
    options: GrepOptions | undefined,
    want: () => number,
  ): Generator<{ node: Node; path: string }> {
    const globs = includeOption(options?.include, "grep");
    const include = compileInclude(globs);
    const exclude = compileExclude(excludeOption(options?.exclude, "grep"));
    // Without an exclude nothing is pruned: the store hands over regular files only. Without an include too, every
    // file walked is searched: small files' bytes come with their rows (one statement per page, one version each).
    const every = globs === undefined || globs === "" || (Array.isArray(globs) && globs.every((glob) => glob === ""));
    const entries = exclude === undefined ? walk(this.#nodes, root, undefined, want, true, undefined, true, every) : walk(this.#nodes, root, exclude, want, true);
    for (const { node, relative } of entries) {
      if (node.kind === Kind.File && include(relative)) yield { node, path: joinPath(canonical, relative) };
    }
  }

  // ── writes ─────────────────────────────────────────────────────────────

  /**
   * {@link WorkspaceFilesystem.writeFile}. A content stream the call does not
   * read to its end — refused before its first read (`EISDIR`, `ENOENT`,
   * `EEXIST`, a stale condition, a bad option) or failing while it is read — is
   * cancelled with the call's error, so a read stream of another file ends its
   * chunk leases at once (issue 20, run 40, fixer f40fs).
   */
  async writeFile(
    path: string,
    content: string | Uint8Array | ReadableStream<Uint8Array>,
    options?: WriteFileOptions,
  ): Promise<void> {
    try {
      return await this.#writeFile(path, content, options);
    } catch (error) {
      await cancelContent(content, error);
      throw error;
    }
  }

  async #writeFile(path: string, content: string | Uint8Array | ReadableStream<Uint8Array>, options?: WriteFileOptions): Promise<void> {
    const mtime = this.#now();
    const canonical = canonicalPath(path, "writeFile");
    if (canonical === "/") throw new WorkspaceFsError("EISDIR", "writeFile", canonical);
    this.#guard.assertWritable(canonical, "writeFile");
    // A bare "utf8" (Node's encoding argument) is accepted: strings are always written as UTF-8.
    if ((options as unknown) === "utf8") options = undefined;
    options = objectOption(options, "writeFile");
    const mode = modeOption(options?.mode, FILE_MODE, "writeFile", canonical);
    const exclusive = flagOption(options?.exclusive, "exclusive", "writeFile");
    const ifMatch = options?.ifMatch;
    if (ifMatch !== undefined && (typeof ifMatch !== "string" || !/^[0-9a-f]{64}$/.test(ifMatch))) {
      throw new TypeError(`writeFile: options.ifMatch must be a SHA-256 as 64 lowercase hex digits, got ${typeof ifMatch === "string" ? JSON.stringify(headCut(ifMatch, 80)) : typeof ifMatch}`);
    }
    const ifInode = options?.ifInode;
    if (ifInode !== undefined && (typeof ifInode !== "number" || !Number.isSafeInteger(ifInode) || ifInode < 0)) {
      throw new TypeError(`writeFile: options.ifInode must be an inode number (a non-negative integer), got ${typeof ifInode === "number" ? String(ifInode) : typeof ifInode}`);
    }
    const ifUnmodified = options?.ifUnmodified;
    if (
      ifUnmodified !== undefined &&
      (ifUnmodified === null ||
        typeof ifUnmodified !== "object" ||
        !Number.isSafeInteger(ifUnmodified.inode) ||
        ifUnmodified.inode < 0 ||
        !Number.isSafeInteger(ifUnmodified.size) ||
        ifUnmodified.size < 0 ||
        typeof ifUnmodified.mtime !== "number" ||
        !Number.isFinite(ifUnmodified.mtime))
    ) {
      throw new TypeError("writeFile: options.ifUnmodified must be { inode, size, mtime } as stat() gives them (an inode number, a non-negative integer and a finite number of ms; pass the stat result itself)");
    }
    const request: WriteRequest = { path: canonical, mode, exclusive, mtime };
    if (ifMatch !== undefined) request.ifMatch = ifMatch;
    if (ifInode !== undefined) request.ifInode = ifInode;
    if (ifUnmodified !== undefined) request.ifUnmodified = { inode: ifUnmodified.inode, size: ifUnmodified.size, mtime: ifUnmodified.mtime };
    if (noFollowOption(options)) request.noFollow = true;
    return this.#writer.write(request, content);
  }

  /**
   * {@link WorkspaceFilesystem.appendFile}: checks, then {@link FileWriter.append}
   * (issue 20, run 36, fixer AP). A content stream the call does not read to its
   * end is cancelled with the call's error, as {@link writeFile} does (run 40, fixer f40fs).
   */
  async appendFile(path: string, content: string | Uint8Array | ReadableStream<Uint8Array>, options?: AppendFileOptions): Promise<void> {
    try {
      return await this.#appendFile(path, content, options);
    } catch (error) {
      await cancelContent(content, error);
      throw error;
    }
  }

  async #appendFile(path: string, content: string | Uint8Array | ReadableStream<Uint8Array>, options?: AppendFileOptions): Promise<void> {
    const mtime = this.#now();
    const canonical = canonicalPath(path, "appendFile");
    if (canonical === "/") throw new WorkspaceFsError("EISDIR", "appendFile", canonical);
    this.#guard.assertWritable(canonical, "appendFile");
    if ((options as unknown) === "utf8") options = undefined;
    options = objectOption(options, "appendFile");
    const mode = modeOption(options?.mode, FILE_MODE, "appendFile", canonical);
    const ifInode = options?.ifInode;
    if (ifInode !== undefined && (typeof ifInode !== "number" || !Number.isSafeInteger(ifInode) || ifInode < 0)) {
      throw new TypeError(`appendFile: options.ifInode must be an inode number (a non-negative integer), got ${typeof ifInode === "number" ? String(ifInode) : typeof ifInode}`);
    }
    let bytes: Uint8Array | ReadableStream<Uint8Array>;
    if (typeof content === "string") bytes = new TextEncoder().encode(content);
    else if (content instanceof Uint8Array || ArrayBuffer.isView(content)) bytes = new Uint8Array(content.buffer, content.byteOffset, content.byteLength);
    else if (typeof content === "object" && content !== null && typeof (content as ReadableStream).getReader === "function") bytes = content;
    else throw new TypeError("appendFile: content must be a string, a Uint8Array or a ReadableStream<Uint8Array>");
    const request: AppendRequest = { path: canonical, mode, mtime, clock: this.#now }; // clock: dated at commit, after its turn (run 37, fixer AP)
    if (ifInode !== undefined) request.ifInode = ifInode;
    return this.#writer.append(request, bytes);
  }

  async mkdir(path: string, options?: MkdirOptions): Promise<void> {
    const canonical = canonicalPath(path, "mkdir");
    if (canonical === "/") throw new WorkspaceFsError("EEXIST", "mkdir", canonical);
    // A read-only mount at, under or above the path refuses only what would be created (issue 20, run 33,
    // fixer MB): an existing leaf is EEXIST, or with `recursive` an existing directory a success — as Linux's
    // mkdir(2) answers EEXIST before EROFS, and `mkdir -p` / Node's recursive mkdir of an existing directory
    // on or beside a read-only mount succeed.
    const refusal = this.#guard.active ? this.#guard.refusal(canonical, "mkdir") : undefined;
    options = objectOption(options, "mkdir");
    const mode = modeOption(options?.mode, DIR_MODE, "mkdir", canonical);
    const recursive = flagOption(options?.recursive, "recursive", "mkdir");
    const noFollow = noFollowOption(options);
    const mtime = this.#now();
    this.#nodes.transaction(() => {
      let created = false;
      const createDir = (parent: Node, name: string, dirMode: number) => {
        created = true;
        return this.#nodes.insert(parent, { name, kind: Kind.Directory, mode: dirMode, mtime, size: 0, target: null, chunk: null }, "mkdir");
      };
      const trace = this.#guard.trace();
      const found = this.#nodes.resolve(segmentsOf(canonical), {
        followFinal: false,
        followLinks: !noFollow,
        // Under a refusal nothing is created: a missing ancestor ends the walk, and the refusal is thrown below.
        createMissing: recursive && !refusal ? (parent, name) => createDir(parent, name, DIR_MODE) : undefined,
        trace,
        creating: true,
      });
      if (found.status === "found" && !created) {
        // Nothing to create (issue 20, run 33, fixer MB): no mount check applies.
        if (recursive && found.node.kind === Kind.Directory) return;
        throw new WorkspaceFsError("EEXIST", "mkdir", canonical);
      }
      if (refusal) this.#guard.assertWritable(canonical, "mkdir"); // throws the refusal's EROFS
      this.#guard.assertWritableVia(trace, found, "mkdir", canonical, this.#nodes);
      throwIfWalkFailed(found, "mkdir", canonical);
      if (found.status === "found") {
        if (recursive && found.node.kind === Kind.Directory) return;
        throw new WorkspaceFsError("EEXIST", "mkdir", canonical);
      }
      const missing = found as Extract<Resolution, { status: "missing" }>;
      createDir(missing.parent, missing.name, mode);
    });
  }

  async rm(path: string, options?: RmOptions): Promise<void> {
    const canonical = canonicalPath(path, "rm");
    if (canonical === "/") throw new WorkspaceFsError("EPERM", "rm", canonical, "cannot remove the root directory");
    this.#guard.assertWritable(canonical, "rm");
    options = objectOption(options, "rm");
    const force = flagOption(options?.force, "force", "rm");
    const recursive = flagOption(options?.recursive, "recursive", "rm");
    let released = false;
    this.#nodes.transaction(() => {
      const trace = this.#guard.trace();
      const found = this.#nodes.resolve(segmentsOf(canonical), { followFinal: false, trace });
      this.#guard.assertWritableVia(trace, found, "rm", canonical, this.#nodes);
      if (found.status === "eloop") throw new WorkspaceFsError("ELOOP", "rm", canonical);
      if (found.status !== "found") {
        if (force) return;
        throw new WorkspaceFsError("ENOENT", "rm", canonical);
      }
      const node = found.node;
      if (node.kind === Kind.Directory) {
        if (this.#nodes.hasChildren(node.ino)) {
          if (!recursive) throw new WorkspaceFsError("ENOTEMPTY", "rm", canonical);
          // Set-wise: the subtree's chunk references, then its nodes.
          released = this.#chunks.releaseSubtree(node.key);
          this.#nodes.deleteSubtree(node);
        }
      } else if (node.kind === Kind.File) {
        released = this.#chunks.release(node);
      }
      this.#nodes.delete(node.ino);
      this.#nodes.tombstone(node);
    });
    this.#chunks.reclaim(released); // committed: the reclaim is best-effort (run 38, fixer SW)
  }

  async rename(oldPath: string, newPath: string): Promise<void> {
    const from = canonicalPath(oldPath, "rename");
    const to = canonicalPath(newPath, "rename");
    if (from === "/" || to === "/") throw new WorkspaceFsError("EINVAL", "rename", from === "/" ? from : to, "cannot rename the root directory");
    this.#guard.assertWritable(from, "rename");
    this.#guard.assertWritable(to, "rename");
    let released = false;
    this.#nodes.transaction(() => {
      const sourceTrace = this.#guard.trace();
      const source = this.#nodes.resolve(segmentsOf(from), { followFinal: false, trace: sourceTrace });
      const destinationTrace = this.#guard.trace();
      const destination = this.#nodes.resolve(segmentsOf(to), { followFinal: false, trace: destinationTrace, creating: true });
      this.#guard.assertWritableVia(sourceTrace, source, "rename", from, this.#nodes);
      this.#guard.assertWritableVia(destinationTrace, destination, "rename", to, this.#nodes);
      if (source.status === "eloop") throw new WorkspaceFsError("ELOOP", "rename", from);
      if (source.status !== "found") throw new WorkspaceFsError("ENOENT", "rename", from);
      if (destination.status === "eloop") throw new WorkspaceFsError("ELOOP", "rename", to);
      if (destination.status !== "found" && destination.status !== "missing") throw new WorkspaceFsError("ENOENT", "rename", to);
      const node = source.node;
      const existing = destination.status === "found" ? destination.node : undefined;
      if (existing && existing.ino === node.ino) return;
      const parent = existing ? this.#nodes.get(existing.parent)! : (destination as Extract<Resolution, { status: "missing" }>).parent;
      const name = existing ? existing.name : (destination as Extract<Resolution, { status: "missing" }>).name;
      if (node.kind === Kind.Directory && isKeyBelow(childKey(parent.key, name), node.key)) {
        throw new WorkspaceFsError("EINVAL", "rename", to, "cannot move a directory into its own subtree");
      }
      // The new path (maybe reached through a link) and every path below a moved directory must fit the limits.
      this.#nodes.assertMovable(node, childKey(parent.key, name), "rename");
      if (existing) {
        const sourceIsDir = node.kind === Kind.Directory;
        const destIsDir = existing.kind === Kind.Directory;
        if (!sourceIsDir && destIsDir) throw new WorkspaceFsError("EISDIR", "rename", to);
        if (sourceIsDir && !destIsDir) throw new WorkspaceFsError("ENOTDIR", "rename", to);
        if (destIsDir && this.#nodes.hasChildren(existing.ino)) throw new WorkspaceFsError("ENOTEMPTY", "rename", to);
        if (existing.kind === Kind.File) released = this.#chunks.release(existing);
        this.#nodes.delete(existing.ino);
      }
      this.#nodes.move(node, parent, name);
    });
    this.#chunks.reclaim(released); // committed: the reclaim is best-effort (run 38, fixer SW)
  }

  async symlink(target: string, path: string): Promise<void> {
    const canonical = canonicalPath(path, "symlink");
    checkSymlinkTarget(target, canonical);
    if (canonical === "/") throw new WorkspaceFsError("EEXIST", "symlink", canonical);
    this.#guard.assertWritable(canonical, "symlink");
    const mtime = this.#now();
    this.#nodes.transaction(() => {
      const found = this.#nodes.resolve(segmentsOf(canonical), { followFinal: false, followLinks: false, creating: true });
      throwIfWalkFailed(found, "symlink", canonical);
      if (found.status === "found") throw new WorkspaceFsError("EEXIST", "symlink", canonical);
      const missing = found as Extract<Resolution, { status: "missing" }>;
      this.#nodes.insert(missing.parent, { name: missing.name, kind: Kind.Symlink, mode: LINK_MODE, mtime, size: target.length, target, chunk: null }, "symlink");
    });
  }

  async chmod(path: string, mode: number): Promise<void> {
    const canonical = canonicalPath(path, "chmod");
    this.#guard.assertWritable(canonical, "chmod");
    checkMode(mode, "chmod", canonical);
    const mtime = this.#now();
    this.#nodes.transaction(() => {
      // Where links lead is checked too, as writeFile/mkdir/rm do: a link into a read-only mount is EROFS.
      const trace = this.#guard.trace();
      const found = this.#nodes.resolve(segmentsOf(canonical), { followFinal: true, trace });
      this.#guard.assertWritableVia(trace, found, "chmod", canonical, this.#nodes);
      if (found.status === "eloop") throw new WorkspaceFsError("ELOOP", "chmod", canonical);
      if (found.status !== "found") throw new WorkspaceFsError("ENOENT", "chmod", canonical);
      this.#nodes.setMode(found.node.ino, mode & 0o7777, mtime);
    });
  }

  // ── change tracking (internal) ─────────────────────────────────────────

  /**
   * The store revision (spec 01 §4 item 8): advanced by one per mutation
   * (writeFile commit, mkdir, rm, rename, symlink, chmod; recursive forms
   * count once), 0 for a store never changed. Internal: not on
   * {@link WorkspaceFilesystem} yet.
   */
  revision(): number {
    return this.#nodes.revision();
  }

  /**
   * One page of the changes after `cursor`, in `(rev, path)` order: nodes
   * touched later (their state now) and paths deleted or renamed away later
   * (tombstones); read-only mount content left out. `limit` default
   * `DEFAULT_CHANGES_LIMIT` (1000), at most 10,000. Start with `{ rev: 0,
   * path: null }`, go on with each page's `cursor` until `done`; a cursor is
   * plain data that survives restarts. Applying the entries in order to a
   * real directory (each replaces what is at its path; missing parents are
   * created; `"deleted"` removes the path and all under it) reproduces the
   * tree. Internal (spec 01 §1.2 `push`/`pull`, spec 02 §7.3); see `changes.ts`.
   * @throws WorkspaceFsError `EINVAL` bad cursor or limit, a cursor ahead of the store, or behind {@link pruneTombstones}.
   */
  changesSince(cursor: ChangeCursor, options?: ChangesOptions): ChangePage {
    return changesSince(this.#nodes, this.#guard, this.#nodes.pruned(), cursor, options);
  }

  /**
   * The revision stamped on the entry at `path` by the last mutation that
   * touched it (a final link not followed), or `undefined` when nothing is
   * there. Container sync records it for what it pulled, so the next push
   * knows the entry is already in the container. Internal, like {@link changesSince}.
   */
  stampOf(path: string): number | undefined {
    const canonical = canonicalPath(path, "stampOf");
    const found = this.#nodes.resolve(segmentsOf(canonical), { followFinal: false });
    return found.status === "found" ? this.#nodes.stampOf(found.node.ino) : undefined;
  }

  /**
   * The entry at `path` (a final link not followed) as the container sync
   * fingerprints it: its inode (`stat().inode`, never reused), the revision
   * last stamped on it, its kind, permission bits, mtime (ms) and size
   * (bytes; 0 for a directory); `undefined` when nothing is there. One path
   * resolution, synchronous: nothing lands between it and a {@link stampOf}
   * or {@link changesSince} of the same turn. Internal, like {@link stampOf}
   * (issue 20, run 36, fixer RN).
   * The stamp is read before the row, so the two are one revision's even when another process commits between the
   * statements: a later stamp check sees that commit (issue 20, run 37, fixer AP).
   */
  inodeOf(path: string): { ino: number; rev: number; kind: "file" | "directory" | "symlink"; mode: number; mtime: number; size: number } | undefined {
    const canonical = canonicalPath(path, "inodeOf");
    const found = this.#nodes.resolve(segmentsOf(canonical), { followFinal: false });
    if (found.status !== "found") return undefined;
    // The stamp before the row (run 37, fixer AP): a process committing between the reads is seen by the next stamp check.
    const rev = this.#nodes.stampOf(found.node.ino);
    const node = rev === undefined ? undefined : this.#nodes.get(found.node.ino);
    if (rev === undefined || node === undefined) return undefined;
    const kind = node.kind === Kind.Directory ? "directory" : node.kind === Kind.Symlink ? "symlink" : "file";
    return { ino: node.ino, rev, kind, mode: node.mode & 0o7777, mtime: node.mtime, size: kind === "directory" ? 0 : node.size };
  }

  /**
   * The canonical path of inode `ino` now (`/` for the root), or `undefined`
   * when no entry has it (inodes are never reused: a removed one stays
   * absent). Container sync uses it to find where a synced directory was
   * renamed to. Internal, like {@link stampOf} (issue 20, run 36, fixer RN).
   */
  inodePath(ino: number): string | undefined {
    if (!Number.isSafeInteger(ino) || ino < 1) return undefined;
    if (this.#nodes.stampOf(ino) === undefined) return undefined;
    return this.#nodes.pathOf(ino);
  }

  /**
   * Deletes the tombstones of revisions ≤ `upToRev` (call it with the
   * oldest cursor revision every consumer has acknowledged). A cursor older
   * than `upToRev` is refused from then on (`EINVAL`: start again from 0).
   * Returns the number of tombstones deleted.
   * @throws WorkspaceFsError `EINVAL` when `upToRev` is not an integer in 0..{@link revision}.
   */
  pruneTombstones(upToRev: number): number {
    return this.#nodes.pruneTombstones(checkPruneRevision(upToRev, this.#nodes.revision()));
  }

  // ── helpers ────────────────────────────────────────────────────────────

  /** What `stat`/`lstat` report: one lookup for a path without links, else the walk. */
  #stat(canonical: string, syscall: string, followFinal: boolean): NodeStat {
    const head = this.#nodes.stat(canonical, followFinal);
    return typeof head === "object" ? head : this.#existing(canonical, syscall, followFinal, false, head === "absent");
  }

  /** Resolves an existing entry; read-side failures become ENOENT / ELOOP. */
  #existing(canonical: string, syscall: string, followFinal: boolean, withData = false, absent = false): Node {
    const found = this.#nodes.resolve(segmentsOf(canonical), { followFinal, withData, absent });
    if (found.status === "found") return found.node;
    if (found.status === "eloop") throw new WorkspaceFsError("ELOOP", syscall, canonical);
    throw new WorkspaceFsError("ENOENT", syscall, canonical);
  }
}

/**
 * After a `writeFile`/`appendFile` failed: cancels its content when that is a
 * stream left unread or half read (a read stream of another file then ends its
 * chunk leases, and chunks only it kept are reclaimable; an RPC stream tells
 * its sender). A stream read to its end, already cancelled or still locked is
 * left as it is; a cancel that fails is ignored: the call's own error is the
 * one reported (issue 20, run 40, fixer f40fs).
 */
async function cancelContent(content: unknown, error: unknown): Promise<void> {
  if (typeof content !== "object" || content === null || typeof (content as ReadableStream).cancel !== "function") return;
  const stream = content as ReadableStream<Uint8Array>;
  if (stream.locked) return;
  await stream.cancel(error).catch(() => {});
}

function statResult(node: NodeStat, canonical: string): WorkspaceStatResult {
  return {
    name: basename(canonical),
    inode: node.ino,
    mode: node.mode,
    mtime: node.mtime,
    size: node.size,
    isFile: node.kind === Kind.File,
    isDirectory: node.kind === Kind.Directory,
    isSymbolicLink: node.kind === Kind.Symlink,
  };
}
