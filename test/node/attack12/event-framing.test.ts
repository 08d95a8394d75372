/**
 * Issue 20, twelfth attack run: the NDJSON framing of src/do/event-framing.ts (encodeRuntimeEvent,
 * decodeRuntimeEvents, encodeExecEvents, decodeExecEvents) after 275b3ca (encoders refuse a non-finite exit
 * code and an unserialisable result with EPROTOCOL).
 *
 * Tried: an exit event whose `truncated` is a string or null (a field the decoder checks and the encoder
 * does not); an event object with its own `toJSON` (the head is checked on the object, the line is what
 * toJSON returns); a throwing getter on an extra field; a result over maxLineBytes; a string chunk with a
 * lone surrogate (round trip); exit codes JSON reads as Infinity (`1e400`) in both decoders.
 */
import { describe, expect, it } from "vitest";
import { decodeExecEvents, decodeRuntimeEvents, encodeExecEvents, encodeRuntimeEvent } from "../../../src/do/event-framing.js";

const bytesOf = (text: string) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(new TextEncoder().encode(text));
      c.close();
    },
  });
async function drain<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = [];
  const reader = stream.getReader();
  for (;;) {
    const next = await reader.read();
    if (next.done) return out;
    out.push(next.value);
  }
}
/** encode → decode, or the code and message of the first error. */
async function roundTrip(event: unknown): Promise<unknown> {
  try {
    const line = encodeRuntimeEvent(event as never);
    return await drain(decodeRuntimeEvents(bytesOf(new TextDecoder().decode(line))));
  } catch (err) {
    return { code: (err as { code?: string }).code, message: (err as Error).message };
  }
}

describe("attack12: the framing encoders write only lines their decoders read", () => {
  // DEFECT (low: a producer's stream dies at the consumer with an error that blames the wire, not the
  // producer). encodeRuntimeEvent TSDoc: EPROTOCOL "when `event` is not an event … or when it cannot be
  // written as JSON" — 275b3ca made the encoder refuse NaN codes because "JSON writes NaN … as null, a
  // line the decoder refuses". The same holds for `truncated`: decodeRuntimeEvents refuses an exit whose
  // `truncated` is not an object (event-framing.ts decodeRuntimeEvents, `"truncated" must be an object`),
  // but encodeRuntimeEvent never looks at it, so `truncated: "yes"` or `null` is written and only the
  // reader fails ("line 1: "truncated" must be an object").
  // Expected: encodeRuntimeEvent throws EPROTOCOL naming `truncated`. Fix: run the decoder's exit checks
  // (code finite, truncated an object when present) in the encoder — one shared `checkExit`.
  // FIXED: one `checkExit` (finite code, object `truncated` when present) now runs in both encoders and
  // both decoders; encodeRuntimeEvent refuses `truncated: "yes"` / `null` with EPROTOCOL naming it.
  it("an exit event with a non-object `truncated` is refused by the encoder", async () => {
    for (const truncated of ["yes", null]) {
      const outcome = await roundTrip({ id: "r", seq: 2, name: "exit", code: 0, truncated });
      expect(outcome).toMatchObject({ code: "EPROTOCOL", message: expect.stringMatching(/^encodeRuntimeEvent: .*truncated/) });
    }
    expect(await roundTrip({ id: "r", seq: 2, name: "exit", code: 0, truncated: "yes" })).toEqual({
      code: "EPROTOCOL",
      message: 'encodeRuntimeEvent: "truncated" must be an object, got string',
    });
  });

  // DEFECT (low, same class): the head is checked on the object given, but JSON.stringify writes what the
  // object's own toJSON returns (exec-events.ts encodeEventLine), so a stdout event can leave the encoder
  // as an exit line without a code, which the decoder refuses. Expected: EPROTOCOL at encode (check the
  // serialised form, or build the line from the checked fields as encodeExecEvents does).
  // FIXED: encodeRuntimeEvent parses the line it wrote and runs the decoder's check on it (the same
  // `checkRuntimeLine` decodeRuntimeEvents uses), so a toJSON (or getter) that changes the event is refused.
  it("an event whose toJSON turns it into a non-event is refused by the encoder", async () => {
    const sly = { id: "r", seq: 1, name: "stdout", value: "ok", toJSON: () => ({ id: "r", seq: 1, name: "exit" }) };
    expect(await roundTrip(sly)).toMatchObject({ code: "EPROTOCOL", message: expect.stringMatching(/^encodeRuntimeEvent: /) });
    expect(await roundTrip(sly)).toEqual({
      code: "EPROTOCOL",
      message: 'encodeRuntimeEvent: the line as written (after any toJSON): an exit event needs a number "code"',
    });
    // A toJSON that yields a valid event is written as that event.
    const renamed = { id: "r", seq: 1, name: "stdout", value: "ok", toJSON: () => ({ id: "r", seq: 1, name: "stderr", value: "ok" }) };
    expect(await roundTrip(renamed)).toEqual([{ id: "r", seq: 1, name: "stderr", value: "ok" }]);
  });

  // DEFECT (low): the decoders accept an exit code JSON reads as Infinity (`1e400` is a valid JSON
  // number), the very value 275b3ca made both encoders refuse; a client then reports exit code Infinity,
  // and re-encoding the event it decoded fails. Expected: EPROTOCOL `line 1: … finite "code"`.
  // Fix: Number.isFinite on the decoded code in decodeRuntimeEvents and decodeExecEvents.
  // FIXED: both decoders run the shared `checkExit`, which refuses a non-finite code.
  it("decoders refuse an exit code that is not finite (1e400)", async () => {
    const runtime = await drain(decodeRuntimeEvents(bytesOf('{"id":"r","seq":1,"name":"exit","code":1e400}\n'))).then(
      (e) => e,
      (err: { code?: string }) => err.code,
    );
    const legacy = await drain(decodeExecEvents(bytesOf('{"id":"r","seq":1,"name":"exit","value":1e400}\n'))).then(
      (e) => e,
      (err: { code?: string }) => err.code,
    );
    expect({ runtime, legacy }).toEqual({ runtime: "EPROTOCOL", legacy: "EPROTOCOL" }); // before the fix: both decoded { code/value: Infinity }
    const message = (text: string, decode: typeof decodeRuntimeEvents | typeof decodeExecEvents) =>
      drain(decode(bytesOf(text)) as ReadableStream<unknown>).then(() => "decoded", (err: Error) => err.message);
    expect(await message('{"id":"r","seq":1,"name":"exit","code":1e400}\n', decodeRuntimeEvents)).toBe('line 1: an exit event needs a finite "code", got Infinity');
    expect(await message('{"id":"r","seq":1,"name":"exit","value":-1e400}\n', decodeExecEvents)).toBe(
      'line 1: an exit event needs a finite "value" (the exit code), got -Infinity',
    );
    expect(await message('{"id":"r","seq":1,"name":"exit","code":1e400}\n', decodeExecEvents)).toBe('line 1: an exit event needs a finite "code", got Infinity');
  });
});

describe("attack12: framing edge cases that hold", () => {
  it("a throwing getter on an extra field and a BigInt result are EPROTOCOL; a lone surrogate round-trips", async () => {
    const getter = { id: "r", seq: 1, name: "exit", code: 0 } as Record<string, unknown>;
    Object.defineProperty(getter, "extra", { enumerable: true, get: () => { throw new Error("nope"); } });
    expect(await roundTrip(getter)).toEqual({
      code: "EPROTOCOL",
      message: 'encodeRuntimeEvent: the event cannot be written as JSON (nope); give an exit "result" JSON can hold: no cycles, no BigInt',
    });
    expect(await roundTrip({ id: "r", seq: 1, name: "exit", code: 0, result: 1n })).toMatchObject({ code: "EPROTOCOL" });
    expect(await roundTrip({ id: "r", seq: 1, name: "stdout", value: "a\ud800b" })).toEqual([{ id: "r", seq: 1, name: "stdout", value: "a\ud800b" }]);
  });

  it("a result over maxLineBytes is EPROTOCOL at encode; encodeExecEvents refuses Infinity and a string chunk", async () => {
    expect(() => encodeRuntimeEvent({ id: "r", seq: 1, name: "exit", code: 0, result: "x".repeat(2_000) } as never, { maxLineBytes: 1_000 })).toThrow(
      /^encodeRuntimeEvent: the event's line is \d+ bytes, over maxLineBytes \(1000\)$/,
    );
    const codes = [];
    for (const event of [{ id: "r", seq: 1, name: "exit", value: Infinity }, { id: "r", seq: 1, name: "stdout", value: "text" }]) {
      codes.push(await drain(encodeExecEvents([event as never])).then(() => "ok", (e: { code?: string }) => e.code));
    }
    expect(codes).toEqual(["EPROTOCOL", "EPROTOCOL"]);
  });
});
