/**
 * What every git operation gets: the lazily loaded isomorphic-git, the fs
 * bridge, the object cache and the identity fallback. One per client
 * (spec 04 §2.1: "per client, fs bridge, imports and one pack cache are
 * shared by all calls"), made into one per operation by
 * {@link import("./operation.js").operationContext}: each operation has its
 * own pack cache, over the client's bounded one of the packs it keeps
 * between operations (issue 20, sixteenth attack run).
 *
 * @module
 */
import type { GitIdentity, WorkspaceLike } from "./types.js";

/**
 * One update of {@link IsomorphicGit.updateIndexMany}: the entry goes, or is
 * set to `oid` and `mode` with `stats` — an lstat of the file taken when the
 * caller knew it held `oid` (right after writing it, or before hashing it),
 * so a later write by anyone else shows in status — or, without `stats`,
 * zero stats (status then compares the file's content).
 */
export type IndexUpdate = { filepath: string; remove: true } | { filepath: string; oid: string; mode: number; stats?: object; remove?: false };

/**
 * The isomorphic-git module (loaded on a client's first call), with
 * `updateIndexMany` added by scripts/gen-git.mjs: many index updates under
 * one acquisition of `.git/index`, written once; `mergeFile`, its default
 * merge driver (diff3); and `createIgnore` / `boundIgnoreRules`, the `ignore`
 * package and its rule bounds, all exported by the same script.
 */
export type IsomorphicGit = typeof import("isomorphic-git") & {
  updateIndexMany(args: { fs: import("isomorphic-git").PromiseFsClient; dir: string; gitdir?: string; cache?: object; updates: readonly IndexUpdate[] }): Promise<void>;
  mergeFile: import("isomorphic-git").MergeDriverCallback;
  /** A new, empty matcher of the `ignore` package (the one `isIgnored` uses). */
  createIgnore(): IgnoreMatcher;
  /** One ignore file's text with the rule bounds of docs/git.md ".gitignore patterns are bounded" applied. */
  boundIgnoreRules(text: string): string;
};
/** A matcher of the `ignore` package: `.gitignore` rules added, paths (relative, `/`-separated) tested. */
export interface IgnoreMatcher {
  add(rules: string): unknown;
  ignores(path: string): boolean;
  test(path: string): { ignored: boolean; unignored: boolean };
  /** The last rule matching `path` itself (`dir/` for a directory), the directories above it not asked (scripts/gen-git.mjs). */
  match(path: string): { ignored: boolean; unignored: boolean };
}
/** isomorphic-git's HTTP client (`isomorphic-git/http/web` over `fetch`). */
export type GitHttpClient = import("isomorphic-git").HttpClient;

/** Everything an operation in `ops/` needs. */
export interface GitContext {
  /** isomorphic-git. */
  readonly git: IsomorphicGit;
  /** The `{ promises }` fs isomorphic-git reads and writes through. */
  readonly fs: import("isomorphic-git").PromiseFsClient;
  /** HTTP client for clone/fetch/push/pull. */
  readonly http: GitHttpClient;
  /**
   * isomorphic-git's object cache: the operation's pack cache (dropped when
   * it ends, save the packs the client keeps: GIT_PACK_CACHE_BYTES), over
   * the rest shared by every call of this client
   * ({@link import("./operation.js").operationCache}).
   */
  readonly cache: object;
  /** The Workspace (for direct `fs` use: streaming reads, listings). */
  readonly workspace: WorkspaceLike;
  /** `WorkspaceOptions.defaultGitIdentity`. */
  readonly defaultIdentity?: GitIdentity;
  /** The operation's `signal` option: checked between files ({@link import("./wrap.js").throwIfCancelled}). */
  readonly signal?: AbortSignal;
  /** A confined client's root (confine.ts): links written to a working tree must lead under it; checked before writing too (run 29, GL). */
  readonly linkRoot?: string;
  /**
   * The working tree's `.gitattributes` line-end conversion and `diff` attribute for this operation (fixer GA, run 36):
   * set by the client on every operation's context ({@link import("./ops/attributes.js").filteredContext}), which also
   * makes `fs` convert working-tree reads and writes; code reading or writing working-tree files through `workspace.fs`
   * applies it itself (`toGit` on read, `toWorktree` on write). Absent on a hand-made context: no conversion.
   */
  readonly filters?: import("./ops/attributes.js").WorktreeFilters; // fixer GA
}
