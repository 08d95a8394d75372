/**
 * Issue 20 ninth attack run (part B), category 2: `ctx.abort()` mid
 * `git fetch` / `git pull` (a sweep of every write of a fast-forward pull:
 * after a crash at the working-tree writes or the index, the repository is
 * as after a crashed real git — unstaged changes, the re-pull refuses with
 * "would be overwritten", status/log answer, storage sound — withstood).
 *
 * FIXED — scripts/gen-git.mjs patches isomorphic-git's `_fetch` to write the pack
 * and its .idx right after the upload-pack response is read, before
 * `.git/shallow` and any ref update: a crash at the pack leaves the old refs.
 *
 * DEFECT (low–medium) — a fetch stores the remote-tracking ref BEFORE the
 * packfile holding the objects it names (isomorphic-git's `_fetch` updates
 * the remote refs, then writes `objects/pack/pack-*.pack` and `.idx`). A
 * crash between the two leaves `refs/remotes/origin/main` naming a commit
 * that is not in the repository. Real git writes (index-pack) the pack
 * first and updates refs last, so a crashed fetch leaves the old ref.
 * Reproduction: clone a fork; another Workspace pushes a commit to it;
 * `git fetch` (or `git pull`) crashes at the write of the `.pack` (after a
 * 100 ms timer, so the ref write before it is stored). After the restart:
 *   expected: `git log -n1 origin/main` shows the old tip ("c5: run twice"),
 *   or the new one ("pushed") with its objects;
 *   actual: `rev-parse origin/main` = the new oid, `cat-file -t origin/main`
 *   → exit 1 "Could not find <oid>", `log origin/main` → exit 1 "revision
 *   'origin/main' does not name a commit" — until the next fetch repairs it
 *   (it does: the server sends the objects again). Meanwhile diff/merge/log
 *   of origin/main fail, and `branch -a`/`status -b` show a tip that does
 *   not exist.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { WORKSPACE } from "../../../src/do/symbol.js";
import { getWorkspace, type Workspace } from "../../../src/index.js";
import { integrityProblems } from "../../shared/attack3/integrity.js";
import { forkRepo } from "../../shared/git-remote.js";

type Fs = Record<string, (...a: unknown[]) => unknown>;
type Client = Awaited<ReturnType<typeof getWorkspace>>;
const cli = async (ws: Client, ...argv: string[]) => ws.git.cli({ argv, cwd: "/repo" });

describe("attack9b: ctx.abort() mid fetch at the packfile write", () => {
  for (const op of ["fetch", "pull"]) {
    it(`git ${op}: origin/main names a commit the repository has`, { timeout: 120_000 }, async () => {
      const { url } = await forkRepo();
      const id = env.GIT_AGENT.newUniqueId();
      {
        using ws = await getWorkspace(env.GIT_AGENT.get(id));
        expect((await ws.git.cli({ argv: ["clone", url, "/repo"] })).exitCode).toBe(0);
      }
      {
        using pusher = await getWorkspace(env.GIT_AGENT.get(env.GIT_AGENT.newUniqueId()));
        expect((await pusher.git.cli({ argv: ["clone", url, "/repo"] })).exitCode).toBe(0);
        await pusher.fs.writeFile("/repo/pushed-new.txt", "new\n");
        await cli(pusher, "add", "-A");
        expect((await cli(pusher, "commit", "-m", "pushed")).exitCode).toBe(0);
        expect((await cli(pusher, "push", "origin", "main")).exitCode).toBe(0);
      }
      const crash = await runInDurableObject(env.GIT_AGENT.get(id), async (instance, state) => {
        const ws = (instance as unknown as Record<symbol, Workspace>)[WORKSPACE];
        const fs = ws.fs as unknown as Fs;
        const write = fs.writeFile!.bind(ws.fs);
        fs.writeFile = async (...a: unknown[]) => {
          if (/^\/repo\/\.git\/objects\/pack\/pack-[0-9a-f]{40}\.pack$/.test(String(a[0]))) {
            await new Promise((resolve) => setTimeout(resolve, 100));
            state.abort(`attack9b: crash in git ${op}`);
          }
          return write(...a);
        };
        return ws.git.cli({ argv: [op], cwd: "/repo" });
      }).then(
        (r) => `no abort: ${JSON.stringify(r)}`,
        (e: Error) => `aborted: ${e.message}`,
      );
      expect(crash).toBe(`aborted: attack9b: crash in git ${op}`);
      expect(await runInDurableObject(env.GIT_AGENT.get(id), (_i, s) => integrityProblems(s.storage.sql))).toEqual([]);
      using ws = await getWorkspace(env.GIT_AGENT.get(id));
      const tip = await cli(ws, "log", "--format=%s", "-n", "1", "origin/main");
      // Actual: { stdout: "", stderr: "git log: revision 'origin/main' does not name a commit\n", exitCode: 1 }.
      expect(tip.exitCode).toBe(0);
      expect(["c5: run twice\n", "pushed\n"]).toContain(tip.stdout);
    });
  }
});
