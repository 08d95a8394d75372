/**
 * Issue 20, twenty-eighth attack run (area c, "odd, not proved", fixed by the lead): after the Durable Object behind a
 * loaded remote client restarted (`ctx.abort()`), every call through the client rejected with workerd's uncoded
 * `The execution context which hosts this callback is no longer running.` — no code, no hint that the object
 * restarted or what to do, and a lazy client made from a function source never called its function again.
 * Fixed: `callRemote` (src/do/remote-error.ts) rethrows that error (and workerd's "Network connection lost." /
 * "Durable Object reset because …") as an `Error` with `code` `ECONNRESET` naming the call, saying to get a new client,
 * workerd's error as `cause`; a lazy client whose source is a function drops the broken load, so its next call calls
 * the function again (src/do/client.ts). A stub source cannot be re-asked: it keeps rejecting `ECONNRESET`.
 */
import { expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";
import { durable, restart } from "../durable/helpers.js";

const outcome = (p: Promise<unknown>) =>
  p.then(
    (value) => ({ value }),
    (e: Error & { code?: string }) => ({ code: e.code, message: e.message, cause: (e.cause as Error | undefined)?.message }),
  );

const WORKERD = "The execution context which hosts this callback is no longer running.";

it("a lazy client from a function source: the call that meets the restart rejects ECONNRESET, the next reconnects", async () => {
  const { stub, fresh } = durable();
  let calls = 0;
  const ws = getWorkspace(() => (calls++, fresh()));
  await ws.fs.mkdir("/workspace", { recursive: true });
  await ws.fs.writeFile("/workspace/a.txt", "A");
  expect(calls).toBe(1);
  await restart(stub);
  const failed = await outcome(ws.fs.readFile("/workspace/a.txt", "utf8"));
  expect(failed).toEqual({
    code: "ECONNRESET",
    cause: WORKERD,
    message:
      `fs.readFile: the Durable Object behind this workspace client restarted or was reset, so the client's connection to it is gone (workerd: ${WORKERD}); ` +
      "get a new client with getWorkspace(stub) — a lazy client made from a function, getWorkspace(() => env.NS.get(id)), reconnects by itself on its next call. " +
      "A call in flight when it happened may or may not have taken effect.",
  });
  // The next call loads again (the function is called a second time) and sees the stored bytes.
  expect(await ws.fs.readFile("/workspace/a.txt", "utf8")).toBe("A");
  expect(calls).toBe(2);
  await ws.fs.writeFile("/workspace/b.txt", "B");
  expect(await ws.fs.readFile("/workspace/b.txt", "utf8")).toBe("B");
  expect(calls).toBe(2);
  ws[Symbol.dispose]();
}, 60_000);

it("a loaded client (and a lazy client from a stub) keeps rejecting ECONNRESET, naming each call", async () => {
  const { stub, fresh } = durable();
  using loaded = await getWorkspace(fresh());
  const lazy = getWorkspace(fresh());
  await loaded.fs.mkdir("/workspace", { recursive: true });
  expect((await lazy.fs.stat("/workspace")).isDirectory).toBe(true);
  await restart(stub);
  for (const [name, p] of [
    ["fs.stat", loaded.fs.stat("/workspace")],
    ["runtime.exec", loaded.runtime.exec("export default () => 1")],
    ["runtime.pending", loaded.runtime.pending()],
    ["git.cli", loaded.git.cli({ args: ["status"] })],
    ["fs.stat", lazy.fs.stat("/workspace")],
    ["fs.stat", lazy.fs.stat("/workspace")],
  ] as const) {
    const o = (await outcome(p as Promise<unknown>)) as { code?: string; message?: string; cause?: string };
    expect(o.code, name).toBe("ECONNRESET");
    expect(o.message?.startsWith(`${name}: the Durable Object behind this workspace client restarted`), o.message).toBe(true);
    expect(o.cause).toBe(WORKERD);
  }
  // The object itself is fine: a new client reads it.
  using again = await getWorkspace(fresh());
  expect((await again.fs.stat("/workspace")).isDirectory).toBe(true);
  lazy[Symbol.dispose]();
}, 60_000);
