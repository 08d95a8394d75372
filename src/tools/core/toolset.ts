/**
 * The tool set builder shared by the three adapters (spec 03 §2).
 *
 * `buildCoreTools(options)` returns the core tool definitions in the fixed
 * order read, ls, find, grep, write, edit, delete, exec, publish; each
 * adapter maps that list to its library's shape.
 *
 * SEAM FOR exec AND publish. They are optional tools that come after
 * delete. Each is a {@link LateToolFactory} in `LATE_TOOLS` below, in order:
 * `execFromToolSet` (`./exec.ts`: absent when readonly, when
 * `workspace.runtime` is missing, or when the backend selection is empty,
 * e.g. `exec: {}`), then `publishFromToolSet` (`./publish.ts`: absent when
 * readonly, when `assets: false`, or when `workspace.assets` is missing).
 * The adapters lower whatever this returns, settle async-iterable results
 * (exec snapshots) and use `CoreTool.isProgress` / `prepareArguments`.
 *
 * @module
 */
import { deleteDefinition } from "./delete.js";
import { editDefinition, type EditToolOptions } from "./edit.js";
import { execFromToolSet } from "./exec.js";
import { findDefinition } from "./find.js";
import { grepDefinition } from "./grep.js";
import { listDefinition } from "./ls.js";
import { publishFromToolSet, type PublishAssetsLike } from "./publish.js";
import { readDefinition, type ReadToolOptions } from "./read.js";
import { WorkspaceFileStore, type WorkspaceLike } from "./store.js";
import type { CoreTool } from "./types.js";
import { writeDefinition, type WriteToolOptions } from "./write.js";

/** Backends the exec tool may use: id → optional extra description (spec 03 §2.1). */
export type ExecBackends = Readonly<Record<string, ExecBackendOptions>>;

/** Per-backend exec options. */
export interface ExecBackendOptions {
  /** Text placed before the backend's own description in the exec tool description. */
  readonly description?: string;
}

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
  /** Only read, ls, find and grep. Default `false`. */
  readonly?: boolean;
  /** `false` leaves out publish. Default `true`. */
  assets?: boolean;
  /** Options for read (everything but `store`). */
  read?: Omit<ReadToolOptions, "store">;
  /** Options for write (everything but `store`). */
  write?: Omit<WriteToolOptions, "store">;
  /** Options for edit (everything but `store`). */
  edit?: Omit<EditToolOptions, "store">;
  /** Backends exec may use; omitted means every backend, `{}` means no exec tool. */
  exec?: ExecBackends;
  /** exec output limits (lines per stream, bytes per stream). */
  execOutput?: { maxBytes?: number; maxLines?: number };
  /** @deprecated Use `exec`. Read only when `exec` is undefined. */
  shell?: { backends: ExecBackends; defaultBackend?: string; maxBytes?: number; maxLines?: number; streamMaxBytes?: number };
}

/** What a late tool factory gets: the options and the one shared store. */
export interface ToolSetContext {
  readonly options: CreateToolsOptions;
  readonly store: WorkspaceFileStore;
}

/** Builds an optional tool (exec, publish) or returns `undefined` when it is absent. */
export type LateToolFactory = (context: ToolSetContext) => CoreTool | undefined;

/** Optional tools after delete, in order: exec, then publish (see the module comment). */
const LATE_TOOLS: LateToolFactory[] = [execFromToolSet, publishFromToolSet];

/**
 * The ordered core tools for one tool set. Builds one
 * {@link WorkspaceFileStore}, shared by read, write, edit and delete; ls,
 * find and grep call `workspace.fs` directly.
 *
 * @throws TypeError when `workspace` has no `fs`, or for invalid limits.
 */
export function buildCoreTools(options: CreateToolsOptions, extra: readonly LateToolFactory[] = []): CoreTool[] {
  if (!options || typeof options !== "object" || !options.workspace || typeof options.workspace !== "object" || !options.workspace.fs) {
    throw new TypeError("create*Tools({ workspace }) needs a Workspace, a getWorkspace() client, or an object with the same `fs`");
  }
  const workspace = options.workspace;
  const store = new WorkspaceFileStore(workspace);
  const tools: CoreTool[] = [
    readDefinition({ ...options.read, store }),
    listDefinition({ workspace }),
    findDefinition({ workspace }),
    grepDefinition({ workspace }),
  ];
  if (options.readonly === true) return tools;
  tools.push(writeDefinition({ ...options.write, store }), editDefinition({ ...options.edit, store }), deleteDefinition({ store }));
  for (const factory of [...LATE_TOOLS, ...extra]) {
    const tool = factory({ options, store });
    if (tool) tools.push(tool);
  }
  return tools;
}
