/**
 * Where a push with no refspec sends the current branch: git 2.39.5's `push.default` (builtin/push.c
 * setup_default_push_refspecs, get_upstream_ref, die_push_simple), as a pure function shared by the typed API's
 * `push` (no `ref`, no `remoteRef`) and the command line's bare `git push [<remote>]` (issue 20, run 34, fixer GN).
 *
 * - `simple` (git's default, also when unset): pushing to the branch's own remote (`branch.<b>.remote`, else
 *   `origin`), the upstream (`branch.<b>.merge`) must be the branch of the same name, else git refuses ("The upstream
 *   branch of your current branch does not match the name of your current branch"); with no upstream git refuses too
 *   ("The current branch <b> has no upstream branch", unless `push.autoSetupRemote` is true: then the same name).
 *   To another remote (or a URL) the branch goes to the same name.
 * - `current`: the branch of the same name, whatever the upstream.
 * - `upstream` (and its old name `tracking`): the upstream branch; to another remote git refuses, with no upstream as
 *   `simple`.
 * - `nothing`: refused ("You didn't specify any refspecs to push, and push.default is \"nothing\".").
 * - `matching`: not supported here (it pushes every branch the remote also has): refused `EUNSUPPORTED`.
 * - anything else: git's "malformed value for push.default".
 *
 * @module
 */

/** What {@link pushDefaultDestination} is told: all from `.git/config` but `branch`, `remote`. */
export interface PushDefaultInput {
  /** `push.default` as set, `undefined` when unset (git's PUSH_DEFAULT_UNSPECIFIED: `simple`, with one more hint). */
  readonly setting: string | undefined;
  /** The current branch's short name; `undefined` on a detached HEAD. */
  readonly branch: string | undefined;
  /** The remote pushed to: its name, or the URL as typed (a URL is never the branch's remote). */
  readonly remote: string;
  /** `branch.<b>.remote`, if set. */
  readonly branchRemote: string | undefined;
  /** `branch.<b>.merge` (a full ref, `refs/heads/x`), if set. */
  readonly merge: string | undefined;
  /** `push.autoSetupRemote` is true: a branch with no upstream goes to its own name (and the caller may track it). */
  readonly autoSetupRemote?: boolean;
  /** `branch.autoSetupMerge` is `simple`: git leaves out its hint about it. */
  readonly autoSetupMergeSimple?: boolean;
}

/** The outcome: the full ref to update on the remote, or git's refusal (its `fatal:` text without the prefix). */
export type PushDefaultOutcome =
  | { readonly ok: true; readonly dst: string; readonly noUpstream: boolean }
  | { readonly ok: false; readonly code: "EPUSHFAIL" | "EUNSUPPORTED"; readonly message: string };

const refuse = (message: string, code: "EPUSHFAIL" | "EUNSUPPORTED" = "EPUSHFAIL"): PushDefaultOutcome => ({ ok: false, code, message });

/** git 2.39.5's choice of destination for a push without a refspec; see the module's comment. */
export function pushDefaultDestination(input: PushDefaultInput): PushDefaultOutcome {
  const setting = input.setting?.toLowerCase();
  const mode = setting === undefined ? "simple" : setting === "tracking" ? "upstream" : setting;
  if (!["nothing", "matching", "simple", "upstream", "current"].includes(mode)) {
    return refuse(`malformed value for push.default: ${input.setting}\nerror: must be one of nothing, matching, simple, upstream or current`);
  }
  if (mode === "nothing") return refuse(`You didn't specify any refspecs to push, and push.default is "nothing".`);
  if (mode === "matching") {
    return refuse("push.default 'matching' is not supported (it pushes every branch the remote also has): name the branch, git push <remote> <branch>", "EUNSUPPORTED");
  }
  const branch = input.branch;
  if (branch === undefined) {
    return refuse(
      "You are not currently on a branch.\nTo push the history leading to the current (detached HEAD)\nstate now, use\n\n" +
        `    git push ${input.remote} HEAD:<name-of-remote-branch>\n`,
    );
  }
  const own = `refs/heads/${branch}`;
  const sameRemote = input.remote === (input.branchRemote ?? "origin");
  if (mode === "current" || (mode === "simple" && !sameRemote)) return { ok: true, dst: own, noUpstream: input.merge === undefined };
  if (mode === "upstream" && !sameRemote) {
    return refuse(
      `You are pushing to remote '${input.remote}', which is not the upstream of\nyour current branch '${branch}', without telling me what to push\nto update which remote branch.`,
    );
  }
  if (input.merge === undefined || input.branchRemote === undefined) {
    if (input.autoSetupRemote) return { ok: true, dst: own, noUpstream: true };
    return refuse(
      `The current branch ${branch} has no upstream branch.\nTo push the current branch and set the remote as upstream, use\n\n` +
        `    git push --set-upstream ${input.remote} ${branch}\n\n` +
        "To have this happen automatically for branches without a tracking\nupstream, see 'push.autoSetupRemote' in 'git help config'.\n",
    );
  }
  if (mode === "upstream" || input.merge === own) return { ok: true, dst: input.merge, noUpstream: false };
  const upstream = input.merge.replace(/^refs\/heads\//, "");
  return refuse(
    "The upstream branch of your current branch does not match\nthe name of your current branch.  To push to the upstream branch\non the remote, use\n\n" +
      `    git push ${input.remote} HEAD:${upstream}\n\nTo push to the branch of the same name on the remote, use\n\n    git push ${input.remote} HEAD\n` +
      (setting === undefined ? "\nTo choose either option permanently, see push.default in 'git help config'.\n" : "") +
      (input.autoSetupMergeSimple
        ? ""
        : "\nTo avoid automatically configuring an upstream branch when its name\nwon't match the local branch, see option 'simple' of branch.autoSetupMerge\nin 'git help config'.\n"),
  );
}
