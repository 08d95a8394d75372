/**
 * Issue 20, twenty-fourth attack run: the shell's `artifacts` built-in answers the whole CLI result in one Workers
 * RPC answer (`ShellHostTarget.artifacts`, src/backends/worker-shell/backend.ts), unmeasured. Run 23 found this for
 * `WorkspaceStub.artifacts` and `ArtifactsCLITarget` (attack23c artifacts-stub-list-over-rpc-limit), fixed there with
 * `checkArtifactsRpcResult`; the shell built-in — the third RPC path to the same `artifacts.cli` — was left as it was
 * (its `git` sibling is clipped with `clipGitResultForRpc`).
 *
 * Tried: a Workspace with the shell backend and an Artifacts binding holding 100,000 repositories (300-character
 * descriptions; a stand-in that pages 100 at a time as the service does); `artifacts repo list | wc -c` in the shell;
 * `workspace.artifacts.cli({ argv: ["repo", "list"] })` in the object.
 * Held: in the object the listing is whole (57,477,783 characters, exit 0).
 *
 * Found (low; 3 of 3 runs): the shell prints `artifacts: Serialized RPC arguments or return values are limited to
 * 32MiB, but the size of this value was: 57477823 bytes.` (status 1, nothing on stdout) — workerd's bare text, no
 * code, nothing saying to scope the client to a session, where the stub and ArtifactsCLITarget now answer E2BIG
 * with that advice.
 *
 * Suggested fix: pass the shell built-in's result through `checkArtifactsRpcResult` (or clip stdout as the git
 * built-in does, with a note and exit 1), so the shell prints the same E2BIG advice.
 *
 * Fixed: `ShellHostTarget.artifacts` (src/backends/worker-shell/backend.ts) passes its answer through
 * `checkArtifactsRpcResult("cli", …)` (src/do/rpc-size.ts), as the stub and `ArtifactsCLITarget` do: past 30 MiB it
 * rejects ArtifactError E2BIG, which the built-in prints as `artifacts: <message>` with status 1 — the advice to
 * scope the client to a session. The expectation is now that exact line.
 */
import { describe, expect, it } from "vitest";
import type { Artifacts, ArtifactsRepoListResult } from "../../../src/artifacts/types.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const REPOS = 100_000;
const DESCRIPTION = "Work of one conversation: the report, its data and the scripts that build it. ".repeat(4).slice(0, 300);

/** A namespace of REPOS repositories, listed 100 a page (a stand-in for the platform). */
const binding = {
  async list(opts?: { limit?: number; cursor?: string }): Promise<ArtifactsRepoListResult> {
    const limit = opts?.limit ?? 50;
    const offset = opts?.cursor === undefined ? 0 : Number(opts.cursor);
    const repos = [];
    for (let i = offset; i < Math.min(REPOS, offset + limit); i++) {
      const at = new Date(Date.UTC(2026, 0, 1, 0, 0, i % 60)).toISOString();
      repos.push({ id: `repo_${i}`, name: `chat-${i}__report`, description: DESCRIPTION, defaultBranch: "main", createdAt: at, updatedAt: at, lastPushAt: null, source: null, readOnly: false });
    }
    return offset + limit < REPOS ? { repos, total: REPOS, cursor: String(offset + limit) } : { repos, total: REPOS };
  },
  async get(): Promise<never> {
    throw Object.assign(new Error("not found"), { name: "ArtifactsError", code: "NOT_FOUND" });
  },
} as unknown as Artifacts;

describe("attack24c: the shell's artifacts built-in over RPC", () => {
  it("`artifacts repo list` of a huge namespace prints the listing or the E2BIG advice, not workerd's bare error", { timeout: 300_000 }, async () => {
    const r = await inShellWorkspace(async (ws) => {
      const local = await ws.artifacts.cli({ argv: ["repo", "list"] });
      const shell = await sh(ws, 'artifacts repo list | wc -c; echo "status ${PIPESTATUS[0]}"', { timeoutMs: 200_000 });
      return { local: [local.exitCode, local.stdout.length], stdout: shell.stdout, stderr: shell.stderr.slice(0, 1000) };
    }, { workspace: { artifacts: { binding } } });
    expect(r.local).toEqual([0, 57_477_783]);
    expect([r.stdout, r.stderr]).toEqual([
      "0\nstatus 1\n",
      "artifacts: artifacts.cli(): the answer is over 31457280 bytes, more than crosses RPC (workerd's limit is 32 MiB); scope the Workspace's Artifacts client to a session (the Workspace option sessionId, or artifacts: { sessionId }) so that it lists only that session's repositories, or call workspace.artifacts.cli(input) in the Durable Object and send on only what is needed\n",
    ]);
  });
});
