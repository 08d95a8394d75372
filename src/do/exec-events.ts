/**
 * Execution events as NDJSON bytes, so an exec handle's event stream can
 * cross Workers RPC (which carries byte streams, not object streams).
 *
 * One event per line, JSON; a `Uint8Array` `value` (stdout/stderr without
 * `encoding: "utf8"`) is written as `{"$bytes":"<base64>"}`.
 *
 * @module
 */
import { fromBase64, toBase64, utf8Decoder } from "../util/bytes.js";
import type { AnyRuntimeEvent } from "./host.js";

/** Encodes one event as a JSON line (with the trailing `\n`). */
export function encodeEventLine(event: AnyRuntimeEvent): string {
  if (event.name !== "exit" && event.value instanceof Uint8Array) {
    return JSON.stringify({ ...event, value: { $bytes: toBase64(event.value) } }) + "\n";
  }
  return JSON.stringify(event) + "\n";
}

/**
 * Decodes one JSON line written by {@link encodeEventLine}.
 * @throws SyntaxError when the line is not JSON.
 */
export function decodeEventLine(line: string): AnyRuntimeEvent {
  const event = JSON.parse(line) as AnyRuntimeEvent & { value?: unknown };
  if (event.name !== "exit" && typeof event.value === "object" && event.value !== null) {
    const bytes = (event.value as { $bytes?: unknown }).$bytes;
    if (typeof bytes === "string") return { ...event, value: fromBase64(bytes) } as AnyRuntimeEvent;
  }
  return event;
}

/** Pipes events into NDJSON bytes, pulling one event per chunk (no read-ahead). */
export function encodeEventStream(events: ReadableStream<AnyRuntimeEvent>): ReadableStream<Uint8Array> {
  const reader = events.getReader();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(encoder.encode(encodeEventLine(value)));
      },
      async cancel(reason) {
        await reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * Splits NDJSON bytes back into events, one per pull (no read-ahead beyond
 * the bytes of the current line).
 * @throws SyntaxError (the stream errors) on a line that is not JSON.
 */
export function decodeEventStream(bytes: ReadableStream<Uint8Array>): ReadableStream<AnyRuntimeEvent> {
  const reader = bytes.getReader();
  const decoder = utf8Decoder();
  let buffer = "";
  const pending: AnyRuntimeEvent[] = [];
  return new ReadableStream<AnyRuntimeEvent>(
    {
      async pull(controller) {
        while (pending.length === 0) {
          const { done, value } = await reader.read();
          if (done) {
            buffer += decoder.decode();
            if (buffer.trim() !== "") pending.push(decodeEventLine(buffer));
            buffer = "";
            if (pending.length === 0) {
              controller.close();
              return;
            }
            break;
          }
          buffer += decoder.decode(value, { stream: true });
          let newline: number;
          while ((newline = buffer.indexOf("\n")) >= 0) {
            const line = buffer.slice(0, newline);
            buffer = buffer.slice(newline + 1);
            if (line.trim() !== "") pending.push(decodeEventLine(line));
          }
        }
        controller.enqueue(pending.shift()!);
      },
      async cancel(reason) {
        await reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
