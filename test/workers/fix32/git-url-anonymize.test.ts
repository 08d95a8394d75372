/**
 * Issue 20, run 32, fixer GC — siblings of attack32c/git-url-credentials-leak-into-merge-message-and-output: a URL
 * with `user:password@` typed on the command line (not a remote) is printed as git 2.39.5's transport_anonymize_url
 * does — push's `To <url>` and `error: failed to push some refs to '<url>'`, fetch's `From <url>` (also without
 * `.git`), pull's merge message `Merge branch 'main' of <url>` — while `remote -v` and `remote get-url` print the
 * stored URL whole, as git. The expected bytes are real git 2.39.5's on the same script.
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { forkRepo, serverGit } from "../../shared/git-remote.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "Shell User", email: "shell@example.com" } } };

it("a URL's credentials typed on the command line are never printed or recorded; remote -v keeps them", async () => {
  const { url, name } = await forkRepo();
  const secret = url.replace("http://", "http://user:s3cret@");
  const anon = url.replace(/\.git$/, "");
  const r = await inShellWorkspace(
    (ws) =>
      sh(
        ws,
        [
          `git clone -q ${secret} c && cd c`,
          "echo a > a.txt && git add a.txt && git commit -qm a",
          `git push ${secret} main:t1; echo rc=$?`,
          "git reset -q --hard HEAD~1 && echo b > b.txt && git add b.txt && git commit -qm b",
          `git push ${secret} main:t1; echo rc=$?`,
          `git fetch ${secret} t1:m2; echo rc=$?`,
          `git pull -q --no-ff ${secret} t1; echo rc=$?`,
          "git log -1 --format=%s",
          "git remote -v && git remote get-url origin",
        ].join("\n"),
      ),
    withGit,
  );
  expect(r.stdout).toBe(
    `rc=0\nrc=1\nrc=0\nrc=0\nMerge branch 't1' of ${anon}\norigin\t${secret} (fetch)\norigin\t${secret} (push)\n${secret}\n`,
  );
  expect(r.stderr).not.toContain("s3cret");
  expect(r.stderr).toMatch(new RegExp(`^To ${url}\\n \\* \\[new branch\\]      main -> t1\\nTo ${url}\\n ! \\[rejected\\] `));
  expect(r.stderr).toContain(`error: failed to push some refs to '${url}'\n`);
  expect(r.stderr).toContain(`From ${anon}\n * [new branch]      t1         -> m2\n`);
  expect((await serverGit(name, ["log", "-1", "--format=%B", "t1"])).stdout).not.toContain("s3cret");
});
