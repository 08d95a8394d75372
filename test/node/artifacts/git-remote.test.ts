/**
 * The stand-in binding's repositories are real bare repositories on the
 * loopback git server (test/shared/git-server.ts): `artifacts create` with
 * the real git as the `remoteAdd` seam, then `git push` to the registered
 * credentialed remote lands commits the server's git reads; `share` gives a
 * URL the real git clones.
 */
import { afterAll, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createArtifact } from "../../../src/artifacts/index.js";
import { gitServer, serverGit } from "../../shared/git-remote.js";
import { cleanup, git, gitRemoteAdd, gitRepo, standIn, tempDir } from "./helpers.js";

afterAll(cleanup);

function serverName(remote: string): string {
  return /\/git\/([^/]+)\.git$/.exec(remote)![1]!;
}

describe("artifacts create → git push", () => {
  it("a new repository is empty on the server, HEAD on its default branch; a push lands there", async () => {
    const { baseUrl } = gitServer();
    const client = createArtifact(standIn({ gitServerUrl: baseUrl }), "s1");
    const dir = gitRepo();
    const out = await client.cli({ argv: ["create", "notes", "--default-branch", "main"], remoteAdd: gitRemoteAdd(dir) });
    expect(out.stderr).toBe("");
    expect(out.exitCode).toBe(0);
    const created = JSON.parse(out.stdout);
    expect(created.remote.startsWith(`${baseUrl}/git/repo-`)).toBe(true);
    expect(created.remote).toMatch(/\/git\/repo-[0-9a-f-]{36}\.git$/);
    expect(created.credentialedRemote).toBe(created.remote.replace("://", `://x:${encodeURIComponent(created.token.split("?expires=")[0])}@`));
    const name = serverName(created.remote);
    expect((await serverGit(name, ["for-each-ref"])).stdout).toBe("");
    expect((await serverGit(name, ["symbolic-ref", "HEAD"])).stdout).toBe("refs/heads/main\n");

    writeFileSync(join(dir, "README.md"), "hello artifacts\n");
    expect(git(dir, "add", "README.md").status).toBe(0);
    expect(git(dir, "commit", "-q", "-m", "first note").status).toBe(0);
    const head = git(dir, "rev-parse", "HEAD").stdout.trim();
    const push = git(dir, "push", "-q", "notes", "main");
    expect(push.stderr).toBe("");
    expect(push.status).toBe(0);

    expect((await serverGit(name, ["log", "--format=%H %s", "main"])).stdout).toBe(`${head} first note\n`);
    expect((await serverGit(name, ["show", "main:README.md"])).stdout).toBe("hello artifacts\n");

    // share → a URL the real git clones.
    const shared = await client.cli({ argv: ["share", "notes"] });
    expect(shared.exitCode).toBe(0);
    const url = shared.stdout.trim();
    expect(url).toMatch(/^http:\/\/x:art_v2_x_[0-9a-f]{40}@127\.0\.0\.1:/);
    expect(url.replace(/x:[^@]+@/, "")).toBe(created.remote);
    const clone = tempDir("artifacts-clone-");
    const cloned = git(clone, "clone", "-q", url, "copy");
    expect(cloned.status).toBe(0);
    expect(git(join(clone, "copy"), "log", "--format=%H", "-1").stdout.trim()).toBe(head);
  });

  it("repo import copies a server repository; --default-branch sets HEAD of a new one", async () => {
    const { baseUrl, fixture } = gitServer();
    const client = createArtifact(standIn({ gitServerUrl: baseUrl }));
    const imported = await client.cli({ argv: ["repo", "import", "copy", "--url", `${baseUrl}/git/fixture.git`, "--branch", "feature"] });
    expect(imported.exitCode).toBe(0);
    const value = JSON.parse(imported.stdout);
    expect(value.defaultBranch).toBe("feature");
    expect((await serverGit(serverName(value.remote), ["rev-parse", "HEAD"])).stdout.trim()).toBe(fixture.branches.feature);

    const missing = await client.cli({ argv: ["repo", "import", "nope", "--url", `${baseUrl}/git/fixture.git`, "--branch", "no-such"] });
    expect(missing).toEqual({ stdout: "", stderr: "artifacts repo import: branch 'no-such' not found in the source repository\n", exitCode: 1 });

    const trunk = JSON.parse((await client.cli({ argv: ["repo", "create", "t", "--default-branch", "trunk"] })).stdout);
    expect((await serverGit(serverName(trunk.remote), ["symbolic-ref", "HEAD"])).stdout).toBe("refs/heads/trunk\n");
  });
});
