/**
 * Fixer TB (issue 20, run 25) — siblings of test/node/attack25a/span-attributes-take-non-string-values-whole.test.ts:
 * span attributes are booleans, finite numbers or strings whatever a caller passed (withSpan and both ready-made
 * observers), and the validation messages that repeated a caller's value whole (`String(value)`, `JSON.stringify`)
 * quote it with `valueCut` (src/util/cut.ts): a string JSON-quoted, a number as written, an array or object as JSON,
 * at most 64 characters then `… (<n> characters)`.
 */
import { describe, expect, it } from "vitest";
import { nodeSqliteStorage, SQLiteWorkspaceProvider, syncBlockLog, Workspace, type SyncBlockTelemetry, type WorkspaceObserver } from "../../../src/index.js";
import { decodeRuntimeEvents } from "../../../src/do/event-framing.js";
import type { WorkspaceFs } from "../../../src/fs/index.js";
import { createCloudflareObserver } from "../../../src/observe/cloudflare.js";
import { createOpenTelemetryObserver } from "../../../src/observe/opentelemetry.js";
import { withSpan, type WorkspaceAttributes } from "../../../src/observer.js";
import { valueCut } from "../../../src/util/cut.js";

/** 1,000 strings of 1,000 characters: 1,003,001 characters of JSON. */
const big = Array.from({ length: 1000 }, () => "x".repeat(1000));
const shownBig = `["${"x".repeat(62)}… (1003001 characters)`;
const longText = "y".repeat(1000);
const shownLong = `"${"y".repeat(64)}…" (1000 characters)`;

async function messageOf(run: () => unknown): Promise<string> {
  try {
    await run();
  } catch (error) {
    return `${(error as Error).constructor.name}: ${(error as Error).message}`;
  }
  return "(no error)";
}

const odd = {
  "a.nan": NaN,
  "a.inf": -Infinity,
  "a.bigint": 10n ** 100n,
  "a.object": { k: 1 },
  "a.array": big,
  "a.bool": false,
  "a.number": 1.5,
  "a.string": "s".repeat(5000),
  "a.undefined": undefined,
} as unknown as WorkspaceAttributes;
const expected = {
  "a.nan": "NaN",
  "a.inf": "-Infinity",
  "a.bigint": `1${"0".repeat(63)}… (101 characters)`,
  "a.object": '{"k":1}',
  "a.array": shownBig,
  "a.bool": false,
  "a.number": 1.5,
  "a.string": "s".repeat(4096),
};

describe("span start attributes: booleans, finite numbers, strings cut — anything else as a short text", () => {
  it("withSpan", async () => {
    let seen: unknown;
    const observer: WorkspaceObserver = { span: (_n, attributes, run) => ((seen = attributes), run({ setAttribute() {} })) };
    expect(await withSpan(observer, "x", odd, async () => 7)).toBe(7);
    expect(seen).toEqual(expected);
  });

  it("createOpenTelemetryObserver: the tracer is given the same", async () => {
    let seen: unknown;
    const span = { setAttribute() {}, setStatus() {}, recordException() {}, end() {} };
    const o = createOpenTelemetryObserver({
      tracer: { startActiveSpan: (_n: string, options: { attributes: unknown }, fn: (s: unknown) => unknown) => ((seen = options.attributes), fn(span)) } as never,
    });
    expect(await o.span("x", odd, async () => 7)).toBe(7);
    expect(seen).toEqual(expected);
  });

  it("createCloudflareObserver: the tracing span is given the same", async () => {
    const seen: Record<string, unknown> = {};
    const o = createCloudflareObserver({
      tracing: { enterSpan: (_n: string, fn: (s: unknown) => unknown) => fn({ setAttribute: (k: string, v: unknown) => void (seen[k] = v) }) } as never,
    });
    expect(await o.span("x", odd, async () => 7)).toBe(7);
    expect(seen).toEqual(expected);
  });
});

describe("valueCut", () => {
  it.each([
    [-1, "-1"],
    [NaN, "NaN"],
    [null, "null"],
    [undefined, "undefined"],
    ["755", '"755"'],
    [[1, 2], "[1,2]"],
    [Object.create(null), "{}"],
    [longText, shownLong],
    [big, shownBig],
  ])("%#", (value, text) => {
    expect(valueCut(value)).toBe(text);
  });

  it("never throws: a value JSON and String both refuse", () => {
    const hostile = new Proxy({}, { get() { throw new Error("no"); }, ownKeys() { throw new Error("no"); }, getPrototypeOf() { throw new Error("no"); } });
    expect(valueCut(hostile)).toBe("(a value that cannot be printed)");
  });
});

describe("validation messages quote a caller's value cut", () => {
  it("workspace.fs: mode, readFile window and encoding, paging, changesSince", async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    await ws.fs.writeFile("/f", "x");
    const fs = ws.fs as unknown as WorkspaceFs;
    const any = ws.fs as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    expect(await messageOf(() => any.chmod!("/f", big))).toBe(`WorkspaceFsError: EINVAL: mode must be a non-negative integer, got ${shownBig}, chmod: /f`);
    expect(await messageOf(() => any.writeFile!("/g", "x", { mode: longText }))).toBe(`WorkspaceFsError: EINVAL: mode must be a non-negative integer, got ${shownLong}, writeFile: /g`);
    expect(await messageOf(() => any.readFile!("/f", { byteOffset: big }))).toBe(`WorkspaceFsError: EINVAL: byteOffset must be a non-negative safe integer (bytes), got ${shownBig}, readFile: /f`);
    expect(await messageOf(() => any.readFile!("/f", longText))).toBe(`WorkspaceFsError: EINVAL: unsupported encoding ${shownLong}: use "utf8" or none, readFile: /f`);
    expect(await messageOf(() => any.readFile!("/f", { encoding: big }))).toBe(`WorkspaceFsError: EINVAL: unsupported encoding ${shownBig}: use "utf8" or none, readFile: /f`);
    expect(await messageOf(() => any.readdir!("/", { limit: big }))).toBe(`TypeError: readdir: limit must be a non-negative safe integer, got ${shownBig}`);
    expect(await messageOf(() => fs.changesSince({ rev: big as never, path: null }))).toBe(`WorkspaceFsError: EINVAL: cursor.rev must be a non-negative integer, got ${shownBig}, changesSince`);
    expect(await messageOf(() => fs.changesSince({ rev: 0, path: big as never }))).toBe(`WorkspaceFsError: EINVAL: cursor.path must be null or a canonical absolute path, got ${shownBig}, changesSince`);
    expect(await messageOf(() => fs.changesSince({ rev: 0, path: null }, { limit: big as never }))).toBe(`WorkspaceFsError: EINVAL: limit must be an integer from 1 to 10000, got ${shownBig}, changesSince`);
    await ws.close();
  });

  it("SQLiteWorkspaceProvider: options, path, mode, flags, encoding", async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    await ws.fs.writeFile("/f", "x");
    expect(await messageOf(() => new SQLiteWorkspaceProvider(ws, { maxOpenFileBytes: big as never }))).toBe(`TypeError: SQLiteWorkspaceProvider: maxOpenFileBytes must be a positive integer, got ${shownBig}`);
    expect(await messageOf(() => new SQLiteWorkspaceProvider(ws, { umask: big as never }))).toBe(`TypeError: SQLiteWorkspaceProvider: umask must be an integer 0..0o777, got ${shownBig}`);
    const p = new SQLiteWorkspaceProvider(ws) as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    expect(await messageOf(() => p.stat!(big))).toBe(`Error: EINVAL: path must be a string, stat '${shownBig}'`);
    expect(await messageOf(() => p.chmod!("/f", longText))).toBe(`Error: EINVAL: mode must be an unsigned 32-bit integer or an octal string, got ${shownLong}, chmod '/f'`);
    expect(await messageOf(() => p.open!("/f", longText))).toMatch(new RegExp(`^Error: EINVAL: invalid flags ${escape(shownLong)}: use r, `));
    expect(await messageOf(() => p.open!("/f", big))).toMatch(new RegExp(`^Error: EINVAL: invalid flags ${escape(shownBig)}: use r, `));
    expect(await messageOf(() => p.readFile!("/f", longText))).toBe(`Error: EINVAL: unsupported encoding '${"y".repeat(63)}…': only utf8 (or buffer) is supported, open '/f'`);
    expect(await messageOf(() => p.copyFile!("/f", "/g", big))).toBe(`Error: EINVAL: mode must be an integer 0..7 (COPYFILE_EXCL, COPYFILE_FICLONE, COPYFILE_FICLONE_FORCE), got ${shownBig}, copyfile '/f'`);
    await ws.close();
  });

  it("runtime and Workspace options: getExec resume, cpuLimitMs, maxLineBytes, output.dir, unmount root", async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    expect(await messageOf(() => ws.runtime.getExec("x", { resume: big as never }))).toBe(`TypeError: getExec: resume must be "full", "tail" or a non-negative number, got ${shownBig}`);
    expect(await messageOf(() => ws.unmount(longText))).toBe(`Error: unmount(root): root must be an absolute canonical path such as "/workspace/data", got ${shownLong}`);
    await ws.close();
    expect(await messageOf(() => syncBlockLog({} as SyncBlockTelemetry, { cpuLimitMs: big as never }))).toBe(`TypeError: syncBlockLog: cpuLimitMs must be a positive number of milliseconds, got ${shownBig}`);
    expect(await messageOf(() => decodeRuntimeEvents(new ReadableStream(), { maxLineBytes: big as never }))).toBe(`TypeError: decodeRuntimeEvents: maxLineBytes must be a positive integer, got ${shownBig}`);
    expect(await messageOf(() => new Workspace({ storage: nodeSqliteStorage(":memory:"), output: { dir: big as never } }))).toBe(
      `Error: Workspace output.dir must be an absolute path other than "/" without a trailing slash, got ${shownBig}`,
    );
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
