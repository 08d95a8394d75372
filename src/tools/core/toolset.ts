/**
 * The tool set builder shared by the three adapters (spec 03 §2). Every
 * inclusion rule lives here and only here: which tools a set has, in which
 * order, and when an optional one is left out. A tool file knows only how
 * to build its tool.
 *
 * @module
 */
import { DELETE_FACTS, deleteDefinition } from "./delete.js";
import { EDIT_FACTS, editDefinition, type EditToolOptions } from "./edit.js";
import { EXEC_FACTS, execDefinition, type ExecBackends, type ExecToolOptions, type ExecWorkspaceLike } from "./exec.js";
import { FIND_FACTS, findDefinition } from "./find.js";
import { GREP_FACTS, grepDefinition } from "./grep.js";
import { LS_FACTS, listDefinition } from "./ls.js";
import { PUBLISH_FACTS, publishDefinition, type PublishAssetsLike } from "./publish.js";
import { READ_FACTS, readDefinition, type ReadToolOptions } from "./read.js";
import { normalizePath } from "../../util/path.js";
import { confineAssets, confineFs, normalizeRoot } from "./root.js";
import { WorkspaceFileStore, type WorkspaceLike } from "./store.js";
import type { CoreTool, ToolFacts } from "./types.js";
import { WRITE_FACTS, writeDefinition, type WriteToolOptions } from "./write.js";
import { directoryTools, type DirectoryToolsOptions } from "./directory.js";

export type { ExecBackendOptions, ExecBackends } from "./exec.js";
export type { DirectoryToolsOptions } from "./directory.js";

/**
 * Options shared by `createAITools`, `createPiTools` and
 * `createTanStackTools` (spec 03 §2.1, seed "Options").
 */
export interface CreateToolsOptions {
  /**
   * A `Workspace`, a `getWorkspace()` client, or any object with the same `fs`
   * (and `runtime` for exec; `assets` with `share(path, options)` and
   * `sessionId` for publish).
   */
  workspace: WorkspaceLike & { readonly runtime?: unknown; readonly assets?: PublishAssetsLike | null; readonly sessionId?: string };
  /** Only read, ls, find and grep (the tools that are not `mutating`). Default `false`. */
  readonly?: boolean;
  /**
   * Confines the file tools and publish to one directory (spec 03 §2.4).
   * An absolute path, e.g. `"/workspace/project"`; a relative one throws a
   * TypeError at build time. With it, read, ls, find, grep, write, edit,
   * delete and publish resolve a relative `path` against `root` (`.` and
   * `..` collapsed) and echo it as given; a path that ends up outside
   * `root` is refused with `Path is outside <root>: <input>`, and a path
   * with a symbolic link on it (root and its ancestors included) with
   * `Path contains a symbolic link: <link>` — both `EACCES`, returned as
   * `{ error }` by every tool but read, which throws them. find and grep
   * results stay absolute, and their default path (`/workspace`) is
   * refused unless it lies under `root`. Needs `workspace.fs.lstat`.
   * A path in directory form (`r.txt/`, `r.txt/.`) naming a file is
   * `ENOTDIR` (the path as given) for every tool, publish included.
   * One exception, read-only: read and grep may open the full-output logs
   * this tool set's own exec named in its notes (`Full output: <path>`),
   * with no link on their path — no other log (another run's or agent's),
   * and none for a set without exec.
   * exec is not confined: its backends have their own `root`. Every tool
   * set over the same `fs` — any root or none — locks a file under its
   * absolute path, so `f.txt` here and `/workspace/project/f.txt`
   * elsewhere wait for each other.
   * Default: none — paths are used as given, anywhere in the workspace.
   */
  root?: string;
  /** `false` leaves out publish. Default `true`. */
  assets?: boolean;
  /** Options for read (everything but `store`; spec 03 §4.1). Default `{}`: read's own defaults. */
  read?: Omit<ReadToolOptions, "store">;
  /**
   * Options for write (everything but `store`; spec 03 §4.5). Default `{}`:
   * write's own defaults. `requireFreshRead: true` turns on the stale-write
   * guard: the set remembers what its read tool read (and its write and edit
   * wrote), at most `freshReadMaxPaths` (default 1024) paths, and write
   * refuses to overwrite an existing file that was not read, or changed
   * since. The memory belongs to this call's store, so to this tool set.
   */
  write?: Omit<WriteToolOptions, "store">;
  /** Options for edit (everything but `store`; spec 03 §4.6). Default `{}`: edit's own defaults. */
  edit?: Omit<EditToolOptions, "store">;
  /**
   * Backends exec may use (id → extra description), checked against
   * `runtime.backends()` at build time. Default: every backend
   * `runtime.backends()` lists (no exec when it lists none or cannot list);
   * `{}` means no exec tool. Wins over `shell`.
   */
  exec?: ExecBackends;
  /** exec output limits, each a positive integer (else TypeError at build time). Default: exec's own (65536 bytes, 2000 lines per stream). */
  execOutput?: {
    /** Bytes (UTF-8) of each stream the model sees. Default 65536 (or `shell.maxBytes`). */
    maxBytes?: number;
    /** Lines of each stream the model sees. Default 2000 (or `shell.maxLines`). */
    maxLines?: number;
  };
  /**
   * @deprecated Use `exec` and `execOutput`. Read only when `exec` is
   * undefined: `backends` becomes the selection, `defaultBackend` and
   * `streamMaxBytes` are ignored, the limits pass to exec under `execOutput`'s. Default: none.
   */
  shell?: { backends: ExecBackends; defaultBackend?: string; maxBytes?: number; maxLines?: number; streamMaxBytes?: number };
  /**
   * TOOL.md directory tools (spec 03 §9, seed 001) offered after the
   * built-in tools, in the order given: `{ ...(await
   * loadToolDirectories({ workspace, dirs })), env }`. Each runs in the
   * Workspace's backends (TypeScript/JavaScript in the JavaScript backend,
   * bash in the shell, python in a container) — like exec, not confined by
   * `root`. A directory tool is mutating unless its front matter says
   * `readonly: true`: `readonly` leaves it out, TanStack's `approve:
   * "mutating"` asks for it. Results: pi gets the tool's `{ content,
   * isError }`; the AI SDK and TanStack get the joined text, or `{ error }`.
   * `onUpdate` progress becomes AI SDK preliminary results and, with
   * `streamEventName`, TanStack custom events. Default: none.
   *
   * Checked at build time (TypeError): the workspace must have a runtime;
   * names must not repeat or be a built-in tool's; `env` values are
   * strings; `timeoutMs` is positive.
   */
  toolDirectories?: DirectoryToolsOptions;
}

/** One tool of the set: its facts, and how this set builds it (`undefined` leaves it out). */
type ToolLine = readonly [ToolFacts, () => CoreTool | undefined];

/**
 * The ordered core tools for one tool set: read, ls, find, grep, write,
 * edit, delete, then exec and publish when present. A read-only set
 * (`readonly: true`) leaves out every mutating tool without building it.
 * One {@link WorkspaceFileStore} is shared by read, write, edit and delete;
 * ls, find and grep call `workspace.fs` directly.
 *
 * @throws TypeError when `workspace` has no `fs`, or for invalid limits.
 */
export function buildCoreTools(options: CreateToolsOptions): CoreTool[] {
  if (!options || typeof options !== "object" || !options.workspace || typeof options.workspace !== "object" || !options.workspace.fs) {
    throw new TypeError("create*Tools({ workspace }) needs a Workspace, a getWorkspace() client, or an object with the same `fs`");
  }
  // The full-output logs this set's exec names: the only files outside `root` its read and grep may open.
  const notedLogs = new Set<string>();
  const workspace = options.root === undefined ? options.workspace : confineWorkspace(options.workspace, options.root, notedLogs);
  const store = new WorkspaceFileStore(workspace);
  const lines: ToolLine[] = [
    [READ_FACTS, () => readDefinition({ ...options.read, store })],
    [LS_FACTS, () => listDefinition({ workspace })],
    [FIND_FACTS, () => findDefinition({ workspace })],
    [GREP_FACTS, () => grepDefinition({ workspace })],
    [WRITE_FACTS, () => writeDefinition({ ...options.write, store })],
    [EDIT_FACTS, () => editDefinition({ ...options.edit, store })],
    [DELETE_FACTS, () => deleteDefinition({ store })],
    [EXEC_FACTS, () => execFor(options, (path) => notedLogs.add(normalizePath(path)))],
    [PUBLISH_FACTS, () => publishFor(options, workspace)],
  ];
  const tools: CoreTool[] = [];
  for (const [facts, build] of lines) {
    if (options.readonly === true && facts.mutating) continue;
    const tool = build();
    if (tool) tools.push(tool);
  }
  if (options.toolDirectories !== undefined) {
    const builtins = lines.map(([facts]) => facts.name);
    for (const tool of directoryTools(options.toolDirectories, options.workspace, builtins)) {
      if (options.readonly === true && tool.mutating) continue;
      tools.push(tool);
    }
  }
  return tools;
}

/**
 * exec, when the workspace has `runtime.exec` and the backend selection is
 * not empty: `exec` (or the deprecated `shell.backends`) when given, else
 * every backend `runtime.backends()` lists (none listed, or no way to list
 * them: no exec). Limits come from `execOutput`, over `shell`'s.
 */
function execFor(options: CreateToolsOptions, onSavedLog: (path: string) => void): CoreTool | undefined {
  const runtime = (options.workspace as { runtime?: ExecWorkspaceLike["runtime"] }).runtime;
  if (!runtime || typeof runtime.exec !== "function") return undefined;
  const backends = options.exec !== undefined ? options.exec : options.shell !== undefined ? options.shell.backends : undefined;
  if (backends === undefined) {
    if (typeof runtime.backends !== "function" || runtime.backends().length === 0) return undefined;
  } else if (Object.keys(backends).length === 0) {
    return undefined;
  }
  const limits = { ...(options.shell ? { maxBytes: options.shell.maxBytes, maxLines: options.shell.maxLines } : {}), ...definedOnly(options.execOutput ?? {}) };
  const toolOptions: ExecToolOptions = { workspace: { runtime } };
  if (backends !== undefined) toolOptions.backends = backends;
  if (limits.maxBytes !== undefined) toolOptions.maxBytes = limits.maxBytes;
  if (limits.maxLines !== undefined) toolOptions.maxLines = limits.maxLines;
  return execDefinition(toolOptions, onSavedLog);
}

/** publish, unless `assets: false` or the workspace has no `assets`; over `workspace` (the confined view under `root`). */
function publishFor(options: CreateToolsOptions, workspace: CreateToolsOptions["workspace"]): CoreTool | undefined {
  if (options.assets === false) return undefined;
  const assets = workspace.assets;
  if (assets === undefined || assets === null) return undefined;
  return publishDefinition({ workspace });
}

/** The workspace the file tools and publish see under `root` (spec 03 §2.4): confined `fs` and `assets.share`, the same `sessionId`. */
function confineWorkspace(workspace: CreateToolsOptions["workspace"], rootOption: string, notedLogs: ReadonlySet<string>): CreateToolsOptions["workspace"] {
  const root = normalizeRoot(rootOption);
  const fs = confineFs(workspace.fs, root, notedLogs);
  const assets = confineAssets(workspace.assets, workspace.fs as typeof fs, root);
  return {
    fs,
    assets,
    get sessionId() {
      return workspace.sessionId;
    },
  };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
