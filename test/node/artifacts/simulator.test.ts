/**
 * The client and CLI against the **real** Artifacts binding of Miniflare's
 * local simulator (miniflare 5: `env.ARTIFACTS` with `dev.remote: false`,
 * repositories served by a git backend on loopback, tokens checked on every
 * git request). The CLI runs inside workerd (simulator-worker.ts); the real
 * `git` pushes and clones with the credentialed URLs it prints.
 *
 * What the simulator shows that the in-memory stand-in cannot: binding
 * errors cross JS RPC as plain `Error`s (`ArtifactsError: …` message, no
 * `code`) — `create` must still tell an absent repository from a failure;
 * a read token cannot push; a revoked token stops working.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "esbuild";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Miniflare } from "miniflare";
import type { ArtifactsCLIResult } from "../../../src/artifacts/index.js";
import { cleanup, git, gitRepo, tempDir } from "./helpers.js";

let mf: Miniflare | undefined;

beforeAll(async () => {
  const bundle = await build({
    entryPoints: [join(import.meta.dirname, "simulator-worker.ts")],
    bundle: true,
    format: "esm",
    platform: "neutral",
    write: false,
    logLevel: "silent",
  });
  const { Miniflare, convertV4MiniflareOptions } = await import("miniflare");
  const options = convertV4MiniflareOptions({ modules: true, script: bundle.outputFiles[0]!.text, compatibilityDate: "2026-01-01" });
  // The v4 options have no switch for the local simulator: set the v5 binding with dev.remote: false.
  (options.workers[0]!.config as { env?: Record<string, unknown> }).env = {
    ARTIFACTS: { type: "artifacts", namespace: "agent-repos", dev: { remote: false } },
  };
  mf = new Miniflare(options);
  await mf.ready;
}, 120_000);

afterAll(async () => {
  await mf?.dispose();
  cleanup();
});

async function cli(session: string | null, ...argv: string[]): Promise<ArtifactsCLIResult> {
  const response = await mf!.dispatchFetch("http://artifacts.test/", { method: "POST", body: JSON.stringify({ session, argv }) });
  return (await response.json()) as ArtifactsCLIResult;
}

/** A repository with one commit of `a.txt`. */
function workTree(content: string): string {
  const dir = gitRepo();
  writeFileSync(join(dir, "a.txt"), content);
  git(dir, "add", "a.txt");
  git(dir, "commit", "-q", "-m", "one");
  return dir;
}

describe("Miniflare's local Artifacts simulator", () => {
  it("create → push with the credentialed remote → share → clone; metadata follows the push", async () => {
    const created = await cli("s1", "create", "notes", "--description", "session notes");
    expect(created.stderr).toBe("");
    expect(created.exitCode).toBe(0);
    const value = JSON.parse(created.stdout);
    expect(value.remote).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/git\/agent-repos\/s1__notes\.git$/);
    expect(value.credentialedRemote).toBe(value.remote.replace("://", `://x:${value.token.split("?expires=")[0]}@`));
    expect(value).toMatchObject({ name: "notes", gitRemote: "notes", scope: "write", remoteRegistered: false, defaultBranch: "main" });

    const dir = workTree("first\n");
    expect(git(dir, "push", "-q", value.remote, "main").stderr).toContain("could not read Username"); // no token, no push
    const push = git(dir, "push", "-q", value.credentialedRemote, "main");
    expect(push.stderr).toBe("");
    expect(push.status).toBe(0);

    const info = JSON.parse((await cli("s1", "repo", "get", "notes")).stdout);
    expect(info).toMatchObject({ name: "notes", description: "session notes", remote: value.remote });
    expect(info.lastPushAt).not.toBeNull();

    const shared = await cli("s1", "share", "notes", "--ttl", "10m");
    expect(shared.exitCode).toBe(0);
    const url = shared.stdout.trim();
    const clone = tempDir("artifacts-sim-clone-");
    expect(git(clone, "clone", "-q", url, "copy").status).toBe(0);
    expect(git(join(clone, "copy"), "show", "HEAD:a.txt").stdout).toBe("first\n");

    // share's token is read-only: the simulator refuses a push with it.
    const refused = git(dir, "push", "-q", url, "main:other");
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain("Artifacts token requires write scope");
  });

  it("create of an existing repository needs --force (absence is told apart from failure over RPC)", async () => {
    expect((await cli("s2", "create", "dup")).exitCode).toBe(0);
    expect(await cli("s2", "create", "dup")).toEqual({
      stdout: "",
      stderr: "artifacts create: repository 'dup' already exists; pass --force to reuse it (a new token is minted and the remote replaced)\n",
      exitCode: 1,
    });
    const forced = await cli("s2", "create", "dup", "--force", "--scope", "read", "--ttl", "1h");
    expect(forced.exitCode).toBe(0);
    expect(JSON.parse(forced.stdout)).toMatchObject({ name: "dup", scope: "read" });
    // The binding's own errors pass through, with the message workerd keeps.
    expect(await cli("s2", "repo", "get", "absent")).toEqual({
      stdout: "",
      stderr: "artifacts repo get: ArtifactsError: Repository not found: s2__absent.\n",
      exitCode: 1,
    });
    expect(await cli("s2", "token", "create", "dup", "--ttl", "30")).toEqual({
      stdout: "",
      stderr: "artifacts token create: ArtifactsError: Invalid TTL 30: must be between 60 and 31536000 seconds.\n",
      exitCode: 1,
    });
  });

  it("a revoked token stops working; token get of it then misses", async () => {
    const created = JSON.parse((await cli("s3", "create", "repo")).stdout);
    const minted = JSON.parse((await cli("s3", "token", "create", "repo", "--scope", "write", "--ttl", "1h")).stdout);
    expect(JSON.parse((await cli("s3", "token", "get", "repo", minted.id)).stdout)).toMatchObject({ id: minted.id, scope: "write", state: "active" });
    const url = created.remote.replace("://", `://x:${encodeURIComponent(minted.plaintext.split("?expires=")[0])}@`);
    const dir = workTree("x\n");
    expect(git(dir, "push", "-q", url, "main").status).toBe(0);

    expect(await cli("s3", "token", "revoke", "repo", minted.plaintext)).toEqual({ stdout: "Revoked token\n", stderr: "", exitCode: 0 });
    const denied = git(dir, "push", "-q", url, "main:again");
    expect(denied.status).not.toBe(0);
    expect(denied.stderr).toMatch(/Authentication failed|401|Invalid Artifacts token/);
    expect(await cli("s3", "token", "delete", "repo", minted.id)).toEqual({ stdout: "", stderr: "artifacts token delete: no such token in repo 'repo'\n", exitCode: 1 });
    expect(await cli("s3", "token", "get", "repo", minted.id)).toEqual({
      stdout: "",
      stderr: `artifacts token get: no such token '${minted.id}' in repo 'repo'\n`,
      exitCode: 1,
    });
  });

  it("sessions see only their own repositories; unscoped sees the stored names", async () => {
    expect((await cli("alpha", "repo", "create", "shared-name")).exitCode).toBe(0);
    expect((await cli("beta", "repo", "create", "shared-name")).exitCode).toBe(0);
    const alpha = JSON.parse((await cli("alpha", "repo", "list")).stdout) as Array<{ name: string }>;
    expect(alpha.map((r) => r.name)).toEqual(["shared-name"]);
    expect(alpha[0]).not.toHaveProperty("remote");
    const all = JSON.parse((await cli(null, "repo", "list")).stdout) as Array<{ name: string }>;
    expect(all.map((r) => r.name).filter((n) => n.endsWith("__shared-name")).sort()).toEqual(["alpha__shared-name", "beta__shared-name"]);
    expect(JSON.parse((await cli(null, "repo", "get", "beta__shared-name")).stdout).name).toBe("beta__shared-name");

    expect(await cli("beta", "repo", "delete", "shared-name")).toEqual({ stdout: "Deleted shared-name\n", stderr: "", exitCode: 0 });
    expect(await cli("beta", "repo", "delete", "shared-name")).toEqual({ stdout: "", stderr: "artifacts repo delete: no such repo 'shared-name'\n", exitCode: 1 });
    expect((await cli("alpha", "repo", "get", "shared-name")).exitCode).toBe(0);
  });

  it("name rules are checked before the binding", async () => {
    expect(await cli("s4", "repo", "create", "a__b")).toEqual({
      stdout: "",
      stderr:
        "artifacts repo create: invalid repository name 'a__b': must not contain '__' (it separates the session id from the name) in a session-scoped client\n",
      exitCode: 1,
    });
    expect(JSON.parse((await cli("s4", "repo", "list")).stdout)).toEqual([]);
  });
});
