/**
 * The `root` option of the tool sets (spec 03 §2.4): a confined view of a
 * workspace that stands in for it, so every file tool — and `ws:tools`
 * calls, which run those same tools — stays under one directory.
 *
 * Every path the tools pass to the view goes through one function,
 * {@link resolveToolPath}: a relative path is resolved against the root
 * (`.` and `..` collapsed lexically), a path that ends up outside it is
 * refused (`Path is outside <root>: <input>`), and every existing
 * component from `/` down to the path itself is checked with `lstat`, so a
 * symbolic link anywhere on the way — one that points outside, one that
 * points inside, or a chain of them — is refused
 * (`Path contains a symbolic link: <link>`). Both refusals carry
 * `code: "EACCES"`; a path they name past 4,096 characters is cut as the
 * tools echo one (`echoedText`). The first missing component ends the check (a write
 * creates what is missing as directories, never as links).
 *
 * One exception, read-only: exec's notes name full-output logs in the
 * Workspace's `output.dir` (`/.computer/output` by default), usually outside
 * the root. `stat`, `lstat`, `readFile` and `grep` of a tool set may open a
 * log that the same tool set's exec named in a note — that exact path, no
 * link on it — so read and grep reach every line the note points to;
 * other logs (another run's, another agent's), and every log for a tool
 * set without exec, stay outside; listing, writing, editing and deleting
 * there stay refused.
 *
 * Walks cannot leave the root either: `find` and `grep` never descend into
 * linked directories nor read linked files, and `readdir` follows no link
 * (spec 01 §2.3); their start paths are checked like any other path.
 *
 * Caveat (time of check to time of use): the check and the operation are
 * separate calls. A directory on a checked path that is replaced by a link
 * in between — by an exec run, another client or host code, not by these
 * tools, which create no links — is followed by that operation. The
 * mutating tools hold their path lock across both (spec 03 §5.3), which
 * orders them against each other but not against other writers.
 *
 * @module
 */
import { WorkspaceFsError } from "../../fs/errors.js";
import { directoryForm, isUnder, normalizePath } from "../../util/path.js";
import { echoedText } from "./paging.js";
import type { WorkspaceFileStore, WorkspaceFsLike } from "./store.js";

/** What the confined view needs from `workspace.fs`: the tools' methods plus `lstat` (and `readlink` when present). */
export type RootFsLike = WorkspaceFsLike & {
  lstat(path: string): Promise<{ readonly isSymbolicLink: boolean }>;
  readlink?(path: string): Promise<string>;
};

/** A refusal of the confined view: `code` `EACCES`, `path` the absolute path concerned. */
function refusal(message: string, path: string): Error & { code: string; path: string } {
  return Object.assign(new Error(message), { code: "EACCES", path });
}

/**
 * Validates the `root` option: an absolute path, normalised lexically
 * (`/workspace/proj/` → `/workspace/proj`).
 *
 * @throws TypeError when `root` is not a string starting with `/`, or holds a NUL byte.
 */
export function normalizeRoot(root: unknown): string {
  if (typeof root !== "string" || !root.startsWith("/") || root.includes("\0")) {
    throw new TypeError(`root must be an absolute path such as "/workspace/project", got ${typeof root === "string" ? JSON.stringify(root) : typeof root}`);
  }
  return normalizePath(root);
}

/**
 * Resolves a tool's path under `root` (already normalised): the single
 * place where the tools' paths are confined.
 *
 * @returns the absolute path the operation should use.
 * @throws `EACCES` `Path is outside <root>: <input>` when the path ends up
 *   outside `root`; `EACCES` `Path contains a symbolic link: <link>` when
 *   an existing component (root and its ancestors included) is a link; a
 *   TypeError for a non-string path; any `lstat` failure other than a
 *   missing component (`ENOENT`, `ENOTDIR`).
 */
export async function resolveToolPath(fs: Pick<RootFsLike, "lstat">, root: string, input: string): Promise<string> {
  if (typeof input !== "string") throw new TypeError(`path must be a string, got ${typeof input}`);
  const abs = normalizePath(input, root);
  if (!isUnder(abs, root)) throw refusal(`Path is outside ${root}: ${echoedText(input)}`, abs);
  let prefix = "";
  for (const segment of abs.split("/").filter(Boolean)) {
    prefix += "/" + segment;
    let linked: boolean;
    try {
      linked = (await fs.lstat(prefix)).isSymbolicLink;
    } catch (err) {
      const code = (err as { code?: unknown } | null)?.code;
      if (code === "ENOENT" || code === "ENOTDIR") break;
      throw err;
    }
    if (linked) throw refusal(`Path contains a symbolic link: ${echoedText(prefix)}`, prefix);
  }
  return abs;
}

/**
 * The full-output logs a tool set's exec named in its notes
 * (`Full output: <path>`), absolute and normalised: the only files outside
 * `root` that the set's reading methods may open. Empty for a tool set
 * without exec, and filled as its runs save logs.
 */
export type NotedLogs = ReadonlySet<string>;

/**
 * {@link resolveToolPath} for a method that only reads (`stat`, `lstat`,
 * `readFile`, `grep`), which may also open a full-output log outside
 * `root` that this tool set's own exec named in a note (`noted`) — so the
 * model can read what the note invites it to, and nothing else: another
 * run's log, or any log for a tool set without exec, is refused as
 * outside. No symbolic link may be on the log's path; listing, writing
 * and deleting it stay refused.
 */
async function resolveReadPath(fs: Pick<RootFsLike, "lstat">, root: string, noted: NotedLogs | undefined, input: string): Promise<string> {
  if (noted === undefined || noted.size === 0 || typeof input !== "string") return resolveToolPath(fs, root, input);
  const abs = normalizePath(input, root);
  if (isUnder(abs, root) || !noted.has(abs)) return resolveToolPath(fs, root, input);
  return resolveToolPath(fs, abs.slice(0, abs.lastIndexOf("/")) || "/", abs);
}

type Rest = readonly unknown[];
type Call = (...args: unknown[]) => Promise<unknown>;

/**
 * The confined `fs`: `stat`, `lstat`, `readFile`, `writeFile`, `mkdir`,
 * `rm`, `find`, `readdir`, `readlink` (when the workspace has it) and
 * `grep` (its second argument), each on the path {@link resolveToolPath}
 * gives. Nothing else: a tool that needs another method fails instead of
 * reaching past the root. `stat`, `lstat`, `readFile` and `grep` may also
 * open the output logs in `noted` ({@link resolveReadPath}).
 */
function confinedFs(fs: RootFsLike, root: string, noted: NotedLogs | undefined): RootFsLike {
  const on = (name: string, pathIndex: number, reads = false) => async (...args: unknown[]) => {
    const call = (fs as unknown as Record<string, Call>)[name]!;
    const resolved = [...args];
    const input = args[pathIndex] as string;
    resolved[pathIndex] = reads ? await resolveReadPath(fs, root, noted, input) : await resolveToolPath(fs, root, input);
    return call.apply(fs, resolved);
  };
  const view: Record<string, (...args: Rest) => Promise<unknown>> = {};
  for (const name of ["writeFile", "mkdir", "rm", "find", "readdir"]) view[name] = on(name, 0);
  for (const name of ["stat", "lstat", "readFile"]) view[name] = on(name, 0, true);
  if (typeof fs.readlink === "function") view.readlink = on("readlink", 0);
  view.grep = on("grep", 1, true);
  return view as unknown as RootFsLike;
}

/** One confined `fs` per (fs, root) pair, so tool sets built with the same root share locks (spec 03 §2.4, §5.3). */
const views = new WeakMap<object, Map<string, RootFsLike>>();
/** Each confined `fs` → the filesystem behind it and its root. */
const targets = new WeakMap<object, { readonly fs: WorkspaceFsLike; readonly root: string }>();

/**
 * The filesystem behind a confined `fs` and its root; `undefined` for any
 * other object. A {@link WorkspaceFileStore} over a confined view locks on
 * the filesystem behind it, under absolute paths, so every tool set over
 * one filesystem — any root, or none — locks one file under one key.
 */
export function confinedTarget(fs: object): { readonly fs: WorkspaceFsLike; readonly root: string } | undefined {
  return targets.get(fs);
}

/**
 * The confined `fs` for `fs` under `root` (normalised): the same object for
 * the same pair (spec 03 §2.4). Stores over it lock on the filesystem
 * behind it, under absolute paths ({@link confinedTarget}). With `noted`
 * (one tool set's {@link NotedLogs}), a view of its own for that tool set,
 * whose reading methods may also open those logs, read-only.
 *
 * @throws TypeError when `fs` has no `lstat` (links could not be checked).
 */
export function confineFs(fs: WorkspaceFsLike, root: string, noted?: NotedLogs): RootFsLike {
  if (typeof (fs as Partial<RootFsLike>).lstat !== "function") {
    throw new TypeError("the root option needs workspace.fs.lstat, to refuse symbolic links; pass a Workspace or a getWorkspace() client");
  }
  if (noted !== undefined) {
    const own = confinedFs(fs as RootFsLike, root, noted);
    targets.set(own, { fs, root });
    return own;
  }
  let byRoot = views.get(fs);
  if (!byRoot) {
    byRoot = new Map();
    views.set(fs, byRoot);
  }
  let view = byRoot.get(root);
  if (!view) {
    view = confinedFs(fs as RootFsLike, root, undefined);
    byRoot.set(root, view);
    targets.set(view, { fs, root });
  }
  return view;
}

/**
 * The assets publisher publish sees under `root`: `share(path, options)`
 * on the resolved path, through the workspace's `share` (or `publish`,
 * when it has no `share`). `undefined`/`null` pass through, and so does a
 * publisher with neither method (publish reports it at build time).
 *
 * A path in directory form (`r.txt/`, `r.txt/.`) that leads to a
 * non-directory is refused `ENOTDIR` (`stat`, the path as given) before
 * `share` is called, as the unconfined publish and the other tools answer:
 * resolving it drops the tail, so `share` would otherwise upload the file.
 */
export function confineAssets<A>(assets: A, fs: Pick<RootFsLike, "lstat" | "stat">, root: string): A {
  if (assets === undefined || assets === null || (typeof assets !== "object" && typeof assets !== "function")) return assets;
  const source = assets as { share?: unknown; publish?: unknown };
  const method = typeof source.share === "function" ? source.share : typeof source.publish === "function" ? source.publish : undefined;
  if (method === undefined) return assets;
  return {
    share: async (path: string, options: unknown) => {
      const resolved = await resolveToolPath(fs, root, path);
      if (directoryForm(path) !== null && resolved !== "/") {
        // A missing path (or any other stat failure) is left for share to report, as without the tail.
        const isDirectory = await fs.stat(resolved).then((st) => st.isDirectory, () => undefined);
        if (isDirectory === false) throw new WorkspaceFsError("ENOTDIR", "stat", path);
      }
      return (method as Call).call(assets, resolved, options);
    },
  } as A;
}

/** Tool objects (and pi tool-set results) built with `root` → that root (normalised). */
const toolRoots = new WeakMap<object, string>();

/**
 * Records that `tool` (an adapter's tool object, or a pi tool-set result)
 * was built with `root`, so `ws:tools` can tell how it resolves a relative
 * `path` and that it is confined already. A non-object is ignored.
 */
export function markToolRoot(tool: unknown, root: string): void {
  if ((typeof tool === "object" && tool !== null) || typeof tool === "function") toolRoots.set(tool, root);
}

/** The `root` `tool` was built with ({@link markToolRoot}); `undefined` for an unrooted or unknown tool. */
export function toolRootOf(tool: unknown): string | undefined {
  return (typeof tool === "object" && tool !== null) || typeof tool === "function" ? toolRoots.get(tool) : undefined;
}

/** Tool objects that start runs in the Workspace's backends, unconfined (TOOL.md directory tools) → the tool's name (`""` when not given). */
const runStarters = new WeakMap<object, string>();

/**
 * Records that `tool` (an adapter's tool object or pi declaration) runs in
 * the Workspace's backends like exec — not confined to a backend's `root` —
 * so `ws:tools` leaves it out unless asked (`createToolBindings({ runTools:
 * true })`). `name` is the directory tool's name, for messages (default
 * `""`: unnamed). A non-object is ignored.
 */
export function markStartsRuns(tool: unknown, name = ""): void {
  if ((typeof tool === "object" && tool !== null) || typeof tool === "function") runStarters.set(tool, name);
}

/** True for a tool marked with {@link markStartsRuns}. */
export function startsRuns(tool: unknown): boolean {
  return ((typeof tool === "object" && tool !== null) || typeof tool === "function") && runStarters.has(tool);
}

/** The name `tool` was marked with by {@link markStartsRuns} (`""` when unnamed); `undefined` for a tool that starts no runs. */
export function runStarterName(tool: unknown): string | undefined {
  return (typeof tool === "object" && tool !== null) || typeof tool === "function" ? runStarters.get(tool) : undefined;
}

/** pi tool-set `execute` functions → names of the set's tools that start runs (TOOL.md directory tools). */
const runStarterNames = new WeakMap<object, Set<string>>();

/**
 * Records that `execute` (a pi tool set's one `execute`, which runs every
 * tool of the set by name) starts runs when it runs tool `name`, so a copy
 * of the set's declaration (`{ ...tools[i] }`), which has no `execute` of
 * its own to carry {@link markStartsRuns}, is still left out of `ws:tools`
 * unless asked. A non-function or non-object `execute` is ignored.
 */
export function markStartsRunsNamed(execute: unknown, name: string): void {
  if ((typeof execute !== "object" || execute === null) && typeof execute !== "function") return;
  let names = runStarterNames.get(execute);
  if (!names) runStarterNames.set(execute, (names = new Set()));
  names.add(name);
}

/** True when `execute` was marked with {@link markStartsRunsNamed} for tool `name`. */
export function startsRunsNamed(execute: unknown, name: string): boolean {
  return ((typeof execute === "object" && execute !== null) || typeof execute === "function") && runStarterNames.get(execute)?.has(name) === true;
}

/** Tool objects of the library's own tool set → the spec name of the tool (`read`, `write`, …). */
const libraryTools = new WeakMap<object, string>();

/** Library tool objects whose core tool changes nothing (`mutating: false`: read, ls, find, grep). */
const readOnlyLibraryTools = new WeakSet<object>();

/**
 * Records that `tool` (an adapter's tool object or pi declaration) is the
 * library's tool `name`, so `ws:tools` confines its `path` to the calling
 * run's root whatever key the tool is exported under (a `ToolSet` renamed
 * `{ read_file: tools.read }` included). `mutating` is the core tool's
 * fact (default `true`: nothing is read-only unless its core says so);
 * `false` lets `forAISDKTools` mark the binding `readOnly`. A non-object is ignored.
 */
export function markLibraryTool(tool: unknown, name: string, mutating = true): void {
  if ((typeof tool === "object" && tool !== null) || typeof tool === "function") {
    libraryTools.set(tool, name);
    if (mutating === false) readOnlyLibraryTools.add(tool);
    else readOnlyLibraryTools.delete(tool);
  }
}

/** The spec name `tool` was built as ({@link markLibraryTool}); `undefined` for any other object. */
export function libraryToolName(tool: unknown): string | undefined {
  return (typeof tool === "object" && tool !== null) || typeof tool === "function" ? libraryTools.get(tool) : undefined;
}

/** True for a library tool marked with `mutating: false` ({@link markLibraryTool}): read, ls, find, grep. */
export function isReadOnlyLibraryTool(tool: unknown): boolean {
  return ((typeof tool === "object" && tool !== null) || typeof tool === "function") && readOnlyLibraryTools.has(tool);
}
