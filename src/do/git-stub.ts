/**
 * `WorkspaceGitStub`: the Workspace's git CLI as an RPC target (spec 01
 * §5.3, spec 04 §2.2). Only `cli` crosses RPC; the rest of the
 * `GitClient` stays in the Durable Object.
 *
 * @module
 */
import type { GitCliInput, GitCliResult } from "../git/types.js";
import { answerRemote } from "./remote-error.js";
import { withSpan } from "./spans.js";
import { liveHost, SubStub } from "./sub-stub.js";

/** The Workspace's git over RPC: `cli({ argv, cwd?, env?, stdin? })` → `{ stdout, stderr, exitCode }`. */
export class WorkspaceGitStub extends SubStub {
  /**
   * `workspace.git.cli(input)` in span `workspace.git.cli` (attributes
   * `workspace.git.command`, the subcommand, and `workspace.git.exit_code`): runs one git
   * command line (spec 04 §2.5) in the Durable Object — network commands
   * included — and resolves with what real git would print and its exit
   * code. User errors (bad flags, not a repository, …) resolve with a
   * non-zero `exitCode`; they do not reject.
   *
   * @example
   * ```ts
   * using workspace = await getWorkspace(env.Agent.get(id));
   * const { stdout, exitCode } = await workspace.git.cli({ argv: ["log", "--oneline"], cwd: "/repo" });
   * ```
   * @throws (rejects) Error `git is not configured on this Workspace: …` (`code` `ENOCONFIG`) when the Workspace has no `git` option; Error when the stub is disposed.
   */
  cli(input: GitCliInput): Promise<GitCliResult> {
    return answerRemote(() => {
      const host = liveHost(this, "WorkspaceGitStub");
      const argv: unknown = (input as { argv?: unknown } | null | undefined)?.argv;
      const attributes = Array.isArray(argv) && typeof argv[0] === "string" ? { "workspace.git.command": argv[0] } : {};
      return withSpan(host.observer, "workspace.git.cli", attributes, async () => {
        const git = host.git;
        if (git === undefined || git === null) throw Object.assign(new Error("git is not configured on this Workspace"), { code: "ENOCONFIG" });
        return git.cli(input);
      }, (result, span) => {
        if (typeof result?.exitCode === "number") span.setAttribute("workspace.git.exit_code", result.exitCode);
      });
    });
  }
}
