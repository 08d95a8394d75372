// PLACEHOLDER (issue 15, in progress): replaced by the workspace.fs → isomorphic-git bridge.
import type { GitFsAdapter, WorkspaceLike } from "./types.js";

export async function createWorkspaceFsBridge(_ws: WorkspaceLike): Promise<GitFsAdapter> {
  throw new Error("not implemented yet");
}
