/**
 * Issue 20, twenty-fourth attack run: a remote client's `fs.writeFile(path, content)` sends a string or byte content
 * as ONE Workers RPC argument (src/do/remote-fs.ts forwards the arguments as they are), so content past workerd's
 * 32 MiB limit fails with workerd's bare serialization error — no `code`, nothing saying that the stream form crosses.
 * The result side of the same stub is measured (`checkFsRpcResult`: E2BIG with advice, docs/durable-objects.md
 * "Results too large for RPC"); the argument side is not, though the client could send such content as the stream it
 * already supports.
 *
 * Tried: `getWorkspace(env.CLIENT_AGENT.get(id))` (real Workers RPC) in a test Worker; `writeFile("/a.txt",
 * "x".repeat(40 MiB))`, `writeFile("/b.bin", new Uint8Array(40 MiB))`, the same bytes as a `ReadableStream`; options
 * nested 200,000 levels deep on writeFile/readdir.
 * Held: the stream form stores all 41,943,040 bytes; nothing partial is stored by the failed calls (stat ENOENT); the
 * deeply nested options fail on the caller's side (RangeError) and the client goes on answering; in the object the
 * same writeFile calls succeed.
 *
 * Found (low; 3 of 3 runs): both calls reject with `Error: Serialized RPC arguments or return values are limited to
 * 32MiB, but the size of this value was: 41943060 bytes.` (41943068 for the bytes), `code` undefined — a caller
 * written against the local Workspace (where the call works) cannot tell it apart from any other failure.
 *
 * Suggested fix: in the remote client's writeFile, send a string or byte content over ~30 MiB as a ReadableStream
 * (the stub stores a stream in chunks), or reject before sending with `WorkspaceFsError` `E2BIG` naming the size and
 * saying to pass a stream; document it beside "Results too large for RPC".
 *
 * Fixed: the remote client's `writeFile` (src/do/remote-fs.ts) sends a string or `ArrayBufferView` content estimated
 * past 16 MiB (`RPC_BYTES_AT_ONCE`) as a stream of its bytes (UTF-8 for a string, 1 MiB copies: the caller's array is
 * left as it was), so both writes store all 41,943,040 bytes, as in the object; any other remote fs call whose
 * arguments workerd refuses rejects `WorkspaceFsError` `E2BIG` instead of the bare error. Documented in
 * docs/durable-objects.md "Results too large for RPC". The expectation is now exact: both stored, byte for byte.
 * Siblings (a typed array view, `exclusive`/`ifMatch` kept on the streamed write, the E2BIG mapping) in
 * test/workers/fix24/client-write-large.test.ts.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";

const SIZE = 40 * 1024 * 1024;

async function outcome(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
    return "ok";
  } catch (error) {
    return { code: (error as { code?: unknown }).code ?? null, message: String((error as Error).message).slice(0, 120) };
  }
}

describe("attack24c: a remote client's writeFile of 40 MiB", () => {
  it("stores the string and the bytes (or rejects E2BIG saying to stream), never workerd's bare error", { timeout: 300_000 }, async () => {
    using ws = await getWorkspace(env.CLIENT_AGENT.get(env.CLIENT_AGENT.newUniqueId()));
    const text = await outcome(() => ws.fs.writeFile("/a.txt", "x".repeat(SIZE)));
    const bytes = await outcome(() => ws.fs.writeFile("/b.bin", new Uint8Array(SIZE).fill(1)));
    const stream = await outcome(() => ws.fs.writeFile("/c.bin", new Blob([new Uint8Array(SIZE)]).stream()));
    expect(stream).toBe("ok");
    expect((await ws.fs.stat("/c.bin")).size).toBe(SIZE);
    expect([text, bytes]).toEqual(["ok", "ok"]);
    expect([(await ws.fs.stat("/a.txt")).size, (await ws.fs.stat("/b.bin")).size]).toEqual([SIZE, SIZE]);
    // The stored bytes are the content's: the last bytes of each, read back as a range.
    const tail = async (path: string) => Array.from(new Uint8Array(await new Response((await ws.fs.readFile(path, { byteOffset: SIZE - 3 })) as ReadableStream).arrayBuffer()));
    expect([await tail("/a.txt"), await tail("/b.bin")]).toEqual([[120, 120, 120], [1, 1, 1]]);
  });
});
