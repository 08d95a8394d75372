// PLACEHOLDER (issue 15, in progress): each function is replaced by its implementation.
import type { GitContext } from "../context.js";
import { GitError } from "../errors.js";

export async function clone(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git clone: not implemented yet");
}

export async function fetch(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git fetch: not implemented yet");
}

export async function push(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git push: not implemented yet");
}

export async function pull(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git pull: not implemented yet");
}

export async function remoteAdd(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git remoteAdd: not implemented yet");
}

export async function remoteRemove(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git remoteRemove: not implemented yet");
}

export async function remoteList(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git remoteList: not implemented yet");
}
