/**
 * Issue 20, thirty-fourth attack run: the shell's `git pull` ignores `pull.ff` and `pull.rebase` in `.git/config`.
 * With `pull.ff only` (the usual guard an agent or a repository sets so a pull never makes a merge commit) a divergent
 * pull makes a merge commit `Merge branch 'main' of <url>` and exits 0, where git 2.39.5 fetches, prints `fatal: Not
 * possible to fast-forward, aborting.`, exits 128 and leaves HEAD on the local commit; with `pull.rebase true` it
 * also merges (git rebases the local commit onto the remote's: linear history) — while the flag `--rebase` is refused
 * (`--rebase is not supported; pull merges`), the same request through the config is silently turned into a merge.
 * The next `git push` publishes the merge commit to the remote, where no local fix takes it back.
 * Tried: a differential run against git 2.39.5 (a bare repository here and two clones; the loopback smart-HTTP server
 * in the test): one clone pushes r.txt, the other commits l.txt, sets `pull.ff only` (and, separately,
 * `pull.rebase true`) and runs `git pull`; also no config at all (git 2.39 refuses "Need to specify how to reconcile
 * divergent branches", exit 128 — here a merge; left as odd) and `pull.ff false` + `pull.rebase false` (a merge in both).
 * Held: `git pull --ff-only` refuses; `--rebase` is refused; a conflicting pull changes nothing and keeps the local
 * commit; a pull over dirty or untracked files that the merge would overwrite (also file/directory clashes) refuses
 * and keeps them; a failed (truncated) fetch moves no ref; a fast-forward keeps staged and unstaged changes.
 * Found (medium — an agent that relies on the repository's `pull.ff only` / `pull.rebase true` gets, and then pushes,
 * a merge commit it did not ask for and is told all went well; 2 of 2 runs): `pull.ff only`: exit 0, stdout
 * `Merge commit <oid7>`, HEAD a merge with 2 parents; git 2.39.5: exit 128, HEAD the local commit `l`,
 * `## main...origin/main [ahead 1, behind 1]`.
 * Suggested fix: src/git/cli/commands.ts `pull.run`: read `pull.ff` (`only` → fastForwardOnly, `false` → fastForward
 * false; the flags win over it, as git) and `pull.rebase` (true/merges/interactive → refuse as `--rebase` is refused,
 * exit 128, nothing changed) from `.git/config` (and `branch.<b>.rebase`), before calling `client.pull`.
 *
 * Fixed: src/git/cli/commands.ts `pull.run` reads pull.ff (`only` → git's "Not possible to fast-forward, aborting.",
 * 128, also for --ff-only; `false` → --no-ff; flags and --no-rebase win) and branch.<b>.rebase / pull.rebase (true,
 * merges, … → refused 128 before fetching: rebase is not supported) (issue 20, run 34, fixer GN). Not done: git
 * 2.39's refusal of a divergent pull with no pull config ("Need to specify how to reconcile divergent branches") —
 * it still merges. Siblings: test/workers/fix34/git-remote-config.test.ts.
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { forkRepo } from "../../shared/git-remote.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "Shell User", email: "shell@example.com" } } };

it("git pull with pull.ff=only in .git/config refuses a divergent pull, as git 2.39.5", async () => {
  const { url } = await forkRepo();
  const r = await inShellWorkspace(
    (ws) =>
      sh(
        ws,
        [
          `git clone -q ${url} c && git clone -q ${url} o`,
          "cd o && echo remote > r.txt && git add r.txt && git commit -qm r && git push -q && cd ..",
          "cd c && echo l > l.txt && git add l.txt && git commit -qm l && git config pull.ff only",
          "git pull >/dev/null 2>err; echo rc=$?",
          "tail -1 err",
          "git log -1 --format='%s %p' | wc -w",
          "git log -1 --format=%s",
          "git status -sb | head -1",
        ].join("\n"),
      ),
    withGit,
  );
  // Was: rc=0, no error, HEAD `Merge branch 'main' of http://127.0.0.1:<port>/git/<name>` with 2 parents
  expect(r.stdout).toBe(
    "rc=128\nfatal: Not possible to fast-forward, aborting.\n2\nl\n## main...origin/main [ahead 1, behind 1]\n",
  );
});
