/**
 * `ws:git` calls in a replay run (`onInterrupt: "replay"`) in flight when the
 * Durable Object is aborted (real `ctx.abort()` in workerd, GitAgent): a
 * writing call (`cli` commit) is never run again — the resumed call rejects
 * `EEXEC_LOST` and the commit exists once — even when the abort comes right
 * after the write (its start is journaled before git runs, not with the next
 * 50 ms flush; the commit then exists once or, the write lost, not at all); a read-only call (`cli` status) runs again and answers.
 * See also test/workers/attack9b/replay-git-twice.test.ts.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { WORKSPACE } from "../../../src/do/symbol.js";
import { getWorkspace, type Workspace } from "../../../src/index.js";
import { cliWrites } from "../../../src/modules/git.js";

type Fs = Record<string, (...a: unknown[]) => unknown>;
const JS = "worker-javascript";

/**
 * A repo with one commit "base" and a changed a.txt; runs `argv` through
 * ws:git (errors caught: `{ error: [message, code] }`) in replay run "run1";
 * the object is aborted when `method` is called on `path` (`waitMs` after
 * it returns). Returns the resumed run's result and the log.
 */
async function crashed(argv: string[], method: "writeFile" | "readFile", path: string, waitMs: number) {
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
    const original = fs[method]!.bind(ws.fs);
    fs[method] = async (...a: unknown[]) => {
      const done = await original(...a);
      if (String(a[0]) === path) {
        if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
        state.abort("crash in ws:git");
      }
      return done;
    };
    const h = await ws.runtime.exec(
      `import { cli } from "ws:git";
       export default async () => {
         try { return await cli({ argv: ${JSON.stringify(argv)}, cwd: "repo" }); }
         catch (e) { return { error: [e.message, e.code ?? null] }; }
       };`,
      { id: "run1", onInterrupt: "replay", encoding: "utf8", backend: JS },
    );
    return h.result();
  }).then(
    (r) => `no abort: ${JSON.stringify(r)}`,
    (e: Error) => `aborted: ${e.message}`,
  );
  expect(crash).toBe("aborted: crash in ws:git");
  using ws = await getWorkspace(env.GIT_AGENT.get(id));
  using h = await ws.runtime.getExec("run1", { encoding: "utf8", backend: JS });
  const result = await Promise.race([h.result(), new Promise<string>((r) => setTimeout(() => r("pending after 30 s"), 30_000))]);
  const log = (await ws.git.cli({ argv: ["log", "--format=%s"], cwd: "/workspace/repo" })).stdout;
  return { result, log };
}

const LOST = [
  'ws:git cli: this call was in flight when the run was interrupted (call "ws:git:run1:1"), and git may have made its change before it; it is not run again. Look at the repository (status, log) to see what happened.',
  "EEXEC_LOST",
];

describe("ws:git in a replay run resumed after ctx.abort()", () => {
  it("a commit interrupted after its branch write: the resumed call rejects EEXEC_LOST, the commit exists once", { timeout: 90_000 }, async () => {
    const { result, log } = await crashed(["commit", "--allow-empty", "-m", "x"], "writeFile", "/workspace/repo/.git/refs/heads/main", 150);
    expect(result).toMatchObject({ status: "completed", value: { error: LOST } });
    expect(log).toBe("x\nbase\n");
  });

  it("aborted right after the branch write (within the journal's 50 ms flush): still not run again", { timeout: 90_000 }, async () => {
    const { result, log } = await crashed(["commit", "--allow-empty", "-m", "x"], "writeFile", "/workspace/repo/.git/refs/heads/main", 0);
    // Without its start journaled at once, the resumed run would not know the call and would commit again (exit 0).
    expect(result).toMatchObject({ status: "completed", value: { error: LOST } });
    // The abort may drop the branch write it follows (not yet durable): the commit is made once or not at all, never twice.
    expect(["x\nbase\n", "base\n"]).toContain(log);
  });

  it("a read-only call (status) runs again and answers", { timeout: 90_000 }, async () => {
    const { result, log } = await crashed(["status", "--short"], "readFile", "/workspace/repo/a.txt", 150);
    expect(result).toMatchObject({ status: "completed", value: { stdout: " M a.txt\n", stderr: "", exitCode: 0 } });
    expect(log).toBe("base\n");
  });
});

describe("cliWrites", () => {
  it("counts as writing every command line but the read-only subcommands", () => {
    expect(cliWrites([{ argv: ["commit", "-m", "x"] }])).toBe(true);
    expect(cliWrites([{ argv: ["branch"] }])).toBe(true);
    expect(cliWrites([{ argv: ["-C", "repo", "push"] }])).toBe(true);
    expect(cliWrites([{ argv: [] }])).toBe(true);
    expect(cliWrites([{ argv: "log" }])).toBe(true);
    expect(cliWrites([null])).toBe(true);
    expect(cliWrites([])).toBe(true);
    expect(cliWrites([{ argv: ["status"] }])).toBe(false);
    expect(cliWrites([{ argv: ["-C", "repo", "log", "--oneline"] }])).toBe(false);
    for (const sub of ["help", "version", "show", "diff", "rev-parse", "ls-files", "ls-tree", "cat-file"]) expect(cliWrites([{ argv: [sub] }])).toBe(false);
  });
});
