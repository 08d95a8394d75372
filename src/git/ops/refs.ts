/**
 * Branches and lightweight tags (spec 04 §2.3 "Refs"): `branch`,
 * `branchDelete`, `branchList`, `tag`, `tagDelete`, `tagList`.
 *
 * Failures are `GitError`s: `EUSAGE` for a missing or mistyped option,
 * `EBRANCHFAIL` / `ETAGFAIL` (message `git branch failed: …`,
 * `git tag failed: …`) for everything git itself would refuse, and
 * `ENOTAREPO` when `dir` holds no `.git`.
 *
 * @module
 */
import type { GitContext } from "../context.js";
import type {
  GitBranchDeleteOptions,
  GitBranchListOptions,
  GitBranchOptions,
  GitTagDeleteOptions,
  GitTagListOptions,
  GitTagOptions,
} from "../types.js";
import { requireRepo } from "../wrap.js";
import { boolOption, compareBytes, optionalString, stringOption } from "./pathspec.js";
import { resolveCommit } from "./rev.js";
import { currentBranchRef, headOid, moveTree, opError } from "./tree-state.js";
import { isValidRefName } from "../refname.js";

async function exists(ctx: GitContext, dir: string, ref: string): Promise<boolean> {
  try {
    await ctx.git.resolveRef({ fs: ctx.fs, dir, ref, depth: 1 });
    return true;
  } catch {
    return false;
  }
}

/**
 * Creates branch `name` at `startPoint` (default `"HEAD"`); with
 * `checkout`, switches to it (local changes carried over as by
 * `git checkout -b`).
 * @throws GitError `EBRANCHFAIL`: `'<name>' is not a valid branch name`,
 * `a branch named '<name>' already exists` (without `force`),
 * `cannot force update the current branch '<name>'`, `unknown revision '<ref>'`;
 * with `checkout`, `ECHECKOUTFAIL` when local changes would be overwritten
 * (the branch is then not created).
 */
export async function branch(ctx: GitContext, dir: string, options: GitBranchOptions): Promise<void> {
  const name = stringOption("branch", options, "name");
  const startPoint = stringOption("branch", options, "startPoint", "HEAD");
  const force = boolOption("branch", options, "force");
  const switchTo = boolOption("branch", options, "checkout");
  await requireRepo(ctx, dir);
  if (!isValidRefName(name)) throw opError("branch", `'${name}' is not a valid branch name`);
  const ref = `refs/heads/${name}`;
  if (await exists(ctx, dir, ref)) {
    if (!force) throw opError("branch", `a branch named '${name}' already exists`);
    if ((await currentBranchRef(ctx, dir)) === ref) throw opError("branch", `cannot force update the current branch '${name}'`);
  }
  let oid: string;
  try {
    oid = (await resolveCommit(ctx, dir, startPoint)).oid;
  } catch (error) {
    throw opError("branch", (error as Error).message);
  }
  // With `checkout`, the working tree moves first: a refusal leaves no new branch behind (as `git checkout -b`).
  if (switchTo) await moveTree(ctx, dir, "checkout", await headOid(ctx, dir), oid, false);
  await ctx.git.writeRef({ fs: ctx.fs, dir, ref, value: oid, force: true });
  if (switchTo) await ctx.git.writeRef({ fs: ctx.fs, dir, ref: "HEAD", value: ref, symbolic: true, force: true });
}

/**
 * Deletes branch `name` (as `git branch -D`: merged or not).
 * @throws GitError `EBRANCHFAIL`: `branch '<name>' not found`,
 * `cannot delete branch '<name>' checked out at '<dir>'`.
 */
export async function branchDelete(ctx: GitContext, dir: string, options: GitBranchDeleteOptions): Promise<void> {
  const name = stringOption("branch", options, "name");
  await requireRepo(ctx, dir);
  const ref = `refs/heads/${name}`;
  if (!isValidRefName(name) || !(await exists(ctx, dir, ref))) throw opError("branch", `branch '${name}' not found`);
  if ((await currentBranchRef(ctx, dir)) === ref) throw opError("branch", `cannot delete branch '${name}' checked out at '${dir}'`);
  await ctx.git.deleteRef({ fs: ctx.fs, dir, ref });
}

/**
 * Local branch names (`refs/heads/*`), or with `remote` the names under
 * `refs/remotes/<remote>/` (without the prefix, `HEAD` left out), sorted
 * in byte order as `git branch` lists them.
 */
export async function branchList(ctx: GitContext, dir: string, options: GitBranchListOptions): Promise<string[]> {
  const remote = optionalString("branch", options, "remote");
  await requireRepo(ctx, dir);
  const names = await ctx.git.listBranches({ fs: ctx.fs, dir, ...(remote === undefined ? {} : { remote }) });
  return names.filter((n) => remote === undefined || n !== "HEAD").sort(compareBytes);
}

/**
 * Creates the lightweight tag `name` at `object` (default `"HEAD"`).
 * @throws GitError `ETAGFAIL`: `'<name>' is not a valid tag name`,
 * `tag '<name>' already exists` (without `force`), `unknown revision '<ref>'`.
 */
export async function tag(ctx: GitContext, dir: string, options: GitTagOptions): Promise<void> {
  const name = stringOption("tag", options, "name");
  const object = stringOption("tag", options, "object", "HEAD");
  const force = boolOption("tag", options, "force");
  await requireRepo(ctx, dir);
  if (!isValidRefName(name)) throw opError("tag", `'${name}' is not a valid tag name`);
  const ref = `refs/tags/${name}`;
  if (!force && (await exists(ctx, dir, ref))) throw opError("tag", `tag '${name}' already exists`);
  let oid: string;
  try {
    oid = await resolveObject(ctx, dir, object);
  } catch (error) {
    throw opError("tag", (error as Error).message);
  }
  await ctx.git.writeRef({ fs: ctx.fs, dir, ref, value: oid, force: true });
}

/** A tag may point at any object: a commit-ish resolves to its commit, a full oid is taken as is. */
async function resolveObject(ctx: GitContext, dir: string, object: string): Promise<string> {
  if (/^[0-9a-f]{40}$/i.test(object)) {
    await ctx.git.readObject({ fs: ctx.fs, dir, cache: ctx.cache, oid: object.toLowerCase(), format: "deflated" }).catch(() => {
      throw new Error(`unknown revision '${object}'`);
    });
    return object.toLowerCase();
  }
  return (await resolveCommit(ctx, dir, object)).oid;
}

/**
 * Deletes tag `name`.
 * @throws GitError `ETAGFAIL` `tag '<name>' not found`.
 */
export async function tagDelete(ctx: GitContext, dir: string, options: GitTagDeleteOptions): Promise<void> {
  const name = stringOption("tag", options, "name");
  await requireRepo(ctx, dir);
  const ref = `refs/tags/${name}`;
  if (!isValidRefName(name) || !(await exists(ctx, dir, ref))) throw opError("tag", `tag '${name}' not found`);
  await ctx.git.deleteRef({ fs: ctx.fs, dir, ref });
}

/** Tag names (`refs/tags/*`), sorted in byte order as `git tag` lists them. */
export async function tagList(ctx: GitContext, dir: string, _options: GitTagListOptions): Promise<string[]> {
  await requireRepo(ctx, dir);
  return (await ctx.git.listTags({ fs: ctx.fs, dir })).sort(compareBytes);
}
