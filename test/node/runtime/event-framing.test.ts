/**
 * NDJSON framing of execution events (spec 01 §7, spec 02 §1.4):
 * `encodeRuntimeEvent`/`decodeRuntimeEvents` and the legacy
 * `encodeExecEvents`/`decodeExecEvents` — exact bytes, round trips, and a
 * clear `EPROTOCOL` error for bad input (over-long lines, not JSON, not UTF-8,
 * not an event).
 */
import { describe, expect, it } from "vitest";
import { decodeExecEvents, decodeRuntimeEvents, encodeExecEvents, encodeRuntimeEvent, type WorkspaceExecEvent } from "../../../src/do/event-framing.js";
import type { WorkspaceRuntimeEvent } from "../../../src/runtime/types.js";

const enc = new TextEncoder();
const dec = new TextDecoder();

/** A byte stream of the given chunks (each enqueued as is). */
function bytesOf(...chunks: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(typeof c === "string" ? enc.encode(c) : c);
      controller.close();
    },
  });
}

async function all<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream as unknown as AsyncIterable<T>) out.push(item);
  return out;
}

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return dec.decode(new Uint8Array(await new Response(stream).arrayBuffer()));
}

/** The error a stream's reading ends with. */
async function failure(stream: ReadableStream<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await all(stream);
  } catch (error) {
    return error as { code?: string; message: string };
  }
  throw new Error("the stream did not fail");
}

describe("encodeRuntimeEvent / decodeRuntimeEvents", () => {
  it("writes one JSON line per event: strings as strings, bytes as {$bytes: base64}", () => {
    expect(dec.decode(encodeRuntimeEvent({ id: "r1", seq: 1, name: "stdout", value: "hi\n" }))).toBe('{"id":"r1","seq":1,"name":"stdout","value":"hi\\n"}\n');
    expect(dec.decode(encodeRuntimeEvent({ id: "r1", seq: 2, name: "stderr", value: new Uint8Array([0, 255, 10]) }))).toBe(
      '{"id":"r1","seq":2,"name":"stderr","value":{"$bytes":"AP8K"}}\n',
    );
    expect(dec.decode(encodeRuntimeEvent({ id: "r1", seq: 3, name: "exit", code: 0, result: { ok: [1, null] } }))).toBe(
      '{"id":"r1","seq":3,"name":"exit","code":0,"result":{"ok":[1,null]}}\n',
    );
  });

  it("round-trips a run, whatever the chunking of the bytes (split inside lines and inside UTF-8 characters)", async () => {
    const events: WorkspaceRuntimeEvent<"utf8" | undefined>[] = [
      { id: "é1", seq: 1, name: "stdout", value: "héllo 日本\n" },
      { id: "é1", seq: 2, name: "stderr", value: new Uint8Array([1, 2, 3, 200]) },
      { id: "é1", seq: 2.5, name: "stdout", value: "" },
      {
        id: "é1",
        seq: 3,
        name: "exit",
        code: 1,
        truncated: { stdout: { status: "saved", path: "/.computer/output/x.é1.stdout.log", totalBytes: 9, totalLines: 1, firstLine: 1, partialLine: false } },
      },
    ];
    const joined = new Uint8Array(events.flatMap((e) => [...encodeRuntimeEvent(e)]));
    // Every split into 1-byte, 3-byte and 7-byte chunks decodes to the same events.
    for (const size of [1, 3, 7, joined.byteLength]) {
      const chunks: Uint8Array[] = [];
      for (let i = 0; i < joined.byteLength; i += size) chunks.push(joined.slice(i, i + size));
      expect(await all(decodeRuntimeEvents(bytesOf(...chunks)))).toEqual(events);
    }
  });

  it("skips blank lines and reads a last line without a newline", async () => {
    const out = await all(decodeRuntimeEvents(bytesOf('\n{"id":"a","seq":1,"name":"stdout","value":"x"}\n\n  \n{"id":"a","seq":2,"name":"exit","code":0}')));
    expect(out).toEqual([
      { id: "a", seq: 1, name: "stdout", value: "x" },
      { id: "a", seq: 2, name: "exit", code: 0 },
    ]);
    expect(await all(decodeRuntimeEvents(bytesOf()))).toEqual([]);
  });

  it("errors the stream with EPROTOCOL naming the line: not JSON, not an event, bad base64, not UTF-8", async () => {
    const ok = '{"id":"a","seq":1,"name":"stdout","value":"x"}\n';
    const cases: [string | Uint8Array, string][] = [
      ["{nope\n", "line 2: not JSON"],
      ['[1,2]\n', "line 2: an event must be a JSON object"],
      ['{"seq":1,"name":"stdout","value":"x"}\n', 'line 2: "id" must be a string'],
      ['{"id":"a","seq":"1","name":"stdout","value":"x"}\n', 'line 2: "seq" must be a finite number'],
      ['{"id":"a","seq":1,"name":"log","value":"x"}\n', 'line 2: "name" must be "stdout", "stderr" or "exit", got "log"'],
      ['{"id":"a","seq":1,"name":"exit","value":0}\n', 'line 2: an exit event needs a number "code"'],
      ['{"id":"a","seq":1,"name":"stdout","value":7}\n', 'line 2: a stdout event needs a string or {"$bytes": base64} "value"'],
      ['{"id":"a","seq":1,"name":"stdout","value":{"$bytes":"%%%"}}\n', 'line 2: "$bytes" is not base64'],
      [new Uint8Array([0x7b, 0xff, 0x7d, 0x0a]), "line 2: not UTF-8"],
    ];
    for (const [bad, message] of cases) {
      const error = await failure(decodeRuntimeEvents(bytesOf(ok, bad)));
      expect(error.code).toBe("EPROTOCOL");
      expect(error.message).toContain(message);
    }
  });

  it("refuses a line over maxLineBytes (bounded memory), with or without its newline", async () => {
    const line = `{"id":"a","seq":1,"name":"stdout","value":"${"x".repeat(100)}"}`; // 145 bytes
    expect(await all(decodeRuntimeEvents(bytesOf(`${line}\n`), { maxLineBytes: 145 }))).toHaveLength(1);
    const long = await failure(decodeRuntimeEvents(bytesOf(`${line}\n`), { maxLineBytes: 144 }));
    expect(long).toMatchObject({ code: "EPROTOCOL", message: "line 1: longer than maxLineBytes (144)" });
    // An endless line without a newline fails as soon as it passes the limit, not at the end.
    let pulls = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls++;
        controller.enqueue(enc.encode("x".repeat(1000)));
      },
    });
    expect(await failure(decodeRuntimeEvents(endless, { maxLineBytes: 4096 }))).toMatchObject({ code: "EPROTOCOL", message: "line 1: longer than maxLineBytes (4096)" });
    expect(pulls).toBeLessThanOrEqual(8);
    expect(() => decodeRuntimeEvents(bytesOf(), { maxLineBytes: 0 })).toThrow("decodeRuntimeEvents: maxLineBytes must be a positive integer, got 0");
  });

  it("encodeRuntimeEvent refuses what is not an event, and lines over maxLineBytes", () => {
    const bad = (e: unknown, o?: { maxLineBytes?: number }) => {
      try {
        encodeRuntimeEvent(e as never, o);
      } catch (error) {
        return { code: (error as { code?: string }).code, message: (error as Error).message };
      }
      return undefined;
    };
    expect(bad({ id: "a", seq: 1, name: "stdout", value: 5 })).toEqual({ code: "EPROTOCOL", message: 'encodeRuntimeEvent: a stdout event needs a string or Uint8Array "value"' });
    expect(bad({ id: "a", seq: 1, name: "exit" })).toEqual({ code: "EPROTOCOL", message: 'encodeRuntimeEvent: an exit event needs a number "code"' });
    expect(bad(null)).toEqual({ code: "EPROTOCOL", message: "encodeRuntimeEvent: an event must be a JSON object" });
    expect(bad({ id: "a", seq: 1, name: "stdout", value: "x".repeat(50) }, { maxLineBytes: 60 })).toEqual({
      code: "EPROTOCOL",
      message: "encodeRuntimeEvent: the event's line is 95 bytes, over maxLineBytes (60)",
    });
  });
});

describe("encodeExecEvents / decodeExecEvents (legacy WorkspaceExecEvent: exit `value`)", () => {
  const run: WorkspaceExecEvent[] = [
    { id: "r1", seq: 1, name: "stdout", value: enc.encode("hi\n") },
    { id: "r1", seq: 2, name: "stderr", value: new Uint8Array([0, 255]) },
    { id: "r1", seq: 3, name: "exit", value: 3 },
  ];

  it("writes the exact lines, from an array or a stream", async () => {
    const expected = '{"id":"r1","seq":1,"name":"stdout","value":{"$bytes":"aGkK"}}\n{"id":"r1","seq":2,"name":"stderr","value":{"$bytes":"AP8="}}\n{"id":"r1","seq":3,"name":"exit","value":3}\n';
    expect(await text(encodeExecEvents(run))).toBe(expected);
    const stream = new ReadableStream<WorkspaceExecEvent>({
      start(c) {
        for (const e of run) c.enqueue(e);
        c.close();
      },
    });
    expect(await text(encodeExecEvents(stream))).toBe(expected);
  });

  it("round-trips, and reads current-form exit lines (`code`) and string chunks too", async () => {
    expect(await all(decodeExecEvents(encodeExecEvents(run)))).toEqual(run);
    const current = bytesOf('{"id":"x","seq":1,"name":"stdout","value":"é"}\n{"id":"x","seq":2,"name":"exit","code":0,"result":null}\n');
    expect(await all(decodeExecEvents(current))).toEqual([
      { id: "x", seq: 1, name: "stdout", value: enc.encode("é") },
      { id: "x", seq: 2, name: "exit", value: 0 },
    ]);
  });

  it("refuses bad events on both sides with EPROTOCOL", async () => {
    const encodeFailure = await failure(encodeExecEvents([{ id: "a", seq: 1, name: "stdout", value: "text" } as never]));
    expect(encodeFailure).toMatchObject({ code: "EPROTOCOL", message: 'encodeExecEvents: event 1: a legacy stdout event needs a Uint8Array "value"' });
    const exitFailure = await failure(encodeExecEvents([{ id: "a", seq: 1, name: "exit", code: 0 } as never]));
    expect(exitFailure).toMatchObject({ code: "EPROTOCOL", message: 'encodeExecEvents: event 1: a legacy exit event needs a number "value" (the exit code)' });
    const decodeFailure = await failure(decodeExecEvents(bytesOf('{"id":"a","seq":1,"name":"exit"}\n')));
    expect(decodeFailure).toMatchObject({ code: "EPROTOCOL", message: 'line 1: an exit event needs a number "value" (the exit code)' });
    expect(() => encodeExecEvents(42 as never)).toThrow("encodeExecEvents: events must be a ReadableStream or an (async) iterable of events");
  });
});
