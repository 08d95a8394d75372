/**
 * Issue 20 eighth attack run, category 5 (Durable Object aborts) on the
 * container backend — runs 2–7 aborted mid-write, mid-exec (JavaScript,
 * shell) and mid-git, never around a container command. A real
 * `ctx.abort()` (`state.abort()` in `runInDurableObject`) while a command
 * runs in a real local daemon; the object is then opened again (a new
 * Workspace over the same storage, TestBackend "box" on the same daemon).
 *
 * FIXED — right before a command is sent, RemoteSync.commandSent() marks a
 * pull pending ("a command was sent and its pull has not run yet …", durable
 * in __ws_sync_state) until the command's own pull (or deferral) settles it;
 * a push that finds that mark with no command of its own in flight (a new
 * life of the object) pulls first, so the interrupted command's changes win.
 *
 * DEFECT (medium) — the command's changes are lost to the next push.
 * Reproduction:
 *   // object, first life: f.txt = "v0" synced; then
 *   await ws.runtime.exec(`${waitFor(".go")}; echo container > f.txt; rm .go`, { backend: "box" });
 *   state.abort("deploy");                         // the command goes on in the container
 *   // second life (same storage, same daemon), while the command still waits:
 *   await ws.fs.writeFile("/workspace/f.txt", "workspace edit");
 *   await c.put(".go", "");                        // the command writes f.txt AFTER the Workspace did, and ends
 *   (await sh(ws, "cat f.txt")).stdout             // → "workspace edit"
 *   await ws.fs.readFile("/workspace/f.txt")       // → "workspace edit"; the container's "container\n" is gone on both sides
 * Nothing durable says a command was sent whose changes are not pulled yet
 * (`markPullPending` runs only when the pull fails or is deferred, after the
 * stream drains — never if the object dies first), and `push()` sends every
 * Workspace change since its cursor without looking at the container side
 * (the manifest row's revision is the only check), so the first command
 * after the restart overwrites what the interrupted command wrote.
 * Expected (docs/container.md "Sync" 4: "Container changes win. A file the
 * command changed replaces a version the Workspace wrote while the command
 * ran"): "container\n" in the Workspace and in the container; the next
 * command prints it.
 * Impact: medium — container commands are the long ones (npm ci, test
 * suites, builds) and a deploy, an eviction or an alarm-driven restart in
 * the middle is ordinary; the agent's next command then silently destroys
 * what the interrupted command produced (a lockfile, generated sources, a
 * test report) wherever the Workspace touched the same path meanwhile.
 * Fix proposal: record "pull pending" in `__ws_sync_state` before the
 * command is dispatched (cleared by the pull that follows it); when a push
 * starts with a pull pending, pull first (under the same lock), so the
 * container-wins rule applies, then push what is left.
 *
 * Withstood (below): after the abort, `workspace.pull()` in the new life
 * brings the interrupted command's file (the walk against the manifest
 * finds it), nothing partial is left, and the daemon still runs the
 * command to its end.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { TestBackend } from "../../../src/backends/test-backend.js";
import { drain, sh, startContainer, waitFor, type LocalContainer } from "../container/helpers.js";

const open = (state: DurableObjectState, c: LocalContainer) =>
  new Workspace({ storage: state.storage, backends: [new TestBackend({ url: c.url, secret: c.secret, id: "box" })] });

/** First life: f.txt = "v0" synced, then a command started that writes f.txt once .go exists; then ctx.abort(). */
async function startThenAbort(c: LocalContainer) {
  const id = env.TEST_DO.newUniqueId();
  const outcome = await runInDurableObject(env.TEST_DO.get(id), async (_i, state) => {
    const ws = open(state, c);
    await ws.fs.mkdir("/workspace", { recursive: true });
    await ws.fs.writeFile("/workspace/f.txt", "v0");
    expect((await sh(ws, "true")).pushed).toBe(1);
    await ws.runtime.exec(`${waitFor(".go")}; echo container > f.txt; rm .go`, { backend: "box", encoding: "utf8", timeoutMs: 60_000, id: "long" });
    state.abort("deploy");
  }).then(
    () => "no abort",
    (e: Error) => `aborted: ${e.message}`,
  );
  expect(outcome).toMatch(/^aborted: /);
  return id;
}

/** Resolves once the command has written f.txt in the container (a state, polled). */
async function commandDone(c: LocalContainer) {
  while ((await c.text("f.txt")) !== "container\n" || (await c.text(".go")) !== null) await new Promise((r) => setTimeout(r, 20));
}

describe("attack8: ctx.abort() while a container command runs", () => {
  it("the interrupted command's change wins over a Workspace write made while it ran (not overwritten by the next push)", async () => {
    const c = await startContainer();
    const id = await startThenAbort(c);
    await runInDurableObject(env.TEST_DO.get(id), async (_i, state) => {
      const ws = open(state, c);
      try {
        await ws.fs.writeFile("/workspace/f.txt", "workspace edit");
        await c.put(".go", "");
        await commandDone(c);
        const next = await sh(ws, "cat f.txt");
        expect(next.stdout).toBe("container\n");
        expect(await ws.fs.readFile("/workspace/f.txt", "utf8")).toBe("container\n");
      } finally {
        await ws.close();
      }
    });
  });

  it("after the abort, workspace.pull() brings the interrupted command's change", async () => {
    const c = await startContainer();
    const id = await startThenAbort(c);
    await runInDurableObject(env.TEST_DO.get(id), async (_i, state) => {
      const ws = open(state, c);
      try {
        await c.put(".go", "");
        await commandDone(c);
        const progress = await drain(ws.pull("box"));
        expect(progress).toHaveLength(1);
        expect(progress[0]).toMatchObject({ complete: true, backend: "box", entries: 1, skipped: 0 });
        expect(await ws.fs.readFile("/workspace/f.txt", "utf8")).toBe("container\n");
        await expect(ws.fs.lstat("/workspace/.go")).rejects.toMatchObject({ code: "ENOENT" });
        const next = await sh(ws, "cat f.txt");
        expect(next.stdout).toBe("container\n");
        expect([next.pushed, next.pulled]).toEqual([0, 0]);
      } finally {
        await ws.close();
      }
    });
  });
});
