/**
 * probe18 (fresh-user probe): the result shapes docs/artifacts.md's client table promises, and the
 * CLI commands' outputs, checked field by field. Binding: the documented `ArtifactsStandIn`.
 */
import { describe, expect, it } from "vitest";
import { createArtifact } from "../../../src/artifacts/index.js";
import { ArtifactsStandIn } from "../../shared/artifacts-standin.js";

const keys = (o: object) => Object.keys(o).sort();

describe("probe18 artifacts: documented shapes", () => {
  it("create / get / list / createToken / listTokens / getToken fields", async () => {
    const c = createArtifact(new ArtifactsStandIn(), "s");
    const created = await c.create("r", { description: "d" });
    expect(keys(created)).toEqual(["defaultBranch", "description", "id", "name", "remote", "token", "tokenExpiresAt"]);
    const got = await c.get("r");
    expect(keys(got)).toEqual(["createdAt", "defaultBranch", "description", "id", "lastPushAt", "name", "readOnly", "remote", "source", "updatedAt"]);
    const listed = await c.list();
    expect(keys(listed[0]!)).toEqual(keys(got).filter((k) => k !== "remote"));
    const t = await c.createToken("r");
    expect(keys(t)).toEqual(["expiresAt", "id", "plaintext", "scope"]);
    expect(t.scope).toBe("write");
    const lt = await c.listTokens("r");
    expect(keys(lt)).toEqual(["tokens", "total"]);
    expect(keys(lt.tokens[0]!)).toEqual(["createdAt", "expiresAt", "id", "scope", "state"]);
    expect(JSON.stringify(lt)).not.toContain("art_v2");
    expect(keys(await c.getToken("r", t.id))).toEqual(["createdAt", "expiresAt", "id", "scope", "state"]);
    expect(await c.revokeToken("r", t.plaintext)).toBe(true);
    expect(await c.revokeToken("r", t.plaintext)).toBe(false);
  });

  it("createToken ttl outside 60..31,536,000 s → the binding's error passes through (nothing minted)", async () => {
    const c = createArtifact(new ArtifactsStandIn(), "s");
    await c.create("r");
    for (const ttl of [59, 31_536_001, 1.5, -1, 0]) {
      const e = await c.createToken("r", "read", ttl).catch((x: unknown) => x);
      expect(e, String(ttl)).toBeInstanceOf(Error);
    }
    expect((await c.listTokens("r")).total).toBe(1);
  });

  it("CLI: share prints a credentialed read URL; token create JSON includes plaintext; repo delete / token revoke messages", async () => {
    const b = new ArtifactsStandIn();
    const c = createArtifact(b, "s");
    await c.create("r");
    const share = await c.cli({ argv: ["share", "r"] });
    expect(share.exitCode).toBe(0);
    expect(share.stdout).toMatch(/^https:\/\/x:art_v2_x_[0-9a-f]+@artifacts\.standin\.invalid\/standin\/s__r\.git\n$/);
    const shareCall = b.calls.filter((x) => x.method === "repo.createToken").at(-1);
    expect(shareCall?.args[1]).toBe("read");
    const tok = await c.cli({ argv: ["token", "create", "r"] });
    expect(keys(JSON.parse(tok.stdout))).toEqual(["expiresAt", "id", "plaintext", "scope"]);
    expect(await c.cli({ argv: ["repo", "delete", "r"] })).toEqual({ stdout: "Deleted r\n", stderr: "", exitCode: 0 });
    const again = await c.cli({ argv: ["repo", "delete", "r"] });
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain("no such repo 'r'");
  });

  it("CLI: `--` ends options (a name may then start with '-' only to be refused as a name, exit 1)", async () => {
    const c = createArtifact(new ArtifactsStandIn(), "s");
    const r = await c.cli({ argv: ["repo", "create", "--", "-x"] });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("invalid repository name '-x'");
  });
});
