/**
 * Fix of attack23c/artifacts-stub-list-over-rpc-limit, siblings: every answer of `WorkspaceStub.artifacts` and of an
 * `ArtifactsCLITarget` is measured (`checkArtifactsRpcResult`, src/do/rpc-size.ts) and past 30 MiB rejects
 * `ArtifactError` `E2BIG` over real Workers RPC (a Dynamic Worker calling in); an answer under the limit still crosses
 * whole, and the stub goes on answering after a refusal.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ArtifactsCLITarget, Workspace } from "../../../src/index.js";
import type { Artifacts, ArtifactsRepoListResult, ArtifactsTokenListResult } from "../../../src/artifacts/types.js";

const DESCRIPTION = "Work of one conversation: the report, its data and the scripts that build it. ".repeat(4).slice(0, 300);

/** A namespace of `count` repositories listed 100 a page, whose repository `big` has `tokens` tokens (a stand-in for the platform). */
function binding(count: number, tokens: number): Artifacts {
  return {
    async list(opts?: { limit?: number; cursor?: string }): Promise<ArtifactsRepoListResult> {
      const limit = opts?.limit ?? 50;
      const offset = opts?.cursor === undefined ? 0 : Number(opts.cursor);
      const repos = [];
      for (let i = offset; i < Math.min(count, offset + limit); i++) {
        const at = new Date(Date.UTC(2026, 0, 1, 0, 0, i % 60)).toISOString();
        repos.push({ id: `repo_${i}`, name: `chat-${i}__report`, description: DESCRIPTION, defaultBranch: "main", createdAt: at, updatedAt: at, lastPushAt: null, source: null, readOnly: false });
      }
      return offset + limit < count ? { repos, total: count, cursor: String(offset + limit) } : { repos, total: count };
    },
    async get(name: string) {
      if (name !== "big") throw Object.assign(new Error("Repository not found"), { name: "ArtifactsError", code: "NOT_FOUND" });
      return {
        async listTokens(): Promise<ArtifactsTokenListResult> {
          const list = Array.from({ length: tokens }, (_, i) => ({ id: `tok_${i}_${"x".repeat(200)}`, scope: "read" as const, state: "active" as const, createdAt: "2026-01-01T00:00:00.000Z", expiresAt: "2026-01-02T00:00:00.000Z" }));
          return { tokens: list, total: tokens };
        },
      };
    },
  } as unknown as Artifacts;
}

const MAIN = `import { WorkerEntrypoint } from "cloudflare:workers";
const failure = (e) => ({ error: { name: e.name, code: e.code ?? null, message: String(e.message).slice(0, 400) } });
export default class extends WorkerEntrypoint {
  async list(stub) {
    try { return { ok: (await stub.artifacts.list()).length }; } catch (e) { return failure(e); }
  }
  async tokens(stub) {
    try { return { ok: (await stub.artifacts.listTokens("big")).tokens.length }; } catch (e) { return failure(e); }
  }
  async missing(stub) {
    try { return { ok: await stub.artifacts.get("nope") }; } catch (e) { return failure(e); }
  }
  async cli(target) {
    try { const r = await target.cli({ argv: ["repo", "list"] }); return { ok: [r.exitCode, r.stdout.length] }; } catch (e) { return failure(e); }
  }
}`;

type Answer = { ok?: unknown; error?: { name: string; code: string | null; message: string } };
interface Remote {
  list(stub: unknown): Promise<Answer>;
  tokens(stub: unknown): Promise<Answer>;
  missing(stub: unknown): Promise<Answer>;
  cli(target: unknown): Promise<Answer>;
}

function remote(): Remote {
  const worker = env.LOADER.load({ compatibilityDate: "2026-11-01", mainModule: "main.js", modules: { "main.js": MAIN }, globalOutbound: null });
  return worker.getEntrypoint() as unknown as Remote;
}

const OVER = "over 31457280 bytes, more than crosses RPC (workerd's limit is 32 MiB); ";

describe("fix23: Artifacts answers over RPC are measured", () => {
  it("listTokens past 30 MiB rejects E2BIG; then the same stub still answers (the binding's NOT_FOUND)", { timeout: 120_000 }, async () => {
    const r = await runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
      const ws = new Workspace({ storage: state.storage, artifacts: { binding: binding(0, 150_000) } });
      const far = remote();
      const stub = ws.stub();
      return { tokens: await far.tokens(stub), missing: await far.missing(ws.stub()) };
    });
    expect(r.tokens).toEqual({ error: { name: "ArtifactError", code: "E2BIG", message: `artifacts.listTokens(): the answer is ${OVER}revoke the tokens no longer needed, or call workspace.artifacts.listTokens() in the Durable Object and send on only what is needed` } });
    expect(r.missing.error?.code).toBe("NOT_FOUND");
  });

  it("a listing under the limit (50,000 repositories, about 24 MB) still crosses whole", { timeout: 120_000 }, async () => {
    const r = await runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
      const ws = new Workspace({ storage: state.storage, artifacts: { binding: binding(50_000, 0) } });
      return remote().list(ws.stub());
    });
    expect(r).toEqual({ ok: 50_000 });
  });

  it("ArtifactsCLITarget: `repo list` past 30 MiB rejects E2BIG; under it the output crosses whole", { timeout: 120_000 }, async () => {
    const r = await runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
      const big = new Workspace({ storage: state.storage, artifacts: { binding: binding(100_000, 0) } });
      const small = new Workspace({ storage: state.storage, artifacts: { binding: binding(3, 0) } });
      const far = remote();
      const small3 = await small.artifacts.cli({ argv: ["repo", "list"] });
      return {
        big: await far.cli(new ArtifactsCLITarget((input) => big.artifacts.cli(input))),
        small: await far.cli(new ArtifactsCLITarget((input) => small.artifacts.cli(input))),
        smallLength: small3.stdout.length,
      };
    });
    expect(r.big).toEqual({ error: { name: "ArtifactError", code: "E2BIG", message: `artifacts.cli(): the answer is ${OVER}scope the Workspace's Artifacts client to a session (the Workspace option sessionId, or artifacts: { sessionId }) so that it lists only that session's repositories, or call workspace.artifacts.cli(input) in the Durable Object and send on only what is needed` } });
    expect(r.small).toEqual({ ok: [0, r.smallLength] });
  });
});
