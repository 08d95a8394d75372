/**
 * `workspace.fs`: the virtual filesystem on SQL storage (spec 01 §3, §4).
 *
 * Every mutation runs in one synchronous storage transaction, opened through
 * {@link Nodes.transaction}, so it is all or nothing. Content goes through
 * {@link ChunkStore}; metadata through {@link Nodes}. No SQL runs here.
 *
 * @module
 */
import type { Database } from "../storage/database.js";
import { CHUNK_SIZE, ChunkStore, sha256, splitChunks } from "./chunks.js";
import { WorkspaceFsError } from "./errors.js";
import { compileExclude, compileGlob } from "./glob.js";
import { grepFiles, compilePattern } from "./grep.js";
import { MountGuard, mountGuardFor, within } from "./mount-guard.js";
import { Nodes, type Node, type ResolveTrace, type Resolution } from "./nodes.js";
import { baseName, canonicalPath, joinPath, segmentsOf } from "./path.js";
import { ensureSchema, Kind } from "./schema.js";
import type {
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
import { walk, WALK_PAGE } from "./walk.js";

const FILE_MODE = 0o644;
const DIR_MODE = 0o755;
const LINK_MODE = 0o777;

/** Options for {@link WorkspaceFs}. */
export interface WorkspaceFsOptions {
  /** Clock (ms) for `mtime`. */
  now: () => number;
}

/** The SQLite-backed implementation of {@link WorkspaceFilesystem}. */
export class WorkspaceFs implements WorkspaceFilesystem {
  readonly #now: () => number;
  readonly #nodes: Nodes;
  readonly #chunks: ChunkStore;
  readonly #guard: MountGuard;

  constructor(db: Database, options: WorkspaceFsOptions) {
    this.#now = options.now;
    this.#nodes = new Nodes(db);
    const mtime = options.now();
    ensureSchema(db, () => this.#nodes.createRoot(mtime));
    this.#guard = mountGuardFor(db);
    this.#chunks = new ChunkStore(db, db.storage);
    this.#chunks.sweep();
  }

  // ── reads ──────────────────────────────────────────────────────────────

  readFile(path: string): Promise<ReadableStream<Uint8Array>>;
  readFile(path: string, encoding: "utf8"): Promise<string>;
  readFile(path: string, options: ReadFileOptions & { encoding?: undefined }): Promise<ReadableStream<Uint8Array>>;
  readFile(path: string, options: ReadFileOptions & { encoding: "utf8" }): Promise<string>;
  readFile(path: string, options: ReadFileOptions): Promise<string | ReadableStream<Uint8Array>>;
  async readFile(path: string, arg?: "utf8" | ReadFileOptions): Promise<string | ReadableStream<Uint8Array>> {
    const { encoding, byteOffset, byteLength } = readOptions(arg, typeof path === "string" ? path : undefined);
    const canonical = canonicalPath(path, "readFile");
    const node = this.#existing(canonical, "readFile", true, true);
    if (node.kind === Kind.Directory) throw new WorkspaceFsError("EISDIR", "readFile", canonical);
    const start = Math.min(byteOffset, node.size);
    const end = byteLength === undefined ? node.size : Math.min(node.size, start + byteLength);
    if (node.data) {
      // A small file whose bytes came with its inode row: no further query.
      const window = node.data.subarray(start, end);
      return encoding === "utf8" ? new TextDecoder("utf-8").decode(window) : streamOf(window);
    }
    const first = Math.floor(start / CHUNK_SIZE);
    const last = Math.floor((end - 1) / CHUNK_SIZE);
    const firstChunkOffset = first * CHUNK_SIZE;
    if (end > start && first === last) {
      // A window inside one chunk: one query for its bytes, read at once (≤ 512 KiB).
      const data = this.#chunks.readAt(node, first);
      if (!data) throw new WorkspaceFsError("EIO", "readFile", canonical, `stored chunk ${first} is missing`);
      const window = data.subarray(start - firstChunkOffset, end - firstChunkOffset);
      return encoding === "utf8" ? new TextDecoder("utf-8").decode(window) : streamOf(window);
    }
    const ids = end > start ? this.#chunks.range(node, first, last) : [];
    if (encoding === "utf8") {
      const decoder = new TextDecoder("utf-8");
      let text = "";
      ids.forEach((id, i) => {
        const data = this.#chunkData(id, canonical);
        const base = firstChunkOffset + i * CHUNK_SIZE;
        text += decoder.decode(data.subarray(Math.max(0, start - base), Math.min(data.byteLength, end - base)), { stream: true });
      });
      return text + decoder.decode();
    }
    return this.#stream(ids, firstChunkOffset, start, end, canonical);
  }

  #stream(ids: number[], firstChunkOffset: number, start: number, end: number, path: string): ReadableStream<Uint8Array> {
    const chunks = this.#chunks;
    chunks.pin(ids);
    let index = 0;
    let released = false;
    const release = () => {
      if (!released) {
        released = true;
        chunks.unpin(ids);
      }
    };
    return new ReadableStream<Uint8Array>(
      {
        pull: (controller) => {
          if (index >= ids.length) {
            release();
            controller.close();
            return;
          }
          try {
            const data = this.#chunkData(ids[index], path);
            const base = firstChunkOffset + index * CHUNK_SIZE;
            index++;
            controller.enqueue(data.subarray(Math.max(0, start - base), Math.min(data.byteLength, end - base)));
            if (index >= ids.length) {
              release();
              controller.close();
            }
          } catch (error) {
            release();
            controller.error(error);
          }
        },
        cancel: release,
      },
      { highWaterMark: 0 },
    );
  }

  #chunkData(id: number, path: string): Uint8Array {
    const data = this.#chunks.read(id);
    if (!data) throw new WorkspaceFsError("EIO", "readFile", path, `stored chunk ${id} is missing`);
    return data;
  }

  async readdir(path: string, options?: ReaddirOptions): Promise<WorkspaceDirentResult[]> {
    const canonical = canonicalPath(path, "readdir");
    const node = this.#existing(canonical, "readdir", true);
    if (node.kind !== Kind.Directory) throw new WorkspaceFsError("ENOTDIR", "readdir", canonical);
    const page = objectOption(options, "readdir");
    const offset = pageOption(page?.offset, "offset", "readdir", 0);
    const limit = pageOption(page?.limit, "limit", "readdir", -1);
    if (limit === 0) return [];
    return this.#nodes.list(node.ino, limit, offset).map((row) => ({
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
    return statResult(this.#existing(canonical, "stat", true), canonical);
  }

  async lstat(path: string): Promise<WorkspaceStatResult> {
    const canonical = canonicalPath(path, "lstat");
    return statResult(this.#existing(canonical, "lstat", false), canonical);
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
    for (const { node, relative } of walk(this.#nodes, root, exclude, () => wanted - matched)) {
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
    if (limit === 0) return [];
    const test = compilePattern(pattern, options?.regex === true, options?.ignoreCase === true);
    const page = { context, offset, limit, matched: 0 };
    // Each file holds at least one match or is skipped, so the matches still
    // missing bound how many files the next page of the walk should read.
    const want = () => (Number.isFinite(limit) ? offset + limit - page.matched : WALK_PAGE);
    const files: Iterable<{ node: Node; path: string }> =
      root.kind === Kind.Directory ? this.#grepFiles(root, canonical, options, want) : [{ node: root, path: canonical }];
    return grepFiles(files, (file) => this.#lines(file.node, file.path), test, page);
  }

  *#grepFiles(
    root: Node,
    canonical: string,
    options: GrepOptions | undefined,
    want: () => number,
  ): Generator<{ node: Node; path: string }> {
    const include = compileGlob(options?.include);
    const exclude = compileExclude(excludeOption(options?.exclude, "grep"));
    for (const { node, relative } of walk(this.#nodes, root, exclude, want)) {
      if (node.kind === Kind.File && include(relative)) yield { node, path: joinPath(canonical, relative) };
    }
  }

  /** Decoded text of a file, chunk by chunk. */
  *#lines(node: Node, path: string): Generator<string> {
    if (node.size === 0) return;
    const decoder = new TextDecoder("utf-8");
    const last = Math.floor((node.size - 1) / CHUNK_SIZE);
    // Read the chunk list in bounded slices so a huge file never loads whole.
    for (let first = 0; first <= last; first += 256) {
      for (const id of this.#chunks.range(node, first, Math.min(last, first + 255))) {
        yield decoder.decode(this.#chunkData(id, path), { stream: true });
      }
    }
    yield decoder.decode();
  }

  // ── writes ─────────────────────────────────────────────────────────────

  async writeFile(
    path: string,
    content: string | Uint8Array | ReadableStream<Uint8Array>,
    options?: WriteFileOptions,
  ): Promise<void> {
    const mtime = this.#now();
    const canonical = canonicalPath(path, "writeFile");
    if (canonical === "/") throw new WorkspaceFsError("EISDIR", "writeFile", canonical);
    this.#readOnly(canonical, "writeFile");
    // A bare "utf8" (Node's encoding argument) is accepted: strings are always written as UTF-8.
    if ((options as unknown) === "utf8") options = undefined;
    options = objectOption(options, "writeFile");
    const mode = modeOption(options?.mode, FILE_MODE, "writeFile", canonical);
    const exclusive = flagOption(options?.exclusive, "exclusive", "writeFile");
    const segments = segmentsOf(canonical);
    if (typeof content === "string" || content instanceof Uint8Array || ArrayBuffer.isView(content)) {
      const bytes =
        typeof content === "string"
          ? new TextEncoder().encode(content)
          : new Uint8Array(content.buffer, content.byteOffset, content.byteLength);
      if (bytes.byteLength <= CHUNK_SIZE) return this.#writeSmall(segments, canonical, exclusive, mode, mtime, bytes);
      return this.#writeStaged(segments, canonical, exclusive, mode, mtime, toAsync(splitChunks(bytes)));
    }
    if (!isReadableStream(content)) {
      throw new TypeError("writeFile: content must be a string, a Uint8Array or a ReadableStream<Uint8Array>");
    }
    // Check the target before reading the first byte, and again at commit.
    this.#writeTarget(segments, canonical, exclusive);
    const pieces = rechunk(content);
    const first = await pieces.next();
    const second = first.done ? first : await pieces.next();
    if (second.done) {
      // The whole stream fits one chunk: commit it like a byte array, in one transaction.
      return this.#writeSmall(segments, canonical, exclusive, mode, mtime, first.done ? new Uint8Array(0) : first.value);
    }
    return this.#writeStaged(segments, canonical, exclusive, mode, mtime, prepend([first.value, second.value], pieces));
  }

  /** Writes ≤ one chunk of bytes: hash first, then resolve, store and link in one transaction. */
  async #writeSmall(segments: string[], canonical: string, exclusive: boolean, mode: number, mtime: number, bytes: Uint8Array): Promise<void> {
    const hash = bytes.byteLength > 0 ? await sha256(bytes) : undefined;
    const released = this.#nodes.transaction(() => {
      const target = this.#writeTarget(segments, canonical, exclusive);
      const id = hash ? this.#chunks.acquire({ hash, data: bytes }) : null;
      return this.#commitFile(target, id, [], bytes.byteLength, mode, mtime);
    });
    this.#chunks.sweep(released);
  }

  /**
   * Stores chunks as they arrive (pinned, unreferenced), then links them to the
   * file in one transaction. Any failure before the commit leaves the old file
   * untouched; the staged chunks are swept.
   */
  async #writeStaged(
    segments: string[],
    canonical: string,
    exclusive: boolean,
    mode: number,
    mtime: number,
    pieces: AsyncIterable<Uint8Array>,
  ): Promise<void> {
    const ids: number[] = [];
    let size = 0;
    try {
      for await (const piece of pieces) {
        const hash = await sha256(piece);
        ids.push(this.#chunks.stage({ hash, data: piece }));
        size += piece.byteLength;
      }
      this.#nodes.transaction(() => {
        const target = this.#writeTarget(segments, canonical, exclusive);
        this.#chunks.count(ids);
        this.#commitFile(target, null, ids, size, mode, mtime);
      });
    } finally {
      this.#chunks.unpin(ids);
      this.#chunks.sweep();
    }
  }

  /** Where a write lands: an existing file (link followed) or a missing leaf in an existing directory. */
  #writeTarget(segments: string[], canonical: string, exclusive: boolean): { node?: Node; parent?: Node; name?: string } {
    // Again at commit: a mount may have completed while a stream was read.
    this.#readOnly(canonical, "writeFile");
    if (exclusive) {
      const trace = this.#trace();
      const own = this.#nodes.resolve(segments, { followFinal: false, trace });
      this.#readOnlyVia(trace, own, "writeFile", canonical);
      this.#throwFor(own, "writeFile", canonical);
      if (own.status === "found") throw new WorkspaceFsError("EEXIST", "writeFile", canonical);
    }
    const trace = this.#trace();
    const found = this.#nodes.resolve(segments, { followFinal: true, trace });
    this.#readOnlyVia(trace, found, "writeFile", canonical);
    this.#throwFor(found, "writeFile", canonical);
    if (found.status === "found") {
      if (found.node.kind === Kind.Directory) throw new WorkspaceFsError("EISDIR", "writeFile", canonical);
      return { node: found.node };
    }
    const missing = found as Extract<Resolution, { status: "missing" }>;
    return { parent: missing.parent, name: missing.name };
  }

  /**
   * Points the target at new content: `single` for a file of ≤ 1 chunk, else
   * `ids` (references already counted). Returns whether old content was released.
   */
  #commitFile(
    target: { node?: Node; parent?: Node; name?: string },
    single: number | null,
    ids: number[],
    size: number,
    mode: number,
    mtime: number,
  ): boolean {
    if (target.node) {
      const node = target.node;
      const released = this.#chunks.release(node);
      const chunk = ids.length > 0 ? this.#chunks.list(node.ino, ids) : single;
      this.#nodes.setContent(node.ino, { mode, mtime, size, chunk });
      return released;
    }
    const node = this.#nodes.insert({
      parent: target.parent!.ino,
      name: target.name!,
      kind: Kind.File,
      mode,
      mtime,
      size,
      target: null,
      chunk: ids.length > 0 ? null : single,
    });
    if (ids.length > 0) {
      const chunk = this.#chunks.list(node.ino, ids);
      if (chunk !== null) this.#nodes.setChunk(node.ino, chunk);
    }
    return false;
  }

  async mkdir(path: string, options?: MkdirOptions): Promise<void> {
    const canonical = canonicalPath(path, "mkdir");
    if (canonical === "/") throw new WorkspaceFsError("EEXIST", "mkdir", canonical);
    this.#readOnly(canonical, "mkdir");
    options = objectOption(options, "mkdir");
    const mode = modeOption(options?.mode, DIR_MODE, "mkdir", canonical);
    const recursive = flagOption(options?.recursive, "recursive", "mkdir");
    const mtime = this.#now();
    this.#nodes.transaction(() => {
      const createDir = (parent: Node, name: string, dirMode: number) =>
        this.#nodes.insert({ parent: parent.ino, name, kind: Kind.Directory, mode: dirMode, mtime, size: 0, target: null, chunk: null });
      const trace = this.#trace();
      const found = this.#nodes.resolve(segmentsOf(canonical), {
        followFinal: false,
        createMissing: recursive ? (parent, name) => createDir(parent, name, DIR_MODE) : undefined,
        trace,
      });
      this.#readOnlyVia(trace, found, "mkdir", canonical);
      this.#throwFor(found, "mkdir", canonical);
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
    this.#readOnly(canonical, "rm");
    options = objectOption(options, "rm");
    const force = flagOption(options?.force, "force", "rm");
    const recursive = flagOption(options?.recursive, "recursive", "rm");
    let released = false;
    this.#nodes.transaction(() => {
      const trace = this.#trace();
      const found = this.#nodes.resolve(segmentsOf(canonical), { followFinal: false, trace });
      this.#readOnlyVia(trace, found, "rm", canonical);
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
          released = this.#chunks.releaseSubtree(node.ino);
          this.#nodes.deleteSubtree(node.ino);
        }
      } else if (node.kind === Kind.File) {
        released = this.#chunks.release(node);
      }
      this.#nodes.delete(node.ino);
    });
    this.#chunks.sweep(released);
  }

  async rename(oldPath: string, newPath: string): Promise<void> {
    const from = canonicalPath(oldPath, "rename");
    const to = canonicalPath(newPath, "rename");
    if (from === "/" || to === "/") throw new WorkspaceFsError("EINVAL", "rename", from === "/" ? from : to, "cannot rename the root directory");
    this.#readOnly(from, "rename");
    this.#readOnly(to, "rename");
    let released = false;
    this.#nodes.transaction(() => {
      const sourceTrace = this.#trace();
      const source = this.#nodes.resolve(segmentsOf(from), { followFinal: false, trace: sourceTrace });
      const destinationTrace = this.#trace();
      const destination = this.#nodes.resolve(segmentsOf(to), { followFinal: false, trace: destinationTrace });
      this.#readOnlyVia(sourceTrace, source, "rename", from);
      this.#readOnlyVia(destinationTrace, destination, "rename", to);
      if (source.status === "eloop") throw new WorkspaceFsError("ELOOP", "rename", from);
      if (source.status !== "found") throw new WorkspaceFsError("ENOENT", "rename", from);
      if (destination.status === "eloop") throw new WorkspaceFsError("ELOOP", "rename", to);
      if (destination.status !== "found" && destination.status !== "missing") throw new WorkspaceFsError("ENOENT", "rename", to);
      const node = source.node;
      const existing = destination.status === "found" ? destination.node : undefined;
      if (existing && existing.ino === node.ino) return;
      const parentIno = existing ? existing.parent : (destination as Extract<Resolution, { status: "missing" }>).parent.ino;
      const name = existing ? existing.name : (destination as Extract<Resolution, { status: "missing" }>).name;
      if (node.kind === Kind.Directory && this.#nodes.isWithin(parentIno, node.ino)) {
        throw new WorkspaceFsError("EINVAL", "rename", to, "cannot move a directory into its own subtree");
      }
      if (existing) {
        const sourceIsDir = node.kind === Kind.Directory;
        const destIsDir = existing.kind === Kind.Directory;
        if (!sourceIsDir && destIsDir) throw new WorkspaceFsError("EISDIR", "rename", to);
        if (sourceIsDir && !destIsDir) throw new WorkspaceFsError("ENOTDIR", "rename", to);
        if (destIsDir && this.#nodes.hasChildren(existing.ino)) throw new WorkspaceFsError("ENOTEMPTY", "rename", to);
        if (existing.kind === Kind.File) released = this.#chunks.release(existing);
        this.#nodes.delete(existing.ino);
      }
      this.#nodes.move(node.ino, parentIno, name);
    });
    this.#chunks.sweep(released);
  }

  async symlink(target: string, path: string): Promise<void> {
    const canonical = canonicalPath(path, "symlink");
    if (typeof target !== "string") throw new WorkspaceFsError("EINVAL", "symlink", canonical, "link target must be a string");
    if (target.includes("\0")) throw new WorkspaceFsError("EINVAL", "symlink", canonical, "link target contains NUL");
    if (target === "") throw new WorkspaceFsError("ENOENT", "symlink", canonical, "link target is empty");
    if (canonical === "/") throw new WorkspaceFsError("EEXIST", "symlink", canonical);
    this.#readOnly(canonical, "symlink");
    const mtime = this.#now();
    this.#nodes.transaction(() => {
      const found = this.#nodes.resolve(segmentsOf(canonical), { followFinal: false, followLinks: false });
      this.#throwFor(found, "symlink", canonical);
      if (found.status === "found") throw new WorkspaceFsError("EEXIST", "symlink", canonical);
      const missing = found as Extract<Resolution, { status: "missing" }>;
      this.#nodes.insert({ parent: missing.parent.ino, name: missing.name, kind: Kind.Symlink, mode: LINK_MODE, mtime, size: target.length, target, chunk: null });
    });
  }

  async chmod(path: string, mode: number): Promise<void> {
    const canonical = canonicalPath(path, "chmod");
    this.#readOnly(canonical, "chmod");
    if (typeof mode !== "number" || !Number.isSafeInteger(mode) || mode < 0) {
      throw new WorkspaceFsError("EINVAL", "chmod", canonical, `mode must be a non-negative integer, got ${String(mode)}`);
    }
    const mtime = this.#now();
    this.#nodes.transaction(() => {
      const node = this.#existing(canonical, "chmod", true);
      this.#nodes.setMode(node.ino, mode & 0o7777, mtime);
    });
  }

  // ── helpers ────────────────────────────────────────────────────────────

  /**
   * EROFS when canonical `path` is a read-only mount root, lies under one, or
   * is an ancestor of one (spec 01 §6.3) — or when `rm`/`rename` would take
   * away the root, or an ancestor of the root, of a mount being copied in.
   */
  #readOnly(canonical: string, syscall: string): void {
    if (!this.#guard.active) return;
    const refusal = this.#guard.refusal(canonical, syscall);
    if (refusal) throw readOnlyError(syscall, canonical, refusal.root, refusal.copying);
  }

  /** A trace for a mutation's resolve, when a read-only mount is recorded (else no cost). */
  #trace(): ResolveTrace | undefined {
    return this.#guard.active ? { viaLink: false } : undefined;
  }

  /**
   * EROFS when a walk that followed a link landed on a read-only mount: the
   * target (or the missing leaf's place) overlaps one, or the walk failed
   * inside one (a link target met while resolving).
   */
  #readOnlyVia(trace: ResolveTrace | undefined, found: Resolution, syscall: string, canonical: string): void {
    if (!trace?.viaLink || !trace.reached) return;
    let real = this.#nodes.pathOf(trace.reached.ino);
    if (found.status === "found" || found.status === "missing") {
      if (found.status === "missing") real = joinPath(real, found.name);
      const refusal = this.#guard.refusal(real, syscall);
      if (refusal) throw readOnlyError(syscall, canonical, refusal.root, refusal.copying);
      return;
    }
    const root = this.#guard.roots.find((candidate) => within(real, candidate));
    if (root !== undefined) throw readOnlyError(syscall, canonical, root, false);
  }


  /** Resolves an existing entry; read-side failures become ENOENT / ELOOP. */
  #existing(canonical: string, syscall: string, followFinal: boolean, withData = false): Node {
    const found = this.#nodes.resolve(segmentsOf(canonical), { followFinal, withData });
    if (found.status === "found") return found.node;
    if (found.status === "eloop") throw new WorkspaceFsError("ELOOP", syscall, canonical);
    throw new WorkspaceFsError("ENOENT", syscall, canonical);
  }

  /** Throws for a failed walk on the write side (ENOTDIR for a file in the chain). */
  #throwFor(found: Resolution, syscall: string, canonical: string): void {
    if (found.status === "enoent") throw new WorkspaceFsError("ENOENT", syscall, canonical);
    if (found.status === "enotdir") throw new WorkspaceFsError("ENOTDIR", syscall, canonical);
    if (found.status === "eloop") throw new WorkspaceFsError("ELOOP", syscall, canonical);
  }
}

function readOnlyError(syscall: string, canonical: string, root: string, copying: boolean): WorkspaceFsError {
  const detail = copying
    ? `read-only file system (mount at ${root} is being copied in; its root and the directories above it cannot be removed or moved until ready() finishes)`
    : `read-only file system (mount at ${root})`;
  return new WorkspaceFsError("EROFS", syscall, canonical, detail);
}

/** A stream of one piece of bytes (empty: no chunks). */
function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (bytes.byteLength > 0) controller.enqueue(bytes);
      controller.close();
    },
  });
}

function statResult(node: Node, canonical: string): WorkspaceStatResult {
  return {
    name: baseName(canonical),
    inode: node.ino,
    mode: node.mode,
    mtime: node.mtime,
    size: node.size,
    isFile: node.kind === Kind.File,
    isDirectory: node.kind === Kind.Directory,
    isSymbolicLink: node.kind === Kind.Symlink,
  };
}

function readOptions(
  arg: "utf8" | ReadFileOptions | undefined,
  path: string | undefined,
): { encoding?: "utf8"; byteOffset: number; byteLength?: number } {
  if (arg === undefined || arg === null) return { byteOffset: 0 };
  if (typeof arg === "string") {
    if (arg !== "utf8") throw new WorkspaceFsError("EINVAL", "readFile", path, `unsupported encoding ${JSON.stringify(arg)}: use "utf8" or none`);
    return { encoding: "utf8", byteOffset: 0 };
  }
  if (typeof arg !== "object" || Array.isArray(arg)) {
    throw new WorkspaceFsError("EINVAL", "readFile", path, "options must be \"utf8\" or an object { encoding?, byteOffset?, byteLength? }");
  }
  if (arg.encoding !== undefined && arg.encoding !== "utf8") {
    throw new WorkspaceFsError("EINVAL", "readFile", path, `unsupported encoding ${JSON.stringify(arg.encoding)}: use "utf8" or none`);
  }
  for (const key of ["byteOffset", "byteLength"] as const) {
    const value = arg[key];
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0)) {
      throw new WorkspaceFsError("EINVAL", "readFile", path, `${key} must be a non-negative safe integer (bytes), got ${String(value)}`);
    }
  }
  return { encoding: arg.encoding, byteOffset: arg.byteOffset ?? 0, byteLength: arg.byteLength };
}

function pageOption(value: unknown, key: string, method: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new TypeError(`${method}: ${key} must be a non-negative safe integer, got ${String(value)}`);
  }
  return value;
}

function excludeOption(value: unknown, method: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((glob) => typeof glob !== "string")) {
    throw new TypeError(`${method}: exclude must be an array of glob strings`);
  }
  return value;
}

/** An options argument: `undefined`/`null`, or a plain object. */
function objectOption<T>(value: T | undefined, method: string): T | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new TypeError(`${method}: options must be an object, got ${Array.isArray(value) ? "an array" : typeof value}`);
  }
  return value;
}

/** A boolean option: absent is `false`; anything but a boolean is a `TypeError`. */
function flagOption(value: unknown, key: string, method: string): boolean {
  if (value === undefined) return false;
  if (typeof value !== "boolean") throw new TypeError(`${method}: options.${key} must be a boolean, got ${typeof value}`);
  return value;
}

function modeOption(value: unknown, fallback: number, syscall: string, path: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new WorkspaceFsError("EINVAL", syscall, path, `mode must be a non-negative integer, got ${String(value)}`);
  }
  return value & 0o7777;
}

function isReadableStream(value: unknown): value is ReadableStream<Uint8Array> {
  return typeof value === "object" && value !== null && typeof (value as ReadableStream).getReader === "function";
}

/** Re-windows a byte stream into CHUNK_SIZE pieces (the last may be shorter); holds at most one chunk. */
async function* rechunk(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  // The first window grows with the data (a 1 KiB stream never allocates 512 KiB); later ones are full size.
  let buffer = new Uint8Array(0);
  let filled = 0;
  let yielded = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!(value instanceof Uint8Array)) {
        throw new TypeError("writeFile: the stream must yield Uint8Array chunks");
      }
      let offset = 0;
      while (offset < value.byteLength) {
        const take = Math.min(CHUNK_SIZE - filled, value.byteLength - offset);
        if (filled + take > buffer.byteLength) {
          const capacity = yielded ? CHUNK_SIZE : Math.min(CHUNK_SIZE, Math.max(filled + take, buffer.byteLength * 2, 16 * 1024));
          const grown = new Uint8Array(capacity);
          grown.set(buffer.subarray(0, filled));
          buffer = grown;
        }
        buffer.set(value.subarray(offset, offset + take), filled);
        filled += take;
        offset += take;
        if (filled === CHUNK_SIZE) {
          yield buffer;
          yielded = true;
          buffer = new Uint8Array(CHUNK_SIZE);
          filled = 0;
        }
      }
    }
    if (filled > 0) yield buffer.subarray(0, filled);
  } catch (error) {
    await reader.cancel(error).catch(() => {});
    throw error;
  } finally {
    reader.releaseLock();
  }
}

/** `head`, then the rest of `rest`; closing it early closes `rest` (so the source stream is released). */
async function* prepend<T>(head: readonly T[], rest: AsyncIterator<T>): AsyncGenerator<T> {
  let finished = false;
  try {
    yield* head;
    for (;;) {
      const next = await rest.next();
      if (next.done) {
        finished = true;
        return;
      }
      yield next.value;
    }
  } finally {
    if (!finished) await rest.return?.();
  }
}

async function* toAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  yield* items;
}
