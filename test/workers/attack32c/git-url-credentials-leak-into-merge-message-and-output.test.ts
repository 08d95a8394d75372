/**
 * Issue 20, thirty-second attack run: a remote URL holding credentials (`http://user:token@host/repo.git`, the
 * usual way an agent is handed a token) leaks the token where git 2.39.5 strips it: `git pull` that merges writes
 * `Merge branch 'main' of http://user:token@host/...` into the merge commit's message — which the next `git push`
 * publishes into the remote's history for good — and `git push` / `git fetch <remote> <src>:<dst>` print the token
 * in their `To <url>` / `From <url>` / `failed to push some refs to '<url>'` lines (the agent transcript).
 * Tried: a differential run against git 2.39.5 over the loopback smart-HTTP server: clone from a URL with
 * `user:s3cret@`, another clone pushes a commit, a local commit, `git pull` (git: `pull.rebase false`), `git log -1
 * --format=%B`, `git push`, a rejected push, `git fetch origin main:m2`; git prints `To http://127.0.0.1:<port>/...`,
 * `From http://127.0.0.1:<port>/...` and writes `Merge branch 'main' of http://127.0.0.1:<port>/git/<name>`
 * (transport_anonymize_url), keeping the credentials only in `.git/config` (`remote -v` shows them, as here).
 * Held: `remote -v` and the stored `remote.origin.url` equal git's; the timeout message of the typed clone and
 * the HTTP errors name no credentials; clone prints `Cloning into 'c'...` only.
 * Found (high — a secret token is written into a commit message and pushed to the server, where no rewrite of the
 * local repository takes it back, and printed into every push/fetch transcript; 2 of 2 runs).
 * Suggested fix: src/git/ops/network.ts `pull` (the `Merge branch '…' of ${url}` message) and
 * src/git/cli/commands.ts (push's `target` in `To`/`failed to push some refs`, fetch's `From ${url}`): print the URL
 * through one helper that drops the userinfo (`new URL(u); u.username = u.password = ""`), as git's
 * transport_anonymize_url.
 *
 * Fixed: src/git/url.ts `anonymizeUrl` (git's transport_anonymize_url) and `displayFetchUrl` (also without a trailing
 * `/` and `.git`, as fetch's store_updated_refs) print every URL: pull's merge message (src/git/ops/network.ts), push's
 * `To`/`failed to push some refs`, fetch's `From`, clone's and the transport errors (src/git/cli/commands.ts), the
 * timeout / response-too-large / cancelled messages (network.ts); `remote -v` and `get-url` keep the stored URL, as git
 * (issue 20, run 32, fixer GC). Siblings: test/workers/fix32/git-url-anonymize.test.ts.
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { forkRepo, serverGit } from "../../shared/git-remote.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "Shell User", email: "shell@example.com" } } };

it("a URL's user:password never reaches a merge message, the pushed history or push/fetch output, as git 2.39.5", async () => {
  const { url, name } = await forkRepo();
  const secret = url.replace("http://", "http://user:s3cret@");
  const r = await inShellWorkspace(
    (ws) =>
      sh(
        ws,
        [
          `git clone ${secret} c 2>/dev/null && git -C c config pull.rebase false`,
          `git clone ${url} other 2>/dev/null && (cd other && echo up > up.txt && git add up.txt && git commit -m up >/dev/null && git push 2>/dev/null) && cd c`,
          "echo mine > mine.txt && git add mine.txt && git commit -m mine >/dev/null",
          "git pull >/dev/null",
          "git log -1 --format=%B",
          "git push",
          "git fetch origin main:m2",
        ].join("\n"),
      ),
    withGit,
  );
  const anon = url.replace(/\.git$/, ""); // git's From line and merge message also drop `.git` (known, left alone)
  const pushed = (await serverGit(name, ["log", "-1", "--format=%B", "main"])).stdout;
  expect(r.stdout.replace(`of ${url}`, `of ${anon}`)).toBe(`Merge branch 'main' of ${anon}\n\n`); // Was: Merge branch 'main' of http://user:s3cret@127.0.0.1:<port>/git/<name>.git
  expect(pushed).not.toContain("s3cret"); // Was: the pushed merge commit holds user:s3cret@
  expect(r.stderr).not.toContain("s3cret"); // Was: To http://user:s3cret@…  /  From http://user:s3cret@…
  expect(r.stderr).toContain(`To ${url}\n`);
  expect(r.exitCode).toBe(0);
});
