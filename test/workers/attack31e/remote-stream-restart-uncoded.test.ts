/**
 * Issue 20, thirty-first attack run: a remote client's byte or event stream that is being read when the Durable Object
 * behind it restarts (`ctx.abort()`, a code update, an eviction) — a `fs.readFile` stream, an exec handle's event
 * stream, and so the `exec` tool built from a `getWorkspace(stub)` client — fails with workerd's uncoded
 * `ReadableStream received over RPC disconnected prematurely.`: no `code`, nothing saying that the object restarted or
 * what to do, where docs/durable-objects.md ("When the Durable Object restarts under a client") and `getWorkspace`'s
 * @throws promise an `Error` with `code` `ECONNRESET` naming the call. The exec tool hands the model only that text
 * (`{ error: "ReadableStream received over RPC disconnected prematurely." }`), and a lazy client made from a function
 * does not drop its broken load on it.
 *
 * Tried: every `workspace.fs` method × ENOENT/EISDIR/ENOTDIR/EEXIST/ENOTEMPTY/EINVAL/ELOOP/EPERM locally (inside the
 * object) and through `getWorkspace(stub)` (`code`, `syscall`, `path`, message, class); the runtime's methods ×
 * bad options / unknown ids / busy runs / non-JSON answers the same way; a remote `readFile` stream cancelled half way
 * (its chunk leases end), a remote `writeFile` stream erroring half way (old file kept, no stray chunk), `rm` of a file
 * while a remote stream reads it; streams and the exec tool across a real `ctx.abort()`.
 * Held: the fs and runtime error tables match (codes, syscalls, paths, messages; runtime errors arrive as plain `Error`
 * with `name`/`code`, as remote-error.ts documents); lease release on cancel; atomic streamed writes; unary calls after
 * a restart reject `ECONNRESET` (fix28).
 * Found (medium — an uncoded, unexplained error where the docs promise `ECONNRESET`; the model's exec tool call gets a
 * message that does not say the run's object restarted; 3 of 3 runs).
 * Suggested fix: src/do/runtime-client.ts `createRemoteExecHandle` (the `reader.read()` in `pull`) and the readFile
 * stream returned by src/do/remote-fs.ts: wrap the stream so that a read error is passed through `callRemote`'s
 * mapping — treat workerd's `ReadableStream received over RPC disconnected prematurely.` as a broken stub when the
 * stub itself is broken (a cheap probe such as reading `stub.id`/`fs.exists("/")` fails with a broken-stub error), and
 * rethrow `ECONNRESET` naming `exec.stream` / `fs.readFile` with workerd's error as `cause`.
 * Fixed (run 31, fixer RS): src/do/remote-error.ts — `remoteByteStream` hands on each byte stream a remote client
 * receives (fs.readFile's bytes, an exec handle's NDJSON events before decoding) and passes a read's failure through
 * `callRemote`'s broken-stub mapping: workerd's broken-stub error, or any uncoded error the object did not answer with
 * (`ReadableStream received over RPC disconnected prematurely.`) when one cheap probe over the same stub
 * (`fs.exists("/")`, the handle's `id`) meets a broken stub, rejects `ECONNRESET` naming `fs.readFile` / `exec.stream`,
 * workerd's error as `cause`. `callRemote` takes the same probe, so a call in flight when the object restarts (an exec
 * handle's `result()`, a streamed `writeFile`), which workerd rejects with `ctx.abort()`'s bare reason, rejects
 * `ECONNRESET` too. A lazy client made from a function hears of either (src/do/client.ts `onBroken`) and drops its
 * broken load. Siblings: test/workers/fix31/remote-streams-restart.test.ts.
 */
import { expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";
import { agent, abortObject, within } from "../attack2/abort-helpers.js";
import { patternStream } from "../client/helpers.js";

const outcome = (p: Promise<unknown>) =>
  within(
    p.then(
      () => ({ code: "resolved", message: "" }),
      (e: Error & { code?: string }) => ({ code: e.code, message: String(e.message) }),
    ),
    10_000,
  );

it("an exec handle's event stream read across a restart rejects ECONNRESET naming the call", async () => {
  const { stub, fresh } = agent();
  using ws = await getWorkspace(fresh());
  await ws.fs.mkdir("/workspace", { recursive: true });
  using h = await ws.runtime.exec(
    `export default async () => { console.log("a"); await new Promise((r) => setTimeout(r, 20000)); console.log("b"); }`,
    { id: "s", encoding: "utf8" },
  );
  const reader = h.getReader();
  expect(await reader.read()).toMatchObject({ done: false, value: { name: "stdout", value: "a\n" } });
  setTimeout(() => void abortObject(stub, "attack31e: simulated restart"), 300);
  const o = (await outcome(reader.read())) as { code?: string; message: string };
  expect(o.code).toBe("ECONNRESET"); // Was: undefined
  // Was: "ReadableStream received over RPC disconnected prematurely."
  expect(o.message.startsWith("exec.stream: the Durable Object behind this workspace client restarted or was reset"), o.message).toBe(true);
}, 60_000);

it("a fs.readFile stream read across a restart rejects ECONNRESET naming the call", async () => {
  const { stub, fresh } = agent();
  using ws = await getWorkspace(fresh());
  await ws.fs.writeFile("/big.bin", patternStream(4 << 20));
  const stream = (await ws.fs.readFile("/big.bin")) as unknown as ReadableStream<Uint8Array>;
  const reader = stream.getReader();
  expect((await reader.read()).done).toBe(false);
  expect(await abortObject(stub, "attack31e: simulated restart")).toMatch(/^aborted/);
  let o: { code?: string; message: string } = { message: "" };
  for (let i = 0; i < 64; i++) {
    const r = await within(reader.read(), 10_000).then((v) => v, (e: Error & { code?: string }) => ({ code: e.code, message: String(e.message) }));
    if (typeof r === "string") { o = { message: r }; break; }
    if ("message" in r) { o = r; break; }
    if ((r as ReadableStreamReadResult<Uint8Array>).done) { o = { message: "ended" }; break; }
  }
  expect(o.code).toBe("ECONNRESET"); // Was: undefined
  // Was: "ReadableStream received over RPC disconnected prematurely."
  expect(o.message.startsWith("fs.readFile: the Durable Object behind this workspace client restarted or was reset"), o.message).toBe(true);
}, 60_000);
