/**
 * `WorkspaceStub.artifacts` and `ArtifactsCLITarget` over real Workers RPC
 * (spec 04 §3.3): a Dynamic Worker (Worker Loader) receives
 * `workspace.stub()` or a target and calls them, so every argument, result,
 * error and callback crosses RPC. The binding is `ArtifactsStandIn`
 * (test/shared/artifacts-standin.ts), an in-memory stand-in for the
 * Artifacts service, which has no local simulation.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { ArtifactsCLITarget } from "../../../src/do/artifacts-cli-target.js";
import { WorkspaceArtifactsStub } from "../../../src/do/artifacts-stub.js";
import { ArtifactsStandIn } from "../../shared/artifacts-standin.js";

/** The Dynamic Worker: calls what it is handed and reports results and errors as data. */
const MAIN = `import { WorkerEntrypoint } from "cloudflare:workers";
const failure = (e) => ({ error: { message: e.message, code: e.code ?? e.workspaceError?.code ?? null } });
export default class extends WorkerEntrypoint {
  async call(stub, method, args) {
    try { return { ok: await stub.artifacts[method](...args) }; } catch (e) { return failure(e); }
  }
  async sessionId(stub) {
    return { sessionId: (await stub.artifacts.sessionId) ?? null };
  }
  async cli(stub, argv) {
    const seen = [];
    const remoteAdd = async (remote) => { seen.push(remote); return { ok: true }; };
    const result = await stub.artifacts.cli({ argv, remoteAdd });
    return { result, seen };
  }
  async target(target, input) {
    try { return { ok: await target.cli(input) }; } catch (e) { return failure(e); }
  }
}`;

interface Remote {
  call(stub: unknown, method: string, args: unknown[]): Promise<{ ok?: unknown; error?: { message: string; code: string | null } }>;
  sessionId(stub: unknown): Promise<{ sessionId: string | null }>;
  cli(stub: unknown, argv: string[]): Promise<{ result: { stdout: string; stderr: string; exitCode: number }; seen: unknown[] }>;
  target(target: unknown, input: unknown): Promise<{ ok?: unknown; error?: { message: string; code: string | null } }>;
}

function remote(): Remote {
  const worker = env.LOADER.load({ compatibilityDate: "2026-11-01", mainModule: "main.js", modules: { "main.js": MAIN }, globalOutbound: null });
  return worker.getEntrypoint() as unknown as Remote;
}

function inObject<T>(fn: (storage: DurableObjectStorage) => Promise<T>): Promise<T> {
  return runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), (_i, state) => fn(state.storage));
}

// workerd disposes an RpcTarget passed as an argument when the call ends, and
// a WorkspaceStub's dispose switches it off: each call gets a new stub, as
// withWorkspace's __getWorkspaceStub() hands out.
describe("WorkspaceStub.artifacts over RPC", () => {
  it("is the same WorkspaceArtifactsStub on every read", async () => {
    const same = await inObject(async (storage) => {
      using stub = new Workspace({ storage }).stub();
      return stub.artifacts === stub.artifacts && stub.artifacts instanceof WorkspaceArtifactsStub;
    });
    expect(same).toBe(true);
  });

  it("forwards all ten methods, with the Workspace's session scope", async () => {
    const r = await inObject(async (storage) => {
      const binding = new ArtifactsStandIn();
      const ws = new Workspace({ storage, sessionId: "s1", artifacts: { binding } });
      const far = remote();
      const created = (await far.call(ws.stub(), "create", ["notes", { description: "d" }])).ok as { name: string; remote: string; token: string };
      const info = (await far.call(ws.stub(), "get", ["notes"])).ok as { name: string; remote: string };
      const listed = (await far.call(ws.stub(), "list", [])).ok as { name: string }[];
      const token = (await far.call(ws.stub(), "createToken", ["notes", "read", 120])).ok as { id: string; scope: string; plaintext: string };
      const tokens = (await far.call(ws.stub(), "listTokens", ["notes"])).ok as { tokens: { id: string }[] };
      const one = (await far.call(ws.stub(), "getToken", ["notes", token.id])).ok as { id: string; scope: string };
      const revoked = (await far.call(ws.stub(), "revokeToken", ["notes", token.id])).ok;
      const source = await binding.create("src");
      const imported = (await far.call(ws.stub(), "import", ["copy", { url: "https://example.com/x.git", branch: "dev" }, { readOnly: true }])).ok as { name: string };
      const deleted = [(await far.call(ws.stub(), "delete", ["copy"])).ok, (await far.call(ws.stub(), "delete", ["copy"])).ok];
      const cli = await far.cli(ws.stub(), ["repo", "get", "notes"]);
      const sessionId = await far.sessionId(ws.stub());
      return {
        created: [created.name, created.remote === info.remote, typeof created.token],
        info: info.name,
        listed: listed.map((s) => s.name),
        token: [token.scope, one.id === token.id, one.scope, tokens.tokens.map((t) => t.id).includes(token.id)],
        revoked,
        imported: imported.name,
        importCall: binding.calls.find((c) => c.method === "import")?.args,
        deleted,
        cli: [cli.result.exitCode, (JSON.parse(cli.result.stdout) as { name: string }).name, cli.result.stderr],
        sessionId,
        names: binding.names(),
        source: source.name,
      };
    });
    expect(r).toEqual({
      created: ["notes", true, "string"],
      info: "notes",
      listed: ["notes"],
      token: ["read", true, "read", true],
      revoked: true,
      imported: "copy",
      importCall: [{ source: { url: "https://example.com/x.git", branch: "dev" }, target: { name: "s1__copy", opts: { readOnly: true } } }],
      deleted: [true, false],
      cli: [0, "notes", ""],
      sessionId: { sessionId: "s1" },
      names: ["s1__notes", "src"],
      source: "src",
    });
  });

  it("errors keep their code across RPC: EINVALIDNAME, ENOTFOUND, the binding's NOT_FOUND, ENOCONFIG", async () => {
    const r = await inObject(async (storage) => {
      const binding = new ArtifactsStandIn();
      const configured = new Workspace({ storage, sessionId: "s1", artifacts: { binding } });
      const far = remote();
      await far.call(configured.stub(), "create", ["here"]);
      const bad = await far.call(configured.stub(), "create", ["a__b"]);
      const missing = await far.call(configured.stub(), "get", ["nope"]);
      const bindingMessage = await binding.get("s1__nope").then(() => "found", (e: Error) => e.message);
      const noToken = await far.call(configured.stub(), "getToken", ["here", "tok_missing"]);
      const bare = new Workspace({ storage });
      const unconfigured = await far.call(bare.stub(), "list", []);
      const unconfiguredCli = await far.cli(bare.stub(), ["repo", "list"]);
      const unconfiguredSession = await far.sessionId(bare.stub());
      return { bad, missing, bindingMessage, noToken, unconfigured, unconfiguredCli: unconfiguredCli.result, unconfiguredSession };
    });
    expect(r.bad.error?.code).toBe("EINVALIDNAME");
    expect(r.bad.error?.message.startsWith("invalid repository name 'a__b': ")).toBe(true);
    expect(r.missing.error).toEqual({ message: r.bindingMessage, code: "NOT_FOUND" });
    expect(r.bindingMessage).toContain("s1__nope");
    expect(r.noToken.error).toEqual({ message: "no such token 'tok_missing' in repo 'here'", code: "ENOTFOUND" });
    expect(r.unconfigured.error).toEqual({ message: "Workspace Artifacts binding is not configured", code: "ENOCONFIG" });
    expect(r.unconfiguredCli).toEqual({ stdout: "", stderr: "artifacts repo list: Workspace Artifacts binding is not configured\n", exitCode: 1 });
    expect(r.unconfiguredSession).toEqual({ sessionId: null });
  });

  it("cli: `create` calls the caller's remoteAdd back over RPC with the credentialed URL", async () => {
    const r = await inObject(async (storage) => {
      const binding = new ArtifactsStandIn();
      const ws = new Workspace({ storage, artifacts: { binding } });
      const { result, seen } = await remote().cli(ws.stub(), ["create", "demo", "--remote", "origin"]);
      return { result, seen, remote: (await binding.get("demo").then((h) => h.info())).remote };
    });
    const printed = JSON.parse(r.result.stdout) as { credentialedRemote: string; remoteRegistered: boolean; gitRemote: string; token: string };
    expect([r.result.exitCode, r.result.stderr, printed.remoteRegistered, printed.gitRemote]).toEqual([0, "", true, "origin"]);
    expect(r.seen).toEqual([{ name: "origin", url: printed.credentialedRemote }]);
    const secret = printed.token.slice(0, printed.token.indexOf("?expires="));
    expect(printed.credentialedRemote).toBe(r.remote.replace("https://", `https://x:${encodeURIComponent(secret)}@`));
  });

  it("a disposed WorkspaceStub's artifacts reject with the disposal error", async () => {
    const r = await inObject(async (storage) => {
      const stub = new Workspace({ storage, artifacts: { binding: new ArtifactsStandIn() } }).stub();
      const artifacts = stub.artifacts;
      stub[Symbol.dispose]();
      return (await remote().call({ artifacts }, "list", [])).error;
    });
    expect(r?.message).toBe("WorkspaceArtifactsStub is disposed: get a new one with getWorkspace() or workspace.stub()");
  });
});

describe("ArtifactsCLITarget", () => {
  it("runs the wrapped cli over RPC, remoteAdd included, and checks argv", async () => {
    const r = await inObject(async (storage) => {
      const ws = new Workspace({ storage, artifacts: { binding: new ArtifactsStandIn() } });
      const target = new ArtifactsCLITarget((input) => ws.artifacts.cli(input));
      const far = remote();
      await ws.artifacts.create("one");
      const first = await far.target(target, { argv: ["repo", "list"] });
      const again = await far.target(target, { argv: ["repo", "delete", "nope"] });
      const bad = await far.target(target, { argv: "repo list" });
      return { first, again, bad };
    });
    const listed = JSON.parse((r.first.ok as { stdout: string }).stdout) as { name: string }[];
    expect(listed.map((s) => s.name)).toEqual(["one"]);
    expect(r.again.ok).toEqual({ stdout: "", stderr: "artifacts repo delete: no such repo 'nope'\n", exitCode: 1 });
    expect(r.bad.error?.message).toBe("ArtifactsCLITarget.cli(input): input.argv must be an array of strings (the arguments after `artifacts`)");
  });

  it("a function's thrown error reaches the caller with its code; a non-function is a TypeError", async () => {
    const r = await inObject(async () => {
      const target = new ArtifactsCLITarget(() => {
        throw Object.assign(new Error("boom"), { code: "EBOOM" });
      });
      const thrown = await remote().target(target, { argv: [] });
      let construct: string | undefined;
      try {
        new ArtifactsCLITarget("cli" as never);
      } catch (error) {
        construct = `${(error as Error).name}: ${(error as Error).message}`;
      }
      return { thrown, construct };
    });
    expect(r.thrown.error).toEqual({ message: "boom", code: "EBOOM" });
    expect(r.construct).toBe("TypeError: new ArtifactsCLITarget(cli): cli must be a function such as (input) => workspace.artifacts.cli(input), got string");
  });
});
