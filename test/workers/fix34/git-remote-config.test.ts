/**
 * Issue 20, run 34, fixer GN: the neighbourhood of attack34e's push / fetch / pull findings — a push, fetch or pull
 * with no refspec is decided by `.git/config` as git 2.39.5 decides it: push.default (unset = simple, current,
 * upstream, nothing; src/git/push-default.ts), push.autoSetupRemote, branch.<b>.merge of another name, an explicit
 * refspec `git push origin <b>` (its own name, never the upstream), a detached HEAD; a plain fetch on a branch whose
 * upstream the remote deleted; pull.ff / pull.rebase. Expected texts are git 2.39.5's (run here against a bare
 * repository: `git init --bare -b main`, clone, `git checkout -b fix origin/main`, then each command), the server's
 * refs are read with the real git on the loopback server (test/shared/git-remote.ts).
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { forkRepo, serverGit } from "../../shared/git-remote.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "Shell User", email: "shell@example.com" } } };

const SIMPLE_MISMATCH = (advice: boolean) =>
  "fatal: The upstream branch of your current branch does not match\n" +
  "the name of your current branch.  To push to the upstream branch\n" +
  "on the remote, use\n\n    git push origin HEAD:main\n\n" +
  "To push to the branch of the same name on the remote, use\n\n    git push origin HEAD\n" +
  (advice ? "\nTo choose either option permanently, see push.default in 'git help config'.\n" : "") +
  "\nTo avoid automatically configuring an upstream branch when its name\n" +
  "won't match the local branch, see option 'simple' of branch.autoSetupMerge\nin 'git help config'.\n\n";

const NO_UPSTREAM =
  "fatal: The current branch nb has no upstream branch.\n" +
  "To push the current branch and set the remote as upstream, use\n\n    git push --set-upstream origin nb\n\n" +
  "To have this happen automatically for branches without a tracking\n" +
  "upstream, see 'push.autoSetupRemote' in 'git help config'.\n\n";

async function run(lines: string[]): Promise<{ out: string; name: string; before: string }> {
  const { url, name } = await forkRepo();
  const before = (await serverGit(name, ["rev-parse", "main"])).stdout;
  const r = await inShellWorkspace((ws) => sh(ws, [`git clone -q ${url} c && cd c`, ...lines].join("\n")), withGit);
  return { out: r.stdout, name, before };
}

const BRANCH_FIX = "git checkout -q -b fix origin/main && echo fix > fix.txt && git add fix.txt && git commit -qm fix";

it("push.default unset / simple: an upstream of another name refuses (128, git's whole text), nothing sent", async () => {
  const { out, name, before } = await run([
    BRANCH_FIX,
    "git push 2>e1; echo rc=$?; cat e1",
    "git push origin 2>e2; echo rc=$?; cmp e1 e2 && echo same",
    "git config push.default simple; git push 2>e3; echo rc=$?; cat e3",
  ]);
  expect(out).toBe(`rc=128\n${SIMPLE_MISMATCH(true)}rc=128\nsame\nrc=128\n${SIMPLE_MISMATCH(false)}`);
  expect((await serverGit(name, ["rev-parse", "main"])).stdout).toBe(before);
  expect((await serverGit(name, ["rev-parse", "--verify", "-q", "refs/heads/fix"])).code).not.toBe(0);
});

it("git push origin fix (a refspec) goes to fix, never to the upstream main", async () => {
  const { out, name, before } = await run([BRANCH_FIX, "git push origin fix 2>e; echo rc=$?; tail -1 e"]);
  expect(out).toBe("rc=0\n * [new branch]      fix -> fix\n");
  expect((await serverGit(name, ["rev-parse", "main"])).stdout).toBe(before);
  expect((await serverGit(name, ["rev-parse", "--verify", "-q", "refs/heads/fix"])).code).toBe(0);
});

it("push.default current → fix -> fix; upstream → fix -> main", async () => {
  const { out, name, before } = await run([
    BRANCH_FIX,
    "git config push.default current && git push 2>e; echo rc=$?; tail -1 e",
    "git config push.default upstream && git push 2>e; echo rc=$?; tail -1 e",
  ]);
  const main = (await serverGit(name, ["rev-parse", "main"])).stdout;
  expect(main).toBe((await serverGit(name, ["rev-parse", "fix"])).stdout);
  expect(out).toBe(`rc=0\n * [new branch]      fix -> fix\nrc=0\n   ${before.slice(0, 7)}..${main.slice(0, 7)}  fix -> main\n`);
});

it("push.default nothing refuses with git's text, 128", async () => {
  const { out } = await run([BRANCH_FIX, "git config push.default nothing", "git push 2>e; echo rc=$?; cat e"]);
  expect(out).toBe(`rc=128\nfatal: You didn't specify any refspecs to push, and push.default is "nothing".\n`);
});

it("a branch with no upstream: git's refusal, 128; push.autoSetupRemote pushes it and tracks it", async () => {
  const { out, name } = await run([
    "git checkout -q -b nb",
    "git push 2>e; echo rc=$?; cat e",
    "git config push.autoSetupRemote true && git push 2>e; echo rc=$?; tail -1 e",
    "git config branch.nb.merge",
  ]);
  expect(out).toBe(`rc=128\n${NO_UPSTREAM}branch 'nb' set up to track 'origin/nb'.\nrc=0\n * [new branch]      nb -> nb\nrefs/heads/nb\n`);
  expect((await serverGit(name, ["rev-parse", "--verify", "-q", "refs/heads/nb"])).code).toBe(0);
});

it("a detached HEAD: git's refusal, 128", async () => {
  const { out } = await run(["git checkout -q --detach", "git push 2>e; echo rc=$?; cat e"]);
  expect(out).toBe(
    "rc=128\nfatal: You are not currently on a branch.\nTo push the history leading to the current (detached HEAD)\nstate now, use\n\n    git push origin HEAD:<name-of-remote-branch>\n\n",
  );
});

it("pull.rebase true refuses (128, nothing merged); pull.ff only with --no-rebase merges, as git 2.39", async () => {
  const { url } = await forkRepo();
  const r = await inShellWorkspace(
    (ws) =>
      sh(
        ws,
        [
          `git clone -q ${url} c && git clone -q ${url} o`,
          "cd o && echo r > r.txt && git add r.txt && git commit -qm r && git push -q && cd ..",
          "cd c && echo l > l.txt && git add l.txt && git commit -qm l",
          "git config pull.rebase true && git pull >/dev/null 2>e; echo rc=$?; git log -1 --format=%s",
          "git config pull.rebase false && git config pull.ff only && git pull --no-rebase -q; echo rc=$?; git log -1 --format=%p | wc -w",
        ].join("\n"),
      ),
    withGit,
  );
  expect(r.stdout).toBe("rc=128\nl\nrc=0\n2\n");
});
