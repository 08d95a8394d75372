/**
 * Issue 20 ninth attack run (part B), category 2: a sweep of `ctx.abort()`
 * at every Workspace write (writeFile/rm/mkdir/symlink/rename, a 50 ms timer
 * first so the earlier writes are confirmed) of checkout <branch>, merge
 * (fast-forward and three-way), reset --hard HEAD~1, stash, stash pop,
 * checkout <ref> -- ., commit -a. Storage was sound after every crash and
 * status/log/stash list answered at once; the working tree is written before
 * `.git/index`, and the index before HEAD/the branch, as real git orders
 * checkout, merge and reset (its index is committed before `update_ref`), so
 * a crash between index and ref leaving staged entries is real git's state too.
 *
 * FIXED — `commit` takes `all` (the CLI's `-a` passes it): the tree is built from
 * the would-be index in memory (changed tracked files' blobs written, removed
 * ones dropped), the commit is made with that tree and the branch moved, and
 * `.git/index` is written last — a crash before leaves it unchanged (` M`).
 *
 * DEFECT (low) — `git commit -a` writes `.git/index` (the modified files
 * staged) BEFORE it writes the commit and moves the branch. A crash between
 * the two leaves the files staged although no commit was made. Real git
 * writes that index to `index.lock` and commits it only after the branch ref
 * is updated (builtin/commit.c prepare_index → write_locked_index without
 * COMMIT_LOCK; commit_index_files after update_ref), so after a crash its
 * index is unchanged: the changes show unstaged (` M`), as before the
 * command.
 * Reproduction: repo with f0..f2 committed, then changed; crash `git commit
 * -a -m c` at the write of `.git/refs/heads/main`; restart:
 *   expected: log "base", status " M f0.txt\n M f1.txt\n M f2.txt\n" (or the
 *   commit made and status clean);
 *   actual:   log "base", status "M  f0.txt\nM  f1.txt\nM  f2.txt\n".
 * Impact: small (the staged content is the user's own change; a plain
 * `git commit` afterwards commits it) — but an agent that checks `status`
 * after a restart sees staged work it never staged, and `commit -a` after a
 * crash is no longer "as before the command".
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { WORKSPACE } from "../../../src/do/symbol.js";
import { getWorkspace, type Workspace } from "../../../src/index.js";
import { integrityProblems } from "../../shared/attack3/integrity.js";

type Fs = Record<string, (...a: unknown[]) => unknown>;
type Client = Awaited<ReturnType<typeof getWorkspace>>;
const cli = async (ws: Client, ...argv: string[]) => ws.git.cli({ argv, cwd: "/repo" });

describe("attack9b: ctx.abort() mid git commit -a", () => {
  it("at the branch write: the index is as before the command (changes unstaged), or the commit is made", { timeout: 60_000 }, async () => {
    const id = env.GIT_AGENT.newUniqueId();
    {
      using ws = await getWorkspace(env.GIT_AGENT.get(id));
      await ws.fs.mkdir("/repo", { recursive: true });
      for (let i = 0; i < 3; i++) await ws.fs.writeFile(`/repo/f${i}.txt`, `base ${i}\n`);
      await cli(ws, "init");
      await cli(ws, "add", ".");
      expect((await cli(ws, "commit", "-m", "base")).exitCode).toBe(0);
      for (let i = 0; i < 3; i++) await ws.fs.writeFile(`/repo/f${i}.txt`, `changed ${i}\n`);
    }
    const crash = await runInDurableObject(env.GIT_AGENT.get(id), async (instance, state) => {
      const ws = (instance as unknown as Record<symbol, Workspace>)[WORKSPACE];
      const fs = ws.fs as unknown as Fs;
      const write = fs.writeFile!.bind(ws.fs);
      fs.writeFile = async (...a: unknown[]) => {
        if (String(a[0]) === "/repo/.git/refs/heads/main") {
          await new Promise((resolve) => setTimeout(resolve, 50));
          state.abort("attack9b: crash in git commit -a");
        }
        return write(...a);
      };
      return ws.git.cli({ argv: ["commit", "-a", "-m", "c"], cwd: "/repo" });
    }).then(
      (r) => `no abort: ${JSON.stringify(r)}`,
      (e: Error) => `aborted: ${e.message}`,
    );
    expect(crash).toBe("aborted: attack9b: crash in git commit -a");
    expect(await runInDurableObject(env.GIT_AGENT.get(id), (_i, s) => integrityProblems(s.storage.sql))).toEqual([]);
    using ws = await getWorkspace(env.GIT_AGENT.get(id));
    const log = (await cli(ws, "log", "--format=%s")).stdout;
    const status = (await cli(ws, "status", "--porcelain=v1")).stdout;
    // Actual: { log: "base\n", status: "M  f0.txt\nM  f1.txt\nM  f2.txt\n" }.
    expect({ log, status }).toEqual(log === "base\n" ? { log, status: " M f0.txt\n M f1.txt\n M f2.txt\n" } : { log: "c\nbase\n", status: "" });
  });
});
