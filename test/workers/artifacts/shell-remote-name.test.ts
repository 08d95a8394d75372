/**
 * The shell's `artifacts create` with remote names git refuses, and a remote
 * registration that fails (issue 18): a bad `--remote` is a usage error (129)
 * before anything is created or minted; when registration fails, every token
 * the command minted is revoked (nothing was printed); on success only the
 * printed token stays active. The binding is `ArtifactsStandIn`
 * (test/shared/artifacts-standin.ts), the in-memory stand-in for the
 * Artifacts service, which has no local simulation.
 */
import { describe, expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { ArtifactsStandIn } from "../../shared/artifacts-standin.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const options = (binding: ArtifactsStandIn) => ({
  workspace: { git: createGitClient(), defaultGitIdentity: { name: "U", email: "u@example.com" }, artifacts: { binding }, sessionId: "s1" },
});

/** Runs `command` in /workspace/project (a git repository when `init`); its result, `git remote`, and each repository's tokens as `[scope, state]`. */
async function inProject(command: string, init = true) {
  const binding = new ArtifactsStandIn();
  const r = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/project", { recursive: true });
    if (init) await sh(ws, "git init -b main >/dev/null", { cwd: "/workspace/project" });
    const out = await sh(ws, command, { cwd: "/workspace/project" });
    const remotes = init ? (await sh(ws, "git remote", { cwd: "/workspace/project" })).stdout : "";
    return { out, remotes };
  }, options(binding));
  const tokens: Record<string, [string, string][]> = {};
  for (const name of binding.names()) tokens[name] = (await (await binding.get(name)).listTokens()).tokens.map((t) => [t.scope, t.state]);
  return { out: { stdout: r.out.stdout, stderr: r.out.stderr, exitCode: r.out.exitCode }, remotes: r.remotes, binding, tokens };
}

describe("artifacts create: remote names", () => {
  const cases: [string, string][] = [
    ["-f", "it starts with '-'"],
    ["--mirror=push", "it starts with '-'"],
    ["", "it is empty"],
    ["../x", "it holds '..'"],
    ["a b", "it holds a space or control character"],
    ["a:b", "it holds ':'"],
    ["x.lock", "it ends with '.' or a component ends with '.lock'"],
    [".hidden", "a component starts with '.'"],
  ];
  for (const [remote, why] of cases) {
    it(`--remote ${JSON.stringify(remote)} → 129 naming the remote; nothing created, nothing called`, async () => {
      const r = await inProject(`artifacts create demo --remote '${remote}'`);
      expect(r.out).toEqual({ stdout: "", stderr: `artifacts create: invalid --remote '${remote}': not a git remote name (${why})\n`, exitCode: 129 });
      expect(r.binding.calls).toEqual([]);
      expect(r.remotes).toBe("");
    });
  }

  it("a repository name that is no remote name (a..b) → 129 suggesting --remote; with --remote it works", async () => {
    const bad = await inProject("artifacts create a..b");
    expect(bad.out).toEqual({
      stdout: "",
      stderr: "artifacts create: 'a..b' is not a git remote name (it holds '..'); pass --remote <remote> to name the git remote\n",
      exitCode: 129,
    });
    expect(bad.binding.calls).toEqual([]);
    const good = await inProject("artifacts create a..b --remote ab");
    expect(good.out.exitCode).toBe(0);
    expect(good.remotes).toBe("ab\n");
  });

  it("success: only the printed token is active (the binding's create token is revoked)", async () => {
    const r = await inProject("artifacts create demo --scope read --ttl 1h");
    expect(r.out.exitCode).toBe(0);
    expect(r.out.stderr).toBe("");
    expect(JSON.parse(r.out.stdout)).toMatchObject({ scope: "read", remoteRegistered: true });
    expect(r.tokens).toEqual({ s1__demo: [["write", "revoked"], ["read", "active"]] });
    expect(r.remotes).toBe("demo\n");
  });

  it("a failed registration (cwd not a git repository) → 1, and no token stays active", async () => {
    const r = await inProject("artifacts create demo", false);
    expect(r.out.exitCode).toBe(1);
    expect(r.out.stdout).toBe("");
    expect(r.out.stderr).toMatch(/^artifacts create: could not register remote 'demo': /);
    expect(r.tokens).toEqual({ s1__demo: [["write", "revoked"], ["write", "revoked"]] });
  });
});
