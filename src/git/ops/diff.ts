// PLACEHOLDER (issue 15, in progress): each function is replaced by its implementation.
import type { GitContext } from "../context.js";
import { GitError } from "../errors.js";

export async function diff(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git diff: not implemented yet");
}

export async function diffSummary(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git diffSummary: not implemented yet");
}
