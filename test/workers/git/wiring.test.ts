/**
 * Git wired into the Workspace in real workerd (spec 01 §1, §5; spec 04
 * §2.2): `workspace.git` in a Durable Object (unconfigured → synchronous
 * throw; configured → one client), the local `getWorkspace(this)` client,
 * and `WorkspaceStub.git` → `WorkspaceGitStub.cli` over real Workers RPC
 * from this Worker into a `withWorkspace` agent (`GitAgent`).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getWorkspace, Workspace, WorkspaceGitStub } from "../../../src/index.js";
import { createGitClient } from "../../../src/git/index.js";
import { WORKSPACE } from "../../../src/do/symbol.js";

const NOT_CONFIGURED = "git is not configured on this Workspace: pass createGitClient() from agent-computer/git as WorkspaceOptions.git";

const gitAgent = () => env.GIT_AGENT.get(env.GIT_AGENT.newUniqueId());

describe("workspace.git in a Durable Object", () => {
  it("unconfigured: reading it throws synchronously with the not-configured message; configured: the same client on every read", async () => {
    const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
    await runInDurableObject(stub, async (_instance, state) => {
      const bare = new Workspace({ storage: state.storage });
      let thrown: unknown;
      try {
        void bare.git;
      } catch (error) {
        thrown = error;
      }
      expect((thrown as Error).message).toBe(NOT_CONFIGURED);
      expect((thrown as { code?: string }).code).toBe("ENOCONFIG");

      const ws = new Workspace({ storage: state.storage, git: createGitClient(), defaultGitIdentity: { name: "D", email: "d@example.com" } });
      const git = ws.git;
      expect(ws.git).toBe(git);
      await ws.fs.mkdir("/repo");
      expect(await git.cli({ argv: ["init"], cwd: "/repo" })).toEqual({ stdout: "Initialized empty Git repository in /repo/.git/\n", stderr: "", exitCode: 0 });
      // The stub's git (what __getWorkspaceStub() hands out) is a WorkspaceGitStub over the same client.
      const wsStub = ws.stub();
      expect(wsStub.git).toBeInstanceOf(WorkspaceGitStub);
      expect(wsStub.git).toBe(wsStub.git);
      const r = await wsStub.git.cli({ argv: ["status", "--porcelain"], cwd: "/repo" });
      expect(r).toEqual({ stdout: "", stderr: "", exitCode: 0 });
      const gitStub = wsStub.git;
      wsStub[Symbol.dispose]();
      await expect(gitStub.cli({ argv: ["status"], cwd: "/repo" })).rejects.toThrow("WorkspaceGitStub is disposed");
      expect(() => wsStub.git).toThrow("WorkspaceStub is disposed");
    });
  });
});

describe("getWorkspace(stub).git over Workers RPC", () => {
  it("cli runs in the agent: init, add, commit (default identity), log — files written through client.fs", async () => {
    const agent = gitAgent();
    // The lazy client forwards cli without an explicit await of the client.
    const init = await getWorkspace(agent).git.cli({ argv: ["init"], cwd: "/repo" });
    expect(init).toEqual({ stdout: "Initialized empty Git repository in /repo/.git/\n", stderr: "", exitCode: 0 });

    using ws = await getWorkspace(agent);
    await ws.fs.writeFile("/repo/README.md", "# hello\n");
    expect(await ws.git.cli({ argv: ["add", "README.md"], cwd: "/repo" })).toMatchObject({ exitCode: 0, stderr: "" });
    const commit = await ws.git.cli({ argv: ["commit", "-m", "first commit"], cwd: "/repo" });
    expect(commit.exitCode).toBe(0);
    const head = await ws.git.cli({ argv: ["rev-parse", "HEAD"], cwd: "/repo" });
    const oid = head.stdout.trim();
    expect(oid).toMatch(/^[0-9a-f]{40}$/);
    expect(commit.stdout).toBe(`[${oid.slice(0, 7)}] first commit\n`);
    expect(await ws.git.cli({ argv: ["log", "--oneline"], cwd: "/repo" })).toEqual({ stdout: `${oid.slice(0, 7)} first commit\n`, stderr: "", exitCode: 0 });
    expect((await ws.git.cli({ argv: ["log", "--format=%an <%ae>"], cwd: "/repo" })).stdout).toBe("Agent <agent@example.com>\n");
    // env feeds identity across RPC as well.
    await ws.fs.writeFile("/repo/b.txt", "b\n");
    await ws.git.cli({ argv: ["add", "b.txt"], cwd: "/repo" });
    const env2 = { GIT_AUTHOR_NAME: "Zoë Env", GIT_AUTHOR_EMAIL: "zoe@example.com" };
    expect((await ws.git.cli({ argv: ["commit", "-m", "second"], cwd: "/repo", env: env2 })).exitCode).toBe(0);
    expect((await ws.git.cli({ argv: ["log", "-n", "1", "--format=%an <%ae> %cn"], cwd: "/repo" })).stdout).toBe("Zoë Env <zoe@example.com> Zoë Env\n");
    // User errors resolve with an exit code; they do not reject.
    expect(await ws.git.cli({ argv: ["frobnicate"], cwd: "/repo" })).toMatchObject({ exitCode: 1, stderr: "git: 'frobnicate' is not a supported workspace git command\n" });
    expect((await ws.git.cli({ argv: ["status"], cwd: "/" })).exitCode).toBe(128);
  });

  it("stdin crosses RPC: hash-object --stdin -w gives real git's blob id", async () => {
    using ws = await getWorkspace(gitAgent());
    await ws.git.cli({ argv: ["init"], cwd: "/r" });
    // `printf 'hello\n' | git hash-object --stdin` = ce013625030ba8dba906f756967f9e9ca394464a
    const r = await ws.git.cli({ argv: ["hash-object", "--stdin", "-w"], cwd: "/r", stdin: "hello\n" });
    expect(r).toEqual({ stdout: "ce013625030ba8dba906f756967f9e9ca394464a\n", stderr: "", exitCode: 0 });
    expect((await ws.git.cli({ argv: ["cat-file", "-p", "ce01362"], cwd: "/r" })).stdout).toBe("hello\n");
  });

  it("a Workspace without git: the remote cli rejects with the not-configured message and code", async () => {
    using ws = await getWorkspace(env.SHELL_AGENT.get(env.SHELL_AGENT.newUniqueId()));
    await expect(ws.git.cli({ argv: ["status"] })).rejects.toMatchObject({ message: NOT_CONFIGURED, code: "ENOCONFIG" });
  });

  it("after dispose the remote git fails with the disposal error", async () => {
    const ws = await getWorkspace(gitAgent());
    ws[Symbol.dispose]();
    await expect(ws.git.cli({ argv: ["status"] })).rejects.toThrow("workspace client is disposed");
  });
});

describe("the local client's git", () => {
  it("getWorkspace(this).git is workspace.git; without git it throws synchronously", async () => {
    const agent = gitAgent();
    await runInDurableObject(agent, async (instance) => {
      using client = await getWorkspace(instance);
      const workspace = (instance as unknown as { [WORKSPACE]: Workspace })[WORKSPACE];
      expect(client.git).toBe(workspace.git);
    });
    await runInDurableObject(env.SHELL_AGENT.get(env.SHELL_AGENT.newUniqueId()), async (instance) => {
      using client = await getWorkspace(instance);
      expect(() => client.git).toThrow(NOT_CONFIGURED);
    });
  });
});
