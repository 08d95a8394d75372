/**
 * `ws:artifacts` from a JavaScript run in real workerd (spec 02 §4.5, spec
 * 04 §3.5): each export on the Workspace's client, the write-access and
 * network rules with their exact messages, the `TypeError`s for bad
 * arguments, and the description.
 *
 * The binding is `ArtifactsStandIn` (test/shared/artifacts-standin.ts), an
 * in-memory stand-in for the Artifacts service (which has no local
 * simulation); `importArtifact` copies a real repository on the loopback
 * git server (test/shared/git-server.ts).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { ARTIFACTS_IMPORT_NETWORK_MESSAGE, createArtifactsModule, type ArtifactsModuleOptions } from "../../../src/modules/artifacts.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { forkRepo, gitServer, serverGit } from "../../shared/git-remote.js";
import { ArtifactsStandIn } from "../../shared/artifacts-standin.js";

interface RunOptions {
  module?: ArtifactsModuleOptions;
  access?: "read" | "read-write";
  /** `false`: a Workspace without Artifacts. */
  binding?: ArtifactsStandIn | false;
  sessionId?: string;
  setup?: (ws: Workspace) => Promise<void>;
}

type Outcome = { ok: unknown } | { error: [string, string | null] };

/**
 * Runs isolate code calling `ws:artifacts` (`calls`: a comma-separated list
 * of `await attempt("fn", ...args)`) on a JavaScript backend in a fresh
 * Durable Object; resolves with each call's `{ ok }` or `{ error: [message, code] }`.
 */
async function run(calls: string, options: RunOptions = {}): Promise<Outcome[]> {
  const source = `import * as artifacts from "ws:artifacts";
    const attempt = async (fn, ...args) => {
      try { return { ok: await artifacts[fn](...args) }; } catch (e) { return { error: [e.message, e.code ?? null] }; }
    };
    export default async () => [${calls}];`;
  return runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
    const backend = new WorkerJavaScriptBackend({
      loader: env.LOADER,
      modules: { "ws:artifacts": createArtifactsModule(options.module) },
      ...(options.access ? { access: options.access } : {}),
    });
    const ws = new Workspace({
      storage: state.storage,
      backends: [backend],
      ...(options.sessionId !== undefined ? { sessionId: options.sessionId } : {}),
      ...(options.binding === false ? {} : { artifacts: { binding: options.binding ?? new ArtifactsStandIn() } }),
    });
    try {
      await options.setup?.(ws);
      const r = await (await ws.runtime.exec(source, { encoding: "utf8", timeoutMs: 60_000 })).result();
      if (r.exitCode !== 0) throw new Error(`the run failed: ${r.stderr}`);
      return r.value as Outcome[];
    } finally {
      await ws.close();
    }
  });
}

const ok = (value: Outcome) => (value as { ok: unknown }).ok;

describe("ws:artifacts exports", () => {
  it("create, get, list, deleteArtifact on the Workspace's scoped client", async () => {
    const binding = new ArtifactsStandIn();
    const out = await run(
      `await attempt("create", "notes", { description: "d", setDefaultBranch: "trunk" }),
       await attempt("get", "notes"),
       await attempt("list"),
       await attempt("deleteArtifact", "notes"),
       await attempt("deleteArtifact", "notes"),
       await attempt("list")`,
      { binding, sessionId: "s1" },
    );
    const created = ok(out[0]!) as Record<string, unknown>;
    expect(Object.keys(created).sort()).toEqual(["defaultBranch", "description", "id", "name", "remote", "token", "tokenExpiresAt"]);
    expect([created.name, created.description, created.defaultBranch]).toEqual(["notes", "d", "trunk"]);
    const info = ok(out[1]!) as Record<string, unknown>;
    expect(Object.keys(info).sort()).toEqual(["createdAt", "defaultBranch", "description", "id", "lastPushAt", "name", "readOnly", "remote", "source", "updatedAt"]);
    expect([info.name, info.remote, info.readOnly, info.lastPushAt]).toEqual(["notes", created.remote, false, null]);
    expect((ok(out[2]!) as { name: string }[]).map((s) => s.name)).toEqual(["notes"]);
    expect(out.slice(3)).toEqual([{ ok: true }, { ok: false }, { ok: [] }]);
    expect(binding.calls.find((c) => c.method === "create")?.args).toEqual(["s1__notes", { description: "d", setDefaultBranch: "trunk" }]);
  });

  it("importArtifact (allowNetwork) copies a repository the real git made", async () => {
    const binding = new ArtifactsStandIn({ gitServerUrl: gitServer().baseUrl });
    const source = await forkRepo();
    const out = await run(`await attempt("importArtifact", "copy", { url: ${JSON.stringify(source.url)} }, { description: "imported", readOnly: true })`, {
      binding,
      module: { allowNetwork: true },
    });
    const imported = ok(out[0]!) as { name: string; remote: string; description: string };
    expect([imported.name, imported.description]).toEqual(["copy", "imported"]);
    const repo = /\/git\/([^/]+)\.git$/.exec(imported.remote)![1]!;
    const [copied, original] = await Promise.all([serverGit(repo, ["rev-parse", "HEAD"]), serverGit(source.name, ["rev-parse", "HEAD"])]);
    expect(copied.stdout).toBe(original.stdout);
    expect(copied.code).toBe(0);
  });

  it("createToken: read by default, ttl in seconds or as a duration; a plain copy comes back", async () => {
    const binding = new ArtifactsStandIn();
    const out = await run(
      `await attempt("createToken", "r"),
       await attempt("createToken", "r", "write", 120),
       await attempt("createToken", "r", null, "2h30m"),
       await attempt("createToken", "r", "read", "90")`,
      { binding, setup: async (ws) => void (await ws.artifacts.create("r")) },
    );
    const tokens = out.map(ok) as { id: string; plaintext: string; scope: string; expiresAt: string }[];
    expect(tokens.map((t) => [Object.keys(t).sort(), t.scope])).toEqual([
      [["expiresAt", "id", "plaintext", "scope"], "read"],
      [["expiresAt", "id", "plaintext", "scope"], "write"],
      [["expiresAt", "id", "plaintext", "scope"], "read"],
      [["expiresAt", "id", "plaintext", "scope"], "read"],
    ]);
    expect(binding.calls.filter((c) => c.method === "repo.createToken").map((c) => c.args.slice(1))).toEqual([
      ["read", 86400],
      ["write", 120],
      ["read", 9000],
      ["read", 90],
    ]);
  });

  it("share: the remote with a new read token spliced in as x:<secret>@", async () => {
    const binding = new ArtifactsStandIn();
    const out = await run(`await attempt("share", "s", { ttl: "15m" }), await attempt("share", "s", { scope: "write" }), await attempt("share", "s")`, {
      binding,
      setup: async (ws) => void (await ws.artifacts.create("s")),
    });
    const urls = out.map(ok) as string[];
    for (const url of urls) expect(url).toMatch(/^https:\/\/x:[A-Za-z0-9_.~%-]+@artifacts\.standin\.invalid\/standin\/s\.git$/);
    expect(new Set(urls).size).toBe(3);
    expect(binding.calls.filter((c) => c.method === "repo.createToken").map((c) => c.args.slice(1))).toEqual([
      ["read", 900],
      ["write", 86400],
      ["read", 86400],
    ]);
  });

  it("names must be strings (TypeError naming the function, nothing created); the client checks their form", async () => {
    const binding = new ArtifactsStandIn();
    const out = await run(
      `await attempt("create", 42), await attempt("create", null), await attempt("create"), await attempt("get", 42),
       await attempt("importArtifact", 7, { url: "https://example.com/r.git" }), await attempt("deleteArtifact", null),
       await attempt("create", ""), await attempt("deleteArtifact", "a__b"), await attempt("get", "nope")`,
      { binding, sessionId: "s1", module: { allowNetwork: true } },
    );
    const bindingMessage = await binding.get("s1__nope").then(() => "found", (e: Error) => e.message);
    expect(out.slice(0, 7)).toEqual([
      { error: ["create: name must be a non-empty string (the repository name), got number", null] },
      { error: ["create: name must be a non-empty string (the repository name), got undefined", null] },
      { error: ["create: name must be a non-empty string (the repository name), got undefined", null] },
      { error: ["get: name must be a non-empty string (the repository name), got number", null] },
      { error: ["importArtifact: name must be a non-empty string (the repository name), got number", null] },
      { error: ["deleteArtifact: name must be a non-empty string (the repository name), got undefined", null] },
      { error: ['create: name must be a non-empty string (the repository name), got ""', null] },
    ]);
    expect((out[7] as { error: [string, string] }).error[1]).toBe("EINVALIDNAME");
    expect((out[7] as { error: [string, string] }).error[0].startsWith("invalid repository name 'a__b': ")).toBe(true);
    expect(out[8]).toEqual({ error: [bindingMessage, "NOT_FOUND"] });
    expect(bindingMessage).toContain("s1__nope");
    expect(binding.names()).toEqual([]);
    expect(binding.calls.map((c) => c.method)).toEqual(["get", "get"]);
  });
});

describe("ws:artifacts rules", () => {
  it("a read-only run: create, import, delete and write tokens are refused with the spec's messages; reads and read tokens work", async () => {
    const binding = new ArtifactsStandIn();
    const out = await run(
      `await attempt("create", "x"),
       await attempt("importArtifact", "x", { url: "https://example.com/r.git" }),
       await attempt("deleteArtifact", "r"),
       await attempt("createToken", "r", "write"),
       await attempt("share", "r", { scope: "write" }),
       await attempt("get", "r"),
       await attempt("list"),
       await attempt("createToken", "r"),
       await attempt("share", "r")`,
      { binding, access: "read", module: { allowNetwork: true }, setup: async (ws) => void (await ws.artifacts.create("r")) },
    );
    expect(out.slice(0, 5)).toEqual([
      { error: ["Artifacts create requires Workspace write access.", "EROFS"] },
      { error: ["Artifacts import requires Workspace write access.", "EROFS"] },
      { error: ["Artifacts delete requires Workspace write access.", "EROFS"] },
      { error: ["A write token requires Workspace write access.", "EROFS"] },
      { error: ["A write token requires Workspace write access.", "EROFS"] },
    ]);
    expect(out.slice(5).every((o) => "ok" in o)).toBe(true);
    expect(binding.names()).toEqual(["r"]);
    expect(binding.calls.filter((c) => c.method === "repo.createToken").map((c) => c.args[1])).toEqual(["read", "read"]);
  });

  it("without allowNetwork importArtifact is refused, before the binding is called", async () => {
    const binding = new ArtifactsStandIn();
    const out = await run(`await attempt("importArtifact", "x", { url: "https://example.com/r.git" })`, { binding });
    expect(out).toEqual([{ error: [ARTIFACTS_IMPORT_NETWORK_MESSAGE, "EACCES"] }]);
    expect(ARTIFACTS_IMPORT_NETWORK_MESSAGE).toBe("Artifacts import requires createArtifactsModule({ allowNetwork: true }).");
    expect(binding.calls).toEqual([]);
  });

  it("bad arguments are TypeErrors prefixed with the function's name, before the binding is called", async () => {
    const binding = new ArtifactsStandIn();
    const out = await run(
      `await attempt("createToken", ""),
       await attempt("createToken", 7),
       await attempt("createToken", "r", "admin"),
       await attempt("createToken", "r", "read", -5),
       await attempt("createToken", "r", "read", 1.5),
       await attempt("createToken", "r", "read", "1.5h"),
       await attempt("createToken", "r", "read", "1h 30m"),
       await attempt("createToken", "r", "read", true),
       await attempt("share", ""),
       await attempt("share", "r", "read"),
       await attempt("share", "r", { scope: "owner" }),
       await attempt("share", "r", { ttl: 0 }),
       await attempt("share", "r", { ttl: "5y" }),
       await attempt("share", "r", { expires: 5 }),
       await attempt("create", "r", { bogus: 1 }),
       await attempt("create", "r", { readOnly: "yes" }),
       await attempt("importArtifact", "r", { branch: "main" }),
       await attempt("importArtifact", "r", "https://example.com/r.git"),
       await attempt("get", "a", "b")`,
      { binding, module: { allowNetwork: true } },
    );
    expect(out).toEqual([
      { error: ['createToken: name must be a non-empty string (the repository name), got ""', null] },
      { error: ["createToken: name must be a non-empty string (the repository name), got number", null] },
      { error: ['createToken: scope must be "read" or "write", got "admin"', null] },
      { error: ['createToken: ttl must be a positive integer number of seconds or a duration such as "15m", got -5', null] },
      { error: ['createToken: ttl must be a positive integer number of seconds or a duration such as "15m", got 1.5', null] },
      { error: ["createToken: ttl invalid duration '1.5h'", null] },
      { error: ["createToken: ttl invalid duration '1h 30m'", null] },
      { error: ['createToken: ttl must be a positive integer number of seconds or a duration such as "15m", got boolean', null] },
      { error: ['share: name must be a non-empty string (the repository name), got ""', null] },
      { error: ["share: options must be an object { scope?, ttl? }, got string", null] },
      { error: ['share: scope must be "read" or "write", got "owner"', null] },
      { error: ['share: ttl must be a positive integer number of seconds or a duration such as "15m", got 0', null] },
      { error: ["share: ttl unknown duration unit 'y' in '5y'", null] },
      { error: ['share: unknown option "expires"; known: scope, ttl', null] },
      { error: ['create: unknown opts key "bogus"; known: description, readOnly, setDefaultBranch', null] },
      { error: ["create: opts.readOnly must be a boolean, got string", null] },
      { error: ["importArtifact: source.url must be a non-empty string (the git URL to import)", null] },
      { error: ["importArtifact: source must be an object, got string", null] },
      { error: ["get takes at most 1 argument, got 2", null] },
    ]);
    expect(binding.calls).toEqual([]);
  });

  it("without WorkspaceOptions.artifacts every call rejects ENOCONFIG", async () => {
    const out = await run(`await attempt("list"), await attempt("create", "x"), await attempt("share", "x")`, { binding: false });
    const expected = { error: ["Workspace Artifacts binding is not configured", "ENOCONFIG"] };
    expect(out).toEqual([expected, expected, expected]);
  });
});

describe("createArtifactsModule", () => {
  it("describes the exports, warns that share URLs are credentials, and says when import is off", () => {
    const off = createArtifactsModule().description!;
    const on = createArtifactsModule({ allowNetwork: true }).description!;
    for (const name of ["create(", "get(", "list(", "importArtifact(", "deleteArtifact(", "createToken(", "share("]) {
      expect(off).toContain(`\`${name}`);
      expect(on).toContain(`\`${name}`);
    }
    expect(off).toContain("is a credential");
    expect(off).toContain("`importArtifact` is not allowed here (the module was created without allowNetwork).");
    expect(on).not.toContain("not allowed");
  });

  it("rejects bad options with a TypeError", () => {
    expect(() => createArtifactsModule(null as never)).toThrow(new TypeError("createArtifactsModule(options): options must be an object, got null"));
    expect(() => createArtifactsModule({ allowNetwork: "yes" as never })).toThrow(new TypeError("createArtifactsModule(options): allowNetwork must be a boolean, got string"));
  });
});
