/**
 * Issue 20 eighth attack run, category 5 (Durable Object aborts mid-exec)
 * with the newest surfaces together: a durable JavaScript run
 * (`onInterrupt: "replay"`, docs/runtime.md "Approvals and durable runs")
 * that calls `ws:container` exec, and a real `ctx.abort()` while the
 * container command runs (real local daemon, TestBackend "box").
 *
 * FIXED — ws:container runs the command under the id `ws:container:<callId>`
 * (stable across replays) and host functions get `ctx.resumed` (the call was
 * in flight when its replay run was interrupted); a resumed call reattaches
 * with `getExec` to that command (running or finished) and returns its
 * result, never starting it again; when the command can no longer be found
 * it rejects EEXEC_LOST. The command's record is disposed once its result
 * is read (so a later run reusing the JavaScript run's id cannot find it).
 * docs/runtime.md "Approvals and durable runs" and ws:container;
 * test/workers/container/module-replay.test.ts.
 *
 * DEFECT (medium) — reproduction:
 *   // JavaScript backend { onInterrupt: "replay", modules: { "ws:container": createContainerModule({ backend: "box" }) } }
 *   await ws.runtime.exec(`import { exec } from "ws:container";
 *     export default async () => (await exec("echo ran >> count.txt; while [ ! -e .go ]; do sleep 0.02; done")).exitCode;`, { id: "r1" });
 *   // once count.txt holds "ran\n" (the command is running): state.abort("deploy")
 *   // new life: await ws.runtime.recover();   then .go is made, and the run ends
 *   await c.text("count.txt")   // → "ran\nran\n"
 * The in-flight host call runs again when the run resumes (as docs say of
 * host calls), and ws:container starts the command again under a new random
 * run id — while the first command is still running in the container (the
 * daemon outlives the object). The shell command runs twice, concurrently.
 * Expected: a resumed ws:container call does not start its command a second
 * time: it reattaches to the run it started (the container keeps it:
 * `getExec`) — "ran\n" once — or, if it cannot, the call fails as an
 * `unsafeToRepeat` call does ("… isn't safe to repeat").
 * Impact: medium — the commands models run in the container are exactly
 * the ones not safe to repeat (`git push`, `npm publish`, a migration, a
 * `curl -X POST`, `>> log`); docs tell host-module authors to deduplicate by
 * `ctx.callId` or mark `unsafeToRepeat`, and the library's own module does
 * neither; two copies racing on one tree can also corrupt it (two
 * `npm ci` at once).
 * Fix proposal: run the command with a run id derived from `ctx.callId`
 * (stable across replays) and, when that id already exists in the backend
 * (`EEXEC_BUSY` or a finished run), reattach with `getExec(id)` and return
 * its result; in runs without replay keep the random id. Or wrap the
 * module's `exec` with `unsafeToRepeat`.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { TestBackend } from "../../../src/backends/test-backend.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { createContainerModule } from "../../../src/modules/container.js";
import { startContainer, waitFor, type LocalContainer } from "../container/helpers.js";

const open = (state: DurableObjectState, c: LocalContainer) =>
  new Workspace({
    storage: state.storage,
    backends: [
      new WorkerJavaScriptBackend({ loader: env.LOADER, onInterrupt: "replay", modules: { "ws:container": createContainerModule({ backend: "box" }) } }),
      new TestBackend({ url: c.url, secret: c.secret, id: "box" }),
    ],
  });

const SOURCE = `import { exec } from "ws:container";
export default async () => (await exec(${JSON.stringify(`echo ran >> count.txt; ${waitFor(".go")}`)}, { timeoutMs: 60000 })).exitCode;`;

describe("attack8: a replay run resumed after ctx.abort() mid ws:container command", () => {
  it("the in-flight container command is not started a second time when the run resumes", async () => {
    const c = await startContainer();
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
    await runInDurableObject(env.TEST_DO.get(id), async (_i, state) => {
      const ws = open(state, c);
      try {
        await ws.runtime.recover();
        // Let the resumed call reach the container (it either reattaches or starts again), then release the command(s).
        const handle = await ws.runtime.getExec("r1", { backend: "worker-javascript" });
        await c.put(".go", "");
        const result = await handle.result();
        expect(result).toMatchObject({ status: "completed", value: 0 });
        expect(await c.text("count.txt")).toBe("ran\n");
      } finally {
        await ws.close();
      }
    });
  });
});
