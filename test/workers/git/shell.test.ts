/**
 * The worker-shell `git` built-in in real workerd (spec 02 §6, spec 04
 * §2.6): the command line, cwd, the shell's variables and stdin reach
 * `workspace.git.cli` in the host; its stdout, stderr and exit code come
 * back; without git, `git: <message>`, exit 1.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";
import { createGitClient } from "../../../src/git/index.js";
import { forkRepo, serverGit } from "../../shared/git-remote.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const NOT_CONFIGURED = "git is not configured on this Workspace: pass createGitClient() from agent-computer/git as WorkspaceOptions.git";
const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "Shell User", email: "shell@example.com" } } };

describe("git in the shell", () => {
  it("git init && echo x > f && git add f && git commit -m m && git log --oneline", async () => {
    const { r, oid } = await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace/repo", { recursive: true });
      const r = await sh(ws, "git init && echo x > f && git add f && git commit -m m && git log --oneline", { cwd: "/workspace/repo" });
      const [head] = await ws.git.log({ dir: "/workspace/repo" });
      return { r, oid: head!.oid };
    }, withGit);
    const short = oid.slice(0, 7);
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, `Initialized empty Git repository in /workspace/repo/.git/\n[${short}] m\n${short} m\n`, ""]);
  });

  it("exit codes and stderr come back as git gives them; the shell goes on", async () => {
    const r = await inShellWorkspace(
      async (ws) => {
        await ws.fs.mkdir("/workspace/empty", { recursive: true });
        return sh(ws, "git status; echo rc=$?; git frob; echo rc=$?; git log --bogus; echo rc=$?", { cwd: "/workspace/empty" });
      },
      withGit,
    );
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("rc=128\nrc=1\nrc=129\n");
    expect(r.stderr).toContain("git status: not a git repository: /workspace/empty\n");
    expect(r.stderr).toContain("git: 'frob' is not a supported workspace git command\n");
    expect(r.stderr).toContain("git log: unknown option '--bogus'\n");
  });

  it("the shell's variables feed identity (prefix assignment and export); stdin reaches hash-object --stdin as UTF-8", async () => {
    const r = await inShellWorkspace(
      async (ws) =>
        sh(
          ws,
          [
            "mkdir -p r && cd r && git init >/dev/null",
            "echo a > a && git add a",
            'GIT_AUTHOR_NAME="Zoë Prefix" GIT_AUTHOR_EMAIL=zoe@example.com git commit -m one >/dev/null',
            "export GIT_AUTHOR_NAME=Exported GIT_AUTHOR_EMAIL=ex@example.com",
            "echo b > b && git add b && git commit -m two >/dev/null",
            'git log --format="%an <%ae> | %cn"',
            "echo 'héllo' | git hash-object --stdin",
          ].join("\n"),
        ),
      withGit,
    );
    expect(r.stderr).toBe("");
    // The committer falls back to GIT_AUTHOR_* (spec 04 §2.3).
    const [line1, line2, blob] = r.stdout.split("\n");
    expect([line1, line2]).toEqual(["Exported <ex@example.com> | Exported", "Zoë Prefix <zoe@example.com> | Zoë Prefix"]);
    // Real git 2.39: printf 'héllo\n' | git hash-object --stdin (the text piped as echo's UTF-8; printf's
    // octal escapes give the same bytes, test/workers/fix24/shell-escape-bytes.test.ts).
    expect(blob).toBe("5fb50d3c93474f139362304b663fe44e9d17a26e");
  });

  it("stdin that is not UTF-8 reaches git as bytes", async () => {
    const r = await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace/b", { recursive: true });
      await (await ws.runtime.exec("git init >/dev/null", { cwd: "/workspace/b" })).result();
      const handle = await ws.runtime.exec("git hash-object --stdin -w", { cwd: "/workspace/b", encoding: "utf8", stdin: new Uint8Array([0xff, 0x00, 0x41, 0x0a]) });
      return handle.result();
    }, withGit);
    // Real git 2.39: printf '\377\000A\n' | git hash-object --stdin
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, "1c1f6a0c710613ab9e3a240c11c363a91feed5ee\n", ""]);
  });

  it("without git on the Workspace: git: <not-configured message>, exit 1", async () => {
    const r = await inShellWorkspace(async (ws) => sh(ws, "git init; echo rc=$?"));
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, "rc=1\n", `git: ${NOT_CONFIGURED}\n`]);
  });

  it("clone from the loopback server runs in the host, whatever the shell's egress (none)", async () => {
    const { url, name } = await forkRepo();
    const real = await serverGit(name, ["rev-parse", "HEAD"]);
    const r = await inShellWorkspace(async (ws) => sh(ws, `git clone --depth 1 ${url} c && cd c && git rev-parse HEAD && git status --porcelain`), withGit);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`${real.stdout.trim()}\n`);
    expect(r.stderr).toContain("Cloning into 'c'...\n");
  });

  it("through the GitAgent over RPC: the shell's git and the client's git see one repository", async () => {
    using ws = await getWorkspace(env.GIT_AGENT.get(env.GIT_AGENT.newUniqueId()));
    await ws.fs.mkdir("/workspace/p", { recursive: true });
    using handle = await ws.runtime.exec("git init >/dev/null && echo hi > hi.txt && git add hi.txt && git commit -q -m 'from shell'", {
      backend: "worker-shell",
      cwd: "/workspace/p",
      encoding: "utf8",
    });
    const r = await handle.result();
    expect([r.exitCode, r.stderr]).toEqual([0, ""]);
    const log = await ws.git.cli({ argv: ["log", "--format=%s|%an"], cwd: "/workspace/p" });
    expect(log.stdout).toBe("from shell|Agent\n");
  });
});
