/**
 * probe18 (fresh-user probe): the root helpers of docs/runtime.md — event framing (NDJSON) and
 * sync telemetry — copied from the page, then fed bad input.
 */
import { describe, expect, it } from "vitest";
import {
  DEFAULT_CPU_LIMIT_MS,
  createSyncLogger,
  decodeExecEvents,
  decodeRuntimeEvents,
  encodeExecEvents,
  encodeRuntimeEvent,
  syncBlockLog,
  syncOperationLog,
  Workspace,
  nodeSqliteStorage,
} from "../../../src/index.js";

const text = async (s: ReadableStream<Uint8Array>) => new Response(s).text();
const collect = async <T>(s: ReadableStream<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const e of s as unknown as AsyncIterable<T>) out.push(e);
  return out;
};
const streamOf = (...chunks: Array<string | Uint8Array>) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (const ch of chunks) c.enqueue(typeof ch === "string" ? new TextEncoder().encode(ch) : ch);
      c.close();
    },
  });
const failure = async (s: ReadableStream<unknown>) => collect(s).then(() => undefined, (e: { code?: string; message: string }) => e);

describe("probe18 framing: the docs' examples", () => {
  it("encodeExecEvents gives the two lines the page shows; decodeExecEvents gives them back", async () => {
    const events = [
      { id: "r1", seq: 1, name: "stdout" as const, value: new TextEncoder().encode("hi\n") },
      { id: "r1", seq: 2, name: "exit" as const, value: 0 },
    ];
    expect(await text(encodeExecEvents(events))).toBe(
      '{"id":"r1","seq":1,"name":"stdout","value":{"$bytes":"aGkK"}}\n{"id":"r1","seq":2,"name":"exit","value":0}\n',
    );
    expect(await collect(decodeExecEvents(encodeExecEvents(events)))).toEqual(events);
  });

  it("encodeRuntimeEvent: bytes stay bytes, strings stay strings; a last line without \\n counts; blank lines skipped", async () => {
    const a = encodeRuntimeEvent({ id: "x", seq: 1, name: "stdout", value: new Uint8Array([0, 255]) } as never);
    const b = encodeRuntimeEvent({ id: "x", seq: 2, name: "stderr", value: "é" } as never);
    const c = new TextDecoder().decode(encodeRuntimeEvent({ id: "x", seq: 3, name: "exit", code: 3 } as never)).trimEnd();
    const got = await collect(decodeRuntimeEvents(streamOf(a, "\n\n", b, c)));
    expect(got).toEqual([
      { id: "x", seq: 1, name: "stdout", value: new Uint8Array([0, 255]) },
      { id: "x", seq: 2, name: "stderr", value: "é" },
      { id: "x", seq: 3, name: "exit", code: 3 },
    ]);
  });

  it("a UTF-8 character split across chunks decodes", async () => {
    const line = new TextEncoder().encode('{"id":"x","seq":1,"name":"stdout","value":"é"}\n');
    const cut = line.indexOf(0xc3) + 1;
    expect(await collect(decodeRuntimeEvents(streamOf(line.slice(0, cut), line.slice(cut))))).toEqual([
      { id: "x", seq: 1, name: "stdout", value: "é" },
    ]);
  });
});

describe("probe18 framing: bad input → EPROTOCOL naming the line", () => {
  const bad: Array<[string, string | Uint8Array, RegExp]> = [
    ["not JSON", "ok\n", /^line 1: not JSON/],
    ["second line bad", '{"id":"x","seq":1,"name":"exit","code":0}\n{"id":1}\n', /^line 2: /],
    ["unknown name", '{"id":"x","seq":1,"name":"boom","value":"a"}\n', /^line 1: /],
    ["NaN seq", '{"id":"x","seq":"1","name":"stdout","value":"a"}\n', /^line 1: /],
    ["null", "null\n", /^line 1: /],
    ["array", "[]\n", /^line 1: /],
    ["not UTF-8", new Uint8Array([0xff, 0xfe, 0x0a]), /^line 1: /],
    ["bad base64", '{"id":"x","seq":1,"name":"stdout","value":{"$bytes":"!!!"}}\n', /^line 1: /],
  ];
  for (const [label, input, msg] of bad) {
    it(label, async () => {
      const e = await failure(decodeRuntimeEvents(streamOf(input)));
      expect(e?.code).toBe("EPROTOCOL");
      expect(e?.message).toMatch(msg);
    });
  }

  it("a line over maxLineBytes fails as soon as it passes the limit, without the rest arriving", async () => {
    let pulls = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(c) {
        pulls++;
        c.enqueue(new Uint8Array(1024).fill(0x61));
      },
    });
    const e = await failure(decodeRuntimeEvents(endless, { maxLineBytes: 4096 }));
    expect(e?.code).toBe("EPROTOCOL");
    expect(pulls).toBeLessThan(20);
  });

  it("bad maxLineBytes (0, -1, NaN, '10') → TypeError at once", () => {
    for (const m of [0, -1, Number.NaN, "10"]) {
      expect(() => decodeRuntimeEvents(streamOf(""), { maxLineBytes: m as never })).toThrow(TypeError);
      expect(() => encodeRuntimeEvent({ id: "x", seq: 1, name: "exit", code: 0 } as never, { maxLineBytes: m as never })).toThrow(TypeError);
    }
  });

  it("encoders refuse non-events (null, wrong name, exit without code, legacy output as string)", async () => {
    for (const ev of [null, undefined, {}, { id: "x", seq: 1, name: "boom", value: "a" }, { id: "x", seq: 1, name: "exit" }]) {
      expect(() => encodeRuntimeEvent(ev as never)).toThrow(expect.objectContaining({ code: "EPROTOCOL" }));
    }
    const e = await failure(encodeExecEvents([{ id: "x", seq: 1, name: "stdout", value: "a" } as never]));
    expect(e?.code).toBe("EPROTOCOL");
  });

  it("encodeExecEvents of non-iterable input → a clear error, not a crash", async () => {
    let err: unknown;
    try {
      await text(encodeExecEvents(42 as never));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).not.toMatch(/is not a function|Cannot read/);
  });
});

describe("probe18 framing: round trips and findings", () => {
  const roundTrip = async (ev: unknown) => collect(decodeRuntimeEvents(new Response(encodeRuntimeEvent(ev as never)).body!));

  it("U+2028, NUL, a lone surrogate and CRLF in a string chunk survive; exit result and truncated are kept", async () => {
    for (const value of ["a\u2028b\n", "a\u0000b", "\ud800x", "a\r\nb"]) {
      expect(await roundTrip({ id: "x", seq: 1, name: "stdout", value })).toEqual([{ id: "x", seq: 1, name: "stdout", value }]);
    }
    const exit = { id: "x", seq: 2, name: "exit", code: 0, result: { n: 1 }, truncated: { stdout: { path: "/tmp/o" } } };
    expect(await roundTrip(exit)).toEqual([exit]);
  });

  /*
   * Finding (low), fixed. An exit event whose `result` cannot be JSON (a cycle, a BigInt) made
   * `encodeRuntimeEvent` throw the raw `TypeError: Converting circular structure to JSON` /
   * `Do not know how to serialize a BigInt` with no code. docs/runtime.md: "The encoders refuse a
   * non-event the same way" (WorkspaceRuntimeError EPROTOCOL naming the problem). The encoder now
   * catches the JSON failure and throws EPROTOCOL with the reason.
   */
  it("an unserialisable exit result → EPROTOCOL, not a raw TypeError", () => {
    const cyc: Record<string, unknown> = {};
    cyc.self = cyc;
    for (const result of [cyc, 10n]) {
      expect(() => encodeRuntimeEvent({ id: "x", seq: 1, name: "exit", code: 0, result } as never)).toThrow(expect.objectContaining({ code: "EPROTOCOL" }));
      expect(() => encodeRuntimeEvent({ id: "x", seq: 1, name: "exit", code: 0, result } as never)).toThrow(
        /^encodeRuntimeEvent: the event cannot be written as JSON \((Converting circular|Do not know how to serialize a BigInt).*\); give an exit "result" JSON can hold: no cycles, no BigInt$/s,
      );
    }
  });

  /*
   * Finding (low), fixed. `encodeRuntimeEvent` accepted an exit `code` of NaN (or Infinity) and wrote
   * `"code":null`, a line its own decoder then refuses (`line 1: an exit event needs a number
   * "code"`). The encoder refused a non-finite `seq` but not code; it now refuses a non-finite code
   * too (and encodeExecEvents a non-finite legacy exit `value`).
   */
  it("an exit code of NaN is refused by the encoder (what it writes, the decoder must read)", () => {
    expect(() => encodeRuntimeEvent({ id: "x", seq: 1, name: "exit", code: Number.NaN } as never)).toThrow(expect.objectContaining({ code: "EPROTOCOL" }));
    for (const code of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(() => encodeRuntimeEvent({ id: "x", seq: 1, name: "exit", code } as never)).toThrow(`encodeRuntimeEvent: an exit event needs a finite "code", got ${code}`);
    }
  });
});

describe("probe18 sync telemetry", () => {
  it("createSyncLogger writes one JSON line per block/operation with cpuBudget = durationMs / cpuLimitMs (4 decimals)", () => {
    const lines: string[] = [];
    const log = createSyncLogger({ write: (l) => lines.push(l), cpuLimitMs: 30_000, now: () => 1767225600000 });
    log.block({ direction: "push", backend: "container-shell", operationId: "op", block: 1, entries: 1, bytes: 5, skipped: 0, durationMs: 14 });
    log.operation({ direction: "push", backend: "container-shell", operationId: "op", blocks: 1, entries: 1, bytes: 5, skipped: 0, durationMs: 15, ok: true });
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { event: "sync.block", time: 1767225600000, direction: "push", backend: "container-shell", operationId: "op", block: 1, entries: 1, bytes: 5, skipped: 0, durationMs: 14, cpuLimitMs: 30000, cpuBudget: 0.0005 },
      { event: "sync.operation", time: 1767225600000, direction: "push", backend: "container-shell", operationId: "op", blocks: 1, entries: 1, bytes: 5, skipped: 0, durationMs: 15, ok: true, cpuLimitMs: 30000, cpuBudget: 0.0005 },
    ]);
    expect(DEFAULT_CPU_LIMIT_MS).toBe(30_000);
  });

  it("a failed operation's error is sanitised (token=, Bearer, control chars, 512 chars)", () => {
    const rec = syncOperationLog({
      direction: "pull", backend: "b", operationId: "o", blocks: 0, entries: 0, bytes: 0, skipped: 0, durationMs: 1, ok: false,
      error: "fetch https://h/?token=SECRET1\nAuthorization: Bearer SECRET2 " + "z".repeat(1000),
    });
    expect(rec).toMatchObject({ ok: false });
    const error = (rec as { error: string }).error;
    expect(error).not.toMatch(/SECRET1|SECRET2|\n/);
    expect(error.length).toBeLessThanOrEqual(512);
  });

  it("a throwing write is swallowed", () => {
    const log = createSyncLogger({
      write: () => {
        throw new Error("disk full");
      },
    });
    expect(() => log.block({ direction: "push", backend: "b", operationId: "o", block: 1, entries: 0, bytes: 0, skipped: 0, durationMs: 0 })).not.toThrow();
  });

  it("bad cpuLimitMs (0, -1, NaN, Infinity) → TypeError naming it", () => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createSyncLogger({ cpuLimitMs: bad })).toThrow(/cpuLimitMs/);
      expect(() => syncBlockLog({ direction: "push", backend: "b", operationId: "o", block: 1, entries: 0, bytes: 0, skipped: 0, durationMs: 0 }, { cpuLimitMs: bad })).toThrow(/cpuLimitMs/);
    }
  });

  it("workspace.syncTelemetry: undefined when off (also with a logger but no syncTelemetryEnabled); the logger when on", () => {
    const logger = createSyncLogger({ write: () => {} });
    expect(new Workspace({ storage: nodeSqliteStorage(":memory:") }).syncTelemetry).toBeUndefined();
    expect(new Workspace({ storage: nodeSqliteStorage(":memory:"), syncTelemetry: logger }).syncTelemetry).toBeUndefined();
    expect(new Workspace({ storage: nodeSqliteStorage(":memory:"), syncTelemetry: logger, syncTelemetryEnabled: true }).syncTelemetry).toBe(logger);
    expect(new Workspace({ storage: nodeSqliteStorage(":memory:"), syncTelemetryEnabled: true }).syncTelemetry).toBeDefined();
  });
});

