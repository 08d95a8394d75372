/**
 * Issue 20, twenty-fifth attack run, fixer FG — siblings of
 * test/workers/attack25c/shell-git-artifacts-get-unexported-variables.test.ts: the shell's `git` gets the `GIT_*`
 * names of what bash passes a child (`ctx.exportedEnv`: `export`, prefix assignments, `set -a`, the run's own `env`),
 * `artifacts` gets no variable, and a call still past workerd's 32 MiB prints E2BIG naming the limit. Real workerd.
 * (Each identity is given as a name and an e-mail: the Workspace's git takes one from `env` only as a pair.)
 */
import { describe, expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "Shell User", email: "shell@example.com" } } };
const E2BIG_LINE = "git: E2BIG: argument list too long (its arguments, environment and input cross to the host as one call of at most 32 MiB)\n";

describe("fix25 (FG): the shell's git gets what bash passes a child", () => {
  it("export, a prefix assignment, set -a and the run's env reach git; plain and local ones do not", async () => {
    const r = await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace/r", { recursive: true });
      const first = await sh(
        ws,
        [
          "git init -q; echo a > a; git add a",
          "export GIT_AUTHOR_NAME=Exported GIT_AUTHOR_EMAIL=ex@example.com",
          "git commit -q -m one; git log -1 --format='%an <%ae> | %cn <%ce>'",
          "unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL",
          "GIT_COMMITTER_NAME=Prefix GIT_COMMITTER_EMAIL=p@example.com git commit -q --allow-empty -m two; git log -1 --format='%an | %cn'",
          "git commit -q --allow-empty -m three; git log -1 --format='%an | %cn'",
          "set -a; GIT_AUTHOR_NAME=AllExport GIT_AUTHOR_EMAIL=all@example.com; set +a",
          "git commit -q --allow-empty -m four; git log -1 --format='%an'",
          "unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL; GIT_AUTHOR_NAME=Plain GIT_AUTHOR_EMAIL=pl@example.com",
          "f() { local GIT_COMMITTER_NAME=Local GIT_COMMITTER_EMAIL=lo@example.com; git commit -q --allow-empty -m five; }; f",
          "git log -1 --format='%an | %cn'",
        ].join("\n"),
        { cwd: "/workspace/r" },
      );
      const second = await sh(ws, "git commit -q --allow-empty -m six; git log -1 --format='%cn'", { cwd: "/workspace/r", env: { GIT_COMMITTER_NAME: "FromExec", GIT_COMMITTER_EMAIL: "fe@example.com" } });
      return [first, second].map((s) => [s.exitCode, s.stdout, s.stderr]);
    }, withGit);
    expect(r).toEqual([
      [0, "Exported <ex@example.com> | Exported <ex@example.com>\nShell User | Prefix\nShell User | Shell User\nAllExport\nShell User | Shell User\n", ""],
      [0, "FromExec\n", ""],
    ]);
  });

  it("36 MiB exported outside GIT_* reach neither git nor artifacts; a 36 MiB GIT_ variable is E2BIG, not workerd's text", { timeout: 300_000 }, async () => {
    const r = await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace/r", { recursive: true });
      await ws.fs.writeFile("/workspace/big.txt", "a".repeat(12 * 1024 * 1024));
      return sh(
        ws,
        [
          "git init -q; echo x > x; git add x",
          "a=$(cat ../big.txt); export BIG=$a$a$a; echo ${#BIG}",
          "git status --short; echo rc=$?",
          "artifacts help >/dev/null; echo rc=$?",
          "unset BIG; export GIT_BIG=$a$a$a",
          "git status --short; echo rc=$?",
          "artifacts help >/dev/null; echo rc=$?",
          "unset GIT_BIG; git status --short; echo rc=$?",
        ].join("\n"),
        { cwd: "/workspace/r", timeoutMs: 200_000 },
      );
    }, withGit);
    // Before: the first `git status` and `artifacts help` failed with workerd's
    // `Serialized RPC arguments or return values are limited to 32MiB, …` (every variable was sent).
    expect([r.stdout, r.stderr]).toEqual([`${36 * 1024 * 1024}\nA  x\nrc=0\nrc=0\nrc=1\nrc=0\nA  x\nrc=0\n`, E2BIG_LINE]);
  });
});
