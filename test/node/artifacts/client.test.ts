/**
 * `createArtifact(binding, sessionId?)` (spec 04 §3.2) over the in-memory
 * stand-in for the Artifacts binding (test/shared/artifacts-standin.ts; the
 * platform service has no local simulation): scoped and unscoped names,
 * validation before any binding call, paging, tokens, errors — and the
 * unconfigured client of spec 04 §3.3.
 */
import { describe, expect, it } from "vitest";
import {
  ArtifactError,
  createArtifact,
  InvalidRepoNameError,
  InvalidSessionIdError,
  NotFoundError,
} from "../../../src/artifacts/index.js";
import { ARTIFACTS_LIST_MAX_PAGES } from "../../../src/artifacts/client.js";
import { unconfiguredArtifacts } from "../../../src/artifacts/unconfigured.js";
import { ArtifactsStandIn } from "../../shared/artifacts-standin.js";
import { gitServer } from "../../shared/git-remote.js";

const NOW = Date.parse("2026-01-01T00:00:00.000Z");
const standIn = (opts: ConstructorParameters<typeof ArtifactsStandIn>[0] = {}) => new ArtifactsStandIn({ now: () => NOW, ...opts });

async function rejection(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error("expected a rejection");
}

describe("session ids", () => {
  it("undefined and null are unscoped", () => {
    expect(createArtifact(standIn()).sessionId).toBeUndefined();
    expect(createArtifact(standIn(), null).sessionId).toBeUndefined();
    expect(createArtifact(standIn(), "chat-1.a_b").sessionId).toBe("chat-1.a_b");
  });

  it.each([
    ["", "invalid session id '': must not be empty (pass null or leave it out for unscoped names)"],
    ["a__b", "invalid session id 'a__b': must not contain '__' (it separates the session id from the name)"],
    ["-a", "invalid session id '-a': must start with a letter or digit and contain only letters, digits, '.', '_' and '-'"],
    ["a b", "invalid session id 'a b': must start with a letter or digit and contain only letters, digits, '.', '_' and '-'"],
    ["a/b", "invalid session id 'a/b': must start with a letter or digit and contain only letters, digits, '.', '_' and '-'"],
  ])("%j → InvalidSessionIdError at construction", (sessionId, message) => {
    let error: unknown;
    try {
      createArtifact(standIn(), sessionId);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidSessionIdError);
    expect(error).toBeInstanceOf(ArtifactError);
    expect(error).toMatchObject({ name: "InvalidSessionIdError", code: "EINVALIDSESSION", message, sessionId });
  });

  it("a non-string session id is refused, saying what it was", () => {
    expect(() => createArtifact(standIn(), 7 as unknown as string)).toThrow(
      new InvalidSessionIdError("7", "must be a string or null (got number)"),
    );
  });

  it("a missing binding is ArtifactError EINVAL", () => {
    expect(() => createArtifact(undefined as never)).toThrow(ArtifactError);
    expect(() => createArtifact({} as never)).toThrow(/binding must be an Artifacts binding/);
  });
});

describe("repository names", () => {
  const pattern = "must start with a letter or digit and contain only letters, digits, '.', '_' and '-'";
  it.each([
    [undefined, "", `invalid repository name '': must not be empty`],
    [undefined, "-x", `invalid repository name '-x': ${pattern}`],
    [undefined, ".x", `invalid repository name '.x': ${pattern}`],
    [undefined, "a/b", `invalid repository name 'a/b': ${pattern}`],
    [undefined, "a b", `invalid repository name 'a b': ${pattern}`],
    ["s1", "", `invalid repository name '': must not be empty`],
    ["s1", "a__b", `invalid repository name 'a__b': must not contain '__' (it separates the session id from the name) in a session-scoped client`],
    ["s1", "é", `invalid repository name 'é': ${pattern}`],
  ])("session %j, name %j → rejects InvalidRepoNameError before calling the binding", async (session, name, message) => {
    const binding = standIn();
    const client = createArtifact(binding, session);
    for (const call of [
      () => client.create(name),
      () => client.get(name),
      () => client.import(name, { url: "https://example.com/r.git" }),
      () => client.delete(name),
      () => client.createToken(name),
      () => client.listTokens(name),
      () => client.revokeToken(name, "t"),
      () => client.getToken(name, "t"),
    ]) {
      const error = await rejection(call());
      expect(error).toBeInstanceOf(InvalidRepoNameError);
      expect(error).toMatchObject({ name: "InvalidRepoNameError", code: "EINVALIDNAME", message, repoName: name });
    }
    expect(binding.calls).toEqual([]);
  });

  it("unscoped names may contain '__'", async () => {
    const binding = standIn();
    const client = createArtifact(binding);
    const created = await client.create("a__b");
    expect(created.name).toBe("a__b");
    expect(binding.names()).toEqual(["a__b"]);
  });
});

describe("scoped and unscoped clients", () => {
  it("scoped: stores <session>__<name>, returns the caller's name, lists only its own", async () => {
    const binding = standIn();
    const raw = createArtifact(binding);
    for (const stored of ["s1__", "s1__a__b", "s2__x", "other", "s10__y"]) await raw.create(stored);
    const client = createArtifact(binding, "s1");
    const created = await client.create("notes", { description: "my notes", setDefaultBranch: "trunk" });
    expect(binding.calls.at(-1)).toEqual({ method: "create", args: ["s1__notes", { description: "my notes", setDefaultBranch: "trunk" }] });
    expect(created).toMatchObject({
      name: "notes",
      description: "my notes",
      defaultBranch: "trunk",
      remote: "https://artifacts.standin.invalid/standin/s1__notes.git",
      tokenExpiresAt: "2026-01-02T00:00:00.000Z",
    });
    expect(created.token).toMatch(/^art_v2_x_[0-9a-f]{40}\?expires=1767312000$/);
    await client.create("zeta");

    const info = await client.get("notes");
    expect(info).toEqual({
      id: created.id,
      name: "notes",
      description: "my notes",
      defaultBranch: "trunk",
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
      lastPushAt: null,
      source: null,
      readOnly: false,
      remote: "https://artifacts.standin.invalid/standin/s1__notes.git",
    });
    expect(binding.calls.slice(-2).map((c) => c.args)).toEqual([["s1__notes"], ["s1__notes"]]);

    const listed = await client.list();
    expect(listed.map((r) => r.name)).toEqual(["notes", "zeta"]);
    expect(listed[0]).toEqual({
      id: created.id,
      name: "notes",
      description: "my notes",
      defaultBranch: "trunk",
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
      lastPushAt: null,
      source: null,
      readOnly: false,
    });
    // Unscoped sees everything, names as stored.
    expect((await raw.list()).map((r) => r.name)).toEqual(["other", "s10__y", "s1__", "s1__a__b", "s1__notes", "s1__zeta", "s2__x"]);

    expect(await client.delete("zeta")).toBe(true);
    expect(await client.delete("zeta")).toBe(false);
    expect(binding.names()).not.toContain("s1__zeta");
  });

  it("a create echo without the prefix is reported under the caller's name", async () => {
    const binding = standIn();
    const echoing = Object.assign(Object.create(binding) as ArtifactsStandIn, {
      create: async (name: string) => ({ ...(await binding.create(name)), name: "something-else" }),
    });
    expect((await createArtifact(echoing, "s1").create("mine")).name).toBe("mine");
    expect((await createArtifact(echoing).create("mine2")).name).toBe("something-else");
  });

  it("binding errors pass through unchanged", async () => {
    const client = createArtifact(standIn(), "s1");
    const error = await rejection(client.get("absent"));
    expect(error).toMatchObject({ name: "ArtifactsError", code: "NOT_FOUND", message: "Repository not found: s1__absent." });
    await client.create("dup");
    expect(await rejection(client.create("dup"))).toMatchObject({ code: "ALREADY_EXISTS" });
    expect(await rejection(client.createToken("dup", "read", 5))).toMatchObject({ code: "INVALID_TTL" });
  });
});

describe("list paging", () => {
  it("reads pages of 100 until there is no cursor", async () => {
    const binding = standIn();
    const raw = createArtifact(binding);
    const names = Array.from({ length: 250 }, (_, i) => `r${String(i).padStart(3, "0")}`);
    for (const n of names) await raw.create(n);
    binding.calls.length = 0;
    expect((await raw.list()).map((r) => r.name)).toEqual(names);
    expect(binding.calls).toEqual([
      { method: "list", args: [{ limit: 100 }] },
      { method: "list", args: [{ limit: 100, cursor: "cursor-100" }] },
      { method: "list", args: [{ limit: 100, cursor: "cursor-200" }] },
    ]);
  });

  it("a scoped list filters across pages", async () => {
    const binding = standIn();
    const raw = createArtifact(binding);
    for (let i = 0; i < 150; i++) await raw.create(`${i % 2 ? "s1" : "s2"}__r${String(i).padStart(3, "0")}`);
    const mine = await createArtifact(binding, "s1").list();
    expect(mine).toHaveLength(75);
    expect(mine[0]!.name).toBe("r001");
    expect(mine.at(-1)!.name).toBe("r149");
  });

  it("a non-advancing cursor is an error, not an endless loop", async () => {
    const binding = standIn({ cursor: "repeat" });
    const raw = createArtifact(binding);
    for (let i = 0; i < 150; i++) await raw.create(`r${i}`);
    binding.calls.length = 0;
    const error = await rejection(raw.list());
    expect(error).toBeInstanceOf(ArtifactError);
    expect(error).toMatchObject({ code: "EBADCURSOR", message: "artifacts list returned a non-advancing cursor: cursor-100" });
    expect(binding.calls).toHaveLength(2);
  });
});

describe("list bound", () => {
  it("a listing that never ends stops after ARTIFACTS_LIST_MAX_PAGES pages with ELIMIT", async () => {
    const binding = standIn({ cursor: "endless" });
    const error = await rejection(createArtifact(binding).list());
    expect(error).toMatchObject({
      code: "ELIMIT",
      message: `artifacts list read ${ARTIFACTS_LIST_MAX_PAGES} pages without reaching the end; the binding keeps returning cursors`,
    });
    expect(binding.calls).toHaveLength(ARTIFACTS_LIST_MAX_PAGES);
  });
});

describe("tokens", () => {
  it("create (binding defaults and explicit), list, get, revoke by plaintext and by id", async () => {
    const client = createArtifact(standIn(), "s1");
    await client.create("notes");
    const write = await client.createToken("notes");
    expect(write).toMatchObject({ scope: "write", expiresAt: "2026-01-02T00:00:00.000Z" });
    const read = await client.createToken("notes", "read", 3600);
    expect(read).toMatchObject({ scope: "read", expiresAt: "2026-01-01T01:00:00.000Z" });
    expect(read.plaintext.endsWith("?expires=1767229200")).toBe(true);

    const { tokens, total } = await client.listTokens("notes");
    expect(total).toBe(3);
    expect(tokens.map((t) => [t.scope, t.state])).toEqual([
      ["write", "active"],
      ["write", "active"],
      ["read", "active"],
    ]);
    expect(await client.getToken("notes", read.id)).toEqual({
      id: read.id,
      scope: "read",
      state: "active",
      createdAt: "2026-01-01T00:00:00.000Z",
      expiresAt: "2026-01-01T01:00:00.000Z",
    });

    expect(await client.revokeToken("notes", read.plaintext)).toBe(true);
    expect(await client.revokeToken("notes", read.id)).toBe(false);
    expect(await client.revokeToken("notes", write.id)).toBe(true);
    expect((await client.getToken("notes", read.id)).state).toBe("revoked");
  });

  it("getToken miss → NotFoundError ENOTFOUND naming the caller's repo", async () => {
    const client = createArtifact(standIn(), "s1");
    await client.create("notes");
    const error = await rejection(client.getToken("notes", "tokmissing000000"));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ name: "NotFoundError", code: "ENOTFOUND", message: "no such token 'tokmissing000000' in repo 'notes'" });
  });
});

describe("import", () => {
  it("imports from the loopback git server under the stored name; the copy holds the source's history", async () => {
    const { baseUrl, fixture } = gitServer();
    const binding = standIn({ gitServerUrl: baseUrl });
    const client = createArtifact(binding, "s1");
    const url = `${baseUrl}/git/fixture.git`;
    const result = await client.import("copy", { url, branch: "main" }, { description: "copied", readOnly: true });
    expect(binding.calls[0]).toEqual({
      method: "import",
      args: [{ source: { url, branch: "main" }, target: { name: "s1__copy", opts: { description: "copied", readOnly: true } } }],
    });
    expect(result).toMatchObject({ name: "copy", description: "copied", defaultBranch: "main" });
    expect(await client.get("copy")).toMatchObject({ source: `git:${url}`, readOnly: true, remote: result.remote });
    const name = /\/git\/([^/]+)\.git$/.exec(result.remote)![1]!;
    const log = await fetch(`${baseUrl}/admin/git`, {
      method: "POST",
      body: JSON.stringify({ repo: name, args: ["rev-list", "main"] }),
    }).then((r) => r.json() as Promise<{ stdout: string }>);
    expect(log.stdout.trim().split("\n")).toEqual(fixture.mainHistory);
  });

  it("a source that is not an object is ArtifactError EINVAL", async () => {
    const binding = standIn();
    const error = await rejection(createArtifact(binding).import("x", "https://e.com" as never));
    expect(error).toMatchObject({ code: "EINVAL", message: "import: source must be { url: string, branch?: string, depth?: number }" });
    expect(binding.calls).toEqual([]);
  });
});

describe("unconfigured client (spec 04 §3.3)", () => {
  it("every data method throws ENOCONFIG synchronously; sessionId is undefined", () => {
    const client = unconfiguredArtifacts();
    expect(client.sessionId).toBeUndefined();
    const calls: Array<() => unknown> = [
      () => client.create("a"),
      () => client.get("a"),
      () => client.list(),
      () => client.import("a", { url: "https://e.com/r.git" }),
      () => client.delete("a"),
      () => client.createToken("a"),
      () => client.listTokens("a"),
      () => client.revokeToken("a", "t"),
      () => client.getToken("a", "t"),
    ];
    for (const call of calls) {
      let thrown: unknown;
      try {
        call();
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(ArtifactError);
      expect(thrown).toMatchObject({ name: "ArtifactError", code: "ENOCONFIG", message: "Workspace Artifacts binding is not configured" });
    }
  });

  it("cli runs in unconfigured mode", async () => {
    const client = unconfiguredArtifacts();
    const help = await client.cli({ argv: ["help"] });
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain("The Artifacts binding is not configured for this Workspace");
    expect(await client.cli({ argv: ["repo", "list"] })).toEqual({
      stdout: "",
      stderr: "artifacts repo list: Workspace Artifacts binding is not configured\n",
      exitCode: 1,
    });
  });
});
