/**
 * `agent-computer/git`: git in the Workspace, on isomorphic-git (spec 04 §2).
 * See docs/git.md.
 *
 * @example
 * ```ts
 * import { Workspace } from "agent-computer";
 * import { createGitClient } from "agent-computer/git";
 *
 * const workspace = new Workspace({
 *   storage: ctx.storage,
 *   git: createGitClient(),
 *   defaultGitIdentity: { name: "Agent", email: "agent@example.com" },
 * });
 * await workspace.git.init({ dir: "/repo" });
 * await workspace.fs.writeFile("/repo/README.md", "# hi\n");
 * await workspace.git.add({ dir: "/repo", paths: ["."] });
 * const { oid } = await workspace.git.commit({ dir: "/repo", message: "first" });
 * ```
 *
 * @module
 */
export { createGitClient } from "./client.js";
export {
  AlreadyInitializedError,
  GitError,
  MissingIdentityError,
  NotARepositoryError,
  PathOutsideRepoError,
  PathspecNotFoundError,
} from "./errors.js";
export { GIT_MAX_TREE_DEPTH } from "./ops/tree-state.js";
export { GIT_IGNORE_MAX_PATTERNS } from "./ops/ignores.js";
export {
  GIT_DIFF_MAX_EDIT_LENGTH,
  GIT_DIFF_MAX_SEARCH_LINES,
  GIT_DIFF_MAX_PATCH_CHARS,
  GIT_LOG_MAX_CHARS,
  GIT_MAX_DELTA_DEPTH,
  GIT_MAX_INDEX_INFLATE_BYTES,
  GIT_MAX_OBJECT_BYTES,
  GIT_MAX_PACK_BYTES,
  GIT_MAX_PACK_FILE_BYTES,
  GIT_MAX_PUSH_BYTES,
  GIT_MAX_TREE_ENTRIES,
  GIT_PACK_CACHE_BYTES,
  GIT_PACK_DELTA_CACHE_BYTES,
} from "./limits.js";
export type * from "./types.js";
