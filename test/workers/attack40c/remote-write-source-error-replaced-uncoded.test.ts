/**
 * Issue 20, run 40, attacker c: a remote client's `fs.writeFile(path, stream)` / `fs.appendFile(path, stream)`
 * whose SOURCE stream errors half way (the caller's own upload breaks: a body that failed, a file it was copying
 * from that vanished) rejects with workerd's uncoded `ReadableStream received over RPC disconnected prematurely.`
 * — no `code`, the caller's error gone, and a text that blames the connection to the Durable Object, which is fine
 * (the next call on the same client works). In the object, the same call rejects with the source's own error
 * (docs/filesystem.md, Errors table: writeFile/appendFile "stream error → that error"; the remote client promises
 * "what the stub's method rejects with", src/do/remote-fs.ts).
 *
 * Reproduction (getWorkspace(stub) over real Workers RPC): write "old" to /keep.txt; then
 * `ws.fs.writeFile("/keep.txt", s)` where `s` enqueues 300,000 bytes, then `controller.error(e)` with
 * `e = Object.assign(new Error("source broke"), { code: "EPIPE" })`.
 * Today: rejects `Error` with no `code`, message "ReadableStream received over RPC disconnected prematurely."
 * (appendFile the same). The old content is kept and no chunk is left (that held).
 * Expected: the rejection carries the source's error, as inside the object — message "source broke" (and its
 * `code` "EPIPE"), not a disconnection the caller did not suffer. Checked: the same call run in the object
 * (runInDurableObject with the Workspace) rejects with exactly `e`.
 * Cause (likely): src/do/remote-fs.ts `createRemoteFilesystem` / `sentArguments` pass the caller's stream to RPC
 * as is; nothing remembers the source's failure to rethrow it (e.g. wrap the sent stream, keep the error its
 * `pull` met, and reject with it when the call fails).
 * Severity: low–medium (an uncoded, misleading error; no data lost).
 * Fixed in run 40 by fixer f40fs: the remote client sends the stream through one that records its failure and rethrows it.
 */
import { runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { getWorkspace, type Workspace } from "../../../src/index.js";
import { WORKSPACE } from "../../../src/do/symbol.js";
import { freshAgent } from "../client/helpers.js";

/** A stream that sends `n` pieces of `size` bytes, then fails with `error`. */
function failingAfter(n: number, size: number, error: Error): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent < n) {
        sent++;
        controller.enqueue(new Uint8Array(size).fill(64 + sent));
      } else controller.error(error);
    },
  });
}

const broke = () => Object.assign(new Error("source broke"), { code: "EPIPE" });
const outcome = (p: Promise<unknown>) =>
  p.then(
    () => ({ code: "resolved" as string | undefined, message: "" }),
    (e: Error & { code?: string }) => ({ code: e.code, message: e.message }),
  );

it("inside the object, a source stream's error is writeFile's/appendFile's rejection (the reference)", async () => {
  const stub = freshAgent();
  const local = await runInDurableObject(stub, async (instance) => {
    const ws = (instance as unknown as Record<symbol, Workspace>)[WORKSPACE];
    await ws.fs.writeFile("/keep.txt", "old");
    return {
      write: await outcome(ws.fs.writeFile("/keep.txt", failingAfter(1, 300_000, broke()))),
      append: await outcome(ws.fs.appendFile("/keep.txt", failingAfter(1, 300_000, broke()))),
      text: await ws.fs.readFile("/keep.txt", "utf8"),
    };
  });
  expect(local).toEqual({ write: { code: "EPIPE", message: "source broke" }, append: { code: "EPIPE", message: "source broke" }, text: "old" });
});

it("through getWorkspace(stub), writeFile/appendFile of a source that errors reject with that error, not an uncoded disconnection", async () => {
  const stub = freshAgent();
  using ws = await getWorkspace(stub);
  await ws.fs.writeFile("/keep.txt", "old");
  const write = await outcome(ws.fs.writeFile("/keep.txt", failingAfter(1, 300_000, broke())));
  const append = await outcome(ws.fs.appendFile("/keep.txt", failingAfter(1, 300_000, broke())));
  // Held: nothing written, no chunk or lease left, the client still works.
  expect(await ws.fs.readFile("/keep.txt", "utf8")).toBe("old");
  const rows = await runInDurableObject(stub, (_i, state) => ({
    chunks: [...state.storage.sql.exec("SELECT refs, size FROM __ws_chunks")],
    leases: [...state.storage.sql.exec("SELECT count(*) AS n FROM __ws_chunk_leases")][0],
  }));
  expect(rows).toEqual({ chunks: [{ refs: 1, size: 3 }], leases: { n: 0 } });
  // Was: { code: undefined, message: "ReadableStream received over RPC disconnected prematurely." } for both.
  expect(write.message).toBe("source broke");
  expect(append.message).toBe("source broke");
  expect(write.code).toBe("EPIPE");
  expect(append.code).toBe("EPIPE");
});
