/**
 * `WorkspaceArtifactsStub`: the Workspace's Artifacts client as an RPC
 * target (spec 01 §5.3, spec 04 §3.3). Each of the ten `ArtifactClient`
 * methods forwards to `workspace.artifacts` in the Durable Object, with the
 * Workspace's binding and session scope. No spans (spec 04 §4: artifacts
 * calls emit none).
 *
 * @module
 */
import type {
  ArtifactClient,
  ArtifactImportOptions,
  ArtifactImportSource,
  ArtifactScope,
  ArtifactsCLIInput,
  ArtifactsCLIResult,
} from "../artifacts/types.js";
import type { WorkspaceHost } from "./host.js";
import { answerRemote } from "./remote-error.js";
import { checkArtifactsRpcResult } from "./rpc-size.js";
import { liveHost, SubStub } from "./sub-stub.js";

/** What a host without an Artifacts client fails with (a `Workspace` always has one). */
function notConfigured(): Error {
  return Object.assign(new Error("Workspace Artifacts binding is not configured"), { code: "ENOCONFIG" });
}

/** Who the stub forwards to: the host's `artifacts` client. */
function clientOf(stub: WorkspaceArtifactsStub): ArtifactClient {
  const host: WorkspaceHost = liveHost(stub, "WorkspaceArtifactsStub");
  const client = host.artifacts;
  if (client === undefined || client === null) throw notConfigured();
  return client;
}

/**
 * Runs `call` (the client's `method`) on the client; a throw (synchronous
 * ones included) rejects, and errors cross RPC with their `code`
 * ({@link answerRemote}). An answer over 30 MiB rejects `E2BIG`
 * ({@link checkArtifactsRpcResult}) instead of failing in workerd's RPC.
 */
function forward<T>(stub: WorkspaceArtifactsStub, method: keyof ArtifactClient, call: (client: ArtifactClient) => Promise<T>): Promise<T> {
  return answerRemote(async () => checkArtifactsRpcResult(method, await call(clientOf(stub))));
}

/**
 * The Workspace's Artifacts over RPC (spec 04 §3.3): `create`, `get`,
 * `list`, `import`, `delete`, `createToken`, `listTokens`, `revokeToken`,
 * `getToken` and `cli`, with the shapes of `ArtifactClient`. Without
 * `WorkspaceOptions.artifacts` every method but `cli` rejects `ArtifactError`
 * `ENOCONFIG` `Workspace Artifacts binding is not configured`, and `cli` runs
 * in unconfigured mode. Errors keep their `code` (`EINVALIDNAME`,
 * `ENOTFOUND`, the binding's `NOT_FOUND`, …) across RPC. An answer larger
 * than crosses RPC (over 30 MiB estimated: a namespace-wide `list()` or
 * `cli({ argv: ["repo", "list"] })` of tens of thousands of repositories)
 * rejects `ArtifactError` `E2BIG` saying to scope the client to a session or
 * to call the method in the Durable Object.
 *
 * @example
 * ```ts
 * using stub = workspace.stub();
 * await stub.artifacts.create("notes");
 * const repos = await stub.artifacts.list();
 * ```
 */
export class WorkspaceArtifactsStub extends SubStub {
  /**
   * The session scope of the Workspace's client: its id, or `null` when
   * unscoped or unconfigured (`null`, not the client's `undefined`: workerd
   * reports a property read as `undefined` over RPC as a missing method).
   */
  get sessionId(): string | null {
    return liveHost(this, "WorkspaceArtifactsStub").artifacts?.sessionId ?? null;
  }

  /** `workspace.artifacts.create(name, opts)`: creates a repository; resolves with its remote and a write token. */
  create(name: string, opts?: Parameters<ArtifactClient["create"]>[1]): ReturnType<ArtifactClient["create"]> {
    return forward(this, "create", (c) => c.create(name, opts));
  }

  /** `workspace.artifacts.get(name)`: the repository's info. @throws (rejects) the binding's `NOT_FOUND` when absent. */
  get(name: string): ReturnType<ArtifactClient["get"]> {
    return forward(this, "get", (c) => c.get(name));
  }

  /** `workspace.artifacts.list()`: every repository in scope, as summaries. */
  list(): ReturnType<ArtifactClient["list"]> {
    return forward(this, "list", (c) => c.list());
  }

  /** `workspace.artifacts.import(name, source, opts)`: creates a repository from a git URL. */
  import(name: string, source: ArtifactImportSource, opts?: ArtifactImportOptions): ReturnType<ArtifactClient["import"]> {
    return forward(this, "import", (c) => c.import(name, source, opts));
  }

  /** `workspace.artifacts.delete(name)`: resolves `true` when the repository existed. */
  delete(name: string): ReturnType<ArtifactClient["delete"]> {
    return forward(this, "delete", (c) => c.delete(name));
  }

  /** `workspace.artifacts.createToken(name, scope, ttl)`: mints a token (`ttl` seconds; binding defaults `write`, 86400). */
  createToken(name: string, scope?: ArtifactScope, ttl?: number): ReturnType<ArtifactClient["createToken"]> {
    return forward(this, "createToken", (c) => c.createToken(name, scope, ttl));
  }

  /** `workspace.artifacts.listTokens(name)`: the repository's tokens (no secrets). */
  listTokens(name: string): ReturnType<ArtifactClient["listTokens"]> {
    return forward(this, "listTokens", (c) => c.listTokens(name));
  }

  /** `workspace.artifacts.revokeToken(name, tokenOrId)`: resolves `true` when a token was revoked. */
  revokeToken(name: string, tokenOrId: string): ReturnType<ArtifactClient["revokeToken"]> {
    return forward(this, "revokeToken", (c) => c.revokeToken(name, tokenOrId));
  }

  /** `workspace.artifacts.getToken(name, id)`: one token. @throws (rejects) `NotFoundError` `ENOTFOUND` `no such token '<id>' in repo '<name>'`. */
  getToken(name: string, id: string): ReturnType<ArtifactClient["getToken"]> {
    return forward(this, "getToken", (c) => c.getToken(name, id));
  }

  /**
   * `workspace.artifacts.cli(input)`: runs one `artifacts` command line
   * (spec 04 §3.4) → `{ stdout, stderr, exitCode }`. A `remoteAdd`
   * function in `input` is called back over RPC.
   */
  cli(input: ArtifactsCLIInput): Promise<ArtifactsCLIResult> {
    return forward(this, "cli", (c) => c.cli(input));
  }
}
