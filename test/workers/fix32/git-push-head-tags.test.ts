/**
 * Issue 20, run 32, fixer GC — siblings of attack32c/git-push-origin-head-refused-funny-refname: `git push` learns the
 * remote's old oid from its ref advertisement, so each line is git 2.39.5's — `HEAD` alone is the current branch
 * (`   a..b  HEAD -> main`), a push that sends nothing prints `Everything up-to-date` with no `To` line, a detached
 * `HEAD` gets git's "not a full refname" error (exit 1), `--tags` (alone, or after `<remote>`) pushes every local tag
 * that the remote lacks (`* [new tag]         v1 -> v1`), a tag named as the
 * refspec is a `[new tag]`, and `--delete --tags` is git's fatal 128 (printed `git push: …`, the CLI's prefix for git's `fatal: `). The expected bytes are real git 2.39.5's on the
 * same script (checked against a bare repository on this machine).
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { forkRepo, serverGit } from "../../shared/git-remote.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "Shell User", email: "shell@example.com" } } };

it("push HEAD, Everything up-to-date, a detached HEAD, --tags and a tag refspec, as git 2.39.5", async () => {
  const { url, name } = await forkRepo();
  const r = await inShellWorkspace(
    (ws) =>
      sh(
        ws,
        [
          `git clone -q ${url} c && cd c`,
          "git rev-parse HEAD >&2",
          "echo a > a.txt && git add a.txt && git commit -qm a && git rev-parse HEAD >&2",
          "git push origin HEAD; echo rc=$?",
          "git push origin HEAD; echo rc=$?",
          "git push; echo rc=$?",
          "git tag v1 && git tag v2 HEAD~1",
          "git push --tags; echo rc=$?",
          "git push --tags; echo rc=$?",
          "git tag v3 && git push origin --tags; echo rc=$?",
          "git tag v4 && git push origin v4; echo rc=$?",
          "git push --delete --tags origin; echo rc=$?",
          "git checkout -q \"$(git rev-parse HEAD)\" && git push origin HEAD; echo rc=$?",
        ].join("\n"),
      ),
    withGit,
  );
  const [before, after] = r.stderr.split("\n", 2) as [string, string];
  const s = (oid: string) => oid.slice(0, 7);
  expect(r.stdout).toBe("rc=0\nrc=0\nrc=0\nrc=0\nrc=0\nrc=0\nrc=0\nrc=128\nrc=1\n");
  expect(r.stderr).toBe(
    `${before}\n${after}\n` +
      `To ${url}\n   ${s(before)}..${s(after)}  HEAD -> main\n` +
      "Everything up-to-date\n" +
      "Everything up-to-date\n" +
      `To ${url}\n * [new tag]         v1 -> v1\n * [new tag]         v2 -> v2\n` +
      "Everything up-to-date\n" +
      `To ${url}\n * [new tag]         v3 -> v3\n` +
      `To ${url}\n * [new tag]         v4 -> v4\n` +
      "git push: options '--delete' and '--all/--mirror/--tags' cannot be used together\n" + // git: fatal: …, 128
      "error: The destination you provided is not a full refname (i.e.,\n" +
      'starting with "refs/"). We tried to guess what you meant by:\n\n' +
      "- Looking for a ref that matches 'HEAD' on the remote side.\n" +
      "- Checking if the <src> being pushed ('HEAD')\n" +
      '  is a ref in "refs/{heads,tags}/". If so we add a corresponding\n' +
      "  refs/{heads,tags}/ prefix on the remote side.\n\n" +
      "Neither worked, so we gave up. You must fully qualify the ref.\n" +
      "hint: The <src> part of the refspec is a commit object.\n" +
      "hint: Did you mean to create a new branch by pushing to\n" +
      "hint: 'HEAD:refs/heads/HEAD'?\n" +
      `error: failed to push some refs to '${url}'\n`,
  );
  expect((await serverGit(name, ["rev-parse", "main", "v1", "v3", "v4", "v2"])).stdout).toBe(`${after}\n`.repeat(4) + `${before}\n`);
});
