/**
 * `workspace.artifacts` in real workerd (spec 04 §3.3): always present;
 * unconfigured, every data method throws `ENOCONFIG` synchronously and
 * `cli` runs in unconfigured mode; configured, the session scope resolves
 * from `artifacts.sessionId`, then `WorkspaceOptions.sessionId`; the
 * backend host (spec 02 §8) and host-module factories get the same client.
 *
 * The binding is `ArtifactsStandIn` (test/shared/artifacts-standin.ts), a
 * clearly named in-memory stand-in for the Artifacts service, which has no
 * local simulation.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Workspace, type WorkspaceOptions } from "../../../src/index.js";
import { ArtifactError, InvalidSessionIdError } from "../../../src/artifacts/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import type { WorkspaceModuleFactory } from "../../../src/modules/types.js";
import { ArtifactsStandIn } from "../../shared/artifacts-standin.js";

const NOT_CONFIGURED = "Workspace Artifacts binding is not configured";
const DATA_METHODS = ["create", "get", "list", "import", "delete", "createToken", "listTokens", "revokeToken", "getToken"] as const;

/** Runs `fn` in a fresh Durable Object with its storage. */
function inObject<T>(fn: (storage: DurableObjectStorage) => Promise<T>): Promise<T> {
  return runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), (_i, state) => fn(state.storage));
}

/** The synchronous throw of `call`, or a failure when it returned (a rejected promise is not a synchronous throw). */
function thrownBy(call: () => unknown): unknown {
  let returned: unknown;
  try {
    returned = call();
  } catch (error) {
    return error;
  }
  (returned as Promise<unknown> | undefined)?.catch?.(() => {});
  throw new Error(`expected a synchronous throw, got ${returned instanceof Promise ? "a promise" : typeof returned}`);
}

describe("workspace.artifacts without a binding", () => {
  it("exists, has no sessionId, and each of the nine data methods throws ArtifactError ENOCONFIG synchronously", async () => {
    const seen = await inObject(async (storage) => {
      const ws = new Workspace({ storage, sessionId: "alice" });
      const out: [string, boolean, string, string][] = [];
      for (const method of DATA_METHODS) {
        const error = thrownBy(() => (ws.artifacts[method] as (...a: unknown[]) => unknown)("repo", "x"));
        out.push([method, error instanceof ArtifactError, (error as ArtifactError).code, (error as Error).message]);
      }
      return { sessionId: ws.artifacts.sessionId, same: ws.artifacts === ws.artifacts, out };
    });
    expect(seen.sessionId).toBeUndefined();
    expect(seen.same).toBe(true);
    expect(seen.out).toEqual(DATA_METHODS.map((m) => [m, true, "ENOCONFIG", NOT_CONFIGURED]));
  });

  it("cli runs in unconfigured mode: commands exit 1 with the not-configured message, usage errors stay 129, help exits 0", async () => {
    const r = await inObject(async (storage) => {
      const ws = new Workspace({ storage });
      return {
        list: await ws.artifacts.cli({ argv: ["repo", "list"] }),
        create: await ws.artifacts.cli({ argv: ["create", "demo"] }),
        usage: await ws.artifacts.cli({ argv: ["create"] }),
        help: await ws.artifacts.cli({ argv: ["help"] }),
      };
    });
    expect(r.list).toEqual({ stdout: "", stderr: `artifacts repo list: ${NOT_CONFIGURED}\n`, exitCode: 1 });
    expect(r.create).toEqual({ stdout: "", stderr: `artifacts create: ${NOT_CONFIGURED}\n`, exitCode: 1 });
    expect(r.usage).toEqual({ stdout: "", stderr: "artifacts create: missing <name>\n", exitCode: 129 });
    expect(r.help.exitCode).toBe(0);
    expect(r.help.stderr).toBe("");
    expect(r.help.stdout).toContain("not configured");
  });
});

describe("workspace.artifacts with a binding: the session scope (spec 04 §3.3)", () => {
  /** The scope a Workspace built with `options` ends up with: its client's sessionId and the name `create("n")` stores. */
  async function scopeOf(options: Partial<WorkspaceOptions> & { artifactsSessionId?: string | null }) {
    return inObject(async (storage) => {
      const binding = new ArtifactsStandIn();
      const { artifactsSessionId, ...rest } = options;
      const artifacts: WorkspaceOptions["artifacts"] = { binding };
      if ("artifactsSessionId" in options) artifacts.sessionId = artifactsSessionId;
      const ws = new Workspace({ storage, ...rest, artifacts });
      const created = await ws.artifacts.create("n");
      return { sessionId: ws.artifacts.sessionId, stored: binding.names(), returned: created.name, workspaceSessionId: ws.sessionId };
    });
  }

  it("artifacts.sessionId wins over options.sessionId", async () => {
    expect(await scopeOf({ sessionId: "alice", artifactsSessionId: "bob" })).toEqual({ sessionId: "bob", stored: ["bob__n"], returned: "n", workspaceSessionId: "alice" });
  });

  it("artifacts.sessionId null is namespace-wide even with options.sessionId", async () => {
    expect(await scopeOf({ sessionId: "alice", artifactsSessionId: null })).toEqual({ sessionId: undefined, stored: ["n"], returned: "n", workspaceSessionId: "alice" });
  });

  it("artifacts.sessionId undefined (absent or explicit) falls back to options.sessionId", async () => {
    expect(await scopeOf({ sessionId: "alice" })).toEqual({ sessionId: "alice", stored: ["alice__n"], returned: "n", workspaceSessionId: "alice" });
    expect(await scopeOf({ sessionId: "alice", artifactsSessionId: undefined })).toEqual({ sessionId: "alice", stored: ["alice__n"], returned: "n", workspaceSessionId: "alice" });
  });

  it("neither: namespace-wide", async () => {
    expect(await scopeOf({})).toEqual({ sessionId: undefined, stored: ["n"], returned: "n", workspaceSessionId: "" });
  });

  it('"" (from either) or an invalid id makes the constructor throw InvalidSessionIdError; without artifacts "" is fine', async () => {
    const r = await inObject(async (storage) => {
      const binding = new ArtifactsStandIn();
      const attempt = (options: Partial<WorkspaceOptions>) => {
        try {
          new Workspace({ storage, ...options });
          return "constructed";
        } catch (error) {
          return [error instanceof InvalidSessionIdError, (error as ArtifactError).code, (error as Error).message.split(":")[0]];
        }
      };
      return [
        attempt({ artifacts: { binding, sessionId: "" } }),
        attempt({ sessionId: "", artifacts: { binding } }),
        attempt({ sessionId: "", artifacts: { binding, sessionId: undefined } }),
        attempt({ sessionId: "ok", artifacts: { binding, sessionId: "a__b" } }),
        attempt({ sessionId: "-dash", artifacts: { binding } }),
        attempt({ sessionId: "", artifacts: { binding, sessionId: null } }),
        attempt({ sessionId: "" }),
        binding.calls.length,
      ];
    });
    expect(r).toEqual([
      [true, "EINVALIDSESSION", "invalid session id ''"],
      [true, "EINVALIDSESSION", "invalid session id ''"],
      [true, "EINVALIDSESSION", "invalid session id ''"],
      [true, "EINVALIDSESSION", "invalid session id 'a__b'"],
      [true, "EINVALIDSESSION", "invalid session id '-dash'"],
      "constructed",
      "constructed",
      0,
    ]);
  });

  it("a malformed artifacts option is a TypeError naming what to pass", async () => {
    const r = await inObject(async (storage) => {
      const attempt = (artifacts: unknown) => {
        try {
          new Workspace({ storage, artifacts: artifacts as WorkspaceOptions["artifacts"] });
          return "constructed";
        } catch (error) {
          return [(error as Error).name, (error as Error).message];
        }
      };
      return [attempt(null), attempt({}), attempt({ binding: "ARTIFACTS" }), attempt({ binding: new ArtifactsStandIn(), sessionId: 7 })];
    });
    expect(r).toEqual([
      ["TypeError", "Workspace artifacts must be { binding, sessionId? } with the Artifacts binding (env.ARTIFACTS) as binding, got null"],
      ["TypeError", "Workspace artifacts must be { binding, sessionId? } with the Artifacts binding (env.ARTIFACTS) as binding, got {}"],
      ["TypeError", 'Workspace artifacts must be { binding, sessionId? } with the Artifacts binding (env.ARTIFACTS) as binding, got {"binding":"ARTIFACTS"}'],
      ["TypeError", "Workspace artifacts.sessionId must be a string, null (namespace-wide) or undefined (use options.sessionId), got number"],
    ]);
  });

  it("the data methods reach the binding with stored names and answer with the caller's", async () => {
    const r = await inObject(async (storage) => {
      const binding = new ArtifactsStandIn();
      const ws = new Workspace({ storage, sessionId: "s1", artifacts: { binding } });
      await binding.create("other__x");
      const created = await ws.artifacts.create("notes", { description: "d" });
      const info = await ws.artifacts.get("notes");
      const token = await ws.artifacts.createToken("notes", "read", 600);
      const tokens = await ws.artifacts.listTokens("notes");
      const one = await ws.artifacts.getToken("notes", token.id);
      const revoked = await ws.artifacts.revokeToken("notes", token.id);
      const listed = (await ws.artifacts.list()).map((s) => s.name);
      const deleted = [await ws.artifacts.delete("notes"), await ws.artifacts.delete("notes")];
      return {
        created: [created.name, created.description],
        info: [info.name, info.description, info.remote === created.remote],
        token: [token.scope, one.id === token.id, one.scope, tokens.tokens.length],
        revoked,
        listed,
        deleted,
        names: binding.names(),
        createCall: binding.calls.find((c) => c.method === "create" && c.args[0] !== "other__x")?.args,
      };
    });
    expect(r).toEqual({
      created: ["notes", "d"],
      info: ["notes", "d", true],
      token: ["read", true, "read", 2],
      revoked: true,
      listed: ["notes"],
      deleted: [true, false],
      names: ["other__x"],
      createCall: ["s1__notes", { description: "d" }],
    });
  });
});

describe("the backend host (spec 02 §8): backends and host-module factories get workspace.artifacts", () => {
  /** A host module that reports what its factory got. */
  function probe(record: { artifacts?: unknown }): WorkspaceModuleFactory {
    return (host) => {
      record.artifacts = host.artifacts;
      return {
        sessionId: () => host.artifacts.sessionId ?? null,
        list: async () => (await host.artifacts.list()).map((s) => s.name),
      };
    };
  }

  const SOURCE = `import { sessionId, list } from "ws:probe";
    export default async () => {
      let listed;
      try { listed = await list(); } catch (e) { listed = [e.message, e.code ?? null]; }
      return { sessionId: await sessionId(), listed };
    };`;

  it("configured: the same object, scoped as the Workspace", async () => {
    const r = await inObject(async (storage) => {
      const record: { artifacts?: unknown } = {};
      const binding = new ArtifactsStandIn();
      await binding.create("s9__seen");
      await binding.create("unseen");
      const ws = new Workspace({
        storage,
        sessionId: "s9",
        artifacts: { binding },
        backends: [new WorkerJavaScriptBackend({ loader: env.LOADER, modules: { "ws:probe": probe(record) } })],
      });
      try {
        const result = await (await ws.runtime.exec(SOURCE, { encoding: "utf8" })).result();
        return { value: result.value, stderr: result.stderr, same: record.artifacts === ws.artifacts };
      } finally {
        await ws.close();
      }
    });
    expect(r).toEqual({ value: { sessionId: "s9", listed: ["seen"] }, stderr: "", same: true });
  });

  it("unconfigured: the unconfigured client, whose calls fail ENOCONFIG", async () => {
    const r = await inObject(async (storage) => {
      const record: { artifacts?: unknown } = {};
      const ws = new Workspace({ storage, backends: [new WorkerJavaScriptBackend({ loader: env.LOADER, modules: { "ws:probe": probe(record) } })] });
      try {
        const result = await (await ws.runtime.exec(SOURCE, { encoding: "utf8" })).result();
        return { value: result.value, same: record.artifacts === ws.artifacts };
      } finally {
        await ws.close();
      }
    });
    expect(r).toEqual({ value: { sessionId: null, listed: [NOT_CONFIGURED, "ENOCONFIG"] }, same: true });
  });
});
