/**
 * A pipeline element run as the subshell bash runs it in (issue 20, run 38, fixer SP).
 *
 * bash 5.2 forks every element of a multi-command pipeline — all of them, or all but the last under
 * `shopt -s lastpipe` with job control off, as in a script (bash(1) "Pipelines": "Each command in a multi-command
 * pipeline, where pipes are created, is executed in a subshell, which is a separate process") — so whatever an
 * element changes in the shell ends with it: the working directory (`cd`, `pushd`, $PWD/$OLDPWD, the directory
 * stack), `set` and `shopt` options (`set -e`, `-u`, `-o pipefail`, `nullglob`, …), the file-creation mask, functions
 * defined or unset, variable attributes (`readonly`, `declare -g`, `export`), descriptors opened or closed by
 * `exec`, traps (an EXIT trap set in an element runs when the element ends), aliases. Only what the element reads
 * from a descriptor it shares with the shell (the shared standard input of a `{ … }` or `while` around the
 * pipeline, an `exec 3<file` descriptor) is gone for the shell too, since the open file's offset is shared.
 * just-bash's pipeline executor kept only variables and arrays apart; the patch in scripts/gen-shell.mjs (SP_PATCHES)
 * runs each such element through {@link pipelineElement}, which gives it the isolation just-bash's `( … )` gets.
 */

import { subshell } from "./script-builtins.js";
import { keepUmask } from "./umask.js";

/** The result of a command in just-bash's interpreter (what `subshell` runs). */
interface ExecResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  [key: string]: unknown;
}

/** The part of just-bash's interpreter state this module reads or sets. */
interface ElementState {
  env: Map<string, string>;
  options: Record<string, boolean>;
  lastExitCode: number;
  callDepth?: number;
  fileDescriptors?: Map<number, unknown>;
  groupStdin?: unknown;
  groupStdinSourceFd?: unknown;
  bashPid?: number;
  nextVirtualPid?: number;
}

/** just-bash's interpreter context (`e` in its pipeline executor). */
interface ElementContext {
  state: ElementState;
  fs: unknown;
  executeScript(ast: unknown): Promise<ExecResult>;
}

/** A descriptor's entry as just-bash's `( … )` reads it back: an input's remaining content, a read-write position. */
interface FdEntry {
  kind?: string;
  content?: string;
  path?: string;
  position?: number;
}

/**
 * just-bash's own functions, found in its bundle by scripts/gen-shell.mjs: `snapshot(state)` copies the shell state
 * a subshell may change and returns the function that puts it back (what its `( … )` uses); `entry(ctx, fd)` a
 * descriptor's entry; `aliases(ctx, fd)` the descriptors that share `fd`'s open file; `advance(ctx, fd, n)` moves
 * that open file on by `n` (characters of an input, bytes of a read-write file).
 */
export interface SubshellParts {
  snapshot(state: ElementState): () => void;
  entry(ctx: ElementContext, fd: number): FdEntry | undefined;
  aliases(ctx: ElementContext, fd: number): number[];
  advance(ctx: ElementContext, fd: number, by: number): void;
}

/**
 * Runs `run` (one pipeline element) as a subshell: the shell state is snapshotted before and put back after (umask
 * too), the element gets its own `$BASHPID` and a trap table of its own (the parent's traps are not run in it, its
 * EXIT trap runs when it ends: isolate/script-builtins.ts `subshell`). What the element consumed of a shared
 * descriptor and of the enclosing group's standard input stays consumed. Errors `run` throws (an `exit`, `set -e`,
 * `set -u`) go on to the pipeline executor, which turns them into the element's status as before, after the
 * state is put back.
 */
export async function pipelineElement(ctx: ElementContext, parts: SubshellParts, run: () => Promise<ExecResult>): Promise<ExecResult> {
  const before = new Map<number, FdEntry>();
  for (const fd of ctx.state.fileDescriptors?.keys() ?? []) {
    const entry = parts.entry(ctx, fd);
    if (entry) before.set(fd, entry);
  }
  const restore = keepUmask(ctx.fs, parts.snapshot(ctx.state));
  const pid = ctx.state.nextVirtualPid ?? 0;
  ctx.state.bashPid = pid;
  ctx.state.nextVirtualPid = pid + 1;
  try {
    return await subshell(ctx, run);
  } finally {
    const consumed = new Map<number, number>();
    for (const [fd, old] of before) {
      const now = parts.entry(ctx, fd);
      const by =
        old.kind === "input" && now?.kind === "input"
          ? (old.content?.length ?? 0) - (now.content?.length ?? 0)
          : old.kind === "readwrite" && now?.kind === "readwrite" && old.path === now.path
            ? (now.position ?? 0) - (old.position ?? 0)
            : 0;
      if (by <= 0) continue;
      const first = Math.min(...parts.aliases(ctx, fd));
      consumed.set(first, Math.max(consumed.get(first) ?? 0, by));
    }
    const groupStdin = ctx.state.groupStdin;
    const groupStdinSourceFd = ctx.state.groupStdinSourceFd;
    restore();
    ctx.state.groupStdin = groupStdin;
    ctx.state.groupStdinSourceFd = groupStdinSourceFd;
    for (const [fd, by] of consumed) parts.advance(ctx, fd, by);
  }
}
