/**
 * Issue 20, run 31, fixer RS — siblings of attack31e/remote-stream-restart-uncoded: every stream a remote client
 * hands on, and every call of an exec handle, across a restart of the Durable Object (`ctx.abort()`) rejects an `Error`
 * with `code` `ECONNRESET` naming the call (workerd's uncoded error as `cause`), and a lazy client made from a function
 * drops its broken load on it, so its next call reaches the restarted object; the byte stream the client hands on
 * for `fs.readFile` still gives the exact bytes (default and BYOB readers, ranges, cancel).
 */
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { call, done, outputFor } from "../../shared/loops/ai-sdk.js";
import { abortObject, agent, stallingStream, within } from "../attack2/abort-helpers.js";
import { patternByte, patternStream } from "../client/helpers.js";

const DISCONNECTED = "ReadableStream received over RPC disconnected prematurely.";
const reset = (method: string, workerd: string) =>
  `${method}: the Durable Object behind this workspace client restarted or was reset, so the client's connection to it is gone (workerd: ${workerd}); ` +
  "get a new client with getWorkspace(stub) — a lazy client made from a function, getWorkspace(() => env.NS.get(id)), reconnects by itself on its next call. " +
  "A call in flight when it happened may or may not have taken effect.";

const outcome = (p: Promise<unknown>) =>
  within(
    p.then(
      () => ({ code: "resolved", message: "" }),
      (e: Error & { code?: string }) => ({ code: e.code, message: String(e.message), cause: (e.cause as Error | undefined)?.message }),
    ),
    10_000,
  );

/** Reads `reader` until it fails; the failure (or `ended`). */
async function readToFailure(reader: ReadableStreamDefaultReader<unknown>) {
  for (let i = 0; i < 64; i++) {
    const r = await within(reader.read(), 10_000).then(
      (v) => v,
      (e: Error & { code?: string }) => ({ code: e.code, message: String(e.message), cause: (e.cause as Error | undefined)?.message }),
    );
    if (typeof r === "string") return { message: r };
    if ("message" in r) return r;
    if ((r as ReadableStreamReadResult<unknown>).done) return { message: "ended" };
  }
  return { message: "still reading" };
}

it("a lazy client from a function: a readFile stream read across a restart rejects ECONNRESET, the next call reconnects", async () => {
  const { stub, fresh } = agent();
  let calls = 0;
  const ws = getWorkspace(() => (calls++, fresh()));
  await ws.fs.writeFile("/big.bin", patternStream(4 << 20));
  const stream = (await ws.fs.readFile("/big.bin")) as unknown as ReadableStream<Uint8Array>;
  const reader = stream.getReader();
  expect((await reader.read()).done).toBe(false);
  expect(await abortObject(stub, "fix31 RS: restart")).toMatch(/^aborted/);
  expect(await readToFailure(reader)).toEqual({ code: "ECONNRESET", message: reset("fs.readFile", DISCONNECTED), cause: DISCONNECTED });
  expect(calls).toBe(1);
  // The broken load is dropped: the next call calls the function again and reads the stored file.
  expect((await ws.fs.stat("/big.bin")).size).toBe(4 << 20);
  expect(calls).toBe(2);
  ws[Symbol.dispose]();
}, 60_000);

it("a lazy client from a function: an exec handle's events across a restart reject ECONNRESET, the next call reconnects", async () => {
  const { stub, fresh } = agent();
  let calls = 0;
  const ws = getWorkspace(() => (calls++, fresh()));
  await ws.fs.mkdir("/workspace", { recursive: true });
  using h = await ws.runtime.exec(
    `export default async () => { console.log("a"); await new Promise((r) => setTimeout(r, 20000)); console.log("b"); }`,
    { id: "s", encoding: "utf8" },
  );
  const reader = h.getReader();
  expect(await reader.read()).toEqual({ done: false, value: { id: "s", seq: 1, name: "stdout", value: "a\n" } });
  setTimeout(() => void abortObject(stub, "fix31 RS: restart"), 300);
  expect(await readToFailure(reader)).toEqual({ code: "ECONNRESET", message: reset("exec.stream", DISCONNECTED), cause: DISCONNECTED });
  expect((await ws.fs.stat("/workspace")).isDirectory).toBe(true);
  expect(calls).toBe(2);
  ws[Symbol.dispose]();
}, 60_000);

it("an exec handle's result() and kill() across a restart reject ECONNRESET naming exec.result / exec.kill", async () => {
  const { stub, fresh } = agent();
  let calls = 0;
  const ws = getWorkspace(() => (calls++, fresh()));
  await ws.fs.mkdir("/workspace", { recursive: true });
  using h = await ws.runtime.exec(`export default async () => { await new Promise((r) => setTimeout(r, 20000)); return 1; }`, { id: "r" });
  const result = outcome(h.result());
  await new Promise((r) => setTimeout(r, 300));
  expect(await abortObject(stub, "fix31 RS: restart")).toMatch(/^aborted/);
  const r = (await result) as { code?: string; message: string; cause?: string };
  expect(r.code, r.message).toBe("ECONNRESET");
  expect(r.message).toBe(reset("exec.result", r.cause!));
  const k = (await outcome(h.kill())) as { code?: string; message: string; cause?: string };
  expect(k.code, k.message).toBe("ECONNRESET");
  expect(k.message).toBe(reset("exec.kill", k.cause!));
  expect(calls).toBe(1);
  expect((await ws.fs.stat("/workspace")).isDirectory).toBe(true);
  expect(calls).toBe(2);
  ws[Symbol.dispose]();
}, 60_000);

it("the exec tool over a remote client: the call that meets the restart, and the next, give the model ECONNRESET's text", async () => {
  const { stub, fresh } = agent();
  using ws = await getWorkspace(fresh());
  await ws.fs.mkdir("/workspace", { recursive: true });
  const model = new MockLanguageModelV4({
    doGenerate: [
      call("slow", "exec", { command: "export default async () => { console.log('started'); await new Promise((r) => setTimeout(r, 20000)); return 'late'; }" }),
      call("again", "exec", { command: "export default () => 'fine'" }),
      done,
    ],
  });
  const loop = generateText({ model, prompt: "go", tools: createAITools({ workspace: ws }), stopWhen: stepCountIs(4) });
  await new Promise((r) => setTimeout(r, 2500));
  expect(await abortObject(stub, "fix31 RS: restart")).toMatch(/^aborted/);
  expect((await loop).text).toBe("done");
  // Was: "ReadableStream received over RPC disconnected prematurely."
  expect((outputFor(model, "slow") as { value: { error?: unknown } }).value.error).toBe(reset("exec.stream", DISCONNECTED));
  const again = outputFor(model, "again") as { value: { error?: string } };
  expect(again.value.error?.startsWith("runtime.exec: the Durable Object behind this workspace client restarted"), again.value.error).toBe(true);
}, 60_000);

it("a streamed writeFile across a restart rejects ECONNRESET naming fs.writeFile and leaves the old file", async () => {
  const { stub, fresh } = agent();
  {
    using ws = await getWorkspace(fresh());
    await ws.fs.writeFile("/f.bin", "old");
  }
  using ws = await getWorkspace(fresh());
  const { stream, twoSent } = stallingStream((n) => new Uint8Array(1 << 20).fill(n));
  const write = outcome(ws.fs.writeFile("/f.bin", stream));
  await twoSent;
  expect(await abortObject(stub, "fix31 RS: restart")).toMatch(/^aborted/);
  const w = (await write) as { code?: string; message: string; cause?: string };
  expect(w.code, w.message).toBe("ECONNRESET");
  expect(w.message).toBe(reset("fs.writeFile", w.cause!));
  using again = await getWorkspace(fresh());
  expect(await again.fs.readFile("/f.bin", "utf8")).toBe("old");
  expect((await again.fs.readdir("/")).map((e) => [e.name, e.size])).toEqual([["f.bin", 3]]);
}, 60_000);

it("a remote readFile stream gives the exact bytes: default reader, BYOB reader, a range, an empty file, a cancel", async () => {
  const { fresh } = agent();
  using ws = await getWorkspace(fresh());
  const size = (2 << 20) + 5;
  await ws.fs.writeFile("/p.bin", patternStream(size));
  await ws.fs.writeFile("/empty", "");
  const expected = new Uint8Array(size).map((_, i) => patternByte(i));
  // default reader
  const all = new Uint8Array(await new Response((await ws.fs.readFile("/p.bin")) as unknown as ReadableStream).arrayBuffer());
  expect(all.length).toBe(size);
  expect(all.every((b, i) => b === expected[i])).toBe(true);
  // BYOB reader, 64 KiB at a time
  const byob = ((await ws.fs.readFile("/p.bin")) as unknown as ReadableStream<Uint8Array>).getReader({ mode: "byob" });
  const got = new Uint8Array(size);
  let at = 0;
  for (;;) {
    const { done, value } = await byob.read(new Uint8Array(65536));
    if (done) break;
    got.set(value, at);
    at += value.byteLength;
  }
  expect(at).toBe(size);
  expect(got.every((b, i) => b === expected[i])).toBe(true);
  // a range
  const range = new Uint8Array(
    await new Response((await ws.fs.readFile("/p.bin", { byteOffset: 1_048_570, byteLength: 10 })) as unknown as ReadableStream).arrayBuffer(),
  );
  expect([...range]).toEqual([...expected.subarray(1_048_570, 1_048_580)]);
  // an empty file ends at once
  const empty = ((await ws.fs.readFile("/empty")) as unknown as ReadableStream<Uint8Array>).getReader();
  // (a byte stream in workerd ends with an empty chunk as `value`, where the stream RPC delivered gave `undefined`)
  const end = await empty.read();
  expect([end.done, end.value?.byteLength ?? 0]).toEqual([true, 0]);
  // a cancel half way ends the stream; the file is unchanged
  const half = ((await ws.fs.readFile("/p.bin")) as unknown as ReadableStream<Uint8Array>).getReader();
  expect((await half.read()).done).toBe(false);
  await half.cancel("enough");
  const after = await half.read();
  expect([after.done, after.value?.byteLength ?? 0]).toEqual([true, 0]);
  expect((await ws.fs.stat("/p.bin")).size).toBe(size);
}, 60_000);
