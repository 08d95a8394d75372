/**
 * Issue 20 fifth attack run, category 5 with git: a real `ctx.abort()` of a
 * Durable Object with git (`GitAgent`) in the middle of a `git clone` from
 * the loopback smart-HTTP server — as the pack is written and as its index
 * is written (the crash is raised from inside the Workspace write the
 * clone makes, so it lands there for certain). After the restart: storage
 * is sound (attack3 `integrityProblems`), the half-made repository answers
 * `status`, `log` and `ls-files` in bounded time, as the empty repository
 * the clone's `init` left (HEAD → master, no commit) — a state the real git
 * accepts — and after `rm -r` (as after a crashed real `git clone`) a
 * retried clone gives the fixture's history.
 *
 * (A crash inside isomorphic-git's ref or index lock — the ref write of the
 * clone, its checkout — leaves that lock held for the isolate's life:
 * open.test.ts O1.)
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { WORKSPACE } from "../../../src/do/symbol.js";
import { getWorkspace, type Workspace } from "../../../src/index.js";
import { gitServer, repoUrl } from "../../shared/git-remote.js";
import { integrityProblems } from "../../shared/attack3/integrity.js";

type CliAnswer = { stdout: string; stderr: string; exitCode: number };
/** The answer, or `"hung <ms> ms"`. */
const within = (ms: number, promise: Promise<unknown>): Promise<CliAnswer | string> =>
  Promise.race([promise as Promise<CliAnswer>, new Promise<string>((resolve) => setTimeout(() => resolve(`hung ${ms} ms`), ms))]);

describe("attack5: ctx.abort() mid git clone", () => {
  for (const [label, at] of [
    ["as the pack is written", /\/objects\/pack\/pack-[0-9a-f]{40}\.pack$/],
    ["as the pack's index is written", /\/objects\/pack\/pack-[0-9a-f]{40}\.idx$/],
  ] as const) {
    it(`${label}: storage sound, the repository answers, rm -r and a retried clone work`, { timeout: 90_000 }, async () => {
      const id = env.GIT_AGENT.newUniqueId();
      const aborted = await runInDurableObject(env.GIT_AGENT.get(id), async (instance, state) => {
        const ws = (instance as unknown as Record<symbol, Workspace>)[WORKSPACE];
        const fs = ws.fs as unknown as Record<string, (...a: unknown[]) => unknown>;
        const write = fs.writeFile!.bind(ws.fs);
        fs.writeFile = (...a: unknown[]) => {
          if (at.test(String(a[0]))) state.abort("attack5: crash mid clone");
          return write(...a);
        };
        await ws.git.clone({ url: repoUrl("fixture"), dir: "/repo" });
      }).then(() => "no abort", (e: Error) => `aborted: ${e.message}`);
      expect(aborted).toBe("aborted: attack5: crash mid clone");

      expect(await runInDurableObject(env.GIT_AGENT.get(id), (_i, state) => integrityProblems(state.storage.sql))).toEqual([]);
      using ws = await getWorkspace(env.GIT_AGENT.get(id));
      const answers = [];
      for (const argv of [["status", "--porcelain"], ["log", "--oneline"], ["ls-files"]]) answers.push(await within(15_000, ws.git.cli({ argv, cwd: "/repo" })));
      expect(answers).toEqual([
        { stdout: "", stderr: "", exitCode: 0 },
        { stdout: "", stderr: "git log: your current branch 'master' does not have any commits yet\n", exitCode: 1 },
        { stdout: "", stderr: "", exitCode: 0 },
      ]);
      // Retry as after a crashed real git clone: remove the remains, clone again.
      expect(await within(15_000, ws.git.cli({ argv: ["clone", repoUrl("fixture"), "/repo"] }))).toEqual({
        stdout: "",
        stderr: "Cloning into '/repo'...\ngit clone: destination '/repo' already holds a repository (/repo/.git)\n",
        exitCode: 1,
      });
      await ws.fs.rm("/repo", { recursive: true });
      expect(await within(30_000, ws.git.cli({ argv: ["clone", repoUrl("fixture"), "/repo"] }))).toEqual({ stdout: "", stderr: "Cloning into '/repo'...\n", exitCode: 0 });
      const log = await within(15_000, ws.git.cli({ argv: ["log", "--format=%H"], cwd: "/repo" }));
      expect(typeof log === "string" ? log : log.stdout).toBe(gitServer().fixture.mainHistory.map((oid) => `${oid}\n`).join(""));
      expect(await within(15_000, ws.git.cli({ argv: ["status", "--porcelain"], cwd: "/repo" }))).toEqual({ stdout: "", stderr: "", exitCode: 0 });
      expect(await runInDurableObject(env.GIT_AGENT.get(id), (_i, state) => integrityProblems(state.storage.sql))).toEqual([]);
    });
  }
});
