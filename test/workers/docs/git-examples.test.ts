/**
 * The workerd examples of docs/git.md run (issue 15): the blocks marked
 * `<!-- workerd -->` — the `ws:git` module source (run as is by the
 * JavaScript backend), the shell script (run as is by the worker-shell
 * backend), and the RPC client (the same code, against `GitAgent`, the
 * Durable Object class of the page's Setup section: test/workers/git/agent.ts,
 * compared with the page by test/node/docs/git-examples.test.ts). The URL
 * `https://git.example.com/team/project.git` is a fresh copy of the loopback
 * server's fixture repository (test/shared/git-server.ts); after each run
 * the real git on the server checks what was pushed.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
// @ts-expect-error -- a vite `?raw` import (the page's text); the test tsconfig has no vite/client types.
import page from "../../../docs/git.md?raw";
import { getWorkspace, Workspace } from "../../../src/index.js";
import { createGitClient } from "../../../src/git/index.js";
import { createGitModule } from "../../../src/modules/git.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { WorkerShellBackend } from "../../../src/backends/worker-shell/index.js";
import { forkRepo, gitServer, serverGit } from "../../shared/git-remote.js";

const PLACEHOLDER_URL = "https://git.example.com/team/project.git";

/** The fenced blocks marked `<!-- workerd -->`, in page order. */
function workerdBlocks(text: string): { lang: string; code: string }[] {
  const out: { lang: string; code: string }[] = [];
  const re = /<!-- workerd -->\n```(\w+)\n([\s\S]*?)\n```\n/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push({ lang: m[1]!, code: `${m[2]!}\n` });
  return out;
}

const blocks = workerdBlocks(page as string);

/** Runs `fn` in a fresh Durable Object whose Workspace has git, a default identity, and `backends`. */
async function inGitWorkspace<T>(backends: WorkspaceBackends, fn: (ws: Workspace) => Promise<T>): Promise<T> {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_i, state) => {
    const ws = new Workspace({
      storage: state.storage,
      git: createGitClient(),
      defaultGitIdentity: { name: "Agent", email: "agent@example.com" },
      backends,
    });
    try {
      await ws.fs.mkdir("/workspace", { recursive: true });
      return await fn(ws);
    } finally {
      await ws.close();
    }
  });
}
type WorkspaceBackends = ConstructorParameters<typeof Workspace>[0]["backends"];

describe("docs/git.md in workerd", () => {
  it("the page has the four workerd blocks: the Durable Object, the RPC client, ws:git and the shell", () => {
    expect(blocks.map((b) => b.lang)).toEqual(["ts", "ts", "js", "sh"]);
    expect(gitServer().baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("ws:git: the module source runs as is — clone, switch -c, status, commit, log, diff", async () => {
    const { url } = await forkRepo();
    const source = blocks[2]!.code.replaceAll(PLACEHOLDER_URL, url);
    const backend = new WorkerJavaScriptBackend({ loader: env.LOADER, modules: { "ws:git": createGitModule({ allowNetwork: true }) } });
    const { r, branch } = await inGitWorkspace([backend], async (ws) => {
      const r = await (await ws.runtime.exec(source, { encoding: "utf8", timeoutMs: 60_000 })).result();
      return { r, branch: await ws.git.currentBranch({ dir: "/workspace/project" }) };
    });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    const value = r.value as { changes: unknown; exitCode: number; head: string; patch: string };
    expect(value.changes).toEqual([{ path: "NOTES.md", index: " ", worktree: "?" }]);
    expect(value.exitCode).toBe(0);
    expect(value.head).toBe("Add notes\n");
    expect(value.patch).toBe(
      "diff --git a/NOTES.md b/NOTES.md\nnew file mode 100644\nindex 0000000.." +
        value.patch.slice(value.patch.indexOf("index 0000000..") + 15, value.patch.indexOf("index 0000000..") + 22) +
        "\n--- /dev/null\n+++ b/NOTES.md\n@@ -0,0 +1 @@\n+# Notes\n",
    );
    expect(branch).toBe("fix");
  });

  it("the shell: the script runs as is — clone, edit, status -s, commit with the shell's variables, log, push; the server has the commit", async () => {
    const { name, url } = await forkRepo();
    const script = blocks[3]!.code.replaceAll(PLACEHOLDER_URL, url);
    const r = await inGitWorkspace([new WorkerShellBackend({ loader: env.LOADER })], async (ws) =>
      (await ws.runtime.exec(script, { encoding: "utf8", cwd: "/workspace", timeoutMs: 60_000 })).result(),
    );
    expect([r.exitCode, r.stderr]).toEqual([0, expect.any(String)]);
    const lines = r.stdout.split("\n");
    expect(lines).toContain(" M README.md");
    expect(lines).toContain("Shell User: Edit from the shell");
    const log = await serverGit(name, ["log", "--format=%an <%ae> %s", "-n", "1", "main"]);
    expect(log.stdout).toBe("Shell User <shell@example.com> Edit from the shell\n");
    const readme = await serverGit(name, ["show", "main:README.md"]);
    expect(readme.stdout.endsWith("- from the shell\n")).toBe(true);
    expect((await serverGit(name, ["fsck", "--strict"])).code).toBe(0);
  });

  it("over RPC: the page's client code, against the Durable Object class of the page (GitAgent)", async () => {
    const rpc = blocks[1]!.code;
    // The page's block, line for line, with `env.AGENT.getByName("alice")` for the agent.
    expect(rpc).toBe(
      [
        'import { getWorkspace } from "agent-computer";',
        "",
        'using workspace = await getWorkspace(env.AGENT.getByName("alice"));',
        'await workspace.fs.mkdir("/repo", { recursive: true });',
        'await workspace.fs.writeFile("/repo/README.md", "# hello\\n");',
        'await workspace.git.cli({ argv: ["init"], cwd: "/repo" });',
        'await workspace.git.cli({ argv: ["add", "README.md"], cwd: "/repo" });',
        'const { stdout, exitCode } = await workspace.git.cli({ argv: ["commit", "-m", "first"], cwd: "/repo" });',
        "",
      ].join("\n"),
    );
    // The same code (a fresh agent rather than "alice").
    using workspace = await getWorkspace(env.GIT_AGENT.get(env.GIT_AGENT.newUniqueId()));
    await workspace.fs.mkdir("/repo", { recursive: true });
    await workspace.fs.writeFile("/repo/README.md", "# hello\n");
    await workspace.git.cli({ argv: ["init"], cwd: "/repo" });
    await workspace.git.cli({ argv: ["add", "README.md"], cwd: "/repo" });
    const { stdout, exitCode } = await workspace.git.cli({ argv: ["commit", "-m", "first"], cwd: "/repo" });
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(/^\[[0-9a-f]{7}\] first\n$/);
    const log = await workspace.git.cli({ argv: ["log", "--format=%an <%ae> %s"], cwd: "/repo" });
    expect(log).toEqual({ stdout: "Agent <agent@example.com> first\n", stderr: "", exitCode: 0 });
  });
});
