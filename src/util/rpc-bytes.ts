/**
 * Data across Workers RPC in pieces: workerd refuses to serialize an RPC
 * value (the arguments of a call, or its answer) past 32 MiB, and the caller
 * gets a bare `Error` without a code (`Serialized RPC arguments or return
 * values are limited to 32MiB, …`). A `ReadableStream` crosses in chunks,
 * whatever its length. So bytes past {@link RPC_BYTES_AT_ONCE} are sent as a
 * stream ({@link byteStream}), and a long list as a stream of JSON lines
 * ({@link jsonLinesStream}, read back with {@link readJsonLines}). Pure, no
 * imports: the shell's isolate bundles it.
 *
 * @module
 */

/**
 * Most bytes (or estimated serialized bytes) sent as one RPC value where a
 * stream can be sent instead: 16 MiB, half of workerd's 32 MiB limit, so that
 * the rest of the call (path, options) never brings it to the limit.
 */
export const RPC_BYTES_AT_ONCE = 16 * 1024 * 1024;

/** `%TypedArray%.prototype.slice`: a copy whatever the subclass overrides (Node's `Buffer#slice` shares memory). */
const typedArraySlice = Object.getPrototypeOf(Uint8Array.prototype).slice as (this: ArrayBufferView) => ArrayBufferView;

/**
 * `view` as it should cross RPC: itself when its backing buffer holds just
 * its bytes (no copy), else a compact copy of its bytes of the same kind (a
 * typed array of the same type, a `DataView`). V8's structured clone, which
 * workerd uses for RPC values, writes a view with its whole backing
 * `ArrayBuffer`, so a 10-byte `subarray` of a 40 MiB buffer would cross as
 * 40 MiB, and be refused past workerd's 32 MiB limit.
 * The caller's view is never changed, transferred or detached. Every send of
 * bytes over RPC goes through it (the remote client, the shell's host
 * adapter, the runtime's exec request); the JavaScript backend's isolate
 * code has its own copy (isolate/workspace-capabilities.js `compactArgs`),
 * since it cannot import. Issue 20, run 35, fixer UV.
 * A value that is not an `ArrayBufferView` (a hostile caller's `stdin: 5`) is
 * returned as it is, for the receiver's own check to refuse with its message
 * (run 35, lead).
 */
export function compactView<T extends ArrayBufferView>(view: T): T {
  if (!ArrayBuffer.isView(view) || view.buffer.byteLength === view.byteLength) return view;
  if (view instanceof DataView) return new DataView(view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength)) as unknown as T;
  return typedArraySlice.call(view) as T;
}

/**
 * `bytes` as a value to send over RPC: past {@link RPC_BYTES_AT_ONCE} a
 * {@link byteStream} of them (one RPC value may not pass 32 MiB, a stream
 * crosses in chunks), else {@link compactView} of them. Issue 20, run 35, fixer UV.
 */
export function sendableBytes(bytes: Uint8Array): Uint8Array | ReadableStream<Uint8Array> {
  return bytes.byteLength > RPC_BYTES_AT_ONCE ? byteStream(bytes) : compactView(bytes);
}

/** Bytes per chunk of a {@link byteStream}: 1 MiB. */
export const RPC_STREAM_CHUNK_BYTES = 1024 * 1024;

/** What workerd says (uncoded) when an RPC value is past its limit. */
const RPC_SIZE_MESSAGE = "Serialized RPC arguments or return values are limited to";

/** True for workerd's refusal of an RPC value past its size limit: an `Error` without a `code` whose message says so. */
export function isRpcSizeError(error: unknown): boolean {
  if (!(error instanceof Error) || (error as { code?: unknown }).code !== undefined) return false;
  return String(error.message).includes(RPC_SIZE_MESSAGE);
}

/**
 * `bytes` as a stream of chunks of at most {@link RPC_STREAM_CHUNK_BYTES},
 * each a copy (the caller's array is never transferred or detached), made as
 * the reader asks for them.
 */
export function byteStream(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (at >= bytes.byteLength) {
          controller.close();
          return;
        }
        const end = Math.min(bytes.byteLength, at + RPC_STREAM_CHUNK_BYTES);
        // A copy even of a Node Buffer, whose own slice() shares memory (run 35, fixer UV).
        controller.enqueue(Uint8Array.prototype.slice.call(bytes, at, end));
        at = end;
        if (at >= bytes.byteLength) controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * The bytes `first` (already read from `reader`) followed by the rest of
 * `reader`, as one stream. Past `maxBytes` in all it ends after the chunk
 * that passed the bound and cancels `reader`: the reader of the stream sees
 * more than `maxBytes` and refuses the whole, and no more is read.
 */
export function continuedStream(first: readonly Uint8Array[], reader: ReadableStreamDefaultReader<Uint8Array>, maxBytes: number): ReadableStream<Uint8Array> {
  const queued = [...first];
  let total = queued.reduce((n, chunk) => n + chunk.byteLength, 0);
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = queued.shift();
        if (next !== undefined) {
          controller.enqueue(next);
          return;
        }
        if (total > maxBytes) {
          controller.close();
          await reader.cancel().catch(() => {});
          return;
        }
        try {
          const { value, done } = await reader.read();
          if (done) controller.close();
          else {
            total += value.byteLength;
            controller.enqueue(value);
          }
        } catch (error) {
          controller.error(error);
        }
      },
      async cancel(reason) {
        await reader.cancel(reason).catch(() => {});
      },
    },
    { highWaterMark: 0 },
  );
}

/** Values per chunk of a {@link jsonLinesStream}. */
const JSON_LINES_PER_CHUNK = 1024;

/**
 * `values` as UTF-8 JSON lines (one `JSON.stringify` per line; a newline in
 * a string is escaped, so lines split cleanly), {@link JSON_LINES_PER_CHUNK}
 * lines a chunk, made as the reader asks for them.
 */
export function jsonLinesStream(values: readonly unknown[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let at = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (at >= values.length) {
          controller.close();
          return;
        }
        const end = Math.min(values.length, at + JSON_LINES_PER_CHUNK);
        let text = "";
        for (; at < end; at++) text += `${JSON.stringify(values[at])}\n`;
        controller.enqueue(encoder.encode(text));
        if (at >= values.length) controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * The values of a {@link jsonLinesStream}, in order.
 * @throws SyntaxError when a line is not JSON; the stream's own error.
 */
export async function readJsonLines<T>(stream: ReadableStream<Uint8Array>): Promise<T[]> {
  const decoder = new TextDecoder();
  const out: T[] = [];
  let pending = "";
  const take = (text: string, last: boolean) => {
    pending += text;
    const lines = pending.split("\n");
    pending = last ? "" : lines.pop()!;
    for (const line of lines) if (line !== "") out.push(JSON.parse(line) as T);
  };
  const reader = stream.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      take(decoder.decode(value, { stream: true }), false);
    }
  } finally {
    reader.releaseLock();
  }
  take(decoder.decode(), true);
  return out;
}

/** True for a `ReadableStream` (also one that crossed RPC, from another realm). */
export function isByteStream(value: unknown): value is ReadableStream<Uint8Array> {
  return typeof value === "object" && value !== null && typeof (value as { getReader?: unknown }).getReader === "function";
}
