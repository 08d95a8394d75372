/**
 * Streams over bytes already in memory, remembered so the mount write API can
 * take the bytes directly instead of reading the stream back (a bundle file
 * is one array; reading it through a stream only costs time).
 *
 * @module
 */
const known = new WeakMap<ReadableStream<Uint8Array>, Uint8Array>();

/** A one-piece stream of `bytes` (none when empty), recognised by {@link bytesOf}. */
export function streamOfBytes(bytes: Uint8Array): ReadableStream<Uint8Array> {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      if (bytes.byteLength > 0) controller.enqueue(bytes);
      controller.close();
    },
  });
  known.set(stream, bytes);
  return stream;
}

/** The bytes behind a stream from {@link streamOfBytes} that nobody has started reading, else `undefined`. */
export function bytesOf(stream: ReadableStream<Uint8Array>): Uint8Array | undefined {
  const bytes = known.get(stream);
  if (bytes === undefined || stream.locked) return undefined;
  known.delete(stream);
  return bytes;
}
