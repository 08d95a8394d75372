/**
 * Issue 20, twenty-fifth attack run: the shell's `git` and `artifacts` built-ins send EVERY shell variable to the
 * host, not only the exported environment. `cliCommand` (src/backends/worker-shell/commands.ts) passes
 * `flattenEnv(ctx.env)` — just-bash's map of all variables, locals and unexported ones included — as `env` of
 * `host.git(...)` / `host.artifacts(...)` (one Workers RPC call each), where just-bash also offers
 * `ctx.exportedEnv`, what bash gives a child process. Two consequences:
 *  1. git takes identity from variables bash never passes to it: `GIT_AUTHOR_NAME=x` on its own line (not exported),
 *     or a function's `local GIT_COMMITTER_NAME=y`, names the commit's author/committer;
 *  2. a script holding large data in plain variables makes EVERY later `git`/`artifacts` call fail: the variables
 *     travel in the call's arguments, and past workerd's 32 MiB the call rejects with workerd's bare text (the
 *     sibling of run 24's RPC-size findings: the data paths now stream or answer E2BIG, this argument path does not).
 *
 * Tried: a Workspace with the shell backend and `createGitClient()` (default identity "Shell User"), real workerd;
 * a repository at /workspace/r; (1) `GIT_AUTHOR_NAME=Unexported` and `GIT_AUTHOR_EMAIL=…` as plain assignments, then
 * `git commit`; a function with `local GIT_COMMITTER_NAME=Local` committing; (2) a 12 MiB file read into `a`, `b=$a`,
 * `c=$a` (36 MiB of variables), then `git status --short` and `artifacts help`.
 * Held: the prefix form (`GIT_AUTHOR_NAME=… git commit`) and `export` reach git, as in bash; `unset b c` makes git
 * work again.
 *
 * Found (medium; 3 of 3 runs): (1) `git log --format='%an <%ae> | %cn'` → `Unexported <un@example.com> | Unexported`,
 * the function's commit is committed by `Local` (bash 5.2 + git 2.39: `Shell User <shell@example.com> | Shell User`,
 * the identity git is configured with). (2) `git status --short` → exit 1, `git: Serialized RPC arguments or return
 * values are limited to 32MiB, but the size of this value was: 37749087 bytes.`; `artifacts help` the same
 * (real git never sees unexported variables, and would print `A  x`).
 *
 * Suggested fix: send `ctx.exportedEnv` (what bash passes a child, prefix assignments included) instead of
 * `ctx.env`, and of it only what the host reads (for git the `GIT_*` identity/date names; artifacts reads none);
 * map a remaining RPC size failure to E2BIG naming the environment.
 *
 * Fixed: the `git` built-in (src/backends/worker-shell/commands.ts `childEnv`) sends only the `GIT_*` names of
 * `ctx.exportedEnv` (exported variables and the command's prefix assignments, what bash passes a child); `artifacts`
 * sends no variable (its CLI reads none). A call whose arguments still pass workerd's 32 MiB prints
 * `<cmd>: E2BIG: argument list too long (…)` instead of workerd's bare text. Siblings (export, prefix, `set -a`, a
 * 36 MiB exported non-GIT variable, a 36 MiB `GIT_` variable → E2BIG) in test/workers/fix25/git-shell-env.test.ts.
 */
import { describe, expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "Shell User", email: "shell@example.com" } } };

describe("attack25c: the shell's git and artifacts built-ins get unexported variables", () => {
  it("git takes no identity from an unexported variable or a local", async () => {
    const r = await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace/r", { recursive: true });
      return sh(
        ws,
        [
          "git init -q",
          "echo a > a && git add a",
          "GIT_AUTHOR_NAME=Unexported",
          "GIT_AUTHOR_EMAIL=un@example.com",
          "git commit -q -m one",
          "git log -1 --format='%an <%ae> | %cn'",
          "f() { local GIT_COMMITTER_NAME=Local; git commit -q --allow-empty -m two; }; f",
          "git log -1 --format='%cn'",
        ].join("\n"),
        { cwd: "/workspace/r" },
      );
    }, withGit);
    // Found: "Unexported <un@example.com> | Unexported\nLocal\n".
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, "Shell User <shell@example.com> | Shell User\nShell User\n", ""]);
  });

  it("36 MiB of plain variables do not make git status or artifacts fail", { timeout: 300_000 }, async () => {
    const r = await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace/r", { recursive: true });
      await ws.fs.writeFile("/workspace/big.txt", "a".repeat(12 * 1024 * 1024));
      return sh(
        ws,
        [
          "git init -q; echo x > x; git add x",
          "a=$(cat ../big.txt); b=$a; c=$a",
          "echo ${#a} ${#b} ${#c}",
          "git status --short; echo rc=$?",
          "artifacts help >/dev/null; echo rc=$?",
          "unset b c; git status --short; echo rc=$?",
        ].join("\n"),
        { cwd: "/workspace/r", timeoutMs: 200_000 },
      );
    }, withGit);
    // Found: "…\nrc=1\nrc=1\nA  x\nrc=0\n", stderr `git: Serialized RPC arguments or return values are limited to
    // 32MiB, but the size of this value was: 37749087 bytes.` and the same for artifacts (its help works unconfigured).
    expect([r.stdout, r.stderr]).toEqual(["12582912 12582912 12582912\nA  x\nrc=0\nrc=0\nA  x\nrc=0\n", ""]);
  });
});
