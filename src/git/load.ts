/**
 * Lazy loading of isomorphic-git: nothing here runs until a client's first
 * call, so the root entry (and a Workspace without git) never loads it.
 *
 * @module
 */
import type { GitHttpClient, IsomorphicGit } from "./context.js";

let loading: Promise<{ git: IsomorphicGit; http: GitHttpClient }> | undefined;

/** isomorphic-git and its fetch-based HTTP client, imported once per isolate. */
export function loadIsomorphicGit(): Promise<{ git: IsomorphicGit; http: GitHttpClient }> {
  loading ??= (async () => {
    const [git, http] = await Promise.all([import("isomorphic-git"), import("isomorphic-git/http/web")]);
    return { git: git as IsomorphicGit, http: (http as { default: GitHttpClient }).default };
  })();
  return loading;
}
