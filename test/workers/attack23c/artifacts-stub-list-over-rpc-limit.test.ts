/**
 * Issue 20, twenty-third attack run: `stub.artifacts.list()` (and `stub.artifacts.cli({ argv: ["repo", "list"] })`)
 * answers a namespace's whole listing in one RPC result, unmeasured — past workerd's 32 MiB the caller gets workerd's
 * bare serialization error, with no code and no way to ask for less.
 *
 * The filesystem stub measures each answer (`checkFsRpcResult`, src/do/rpc-size.ts) and rejects past 30 MiB with
 * `E2BIG` saying how to page; so do `runtime.pending()` (`checkPendingRpcResult`) and an exec handle's `result()`
 * (`checkExecRpcResult`), and the git stub clips its output. The Artifacts stub (src/do/artifacts-stub.ts) forwards
 * `list()` — which reads every page of the namespace, up to 10,000 pages of 100 (`ARTIFACTS_LIST_MAX_PAGES`), into
 * one array — and `cli()` (`repo list` prints that array as JSON) straight through `answerRemote`, with no size check.
 * An unscoped client ("names are the whole namespace's") of a namespace shared by many conversations lists every
 * repository there.
 *
 * Tried: a Durable Object whose Workspace has an Artifacts binding holding 100,000 repositories, each with a
 * 300-character description (the binding is a stand-in that pages through them as the service does, 100 a page);
 * a Dynamic Worker (Worker Loader) calls `stub.artifacts.list()` and `stub.artifacts.cli({ argv: ["repo", "list"] })`
 * over real Workers RPC.
 * Held: in the object itself `workspace.artifacts.list()` answers all 100,000 (no ELIMIT, no EBADCURSOR); a scoped
 * list of a few repositories crosses RPC (test/workers/artifacts/stub.test.ts).
 *
 * Found (low; 3 of 3 runs): both remote calls reject with workerd's own `Serialized RPC arguments or return values are
 * limited to 32MiB, but the size of this value was: 48877791 bytes.` (list; 57477823 for cli) — `code` null, nothing naming the listing or how to page it —
 * where the filesystem stub answers `E2BIG` with advice for the same situation.
 *
 * Suggested fix: measure the answers of `list()` and `cli()` in `WorkspaceArtifactsStub` with `estimateRpcSize` as
 * `checkFsRpcResult` does, rejecting `E2BIG` past `MAX_FS_RPC_RESULT_BYTES` with the advice to scope the client by
 * session (or offer a paged `list({ limit, cursor })` on the client and the stub, and make `repo list` take
 * `--limit`/`--cursor`).
 *
 * Fixed: every answer of `WorkspaceArtifactsStub` (src/do/artifacts-stub.ts, its `forward`) and of
 * `ArtifactsCLITarget.cli` (src/do/artifacts-cli-target.ts) goes through `checkArtifactsRpcResult`
 * (src/do/rpc-size.ts): past `MAX_FS_RPC_RESULT_BYTES` (30 MiB, `estimateRpcSize`) it rejects `ArtifactError` `E2BIG`
 * naming the method (for `list`, the number of repositories) and saying to scope the client to a session or to call
 * the method in the Durable Object. No paged `list` was added (the client's `list()` keeps 0.8.0's shape). Siblings
 * (`listTokens`, `ArtifactsCLITarget`, a 50,000-repository listing that still crosses): test/workers/fix23/artifacts-rpc-size.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import type { Artifacts, ArtifactsRepoListResult } from "../../../src/artifacts/types.js";

const REPOS = 100_000;
const DESCRIPTION = "Work of one conversation: the report, its data and the scripts that build it. ".repeat(4).slice(0, 300);

/** A namespace of REPOS repositories, listed in pages as the Artifacts service lists (a stand-in for the platform). */
class ManyRepos {
  async list(opts?: { limit?: number; cursor?: string }): Promise<ArtifactsRepoListResult> {
    const limit = opts?.limit ?? 50;
    const offset = opts?.cursor === undefined ? 0 : Number(opts.cursor);
    const repos = [];
    for (let i = offset; i < Math.min(REPOS, offset + limit); i++) {
      const at = new Date(Date.UTC(2026, 0, 1, 0, 0, i % 60)).toISOString();
      repos.push({ id: `repo_${i}`, name: `chat-${i}__report`, description: DESCRIPTION, defaultBranch: "main", createdAt: at, updatedAt: at, lastPushAt: null, source: null, readOnly: false });
    }
    return offset + limit < REPOS ? { repos, total: REPOS, cursor: String(offset + limit) } : { repos, total: REPOS };
  }
  async get(): Promise<never> {
    throw Object.assign(new Error("not found"), { name: "ArtifactsError", code: "NOT_FOUND" });
  }
  async create(): Promise<never> {
    throw new Error("not used");
  }
  async import(): Promise<never> {
    throw new Error("not used");
  }
  async delete(): Promise<boolean> {
    return false;
  }
}

const MAIN = `import { WorkerEntrypoint } from "cloudflare:workers";
const failure = (e) => ({ error: { name: e.name, message: String(e.message).slice(0, 400), code: e.code ?? null } });
export default class extends WorkerEntrypoint {
  async list(stub) {
    try { return { ok: (await stub.artifacts.list()).length }; } catch (e) { return failure(e); }
  }
  async cli(stub) {
    try { const r = await stub.artifacts.cli({ argv: ["repo", "list"] }); return { ok: [r.exitCode, r.stdout.length] }; } catch (e) { return failure(e); }
  }
}`;

interface Remote {
  list(stub: unknown): Promise<{ ok?: number; error?: { name: string; message: string; code: string | null } }>;
  cli(stub: unknown): Promise<{ ok?: [number, number]; error?: { name: string; message: string; code: string | null } }>;
}

describe("attack23c: the Artifacts stub's listing over RPC", () => {
  it("rejects a listing too large to cross RPC with a coded E2BIG, as the filesystem stub does", { timeout: 120_000 }, async () => {
    const r = await runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
      const ws = new Workspace({ storage: state.storage, artifacts: { binding: new ManyRepos() as unknown as Artifacts } });
      const local = (await ws.artifacts.list()).length;
      const worker = env.LOADER.load({ compatibilityDate: "2026-11-01", mainModule: "main.js", modules: { "main.js": MAIN }, globalOutbound: null });
      const far = worker.getEntrypoint() as unknown as Remote;
      return { local, list: await far.list(ws.stub()), cli: await far.cli(ws.stub()) };
    });
    expect(r.local).toBe(REPOS);
    // What the filesystem stub does for an answer past 30 MiB: a WorkspaceError-style code the caller can act on.
    const advice = "scope the Workspace's Artifacts client to a session (the Workspace option sessionId, or artifacts: { sessionId }) so that it lists only that session's repositories, or call workspace.artifacts.";
    expect(r.list).toEqual({
      error: {
        name: "ArtifactError",
        code: "E2BIG",
        message: `artifacts.list(): the 100000 repositories listed are over 31457280 bytes, more than crosses RPC (workerd's limit is 32 MiB); ${advice}list() in the Durable Object and send on only what is needed`,
      },
    });
    expect(r.cli).toEqual({
      error: {
        name: "ArtifactError",
        code: "E2BIG",
        message: `artifacts.cli(): the answer is over 31457280 bytes, more than crosses RPC (workerd's limit is 32 MiB); ${advice}cli(input) in the Durable Object and send on only what is needed`,
      },
    });
  });
});
