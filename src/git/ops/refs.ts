// PLACEHOLDER (issue 15, in progress): each function is replaced by its implementation.
import type { GitContext } from "../context.js";
import { GitError } from "../errors.js";

export async function branch(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git branch: not implemented yet");
}

export async function branchDelete(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git branchDelete: not implemented yet");
}

export async function branchList(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git branchList: not implemented yet");
}

export async function tag(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git tag: not implemented yet");
}

export async function tagDelete(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git tagDelete: not implemented yet");
}

export async function tagList(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git tagList: not implemented yet");
}
