/**
 * Public types of the shell backend (spec 02 §6): its options, the Worker
 * Loader it needs, the runtime protocol between the host and the shell's
 * Dynamic Worker, command groups, and the hosts of the `assets`, `git` and
 * `artifacts` built-ins.
 *
 * @module
 */
import type { WorkerJavaScriptEgress } from "../worker-javascript/options.js";
import type { WorkspaceFs, WorkspaceFsAdapterListing } from "./fs-adapter.js";

export type { WorkspaceFs };

/**
 * Where a backend's Dynamic Worker may reach the network (spec 02 §6, §3.8):
 * applied to the Worker's `globalOutbound`, so for the shell it binds `curl`
 * and every `fetch`.
 *
 * - `none` (default): no network; `curl` fails with a message saying so.
 * - `direct`: the isolate's own `fetch`, unrestricted.
 * - `http-gateway`: every request goes to `gateway` (a service binding or
 *   other `Fetcher`), which decides. `revision` names the gateway's policy:
 *   change it to load a fresh Worker when the policy changes.
 *
 * The same type as the JavaScript backend's `WorkerJavaScriptEgress`.
 */
export type WorkspaceEgressPolicy = WorkerJavaScriptEgress;

/** A group of shell commands: what `<pkg>/shell/<group>` exports by default. */
export interface ShellModuleGroup {
  /** Group name: `core`, `jq`, `curl`, … */
  readonly name: string;
  /** Command names the group makes available in the shell. */
  readonly commands: readonly string[];
  /** Modules the group adds to the Dynamic Worker (module name → JavaScript source). */
  readonly modules: Readonly<Record<string, string>>;
  /** Total UTF-8 size of `modules`, bytes (what the group adds to the Worker). */
  readonly bytes?: number;
  /**
   * Set when the group's commands cannot run in a Dynamic Worker (python,
   * sqlite, js-exec: just-bash runs them in a Node worker thread): they print
   * this text and exit 127 instead.
   */
  readonly unavailable?: string;
}

/**
 * The Worker Loader binding (`[[worker_loaders]]` in wrangler config), as the
 * shell backend uses it: `get(key, getCode)` returns the Worker cached under
 * `key`, calling `getCode` only when it must load it.
 */
export interface WorkerShellLoader {
  /** The Worker cached under `id`, loading it from `getCode()` when there is none. */
  get(
    id: string,
    getCode: () => {
      compatibilityDate: string;
      compatibilityFlags?: string[];
      mainModule: string;
      modules: Record<string, string | { js: string }>;
      globalOutbound?: Fetcher | null;
    },
  ): { getEntrypoint(name?: string, options?: unknown): unknown };
}

/** One command for the shell to run (host → shell runtime). */
export interface ExecInput {
  /** Execution id (the caller's, or a UUID). */
  id: string;
  /** Shell text. */
  source: string;
  /** Working directory (absolute). Default `/workspace`. */
  cwd: string;
  /** Environment variables for this command. */
  env: Record<string, string>;
  /** Bytes on the command's stdin (empty when none); a stream of them when the request would pass 16 MiB (`RPC_BYTES_AT_ONCE`: one RPC value may not pass 32 MiB). */
  stdin: Uint8Array | ReadableStream<Uint8Array>;
  /** Deadline in ms from the start (0 = none); past it the shell stops cooperatively. */
  timeoutMs: number;
  /** Command names enabled in the shell (from the configured groups). */
  commands: string[];
  /** Commands of groups that cannot run here: name → the text they print (exit 127). */
  unavailable: Record<string, string>;
  /** Whether `curl` is configured (the `curl` group is listed). */
  network: boolean;
  /** The egress mode, so `curl` can say why it fails under `none`. */
  egress: WorkspaceEgressPolicy["mode"];
  /** Per-stream output bound, bytes: past it the command stops with an error. */
  maxOutputBytes: number;
}

/** What the shell runtime calls back on the host during one command (an RPC target). */
export interface ShellHost extends WorkspaceFs {
  /** Appends bytes (more than 16 MiB: a stream of them) to a file (creating it), serialised per path across commands. */
  appendBytes(path: string, bytes: Uint8Array | ReadableStream<Uint8Array>): Promise<void>;
  /**
   * Reads a whole file in one call (`maxBytes` bound: rejects `EFBIG` past
   * it): its bytes, or past 16 MiB a stream of them (one RPC answer may not
   * pass 32 MiB), ending after the chunk that passes `maxBytes`.
   */
  readBytes(path: string, maxBytes: number): Promise<Uint8Array | ReadableStream<Uint8Array>>;
  /**
   * Lists a directory with the contents of its small regular files (each at
   * most 64 KiB, at most 1 MiB in all, in listing order; none with
   * `{ contents: false }`) in one call. The entries come without
   * `parentPath`; past 16 MiB (estimated) as a stream of JSON lines
   * (`entryLines`).
   */
  listWithContents(
    path: string,
    options?: {
      /** Whether small files' contents come with the listing. Default `true`. */
      contents?: boolean;
    },
  ): Promise<WorkspaceFsAdapterListing>;
  /** Sends command output (≤ 64 KiB per call) as it is produced. */
  output(stream: "stdout" | "stderr", bytes: Uint8Array): Promise<void>;
  /** `assets publish`: publishes `path` for `expiresAfterMs`, resolves with the URL. Rejects `ENOCONFIG` without assets. */
  publish(path: string, expiresAfterMs: number): Promise<string>;
  /**
   * `git …`: runs `workspace.git.cli({ argv: args, cwd, env, stdin })` in the
   * host (spec 04 §2.6). Rejects with the not-configured error (`code`
   * `ENOCONFIG`) without `WorkspaceOptions.git`.
   */
  git(args: string[], cwd: string, options?: GitCommandOptions): Promise<{ stdout: string; stderr: string; exitCode: number }>;
  /**
   * `artifacts …`: runs `workspace.artifacts.cli({ argv: args, env, remoteAdd })`
   * in the host, `remoteAdd` registering git remotes at `cwd` (spec 04 §3.5).
   * Without `WorkspaceOptions.artifacts` the CLI runs in unconfigured mode.
   */
  artifacts(
    args: string[],
    cwd: string,
    options?: {
      /** The command's environment, flattened (passed to the CLI as `input.env`). Default: none. */
      env?: Record<string, string>;
    },
  ): Promise<{ stdout: string; stderr: string; exitCode: number }>;
}

/**
 * What runs shell commands for the backend: the `ShellWorker` entrypoint in a
 * Dynamic Worker, or your own (`source: { type: "external-runtime" }`).
 */
export interface WorkerShellRuntime {
  /** Runs one command; output goes to `host.output`; resolves with its exit code (`timedOut`: it passed `timeoutMs`). */
  exec(input: ExecInput, host: ShellHost): Promise<{ exitCode: number; timedOut?: boolean }>;
  /** Asks the command with this id to stop (cooperative; the host has already settled it). */
  kill?(id: string): Promise<void> | void;
}

/** Where the shell runs (spec 02 §6 `source`). */
export type WorkerShellSource =
  | {
      /** A Dynamic Worker through the Worker Loader (the default form, same as the top-level options). */
      type: "loader";
      /** The Worker Loader binding. */
      loader: WorkerShellLoader;
      /** As `WorkerShellBackendOptions.workspace`. Default: none. */
      workspace?: { binding: unknown; id: unknown; name?: string };
      /** As `WorkerShellBackendOptions.ctx`. Default: none. */
      ctx?: unknown;
    }
  | {
      /** A shell runtime you run and connect yourself. */
      type: "external-runtime";
      /** Called once per connect with the egress policy; you own the runtime's lifecycle and egress. */
      connect(options: { egress: WorkspaceEgressPolicy }): WorkerShellRuntime | Promise<WorkerShellRuntime>;
    };

/** Options of `WorkerShellBackend` (spec 02 §6). */
export interface WorkerShellBackendOptions {
  /** Backend id. Default `"worker-shell"`. */
  id?: string;
  /** The Worker Loader binding. Required unless `source` is given. Default: none. */
  loader?: WorkerShellLoader;
  /**
   * The Durable Object namespace and id of the Workspace (`{ binding, id, name? }`).
   * Accepted for 0.8.0 compatibility and used only to name the loader key:
   * this backend hands the shell the Workspace directly over RPC (see docs/porting.md).
   * Default: none.
   */
  workspace?: { binding: unknown; id: unknown; name?: string };
  /** The Durable Object's `ctx`. Accepted for 0.8.0 compatibility; not needed (see `workspace`). Default: none. */
  ctx?: unknown;
  /** Where the shell runs instead of `loader` (spec 02 §6). Mixing with `loader`/`workspace`/`ctx` throws. Default: none (`loader`). */
  source?: WorkerShellSource;
  /** Loader cache key base. Default `workspace-shell:<workspace id>` (or `workspace-shell:<backend id>` without `workspace`). */
  loaderId?: string;
  /** Default `"2026-06-17"`. */
  compatibilityDate?: string;
  /** Appended to `["nodejs_compat"]`. Default: none. */
  compatibilityFlags?: string[];
  /** Network access. Default `{ mode: "none" }`. */
  egress?: WorkspaceEgressPolicy;
  /** Command groups from `<pkg>/shell/<group>`; `core` is always present; a later group wins a name clash. Default: `[]` (core only). */
  commands?: readonly ShellModuleGroup[];
  /** Per-stream output bound, bytes. Default 16 MiB (16777216). The runtime's long-output file keeps all of it. */
  maxOutputBytes?: number;
}

/** Host of the `assets` built-in. `null` = publishing not configured. */
export type AssetsCommandHost = {
  /** Publishes the Workspace file at `path` (absolute) for `expiresAfterMs` ms; resolves with its URL. Rejects `ENOCONFIG` without assets. */
  publish(path: string, expiresAfterMs: number): Promise<string>;
} | null;
/** What the `git` built-in forwards besides its arguments and cwd (spec 04 §2.6). */
export interface GitCommandOptions {
  /**
   * The `GIT_*` variables of the command's environment — exported ones and
   * prefix assignments, as bash passes a child; never plain or `local`
   * variables (git reads `GIT_AUTHOR_*`/`GIT_COMMITTER_*`). Default: none.
   */
  env?: Record<string, string>;
  /**
   * The command's standard input: the shell's bytes decoded as UTF-8 when
   * they are valid UTF-8, else the bytes themselves. Absent when empty.
   * Default: none (no input).
   */
  stdin?: string | Uint8Array;
}

/** Host of the `git` built-in. */
export interface GitCommandHost {
  /** Runs git with `args` in `cwd` (and the shell's env and stdin); resolves with its output and exit code. A rejection prints `git: <message>`, exit 1. */
  git(args: string[], cwd: string, options?: GitCommandOptions): Promise<{ stdout: string; stderr: string; exitCode: number }>;
}
/** Host of the `artifacts` built-in. */
export interface ArtifactsCommandHost {
  /**
   * Runs the artifacts CLI with `args` in `cwd` (and `options.env`, which
   * the built-in leaves out: the CLI reads no variable); resolves with its
   * output and exit code. A rejection `ENOCONFIG` prints `artifacts: not
   * configured for this workspace`.
   */
  artifacts(
    args: string[],
    cwd: string,
    options?: {
      /** The command's environment, flattened (passed to the CLI as `input.env`). Default: none. */
      env?: Record<string, string>;
    },
  ): Promise<{ stdout: string; stderr: string; exitCode: number }>;
}

/** Options of a `ShellWorker` you run yourself: return them from `options()` in a subclass. */
export interface ShellWorkerOptions {
  /**
   * Extra just-bash commands (`defineCommand` from just-bash, or
   * `{ name, execute(args, ctx) }` objects) added after the built-ins; a
   * later one wins a name. Default: none.
   */
  customCommands?: readonly unknown[];
}
