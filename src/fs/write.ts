/**
 * The write pipeline of `writeFile` (spec 01 §3.2, §4.4): content in, one
 * committed file out, all or nothing.
 *
 * - Bytes or a stream that fit one chunk: hash, then resolve the target,
 *   store the chunk and point the file at it in one transaction.
 * - Longer content: cut into {@link CHUNK_SIZE} pieces as it arrives (a
 *   stream is re-windowed holding at most one chunk), each hashed and
 *   *staged* (stored, pinned, unreferenced, leased in the database and the
 *   lease renewed while the write runs, spec 01 §4.7); then one transaction
 *   checks the target again and that every staged chunk is still stored,
 *   counts the references and links the chunk list. A failure before the
 *   commit leaves the old file untouched; staged chunks are swept.
 *
 * The caller (the filesystem facade) has canonicalised the path, checked
 * the options and refused a read-only target; the target is checked again
 * at commit, since a mount may complete while a stream is read.
 *
 * @module
 */
import { concatBytes, toHex } from "../util/bytes.js";
import { CHUNK_SIZE, sha256, splitChunks, STAGE_LEASE_MS, type ChunkStore } from "./chunks.js";
import { throwIfWalkFailed, WorkspaceFsError } from "./errors.js";
import type { MountGuard } from "./mount-guard.js";
import type { Node, Nodes, Resolution } from "./nodes.js";
import { keyOf } from "./path-key.js";
import { segmentsOf } from "./path.js";
import { Kind } from "./schema.js";

/** What `writeFile` writes, already checked. */
export interface WriteRequest {
  /** Canonical path, not `/`. */
  path: string;
  /** Permission bits of the file (also applied to an existing file). */
  mode: number;
  /** Fail with EEXIST when the path exists (as a link, too). */
  exclusive: boolean;
  /** Modification time (ms). */
  mtime: number;
  /**
   * Write only if the file's content still has this SHA-256 (64 lowercase
   * hex digits): checked before the content is read and again at commit.
   */
  ifMatch?: string;
  /** Write only if the path still leads to the file with this inode: checked before the content is read and again at commit. */
  ifInode?: number;
  /** Write only if the path still leads to the file with this inode, size and mtime: checked before the content is read; its revision stamp again at commit. */
  ifUnmodified?: { inode: number; size: number; mtime: number };
  /**
   * Follow no symbolic link in the path (`NO_FOLLOW`): a link among the
   * parents is `ENOTDIR`, a link at the path `ELOOP` (`EEXIST` when
   * exclusive); checked before the content is read and again at commit.
   */
  noFollow?: boolean;
}

/** The file a conditional write found with the expected content: its inode and revision stamp then. */
interface Pin {
  ino: number;
  /** The revision stamp the content was checked at (`ifMatch`); `null` when only the inode is checked. */
  rev: number | undefined | null;
}

/** Where a write lands: an existing file (link followed) or a missing leaf in an existing directory. */
interface Target {
  node?: Node;
  parent?: Node;
  name?: string;
}

/** `writeFile` over the tree, its content and the read-only guard of one store. */
export class FileWriter {
  readonly #nodes: Nodes;
  readonly #chunks: ChunkStore;
  readonly #guard: MountGuard;

  constructor(nodes: Nodes, chunks: ChunkStore, guard: MountGuard) {
    this.#nodes = nodes;
    this.#chunks = chunks;
    this.#guard = guard;
  }

  /**
   * Writes `content` (a string as UTF-8, bytes, or a byte stream) to
   * `request.path`.
   * @throws TypeError for other content, or a stream yielding non-`Uint8Array` chunks.
   * @throws WorkspaceFsError EISDIR, EEXIST (exclusive), ENOENT/ENOTDIR/ELOOP for the parent chain, EROFS.
   */
  async write(request: WriteRequest, content: string | Uint8Array | ReadableStream<Uint8Array>): Promise<void> {
    const segments = segmentsOf(request.path);
    const pin = request.ifMatch === undefined && request.ifInode === undefined && request.ifUnmodified === undefined ? undefined : await this.#pin(request, segments, request.ifMatch);
    if (typeof content === "string" || content instanceof Uint8Array || ArrayBuffer.isView(content)) {
      const bytes =
        typeof content === "string"
          ? new TextEncoder().encode(content)
          : new Uint8Array(content.buffer, content.byteOffset, content.byteLength);
      if (bytes.byteLength <= CHUNK_SIZE) return this.#writeSmall(request, segments, bytes, pin);
      return this.#writeStaged(request, segments, toAsync(splitChunks(bytes)), pin);
    }
    if (!isReadableStream(content)) {
      throw new TypeError("writeFile: content must be a string, a Uint8Array or a ReadableStream<Uint8Array>");
    }
    // Check the target before reading the first byte, and again at commit.
    this.#target(request, segments);
    const pieces = rechunk(content);
    const first = await pieces.next();
    const second = first.done ? first : await pieces.next();
    if (second.done) {
      // The whole stream fits one chunk: commit it like a byte array, in one transaction.
      return this.#writeSmall(request, segments, first.done ? new Uint8Array(0) : first.value, pin);
    }
    return this.#writeStaged(request, segments, prepend([first.value, second.value], pieces), pin);
  }

  /**
   * Writes ≤ one chunk of bytes: hash first, then store, resolve and link in
   * one transaction. A new file in a directory reached without links is
   * created with its lookup in one statement (`Nodes.createFile`); any other
   * target is resolved the long way (a refusal rolls the stored chunk back).
   */
  async #writeSmall(request: WriteRequest, segments: string[], bytes: Uint8Array, pin: Pin | undefined): Promise<void> {
    const hash = bytes.byteLength > 0 ? await sha256(bytes) : undefined;
    const released = this.#nodes.transaction(() => {
      this.#guard.assertWritable(request.path, "writeFile");
      const id = hash ? this.#chunks.acquire({ hash, data: bytes }) : null;
      const { mode, mtime } = request;
      if (!pin) {
        const created = this.#nodes.createFile(keyOf(segments.slice(0, -1)), segments[segments.length - 1], { mode, mtime, size: bytes.byteLength, chunk: id });
        if (created) return false;
      }
      const target = this.#target(request, segments);
      if (pin) this.#checkPin(target, pin, request);
      return this.#commit(target, id, [], bytes.byteLength, request);
    });
    this.#chunks.sweep(released);
  }

  /**
   * Stores chunks as they arrive (pinned, unreferenced), then links them to the
   * file in one transaction. Any failure before the commit leaves the old file
   * untouched; the staged chunks are swept.
   */
  async #writeStaged(request: WriteRequest, segments: string[], pieces: AsyncIterable<Uint8Array>, pin: Pin | undefined): Promise<void> {
    const ids: number[] = [];
    const holder = this.#chunks.holder();
    let committed = false;
    let size = 0;
    let renewed = Date.now();
    const renew = (): void => {
      renewed = Date.now();
      this.#chunks.renew(holder);
    };
    // Renews the leases while the stream is slow to deliver; each staged piece renews them too when due.
    const timer = setInterval(() => {
      try {
        renew();
      } catch {
        // The store is closed or failing: the commit reports it.
      }
    }, STAGE_LEASE_MS / 3);
    (timer as { unref?: () => void }).unref?.();
    try {
      for await (const piece of pieces) {
        const hash = await sha256(piece);
        if (Date.now() - renewed > STAGE_LEASE_MS / 3) renew();
        ids.push(this.#chunks.stage({ hash, data: piece }, holder));
        size += piece.byteLength;
      }
      this.#nodes.transaction(() => {
        const target = this.#target(request, segments);
        if (pin) this.#checkPin(target, pin, request);
        if (!this.#chunks.present(ids)) {
          throw new WorkspaceFsError("EIO", "writeFile", request.path, "a staged chunk is missing from the store; the file was not changed");
        }
        this.#chunks.count(ids, holder);
        this.#commit(target, null, ids, size, request);
      });
      committed = true;
    } finally {
      clearInterval(timer);
      try {
        // A failed write's chunks are reclaimable at once (a committed one ended its leases in its transaction).
        if (!committed) this.#chunks.endLease(holder);
      } catch {
        // The store is closed or failing: the leases end by themselves after STAGE_LEASE_MS.
      }
      this.#chunks.unpin(ids);
      this.#chunks.sweep();
    }
  }

  /**
   * For a conditional write: finds the target file and checks that its
   * content has the SHA-256 `ifMatch`, reading it in one synchronous pass
   * with its revision stamp, which the commit checks again.
   * @throws WorkspaceFsError `ENOENT` when no file is there (any walk error of {@link #target}); `ESTALE` when the content differs.
   */
  async #pin(request: WriteRequest, segments: string[], ifMatch: string | undefined): Promise<Pin> {
    const target = this.#target(request, segments);
    if (!target.node) {
      const option = ifMatch !== undefined ? "ifMatch" : request.ifUnmodified !== undefined ? "ifUnmodified" : "ifInode";
      throw new WorkspaceFsError("ENOENT", "writeFile", request.path, `${option} names a file that does not exist`);
    }
    const node = target.node;
    if (request.ifInode !== undefined && node.ino !== request.ifInode) throw staleInode(request.path);
    const unmodified = request.ifUnmodified;
    if (unmodified !== undefined && (node.ino !== unmodified.inode || node.size !== unmodified.size || node.mtime !== unmodified.mtime)) throw staleUnmodified(request.path);
    if (ifMatch === undefined) return { ino: node.ino, rev: unmodified === undefined ? null : this.#nodes.stampOf(node.ino) };
    const rev = this.#nodes.stampOf(node.ino);
    const pieces: Uint8Array[] = [];
    const count = Math.ceil(node.size / CHUNK_SIZE);
    for (let index = 0; index < count; index++) {
      const piece = this.#chunks.readAt(node, index);
      if (!piece) throw new WorkspaceFsError("EIO", "writeFile", request.path, `stored chunk ${index + 1} is missing; the file was not changed`);
      pieces.push(piece);
    }
    const digest = toHex(await sha256(concatBytes(pieces, node.size)));
    if (digest !== ifMatch) throw stale(request.path);
    return { ino: node.ino, rev };
  }

  /** At commit: the conditional write's file is still the one pinned, unchanged since. */
  #checkPin(target: Target, pin: Pin, request: WriteRequest): void {
    if (target.node?.ino !== pin.ino) throw request.ifMatch !== undefined ? stale(request.path) : request.ifInode !== undefined ? staleInode(request.path) : staleUnmodified(request.path);
    if (pin.rev !== null && this.#nodes.stampOf(pin.ino) !== pin.rev) throw request.ifMatch === undefined ? staleUnmodified(request.path) : stale(request.path);
  }

  /** Where the write lands; refuses a read-only target, a directory, (exclusive) an existing entry, or (noFollow) a link on the path. */
  #target(request: WriteRequest, segments: string[]): Target {
    const { path, exclusive } = request;
    const noFollow = request.noFollow === true;
    // Again at commit: a mount may have completed while a stream was read.
    this.#guard.assertWritable(path, "writeFile");
    const trace = this.#guard.trace();
    // Exclusive: the entry itself, a link included, must not exist. When it is missing, following a
    // link in the last position cannot change the walk, so that walk is the target's too.
    const found = this.#nodes.resolve(segments, { followFinal: !exclusive && !noFollow, followLinks: !noFollow, trace, creating: true });
    this.#guard.assertWritableVia(trace, found, "writeFile", path, this.#nodes);
    throwIfWalkFailed(found, "writeFile", path);
    if (exclusive && found.status === "found") throw new WorkspaceFsError("EEXIST", "writeFile", path);
    // Through a link whose target ends in `/`: a directory is named, so no file is written or created (Linux: EISDIR).
    if ((found.status === "found" || found.status === "missing") && found.slash) {
      throw new WorkspaceFsError("EISDIR", "writeFile", path);
    }
    if (found.status === "found") {
      if (found.node.kind === Kind.Directory) throw new WorkspaceFsError("EISDIR", "writeFile", path);
      if (found.node.kind === Kind.Symlink) throw new WorkspaceFsError("ELOOP", "writeFile", path, "the path is a symbolic link and this write follows none");
      return { node: found.node };
    }
    const missing = found as Extract<Resolution, { status: "missing" }>;
    // Reached through a link, the new file's path was not checked with the path given: check it before any content is stored.
    this.#nodes.checkChildPath(missing.parent, missing.name, "writeFile");
    return { parent: missing.parent, name: missing.name };
  }

  /**
   * Points the target at new content: `single` for a file of ≤ 1 chunk, else
   * `ids` (references already counted). Returns whether old content was released.
   */
  #commit(target: Target, single: number | null, ids: number[], size: number, request: WriteRequest): boolean {
    const { mode, mtime } = request;
    if (target.node) {
      const node = target.node;
      const released = this.#chunks.release(node);
      const chunk = ids.length > 0 ? this.#chunks.list(node.ino, ids) : single;
      this.#nodes.setContent(node.ino, { mode, mtime, size, chunk });
      return released;
    }
    const node = this.#nodes.insert(target.parent!, {
      name: target.name!,
      kind: Kind.File,
      mode,
      mtime,
      size,
      target: null,
      chunk: ids.length > 0 ? null : single,
    }, "writeFile");
    if (ids.length > 0) {
      const chunk = this.#chunks.list(node.ino, ids);
      if (chunk !== null) this.#nodes.setChunk(node.ino, chunk);
    }
    return false;
  }
}

/** The refusal of a conditional write whose file changed. */
function stale(path: string): WorkspaceFsError {
  return new WorkspaceFsError("ESTALE", "writeFile", path, "the file's content no longer matches ifMatch (it changed since it was read); the file was not changed");
}

/** The refusal of a write bound to a version (`ifUnmodified`: inode, size and mtime) whose file changed or was replaced. */
function staleUnmodified(path: string): WorkspaceFsError {
  return new WorkspaceFsError("ESTALE", "writeFile", path, "the file changed, or another file was put at the path, since the inode, size and mtime of ifUnmodified were read; the file was not changed");
}

/** The refusal of a write bound to an inode (`ifInode`) whose path now leads to another file. */
function staleInode(path: string): WorkspaceFsError {
  return new WorkspaceFsError("ESTALE", "writeFile", path, "the path no longer leads to the file with inode ifInode (it was moved, removed or replaced); nothing was written");
}

function isReadableStream(value: unknown): value is ReadableStream<Uint8Array> {
  return typeof value === "object" && value !== null && typeof (value as ReadableStream).getReader === "function";
}

/**
 * Re-windows a byte stream into CHUNK_SIZE pieces (the last may be shorter);
 * holds at most two chunks. Full windows alternate between two buffers, so a
 * yielded piece stays valid until the generator has been resumed twice more:
 * enough for a consumer that reads one piece ahead and is done with a piece
 * (hashed, stored) before it asks for the one after next, as `write` is. A
 * 64 MiB stream allocates two windows, not 128 (each a 512 KiB allocation
 * the garbage collector would have to reclaim).
 */
async function* rechunk(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  // The first window grows with the data (a 1 KiB stream never allocates 512 KiB); later ones are full size.
  let buffer = new Uint8Array(0);
  let filled = 0;
  let yielded = false;
  let spare: typeof buffer | undefined;
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
          const full = buffer;
          yield full;
          yielded = true;
          // The piece yielded before `full` is done with by now: its window takes the next chunk.
          buffer = spare ?? new Uint8Array(CHUNK_SIZE);
          spare = full;
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
