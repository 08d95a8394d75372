/**
 * `artifacts create` leaves only the token it prints active (issue 18):
 * the write token the binding's `create` returns is revoked, a failed remote
 * registration or token mint revokes what the command made, and a remote
 * name git refuses is a usage error (129) before anything is called. The
 * binding is `ArtifactsStandIn`, the in-memory stand-in for the Artifacts
 * service (no local simulation exists).
 */
import { describe, expect, it } from "vitest";
import { createArtifact, runArtifactsCLI } from "../../../src/artifacts/index.js";
import type { ArtifactsStandIn } from "../../shared/artifacts-standin.js";
import { standIn } from "./helpers.js";

/** Each token of stored repository `name` as `[scope, state]`, oldest first. */
async function tokens(binding: ArtifactsStandIn, name: string): Promise<[string, string][]> {
  return (await (await binding.get(name)).listTokens()).tokens.map((t) => [t.scope, t.state]);
}

describe("artifacts create: tokens", () => {
  it("--scope read: the read token is printed and active; the create's write token is revoked", async () => {
    const binding = standIn();
    const r = await runArtifactsCLI(createArtifact(binding, "s"), { argv: ["create", "x", "--scope", "read"] });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    const out = JSON.parse(r.stdout);
    expect(out.scope).toBe("read");
    expect(await tokens(binding, "s__x")).toEqual([
      ["write", "revoked"],
      ["read", "active"],
    ]);
    // The active one is the printed one.
    expect(await (await binding.get("s__x")).revokeToken(out.token)).toBe(true);
  });

  it("--force on an existing repository revokes none of its tokens", async () => {
    const binding = standIn();
    const client = createArtifact(binding, "s");
    await client.create("x");
    const r = await runArtifactsCLI(client, { argv: ["create", "x", "--force"] });
    expect(r.exitCode).toBe(0);
    expect(await tokens(binding, "s__x")).toEqual([
      ["write", "active"],
      ["write", "active"],
    ]);
  });

  it("a remote registration that fails → 1, the minted token and the create token revoked", async () => {
    const binding = standIn();
    const seen: unknown[] = [];
    const r = await runArtifactsCLI(createArtifact(binding, "s"), {
      argv: ["create", "x", "--scope", "read"],
      remoteAdd: async (o) => {
        seen.push(o.name);
        return { ok: false, message: "not a git repository" };
      },
    });
    expect(r).toEqual({ stdout: "", stderr: "artifacts create: could not register remote 'x': not a git repository\n", exitCode: 1 });
    expect(seen).toEqual(["x"]);
    expect(await tokens(binding, "s__x")).toEqual([
      ["write", "revoked"],
      ["read", "revoked"],
    ]);
  });

  it("a remote that exists (no --force) → 1 mentioning --force; both tokens revoked", async () => {
    const binding = standIn();
    const r = await runArtifactsCLI(createArtifact(binding, "s"), { argv: ["create", "x"], remoteAdd: async () => ({ ok: false, exists: true }) });
    expect(r.stderr).toBe("artifacts create: git remote 'x' already exists; pass --force to replace it, or --remote <name> to use another name\n");
    expect(await tokens(binding, "s__x")).toEqual([
      ["write", "revoked"],
      ["write", "revoked"],
    ]);
  });

  it("a ttl the binding refuses → 1 with its message; the create token revoked", async () => {
    const binding = standIn();
    const r = await runArtifactsCLI(createArtifact(binding, "s"), { argv: ["create", "x", "--ttl", "30"] });
    expect(r).toEqual({ stdout: "", stderr: "artifacts create: Invalid TTL 30: must be between 60 and 31536000 seconds.\n", exitCode: 1 });
    expect(await tokens(binding, "s__x")).toEqual([["write", "revoked"]]);
  });

  it("a revocation that fails: create still prints its token (exit 0) and warns on stderr how to revoke", async () => {
    const binding = standIn();
    const client = createArtifact(binding, "s");
    // The client, with a revokeToken that fails (as a service outage would).
    const failing = new Proxy(client, {
      get(target, key) {
        if (key === "revokeToken") return async () => Promise.reject(new Error("service unavailable"));
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const r = await runArtifactsCLI(failing, { argv: ["create", "x", "--scope", "read"] });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).scope).toBe("read");
    expect(r.stderr).toBe(
      "artifacts create: warning: 1 token this command minted could not be revoked: find it with 'artifacts token list x' and run 'artifacts token revoke x <id>'\n",
    );
    expect(await tokens(binding, "s__x")).toEqual([
      ["write", "active"],
      ["read", "active"],
    ]);
  });
});

describe("artifacts create: remote names", () => {
  it("a --remote git refuses → 129 before the binding is called (configured or not)", async () => {
    for (const [remote, why] of [
      ["-f", "it starts with '-'"],
      ["", "it is empty"],
      ["a b", "it holds a space or control character"],
      ["a~b", "it holds '~'"],
      ["x/", "it has an empty path component"],
      ["a/.b", "a component starts with '.'"],
      ["a.lock/b", "it ends with '.' or a component ends with '.lock'"],
      ["a@{b", "it holds '@{' or is '@'"],
    ]) {
      const binding = standIn();
      const expected = { stdout: "", stderr: `artifacts create: invalid --remote '${remote}': not a git remote name (${why})\n`, exitCode: 129 };
      expect(await runArtifactsCLI(createArtifact(binding, "s"), { argv: ["create", "x", "--remote", remote!] })).toEqual(expected);
      expect(await runArtifactsCLI(createArtifact(binding, "s"), { argv: ["create", "x", `--remote=${remote}`] }, false)).toEqual(expected);
      expect(binding.calls).toEqual([]);
    }
  });

  it("names git takes pass: origin, a/b, a.b, a-b_c", async () => {
    for (const remote of ["origin", "a/b", "a.b", "a-b_c"]) {
      const binding = standIn();
      const r = await runArtifactsCLI(createArtifact(binding, "s"), { argv: ["create", "x", "--remote", remote] });
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(r.stdout).gitRemote).toBe(remote);
    }
  });

  it("a repository name the client refuses stays its EINVALIDNAME error (1), not a remote usage error", async () => {
    const binding = standIn();
    const r = await runArtifactsCLI(createArtifact(binding, "s"), { argv: ["create", "../x"] });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^artifacts create: invalid repository name '\.\.\/x'/);
    expect(binding.calls).toEqual([]);
  });
});
