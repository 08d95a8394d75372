/**
 * The shell's built-ins that reach the host (spec 02 §6, spec 04 §1.9, §2.6):
 * `assets publish`, `git` and `artifacts`. Each is a just-bash command
 * object (`{ name, execute(args, ctx) }`), built here without importing
 * just-bash, so the host entry can export the factories too.
 *
 * @module
 */
import { directoryForm, normalizePath } from "../../util/path.js";
import { isRpcSizeError } from "../../util/rpc-bytes.js";
import type { ArtifactsCommandHost, AssetsCommandHost, GitCommandHost, GitCommandOptions } from "./types.js";

/** What a just-bash command returns. */
export interface ShellCommandResult {
  /** Text the command printed on stdout. */
  stdout: string;
  /** Text the command printed on stderr. */
  stderr: string;
  /** Its exit status, 0–255. */
  exitCode: number;
}

/** A just-bash custom command (the shape `Bash({ customCommands })` takes). */
export interface ShellCommand {
  /** The command's name in the shell. */
  readonly name: string;
  /**
   * Runs it with its arguments (without the name) in the shell's current
   * directory. just-bash also passes `env` (a `Map` of every shell
   * variable), `exportedEnv` (the exported ones and the command's prefix
   * assignments: what bash gives a child process) and `stdin` (its bytes as
   * a Latin-1 string, one char a byte).
   */
  execute(
    args: string[],
    ctx: { cwd: string; env?: ReadonlyMap<string, string> | Readonly<Record<string, string>>; exportedEnv?: Readonly<Record<string, string>>; stdin?: unknown },
  ): Promise<ShellCommandResult>;
}

/** Default expiry of `assets publish`: one hour, ms. */
export const DEFAULT_ASSET_EXPIRY_MS = 3_600_000;

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Parses an `assets publish` expiry (spec 04 §1.9): `^\d+(ms|s|m|h)?$`, a
 * bare number is milliseconds; the result must be a positive safe integer.
 *
 * @returns milliseconds, or `undefined` when `text` is not a valid expiry.
 */
export function parseExpiry(text: string): number | undefined {
  const m = /^(\d+)(ms|s|m|h)?$/.exec(text);
  if (!m) return undefined;
  const ms = Number(m[1]) * UNITS[m[2] ?? "ms"]!;
  return Number.isSafeInteger(ms) && ms > 0 ? ms : undefined;
}

/** `path` made absolute against `cwd` and normalised (`.`/empty dropped, `..` pops, floor `/`), spec 04 §1.9. */
export function resolveFrom(cwd: string, path: string): string {
  return normalizePath(path, cwd);
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function codeOf(err: unknown): unknown {
  return typeof err === "object" && err !== null ? (err as { code?: unknown }).code : undefined;
}

/**
 * The `assets` built-in: `assets publish <path> [<expiry>]` (spec 04 §1.9).
 * Prints the URL and a newline (exit 0). Wrong usage: `usage: assets publish
 * <path> [<expiry>]`, exit 2; bad expiry: `assets: invalid expiry "<arg>"`,
 * exit 2; no assets (`host` null, or it rejects `ENOCONFIG`): `assets:
 * publishing is not configured for this workspace`, exit 1; other failures:
 * `assets: <message>`, exit 1 — a file named in directory form (`s.txt/`,
 * `s.txt/.`) is `assets: ENOTDIR: not a directory, stat: /workspace/s.txt/`;
 * a call past workerd's 32 MiB (a huge path operand) is `assets: E2BIG:
 * argument list too long (…)`, as `git` and `artifacts` print it.
 */
export function defineAssetsCommand(host: AssetsCommandHost): ShellCommand {
  return {
    name: "assets",
    async execute(args, ctx) {
      if (args[0] !== "publish" || args.length < 2 || args.length > 3) {
        return { stdout: "", stderr: "usage: assets publish <path> [<expiry>]\n", exitCode: 2 };
      }
      let expiresAfterMs = DEFAULT_ASSET_EXPIRY_MS;
      if (args.length === 3) {
        const parsed = parseExpiry(args[2]!);
        if (parsed === undefined) return { stdout: "", stderr: `assets: invalid expiry ${JSON.stringify(args[2])}\n`, exitCode: 2 };
        expiresAfterMs = parsed;
      }
      const notConfigured = { stdout: "", stderr: "assets: publishing is not configured for this workspace\n", exitCode: 1 };
      if (host === null) return notConfigured;
      try {
        // A name in directory form (`s.txt/`, `s.txt/.`) keeps its `/`, so publishing a file by it is ENOTDIR.
        const resolved = resolveFrom(ctx.cwd, args[1]!);
        const target = directoryForm(args[1]!) !== null && resolved !== "/" ? `${resolved}/` : resolved;
        const url = await host.publish(target, expiresAfterMs);
        return { stdout: `${url}\n`, stderr: "", exitCode: 0 };
      } catch (err) {
        if (codeOf(err) === "ENOCONFIG") return notConfigured;
        return { stdout: "", stderr: rejectionLine("assets", err), exitCode: 1 };
      }
    },
  };
}

/**
 * The line a host built-in prints for a rejection: `<name>: <message>`. One that workerd gave because the call's
 * arguments passed its 32 MiB limit becomes `<name>: E2BIG: argument list too long (…)`, naming the limit.
 */
function rejectionLine(name: string, err: unknown): string {
  if (isRpcSizeError(err)) return `${name}: E2BIG: argument list too long (its arguments, environment and input cross to the host as one call of at most 32 MiB)\n`;
  return `${name}: ${messageOf(err)}\n`;
}

/**
 * The environment a host built-in gets: of the variables bash passes a child
 * (`ctx.exportedEnv`: exported ones and the command's prefix assignments;
 * never plain or `local` variables), those whose name `keep` accepts.
 */
export function childEnv(ctx: { exportedEnv?: Readonly<Record<string, string>> }, keep: (name: string) => boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(ctx.exportedEnv ?? {})) if (typeof value === "string" && keep(key)) out[key] = value;
  return out;
}

/** A variable map as a plain object (just-bash passes a `Map`). */
export function flattenEnv(env: ReadonlyMap<string, string> | Readonly<Record<string, string>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (env === undefined || env === null) return out;
  const entries = env instanceof Map ? env.entries() : Object.entries(env);
  for (const [key, value] of entries) if (typeof value === "string") out[key] = value;
  return out;
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * A command's stdin as git gets it (spec 04 §2.6): just-bash's Latin-1 byte
 * string (one char a byte) decoded as UTF-8 when the bytes are valid UTF-8,
 * else the bytes; `undefined` when empty. A string holding chars above
 * U+00FF is already text and is returned as it is.
 */
export function decodeStdin(stdin: unknown): string | Uint8Array | undefined {
  if (typeof stdin !== "string" || stdin.length === 0) return undefined;
  const bytes = new Uint8Array(stdin.length);
  for (let i = 0; i < stdin.length; i++) {
    const code = stdin.charCodeAt(i);
    if (code > 0xff) return stdin;
    bytes[i] = code;
  }
  try {
    return utf8.decode(bytes);
  } catch {
    return bytes;
  }
}

/**
 * The `git` built-in (spec 04 §2.6): runs `host.git(args, cwd, { env, stdin })`
 * — the Workspace's `git.cli` in the host, with the `GIT_*` variables of its
 * environment (exported ones and prefix assignments, as bash passes a child:
 * a plain or `local` `GIT_AUTHOR_NAME` does not reach git) and its stdin
 * decoded ({@link decodeStdin}) — and prints the stdout and stderr it
 * returns, exiting with its exit code; a blob's bytes that are not UTF-8
 * come as their surrogate escapes, which the shell writes as those bytes. A
 * rejection (git not configured, the host unreachable) prints
 * `git: <message>`, exit 1 (past workerd's 32 MiB for one call:
 * `git: E2BIG: argument list too long (…)`).
 */
export function defineGitCommand(host: GitCommandHost): ShellCommand {
  return {
    name: "git",
    async execute(args, ctx) {
      try {
        const options: GitCommandOptions = { env: childEnv(ctx, (name) => name.startsWith("GIT_")) };
        const stdin = decodeStdin(ctx.stdin);
        if (stdin !== undefined) options.stdin = stdin;
        const r = await host.git(args, ctx.cwd, options);
        return { stdout: r.stdout ?? "", stderr: r.stderr ?? "", exitCode: Number.isInteger(r.exitCode) ? r.exitCode : 1 };
      } catch (err) {
        return { stdout: "", stderr: rejectionLine("git", err), exitCode: 1 };
      }
    },
  };
}

/**
 * The `artifacts` built-in: runs `host.artifacts(args, cwd)` (the
 * Workspace's artifacts CLI, spec 02 §6, spec 04 §3.5; it reads no
 * variable, so none is sent) and prints what it returns. A rejection
 * `ENOCONFIG` prints `artifacts: not configured for this workspace`, exit 1;
 * any other rejection `artifacts: <message>`, exit 1.
 */
export function defineArtifactsCommand(host: ArtifactsCommandHost): ShellCommand {
  return {
    name: "artifacts",
    async execute(args, ctx) {
      try {
        const r = await host.artifacts(args, ctx.cwd);
        return { stdout: r.stdout, stderr: r.stderr, exitCode: Number.isInteger(r.exitCode) ? r.exitCode : 1 };
      } catch (err) {
        if (codeOf(err) === "ENOCONFIG") return { stdout: "", stderr: "artifacts: not configured for this workspace\n", exitCode: 1 };
        return { stdout: "", stderr: rejectionLine("artifacts", err), exitCode: 1 };
      }
    },
  };
}
