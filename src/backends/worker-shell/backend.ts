/**
 * `WorkerShellBackend` (spec 02 §6): just-bash in a Dynamic Worker, over the
 * Workspace's own files. The host hands the shell an RPC target over
 * `workspace.fs` with each command (no second store, nothing to sync), keeps
 * the live commands, and settles timeouts (124) and kills (130) itself, so a
 * stuck command never holds its caller.
 *
 * @module
 */
import type { WorkspaceFilesystem } from "../../fs/types.js";
import { RpcTargetBase } from "../../do/rpc-target.js";
import { clipGitResultForRpc } from "../../do/git-stub.js";
import { checkArtifactsRpcResult, checkFsRpcResult, estimateRpcSize } from "../../do/rpc-size.js";
import { WorkspaceFsError } from "../../fs/errors.js";
import { runtimeError } from "../../runtime/errors.js";
import { concatBytes, readStreamBytes } from "../../util/bytes.js";
import { byteStream, compactView, continuedStream, isByteStream, jsonLinesStream, RPC_BYTES_AT_ONCE } from "../../util/rpc-bytes.js"; // compact views: run 35, fixer UV
import { memberCut, quoteCut } from "../../util/cut.js";
import { normalizePath } from "../../util/path.js";
import type { BackendHandle, ExecEvent, KillSignal, WorkspaceBackendHost, WorkspaceCommandBackend } from "../../runtime/types.js";
import { WorkspaceFsAdapter, type WorkspaceFsAdapterListedEntry, type WorkspaceFsAdapterListing } from "./fs-adapter.js";
import { assembleShellModules, SHELL_MAIN_MODULE, SHELL_RUNTIME_MODULES, shellCommandNames } from "./modules.js";
import type { GitCliInput, GitClient } from "../../git/types.js";
import type { ArtifactsCLIInput, RemoteAddFn } from "../../artifacts/types.js";
import type {
  ExecInput,
  GitCommandOptions,
  ShellHost,
  ShellModuleGroup,
  WorkerShellBackendOptions,
  WorkerShellLoader,
  WorkerShellRuntime,
  WorkspaceEgressPolicy,
} from "./types.js";

const encoder = new TextEncoder();
/** A name `env` may set: a shell variable name. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Default of `compatibilityDate` (spec 02 §6). */
export const SHELL_COMPATIBILITY_DATE = "2026-06-17";
/** Default of `maxOutputBytes`: 16 MiB per stream. */
export const DEFAULT_SHELL_MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
/** How long a stopped command (timeout, kill) may take to hand back its output before it is settled anyway: 2 s. */
export const SHELL_STOP_GRACE_MS = 2000;
/** A listing brings the contents of files up to this size along (64 KiB)… */
export const PREFETCH_FILE_BYTES = 64 * 1024;
/** …up to this much per listing (1 MiB)… */
export const PREFETCH_TOTAL_BYTES = 1024 * 1024;
/** …and at most this many files per listing (256). */
export const PREFETCH_MAX_FILES = 256;
/** Default working directory (spec 02 §6). */
export const SHELL_DEFAULT_CWD = "/workspace";
/**
 * Bytes of `stdin` a shell command takes at most: 64 MiB (67108864), the
 * shell's read bound (`maxReadBytes`). Past 16 MiB (`RPC_BYTES_AT_ONCE`) the
 * input goes to the shell's isolate as a stream of its bytes (workerd refuses
 * one RPC value past 32 MiB); a larger `stdin` is refused before anything
 * runs (RangeError `code` `E2BIG`, naming `stdin`). Write bigger input to a
 * Workspace file and redirect it (`cmd < /workspace/input.bin`).
 */
export const MAX_SHELL_STDIN_BYTES = 64 * 1024 * 1024;
/**
 * Estimated size of the rest of a shell command's request at most — the
 * command text, `env` and the other fields, as workerd serializes them (one
 * byte a character for Latin-1 text, else two): 30 MiB (31457280). The
 * request crosses to the shell's isolate as one RPC value, which workerd
 * refuses past 32 MiB, so a larger one is refused before anything runs
 * (RangeError `code` `E2BIG`, naming the size of each part). just-bash itself
 * runs a script of at most 1,000,000 bytes; put long text in a Workspace file
 * and have the command read it (`cmd < /workspace/input`).
 */
export const MAX_SHELL_EXEC_BYTES = 30 * 1024 * 1024;

/** 0.8.0's fixed self-description (spec 02 §6), word for word; this backend describes what it really has instead (`description`). */
export const WORKER_SHELL_DESCRIPTION =
  "A just-bash shell in a Dynamic Worker. Starts fast, with no container and no direct network. Good for cat, grep, sed, awk, jq, head, tail, sort, find, text transformations, and a built-in `git` (clone, status, diff, log) that works through the workspace. Cannot run npm, node, python, or binaries outside its built-in command set.";

/** Commands named in the description when present, in this order. */
const NOTABLE = ["jq", "yq", "xan", "file", "html-to-markdown", "curl"];

/** The shell's self-description for these commands and egress (see `WorkerShellBackend.description`). */
export function describeShell(commands: readonly string[], egress: WorkspaceEgressPolicy): string {
  const extra = NOTABLE.filter((c) => commands.includes(c));
  const network =
    !commands.includes("curl") || egress.mode === "none"
      ? "It has no network access."
      : egress.mode === "direct"
        ? "curl reaches the network."
        : "curl reaches the network through a gateway that decides what is allowed.";
  return (
    "A just-bash shell in a Dynamic Worker, working directly on the Workspace's files (cwd /workspace). Starts fast, with no container. " +
    "Good for cat, grep -rn, sed -i, awk, head, tail, sort, uniq, wc, find, xargs, diff, tar, pipes and redirects" +
    (extra.length > 0 ? `, and ${extra.join(", ")}` : "") +
    `. ${network} Cannot run npm, node, python, or binaries outside its built-in command set. ` +
    "Its built-in `git` (init, status, diff, log, add, commit, branch, clone, push, …) works on the Workspace's files when the Workspace has git configured; git's network requests go out from the host."
  );
}

interface Resolved {
  id: string;
  source:
    | { type: "loader"; loader: WorkerShellLoader; key: string }
    | { type: "external-runtime"; connect: (o: { egress: WorkspaceEgressPolicy }) => WorkerShellRuntime | Promise<WorkerShellRuntime> };
  compatibilityDate: string;
  compatibilityFlags: string[];
  egress: WorkspaceEgressPolicy;
  groups: readonly ShellModuleGroup[];
  commands: string[];
  unavailable: Record<string, string>;
  maxOutputBytes: number;
}

function fail(message: string): never {
  throw new TypeError(`WorkerShellBackend: ${message}`);
}

function checkEgress(egress: unknown): WorkspaceEgressPolicy {
  if (egress === undefined) return { mode: "none" };
  const e = egress as { mode?: unknown; gateway?: unknown; revision?: unknown };
  if (e === null || typeof e !== "object") fail('egress must be { mode: "none" | "direct" | "http-gateway" }');
  if (e.mode === "none" || e.mode === "direct") return { mode: e.mode };
  if (e.mode === "http-gateway") {
    if (e.gateway === null || (typeof e.gateway !== "object" && typeof e.gateway !== "function")) fail('egress "http-gateway" needs a gateway (a Fetcher, e.g. a service binding)');
    if (e.revision !== undefined && typeof e.revision !== "string") fail("egress.revision must be a string");
    const gateway = e.gateway as Fetcher;
    return e.revision === undefined ? { mode: "http-gateway", gateway } : { mode: "http-gateway", gateway, revision: e.revision };
  }
  return fail(`egress.mode must be "none", "direct" or "http-gateway", not ${JSON.stringify(e.mode)}`);
}

function egressSuffix(egress: WorkspaceEgressPolicy, instance: string): string {
  if (egress.mode !== "http-gateway") return `:egress-${egress.mode}`;
  return `:egress-http-gateway-${egress.revision ?? instance}`;
}

function resolveOptions(options: WorkerShellBackendOptions): Resolved {
  if (options === null || typeof options !== "object") fail("options must be an object");
  const id = options.id ?? "worker-shell";
  if (typeof id !== "string" || id === "") fail("id must be a non-empty string");
  const egress = checkEgress(options.egress);
  const groups = options.commands ?? [];
  if (!Array.isArray(groups)) fail('commands must be an array of command groups from "agent-computer/shell/<group>"');
  const { commands, unavailable } = shellCommandNames(groups);
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_SHELL_MAX_OUTPUT_BYTES;
  if (!Number.isSafeInteger(maxOutputBytes) || maxOutputBytes <= 0) fail("maxOutputBytes must be a positive safe integer (bytes)");
  const compatibilityDate = options.compatibilityDate ?? SHELL_COMPATIBILITY_DATE;
  if (typeof compatibilityDate !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(compatibilityDate)) fail("compatibilityDate must be a YYYY-MM-DD string");
  const extraFlags = options.compatibilityFlags ?? [];
  if (!Array.isArray(extraFlags) || extraFlags.some((f) => typeof f !== "string")) fail("compatibilityFlags must be an array of strings");
  const compatibilityFlags = ["nodejs_compat", ...extraFlags.filter((f) => f !== "nodejs_compat")];
  const base = { id, compatibilityDate, compatibilityFlags, egress, groups, commands, unavailable, maxOutputBytes };
  if (options.source !== undefined) {
    if (options.loader !== undefined || options.workspace !== undefined || options.ctx !== undefined) {
      fail("pass either source or loader/workspace/ctx, not both");
    }
    const source = options.source;
    if (source?.type === "loader") {
      return resolveOptions({ ...options, source: undefined, loader: source.loader, workspace: source.workspace, ctx: source.ctx } as WorkerShellBackendOptions);
    }
    if (source?.type !== "external-runtime" || typeof source.connect !== "function") {
      fail('source must be { type: "loader", loader, workspace, ctx } or { type: "external-runtime", connect }');
    }
    return { ...base, source: { type: "external-runtime", connect: source.connect } };
  }
  const loader = options.loader;
  if (loader === null || typeof loader !== "object" || typeof (loader as { get?: unknown }).get !== "function") {
    fail("loader is required: pass the Worker Loader binding (env.LOADER, [[worker_loaders]] in wrangler config), or source");
  }
  if (options.loaderId !== undefined && (typeof options.loaderId !== "string" || options.loaderId === "")) fail("loaderId must be a non-empty string");
  const workspaceId = options.workspace?.id;
  const named = workspaceId === undefined ? id : String(workspaceId);
  const groupSuffix = groups.length > 0 ? `:${groups.map((g) => g.name).join("+")}` : "";
  const key = `${options.loaderId ?? `workspace-shell:${named}`}${egressSuffix(egress, crypto.randomUUID())}${groupSuffix}`;
  return { ...base, source: { type: "loader", loader, key } };
}

/**
 * Runs shell commands (just-bash) in a Dynamic Worker over the Workspace (spec 02 §6). Command protocol; not callable.
 * An escape writes its byte, as bash 5.2: `printf '\xc0'` (`\300`, `%b`, `echo -e`, `$'…'`, awk strings) writes c0,
 * not just-bash's c3 80, bytes that form UTF-8 are its text (`\303\251` is é), and a run's stdout keeps such bytes.
 * `read`, `mapfile` and `readarray` read UTF-8 characters from a pipe, redirect or here-string (`read x <<< é` sets é,
 * just-bash set its Latin-1 view); sed's and tr's numeric escapes, `%b`'s `\e` and printf's `'c`/`%c` work on bytes.
 * `sort` orders lines by their UTF-8 bytes as GNU sort in the C locale (just-bash used localeCompare: `B` after `a`),
 * `-f` folds to upper case, `-n`/`-u`/`-c -u` and `comm`, `uniq -i`, `join -i` follow GNU coreutils 9.1; sed's
 * `s///Ng` replaces the Nth match onwards (just-bash: all) and `H` always adds a newline, as GNU sed 4.9.
 * awk splits records by `RS` (one character, `""` paragraph mode, an ERE), plain `getline` (also in BEGIN) reads the main
 * input, `-f progfile` runs, `print > "out_" $1` writes to the whole name, gsub skips an empty match after a match, and a
 * division by zero, `$-1` or too few printf arguments are fatal (`$?` 2), as gawk 5.2 (just-bash read lines, gave 0/"").
 * `chmod` applies the umask 022 to a mode without u/g/o/a (`chmod +w f` is 0644, just-bash's 0666) and `X` only to
 * directories and executables; `expr STR : 'a\(.*\)'` prints the group (just-bash: 0), comparisons of non-integers are
 * string ones; a command run by another (`env FOO=1 sh -c`, `timeout`, `xargs`) gets exactly the caller's exported
 * variables with env's assignments (`env -i`: none), as GNU coreutils 9.1 and bash 5.2.
 * Globs match a newline in a name, and `dirname`, `basename`, `rmdir -p`, `wc`, `od`, `tac` and `ls -d` answer as GNU
 * coreutils 9.1 where just-bash 3.4.2 differed (docs/runtime.md). Start points of `find`, `du` and `grep -r` are named
 * and walked as GNU's: `find ld/` (ld a link to a directory) walks the directory and prints `ld/`, `du` prints a line
 * for every operand, and a child of `d/` is `d/f.txt` (not `d//f.txt`). A glob ending in `/` (`rm -rf` of every
 * subdirectory) matches directories only and keeps the slash, as bash; `find d -path 'd/e*'` matches; `rm -f`
 * silences only a missing name (a read-only mount is `Read-only file system`, `$?` 1); commands name the real reason
 * of a failure (ELOOP, EROFS). `tar -x` and `gzip`/`gunzip` replace what is at an output name (a link there is never
 * written through), give the output the member's or input's mode (tar: less umask 022 unless `-p`) and extract a
 * hard-link member as a copy of its file, as GNU tar 1.34 and gzip 1.12 (docs/runtime.md).
 * `mapfile -u FD`/`readarray -u FD` read descriptor FD (just-bash read stdin); sed addresses take `I` and `M`
 * (`/a/Ip`); `mkdir -pv` names each parent it makes; `comm` warns of unsorted input (`$?` 1; `--check-order`,
 * `--nocheck-order`); `join` pairs in one merge, so `-a`/`-v` lines keep the files' order; a bad `sort -k` key fails
 * (`$?` 2); `cp f nope/` is `Not a directory` — as bash 5.2, GNU sed 4.9 and coreutils 9.1 (docs/runtime.md).
 * `sort -k N` compares to the end of the line and `.C` counts from the field's start (GNU sort 9.1; just-bash: field N
 * alone); `join` reports unsorted input (`join: FILE:N: is not sorted: LINE`, `$?` 1; `--check-order`,
 * `--nocheck-order`); `umask [-p] [-S] [MODE]` is bash's builtin and new files/directories, `cp`, `tar -x` and `chmod`
 * use its mask (022 for each run); `touch -d`/`-t`/`-r` fail (`Operation not supported`, `$?` 1: the Workspace cannot
 * store a given mtime) where just-bash set the current time (docs/runtime.md).
 * Under `shopt -s failglob`, `eval` and a sourced file stop their own text at a no-match (status 1) and a background
 * job ends alone; `… &` is a subshell job (`$?` 0, `wait $!` gives its status); `bash`/`sh` children and `./script`
 * start with bash 5.2's default `shopt` options; `declare`/`local`/`readonly` arrays glob as `NAME=(…)` does.
 * `./script` sees only the caller's exported variables, as `bash FILE` (not its other variables, arrays or functions);
 * declaration arrays split `$(…)` and keep `a\ b` whole, and `export e=(a b)` makes an exported array, as bash 5.2.
 * `sed -i` of a link replaces the link with the edited file (`--follow-symlinks` edits its target); `readlink
 * -f`/`-e`/`-m` resolve every link and fail (`$?` 1, no output) for a loop or a missing directory; `cp` keeps an
 * existing file's mode and gives new ones the source's less umask 022 (`-p`: all of it); `find -printf` has `%y %Y %l
 * %n %H %u %g %U %G`, `stat -c` `%% %h %i …` and widths; `tee`, `touch`, `nl`, `rev`, `base64`, `sort` (status 2),
 * `cp` and `mv` name the failing operand and its reason, as GNU sed 4.9, coreutils 9.1 and findutils 4.9.
 * A `cut` list GNU refuses fails cut (`$?` 1; just-bash ended the run with 126), `cut -f` prints a line without the
 * delimiter whole unless `-s`; `head`/`tail` counts take size suffixes (`-c 1k` is 1024) and refuse junk; `paste -d`
 * reads `\n \t \\ \0`; `tr` expands `[c*]`/`[c*n]` in SET2; `seq` counts integers exactly past 2^53; `xargs` with
 * no input runs once — as GNU coreutils 9.1 and findutils 4.9.
 * Shell integers are bash 5.2's 64-bit signed ones (`$((1<<32))` 4294967296, `$((2**63))` wraps; just-bash's were 32-bit
 * or doubles), also for `test -gt` and printf's `%d %u %x` (`printf %x -1` is ffffffffffffffff); `${a[*]}` in an
 * assignment, `case` or `[[ ]]` joins with IFS's first character (just-bash: a space).
 * In `case` and `[[ == ]]` a bracket expression opening with `!` is negated (`[!0-9]*`; just-bash: the class of `!`,
 * `0-9`); `for NAME;` iterates "$@" unsplit; a variable's value in arithmetic is read as a literal (`x=010; $((x))` is
 * 8, `x=08` `value too great for base`; just-bash: decimal); `[ abc -eq 1 ]` says `integer expression expected` and
 * `${!x}` of an unset x ends the shell (`invalid indirect expansion`), as bash 5.2 (docs/runtime.md).
 * A command's `stdin` past 16 MiB goes to the isolate as a stream (up to {@link MAX_SHELL_STDIN_BYTES}, 64 MiB); a
 * larger one, or command text + `env` past {@link MAX_SHELL_EXEC_BYTES} (30 MiB), rejects `exec` with RangeError
 * `E2BIG` before anything runs (before: exit 1 with workerd's `Serialized RPC arguments …` as stderr).
 */
export class WorkerShellBackend implements WorkspaceCommandBackend {
  /** Always `"worker-shell"`. */
  readonly type = "worker-shell";
  /** Runs shell text. */
  readonly protocol = "command" as const;
  /** Takes no structured input. */
  readonly callable = false;
  /** The backend id (`options.id`, default `"worker-shell"`). */
  readonly id: string;
  /**
   * What the exec tool tells the model about this backend: the commands it
   * really has (core, plus the listed groups), whether `curl` reaches the
   * network, and what it cannot run. 0.8.0's fixed text
   * ({@link WORKER_SHELL_DESCRIPTION}) names `jq` and a `git` this
   * configuration may not have; a model that believes it wastes a call.
   */
  get description(): string {
    return describeShell(this.#options.commands, this.#options.egress);
  }
  readonly #options: Resolved;

  /** @throws TypeError `WorkerShellBackend: <option> …` for an invalid option. */
  constructor(options: WorkerShellBackendOptions) {
    this.#options = resolveOptions(options);
    this.id = this.#options.id;
  }

  /** Connects: prepares the runtime lazily (the Dynamic Worker loads on the first command). */
  async connect(host: WorkspaceBackendHost): Promise<BackendHandle> {
    const o = this.#options;
    let runtime: WorkerShellRuntime | Promise<WorkerShellRuntime>;
    if (o.source.type === "external-runtime") {
      runtime = await o.source.connect({ egress: o.egress });
    } else {
      const { loader, key } = o.source;
      const modules: Record<string, { js: string }> = {};
      for (const [name, js] of Object.entries({ ...assembleShellModules(o.groups), ...SHELL_RUNTIME_MODULES })) modules[name] = { js };
      const code: ReturnType<Parameters<WorkerShellLoader["get"]>[1]> = {
        compatibilityDate: o.compatibilityDate,
        compatibilityFlags: o.compatibilityFlags,
        mainModule: SHELL_MAIN_MODULE,
        modules,
      };
      if (o.egress.mode === "none") code.globalOutbound = null;
      else if (o.egress.mode === "http-gateway") code.globalOutbound = o.egress.gateway;
      runtime = loader.get(key, () => code).getEntrypoint("ShellWorker") as WorkerShellRuntime;
    }
    return new ShellConnection(o, host, runtime);
  }
}

function stoppedError(): Error {
  return Object.assign(new Error("the command was stopped; the Workspace is no longer reachable from it"), { code: "ECANCELED" });
}

/**
 * The RPC target one command gets: `workspace.fs` methods, output, and the
 * built-ins' host calls. Once the command is settled (done, timed out,
 * killed) every call rejects, so a stopped command cannot write.
 */
class ShellHostTarget extends RpcTargetBase {
  readonly #run: LiveCommand;
  readonly #fs: WorkspaceFilesystem;
  readonly #host: WorkspaceBackendHost;

  readonly #serial: (path: string, step: () => Promise<void>) => Promise<void>;

  constructor(run: LiveCommand, host: WorkspaceBackendHost, serial: (path: string, step: () => Promise<void>) => Promise<void>) {
    super();
    this.#serial = serial;
    this.#run = run;
    this.#fs = host.fs;
    this.#host = host;
  }

  #live(): WorkspaceFilesystem {
    this.#run.tick();
    if (this.#run.settled) throw stoppedError();
    return this.#fs;
  }

  /** For calls that change the Workspace: refused as soon as the command is being stopped. */
  #writable(): WorkspaceFilesystem {
    this.#run.tick();
    if (this.#run.settled || this.#run.stopping !== undefined) throw stoppedError();
    return this.#fs;
  }

  // A prototype method (RPC exposes only those), typed loosely: `workspace.fs.readFile` is overloaded. Answers
  // crossing RPC are measured (E2BIG past 30 MiB, as the filesystem stub's), never workerd's bare error.
  async readFile(path: string, options?: unknown): Promise<never> {
    return checkFsRpcResult("readFile", path, await (this.#live().readFile as (p: string, o?: unknown) => Promise<never>)(path, options));
  }
  writeFile(...args: Parameters<WorkspaceFilesystem["writeFile"]>) {
    return this.#writable().writeFile(...args);
  }
  stat(path: string) {
    return this.#live().stat(path);
  }
  lstat(path: string) {
    return this.#live().lstat(path);
  }
  async readdir(...args: Parameters<WorkspaceFilesystem["readdir"]>) {
    return checkFsRpcResult("readdir", args[0], await this.#live().readdir(...args));
  }
  mkdir(...args: Parameters<WorkspaceFilesystem["mkdir"]>) {
    return this.#writable().mkdir(...args);
  }
  rm(...args: Parameters<WorkspaceFilesystem["rm"]>) {
    return this.#writable().rm(...args);
  }
  rename(from: string, to: string) {
    return this.#writable().rename(from, to);
  }
  symlink(target: string, path: string) {
    return this.#writable().symlink(target, path);
  }
  readlink(path: string) {
    return this.#live().readlink(path);
  }
  chmod(path: string, mode: number) {
    return this.#writable().chmod(path, mode);
  }

  /**
   * `>>`: appends `bytes` (or a stream of them: more than 16 MiB do not cross
   * RPC as one value) to `path` (creating it), one append per path at a
   * time across every command of this connection, so concurrent appends all
   * land. An existing file takes the Workspace's `appendFile`: its full 512
   * KiB chunks kept, only the last partial one cut again with the new bytes,
   * one transaction — O(appended bytes + one chunk), not a rewrite of the
   * file; a stream is read once as it arrives, never held whole. A missing
   * file (or a dangling link's target) is created as `WorkspaceFsAdapter`
   * does (issue 20, run 36, fixer AP).
   */
  async appendBytes(path: string, bytes: Uint8Array | ReadableStream<Uint8Array>): Promise<void> {
    const fs = this.#writable();
    await this.#serial(path, async () => {
      let content = bytes;
      if (isByteStream(content)) {
        const found = await fs.stat(path).catch(() => undefined);
        if (found !== undefined && !found.isDirectory) return fs.appendFile(path, content);
        content = await readStreamBytes(content);
      }
      await new WorkspaceFsAdapter(fs).appendFile(path, content);
    });
  }

  /**
   * The whole file, read as a stream and refused with `EFBIG` past
   * `maxBytes`: its bytes in one RPC answer up to `RPC_BYTES_AT_ONCE` (16
   * MiB), else a stream of them (workerd refuses an RPC answer past 32 MiB)
   * that ends after the chunk passing `maxBytes` (the reader refuses it then).
   */
  async readBytes(path: string, maxBytes: number): Promise<Uint8Array | ReadableStream<Uint8Array>> {
    const stream = await this.#live().readFile(path);
    const reader = stream.getReader();
    const parts: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => {});
        throw Object.assign(new Error(`EFBIG: file too large, read '${path}'`), { code: "EFBIG", path });
      }
      parts.push(value);
      if (total > RPC_BYTES_AT_ONCE) return continuedStream(parts, reader, maxBytes);
    }
    // One chunk may be a view of a larger buffer: sent compact, not with its whole buffer (run 35, fixer UV).
    return parts.length === 1 ? compactView(parts[0]!) : concatBytes(parts, total);
  }

  /**
   * The listing (entries without `parentPath`: the caller knows the path it
   * listed), plus — unless `options.contents` is `false` — the contents of
   * its regular files of at most {@link PREFETCH_FILE_BYTES} each,
   * {@link PREFETCH_TOTAL_BYTES} and {@link PREFETCH_MAX_FILES} files in all,
   * in listing order (a file that fails to read is left out). Entries past
   * `RPC_BYTES_AT_ONCE` (16 MiB estimated) come as a stream of JSON lines
   * (`entryLines`): one RPC answer may not pass 32 MiB.
   */
  async listWithContents(path: string, options?: { contents?: boolean }): Promise<WorkspaceFsAdapterListing> {
    const listed = await this.#live().readdir(path);
    const entries: WorkspaceFsAdapterListedEntry[] = listed.map(({ name, size, mtime, isFile, isDirectory, isSymbolicLink }) => ({ name, size, mtime, isFile, isDirectory, isSymbolicLink }));
    const contents: Record<string, Uint8Array> = {};
    const base = path.endsWith("/") ? path : `${path}/`;
    let budget = options?.contents === false ? 0 : PREFETCH_TOTAL_BYTES;
    let files = 0;
    for (const entry of entries) {
      if (!entry.isFile || entry.size > PREFETCH_FILE_BYTES || entry.size > budget) continue;
      if (++files > PREFETCH_MAX_FILES) break;
      try {
        const bytes = await this.readBytes(base + entry.name, PREFETCH_FILE_BYTES);
        if (!(bytes instanceof Uint8Array)) continue;
        contents[entry.name] = bytes;
        budget -= bytes.byteLength;
      } catch {
        /* read on demand instead */
      }
    }
    if (estimateRpcSize(entries, RPC_BYTES_AT_ONCE) <= RPC_BYTES_AT_ONCE) return { entries, contents };
    return { entries: [], contents, entryLines: jsonLinesStream(entries) };
  }

  async output(stream: "stdout" | "stderr", bytes: Uint8Array): Promise<void> {
    this.#run.tick();
    if (this.#run.settled) throw stoppedError();
    this.#run.output(stream, bytes);
  }

  async publish(path: string, expiresAfterMs: number): Promise<string> {
    this.#writable();
    const assets = this.#host.assets as { share?(p: string, o: { expiresAfter: number }): Promise<string> } | undefined;
    if (assets === undefined || typeof assets.share !== "function") {
      throw Object.assign(new Error("publishing is not configured for this workspace"), { code: "ENOCONFIG" });
    }
    return assets.share(path, { expiresAfter: expiresAfterMs });
  }

  /**
   * The `git` built-in (spec 04 §2.6): `workspace.git.cli({ argv: args,
   * cwd, env, stdin })`, run here in the Durable Object (network included,
   * whatever the isolate's egress), with the command's signal (aborted when
   * the command is stopped: git stops before its next file or tree read,
   * `git <sub>: cancelled: …`), output returned whole up to
   * `MAX_GIT_RPC_OUTPUT_CHARS` (then clipped, `clipGitResultForRpc` in do/git-stub.ts).
   * @throws TypeError for arguments of the wrong shape; the not-configured error (`ENOCONFIG`) without `WorkspaceOptions.git`; `ECANCELED` once the command is being stopped.
   */
  async git(args: string[], cwd: string, options?: GitCommandOptions): Promise<{ stdout: string; stderr: string; exitCode: number }> {
    this.#writable();
    if (!Array.isArray(args) || !args.every((a) => typeof a === "string")) throw new TypeError("git: args must be an array of strings");
    if (typeof cwd !== "string") throw new TypeError("git: cwd must be a string");
    const input: GitCliInput = { argv: args, cwd };
    const env = options?.env;
    if (env !== undefined && env !== null) {
      if (typeof env !== "object" || Object.values(env).some((v) => typeof v !== "string")) throw new TypeError("git: env must be an object of strings");
      input.env = { ...env };
    }
    const stdin = options?.stdin;
    if (stdin !== undefined && stdin !== null) {
      if (typeof stdin !== "string" && !(stdin instanceof Uint8Array)) throw new TypeError("git: stdin must be a string or bytes");
      input.stdin = stdin;
    }
    // The command's signal: once it is stopped (timeout, kill, close) git stops before its next file or tree read.
    input.signal = this.#run.signal;
    // Clipped as the RPC stub clips it: the answer crosses RPC to the shell's isolate.
    return clipGitResultForRpc(await this.#host.git.cli(input));
  }

  /**
   * The `artifacts` built-in (spec 04 §3.5): `workspace.artifacts.cli({
   * argv: args, env, remoteAdd })`, run here in the Durable Object. Without
   * `WorkspaceOptions.artifacts` the CLI runs in unconfigured mode. See
   * {@link shellRemoteAdd} for how `create` registers its git remote at `cwd`.
   * @throws TypeError for arguments of the wrong shape; `ECANCELED` once the command is being stopped; ArtifactError `E2BIG` (printed `artifacts: <message>`, status 1) when the answer is over 30 MiB, too large to cross RPC to the shell (`checkArtifactsRpcResult`: scope the client to a session).
   */
  async artifacts(args: string[], cwd: string, options?: { env?: Record<string, string> }): Promise<{ stdout: string; stderr: string; exitCode: number }> {
    this.#writable();
    if (!Array.isArray(args) || !args.every((a) => typeof a === "string")) throw new TypeError("artifacts: args must be an array of strings");
    if (typeof cwd !== "string") throw new TypeError("artifacts: cwd must be a string");
    const input: ArtifactsCLIInput = { argv: [...args], remoteAdd: shellRemoteAdd(this.#host.git, cwd, () => this.#writable()) };
    const env = options?.env;
    if (env !== undefined && env !== null) {
      if (typeof env !== "object" || Object.values(env).some((v) => typeof v !== "string")) throw new TypeError("artifacts: env must be an object of strings");
      input.env = { ...env };
    }
    const r = await this.#host.artifacts.cli(input);
    // Measured as the Artifacts stub's cli (E2BIG with advice past 30 MiB): the answer crosses RPC to the shell's isolate.
    return checkArtifactsRpcResult("cli", { stdout: String(r.stdout ?? ""), stderr: String(r.stderr ?? ""), exitCode: Number.isInteger(r.exitCode) ? r.exitCode : 1 });
  }
}

/**
 * The `remoteAdd` seam of the shell's `artifacts` (spec 04 §3.5): registers
 * a git remote in the repository at the shell's `cwd` through the
 * Workspace's git CLI. Unless `force`, runs `git remote` and answers
 * `{ ok: false, exists: true }` when `name` is listed; then runs `git remote
 * add [--force] <name> <url>`: exit 0 → `{ ok: true }`, else `{ ok: false,
 * message }` with git's trimmed stderr (or stdout). A git that throws (not
 * configured, the command stopped) → `{ ok: false, message }` with its message.
 * An empty `name` or one starting with `-` (git would read it as an option) →
 * `{ ok: false, message }` before git runs.
 */
export function shellRemoteAdd(git: GitClient, cwd: string, live: () => void = () => {}): RemoteAddFn {
  return async ({ name, url, force }) => {
    if (typeof name !== "string" || name === "" || name.startsWith("-")) {
      return { ok: false, message: `'${String(name)}' is not a git remote name (empty, or it starts with '-')` };
    }
    try {
      live();
      if (force !== true) {
        const listed = await git.cli({ argv: ["remote"], cwd });
        if (listed.exitCode === 0 && listed.stdout.split("\n").some((line) => line.trim() === name)) return { ok: false, exists: true };
        live();
      }
      const added = await git.cli({ argv: ["remote", "add", ...(force === true ? ["--force"] : []), name, url], cwd });
      if (added.exitCode === 0) return { ok: true };
      return { ok: false, message: added.stderr.trim() || added.stdout.trim() };
    } catch (error) {
      return { ok: false, message: error instanceof Error ? error.message : String(error) };
    }
  };
}

/** One running command on the host: its event stream and how it ends. */
class LiveCommand {
  readonly id: string;
  settled = false;
  /** Set when a timeout or kill is stopping the command: the code and stderr line it will settle with, and when the grace ends (`Date.now()`). */
  stopping: { code: number; message: string | undefined; until: number } | undefined;
  /** When the timeout is due (`Date.now()`; `Infinity` without one), and what stops the command then. */
  deadline = Infinity;
  onDeadline: (() => void) | undefined;
  readonly #stopped = new AbortController();
  /** Aborts when the command starts to stop (timeout, kill, close) or settles: what the `git` built-in's work checks. */
  get signal(): AbortSignal {
    return this.#stopped.signal;
  }
  /** Aborts {@link signal} (once). */
  abort(): void {
    if (!this.#stopped.signal.aborted) this.#stopped.abort(new Error("its shell command was stopped"));
  }
  #seq = 0;
  readonly #queue: ExecEvent[] = [];
  #wake: (() => void) | undefined;
  #closed = false;
  readonly #bytes = { stdout: 0, stderr: 0 };
  readonly #maxBytes: number;
  readonly #onSettled: () => void;
  readonly events: ReadableStream<ExecEvent>;

  constructor(id: string, maxBytes: number, onSettled: () => void) {
    this.id = id;
    this.#maxBytes = maxBytes;
    this.#onSettled = onSettled;
    this.events = new ReadableStream<ExecEvent>(
      {
        pull: async (controller) => {
          while (this.#queue.length === 0 && !this.#closed) await new Promise<void>((resolve) => (this.#wake = resolve));
          const next = this.#queue.shift();
          if (next) controller.enqueue(next);
          else controller.close();
        },
      },
      { highWaterMark: 0 },
    );
  }

  #push(event: ExecEvent): void {
    this.#queue.push(event);
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  /**
   * Reads the clock on every host call: workerd runs timers only when its event
   * loop is idle, and a shell that keeps calling the host (a loop of reads or
   * writes) keeps it busy, so the timeout and grace timers alone could fire
   * only after the command ended (issue 14: a 300 ms timeout let a write loop
   * run 47 s to exit 0). Past the deadline this starts the stop (writes are
   * refused from then on); past the grace it settles.
   */
  tick(): void {
    if (this.settled) return;
    const now = Date.now();
    if (this.stopping !== undefined) {
      if (now >= this.stopping.until) this.settle(this.stopping.code, this.stopping.message);
    } else if (now >= this.deadline) {
      this.onDeadline?.();
    }
  }

  /** Output from the shell: kept up to the per-stream bound (the shell enforces it first). */
  output(stream: "stdout" | "stderr", bytes: Uint8Array): void {
    if (this.settled || bytes.byteLength === 0) return;
    const room = this.#maxBytes - this.#bytes[stream];
    if (room <= 0) return;
    const kept = bytes.byteLength > room ? bytes.slice(0, room) : bytes.slice();
    this.#bytes[stream] += kept.byteLength;
    this.#push({ id: this.id, seq: ++this.#seq, name: stream, value: kept });
  }

  /** Ends the command once: an optional stderr line, then `exit`. Later calls are ignored. */
  settle(code: number, message?: string): void {
    if (this.settled) return;
    this.abort();
    if (message !== undefined) this.#push({ id: this.id, seq: ++this.#seq, name: "stderr", value: encoder.encode(message.endsWith("\n") ? message : `${message}\n`) });
    this.settled = true;
    this.#push({ id: this.id, seq: ++this.#seq, name: "exit", code });
    this.#closed = true;
    this.#onSettled();
  }
}

/** One connection of the backend to a Workspace: the live commands by id. */
class ShellConnection implements BackendHandle {
  readonly sync = "none" as const;
  readonly rpc: BackendHandle["rpc"];
  readonly #options: Resolved;
  readonly #host: WorkspaceBackendHost;
  readonly #runtime: WorkerShellRuntime | Promise<WorkerShellRuntime>;
  readonly #live = new Map<string, LiveCommand>();
  #closed = false;
  /** The last queued append per path (see `#serially`). */
  readonly #appends = new Map<string, Promise<void>>();
  /** Creating `/workspace`, once per connection (concurrent first commands share it). */
  #defaultCwd: Promise<void> | undefined;

  constructor(options: Resolved, host: WorkspaceBackendHost, runtime: WorkerShellRuntime | Promise<WorkerShellRuntime>) {
    this.#options = options;
    this.#host = host;
    this.#runtime = runtime;
    this.rpc = {
      shell: {
        exec: (input) => this.#exec(input),
        getExec: async ({ id }) => {
          throw runtimeError("ENOENT", `no execution with id ${JSON.stringify(id)}: the shell backend does not keep finished commands`);
        },
        killExec: async ({ id }) => this.#kill(id),
        disposeExec: async () => {},
      },
    };
  }

  async #exec(input: { source: string; cwd?: string; id?: string; timeoutMs?: number; env?: Record<string, string>; stdin?: Uint8Array }): Promise<{ id: string; events: ReadableStream<ExecEvent> }> {
    if (this.#closed) throw runtimeError("ECLOSED", "the shell backend was closed");
    if (typeof input.source !== "string") throw new TypeError("exec: source must be a string of shell text");
    const cwd = resolveCwd(input.cwd);
    // The default cwd is created on first use (a fresh Workspace has no /workspace), as the JavaScript
    // backend does for its root. Awaited before the id check, so the check and the registration stay together.
    if (cwd === SHELL_DEFAULT_CWD) {
      this.#defaultCwd ??= this.#host.fs.mkdir(SHELL_DEFAULT_CWD, { recursive: true }).catch(() => {});
      await this.#defaultCwd;
    }
    const env = input.env ?? {};
    if (env === null || typeof env !== "object" || Array.isArray(env)) throw new TypeError("exec: env must be an object of name → string");
    for (const [k, v] of Object.entries(env)) {
      if (!ENV_NAME.test(k)) throw new TypeError(`exec: env name ${quoteCut(k)} is not a shell variable name (letters, digits and _, not starting with a digit)`);
      if (typeof v !== "string") throw new TypeError(`exec: env${memberCut(k)} must be a string`);
    }
    if (input.stdin !== undefined && !(input.stdin instanceof Uint8Array)) throw new TypeError("exec: stdin must be a string or a Uint8Array");
    const stdin = input.stdin ?? new Uint8Array(0);
    checkShellExec(input.source, env, stdin, { id: input.id, cwd, commands: this.#options.commands, unavailable: this.#options.unavailable });
    if (cwd !== SHELL_DEFAULT_CWD) {
      // As the JavaScript backend does: a cwd that is missing or not a directory fails the exec, not the command.
      const found = await this.#host.fs.stat(cwd).then(
        (st) => (st.isDirectory ? undefined : "ENOTDIR"),
        (err: unknown) => String((err as { code?: unknown })?.code ?? "ENOENT"),
      );
      if (found !== undefined) {
        throw new WorkspaceFsError(found as "ENOENT", "exec", cwd, found === "ENOTDIR" ? "cwd is not a directory" : "cwd does not exist");
      }
    }
    const id = input.id ?? crypto.randomUUID();
    if (this.#live.has(id)) throw runtimeError("EEXEC_BUSY", `execution ${JSON.stringify(id)} is already running`);
    const timeoutMs = input.timeoutMs ?? 0;
    if (!Number.isFinite(timeoutMs) || timeoutMs < 0) throw new TypeError("exec: timeoutMs must be a non-negative number of milliseconds");
    const o = this.#options;
    const run = new LiveCommand(id, o.maxOutputBytes, () => {
      if (this.#live.get(id) === run) this.#live.delete(id);
    });
    this.#live.set(id, run);
    const request: ExecInput = {
      id,
      source: input.source,
      cwd,
      env,
      stdin,
      timeoutMs,
      commands: o.commands,
      unavailable: o.unavailable,
      network: o.commands.includes("curl"),
      egress: o.egress.mode,
      maxOutputBytes: o.maxOutputBytes,
    };
    // The request crosses to the isolate as one RPC value (workerd: at most 32 MiB): unless all of it fits in
    // RPC_BYTES_AT_ONCE, stdin goes as a stream of its bytes (checkShellExec bounded the rest).
    if (stdin.byteLength > 0 && estimateRpcSize(request, RPC_BYTES_AT_ONCE) > RPC_BYTES_AT_ONCE) request.stdin = byteStream(stdin);
    const onTimeout = () => this.#stop(run, 124, `Execution timed out after ${timeoutMs} ms`);
    if (timeoutMs > 0) {
      run.deadline = Date.now() + timeoutMs;
      run.onDeadline = onTimeout;
    }
    const timer = timeoutMs > 0 ? setTimeout(onTimeout, timeoutMs) : undefined;
    void (async () => {
      try {
        const runtime = await this.#runtime;
        const { exitCode, timedOut } = await runtime.exec(request, new ShellHostTarget(run, this.#host, (path, step) => this.#serially(path, step)) as unknown as ShellHost);
        // A command that answers after its deadline (or that just-bash stopped at it) timed out,
        // even when the timer could not fire in time.
        if (!run.stopping && (timedOut === true || Date.now() >= run.deadline)) run.onDeadline?.();
        if (run.stopping) run.settle(run.stopping.code, run.stopping.message);
        else run.settle(Number.isInteger(exitCode) && exitCode >= 0 && exitCode <= 255 ? exitCode : 1);
      } catch (err) {
        if (!run.stopping && Date.now() >= run.deadline) run.onDeadline?.();
        if (run.stopping) run.settle(run.stopping.code, run.stopping.message);
        else run.settle(1, `shell: ${err instanceof Error ? err.message : String(err)}`);
      } finally {
        if (timer !== undefined) clearTimeout(timer);
      }
    })();
    return { id, events: run.events };
  }

  /**
   * Stops `run`: asks the shell to abort it (just-bash then returns the output
   * made so far, which is kept) and settles it with `code` when the shell
   * answers, or after {@link SHELL_STOP_GRACE_MS} whatever the shell does.
   * From now on the command cannot change the Workspace.
   */
  #stop(run: LiveCommand, code: number, message?: string): void {
    if (run.settled || run.stopping) return;
    run.stopping = { code, message, until: Date.now() + SHELL_STOP_GRACE_MS };
    run.abort();
    setTimeout(() => run.settle(code, message), SHELL_STOP_GRACE_MS);
    void (async () => {
      try {
        const runtime = await this.#runtime;
        await runtime.kill?.(run.id);
      } catch {
        /* the shell may already be gone; the command is settled either way */
      }
    })();
  }

  async #kill(id: string, _signal?: KillSignal): Promise<void> {
    // Finished commands are not kept, so an id that is not running is a no-op (as for a finished run).
    const run = this.#live.get(id);
    if (run) this.#stop(run, 130, "Execution cancelled.");
  }

  /** Runs `step` after every earlier step for `path` (appends from concurrent commands), even when one fails. */
  #serially(path: string, step: () => Promise<void>): Promise<void> {
    const before = this.#appends.get(path) ?? Promise.resolve();
    const mine = before.then(step, step);
    const tail = mine.catch(() => {});
    this.#appends.set(path, tail);
    void tail.then(() => {
      if (this.#appends.get(path) === tail) this.#appends.delete(path);
    });
    return mine;
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const run of [...this.#live.values()]) this.#stop(run, 130, "Execution cancelled because its Workspace closed.");
  }
}

/**
 * Refuses a shell command whose `stdin` is over {@link MAX_SHELL_STDIN_BYTES},
 * or whose command text, `env` and other fields estimate (as workerd
 * serializes them) over {@link MAX_SHELL_EXEC_BYTES}: RangeError `code`
 * `E2BIG`, before anything runs.
 */
function checkShellExec(source: string, env: Record<string, string>, stdin: Uint8Array, fields: Record<string, unknown>): void {
  if (stdin.byteLength > MAX_SHELL_STDIN_BYTES) {
    const message = `exec: stdin is ${stdin.byteLength} bytes, over the ${MAX_SHELL_STDIN_BYTES} bytes (64 MiB) the shell reads; nothing ran. Write the input to a Workspace file and redirect it (cmd < file) instead.`;
    throw Object.assign(new RangeError(message), { code: "E2BIG" });
  }
  const command = estimateRpcSize(source);
  const vars = estimateRpcSize(env);
  // The other fields: the id, cwd and command names, plus a margin for the numbers and flags.
  const other = estimateRpcSize(fields) + 1024;
  const total = command + vars + other;
  if (total <= MAX_SHELL_EXEC_BYTES) return;
  const parts = [`command ${command}`, `env ${vars}`, `other fields ${other}`];
  const message = `exec: the request is ${total} bytes as sent to the shell (${parts.join(", ")}), over the ${MAX_SHELL_EXEC_BYTES} bytes (30 MiB) one call to the shell's isolate takes (workerd's limit is 32 MiB); nothing ran. Put long text in a Workspace file and have the command read it (sh /workspace/script.sh, cmd < /workspace/input) instead.`;
  throw Object.assign(new RangeError(message), { code: "E2BIG" });
}

/** The command's working directory: absolute, normalised; default `/workspace`; relative ones from `/workspace`. */
function resolveCwd(cwd: string | undefined): string {
  if (cwd === undefined || cwd === "") return SHELL_DEFAULT_CWD;
  if (typeof cwd !== "string") throw new TypeError("exec: cwd must be a string path");
  if (cwd.includes("\0")) throw new TypeError("exec: cwd must not contain NUL bytes");
  return normalizePath(cwd, SHELL_DEFAULT_CWD);
}
