/**
 * Issue 20 ninth attack run (part B), category 3: a replay run
 * (`onInterrupt: "replay"`) whose `ws:git` call is in flight when the
 * Durable Object is aborted (`ctx.abort()` right after the commit's branch
 * write is stored, before the call's answer is journaled).
 *
 * DEFECT (medium) — `ws:git` (src/modules/git.ts) runs the call again when
 * the run resumes: its functions are neither deduplicated by `ctx.callId`
 * (as `ws:container` does since attack8 container-replay-twice, and as
 * docs/runtime.md tells module authors to do) nor marked `unsafeToRepeat`.
 * A git write is not idempotent, so the resumed run is told something that
 * did not happen the first time:
 * (a) `cli({ argv: ["commit", "-am", "x"] })` — the commit WAS made (log:
 *     x, base), but the replayed call answers exit 1 "nothing to commit,
 *     working tree clean": the run reports its commit as failed;
 *     expected: the resumed call answers as the first did (exit 0,
 *     "[<oid7>] x"), or the run fails "isn't safe to repeat (unsafeToRepeat)";
 * (b) `commit --allow-empty -m x` — the commit is made TWICE (log: x, x,
 *     base); expected one.
 * (`push`, `tag`, `branch`, `stash` and `merge` repeat the same way: a
 * second stash entry of nothing, "already exists", a merge commit
 * repeated…).
 *
 * FIXED — (b): writing ws:git calls (`clone`, `cli` unless its subcommand
 * only reads) go through `atMostOnce` / `markAtMostOnce`
 * (src/modules/replay.ts, the ctx.callId mechanism moved out of
 * ws:container, which uses it too): the call's start is journaled before
 * git runs, and a resumed call is not run again — it rejects `EEXEC_LOST`
 * (`ws:git cli: this call was in flight when the run was interrupted (call
 * "ws:git:run1:1"), and git may have made its change before it; it is not
 * run again. …`). The commit is made once.
 * (a): git runs inside the object, so its answer dies with it and cannot be
 * given as the first attempt's; the resumed run fails with that EEXEC_LOST
 * rejection (the header's second outcome: told, not misled), the commit
 * made once.
 * test/workers/git/module-replay.test.ts covers the rejection exactly.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { WORKSPACE } from "../../../src/do/symbol.js";
import { getWorkspace, type Workspace } from "../../../src/index.js";

type Fs = Record<string, (...a: unknown[]) => unknown>;
const JS = "worker-javascript";

/** Runs `argv` through ws:git in a replay run of a fresh GitAgent; the object is aborted 150 ms after the branch write; returns the resumed run's result and the log. */
async function crashedCommit(argv: string[]) {
  const id = env.GIT_AGENT.newUniqueId();
  {
    using ws = await getWorkspace(env.GIT_AGENT.get(id));
    await ws.fs.mkdir("/workspace/repo", { recursive: true });
    await ws.fs.writeFile("/workspace/repo/a.txt", "a\n");
    for (const a of [["init"], ["add", "."], ["commit", "-m", "base"]]) expect((await ws.git.cli({ argv: a, cwd: "/workspace/repo" })).exitCode).toBe(0);
    await ws.fs.writeFile("/workspace/repo/a.txt", "changed\n");
  }
  const crash = await runInDurableObject(env.GIT_AGENT.get(id), async (instance, state) => {
    const ws = (instance as unknown as Record<symbol, Workspace>)[WORKSPACE];
    const fs = ws.fs as unknown as Fs;
    const write = fs.writeFile!.bind(ws.fs);
    fs.writeFile = async (...a: unknown[]) => {
      const done = await write(...a);
      if (String(a[0]) === "/workspace/repo/.git/refs/heads/main") {
        // The branch write is stored; the call's answer is not yet journaled.
        await new Promise((resolve) => setTimeout(resolve, 150));
        state.abort("attack9b: crash after the commit");
      }
      return done;
    };
    const h = await ws.runtime.exec(
      `import { cli } from "ws:git";
       export default async () => cli({ argv: ${JSON.stringify(argv)}, cwd: "repo" });`,
      { id: "run1", onInterrupt: "replay", encoding: "utf8", backend: JS },
    );
    return h.result();
  }).then(
    (r) => `no abort: ${JSON.stringify(r)}`,
    (e: Error) => `aborted: ${e.message}`,
  );
  expect(crash).toBe("aborted: attack9b: crash after the commit");
  using ws = await getWorkspace(env.GIT_AGENT.get(id));
  using h = await ws.runtime.getExec("run1", { encoding: "utf8", backend: JS });
  const result = await Promise.race([h.result(), new Promise<string>((r) => setTimeout(() => r("pending after 30 s"), 30_000))]);
  const log = (await ws.git.cli({ argv: ["log", "--format=%s"], cwd: "/workspace/repo" })).stdout;
  return { result, log };
}

describe("attack9b: ws:git call in flight when a replay run is interrupted", () => {
  it("(a) commit -am: the resumed run is told what happened (the commit was made)", { timeout: 90_000 }, async () => {
    const { result, log } = await crashedCommit(["commit", "-am", "x"]);
    expect(log).toBe("x\nbase\n");
    // Was: value { stdout: "On branch main\nnothing to commit, working tree clean\n", exitCode: 1 }.
    // The first attempt's answer died with the object; the resumed call is not run again and says so (the header's second outcome).
    expect(result).toMatchObject({ status: "failed" });
    expect(JSON.stringify(result)).toContain("this call was in flight when the run was interrupted");
  });

  it("(b) commit --allow-empty: the commit is made once", { timeout: 90_000 }, async () => {
    const { log } = await crashedCommit(["commit", "--allow-empty", "-m", "x"]);
    // Actual: "x\nx\nbase\n".
    expect(log).toBe("x\nbase\n");
  });
});
