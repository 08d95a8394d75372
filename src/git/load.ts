/**
 * Lazy loading of isomorphic-git: nothing here runs until a client's first
 * call, so the root entry (and a Workspace without git) never loads it.
 *
 * The modules are the bundles scripts/gen-git.mjs writes under
 * src/git/generated/ (git-ignored): isomorphic-git with `pako` replaced by
 * node:zlib (src/git/zlib-pako.ts) and `Buffer` from node:buffer, so they
 * need `nodejs_compat` in a Worker (spec 04 §2.1).
 *
 * @module
 */
import type { GitHttpClient, IsomorphicGit } from "./context.js";
import { GIT_MAX_DELTA_DEPTH, GIT_MAX_OBJECT_BYTES, GIT_PACK_DELTA_CACHE_BYTES, objectTooLarge } from "./limits.js";

let loading: Promise<{ git: IsomorphicGit; http: GitHttpClient }> | undefined;

/** isomorphic-git and its fetch-based HTTP client, imported once per isolate. */
export function loadIsomorphicGit(): Promise<{ git: IsomorphicGit; http: GitHttpClient }> {
  loading ??= (async () => {
    const [git, http] = await Promise.all([import("./generated/isomorphic-git.js"), import("./generated/http-web.js")]);
    // What one pack index keeps of the objects it resolved (scripts/gen-git.mjs bounds it; the bound is ours).
    git.packLimits.offsetCacheBytes = GIT_PACK_DELTA_CACHE_BYTES;
    // What a pack delta may make and how deep a chain of them may go (scripts/gen-git.mjs reads them in applyDelta / readSlice).
    git.deltaLimits.maxObjectBytes = GIT_MAX_OBJECT_BYTES;
    git.deltaLimits.objectTooLarge = objectTooLarge;
    git.deltaLimits.maxDepth = GIT_MAX_DELTA_DEPTH;
    return { git: git as IsomorphicGit, http: http.default };
  })();
  // A failed import is not cached: the next call tries again.
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}
