/**
 * `ws:container` exec in a replay run (`onInterrupt: "replay"`) resumed
 * after a real `ctx.abort()` while its command ran (attack8
 * container-replay-twice): the resumed call reattaches to the command it
 * started (run id `ws:container:<callId>`) and never starts it again; when
 * that command can no longer be found it rejects `EEXEC_LOST`. Real local
 * daemon, TestBackend "box".
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { TestBackend } from "../../../src/backends/test-backend.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { createContainerModule } from "../../../src/modules/container.js";
import { startContainer, waitFor, type LocalContainer } from "./helpers.js";

const open = (state: DurableObjectState, c: LocalContainer) =>
  new Workspace({
    storage: state.storage,
    backends: [
      new WorkerJavaScriptBackend({ loader: env.LOADER, onInterrupt: "replay", modules: { "ws:container": createContainerModule({ backend: "box" }) } }),
      new TestBackend({ url: c.url, secret: c.secret, id: "box" }),
    ],
  });

const SOURCE = `import { exec } from "ws:container";
export default async () => {
  try {
    const r = await exec(${JSON.stringify(`echo ran >> count.txt; echo out; ${waitFor(".go")}; echo done >> count.txt`)}, { timeoutMs: 60000 });
    return { exitCode: r.exitCode, stdout: r.stdout };
  } catch (e) {
    return { error: [e.message, e.code ?? null] };
  }
};`;

/** Starts run r1 in a fresh object, aborts the object once the command runs; the object's id. */
async function startThenAbort(c: LocalContainer): Promise<DurableObjectId> {
  const id = env.TEST_DO.newUniqueId();
  const first = await runInDurableObject(env.TEST_DO.get(id), async (_i, state) => {
    const ws = open(state, c);
    await ws.fs.mkdir("/workspace", { recursive: true });
    await ws.runtime.exec(SOURCE, { backend: "worker-javascript", id: "r1", timeoutMs: 120_000 });
    while ((await c.text("count.txt")) !== "ran\n") await new Promise((r) => setTimeout(r, 20));
    state.abort("deploy");
  }).then(
    () => "no abort",
    (e: Error) => `aborted: ${e.message}`,
  );
  expect(first).toMatch(/^aborted: /);
  return id;
}

describe("ws:container in a replay run resumed after ctx.abort()", () => {
  it("a command that finished while the object was down: the resumed call returns its result, run once, and its record is disposed", async () => {
    const c = await startContainer();
    const id = await startThenAbort(c);
    await c.put(".go", "");
    while ((await c.text("count.txt")) !== "ran\ndone\n") await new Promise((r) => setTimeout(r, 20));
    await runInDurableObject(env.TEST_DO.get(id), async (_i, state) => {
      const ws = open(state, c);
      try {
        await ws.runtime.recover();
        const result = await (await ws.runtime.getExec("r1", { backend: "worker-javascript" })).result();
        expect(result).toMatchObject({ status: "completed", value: { exitCode: 0, stdout: "out\n" } });
        expect(await c.text("count.txt")).toBe("ran\ndone\n");
        await expect(ws.runtime.getExec("ws:container:r1:1", { backend: "box" })).rejects.toMatchObject({ code: "ENOENT" });
      } finally {
        await ws.close();
      }
    });
  });

  it("a command whose record is gone: the resumed call rejects EEXEC_LOST and does not start it again", async () => {
    const c = await startContainer();
    const id = await startThenAbort(c);
    await runInDurableObject(env.TEST_DO.get(id), async (_i, state) => {
      const ws = open(state, c);
      try {
        // Before the JavaScript backend connects (and resumes r1): stop and forget the command.
        await ws.runtime.killExec("ws:container:r1:1", { backend: "box", signal: "SIGKILL" });
        for (;;) {
          const gone = await ws.runtime.disposeExec("ws:container:r1:1", { backend: "box" }).then(
            () => true,
            (e: { code?: string }) => (e.code === "EEXEC_BUSY" ? false : Promise.reject(e)),
          );
          if (gone) break;
          await new Promise((r) => setTimeout(r, 20));
        }
        await ws.runtime.recover();
        await c.put(".go", "");
        const result = await (await ws.runtime.getExec("r1", { backend: "worker-javascript" })).result();
        expect(result).toMatchObject({
          status: "completed",
          value: {
            error: [
              'ws:container exec: this call was in flight when the run was interrupted, and its command (run "ws:container:r1:1" on backend "box") can no longer be found; it is not started again, since it may have run.',
              "EEXEC_LOST",
            ],
          },
        });
        expect(await c.text("count.txt")).toBe("ran\n");
      } finally {
        await ws.close();
      }
    });
  });
});
