/**
 * The one list of `workspace.fs` methods: every member of
 * {@link WorkspaceFilesystem}, each with what an observer span records about
 * a call to it (spec 01 §5.4). The RPC stub and the remote client build their
 * forwarders from this list, so a new filesystem method is written in three
 * places: the interface (`types.ts`), the implementation (`filesystem.ts`) and
 * here — and the compiler asks for this entry.
 *
 * @module
 */
import type { WorkspaceAttributes } from "../observer.js";
import type { WorkspaceFilesystem } from "./types.js";

/** The name of a `workspace.fs` method. */
export type FsMethod = keyof WorkspaceFilesystem;

/** What the list knows about one method `M`. */
export interface FsMethodFacts<M extends FsMethod> {
  /**
   * The span attributes of a call, from its arguments (spec 01 §5.4):
   * `workspace.fs.path` and, where the method has them, `.destination`,
   * `.pattern`, `.recursive`, `.force`, `.mode`, `.target`. `undefined`
   * values are dropped by the span.
   */
  readonly attributes: (...args: Parameters<WorkspaceFilesystem[M]>) => WorkspaceAttributes;
  /** Attributes added from the result on success (`workspace.fs.entries` or `.matches`). Default: none. */
  readonly resultAttributes?: (result: Awaited<ReturnType<WorkspaceFilesystem[M]>>) => WorkspaceAttributes;
}

/**
 * Every `workspace.fs` method and its span facts. Typed as a mapped type over
 * `keyof WorkspaceFilesystem`: a method missing here, or a name that is not a
 * method of the interface, fails to compile.
 */
export const FS_METHODS: { readonly [M in FsMethod]: FsMethodFacts<M> } = {
  readFile: { attributes: (path) => ({ "workspace.fs.path": path }) },
  writeFile: { attributes: (path, _content, options) => ({ "workspace.fs.path": path, "workspace.fs.mode": options?.mode }) },
  appendFile: { attributes: (path, _content, options) => ({ "workspace.fs.path": path, "workspace.fs.mode": options?.mode }) }, // fixer AP, run 36
  mkdir: {
    attributes: (path, options) => ({ "workspace.fs.path": path, "workspace.fs.recursive": options?.recursive, "workspace.fs.mode": options?.mode }),
  },
  readdir: { attributes: (path) => ({ "workspace.fs.path": path }), resultAttributes: (entries) => ({ "workspace.fs.entries": entries.length }) },
  stat: { attributes: (path) => ({ "workspace.fs.path": path }) },
  lstat: { attributes: (path) => ({ "workspace.fs.path": path }) },
  rm: {
    attributes: (path, options) => ({ "workspace.fs.path": path, "workspace.fs.recursive": options?.recursive, "workspace.fs.force": options?.force }),
  },
  rename: { attributes: (oldPath, newPath) => ({ "workspace.fs.path": oldPath, "workspace.fs.destination": newPath }) },
  symlink: { attributes: (target, path) => ({ "workspace.fs.path": path, "workspace.fs.target": target }) },
  readlink: { attributes: (path) => ({ "workspace.fs.path": path }) },
  chmod: { attributes: (path, mode) => ({ "workspace.fs.path": path, "workspace.fs.mode": mode }) },
  find: {
    attributes: (directory, pattern) => ({ "workspace.fs.path": directory, "workspace.fs.pattern": pattern }),
    resultAttributes: (matches) => ({ "workspace.fs.matches": matches.length }),
  },
  ls: { attributes: (prefix) => ({ "workspace.fs.path": prefix }), resultAttributes: (paths) => ({ "workspace.fs.entries": paths.length }) },
  grep: {
    attributes: (pattern, path) => ({ "workspace.fs.path": path, "workspace.fs.pattern": pattern }),
    resultAttributes: (matches) => ({ "workspace.fs.matches": matches.filter((m) => m.binary !== true).length }),
  },
};

/** The names of {@link FS_METHODS}, in declaration order. */
export const FS_METHOD_NAMES = Object.keys(FS_METHODS) as readonly FsMethod[];

/**
 * Methods of the `WorkspaceFs` class that are not `workspace.fs` methods:
 * the change tracking the container sync reads (issue 17), internal until a
 * syncing backend uses it, so not forwarded over RPC.
 */
export const INTERNAL_FS_METHOD_NAMES: readonly string[] = ["revision", "changesSince", "pruneTombstones", "stampOf", "inodeOf", "inodePath"]; // inodeOf, inodePath: container sync renames (issue 20, run 36, fixer RN)
