/**
 * `ws:git` (spec 02 §4.4, spec 04 §2.6): the Workspace's git, callable from
 * isolate code. `createGitModule()` makes the host-module factory; every
 * call runs in the host (the Durable Object) on `workspace.git`, so network
 * requests — when allowed — go out from the host, outside the JavaScript
 * backend's egress policy.
 *
 * ```ts
 * import { createGitModule } from "agent-computer/modules/git";
 *
 * new WorkerJavaScriptBackend({
 *   loader: env.LOADER,
 *   modules: { "ws:git": createGitModule({ allowNetwork: true }) },
 * });
 * // in the isolate (paths relative to the backend's root, /workspace by default):
 * import { clone, status, cli } from "ws:git";
 * await clone({ url: "https://github.com/octocat/Hello-World", dir: "hello", depth: 1 });
 * const changes = await status({ dir: "hello" });
 * const { stdout } = await cli({ argv: ["log", "--oneline"], cwd: "hello" });
 * ```
 *
 * @module
 */
import type { GitCliInput, GitClient, GitCloneOptions, GitDiffOptions, GitLogOptions, GitStatusOptions } from "../git/types.js";
import type { WorkspaceRuntimeValue } from "../runtime/types.js";
import { PAGER_OPTIONS } from "../git/cli/parse.js";
import { CONFINED_TO } from "../git/confine.js";
import { GIT_MAX_PACK_BYTES } from "../git/limits.js";
import { atMostOnce, lostCallError, markAtMostOnce } from "./replay.js";
import type { WorkspaceModuleCallContext, WorkspaceModuleFactory, WorkspaceModuleFunction, WorkspaceModuleHost } from "./types.js";

/** Options of {@link createGitModule}. */
export interface GitModuleOptions {
  /**
   * Lets isolate code reach the network through git: `clone`, and `cli`
   * command lines naming `clone`, `fetch`, `pull`, `push`, `ls-remote` or
   * `submodule`. The requests run from the host Durable Object. Default
   * `false` (those calls reject with `… requires createGitModule({ allowNetwork: true }).`).
   */
  allowNetwork?: boolean;
}

/** Arguments of `cli` that make it a network command (compared case-insensitively, spec 04 §2.6). */
const NETWORK_COMMANDS = new Set(["clone", "fetch", "pull", "push", "ls-remote", "submodule"]);

/** What `cli` rejects for `-C…` (other than one leading `-C <path>`), `--git-dir[=…]` and `--work-tree[=…]`. */
export const GIT_PATH_OVERRIDE_MESSAGE = "Git CLI path overrides are not available inside a confined Workspace runtime.";

/** `<op> requires Workspace write access.` (spec 04 §2.6). */
function writeAccessError(op: string): Error {
  return Object.assign(new Error(`${op} requires Workspace write access.`), { code: "EROFS" });
}

/** `<op> requires createGitModule({ allowNetwork: true }).` (spec 04 §2.6). */
function networkError(op: string): Error {
  return Object.assign(new Error(`${op} requires createGitModule({ allowNetwork: true }).`), { code: "EACCES" });
}

function isPlainObject(value: unknown): value is Record<string, WorkspaceRuntimeValue> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The one options object of a call (`{}` for none or `null`); `TypeError` for more arguments or a non-object. */
function optionsOf(name: string, args: readonly WorkspaceRuntimeValue[]): Record<string, WorkspaceRuntimeValue> {
  if (args.length > 1) throw new TypeError(`ws:git ${name} takes one options object, got ${args.length} arguments`);
  const input = args.length === 0 || args[0] === null ? {} : args[0];
  if (!isPlainObject(input)) throw new TypeError(`ws:git ${name} takes one options object, got ${Array.isArray(input) ? "an array" : typeof input}`);
  return input;
}

/** `value` as a path option: a string, or the default for `undefined`/`null`. */
function pathOption(name: string, key: string, value: WorkspaceRuntimeValue | undefined, fallback: string): string {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "string") throw new TypeError(`ws:git ${name}: ${key} must be a string path, got ${Array.isArray(value) ? "an array" : typeof value}`);
  return value;
}

/**
 * The options with `undefined`/`null` members left out (isolate `undefined` arrives as `null`), `dir` set, and
 * `signal` the call's own (so git stops when the run is killed, times out or closes).
 */
function withDir<T>(input: Record<string, WorkspaceRuntimeValue>, dir: string, ctx: WorkspaceModuleCallContext): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) if (value !== null && value !== undefined) out[key] = value;
  out.dir = dir;
  out.signal = ctx.signal;
  return out as T;
}

function checkAborted(ctx: WorkspaceModuleCallContext): void {
  if (ctx.signal.aborted) throw ctx.signal.reason instanceof Error ? ctx.signal.reason : new Error("the call was aborted");
}

/**
 * The argv and cwd `cli` runs with (spec 04 §2.6): a leading `-C <path>` is
 * taken out and joined to `cwd` (an absolute path replaces it), git's pager
 * options before the subcommand (`--no-pager`, `-P`, `--paginate`, `-p`)
 * are dropped; any other
 * argument starting `-C`, or `--git-dir`, `--git-dir=…`, `--work-tree`,
 * `--work-tree=…`, throws {@link GIT_PATH_OVERRIDE_MESSAGE}. The returned
 * cwd is still to be resolved (`ctx.resolvePath`).
 *
 * @example
 * ```ts
 * foldCliPath(["-C", "repo", "status"], "."); // { argv: ["status"], cwd: "./repo" }
 * foldCliPath(["--git-dir=/x", "log"], ".");  // throws
 * ```
 */
export function foldCliPath(argv: readonly string[], cwd: string): { argv: string[]; cwd: string } {
  // The pager options (`--no-pager`, `-P`, …) around the leading `-C <path>` are dropped, so `argv[0]` is the
  // subcommand the confinement reads (issue 20, run 40, fixer f40g2).
  let rest = dropPagerOptions(argv);
  let dir = cwd;
  if (rest.length >= 2 && rest[0] === "-C") {
    const target = rest[1]!;
    dir = target.startsWith("/") ? target : `${cwd.replace(/\/+$/, "")}/${target}`;
    rest = dropPagerOptions(rest.slice(2));
  }
  for (const arg of rest) {
    if (arg.startsWith("-C") || arg === "--git-dir" || arg.startsWith("--git-dir=") || arg === "--work-tree" || arg.startsWith("--work-tree=")) {
      throw Object.assign(new Error(GIT_PATH_OVERRIDE_MESSAGE), { code: "EACCES" });
    }
  }
  return { argv: rest, cwd: dir };
}

/** `argv` without its leading {@link PAGER_OPTIONS} (git's global `--no-pager`, `-P`, `--paginate`, `-p`). */
function dropPagerOptions(argv: readonly string[]): string[] {
  let i = 0;
  while (i < argv.length && PAGER_OPTIONS.has(argv[i]!)) i++;
  return argv.slice(i);
}

/** True when any argument (case-insensitively) is `clone`, `fetch`, `pull`, `push`, `ls-remote` or `submodule`. */
export function isNetworkCommand(argv: readonly string[]): boolean {
  return argv.some((arg) => NETWORK_COMMANDS.has(arg.toLowerCase()));
}

/**
 * `cli` subcommands that only read (spec 04 §2.5): a call of one of these
 * may run again when its replay run resumes. Every other command line —
 * `commit`, `add`, `push`, `tag`, `branch`, `stash`, `config`, an unknown
 * or malformed one — counts as writing ({@link cliWrites}).
 */
const READ_ONLY_COMMANDS = new Set(["help", "version", "status", "log", "show", "diff", "rev-parse", "ls-files", "ls-tree", "cat-file"]);

/**
 * Whether `cli` with these raw arguments (as the isolate sent them, not yet
 * checked) may change something: `true` unless the one options object's
 * `argv` is an array whose subcommand — its first element, or its third
 * after a leading `-C <path>`, past any pager option (`--no-pager`, `-P`,
 * `--paginate`, `-p`) — is one of `help`, `version`, `status`,
 * `log`, `show`, `diff`, `rev-parse`, `ls-files`, `ls-tree`, `cat-file`.
 * Writing calls are at most once across replays (see {@link createGitModule}).
 *
 * @example
 * ```ts
 * cliWrites([{ argv: ["commit", "-m", "x"] }]);      // true
 * cliWrites([{ argv: ["-C", "repo", "log"] }]);      // false
 * cliWrites([{ argv: ["branch"] }]);                 // true (lists, but `branch x` writes)
 * ```
 */
export function cliWrites(args: readonly unknown[]): boolean {
  const input = args[0];
  if (typeof input !== "object" || input === null) return true;
  const argv = (input as { argv?: unknown }).argv;
  if (!Array.isArray(argv)) return true;
  if (!argv.every((a) => typeof a === "string")) return true;
  const rest = dropPagerOptions(argv as string[]);
  const sub: unknown = rest[0] === "-C" ? dropPagerOptions(rest.slice(2))[0] : rest[0]; // f40g2: past the pager options
  return !(typeof sub === "string" && READ_ONLY_COMMANDS.has(sub));
}

/** The EEXEC_LOST rejection of a writing call resumed after an interruption (it is not run again). */
function notRepeated(op: string, id: string): Error {
  return lostCallError(
    `ws:git ${op}: this call was in flight when the run was interrupted (call "${id}"), and git may have made its change before it; it is not run again. Look at the repository (status, log) to see what happened.`,
  );
}

/** Subcommands whose path arguments name where a repository is made (checked by {@link confineCli}). */
const CREATING = new Set(["init", "clone"]);

/**
 * Keeps a `cli` call inside the runtime's root (an addition to spec 04
 * §2.6, whose rules cover `cwd` and path overrides only): `init` and
 * `clone` path arguments (anything but a flag or a URL) must resolve under
 * the root; any other command must not reach a repository above it (git
 * finds the nearest `.git` at or above the cwd, which for a cwd with no
 * repository of its own may be one outside the root).
 *
 * @throws Error `EACCES` `Git CLI cannot use <path> from this runtime: <reason>`.
 */
async function confineCli(client: GitClient, ctx: WorkspaceModuleCallContext, argv: readonly string[], cwd: string): Promise<void> {
  const refuse = (path: string, error: unknown): never => {
    const reason = error instanceof Error ? error.message : String(error);
    throw Object.assign(new Error(`Git CLI cannot use ${path} from this runtime: ${reason}`), { code: "EACCES" });
  };
  const sub = argv[0];
  if (sub !== undefined && CREATING.has(sub)) {
    for (const arg of argv.slice(1)) {
      if (arg === "" || arg.startsWith("-") || /^[a-z][a-z0-9+.-]*:\/\//i.test(arg)) continue;
      const target = arg.startsWith("/") ? arg : `${cwd === "/" ? "" : cwd}/${arg}`;
      await ctx.resolvePath(target, { allowMissing: true }).catch((error: unknown) => refuse(target, error));
    }
    return;
  }
  let top: string;
  try {
    top = await client.repoRoot({ dir: cwd });
  } catch {
    return; // No repository (or no git): the command itself says so.
  }
  await ctx.resolvePath(top).catch((error: unknown) => refuse(`the repository at ${top}`, error));
}

/** The `ws:git` description the JavaScript backend shows the model. */
function describeGitModule(allowNetwork: boolean): string {
  const lines = [
    "Git on the Workspace's files, run by the host. Each export takes one options object; paths (`dir`, `cwd`) are relative to this runtime's root and default to `.`:",
    "- `clone({ url, dir?, ref?, depth?, singleBranch?, noTags? })` clones an `https://` or `http://` repository into `dir` (needs write access).",
    "- `status({ dir?, paths? })` → `[{ path, index, worktree }]` of changed paths (`A`/`M`/`D`/`?`/` `).",
    "- `diff({ dir?, ref?, to?, paths?, cached?, fromIndex? })` → a unified patch string (`ref`, default `HEAD`, against the working tree or `to`; `cached`: `ref` against the index; `fromIndex`: the index against the working tree).",
    "- `log({ dir?, ref?, depth? })` → commits `{ oid, message, tree, parent, author, committer }`, newest first.",
    "- `cli({ argv, cwd?, env?, stdin? })` runs a git command line (`argv` without `git`, e.g. `[\"commit\", \"-m\", \"msg\"]`) → `{ stdout, stderr, exitCode }` (needs write access). A leading `-C <path>` sets the directory; `--git-dir`, `--work-tree` and other `-C` are refused.",
  ];
  lines.push(
    allowNetwork
      ? "Network commands (clone, fetch, pull, push) are allowed; their requests go out from the host, not from this runtime."
      : "Network commands are not allowed here: `clone`, and `cli` with clone, fetch, pull, push, ls-remote or submodule, are refused (the module was created without allowNetwork).",
  );
  return lines.join("\n");
}

/**
 * Makes the `ws:git` host module (spec 02 §4.4, spec 04 §2.6), exporting
 * `clone`, `diff`, `status`, `log` and `cli`, each taking one options object
 * as the {@link GitClient} method of that name. `dir` (`cli`: `cwd`)
 * defaults to `"."` and goes through the call context's `resolvePath`
 * (relative to the backend's root, confined to it, no symbolic links); it
 * must exist, except `clone`'s `dir` and `cli`'s `cwd`.
 *
 * Rules, checked in this order before git runs:
 * - `clone` and `cli` on a read-only backend reject `Git clone requires
 *   Workspace write access.` / `Git CLI requires Workspace write access.`
 *   (`code` `EROFS`);
 * - `cli`: a leading `-C <path>` becomes the cwd; any other argument
 *   starting `-C`, and `--git-dir[=…]`, `--work-tree[=…]`, reject
 *   {@link GIT_PATH_OVERRIDE_MESSAGE} (`code` `EACCES`);
 * - without `allowNetwork`, `clone` rejects `Git clone requires
 *   createGitModule({ allowNetwork: true }).` and a `cli` argv with any
 *   argument `clone`/`fetch`/`pull`/`push`/`ls-remote`/`submodule` (any
 *   case) rejects `Git CLI network command requires createGitModule({
 *   allowNetwork: true }).` (`code` `EACCES`).
 *
 * Beyond the spec's rules, `cli` stays inside the root: `init`/`clone` path
 * arguments must resolve under it, and other commands must not reach a
 * repository above it (`Git CLI cannot use <path> from this runtime: …`,
 * `code` `EACCES`).
 *
 * In a replay run (`onInterrupt: "replay"`, spec 02 §5) writing calls —
 * `clone`, and `cli` when {@link cliWrites} — run at most once
 * (`atMostOnce` / `markAtMostOnce` of `modules/replay.ts`, as
 * `ws:container` exec): the call's start is journaled before git runs, and
 * a call in flight when the run was interrupted (`ctx.resumed`) is not run
 * again, since git, running in the object, may have made its change before
 * the object went down: it rejects `ws:git <cli|clone>: this call was in
 * flight when the run was interrupted (call "ws:git:<callId>"), and git may
 * have made its change before it; it is not run again. Look at the
 * repository (status, log) to see what happened.` (`code` `EEXEC_LOST`).
 * `status`, `diff`, `log` and read-only `cli` calls run again.
 *
 * Every call passes its `ctx.signal` to git (`signal`, see
 * `BaseWorktreeOptions.signal`): when the run is killed, times out or its
 * Workspace closes, a checkout, merge, reset, stash or clone stops before
 * its next file (issue 20, thirteenth attack run), so nothing changes in
 * the Workspace after the run has settled.
 *
 * Git's own failures reject with the client's `GitError` (message and
 * `code`); `cli` resolves `{ stdout, stderr, exitCode }` for user errors.
 * Without `WorkspaceOptions.git` every call rejects with the not-configured
 * error (`code` `ENOCONFIG`).
 *
 * @throws TypeError when `options` is not an object or `allowNetwork` is not a boolean.
 */
export function createGitModule(options: GitModuleOptions = {}): WorkspaceModuleFactory {
  if (options === null || typeof options !== "object") {
    throw new TypeError(`createGitModule(options): options must be an object, got ${options === null ? "null" : typeof options}`);
  }
  const allowNetwork = options.allowNetwork ?? false;
  if (typeof allowNetwork !== "boolean") throw new TypeError(`createGitModule(options): allowNetwork must be a boolean, got ${typeof allowNetwork}`);

  const factory = ((host: WorkspaceModuleHost) => {
    // In a run with a root, git's working-tree links must lead under it, as the run's own symlink must.
    const git = (ctx: WorkspaceModuleCallContext): GitClient => {
      const client = host.git as GitClient & { [CONFINED_TO]?: (root: string) => GitClient };
      return ctx.root !== "/" && typeof client[CONFINED_TO] === "function" ? client[CONFINED_TO](ctx.root) : client;
    };

    const clone: WorkspaceModuleFunction = async (args, ctx) => {
      const input = optionsOf("clone", args);
      if (ctx.access !== "read-write") throw writeAccessError("Git clone");
      if (!allowNetwork) throw networkError("Git clone");
      checkAborted(ctx);
      // Code may lower the host's download bound, never raise it (a bigger clone would take the object's memory).
      const bound = input.maxResponseBytes;
      if (bound !== undefined && bound !== null && !(typeof bound === "number" && bound > 0 && bound <= GIT_MAX_PACK_BYTES)) {
        throw new TypeError(`ws:git clone: maxResponseBytes must be a number > 0 and at most ${GIT_MAX_PACK_BYTES} (GIT_MAX_PACK_BYTES): code can lower the bound, not raise it`);
      }
      const dir = await ctx.resolvePath(pathOption("clone", "dir", input.dir, "."), { allowMissing: true });
      return atMostOnce(ctx, "ws:git", {
        run: async () => {
          await git(ctx).clone(withDir<GitCloneOptions>(input, dir, ctx));
          return null;
        },
        resume: async (id) => {
          throw notRepeated("clone", id);
        },
      });
    };

    const reader =
      (name: "status" | "diff" | "log"): WorkspaceModuleFunction =>
      async (args, ctx) => {
        const input = optionsOf(name, args);
        checkAborted(ctx);
        const dir = await ctx.resolvePath(pathOption(name, "dir", input.dir, "."));
        if (name === "status") return git(ctx).status(withDir<GitStatusOptions>(input, dir, ctx));
        if (name === "diff") return git(ctx).diff(withDir<GitDiffOptions>(input, dir, ctx));
        return git(ctx).log(withDir<GitLogOptions>(input, dir, ctx));
      };

    const cli: WorkspaceModuleFunction = async (args, ctx) => {
      const input = optionsOf("cli", args);
      if (ctx.access !== "read-write") throw writeAccessError("Git CLI");
      const argv = input.argv;
      if (!Array.isArray(argv) || !argv.every((a): a is string => typeof a === "string")) {
        throw new TypeError("ws:git cli: argv must be an array of strings (the arguments after `git`)");
      }
      const folded = foldCliPath(argv, pathOption("cli", "cwd", input.cwd, "."));
      if (!allowNetwork && isNetworkCommand(folded.argv)) throw networkError("Git CLI network command");
      // The call's signal: a killed, timed-out or closed run stops its git command before the next file.
      const run: GitCliInput = { argv: folded.argv, signal: ctx.signal };
      if (input.env !== undefined && input.env !== null) {
        if (!isPlainObject(input.env) || !Object.values(input.env).every((v) => typeof v === "string")) {
          throw new TypeError("ws:git cli: env must be an object of strings");
        }
        run.env = input.env as Record<string, string>;
      }
      if (input.stdin !== undefined && input.stdin !== null) {
        if (typeof input.stdin !== "string") throw new TypeError(`ws:git cli: stdin must be a string, got ${typeof input.stdin}`);
        run.stdin = input.stdin;
      }
      checkAborted(ctx);
      run.cwd = await ctx.resolvePath(folded.cwd, { allowMissing: true });
      await confineCli(git(ctx), ctx, run.argv, run.cwd);
      const once = async () => {
        const result = await git(ctx).cli(run);
        return { stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode };
      };
      if (!cliWrites(args)) return once();
      return atMostOnce(ctx, "ws:git", {
        run: once,
        resume: async (id) => {
          throw notRepeated("cli", id);
        },
      });
    };

    // Writing calls: their start is journaled before git runs, so an interruption at any moment resumes them (not run again).
    markAtMostOnce(clone);
    markAtMostOnce(cli, cliWrites);
    return { clone, diff: reader("diff"), status: reader("status"), log: reader("log"), cli };
  }) as WorkspaceModuleFactory & { description?: string };
  Object.defineProperty(factory, "description", { enumerable: true, value: describeGitModule(allowNetwork) });
  return factory;
}
