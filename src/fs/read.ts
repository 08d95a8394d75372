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
 * @module
 */
import { CHUNK_SIZE, type ChunkStore, type ReadLease } from "./chunks.js";
import { WorkspaceFsError } from "./errors.js";
import type { Node } from "./nodes.js";
import type { ReadWindow } from "./options.js";

/**
 * Thrown by {@link readContent} when another storage object or process
 * changed the file's size between its lookup and its stream's lease: the
 * caller resolves the path again and retries.
 */
export class FileChanged extends Error {}

/**
 * The bytes `[byteOffset, byteOffset + byteLength)` of file `node` (clamped
 * to its size), decoded as UTF-8 with `encoding: "utf8"`, else as a stream.
 * @throws WorkspaceFsError `EIO` when a stored chunk is missing.
 * @throws FileChanged when the file changed size before a stream's chunks were leased.
 */
export function readContent(chunks: ChunkStore, node: Node, path: string, window: ReadWindow): string | ReadableStream<Uint8Array> {
  const { encoding, byteOffset, byteLength } = window;
  const start = Math.min(byteOffset, node.size);
  const end = byteLength === undefined ? node.size : Math.min(node.size, start + byteLength);
  if (node.data) {
    // A small file whose bytes came with its inode row: no further query.
    const piece = node.data.subarray(start, end);
    return encoding === "utf8" ? new TextDecoder("utf-8").decode(piece) : streamOf(piece);
  }
  const first = Math.floor(start / CHUNK_SIZE);
  const last = Math.floor((end - 1) / CHUNK_SIZE);
  const firstChunkOffset = first * CHUNK_SIZE;
  if (end > start && first === last) {
    // A window inside one chunk: one query for its bytes, read at once (≤ 512 KiB).
    const data = chunks.readAt(node, first);
    if (!data) throw new WorkspaceFsError("EIO", "readFile", path, `stored chunk ${first} is missing`);
    const piece = data.subarray(start - firstChunkOffset, end - firstChunkOffset);
    return encoding === "utf8" ? new TextDecoder("utf-8").decode(piece) : streamOf(piece);
  }
  if (encoding === "utf8") {
    const ids = end > start ? chunks.range(node, first, last) : [];
    const decoder = new TextDecoder("utf-8");
    let text = "";
    ids.forEach((id, i) => {
      const data = chunkData(chunks, id, path);
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

/** Leading bytes of a file that decide whether grep treats it as binary (git and ripgrep look at the same 8 KiB). */
export const BINARY_SNIFF_BYTES = 8192;

/** Whether `bytes` look binary: a NUL among the first {@link BINARY_SNIFF_BYTES}, as git and ripgrep decide. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/**
 * Decoded text of file `node`, chunk by chunk (the last piece flushes the
 * decoder). With `skipBinary`, `null` when the file {@link looksBinary}:
 * only its first chunk (at most 512 KiB) is read to decide, before anything
 * is decoded. The first chunk is read when this is called, the rest as the
 * pieces are pulled.
 */
export function fileText(chunks: ChunkStore, node: Node, path: string, skipBinary = false): Iterable<string> | null {
  if (node.size === 0) return [];
  const firstId = node.data ? undefined : chunks.range(node, 0, 0)[0];
  const first = node.data ?? (firstId === undefined ? new Uint8Array(0) : chunkData(chunks, firstId, path));
  if (skipBinary && looksBinary(first)) return null;
  return decodeChunks(chunks, node, path, first);
}

function* decodeChunks(chunks: ChunkStore, node: Node, path: string, firstData: Uint8Array): Generator<string> {
  const decoder = new TextDecoder("utf-8");
  yield decoder.decode(firstData, { stream: true });
  const last = Math.floor((node.size - 1) / CHUNK_SIZE);
  // Read the chunk list in bounded slices so a huge file never loads whole.
  for (let first = 1; first <= last; first += 256) {
    for (const id of chunks.range(node, first, Math.min(last, first + 255))) {
      yield decoder.decode(chunkData(chunks, id, path), { stream: true });
    }
  }
  yield decoder.decode();
}

/**
 * A stream of the chunks `lease` holds (the first at byte `firstChunkOffset`)
 * cut to `[start, end)`. Each pull renews the lease when due; the lease ends
 * when the stream is done, fails or is cancelled.
 */
function chunkStream(chunks: ChunkStore, lease: ReadLease, firstChunkOffset: number, start: number, end: number, path: string): ReadableStream<Uint8Array> {
  const ids = lease.ids;
  let index = 0;
  const release = () => {
    try {
      lease.end();
    } catch {
      // The store is closed or failing: the lease ends by itself after READ_LEASE_MS.
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
