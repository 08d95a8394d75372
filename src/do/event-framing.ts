/**
 * NDJSON framing of execution events (spec 01 §7, spec 02 §1.4): the byte
 * form an event stream takes to cross Workers RPC or a socket, and back.
 *
 * One event per line: its JSON, then `\n`. A `Uint8Array` output chunk is
 * written `{"$bytes":"<base64>"}`; a string chunk (`encoding: "utf8"`) as
 * the string. The line format is the one `getWorkspace()` clients use for
 * `exec` handles (`./exec-events.ts`).
 *
 * - `encodeRuntimeEvent` / `decodeRuntimeEvents`: {@link WorkspaceRuntimeEvent}s
 *   (exit carries `code`, `result?`, `truncated?`).
 * - `encodeExecEvents` / `decodeExecEvents`: the legacy
 *   {@link WorkspaceExecEvent} (exit carries `value: number`, output is bytes).
 *
 * Decoding is bounded: a line longer than `maxLineBytes` (default
 * {@link MAX_EVENT_LINE_BYTES}), a line that is not UTF-8 JSON, or JSON that
 * is not an event errors the stream with a `WorkspaceRuntimeError` of code
 * `EPROTOCOL` naming the line.
 *
 * @module
 */
import { fromBase64, toBase64 } from "../util/bytes.js";
import { runtimeError } from "../runtime/errors.js";
import type { WorkspaceRuntimeEvent } from "../runtime/types.js";
import { encodeEventLine } from "./exec-events.js";
import { valueCut } from "../util/cut.js";

/**
 * Longest event line accepted or produced by default: 16 MiB (a 1 MiB
 * output chunk takes about 1.4 MiB as base64).
 */
export const MAX_EVENT_LINE_BYTES = 16 * 1024 * 1024;

/**
 * The legacy execution event (before `exit` carried `code`): output chunks
 * are bytes, and `exit`'s exit code is its `value`.
 */
export type WorkspaceExecEvent =
  | {
      /** The execution id. */
      id: string;
      /** Position in the run, from 1. */
      seq: number;
      /** The stream the chunk belongs to. */
      name: "stdout" | "stderr";
      /** The chunk's bytes. */
      value: Uint8Array;
    }
  | {
      /** The execution id. */
      id: string;
      /** Position in the run: the last one. */
      seq: number;
      /** The run ended. */
      name: "exit";
      /** The exit code. */
      value: number;
    };

/** A runtime event with either encoding. */
type AnyRuntimeEvent = WorkspaceRuntimeEvent<"utf8" | undefined>;

/** Options of the decoders (and of {@link encodeRuntimeEvent}). */
interface FramingOptions {
  /** Longest line (bytes, `\n` excluded) accepted; a positive integer. Default {@link MAX_EVENT_LINE_BYTES}. */
  maxLineBytes?: number;
}

const encoder = new TextEncoder();

function maxLine(options: FramingOptions | undefined, what: string): number {
  const max = options?.maxLineBytes ?? MAX_EVENT_LINE_BYTES;
  if (typeof max !== "number" || !Number.isSafeInteger(max) || max < 1) {
    throw new TypeError(`${what}: maxLineBytes must be a positive integer, got ${valueCut(max)}`);
  }
  return max;
}

function protocol(message: string): Error {
  return runtimeError("EPROTOCOL", message);
}

function isOutputName(name: unknown): name is "stdout" | "stderr" {
  return name === "stdout" || name === "stderr";
}

/** Checks the fields every event has; the message names what is wrong. */
function checkHead(event: unknown, where: string): asserts event is { id: string; seq: number; name: string } & Record<string, unknown> {
  if (typeof event !== "object" || event === null || Array.isArray(event)) throw protocol(`${where}: an event must be a JSON object`);
  const e = event as Record<string, unknown>;
  if (typeof e.id !== "string") throw protocol(`${where}: "id" must be a string`);
  if (typeof e.seq !== "number" || !Number.isFinite(e.seq)) throw protocol(`${where}: "seq" must be a finite number`);
  if (!isOutputName(e.name) && e.name !== "exit") throw protocol(`${where}: "name" must be "stdout", "stderr" or "exit", got ${JSON.stringify(e.name) ?? typeof e.name}`);
}

/**
 * Checks an exit event's exit code (a finite number in `field`) and its
 * `truncated` (an object when present): one check for both encoders and
 * both decoders, so every line an encoder writes is one its decoder reads.
 * JSON writes NaN and ±Infinity as `null`, and reads `1e400` as Infinity.
 * Returns the exit code (read once, so a getter cannot change it between
 * the check and the write).
 */
function checkExit(e: Record<string, unknown>, where: string, field: "code" | "value" = "code", kind = "an exit event"): number {
  const code = e[field];
  const label = field === "code" ? `"code"` : `"value" (the exit code)`;
  if (typeof code !== "number") throw protocol(`${where}: ${kind} needs a number ${label}`);
  if (!Number.isFinite(code)) throw protocol(`${where}: ${kind} needs a finite ${label}, got ${code}`);
  const truncated = e.truncated;
  if (truncated !== undefined && (typeof truncated !== "object" || truncated === null)) {
    throw protocol(`${where}: "truncated" must be an object, got ${truncated === null ? "null" : typeof truncated}`);
  }
  return code;
}

/**
 * Checks one parsed line as a runtime event (without decoding `$bytes`):
 * what {@link decodeRuntimeEvents} accepts, and what
 * {@link encodeRuntimeEvent} checks its own written line against.
 */
function checkRuntimeLine(parsed: unknown, where: string): asserts parsed is { id: string; seq: number; name: string } & Record<string, unknown> {
  checkHead(parsed, where);
  if (parsed.name === "exit") {
    checkExit(parsed, where);
    return;
  }
  const value = parsed.value;
  if (typeof value === "string") return;
  const b64 = (value as { $bytes?: unknown } | null)?.$bytes;
  if (typeof value !== "object" || typeof b64 !== "string") throw protocol(`${where}: a ${parsed.name} event needs a string or {"$bytes": base64} "value"`);
}

/**
 * One runtime event as one NDJSON line: UTF-8 bytes ending in `\n`
 * (`Uint8Array` chunks as `{"$bytes":"<base64>"}`).
 *
 * @example
 * ```ts
 * new TextDecoder().decode(encodeRuntimeEvent({ id: "r1", seq: 1, name: "stdout", value: "hi\n" }));
 * // '{"id":"r1","seq":1,"name":"stdout","value":"hi\\n"}\n'
 * ```
 * @throws WorkspaceRuntimeError `EPROTOCOL` when `event` is not an event (id, seq, name; a string or
 *   bytes `value` for output, a finite number `code` and an object `truncated` if any for exit), when
 *   it cannot be written as JSON (a cycle or a BigInt in an exit `result`), when what JSON writes is
 *   not such an event (a `toJSON` or a getter changed it: the written line is checked as the decoder
 *   checks it), or when its line would exceed `maxLineBytes`.
 */
export function encodeRuntimeEvent(event: AnyRuntimeEvent, options?: FramingOptions): Uint8Array {
  const max = maxLine(options, "encodeRuntimeEvent");
  checkHead(event, "encodeRuntimeEvent");
  if (event.name === "exit") {
    checkExit(event, "encodeRuntimeEvent");
  } else if (typeof event.value !== "string" && !(event.value instanceof Uint8Array)) {
    throw protocol(`encodeRuntimeEvent: a ${event.name} event needs a string or Uint8Array "value"`);
  }
  let text: string;
  try {
    text = encodeEventLine(event);
  } catch (error) {
    // A cycle, a BigInt or a throwing toJSON in an exit `result` (or another extra field).
    const reason = error instanceof Error ? error.message : String(error);
    throw protocol(`encodeRuntimeEvent: the event cannot be written as JSON (${reason}); give an exit "result" JSON can hold: no cycles, no BigInt`);
  }
  const line = encoder.encode(text);
  if (line.byteLength - 1 > max) throw protocol(`encodeRuntimeEvent: the event's line is ${line.byteLength - 1} bytes, over maxLineBytes (${max})`);
  // The checks above saw the object; JSON wrote what its toJSON (or getters) gave. Check the line itself.
  const where = "encodeRuntimeEvent: the line as written (after any toJSON)";
  checkRuntimeLine(parseLine(text, where), where);
  return line;
}

/**
 * The events of an NDJSON byte stream written by {@link encodeRuntimeEvent}
 * (one event per read; it reads no further ahead than the current line).
 * Blank lines are skipped; a last line without `\n` counts. Output chunks
 * come back as they went in: strings as strings, `{"$bytes"}` as bytes.
 *
 * @throws (errors the stream) WorkspaceRuntimeError `EPROTOCOL` for a line over `maxLineBytes`, not
 *   UTF-8, not JSON, or not an event (`line <n>: …`).
 * @throws TypeError at once for an invalid `maxLineBytes`.
 */
export function decodeRuntimeEvents(bytes: ReadableStream<Uint8Array>, options?: FramingOptions): ReadableStream<AnyRuntimeEvent> {
  const max = maxLine(options, "decodeRuntimeEvents");
  return decodeLines<AnyRuntimeEvent>(bytes, max, (text, where) => {
    const parsed = parseLine(text, where);
    checkRuntimeLine(parsed, where);
    if (parsed.name === "exit" || typeof parsed.value === "string") return parsed as unknown as AnyRuntimeEvent;
    try {
      return { ...parsed, value: fromBase64((parsed.value as { $bytes: string }).$bytes) } as unknown as AnyRuntimeEvent;
    } catch {
      throw protocol(`${where}: "$bytes" is not base64`);
    }
  });
}

/**
 * Legacy events as an NDJSON byte stream, one line per event, pulled one at
 * a time (no read-ahead). Output `value`s must be `Uint8Array`s (written as
 * `{"$bytes":"<base64>"}`); exit's `value` is its exit code.
 *
 * @example
 * ```ts
 * const bytes = encodeExecEvents([
 *   { id: "r1", seq: 1, name: "stdout", value: new TextEncoder().encode("hi\n") },
 *   { id: "r1", seq: 2, name: "exit", value: 0 },
 * ]);
 * // {"id":"r1","seq":1,"name":"stdout","value":{"$bytes":"aGkK"}}\n{"id":"r1","seq":2,"name":"exit","value":0}\n
 * ```
 * @throws (errors the stream) WorkspaceRuntimeError `EPROTOCOL` for an event that is not a legacy
 *   event (a finite number exit `value`, bytes output `value`), or whose line would exceed `maxLineBytes`.
 */
export function encodeExecEvents(
  events: ReadableStream<WorkspaceExecEvent> | Iterable<WorkspaceExecEvent> | AsyncIterable<WorkspaceExecEvent>,
  options?: FramingOptions,
): ReadableStream<Uint8Array> {
  const max = maxLine(options, "encodeExecEvents");
  const iterator = iterate(events);
  let n = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await iterator.next();
        if (next.done) {
          controller.close();
          return;
        }
        const where = `encodeExecEvents: event ${++n}`;
        const event = next.value as unknown;
        checkHead(event, where);
        let line: string;
        if (event.name === "exit") {
          const code = checkExit(event, where, "value", "a legacy exit event");
          line = JSON.stringify({ id: event.id, seq: event.seq, name: "exit", value: code });
        } else {
          if (!(event.value instanceof Uint8Array)) throw protocol(`${where}: a legacy ${event.name} event needs a Uint8Array "value"`);
          line = JSON.stringify({ id: event.id, seq: event.seq, name: event.name, value: { $bytes: toBase64(event.value) } });
        }
        const bytes = encoder.encode(`${line}\n`);
        if (bytes.byteLength - 1 > max) throw protocol(`${where}: its line is ${bytes.byteLength - 1} bytes, over maxLineBytes (${max})`);
        controller.enqueue(bytes);
      },
      async cancel(reason) {
        await iterator.return?.(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * The legacy events of an NDJSON byte stream written by
 * {@link encodeExecEvents}: output `value`s as bytes, exit `value` the exit
 * code. An exit line with `code` instead of `value` (the current form) is
 * read too; a string output `value` is UTF-8 encoded.
 *
 * @throws (errors the stream) WorkspaceRuntimeError `EPROTOCOL` for a line over `maxLineBytes`, not
 *   UTF-8, not JSON, or not an event (`line <n>: …`).
 * @throws TypeError at once for an invalid `maxLineBytes`.
 */
export function decodeExecEvents(bytes: ReadableStream<Uint8Array>, options?: FramingOptions): ReadableStream<WorkspaceExecEvent> {
  const max = maxLine(options, "decodeExecEvents");
  return decodeLines<WorkspaceExecEvent>(bytes, max, (text, where) => {
    const parsed = parseLine(text, where);
    checkHead(parsed, where);
    const head = { id: parsed.id, seq: parsed.seq };
    if (parsed.name === "exit") {
      // The legacy form's `value`, else the current form's `code`.
      const code = checkExit(parsed, where, typeof parsed.value === "number" || parsed.code === undefined ? "value" : "code");
      return { ...head, name: "exit", value: code };
    }
    const name = parsed.name as "stdout" | "stderr";
    if (typeof parsed.value === "string") return { ...head, name, value: encoder.encode(parsed.value) };
    const b64 = (parsed.value as { $bytes?: unknown } | null)?.$bytes;
    if (typeof parsed.value !== "object" || typeof b64 !== "string") throw protocol(`${where}: a ${name} event needs a {"$bytes": base64} "value"`);
    let value: Uint8Array;
    try {
      value = fromBase64(b64);
    } catch {
      throw protocol(`${where}: "$bytes" is not base64`);
    }
    return { ...head, name, value };
  });
}

function parseLine(text: string, where: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw protocol(`${where}: not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}

function iterate<T>(source: ReadableStream<T> | Iterable<T> | AsyncIterable<T>): AsyncIterator<T> {
  if (source instanceof ReadableStream) {
    const reader = source.getReader();
    return {
      next: async () => {
        const { done, value } = await reader.read();
        return done ? { done: true, value: undefined } : { done: false, value };
      },
      return: async (reason?: unknown) => {
        await reader.cancel(reason);
        return { done: true, value: undefined };
      },
    };
  }
  if (source && typeof (source as AsyncIterable<T>)[Symbol.asyncIterator] === "function") return (source as AsyncIterable<T>)[Symbol.asyncIterator]();
  if (source && typeof (source as Iterable<T>)[Symbol.iterator] === "function") {
    const it = (source as Iterable<T>)[Symbol.iterator]();
    return { next: async () => it.next(), return: async () => it.return?.() ?? { done: true, value: undefined } };
  }
  throw new TypeError("encodeExecEvents: events must be a ReadableStream or an (async) iterable of events");
}

const NEWLINE = 0x0a;

/**
 * Splits `bytes` into lines of at most `max` bytes and maps each non-blank
 * one through `parse`, one result per pull. Memory: the current line (≤
 * `max`) plus one chunk.
 */
function decodeLines<T>(bytes: ReadableStream<Uint8Array>, max: number, parse: (text: string, where: string) => T): ReadableStream<T> {
  if (!(bytes instanceof ReadableStream)) throw new TypeError("the events to decode must be a ReadableStream<Uint8Array>");
  const reader = bytes.getReader();
  const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  let parts: Uint8Array[] = [];
  let partBytes = 0;
  let chunk: Uint8Array = new Uint8Array(0);
  let lineNo = 0;
  let ended = false;

  /** The next complete line's bytes, or `null` at the end. */
  async function nextLine(): Promise<Uint8Array | null> {
    for (;;) {
      const nl = chunk.indexOf(NEWLINE);
      if (nl >= 0) {
        const piece = chunk.subarray(0, nl);
        chunk = chunk.subarray(nl + 1);
        lineNo++;
        if (partBytes + piece.byteLength > max) throw protocol(`line ${lineNo}: longer than maxLineBytes (${max})`);
        const line = join(parts, partBytes, piece);
        parts = [];
        partBytes = 0;
        return line;
      }
      if (chunk.byteLength > 0) {
        if (partBytes + chunk.byteLength > max) throw protocol(`line ${lineNo + 1}: longer than maxLineBytes (${max})`);
        parts.push(chunk.slice());
        partBytes += chunk.byteLength;
        chunk = new Uint8Array(0);
      }
      if (ended) {
        if (partBytes === 0) return null;
        lineNo++;
        const line = join(parts, partBytes, new Uint8Array(0));
        parts = [];
        partBytes = 0;
        return line;
      }
      const { done, value } = await reader.read();
      if (done) ended = true;
      else if (!(value instanceof Uint8Array)) throw protocol(`line ${lineNo + 1}: the byte stream gave a ${typeof value}, not a Uint8Array`);
      else chunk = value;
    }
  }

  return new ReadableStream<T>(
    {
      async pull(controller) {
        try {
          for (;;) {
            const line = await nextLine();
            if (line === null) {
              controller.close();
              return;
            }
            let text: string;
            try {
              text = utf8.decode(line);
            } catch {
              throw protocol(`line ${lineNo}: not UTF-8`);
            }
            if (text.trim() === "") continue;
            controller.enqueue(parse(text, `line ${lineNo}`));
            return;
          }
        } catch (error) {
          await reader.cancel(error).catch(() => {});
          throw error;
        }
      },
      async cancel(reason) {
        await reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

function join(parts: Uint8Array[], partBytes: number, last: Uint8Array): Uint8Array {
  if (parts.length === 0) return last;
  const out = new Uint8Array(partBytes + last.byteLength);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  out.set(last, at);
  return out;
}
