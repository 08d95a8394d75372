/**
 * Issue 20, twenty-seventh attack run, fixer GD — siblings of test/workers/attack27c/client-git-cli-signal-datacloneerror:
 * a remote client's `git.cli` with a `signal` answers as the same call in the object (`getWorkspace(instance)` inside
 * `runInDurableObject`) for every reason shape and for commands that stop before any git operation (usage errors,
 * `version`), and a non-signal `signal` is refused the same way; nothing is written by a cancelled call.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";
import type { GitCliInput } from "../../../src/git/types.js";

async function settle(run: () => Promise<unknown>): Promise<unknown> {
  try {
    return await run();
  } catch (error) {
    const e = error as Error & { code?: unknown };
    return { rejected: e?.name, code: e?.code, message: e?.message };
  }
}

/** The calls, each with a fresh signal (aborted as `abort` says). */
function calls(): { name: string; input: () => GitCliInput }[] {
  const aborted = (reason?: unknown) => {
    const c = new AbortController();
    if (reason === undefined) c.abort();
    else c.abort(reason);
    return c.signal;
  };
  return [
    { name: "live status", input: () => ({ argv: ["status", "--porcelain=v1"], cwd: "/r", signal: new AbortController().signal }) },
    { name: "aborted, Error reason", input: () => ({ argv: ["status", "--porcelain=v1"], cwd: "/r", signal: aborted(new Error("stop")) }) },
    { name: "aborted, string reason", input: () => ({ argv: ["add", "a.txt"], cwd: "/r", signal: aborted("enough") }) },
    { name: "aborted, default reason", input: () => ({ argv: ["commit", "-m", "x"], cwd: "/r", signal: aborted() }) },
    { name: "AbortSignal.abort()", input: () => ({ argv: ["log"], cwd: "/r", signal: AbortSignal.abort() }) },
    { name: "aborted, usage error first", input: () => ({ argv: ["status", "--nope"], cwd: "/r", signal: aborted(new Error("stop")) }) },
    { name: "aborted, version (no operation)", input: () => ({ argv: ["version"], cwd: "/r", signal: aborted(new Error("stop")) }) },
    { name: "live add", input: () => ({ argv: ["add", "a.txt"], cwd: "/r", signal: new AbortController().signal }) },
    { name: "not a signal", input: () => ({ argv: ["status"], cwd: "/r", signal: {} as AbortSignal }) },
  ];
}

describe("fix27 (GD): remote git.cli with a signal answers as the object", () => {
  it("every reason shape, usage errors and version first, a live signal ignored; the index untouched by a cancel", { timeout: 120_000 }, async () => {
    const ns = env.GIT_AGENT;
    const prepare = async (ws: Awaited<ReturnType<typeof getWorkspace>>) => {
      expect((await ws.git.cli({ argv: ["init", "-q", "/r"] })).exitCode).toBe(0);
      await ws.fs.writeFile("/r/a.txt", "a\n");
    };
    const remoteStub = ns.get(ns.newUniqueId());
    const remote: unknown[] = [];
    {
      using ws = await getWorkspace(remoteStub);
      await prepare(ws);
      for (const c of calls()) {
        remote.push({ name: c.name, result: await settle(() => ws.git.cli(c.input())) });
        if (c.name === "aborted, string reason") remote.push({ name: "index after cancelled add", result: (await ws.git.cli({ argv: ["status", "--porcelain=v1"], cwd: "/r" })).stdout });
      }
    }
    const local = await runInDurableObject(ns.get(ns.newUniqueId()), async (instance) => {
      const out: unknown[] = [];
      using ws = await getWorkspace(instance as never);
      await prepare(ws);
      for (const c of calls()) {
        out.push({ name: c.name, result: await settle(() => ws.git.cli(c.input())) });
        if (c.name === "aborted, string reason") out.push({ name: "index after cancelled add", result: (await ws.git.cli({ argv: ["status", "--porcelain=v1"], cwd: "/r" })).stdout });
      }
      return out;
    });
    // Was (remote, every call with an AbortSignal): { rejected: "DataCloneError", code: 25, message: "AbortSignal serialization is not enabled." }.
    expect(remote).toEqual(local);
    expect(remote.slice(0, 3)).toEqual([
      { name: "live status", result: { stdout: "?? a.txt\n", stderr: "", exitCode: 0 } },
      { name: "aborted, Error reason", result: { stdout: "", stderr: "git status: cancelled: stop; it did not start, so nothing changed\n", exitCode: 1 } },
      { name: "aborted, string reason", result: { stdout: "", stderr: "git add: cancelled: enough; it did not start, so nothing changed\n", exitCode: 1 } },
    ]);
    expect(remote[3]).toEqual({ name: "index after cancelled add", result: "?? a.txt\n" });
  });
});
