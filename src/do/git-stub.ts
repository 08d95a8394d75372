/**
 * `WorkspaceGitStub`: the Workspace's git CLI as an RPC target (spec 01
 * §5.3, spec 04 §2.2). Only `cli` crosses RPC; the rest of the
 * `GitClient` stays in the Durable Object.
 *
 * @module
 */
import type { GitCliInput, GitCliResult } from "../git/types.js";
import { answerRemote } from "./remote-error.js";
import { clipAttribute, withSpan } from "./spans.js";
import { liveHost, SubStub } from "./sub-stub.js";
import { GIT_CLI_ABORTED } from "./symbol.js";

/**
 * Most characters of `stdout` and `stderr` together that a git result
 * carries over RPC: 12 Mi. workerd refuses any RPC value past 32 MiB
 * serialized, and a string of non-Latin-1 text serializes at two bytes a
 * character, so 12 Mi characters (24 MiB at worst) always cross.
 */
export const MAX_GIT_RPC_OUTPUT_CHARS = 12 * 1024 * 1024;

/** How much of a long `stderr` a clipped result keeps (characters). */
const CLIPPED_STDERR_CHARS = 64 * 1024;

/** `text`'s first `n` characters, one fewer when the cut would split a surrogate pair. */
function head(text: string, n: number): string {
  if (n <= 0) return "";
  const code = text.charCodeAt(n - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? n - 1 : n);
}

/**
 * `result` as it can cross RPC (issue 20, fifth attack run): unchanged when
 * `stdout` and `stderr` together hold at most {@link MAX_GIT_RPC_OUTPUT_CHARS}
 * characters. A longer one (`git show` or `cat-file -p` of a 40 MiB blob)
 * used to make the RPC call itself reject with workerd's bare
 * `Serialized RPC arguments or return values are limited to 32MiB` — an
 * error with no code, and the output lost. It now keeps the start of
 * `stdout` (and of `stderr`, up to 64 Ki characters), adds the line
 * `git: output clipped: stdout was <n> characters and stderr <m>; at most <max> cross RPC — narrow the command (a path, -n <count>)`
 * to `stderr`, and exits 1 when the command had exited 0 (a clipped output
 * is not a success the caller may take as whole). A blob's byte that is not
 * UTF-8 is one character here (U+DC00 + byte, issue 20's twenty-fifth attack
 * run), so the bound stays a character bound: the shell writes back at most
 * 12 Mi such bytes.
 */
export function clipGitResultForRpc(result: GitCliResult): GitCliResult {
  const stdout = typeof result.stdout === "string" ? result.stdout : String(result.stdout ?? "");
  const stderr = typeof result.stderr === "string" ? result.stderr : String(result.stderr ?? "");
  const exitCode = Number.isInteger(result.exitCode) ? result.exitCode : 1;
  if (stdout.length + stderr.length <= MAX_GIT_RPC_OUTPUT_CHARS) return { stdout, stderr, exitCode };
  const note = `git: output clipped: stdout was ${stdout.length} characters and stderr ${stderr.length}; at most ${MAX_GIT_RPC_OUTPUT_CHARS} cross RPC — narrow the command (a path, -n <count>)\n`;
  const keptErr = head(stderr, Math.min(stderr.length, CLIPPED_STDERR_CHARS));
  const keptOut = head(stdout, MAX_GIT_RPC_OUTPUT_CHARS - keptErr.length - note.length - 1);
  const sep = keptErr === "" || keptErr.endsWith("\n") ? "" : "\n";
  return { stdout: keptOut, stderr: `${keptErr}${sep}${note}`, exitCode: exitCode === 0 ? 1 : exitCode };
}

/** Most characters of `argv[0]` the `workspace.git.cli` span records as `workspace.git.command`. */
const GIT_COMMAND_ATTRIBUTE_CHARS = 64;

/**
 * `input` with the signal a remote client sent as {@link GIT_CLI_ABORTED} (an already-aborted `signal`; see
 * src/do/client.ts `remoteCliInput`): aborted for an `Error` of that message, so the command answers as in the object.
 */
function withAbortedSignal(input: GitCliInput): GitCliInput {
  const reason = (input as unknown as Record<string, unknown> | null | undefined)?.[GIT_CLI_ABORTED];
  if (typeof reason !== "string" || (input as { signal?: unknown }).signal !== undefined) return input;
  const { [GIT_CLI_ABORTED]: _, ...rest } = input as GitCliInput & Record<string, unknown>;
  return { ...rest, signal: AbortSignal.abort(new Error(reason)) } as GitCliInput;
}

/** The Workspace's git over RPC: `cli({ argv, cwd?, env?, stdin? })` → `{ stdout, stderr, exitCode }`. */
export class WorkspaceGitStub extends SubStub {
  /**
   * `workspace.git.cli(input)` in span `workspace.git.cli` (attributes
   * `workspace.git.command`, the subcommand cut to 64 characters, and `workspace.git.exit_code`): runs one git
   * command line (spec 04 §2.5) in the Durable Object — network commands
   * included — and resolves with what real git would print and its exit
   * code. User errors (bad flags, not a repository, …) resolve with a
   * non-zero `exitCode`; they do not reject. Output past
   * {@link MAX_GIT_RPC_OUTPUT_CHARS} comes back clipped, with a note on
   * `stderr` and exit 1 ({@link clipGitResultForRpc}).
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
      // The subcommand as given, cut to GIT_COMMAND_ATTRIBUTE_CHARS (any string can arrive; git's own names are short).
      const attributes = Array.isArray(argv) && typeof argv[0] === "string" ? { "workspace.git.command": clipAttribute(argv[0], GIT_COMMAND_ATTRIBUTE_CHARS) } : {};
      return withSpan(host.observer, "workspace.git.cli", attributes, async () => {
        const git = host.git;
        if (git === undefined || git === null) throw Object.assign(new Error("git is not configured on this Workspace"), { code: "ENOCONFIG" });
        return clipGitResultForRpc(await git.cli(withAbortedSignal(input)));
      }, (result, span) => {
        if (typeof result?.exitCode === "number") span.setAttribute("workspace.git.exit_code", result.exitCode);
      });
    });
  }
}
