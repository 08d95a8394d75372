// PLACEHOLDER (issue 15, in progress): each function is replaced by its implementation.
import type { GitContext } from "../context.js";
import { GitError } from "../errors.js";

export async function init(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git init: not implemented yet");
}

export async function status(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git status: not implemented yet");
}

export async function add(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git add: not implemented yet");
}

export async function rm(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git rm: not implemented yet");
}

export async function commit(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git commit: not implemented yet");
}

export async function log(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git log: not implemented yet");
}

export async function show(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git show: not implemented yet");
}

export async function revParse(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git revParse: not implemented yet");
}

export async function repoRoot(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git repoRoot: not implemented yet");
}

export async function currentBranch(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git currentBranch: not implemented yet");
}

export async function lsFiles(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git lsFiles: not implemented yet");
}

export async function lsTree(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git lsTree: not implemented yet");
}

export async function hashObject(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git hashObject: not implemented yet");
}

export async function catFile(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git catFile: not implemented yet");
}

export async function updateRef(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git updateRef: not implemented yet");
}

export async function configGet(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git configGet: not implemented yet");
}

export async function configSet(_ctx: GitContext, _dir: string, _options: unknown): Promise<never> {
  throw new GitError("ENOSYS", "git configSet: not implemented yet");
}
