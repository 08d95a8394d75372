/**
 * Issue 20, run 40, fixer f40fs (sibling of test/workers/attack40c/remote-write-source-error-replaced-uncoded.test.ts):
 * the remote client now sends a `writeFile`/`appendFile` content stream through a stream of its own that records the
 * caller's stream's failure. What else must hold: a stream that ends writes every byte (3 MiB, several chunks, both
 * methods); a source that fails before its first byte rejects with its own error too; a write the object refuses
 * before reading (EISDIR, EEXIST) cancels the caller's stream with the refusal — so a remote read stream of another
 * file given as the content (`ws.fs.writeFile("/d", await ws.fs.readFile("/big"))`) ends its chunk leases in the
 * object at once, as in the object itself (attack40c/refused-write-leaves-source-read-lease).
 */
import { runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";
import { checkPattern, freshAgent, patternStream } from "../client/helpers.js";

const outcome = (p: Promise<unknown>) =>
  p.then(
    () => ({ code: "resolved" as string | undefined, message: "" }),
    (e: Error & { code?: string }) => ({ code: e.code, message: e.message }),
  );

it("a stream that ends is written whole; one that fails at once rejects with its own error", async () => {
  const stub = freshAgent();
  using ws = await getWorkspace(stub);
  await ws.fs.writeFile("/big", patternStream(3 * 1024 * 1024, 300_000));
  expect(await checkPattern(await ws.fs.readFile("/big"))).toEqual({ bytes: 3 * 1024 * 1024, firstMismatch: -1 });
  await ws.fs.writeFile("/log", "");
  await ws.fs.appendFile("/log", patternStream(1024 * 1024 + 5, 100_000));
  expect(await checkPattern(await ws.fs.readFile("/log"))).toEqual({ bytes: 1024 * 1024 + 5, firstMismatch: -1 });
  const failing = () =>
    new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(Object.assign(new Error("no body"), { code: "ECONNABORTED" }));
      },
    });
  expect(await outcome(ws.fs.writeFile("/x", failing()))).toEqual({ code: "ECONNABORTED", message: "no body" });
  expect(await outcome(ws.fs.appendFile("/x", failing()))).toEqual({ code: "ECONNABORTED", message: "no body" });
  expect((await outcome(ws.fs.stat("/x"))).code).toBe("ENOENT");
});

it("a write refused before reading cancels the caller's stream: a remote read stream's leases end", async () => {
  const stub = freshAgent();
  using ws = await getWorkspace(stub);
  await ws.fs.writeFile("/big", patternStream(1100 * 1024, 300_000));
  await ws.fs.mkdir("/d");
  const cancelled: unknown[] = [];
  const watched = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(new Uint8Array(10));
    },
    cancel(reason) {
      cancelled.push((reason as { code?: string })?.code);
    },
  });
  expect((await outcome(ws.fs.writeFile("/d", watched))).code).toBe("EISDIR");
  expect(cancelled).toEqual(["EISDIR"]);
  expect((await outcome((async () => ws.fs.writeFile("/d", await ws.fs.readFile("/big")))())).code).toBe("EISDIR");
  expect((await outcome((async () => ws.fs.writeFile("/big", await ws.fs.readFile("/big"), { exclusive: true }))())).code).toBe("EEXIST");
  expect((await outcome((async () => ws.fs.appendFile("/d", await ws.fs.readFile("/big")))())).code).toBe("EISDIR");
  const leases = async () =>
    runInDurableObject(stub, (_i, state) => Number([...state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM __ws_chunk_leases")][0]!.n));
  // The cancel crosses back to the object asynchronously: wait for it, boundedly.
  let n = await leases();
  for (let i = 0; i < 50 && n !== 0; i++) {
    await new Promise((r) => setTimeout(r, 20));
    n = await leases();
  }
  expect(n).toBe(0);
  expect(await ws.fs.readFile("/big").then(checkPattern)).toEqual({ bytes: 1100 * 1024, firstMismatch: -1 });
});
