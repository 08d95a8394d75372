/**
 * Reading file content (spec 01 §3.1, §4.5): a byte window as text or as a
 * stream, and a file's text chunk by chunk for `grep`. Bytes come from
 * {@link ChunkStore}; nothing here resolves paths or checks arguments.
 *
 * Memory stays bounded by the chunk size: a stream reads one chunk per
 * `pull` (`highWaterMark` 0). A stream over more than one chunk leases its
 * snapshot's chunks in the database ({@link ChunkStore.openRead}) so no sweep
 * — of this storage object, another one on the same file, or another
 * process — takes them while it is read; each pull renews the lease when
 * due, and the lease ends when the stream ends, fails or is cancelled.
 *
 * A read that is materialised at once — a string, or a window inside one
 * chunk — reads the file's revision (`Node.rev`) in the same statement as
 * each chunk's bytes ({@link ChunkStore.readChecked}) and compares it with
 * the revision of its lookup: the same revision means no change of the file
 * committed in between, so the bytes are all of one version; another one
 * (another storage object or process replaced the file meanwhile) throws
 * {@link FileChanged} and the caller looks the path up again. So such a read
 * returns the old content or the new, whole, never a mix, an empty string or
 * a false `EIO` (issue 20, run 39, fixer RR). `grep` leases a file of more
 * than one chunk as a stream does, and re-reads a one-chunk file's row when
 * its revision moved.
 *
 * @module
 */
import { CHUNK_SIZE, type CheckedChunk, type ChunkStore, type ReadLease } from "./chunks.js";
import { WorkspaceFsError } from "./errors.js";
import type { Node } from "./nodes.js";
import type { ReadWindow } from "./options.js";

/**
 * Thrown by {@link readContent} when another storage object or process
 * changed the file between its lookup and the read of its bytes (or its
 * stream's lease): the caller resolves the path again and retries.
 */
export class FileChanged extends Error {}

/** How many times {@link fileText} reads a file's row again when another connection keeps changing it. */
const GREP_ATTEMPTS = 8;

/**
 * The bytes `[byteOffset, byteOffset + byteLength)` of file `node` (clamped
 * to its size), decoded as UTF-8 with `encoding: "utf8"` (a BOM dropped only
 * at byte 0: {@link windowDecoder}), else as a stream.
 * Bytes read at once belong to revision `node.rev` (else {@link FileChanged}).
 * @throws WorkspaceFsError `EIO` when a stored chunk is missing at the file's revision.
 * @throws FileChanged when the file changed after `node` was read.
 */
export function readContent(chunks: ChunkStore, node: Node, path: string, window: ReadWindow): string | ReadableStream<Uint8Array> {
  const { encoding, byteOffset, byteLength } = window;
  const start = Math.min(byteOffset, node.size);
  const end = byteLength === undefined ? node.size : Math.min(node.size, start + byteLength);
  if (node.data) {
    // A small file whose bytes came with its inode row: no further query.
    const piece = node.data.subarray(start, end);
    return encoding === "utf8" ? windowDecoder(start).decode(piece) : streamOf(piece);
  }
  const first = Math.floor(start / CHUNK_SIZE);
  const last = Math.floor((end - 1) / CHUNK_SIZE);
  const firstChunkOffset = first * CHUNK_SIZE;
  if (end > start && first === last) {
    // A window inside one chunk: one query for its bytes and the file's revision, read at once (≤ 512 KiB).
    const data = checkedData(chunks.readAtChecked(node, first), node, first, path);
    const piece = data.subarray(start - firstChunkOffset, end - firstChunkOffset);
    return encoding === "utf8" ? windowDecoder(start).decode(piece) : streamOf(piece);
  }
  if (encoding === "utf8") {
    if (end <= start) return "";
    const ids = chunks.range(node, first, last);
    if (ids.length !== last - first + 1) {
      // The list is not the looked-up file's: another connection changed it (or the store is damaged).
      checkedData(chunks.readAtChecked(node, first + ids.length), node, first + ids.length, path);
      throw new WorkspaceFsError("EIO", "readFile", path, `the stored chunk list has ${ids.length} of ${last - first + 1} chunks`);
    }
    const decoder = windowDecoder(start);
    let text = "";
    ids.forEach((id, i) => {
      const data = checkedData(chunks.readChecked(id, node.ino), node, first + i, path);
      const base = firstChunkOffset + i * CHUNK_SIZE;
      text += decoder.decode(data.subarray(Math.max(0, start - base), Math.min(data.byteLength, end - base)), { stream: true });
    });
    return text + decoder.decode();
  }
  if (end <= start) return streamOf(new Uint8Array(0));
  const lease = chunks.openRead(node, first, last);
  if (!lease) throw new FileChanged();
  return chunkStream(chunks, lease, firstChunkOffset, start, end, path);
}

/**
 * A UTF-8 decoder (non-fatal) for a window that starts at byte `start`: only the file's own leading byte order mark
 * (`start` 0) is dropped; a U+FEFF at the start of a later window is text, kept as Node's `fs` keeps it (issue 20,
 * run 40, fixer f40tl).
 */
function windowDecoder(start: number): TextDecoder {
  return new TextDecoder("utf-8", { fatal: false, ignoreBOM: start > 0 });
}

/**
 * The bytes of `got` (chunk `index` of `node`) when they were read at the
 * revision `node` was looked up at.
 * @throws FileChanged when the file's revision moved (or the file is gone).
 * @throws WorkspaceFsError `EIO` when the bytes are missing at that revision.
 */
function checkedData(got: CheckedChunk, node: Node, index: number, path: string): Uint8Array {
  if (got.rev !== node.rev) throw new FileChanged();
  if (!got.data) throw new WorkspaceFsError("EIO", "readFile", path, `stored chunk ${index} is missing`);
  return got.data;
}

/** Leading bytes of a file that decide whether grep treats it as binary (git and ripgrep look at the same 8 KiB). */
export const BINARY_SNIFF_BYTES = 8192;

/** Whether `bytes` look binary: a NUL among the first {@link BINARY_SNIFF_BYTES}, as git and ripgrep decide. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/**
 * Decoded text of file `node`, chunk by chunk (the last piece flushes the
 * decoder), of one version of the file. With `skipBinary`, `null` when the
 * file {@link looksBinary}: only its first chunk (at most 512 KiB) is read
 * to decide, before anything is decoded. The first chunk is read when this
 * is called, the rest as the pieces are pulled.
 *
 * A file of one chunk is read with its revision in one statement; when
 * another storage object or process changed it since `node` was read, its
 * row is read again by `reload` (inode `node.ino`; `undefined`: the file is
 * gone, and there is nothing to search). A file of more than one chunk is
 * leased as a read stream is ({@link ChunkStore.openRead}): the lease ends
 * when the pieces are all pulled or the caller stops pulling (`return`).
 * @throws WorkspaceFsError `EIO` when a stored chunk is missing at the file's
 *   revision, or the file changed {@link GREP_ATTEMPTS} times while it was opened.
 */
export function fileText(chunks: ChunkStore, node: Node, path: string, skipBinary: boolean, reload: (ino: number) => Node | undefined): Iterable<string> | null {
  let current: Node | undefined = node;
  for (let attempt = 1; attempt <= GREP_ATTEMPTS; attempt++) {
    if (attempt > 1) current = reload(node.ino);
    if (!current || current.size === 0) return [];
    if (current.data) return textOf(current.data, skipBinary);
    if (current.size <= CHUNK_SIZE) {
      const got = chunks.readAtChecked(current, 0);
      if (got.rev !== current.rev) continue;
      if (!got.data) throw new WorkspaceFsError("EIO", "grep", path, "stored chunk 0 is missing");
      return textOf(got.data, skipBinary);
    }
    const lease = chunks.openRead(current, 0, Math.floor((current.size - 1) / CHUNK_SIZE));
    if (!lease) continue;
    let first: Uint8Array;
    try {
      first = chunkData(chunks, lease.ids[0], path);
    } catch (error) {
      endLease(lease);
      throw error;
    }
    if (skipBinary && looksBinary(first)) {
      endLease(lease);
      return null;
    }
    return leasedText(chunks, lease, path, first);
  }
  throw new WorkspaceFsError("EIO", "grep", path, `the file changed ${GREP_ATTEMPTS} times while it was opened; try again`);
}

/** The text of a file of one chunk, or `null` when `skipBinary` and it {@link looksBinary}. */
function textOf(data: Uint8Array, skipBinary: boolean): string[] | null {
  if (skipBinary && looksBinary(data)) return null;
  return [new TextDecoder("utf-8").decode(data)];
}

/** The text of the leased chunks (the first already read), one piece per chunk; the lease ends with the pieces. */
function* leasedText(chunks: ChunkStore, lease: ReadLease, path: string, firstData: Uint8Array): Generator<string> {
  try {
    const decoder = new TextDecoder("utf-8");
    yield decoder.decode(firstData, { stream: true });
    for (let index = 1; index < lease.ids.length; index++) {
      lease.renew();
      yield decoder.decode(chunkData(chunks, lease.ids[index], path), { stream: true });
    }
    yield decoder.decode();
  } finally {
    endLease(lease);
  }
}

/** Ends `lease`, best-effort: a closed or failing store lets it run out after READ_LEASE_MS. */
function endLease(lease: ReadLease): void {
  try {
    lease.end();
  } catch {
    // The lease ends by itself after READ_LEASE_MS.
  }
}

/**
 * A stream of the chunks `lease` holds (the first at byte `firstChunkOffset`)
 * cut to `[start, end)`. Each pull renews the lease when due; the lease ends
 * when the stream is done, fails or is cancelled.
 */
function chunkStream(chunks: ChunkStore, lease: ReadLease, firstChunkOffset: number, start: number, end: number, path: string): ReadableStream<Uint8Array> {
  const ids = lease.ids;
  let index = 0;
  const release = () => endLease(lease);
  return new ReadableStream<Uint8Array>(
    {
      pull: (controller) => {
        if (index >= ids.length) {
          release();
          controller.close();
          return;
        }
        try {
          lease.renew();
          const data = chunkData(chunks, ids[index], path);
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

/** The bytes of chunk `id`, or EIO. */
function chunkData(chunks: ChunkStore, id: number, path: string): Uint8Array {
  const data = chunks.read(id);
  if (!data) throw new WorkspaceFsError("EIO", "readFile", path, `stored chunk ${id} is missing`);
  return data;
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
