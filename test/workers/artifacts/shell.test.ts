/**
 * The worker-shell `artifacts` built-in in real workerd (spec 02 §6, spec 04
 * §3.5): the command line reaches `workspace.artifacts.cli` in the host,
 * and `create` registers its git remote at the shell's cwd through the
 * Workspace's git — so `artifacts create demo` followed by `git push demo
 * main` lands commits that the real `git` on the loopback server reads.
 *
 * The binding is `ArtifactsStandIn` (test/shared/artifacts-standin.ts), an
 * in-memory stand-in for the Artifacts service (which has no local
 * simulation) whose repositories are real bare repositories on the loopback
 * git server (test/shared/git-server.ts).
 */
import { describe, expect, it } from "vitest";
import type { WorkspaceOptions } from "../../../src/index.js";
import { createGitClient } from "../../../src/git/index.js";
import { gitServer, serverGit } from "../../shared/git-remote.js";
import { ArtifactsStandIn } from "../../shared/artifacts-standin.js";
import jq from "../../../src/shell/jq.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const NOT_CONFIGURED = "Workspace Artifacts binding is not configured";

/** Workspace options: git with an identity, and Artifacts over `binding`. */
function withArtifacts(binding: ArtifactsStandIn, extra: Partial<WorkspaceOptions> = {}): { workspace: Partial<WorkspaceOptions> } {
  return {
    workspace: {
      git: createGitClient(),
      defaultGitIdentity: { name: "Shell User", email: "shell@example.com" },
      artifacts: { binding },
      ...extra,
    },
  };
}

/** `<name>` of a `<base>/git/<name>.git` remote. */
function serverRepo(remote: string): string {
  const name = /\/git\/([^/]+)\.git$/.exec(remote)?.[1];
  if (name === undefined) throw new Error(`not a loopback git server remote: ${remote}`);
  return name;
}

interface Created {
  name: string;
  remote: string;
  credentialedRemote: string;
  defaultBranch: string;
  gitRemote: string;
  scope: string;
  token: string;
  remoteRegistered: boolean;
}

describe("artifacts in the shell", () => {
  it("artifacts create demo, then git push demo main: the real git on the server reads the commits", async () => {
    const binding = new ArtifactsStandIn({ gitServerUrl: gitServer().baseUrl });
    const r = await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace/project", { recursive: true });
      const setup = await sh(
        ws,
        'git init -b main >/dev/null && echo hello > README && git add README && git commit -m "first commit" >/dev/null && echo more >> README && git commit -a -m "second commit" >/dev/null',
        { cwd: "/workspace/project" },
      );
      const create = await sh(ws, "artifacts create demo", { cwd: "/workspace/project" });
      const push = await sh(ws, "git push demo main", { cwd: "/workspace/project" });
      const remotes = await sh(ws, "git remote -v", { cwd: "/workspace/project" });
      return { setup, create, push, remotes };
    }, withArtifacts(binding));
    expect([r.setup.exitCode, r.setup.stderr]).toEqual([0, ""]);
    expect([r.create.exitCode, r.create.stderr]).toEqual([0, ""]);
    const created = JSON.parse(r.create.stdout) as Created;
    expect([created.name, created.gitRemote, created.scope, created.remoteRegistered, created.defaultBranch]).toEqual(["demo", "demo", "write", true, "main"]);
    expect(r.create.stdout).not.toContain("remoteAddCommand");
    expect(r.remotes.stdout).toBe(`demo\t${created.credentialedRemote} (fetch)\ndemo\t${created.credentialedRemote} (push)\n`);
    expect(r.push.exitCode).toBe(0);
    const log = await serverGit(serverRepo(created.remote), ["log", "--format=%s", "main"]);
    expect([log.code, log.stdout]).toEqual([0, "second commit\nfirst commit\n"]);
    expect(binding.names()).toEqual(["demo"]);
  });

  it("a remote already listed is refused without --force (exit 1, says --force); --force replaces it; --remote picks the name", async () => {
    const binding = new ArtifactsStandIn();
    const r = await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace/p", { recursive: true });
      const cwd = "/workspace/p";
      await sh(ws, "git init -b main >/dev/null && git remote add taken https://example.com/old.git", { cwd });
      const refused = await sh(ws, "artifacts create taken", { cwd });
      const kept = await sh(ws, "git remote get-url taken", { cwd });
      const forced = await sh(ws, "artifacts create taken --force", { cwd });
      const replaced = await sh(ws, "git remote get-url taken", { cwd });
      const named = await sh(ws, "artifacts create other --remote up --scope read --ttl 2h", { cwd });
      const listed = await sh(ws, "git remote", { cwd });
      return { refused, kept, forced, replaced, named, listed };
    }, withArtifacts(binding));
    expect(r.refused).toMatchObject({ exitCode: 1, stdout: "" });
    expect(r.refused.stderr).toBe("artifacts create: git remote 'taken' already exists; pass --force to replace it, or --remote <name> to use another name\n");
    expect(r.kept.stdout).toBe("https://example.com/old.git\n");
    expect([r.forced.exitCode, r.forced.stderr]).toEqual([0, ""]);
    const forced = JSON.parse(r.forced.stdout) as Created;
    expect(forced.remoteRegistered).toBe(true);
    expect(r.replaced.stdout).toBe(`${forced.credentialedRemote}\n`);
    const named = JSON.parse(r.named.stdout) as Created;
    expect([r.named.exitCode, named.gitRemote, named.scope, named.remoteRegistered]).toEqual([0, "up", "read", true]);
    expect(r.listed.stdout).toBe("taken\nup\n");
    const ttl = binding.calls.filter((c) => c.method === "repo.createToken").map((c) => c.args);
    expect(ttl.at(-1)).toEqual(["other", "read", 7200]);
  });

  it("outside a repository the remote cannot be registered: exit 1 with git's own message", async () => {
    const binding = new ArtifactsStandIn();
    const r = await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace/plain", { recursive: true });
      const cwd = "/workspace/plain";
      const create = await sh(ws, "artifacts create lone", { cwd });
      const git = await sh(ws, "git remote add lone https://example.com/x.git", { cwd });
      return { create, git };
    }, withArtifacts(binding));
    expect(r.git.exitCode).not.toBe(0);
    expect(r.create).toEqual({ ...r.create, exitCode: 1, stdout: "", stderr: `artifacts create: could not register remote 'lone': ${r.git.stderr.trim()}\n` });
    expect(r.git.stderr.trim()).not.toBe("");
  });

  it("with Artifacts but no git on the Workspace, create says the remote could not be registered and why", async () => {
    const binding = new ArtifactsStandIn();
    const r = await inShellWorkspace(async (ws) => sh(ws, "artifacts create nogit; echo rc=$?"), { workspace: { artifacts: { binding } } });
    expect(r.stdout).toBe("rc=1\n");
    expect(r.stderr).toBe(
      "artifacts create: could not register remote 'nogit': git is not configured on this Workspace: pass createGitClient() from agent-computer/git as WorkspaceOptions.git\n",
    );
  });

  it("the other commands run as the CLI does: repo list, usage errors (129), share", async () => {
    const binding = new ArtifactsStandIn();
    const r = await inShellWorkspace(async (ws) => {
      await ws.artifacts.create("a");
      return sh(ws, "artifacts repo list | jq -r '.[].name'; artifacts create; echo rc=$?; artifacts share a --ttl 10m; echo rc=$?");
    }, { ...withArtifacts(binding), shell: { commands: [jq] } });
    const lines = r.stdout.split("\n");
    expect(lines[0]).toBe("a");
    expect(lines[1]).toBe("rc=129");
    expect(lines[2]).toMatch(/^https:\/\/x:[A-Za-z0-9_.~%-]+@artifacts\.standin\.invalid\/standin\/a\.git$/);
    expect(lines.slice(3)).toEqual(["rc=0", ""]);
    expect(r.stderr).toBe("artifacts create: missing <name>\n");
    expect(binding.calls.filter((c) => c.method === "repo.createToken").at(-1)?.args).toEqual(["a", "read", 600]);
  });

  it("without a binding: bare `artifacts` prints help (exit 1), commands say the binding is not configured (exit 1)", async () => {
    const r = await inShellWorkspace(async (ws) => {
      const help = await sh(ws, "artifacts");
      const list = await sh(ws, "artifacts repo list; echo rc=$?");
      return { help, list, direct: await ws.artifacts.cli({ argv: [] }) };
    });
    expect(r.help).toEqual({ ...r.help, exitCode: 1, stdout: r.direct.stdout, stderr: "" });
    expect(r.help.stdout).toContain("not configured");
    expect([r.list.stdout, r.list.stderr]).toEqual(["rc=1\n", `artifacts repo list: ${NOT_CONFIGURED}\n`]);
  });
});
