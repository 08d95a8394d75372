// PLACEHOLDER (issue 15, in progress): each function is replaced by its implementation.
import type { GitContext } from "../context.js";
import { GitError } from "../errors.js";

export async function checkout(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git checkout: not implemented yet");
}

export async function merge(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git merge: not implemented yet");
}

export async function stashPush(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git stashPush: not implemented yet");
}

export async function stashList(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git stashList: not implemented yet");
}

export async function stashPop(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git stashPop: not implemented yet");
}

export async function reset(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git reset: not implemented yet");
}

export async function clean(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git clean: not implemented yet");
}
