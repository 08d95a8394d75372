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
 * Also a crash mid `checkout` (at the third working-tree file, after the
 * first two were committed): the restarted object is as real git leaves a
 * crashed checkout — on the old branch, the index untouched, the two files
 * written as unstaged changes — `checkout -- .` makes it clean, and `add`
 * works there and in another object with a repository at the same path.
 *
 * (A crash inside isomorphic-git's ref lock — the ref write of a commit or
 * clone — leaves that lock held for the isolate's life: open.test.ts O1.)
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

const gitAgentId = () => env.GIT_AGENT.newUniqueId();

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
        { stdout: "", stderr: "git log: your current branch 'master' does not have any commits yet\n", exitCode: 128 },
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

describe("attack5: ctx.abort() mid checkout", () => {
  it("the restarted object answers status, add works there and in another object with a repository at the same path", { timeout: 60_000 }, async () => {
    // A path of its own: the index lock this test poisons (before the fix) is keyed by the index's path alone.
    const dir = "/attack5-o1b";
    const id = gitAgentId();
    {
      using ws = await getWorkspace(env.GIT_AGENT.get(id));
      await ws.fs.mkdir(dir);
      await ws.git.cli({ argv: ["init", "-b", "main"], cwd: dir });
      for (let i = 0; i < 5; i++) await ws.fs.writeFile(`${dir}/f${i}.txt`, `${i}\n`);
      await ws.git.cli({ argv: ["add", "-A"], cwd: dir });
      await ws.git.cli({ argv: ["commit", "-m", "one"], cwd: dir });
      await ws.git.cli({ argv: ["checkout", "-b", "two"], cwd: dir });
      for (let i = 0; i < 5; i++) await ws.fs.writeFile(`${dir}/f${i}.txt`, `${i} two\n`);
      await ws.git.cli({ argv: ["commit", "-a", "-m", "two"], cwd: dir });
    }
    const aborted = await runInDurableObject(env.GIT_AGENT.get(id), async (instance, state) => {
      const ws = (instance as unknown as Record<symbol, Workspace>)[WORKSPACE];
      const fs = ws.fs as unknown as Record<string, (...a: unknown[]) => unknown>;
      const write = fs.writeFile!.bind(ws.fs);
      fs.writeFile = async (...a: unknown[]) => {
        if (String(a[0]) === `${dir}/f2.txt`) {
          // A moment on a timer first: the writes so far (f0, f1) are committed, as they may be under load.
          await new Promise((resolve) => setTimeout(resolve, 20));
          state.abort("attack5: crash mid checkout");
        }
        return write(...a);
      };
      await ws.git.checkout({ dir, ref: "main" });
    }).then(() => "no abort", (e: Error) => `aborted: ${e.message}`);
    expect(aborted).toBe("aborted: attack5: crash mid checkout");

    expect(await runInDurableObject(env.GIT_AGENT.get(id), (_i, state) => integrityProblems(state.storage.sql))).toEqual([]);
    using restarted = await getWorkspace(env.GIT_AGENT.get(id));
    const branch = await within(10_000, restarted.git.cli({ argv: ["branch", "--show-current"], cwd: dir }));
    const status = await within(10_000, restarted.git.cli({ argv: ["status", "--porcelain"], cwd: dir }));
    // As after a crashed real git checkout: still on two, the index untouched (it is written once, at
    // the end), the files written before the crash show as unstaged changes — never staged, never a hang.
    expect([branch, status]).toEqual([
      { stdout: "two\n", stderr: "", exitCode: 0 },
      // (bare --porcelain is v2 here, spec 04 §2.5: `.M` = unchanged in the index, changed in the tree)
      { stdout: "1 .M f0.txt\n1 .M f1.txt\n", stderr: "", exitCode: 0 },
    ]);
    expect(await within(10_000, restarted.git.cli({ argv: ["checkout", "--", "."], cwd: dir }))).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    expect(await within(10_000, restarted.git.cli({ argv: ["status", "--porcelain"], cwd: dir }))).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    expect(await restarted.fs.readFile(`${dir}/f0.txt`, "utf8")).toBe("0 two\n");
    await restarted.fs.writeFile(`${dir}/new.txt`, "new\n");
    const retry = await within(10_000, restarted.git.cli({ argv: ["add", "new.txt"], cwd: dir }));
    using other = await getWorkspace(env.GIT_AGENT.get(gitAgentId()));
    await other.fs.mkdir(dir);
    await other.git.cli({ argv: ["init"], cwd: dir });
    await other.fs.writeFile(`${dir}/b.txt`, "b\n");
    const elsewhere = await within(10_000, other.git.cli({ argv: ["add", "b.txt"], cwd: dir }));
    const show = (r: CliAnswer | string) => (typeof r === "string" ? r : `${r.exitCode} ${r.stderr}`);
    expect([show(retry), show(elsewhere)]).toEqual(["0 ", "0 "]);
  });
});
