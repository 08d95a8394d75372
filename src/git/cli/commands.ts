/**
 * The subcommands of the git CLI (spec 04 §2.5): one table of argument
 * specs, usage lines and handlers. Each handler works only through the
 * public {@link GitClient} and returns its exit code; errors it throws are
 * turned into `git <sub>: <message>` by `runGitCli`.
 *
 * @module
 */
import { GitError, PathOutsideRepoError, PathspecNotFoundError } from "../errors.js";
import type { CatFileResult, CommitView, StatusEntry } from "../types.js";
import type { GitPushOptions } from "../types.js"; // GC
import { normalizePath } from "../../util/path.js";
import { assertDirSpecs, type CliContext, parseAuthor, specMatches } from "./context.js";
import {
  checkFormat,
  collapseUntracked,
  formatDecorates,
  UnsupportedPlaceholderError,
  formatLog,
  formatStat,
  formatTagBlock,
  statName,
  formatStatusLong,
  formatStatusPorcelainV1,
  formatStatusPorcelainV2,
  formatStatusShort,
  formatTreeNames,
  parsePretty,
  quotePath,
  relativeTo,
  shortOid,
  splitMessage,
  type LogStyle,
  type StatusLine,
} from "./format.js";
import { CliFatalError, CliUsageError, fatalIf, fatalOn, type ArgsSpec } from "./parse.js";
import { utf8EscapeDecode } from "../../util/utf8-escape.js";
import { isValidRefName } from "../refname.js";
import { anonymizeUrl, displayFetchUrl } from "../url.js"; // GC
import { pushDefaultDestination } from "../push-default.js"; // fixer GN
import { literalFirst } from "../wildmatch.js";
import { PUSH_NON_FAST_FORWARD, PUSH_TAG_EXISTS } from "../errors.js";

/** The refusals push makes itself, before sending (`[rejected]`); any other failure is the server's. */
const LOCAL_PUSH_REFUSALS: ReadonlySet<string> = new Set([PUSH_NON_FAST_FORWARD, PUSH_TAG_EXISTS]);

/** One subcommand: how its argv is parsed, its usage line, and what it does. */
export interface CommandDef {
  spec: ArgsSpec;
  /** Takes paths after `--` (otherwise anything after `--` is an unexpected argument, 129). Default `false`. */
  paths?: boolean;
  /** `usage: git …` line(s) printed by `git help <cmd>`. */
  usage: string;
  /** Runs it; returns the exit code. */
  run(ctx: CliContext): Promise<number>;
}

/**
 * The key of the client clone's command-line option (the registered symbol of ops/network.ts
 * `CLONE_INTO_EMPTY`, reached by name as the CLI works only through the public client): the destination as
 * typed; the clone then refuses a `dir` that is not an empty directory, as real git.
 */
const CLONE_INTO_EMPTY = Symbol.for("agent-computer.git.cloneIntoEmpty");
/** `push`'s PUSH_REMOTE_OLD (src/git/ops/network.ts): told the remote's old oid and the local one of the ref pushed. */ // GC
const PUSH_REMOTE_OLD = Symbol.for("agent-computer.git.pushRemoteOld"); // GC

/** The package version `git version` prints. */
export const CLI_VERSION = "git version 0.0.0 (agent-computer)";

const QUIET = { name: "quiet", short: "q" } as const;

/** `^[a-z][a-z0-9+.-]*://`: a positional that names a URL rather than a remote. */
export const URL_PATTERN = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * Refuses transports other than `https://`, `http://` and `file://`
 * (spec 04 §2.5): `unsupported transport '<url>' …`, exit 1.
 */
export function checkTransport(url: string): void {
  if (!/^(https?|file):\/\//i.test(url)) {
    throw new GitError("ETRANSPORT", `unsupported transport '${url}' (only https://, http:// and file:// URLs are supported)`);
  }
}

/** `refs/heads/main` → `main` (other refs as given). */
function short(ref: string): string {
  return ref.replace(/^refs\/heads\//, "");
}

/** git's prettify_refname: `refs/heads/`, `refs/tags/` and `refs/remotes/` dropped (push's report; run 40, fixer f40g2). */
function prettify(ref: string): string {
  return ref.replace(/^refs\/(?:heads|tags|remotes)\//, "");
}

function noExtra(positionals: readonly string[], max: number): void {
  if (positionals.length > max) throw new CliUsageError(`unexpected argument '${positionals[max]}'`);
}

function need(value: string | undefined, what: string): string {
  if (value === undefined) throw new CliUsageError(`missing ${what}`);
  return value;
}

function nonNegativeInt(value: string, flag: string, min = 0): number {
  if (!/^\d+$/.test(value) || Number(value) < min) {
    throw new CliUsageError(`${flag} must be an integer ≥ ${min}, got '${value}'`);
  }
  return Number(value);
}

/** The positionals after `--` too (both lists), for commands taking paths. */
function allPaths(ctx: CliContext, from: number): string[] {
  return [...ctx.args.positionals.slice(from), ...(ctx.args.afterDashDash ?? [])];
}

async function headCommit(ctx: CliContext, root: string): Promise<CommitView | undefined> {
  try {
    return await ctx.client.show({ dir: root, ref: "HEAD" });
  } catch {
    return undefined;
  }
}

async function resolves(ctx: CliContext, root: string, ref: string): Promise<string | undefined> {
  try {
    return await ctx.client.revParse({ dir: root, ref });
  } catch {
    return undefined;
  }
}

/** A client failure naming a revision that resolves to nothing (`unknown revision '<rev>'`): real git dies there, 128. */
const unknownRevision = (error: { message: string }): boolean => /unknown revision '/.test(error.message);

/** A client failure of `:<path>` / `:<n>:<path>` naming no index entry (ops/rev.ts): real git dies there, 128 (f40g1). */
const noIndexEntry = (error: { message: string }): boolean =>
  /path '.*' (does not exist \(neither on disk nor in the index\)|exists on disk, but not in the index|is in the index, but not at stage \d)$/s.test(error.message);

/**
 * Whether `spec` (relative to the cwd) may be taken as a path where a
 * revision could also stand (real git's `verify_filename`): a glob or
 * `:` pathspec, the root, a tracked path or directory, or a path `status`
 * reports (untracked or changed). A path outside the repository throws
 * `PathOutsideRepoError`.
 */
async function inWorktree(ctx: CliContext, root: string, spec: string): Promise<boolean> {
  if (spec === "") return false; // real git: `ambiguous argument ''` (never the cwd)
  if (/[*?[]/.test(spec) || spec.startsWith(":")) return true;
  const rel = await ctx.pathspec(spec);
  if (rel === ".") return true;
  const tracked = await ctx.client.lsFiles({ dir: root });
  if (tracked.some((f) => specMatches(f, rel))) return true;
  return (await ctx.client.status({ dir: root, paths: [rel] })).some((e) => specMatches(e.path, rel));
}

/** Real git's message for an argument (without `--`) that is neither a revision nor a path of the working tree. */
function ambiguousArgument(arg: string): string {
  return `ambiguous argument '${arg}': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'`;
}

/** `committer`/`author` times from `GIT_*_DATE` merged into an explicit identity. */
function withDates(ctx: CliContext, author?: { name: string; email: string }) {
  const dates = ctx.dates();
  const a = author || dates.author ? { ...(author ?? {}), ...(dates.author ?? {}) } : undefined;
  return { ...(a ? { author: a } : {}), ...(dates.committer ? { committer: dates.committer } : {}) };
}

/** Status entries as printed: untracked directories collapsed, paths relative to the cwd unless `porcelain`. */
async function statusLines(
  ctx: CliContext,
  root: string,
  entries: StatusEntry[],
  options: { porcelain: boolean; untracked: "no" | "normal" | "all"; specs?: readonly string[] },
): Promise<StatusLine[]> {
  let shown = entries;
  if (options.untracked === "no") shown = shown.filter((e) => e.worktree !== "?");
  else if (options.untracked === "normal" && shown.some((e) => e.worktree === "?")) {
    shown = collapseUntracked(shown, await ctx.client.lsFiles({ dir: root }), options.specs);
  }
  const from = options.porcelain ? "" : await ctx.cwdInRepo();
  return shown.map((e: RenamedEntry) => ({
    path: relativeTo(e.path, from),
    index: e.index,
    worktree: e.worktree,
    key: e.path,
    ...(e.from !== undefined ? { from: relativeTo(e.from, from) } : {}),
  }));
}

/** A status entry, or a staged exact rename (`index` `R`, `from` the old path). */
type RenamedEntry = StatusEntry & { from?: string };

/**
 * git's rename detection in `status` (`status.renames`, exact renames only): a path deleted from the index and one
 * added to it holding the same blob become one `R` entry at the added path (its worktree letter kept), as
 * `diffSummary` pairs them with `renames`; the old path stays only as untracked when a file is there again.
 */
async function withRenames(ctx: CliContext, root: string, entries: StatusEntry[]): Promise<RenamedEntry[]> {
  const deleted = new Map(entries.filter((e) => e.index === "D").map((e) => [e.path, e]));
  const added = new Map(entries.filter((e) => e.index === "A").map((e) => [e.path, e]));
  if (deleted.size === 0 || added.size === 0) return entries;
  const summary = await ctx.client.diffSummary({ dir: root, cached: true, renames: true, paths: [...deleted.keys(), ...added.keys()] });
  const pairs = new Map<string, string>();
  for (const e of summary) if (e.from !== undefined && deleted.has(e.from) && added.has(e.path)) pairs.set(e.path, e.from);
  if (pairs.size === 0) return entries;
  const gone = new Set(pairs.values());
  const out: RenamedEntry[] = [];
  for (const e of entries) {
    const from = pairs.get(e.path);
    if (from !== undefined && e.index === "A") out.push({ ...e, index: "R", from });
    else if (gone.has(e.path) && e.index === "D") {
      if (e.worktree !== " ") out.push({ path: e.path, index: " ", worktree: e.worktree });
    } else out.push(e);
  }
  return out;
}

/** The current branch's upstream (`branch.<b>.remote`/`merge` in `.git/config`) and how far apart they are. */
interface Upstream {
  /** `origin/main`. */
  name: string;
  /** The upstream ref no longer exists. */
  gone: boolean;
  ahead: number;
  behind: number;
}

/**
 * The upstream `branch.<branch>.remote`/`merge` name (git's branch_get_upstream): `name` as printed (`origin/main`,
 * `main` for the remote `.`) and the full `ref` (`refs/remotes/origin/main`, `refs/heads/main`); `undefined` when none
 * is set.
 */
async function upstreamRef(ctx: CliContext, root: string, branch: string): Promise<{ name: string; ref: string } | undefined> {
  const get = async (path: string): Promise<string | undefined> => {
    const value = await ctx.client.configGet({ dir: root, path }).catch(() => undefined);
    return typeof value === "string" ? value : Array.isArray(value) ? value[value.length - 1] : undefined;
  };
  const [remoteName, merge] = await Promise.all([get(`branch.${branch}.remote`), get(`branch.${branch}.merge`)]);
  if (remoteName === undefined || merge === undefined || !merge.startsWith("refs/heads/")) return undefined;
  const short = merge.slice("refs/heads/".length);
  return remoteName === "." ? { name: short, ref: merge } : { name: `${remoteName}/${short}`, ref: `refs/remotes/${remoteName}/${short}` };
}

async function upstreamOf(ctx: CliContext, root: string, branch: string | undefined, tip?: string): Promise<Upstream | undefined> {
  if (branch === undefined) return undefined;
  const configured = await upstreamRef(ctx, root, branch);
  if (configured === undefined) return undefined;
  const { name, ref } = configured;
  const theirs = await resolves(ctx, root, ref);
  if (theirs === undefined) return { name, gone: true, ahead: 0, behind: 0 };
  const ours = tip ?? (await resolves(ctx, root, "HEAD"));
  if (ours === undefined || ours === theirs) return { name, gone: false, ahead: 0, behind: 0 };
  const [mine, upstream] = await Promise.all([
    ctx.client.log({ dir: root, ref: ours }),
    ctx.client.log({ dir: root, ref: theirs }),
  ]);
  const mineSet = new Set(mine.map((c) => c.oid));
  const upstreamSet = new Set(upstream.map((c) => c.oid));
  return {
    name,
    gone: false,
    ahead: mine.filter((c) => !upstreamSet.has(c.oid)).length,
    behind: upstream.filter((c) => !mineSet.has(c.oid)).length,
  };
}

/** Real git's tracking lines of the long status (without the final newline). */
export function upstreamLines(u: Upstream): string {
  const commits = (n: number) => `${n} commit${n === 1 ? "" : "s"}`;
  if (u.gone) return `Your branch is based on '${u.name}', but the upstream is gone.\n  (use "git branch --unset-upstream" to fixup)`;
  if (u.ahead === 0 && u.behind === 0) return `Your branch is up to date with '${u.name}'.`;
  if (u.behind === 0) return `Your branch is ahead of '${u.name}' by ${commits(u.ahead)}.\n  (use "git push" to publish your local commits)`;
  if (u.ahead === 0) {
    return `Your branch is behind '${u.name}' by ${commits(u.behind)}, and can be fast-forwarded.\n  (use "git pull" to update your local branch)`;
  }
  return (
    `Your branch and '${u.name}' have diverged,\nand have ${u.ahead} and ${u.behind} different commits each, respectively.\n` +
    '  (use "git pull" to merge the remote branch into yours)'
  );
}

/** The `## …` line of `status -sb`. */
function branchLine(branch: string | undefined, head: string | undefined, u: Upstream | undefined): string {
  if (branch === undefined) return "## HEAD (no branch)\n";
  if (head === undefined) return `## No commits yet on ${branch}${u ? `...${u.name}` : ""}\n`;
  if (!u) return `## ${branch}\n`;
  const marks = u.gone ? ["gone"] : [...(u.ahead ? [`ahead ${u.ahead}`] : []), ...(u.behind ? [`behind ${u.behind}`] : [])];
  return `## ${branch}...${u.name}${marks.length ? ` [${marks.join(", ")}]` : ""}\n`;
}

const status: CommandDef = {
  paths: true,
  usage: "usage: git status [-s | --porcelain[=v1|v2]] [-b] [-u<mode>] [--] [<pathspec>...]",
  spec: {
    flags: [
      { name: "short", short: "s" },
      { name: "porcelain", value: "optional" },
      { name: "branch", short: "b" },
      { name: "long" },
      { name: "untracked-files", short: "u", value: "optional" },
    ],
  },
  async run(ctx) {
    const root = await ctx.root();
    const porcelainFlag = ctx.args.flags.get("porcelain");
    let format: "long" | "short" | "v1" | "v2" = "long";
    if (ctx.bool("short")) format = "short";
    if (porcelainFlag !== undefined && porcelainFlag !== false) {
      if (porcelainFlag === true || porcelainFlag === "v2" || porcelainFlag === "2") format = "v2";
      else if (porcelainFlag === "v1" || porcelainFlag === "1") format = "v1";
      else throw new CliUsageError(`unsupported porcelain version '${porcelainFlag}'`);
    }
    if (ctx.bool("long")) format = "long";
    const u = ctx.args.flags.get("untracked-files");
    const untracked = u === undefined || u === true ? (u === true ? "all" : "normal") : u;
    if (untracked !== "no" && untracked !== "normal" && untracked !== "all") {
      throw new CliUsageError(`invalid untracked files mode '${untracked}'`);
    }
    const paths = allPaths(ctx, 0);
    const rel = paths.length > 0 ? await ctx.pathspecs(paths) : undefined;
    const all = await ctx.client.status({ dir: root, ...(rel && !rel.includes(".") ? { paths: rel } : {}) });
    // The client matches `x/` as `x`; a directory form matches no file `x` (as real git).
    const matched = rel?.some((p) => p.endsWith("/")) ? all.filter((e) => rel.some((p) => specMatches(e.path, p))) : all;
    // `--porcelain` (v2 here, spec 04 §2.5: `1 XY p`) keeps a rename as its delete and add.
    const entries = format === "v2" ? matched : await withRenames(ctx, root, matched);
    const lines = await statusLines(ctx, root, entries, { porcelain: format === "v1" || format === "v2", untracked, ...(rel ? { specs: rel } : {}) });
    const branch = await ctx.client.currentBranch({ dir: root });
    const head = await resolves(ctx, root, "HEAD");
    const wantsBranch = format === "long" || (ctx.bool("branch") === true && format !== "v2");
    const upstream = wantsBranch && head !== undefined ? await upstreamOf(ctx, root, branch) : undefined;
    const fully = await ctx.quoteFully();
    if (format === "long") {
      ctx.out(
        formatStatusLong(
          {
            branch,
            noCommits: head === undefined,
            ...(head && branch === undefined ? { detachedAt: shortOid(head) } : {}),
            ...(upstream ? { upstream: upstreamLines(upstream) } : {}),
          },
          lines,
          fully,
        ),
      );
      return 0;
    }
    if (wantsBranch) ctx.out(branchLine(branch, head, upstream));
    ctx.out(format === "short" ? formatStatusShort(lines, fully) : format === "v1" ? formatStatusPorcelainV1(lines, fully) : formatStatusPorcelainV2(lines, fully));
    return 0;
  },
};

const init: CommandDef = {
  usage: "usage: git init [-q] [-b <branch-name> | --initial-branch=<branch-name>] [--bare] [<directory>]",
  spec: { flags: [{ name: "initial-branch", short: "b", value: "required" }, { name: "bare" }, QUIET] },
  async run(ctx) {
    noExtra(ctx.args.positionals, 1);
    const dir = normalizePath(ctx.args.positionals[0] ?? ".", ctx.cwd);
    const branch = ctx.str("initial-branch");
    const bare = ctx.bool("bare") === true;
    await ctx.client.init({ dir, bare, ...(branch !== undefined ? { defaultBranch: branch } : {}) });
    if (!ctx.bool("quiet")) {
      ctx.out(`Initialized empty Git repository in ${bare ? (dir === "/" ? "/" : dir + "/") : dir === "/" ? "/.git/" : dir + "/.git/"}\n`);
    }
    return 0;
  },
};

const clone: CommandDef = {
  usage: "usage: git clone [--depth <n>] [-b <branch>] [--[no-]single-branch] [--[no-]tags] <repo> [<dir>]",
  spec: {
    flags: [
      { name: "depth", value: "required" },
      { name: "branch", short: "b", value: "required" },
      { name: "single-branch", negatable: true },
      { name: "tags", negatable: true },
      QUIET,
    ],
  },
  async run(ctx) {
    noExtra(ctx.args.positionals, 2);
    const url = need(ctx.args.positionals[0], "repository URL: git clone <url> [<dir>]");
    checkTransport(url);
    const depthFlag = ctx.str("depth");
    const depth = depthFlag === undefined ? 0 : nonNegativeInt(depthFlag, "--depth");
    let name = ctx.args.positionals[1];
    if (name === undefined) {
      const [, ...path] = url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "").replace(/[?#].*$/, "").split("/");
      name = (path.filter((s) => s !== "").pop() ?? "").replace(/\.git$/, "");
      if (name === "" || name === "." || name === "..") {
        throw new CliUsageError(`cannot derive a directory name from '${url}'; give one: git clone <url> <dir>`);
      }
    }
    const dir = normalizePath(name, ctx.cwd);
    const branch = ctx.str("branch");
    const single = ctx.bool("single-branch");
    const before = ctx.stderr;
    if (!ctx.bool("quiet")) ctx.err(`Cloning into '${name}'...\n`);
    // As real git, a destination that exists and is not an empty directory is refused (128) before anything is
    // written; the client's clone checks it (its own API checks out over such files), see CLONE_INTO_EMPTY.
    const notEmpty = `destination path '${name}' already exists and is not an empty directory.`;
    const options = {
      url,
      dir,
      ...(branch !== undefined ? { ref: branch } : {}),
      ...(depth > 0 ? { depth } : {}),
      singleBranch: single ?? depth > 0,
      noTags: ctx.bool("tags") === false,
      [CLONE_INTO_EMPTY]: name,
    };
    try {
      await ctx.client.clone(options);
    } catch (error) {
      // -b naming no branch of an empty remote is git's die() too: 128 (run 37, fixer GE).
      const missing = branch !== undefined ? `Remote branch ${branch} not found in upstream origin` : undefined; // fixer GE
      const known = [notEmpty, missing].find((m) => m !== undefined && error instanceof GitError && error.code === "ECLONEFAIL" && error.message === `git clone failed: ${m}`); // fixer GE
      if (known === undefined) throw error; // fixer GE
      ctx.stderr = `${before}git clone: ${known}\n`; // fixer GE
      return 128;
    }
    // An empty remote leaves an unborn HEAD; git says so, even with -q (builtin/clone.c; run 37, fixer GE).
    if ((await ctx.client.revParse({ dir, ref: "HEAD" }).catch(() => undefined)) === undefined) {
      ctx.err("warning: You appear to have cloned an empty repository.\n");
    }
    return 0;
  },
};

const add: CommandDef = {
  paths: true,
  usage: "usage: git add [-A | -u] [-f] [--] <pathspec>...",
  spec: { flags: [{ name: "all", short: "A" }, { name: "force", short: "f" }, { name: "update", short: "u" }, { name: "verbose", short: "v" }] },
  async run(ctx) {
    const root = await ctx.root();
    const specs = allPaths(ctx, 0);
    const all = ctx.bool("all") === true;
    const update = ctx.bool("update") === true;
    if (specs.length === 0 && !all && !update) {
      throw new CliUsageError("nothing specified, nothing added (maybe you wanted to say 'git add .'?)");
    }
    // A trailing "/" is kept (ctx.pathspec): real git refuses `link/` ("beyond a symbolic link") but stages `link` itself.
    const paths = specs.length > 0 ? await ctx.pathspecs(specs) : ["."];
    const dirs = paths.filter((p) => p.endsWith("/"));
    if (dirs.length > 0) {
      // The client stages a file `x` for `x/`; real git matches it to nothing (128). Known files: the index and what
      // status lists there (an ignored file `x` under `-f` is not seen, and is staged). A link `x` is left to the
      // client (`beyond a symbolic link`, as real git).
      const known = new Set([...(await ctx.client.lsFiles({ dir: root })), ...(await ctx.client.status({ dir: root, paths: dirs })).map((e) => e.path)]);
      for (const [i, p] of paths.entries()) {
        if (p.endsWith("/") && known.has(p.slice(0, -1)) && !(await ctx.viaLink(p.slice(0, -1)))) throw new PathspecNotFoundError(specs[i]!);
      }
    }
    const embedded: string[] = []; // GE
    try {
      await ctx.client.add({
        dir: root,
        paths,
        ...(all ? { all: true } : {}),
        ...(update ? { trackedOnly: true } : {}),
        ...(ctx.bool("force") ? { force: true } : {}),
        ...({ [ADD_EMBEDDED]: embedded } as object), // GE
      });
    } catch (error) {
      if (error instanceof GitError && error.code === "EADDFAIL" && error.message.endsWith("does not have a commit checked out")) { // GE
        ctx.err(`error: ${error.message}\n`); // GE
        throw new CliFatalError("adding files failed", { cause: error }); // GE
      } // GE
      // The client names the pathspec it was given (repository-relative); real git names it as typed (`./x/`, `x/.`).
      const at = error instanceof GitError && error.code === "EPATHSPEC" && specs.length > 0 ? paths.findIndex((p) => error.message.includes(`'${p}'`)) : -1;
      if (at >= 0) throw new GitError("EPATHSPEC", (error as GitError).message.replace(`'${paths[at]}'`, `'${specs[at]}'`), { cause: error });
      throw error;
    }
    // git's add.c check_embedded_repo: a warning per nested repository staged, the advice once (advice.addEmbeddedRepo). // GE
    for (const [i, path] of embedded.entries()) { // GE
      const shown = path; // repository-relative, as git (add.c names dir entries from the top) // GE
      ctx.err(`warning: adding embedded git repository: ${shown}\n`); // GE
      if (i === 0 && !(await adviceOff(ctx, root, "advice.addEmbeddedRepo"))) ctx.err(EMBEDDED_ADVICE.replaceAll("<path>", shown)); // GE
    } // GE
    return 0;
  },
};

/** ops/repo.ts `ADD_EMBEDDED`, by name: the client's add pushes the nested repositories it staged as gitlinks. */ // GE
const ADD_EMBEDDED = Symbol.for("agent-computer.git.addEmbedded"); // GE

/** git 2.39.5's advice after `warning: adding embedded git repository: <path>` (add.c embedded_advice). */ // GE
const EMBEDDED_ADVICE = // GE
  "hint: You've added another git repository inside your current repository.\n" + // GE
  "hint: Clones of the outer repository will not contain the contents of\n" + // GE
  "hint: the embedded repository and will not know how to obtain it.\n" + // GE
  "hint: If you meant to add a submodule, use:\n" + // GE
  "hint: \n" + // GE
  "hint: \tgit submodule add <url> <path>\n" + // GE
  "hint: \n" + // GE
  "hint: If you added this path by mistake, you can remove it from the\n" + // GE
  "hint: index with:\n" + // GE
  "hint: \n" + // GE
  "hint: \tgit rm --cached <path>\n" + // GE
  "hint: \n" + // GE
  'hint: See "git help submodule" for more information.\n'; // GE

/** Whether git config `key` (an `advice.*` switch, default on) is set false. */ // GE
async function adviceOff(ctx: CliContext, root: string, key: string): Promise<boolean> { // GE
  const value = await ctx.client.configGet({ dir: root, path: key }).catch(() => undefined); // GE
  const last = String(Array.isArray(value) ? value[value.length - 1] : (value ?? "true")).toLowerCase(); // GE
  return ["false", "no", "off", "0"].includes(last); // GE
} // GE

/** ops/repo.ts `RM_WORKTREE`, by name: the client's rm removes the files from the working tree too (`git rm`). */ // GB
const RM_WORKTREE = Symbol.for("agent-computer.git.rmWorktree"); // GB
/** ops/worktree.ts `CLEAN_FAILURES`, by name: the client's clean pushes the paths it could not remove (run 36, fixer GR). */
const CLEAN_FAILURES = Symbol.for("agent-computer.git.cleanFailures"); // fixer GR

const rm: CommandDef = {
  paths: true,
  usage: "usage: git rm [--cached] [-f] [-r] [-n] [-q] [--] <pathspec>...", // GB
  spec: { flags: [{ name: "cached" }, { name: "recursive", short: "r" }, { name: "force", short: "f" }, { name: "dry-run", short: "n" }, QUIET] }, // GB
  async run(ctx) {
    const root = await ctx.root();
    const specs = allPaths(ctx, 0);
    if (specs.length === 0) throw new CliUsageError("missing pathspec: git rm [--cached] <path>...");
    const paths = await ctx.pathspecs(specs);
    const indexed = await ctx.client.lsFiles({ dir: root });
    if (paths.some((p) => p.endsWith("/"))) assertDirSpecs(specs, paths, indexed);
    // Nothing is removed before git's refusals below are checked. // GB
    // As real git: each index entry removed (`rm 'sub/c.txt'` for `sub` or `*.txt`), in index order; a glob naming an
    // entry exactly removes only that one (git's literal-first rule, as the client's rm).
    const names = new Set(indexed);
    const exact = paths.map((p) => literalFirst(p, (n) => names.has(n)));
    const cached = ctx.bool("cached") === true; // GB
    // As git 2.39's builtin/rm.c, in pathspec order: one matching nothing dies (128), and without -r one matching only // GB
    // the entries below a directory (not an entry itself, nor a glob) dies `not removing '<p>' recursively without -r`. // GB
    for (let i = 0; i < exact.length; i++) { // GB
      const spec = exact[i]!; // GB
      if (!indexed.some((f) => specMatches(f, spec))) throw new PathspecNotFoundError(specs[i]!); // GB
      if (ctx.bool("recursive") !== true && !names.has(paths[i]!) && !/[*?[\\]/.test(paths[i]!)) throw new CliFatalError(`not removing '${specs[i]}' recursively without -r`); // GB
    } // GB
    const matched = indexed.filter((f) => exact.some((p) => specMatches(f, p))); // GB
    if (ctx.bool("force") !== true && (await refusedRm(ctx, root, matched, cached))) return 1; // GB
    // git prints every `rm '<path>'` line before it unlinks; a file it cannot remove then dies 128 (run 36, fixer GR).
    let failed: { path: string; reason: string } | undefined; // fixer GR
    try { // fixer GR
      if (ctx.bool("dry-run") !== true) await ctx.client.rm({ dir: root, paths, ...(cached ? {} : { [RM_WORKTREE]: true }) }); // fixer GR
    } catch (error) { // fixer GR
      if (!(error instanceof GitError && error.code === "ERMFAIL" && typeof (error as { path?: unknown }).path === "string")) throw error; // fixer GR
      failed = error as unknown as { path: string; reason: string }; // fixer GR
    } // fixer GR
    if (!ctx.bool("quiet")) for (const f of matched) ctx.out(`rm '${f}'\n`); // GB
    if (failed !== undefined) { // fixer GR
      ctx.err(`fatal: git rm: '${failed.path}': ${failed.reason}\n`); // fixer GR: builtin/rm.c die_errno, the index untouched
      return 128; // fixer GR
    } // fixer GR
    return 0;
  },
};

/** // GB
 * git 2.39's check_local_mod (builtin/rm.c) without -f: a file whose working-tree copy differs from the index // GB
 * (`local modifications`) or whose index entry differs from HEAD (`changes staged in the index`) is kept, and with // GB
 * both (`staged content different from both the file and the HEAD`, also with --cached); a file gone from the working // GB
 * tree is never refused. Prints git's `error:` lists and returns `true` (exit 1, nothing removed) when any is refused. // GB
 */ // GB
async function refusedRm(ctx: CliContext, root: string, matched: readonly string[], cached: boolean): Promise<boolean> { // GB
  const wanted = new Set(matched); // GB
  const both: string[] = []; // GB
  const staged: string[] = []; // GB
  const local: string[] = []; // GB
  for (const entry of await ctx.client.status({ dir: root })) { // GB
    if (!wanted.has(entry.path) || entry.worktree === "D" || entry.worktree === "?") continue; // GB
    const stagedChange = entry.index !== " "; // GB
    const localChange = entry.worktree !== " "; // GB
    if (stagedChange && localChange) both.push(entry.path); // GB
    else if (!cached && stagedChange) staged.push(entry.path); // GB
    else if (!cached && localChange) local.push(entry.path); // GB
  } // GB
  const hint = "\n(use --cached to keep the file, or -f to force removal)"; // GB (git prints the hints with -q too)
  const list = (files: string[], one: string, many: string, tail: string) => { // GB
    if (files.length > 0) ctx.err(`error: ${files.length === 1 ? one : many}${files.map((f) => `\n    ${f}`).join("")}${tail}\n`); // GB
  }; // GB
  list(both, "the following file has staged content different from both the\nfile and the HEAD:", "the following files have staged content different\nfrom both the file and the HEAD:", "\n(use -f to force removal)"); // GB
  list(staged, "the following file has changes staged in the index:", "the following files have changes staged in the index:", hint); // GB
  list(local, "the following file has local modifications:", "the following files have local modifications:", hint); // GB
  return both.length + staged.length + local.length > 0; // GB
} // GB

const commit: CommandDef = {
  usage: 'usage: git commit [-a] [--amend [--no-edit]] [--author "Name <email>"] [--allow-empty] -m <msg>',
  spec: {
    flags: [
      { name: "message", short: "m", value: "required", multiple: true, bytes: "latin1" },
      { name: "all", short: "a" },
      { name: "amend" },
      { name: "author", value: "required", bytes: "latin1" },
      { name: "allow-empty" },
      { name: "no-edit" },
      QUIET,
    ],
  },
  async run(ctx) {
    noExtra(allPaths(ctx, 0), 0);
    const root = await ctx.root();
    const messages = ctx.args.lists.get("message");
    const amend = ctx.bool("amend") === true;
    let message = messages?.join("\n\n");
    if (message === undefined) {
      if (!amend) throw new CliUsageError("option '-m' is required (there is no editor in the Workspace)");
      message = (await ctx.client.show({ dir: root, ref: "HEAD" })).message;
    }
    // -a: the commit stages the tracked changes itself, writing the index after the branch (as real git).
    const all = ctx.bool("all") === true;
    if (!amend && !ctx.bool("allow-empty")) {
      const entries = await ctx.client.status({ dir: root });
      const staged = (e: StatusEntry) => e.index !== " " && e.worktree !== "?";
      if (!entries.some((e) => staged(e) || (all && e.worktree !== " " && e.worktree !== "?"))) {
        await status.run(ctx);
        return 1;
      }
    }
    const authorFlag = ctx.str("author");
    const explicit = authorFlag !== undefined ? parseAuthor(authorFlag) : undefined;
    const { oid } = await ctx.client.commit({ dir: root, message, amend, ...(all ? { all } : {}), env: ctx.env, ...withDates(ctx, explicit) });
    ctx.warnLatin1(["message", "author"]);
    if (!ctx.bool("quiet")) ctx.out(`[${shortOid(oid)}] ${splitMessage(message).subject}\n`);
    return 0;
  },
};

function logStyle(ctx: CliContext, fallback: LogStyle): LogStyle {
  let style = fallback;
  const pretty = ctx.args.flags.get("pretty");
  if (pretty !== undefined) {
    const parsed = parsePretty(pretty === true ? "medium" : String(pretty));
    if (!parsed) throw new CliUsageError(`invalid --pretty format: ${String(pretty)}`);
    style = parsed;
  }
  const format = ctx.str("format");
  if (format !== undefined) {
    const parsed = parsePretty(format);
    if (!parsed) throw new CliUsageError(`invalid --format format: ${format}`);
    style = parsed;
  }
  if (style.kind === "format" || style.kind === "tformat") {
    try {
      checkFormat(style.format);
    } catch (error) {
      if (error instanceof UnsupportedPlaceholderError) throw new CliUsageError(error.message);
      throw error;
    }
  }
  if (ctx.bool("oneline")) style = { kind: "oneline" };
  const date = ctx.str("date");
  if (date !== undefined && date !== "iso" && date !== "iso8601") {
    throw new CliUsageError(`unsupported --date format '${date}' (dates are printed as iso: YYYY-MM-DD HH:MM:SS ±HHMM)`);
  }
  return style;
}

/**
 * `style` with what its format needs besides the commits: `%S` the revision as typed (`source`), and for `%d`/`%D`
 * the names decorating each commit as git 2.39's default decoration (HEAD, branches, remote-tracking refs, tags —
 * annotated ones on the commit they tag — and `refs/stash`): `HEAD -> <branch>` (or `HEAD` when detached) first,
 * then the other refs by full name in descending byte order, `tag: ` before a tag.
 */
async function withExtras(ctx: CliContext, root: string, style: LogStyle, source: string): Promise<LogStyle> {
  if (style.kind !== "format" && style.kind !== "tformat") return style;
  if (!formatDecorates(style.format)) return { ...style, extras: { source } };
  const refs: { full: string; name: string }[] = [];
  for (const b of await ctx.client.branchList({ dir: root })) refs.push({ full: `refs/heads/${b}`, name: b });
  for (const r of await ctx.client.remoteList({ dir: root })) {
    const names = new Set(await ctx.client.branchList({ dir: root, remote: r.name }));
    if ((await resolves(ctx, root, `refs/remotes/${r.name}/HEAD`)) !== undefined) names.add("HEAD"); // a symbolic ref the listing leaves out
    for (const b of names) refs.push({ full: `refs/remotes/${r.name}/${b}`, name: `${r.name}/${b}` });
  }
  for (const t of await ctx.client.tagList({ dir: root })) refs.push({ full: `refs/tags/${t}`, name: `tag: ${t}` });
  refs.push({ full: "refs/stash", name: "refs/stash" });
  refs.sort((a, b) => byteOrder(b.full, a.full));
  const names = new Map<string, string[]>();
  const add = (oid: string | undefined, name: string) => {
    if (oid !== undefined) names.set(oid, [...(names.get(oid) ?? []), name]);
  };
  const head = await resolves(ctx, root, "HEAD");
  const current = head === undefined ? undefined : await ctx.client.currentBranch({ dir: root });
  const currentAtHead = current !== undefined && (await resolves(ctx, root, `refs/heads/${current}`)) === head;
  add(head, currentAtHead ? `HEAD -> ${current}` : "HEAD");
  for (const ref of refs) {
    if (currentAtHead && ref.full === `refs/heads/${current}`) continue;
    add(await resolves(ctx, root, `${ref.full}^{}`), ref.name);
  }
  return { ...style, extras: { source, decorations: new Map([...names].map(([oid, list]) => [oid, list.join(", ")])) } };
}

const LOG_FLAGS = [
  { name: "max-count", short: "n", value: "required" },
  { name: "oneline" },
  { name: "format", value: "required", bytes: "keep" },
  { name: "pretty", value: "optional", bytes: "keep" },
  { name: "date", value: "required" },
] as const;

const log: CommandDef = {
  usage: "usage: git log [-n <n> | -<n>] [--oneline | --format=<fmt> | --pretty=<fmt>] [<ref>]",
  spec: { flags: [...LOG_FLAGS], numericFlag: "max-count" },
  async run(ctx) {
    noExtra(ctx.args.positionals, 1);
    const root = await ctx.root();
    const style = logStyle(ctx, { kind: "medium" });
    const n = ctx.str("max-count");
    const depth = n === undefined ? undefined : nonNegativeInt(n, "-n");
    const ref = ctx.args.positionals[0];
    if (ref === undefined && (await resolves(ctx, root, "HEAD")) === undefined) {
      const branch = await ctx.client.currentBranch({ dir: root });
      throw new CliFatalError(`your current branch '${branch ?? "HEAD"}' does not have any commits yet`);
    }
    if (depth === 0) return 0;
    const commits = await fatalOn(ctx.client.log({ dir: root, ...(ref !== undefined ? { ref } : {}), ...(depth !== undefined ? { depth } : {}) }), unknownRevision);
    ctx.out(formatLog(depth !== undefined ? commits.slice(0, depth) : commits, await withExtras(ctx, root, style, ref ?? "HEAD")));
    return 0;
  },
};

const show: CommandDef = {
  usage: "usage: git show [--oneline | --format=<fmt>] [-s | --stat] [<ref> | <ref>:<path>]",
  spec: { flags: [{ name: "oneline" }, { name: "format", value: "required", bytes: "keep" }, { name: "pretty", value: "optional", bytes: "keep" }, { name: "date", value: "required" }, { name: "no-patch", short: "s" }, { name: "stat" }] },
  async run(ctx) {
    noExtra(ctx.args.positionals, 1);
    const root = await ctx.root();
    const ref = ctx.args.positionals[0] ?? "HEAD";
    const style = logStyle(ctx, { kind: "medium" });
    // An object that is no commit (`HEAD:a.txt`, `HEAD:d`, `HEAD^{tree}`, a blob's oid), as git: a blob's bytes;
    // a tree's `tree <ref as typed>`, a blank line and its entry names, `/` after a directory (git's show_tree_object).
    let commit: CommitView | undefined;
    let object: CatFileResult | undefined;
    // An annotated tag, as git: its block (`tag <name>`, `Tagger:`, `Date:`, the message) for each tag down the
    // chain, then the object it tags, after a blank line (not after --oneline / a tformat) — fixer f40g1, run 40.
    const oneline = style.kind === "oneline" || (ctx.args.flags.get("pretty") === "oneline" && ctx.str("format") === undefined);
    let target = ref;
    let tagged = false;
    const objectSpec = ref.includes(":") && !ref.startsWith(":/"); // `<rev>:<path>`, `:<path>`; `:/<text>` names a commit
    for (let at = objectSpec ? undefined : await resolves(ctx, root, ref); at !== undefined; ) {
      const tag = await ctx.client.catFile({ dir: root, oid: at });
      if (tag.type !== "tag") break;
      const block = formatTagBlock(tag.bytes, oneline ? "oneline" : style.kind === "medium" ? "medium" : "format");
      ctx.out(block.text);
      target = at = block.target;
      tagged = true;
    }
    const sep = tagged && !oneline && style.kind !== "tformat" ? "\n" : "";
    if (objectSpec) object = await fatalOn(readObjectSpec(ctx, root, ref), unknownRevision);
    else {
      try {
        commit = await ctx.client.show({ dir: root, ref: target });
      } catch (error) {
        object = await readObjectSpec(ctx, root, target).catch(() => undefined);
        if (object?.type !== "blob" && object?.type !== "tree") throw fatalIf(error, unknownRevision);
      }
    }
    if (object?.type === "tree") {
      ctx.out(sep + formatTreeNames(ref, await ctx.client.lsTree({ dir: root, ref: object.oid })));
      return 0;
    }
    if (commit === undefined) {
      // The blob's bytes as real git writes them: a byte that is not UTF-8 comes as U+DC00 + byte (surrogateescape).
      ctx.out(utf8EscapeDecode(object!.bytes));
      return 0;
    }
    // As git's log-tree.c: the commit as formatted (`format:` without a terminator), then — when a diff or stat
    // follows — a blank line (none after `--oneline` or an empty format), then the diff or stat. A merge shows its
    // stat against the first parent and its combined diff (empty for a clean merge: only the blank line), the blank
    // line after `--oneline` too (combine-diff.c).
    ctx.out(sep + formatLog([commit], await withExtras(ctx, root, style, ref)));
    if (ctx.bool("no-patch")) return 0;
    const emptyFormat = (style.kind === "format" || style.kind === "tformat") && style.format === "";
    const merge = commit.parent.length > 1;
    const from = commit.parent[0] ?? EMPTY_TREE;
    let body = "";
    if (ctx.bool("stat")) body = formatStat(await ctx.client.diffSummary({ dir: root, ref: from, to: commit.oid, renames: true }), 80, await ctx.quoteFully());
    else if (!merge) {
      await ctx.quoteFully(); // a bad core.quotePath dies as git does (exit 128) before the patch is made
      body = await ctx.client.diff({ dir: root, ref: from, to: commit.oid, renames: true });
    }
    // `--pretty=oneline` is git's CMIT_FMT_ONELINE too (here the format `%H %s`): no blank line before a diff (`oneline`).
    if (merge || body !== "") ctx.out((emptyFormat || (oneline && !merge) ? "" : "\n") + body);
    return 0;
  },
};

/** The oid of the empty tree (the old side of a root commit's diff). */
export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

const diff: CommandDef = {
  paths: true,
  usage:
    "usage: git diff [--stat | --name-only | --name-status | --numstat] [--exit-code | --quiet] [--cached | --staged] [<ref> [<ref>]] [--] [<path>...]\n" +
    "   (no ref: the index against the working tree · <ref>: against the working tree · --cached [<ref>]: <ref> (default HEAD) against the index · <ref> <ref>: two commits)",
  spec: {
    flags: [
      { name: "name-only" },
      { name: "name-status" },
      { name: "numstat" },
      { name: "stat" },
      { name: "cached" },
      { name: "staged" },
      { name: "exit-code" },
      { name: "quiet" },
    ],
  },
  async run(ctx) {
    const root = await ctx.root();
    const cached = ctx.bool("cached") || ctx.bool("staged");
    const refs: string[] = [];
    const specs = [...(ctx.args.afterDashDash ?? [])];
    // Without `--`, as real git: leading arguments that resolve are revisions; from the first that
    // does not, every argument must name a path in the working tree (or be a glob), else exit 128 —
    // a misspelled branch is never taken for a pathspec matching nothing ("no differences").
    let pathSeen = false;
    for (const [i, p] of ctx.args.positionals.entries()) {
      if (ctx.args.afterDashDash !== undefined) {
        if (i < 2) refs.push(p);
        else specs.push(p);
      } else if (!pathSeen && refs.length < 2 && (await resolves(ctx, root, p)) !== undefined) {
        refs.push(p);
      } else {
        if (!(await inWorktree(ctx, root, p))) {
          throw new GitError(
            "EPATHSPEC",
            pathSeen
              ? `${p}: no such path in the working tree.\nUse 'git <command> -- <path>...' to specify paths that do not exist locally.`
              : ambiguousArgument(p),
          );
        }
        pathSeen = true;
        specs.push(p);
      }
    }
    noExtra(refs, 2);
    if (cached && refs.length > 1) throw new CliUsageError(`--cached compares one <ref> with the index: unexpected argument '${refs[1]}'`);
    // `git diff <blob> <blob>` (fixer f40g1, run 40); a blob used any other way is git's usage error (129).
    const blobs = await Promise.all(refs.map(async (r) => (await ctx.client.catFile({ dir: root, oid: r }).catch(() => undefined))?.type === "blob"));
    if (blobs.includes(true) && (refs.length !== 2 || cached || specs.length > 0 || blobs.includes(false))) {
      throw new CliUsageError(`'${refs[blobs.indexOf(true)]}': a blob is compared only with another blob, with no paths and no --cached (git diff <blob> <blob>)`);
    }
    const paths = specs.length > 0 ? await ctx.pathspecs(specs) : undefined;
    const options = {
      dir: root,
      renames: true, // git's diff.renames (exact renames only)
      ...(refs[0] !== undefined ? { ref: refs[0] } : {}),
      ...(refs[1] !== undefined ? { to: refs[1] } : {}),
      ...(cached ? { cached: true } : refs.length === 0 ? { fromIndex: true } : {}),
      ...(paths && !paths.includes(".") ? { paths } : {}),
    };
    // A revision written before `--` that names nothing is fatal in real git (128), as without `--`.
    // A directory form (`x/`) matches only below a directory `x`, as in git; the client also matches a file `x`, so
    // the paths that changed are listed first and only those below such a spec kept (none: nothing to show).
    let only: string[] | undefined;
    if (paths?.some((p) => p.endsWith("/"))) {
      only = (await fatalOn(ctx.client.diffSummary(options), unknownRevision))
        .flatMap((e) => (e.from !== undefined ? [e.from, e.path] : [e.path]))
        .filter((f) => paths.some((p) => specMatches(f, p)));
      if (only.length === 0) return 0;
      Object.assign(options, { paths: only });
    }
    // As git: `--exit-code` exits 1 when there are differences (0 when none), `--quiet` too and prints nothing.
    const exitCode = ctx.bool("exit-code") === true || ctx.bool("quiet") === true;
    const changed = (any: boolean) => (exitCode && any ? 1 : 0);
    if (ctx.bool("quiet")) return changed((await fatalOn(ctx.client.diffSummary(options), unknownRevision)).length > 0);
    if (ctx.bool("stat")) {
      const summary = await fatalOn(ctx.client.diffSummary(options), unknownRevision);
      ctx.out(formatStat(summary, 80, await ctx.quoteFully()));
      return changed(summary.length > 0);
    }
    if (ctx.bool("name-only") || ctx.bool("name-status") || ctx.bool("numstat")) {
      const summary = await fatalOn(ctx.client.diffSummary(options), unknownRevision);
      const fully = await ctx.quoteFully();
      const q = (path: string) => quotePath(path, false, fully);
      for (const e of summary) {
        if (ctx.bool("numstat")) ctx.out(e.binary ? `-\t-\t${statName(e, fully)}\n` : `${e.insertions}\t${e.deletions}\t${statName(e, fully)}\n`);
        else if (ctx.bool("name-status")) ctx.out(e.from !== undefined ? `R100\t${q(e.from)}\t${q(e.path)}\n` : `${e.status}\t${q(e.path)}\n`);
        else ctx.out(`${q(e.path)}\n`);
      }
      return changed(summary.length > 0);
    }
    await ctx.quoteFully(); // a bad core.quotePath dies as git does (exit 128) before the patch is made
    const patch = await fatalOn(ctx.client.diff(options), unknownRevision);
    ctx.out(patch);
    return changed(patch !== "");
  },
};

const revParse: CommandDef = {
  usage: "usage: git rev-parse [--abbrev-ref | --short | --verify | -q] <ref>... | --show-toplevel | --git-dir | --is-inside-work-tree",
  spec: {
    flags: [
      { name: "abbrev-ref" },
      { name: "show-toplevel" },
      { name: "short" },
      { name: "verify" },
      { name: "quiet", short: "q" },
      { name: "git-dir" },
      { name: "is-inside-work-tree" },
    ],
  },
  async run(ctx) {
    const root = await ctx.root();
    if (ctx.bool("show-toplevel")) ctx.out(`${root}\n`);
    if (ctx.bool("git-dir")) ctx.out(ctx.cwd === root ? ".git\n" : `${root === "/" ? "" : root}/.git\n`);
    if (ctx.bool("is-inside-work-tree")) ctx.out("true\n");
    const refs = ctx.args.positionals;
    if (ctx.bool("verify") && refs.length !== 1) throw new CliUsageError("--verify needs exactly one ref");
    for (const ref of refs) {
      if (ctx.bool("abbrev-ref")) {
        if (ref === "HEAD") {
          ctx.out(`${(await ctx.client.currentBranch({ dir: root })) ?? "HEAD"}\n`);
          continue;
        }
        await fatalOn(ctx.client.revParse({ dir: root, ref }), unknownRevision);
        ctx.out(`${ref.replace(/^refs\/(heads|tags|remotes)\//, "")}\n`);
        continue;
      }
      let oid: string;
      try {
        oid = await ctx.client.revParse({ dir: root, ref: await cwdRev(ctx, ref) });
      } catch (error) {
        if (ctx.bool("verify") && ctx.bool("quiet")) return 1;
        // `<rev>:<path>` naming no entry is fatal too (128), as in show and cat-file.
        throw fatalIf(error, (e) => unknownRevision(e) || noIndexEntry(e) || /path '.*' does not exist in '/s.test(e.message));
      }
      ctx.out(`${ctx.bool("short") ? shortOid(oid) : oid}\n`);
    }
    return 0;
  },
};

const symbolicRef: CommandDef = {
  usage: "usage: git symbolic-ref [-q] [--short] HEAD [<ref>]",
  spec: { flags: [{ name: "short" }, { name: "quiet", short: "q" }] },
  async run(ctx) {
    noExtra(ctx.args.positionals, 2);
    const root = await ctx.root();
    const name = ctx.args.positionals[0] ?? "HEAD";
    if (name !== "HEAD") throw new GitError("EUNSUPPORTED", `only HEAD is supported, not '${name}'`);
    const target = ctx.args.positionals[1];
    if (target !== undefined) {
      await ctx.client.updateRef({ dir: root, ref: "HEAD", value: target, symbolic: true, force: true });
      return 0;
    }
    const full = await ctx.client.currentBranch({ dir: root, fullname: true });
    if (full === undefined) {
      if (ctx.bool("quiet")) return 1;
      throw new GitError("ENOTSYMREF", "ref HEAD is not a symbolic ref");
    }
    ctx.out(`${ctx.bool("short") ? full.replace(/^refs\/heads\//, "") : full}\n`);
    return 0;
  },
};

const lsFiles: CommandDef = {
  paths: true,
  usage: "usage: git ls-files [--ref=<ref>] [--] [<path>...]",
  spec: { flags: [{ name: "ref", value: "required" }, { name: "cached", short: "c" }] },
  async run(ctx) {
    const root = await ctx.root();
    const ref = ctx.str("ref");
    const files = await ctx.client.lsFiles({ dir: root, ...(ref !== undefined ? { ref } : {}) });
    const from = await ctx.cwdInRepo();
    const specs = allPaths(ctx, 0);
    const filters = specs.length > 0 ? await ctx.pathspecs(specs) : [from === "" ? "." : from];
    const match = (f: string) => filters.some((p) => specMatches(f, p));
    const fully = await ctx.quoteFully();
    for (const f of files.filter(match)) ctx.out(`${quotePath(relativeTo(f, from), false, fully)}\n`);
    return 0;
  },
};

const lsTree: CommandDef = {
  paths: true,
  usage: "usage: git ls-tree [-d] [-r] [-t] [-z] [--name-only | --object-only] [--full-name] [--full-tree] <tree-ish> [--] [<path>...]",
  spec: {
    flags: [
      { name: "name-only" },
      { name: "name-status" },
      { name: "object-only" },
      { name: "r" },
      { name: "t" },
      { name: "d" },
      { name: "z" },
      { name: "full-name" },
      { name: "full-tree" },
    ],
  },
  /**
   * As git 2.39's builtin/ls-tree.c: the tree-ish's tree walked with the paths as literal pathspecs (no globs;
   * relative to the cwd, or to the root with `--full-tree`) — an entry is visited when it is a path, lies below
   * one, or leads to one; a tree is entered with `-r` or when a path continues below it (then shown only with `-t`);
   * `-d` shows trees only. Without a path, in a subdirectory, the cwd is the path. Names are printed relative to
   * the cwd (`--full-name`/`--full-tree`: from the root), quoted as git (not with `-z`, NUL-terminated).
   */
  async run(ctx) {
    const root = await ctx.root();
    const [ref, ...typed] = allPaths(ctx, 0);
    if (ref === undefined) throw new CliUsageError("missing tree-ish: git ls-tree <tree-ish> [<path>]");
    const fullTree = ctx.bool("full-tree") === true;
    const nameOnly = ctx.bool("name-only") === true || ctx.bool("name-status") === true;
    const objectOnly = ctx.bool("object-only") === true;
    if (nameOnly && objectOnly) throw new CliUsageError("--name-only and --object-only cannot be used together");
    const recursive = ctx.bool("r") === true;
    const treesOnly = ctx.bool("d") === true;
    const showTrees = ctx.bool("t") === true || (treesOnly && recursive); // git: "-d -r should imply -t"
    const from = fullTree ? "" : await ctx.cwdInRepo();
    const chomp = !fullTree && ctx.bool("full-name") !== true;
    let specs: string[];
    if (typed.length === 0) specs = from === "" ? [] : [`${from}/`];
    else {
      specs = [];
      for (const p of typed) {
        const rel = fullTree ? await fullTreeSpec(ctx, p) : await ctx.pathspec(p);
        specs.push(rel === "." ? "" : rel);
      }
      if (specs.includes("")) specs = [];
    }
    // As git: a tree-ish naming nothing (or no tree) is fatal, `Not a valid object name <tree-ish>`.
    const named = await cwdRev(ctx, ref);
    const tree = await ctx.client
      .revParse({ dir: root, ref: named })
      .then((oid) => ctx.client.revParse({ dir: root, ref: `${oid}^{tree}` }))
      .catch((error: unknown) => {
        const names = /unknown revision '|does not name a (tree|commit)|path '.*' does not exist in '|is ambiguous/s.test((error as Error)?.message ?? "");
        throw names ? new CliFatalError(`Not a valid object name ${ref}`, { cause: error }) : error;
      });
    const interesting = (path: string, isTree: boolean): boolean =>
      specs.length === 0 ||
      specs.some((s) => {
        const bare = s.replace(/\/$/, "");
        if (path === bare) return isTree || !s.endsWith("/");
        return path.startsWith(`${bare}/`) || (isTree && bare.startsWith(`${path}/`));
      });
    const enter = (path: string): boolean => recursive || specs.some((s) => s.length > path.length && s.startsWith(path) && s[path.length] === "/");
    const end = ctx.bool("z") ? "\0" : "\n";
    const fully = await ctx.quoteFully();
    const name = (path: string): string => {
      const shown = chomp ? relativeTo(path, from) : path;
      return ctx.bool("z") ? shown : quotePath(shown, false, fully);
    };
    const walk = async (dir: string | undefined): Promise<void> => {
      for (const e of await ctx.client.lsTree({ dir: root, ref: tree, ...(dir !== undefined ? { path: dir } : {}) })) {
        const isTree = e.type === "tree";
        if (!interesting(e.path, isTree)) continue;
        const into = isTree && enter(e.path);
        const shown = isTree ? !into || showTrees : !treesOnly || e.type === "commit";
        if (shown) ctx.out(objectOnly ? `${e.oid}${end}` : nameOnly ? `${name(e.path)}${end}` : `${e.mode} ${e.type} ${e.oid}\t${name(e.path)}${end}`);
        if (into) await walk(e.path);
      }
    };
    await walk(undefined);
    return 0;
  },
};

/** A path of `ls-tree --full-tree`: relative to the root (as git, which drops the prefix), `"."` for the root. */
async function fullTreeSpec(ctx: CliContext, spec: string): Promise<string> {
  if (spec === "" || spec.startsWith("/")) return ctx.pathspec(spec); // git's empty-pathspec refusal; an absolute path as anywhere
  const abs = normalizePath(spec, "/r");
  if (abs !== "/r" && !abs.startsWith("/r/")) throw new PathOutsideRepoError(spec, await ctx.root());
  const rel = abs.slice(3);
  return rel === "" ? "." : /\/\.?$/.test(spec) ? `${rel}/` : rel;
}

const branch: CommandDef = {
  usage: "usage: git branch [-v] [--show-current | -a | -r | [-f] <name> [<start>] | -d|-D <name>...]",
  spec: {
    flags: [
      { name: "show-current" },
      { name: "delete", short: "d" },
      { name: "D" },
      { name: "force", short: "f" },
      { name: "all", short: "a" },
      { name: "remotes", short: "r" },
      { name: "list", short: "l" },
      { name: "verbose", short: "v" },
      { name: "track", short: "t", negatable: true }, // GB
      QUIET, // GB
    ],
  },
  async run(ctx) {
    const root = await ctx.root();
    const pos = ctx.args.positionals;
    if (ctx.bool("show-current")) {
      noExtra(pos, 0);
      const current = await ctx.client.currentBranch({ dir: root });
      if (current !== undefined) ctx.out(`${current}\n`);
      return 0;
    }
    if (ctx.bool("delete") || ctx.bool("D")) {
      if (pos.length === 0) throw new CliUsageError("branch name required");
      return deleteBranches(ctx, root, pos, ctx.bool("D") === true || ctx.bool("force") === true);
    }
    if (pos.length > 0 && !ctx.bool("list")) {
      noExtra(pos, 2);
      if (refusedName(ctx, pos[0]!, "branch")) return 128;
      const force = ctx.bool("force") === true;
      // Every refusal (the name exists, the current branch with -f, an unknown start) is fatal in real git: 128.
      await fatalOn(ctx.client.branch({ dir: root, name: pos[0]!, ...(pos[1] !== undefined ? { startPoint: pos[1] } : {}), ...(force ? { force } : {}) }), (e) => e.code === "EBRANCHFAIL");
      await setupTracking(ctx, root, pos[0]!, pos[1] ?? "HEAD"); // GB
      return 0;
    }
    const current = await ctx.client.currentBranch({ dir: root });
    const lines: string[] = [];
    if (!ctx.bool("remotes")) {
      const rows: { marker: string; label: string; ref: string; branch?: string }[] = [];
      if (current === undefined) {
        const head = await resolves(ctx, root, "HEAD");
        if (head !== undefined) rows.push({ marker: "* ", label: `(HEAD detached at ${shortOid(head)})`, ref: head });
      }
      const names = [...(await ctx.client.branchList({ dir: root }))].sort(byteOrder);
      for (const name of names) rows.push({ marker: name === current ? "* " : "  ", label: name, ref: `refs/heads/${name}`, branch: name });
      if (ctx.bool("verbose")) {
        // `-v`: `<name> <oid7> [ahead N, behind M] <subject>`, names padded to the longest
        const width = Math.max(0, ...rows.map((r) => r.label.length));
        for (const row of rows) {
          const commit = await ctx.client.show({ dir: root, ref: row.ref });
          const u = row.branch !== undefined ? await upstreamOf(ctx, root, row.branch, commit.oid) : undefined;
          const marks = u ? (u.gone ? ["gone"] : [...(u.ahead ? [`ahead ${u.ahead}`] : []), ...(u.behind ? [`behind ${u.behind}`] : [])]) : [];
          const track = marks.length ? `[${marks.join(", ")}] ` : "";
          lines.push(`${row.marker}${row.label.padEnd(width)} ${shortOid(commit.oid)} ${track}${splitMessage(commit.message).subject}`);
        }
      } else {
        for (const row of rows) lines.push(`${row.marker}${row.label}`);
      }
    }
    if (ctx.bool("remotes") || ctx.bool("all")) {
      const remotes = await ctx.client.remoteList({ dir: root });
      const names: string[] = [];
      for (const remote of remotes) {
        for (const name of await ctx.client.branchList({ dir: root, remote: remote.name })) {
          names.push(`${ctx.bool("all") ? "remotes/" : ""}${remote.name}/${name}`);
        }
      }
      for (const name of names.sort(byteOrder)) lines.push(`  ${name}`);
    }
    for (const line of lines) ctx.out(`${line}\n`);
    return 0;
  },
};

/**
 * As real git, a branch or tag name that check-ref-format refuses is refused before anything else, with exit 128
 * (`fatal: '<name>' is not a valid branch name`): `git <sub>: '<name>' is not a valid <kind> name` is printed and
 * `true` returned. (Before issue 20's twenty-third attack run such a name exited 1.)
 */
function refusedName(ctx: CliContext, name: string, kind: "branch" | "tag"): boolean {
  if (isValidRefName(name)) return false;
  ctx.err(`git ${ctx.sub}: '${name}' is not a valid ${kind} name\n`);
  return true;
}

/**
 * `git branch -d|-D <name>...`, as real git: each name in turn, a failure printed (`git branch: …`) and the next one
 * tried; exit 1 when any failed. Without `force` (`-D`, or `-d -f`) a branch whose tip is not merged — an ancestor of
 * (or equal to) its upstream's tip when it has one that resolves, else of HEAD (none while HEAD is unborn) — is kept:
 * `The branch '<name>' is not fully merged.` and the `git branch -D` hint, as git 2.39's branch_merged. When HEAD
 * disagrees with the upstream git's warning says so (and the upstream decides). The checked-out branch is left to
 * the client (`cannot delete branch … checked out at …`).
 */
async function deleteBranches(ctx: CliContext, root: string, names: readonly string[], force: boolean): Promise<number> {
  const histories = new Map<string, Promise<Set<string>>>();
  /** Whether `oid` is `tip` or one of its ancestors (the commits `log` walks from `tip`). */
  const reaches = (tip: string, oid: string): Promise<boolean> => {
    let history = histories.get(tip);
    if (history === undefined) {
      history = ctx.client.log({ dir: root, ref: tip }).then(
        (commits) => new Set(commits.map((c) => c.oid)),
        () => new Set<string>(), // not a commit (an upstream ref at a tree): merged into nothing
      );
      histories.set(tip, history);
    }
    return history.then((set) => set.has(oid));
  };
  const head = force ? undefined : await resolves(ctx, root, "HEAD");
  const current = await ctx.client.currentBranch({ dir: root });
  let status = 0;
  for (const name of names) {
    const oid = isValidRefName(name) ? await resolves(ctx, root, `refs/heads/${name}`) : undefined;
    if (oid === undefined) {
      ctx.err(`git branch: branch '${name}' not found\n`);
      status = 1;
      continue;
    }
    if (!force && name !== current) {
      const upstream = await upstreamRef(ctx, root, name);
      const upstreamTip = upstream === undefined ? undefined : await resolves(ctx, root, upstream.ref);
      const reference = upstreamTip ?? head;
      const merged = reference !== undefined && (await reaches(reference, oid));
      if (upstreamTip !== undefined && upstreamTip !== head) {
        const inHead = head !== undefined && (await reaches(head, oid));
        if (inHead !== merged) {
          ctx.err(
            merged
              ? `warning: deleting branch '${name}' that has been merged to\n         '${upstream!.ref}', but not yet merged to HEAD.\n`
              : `warning: not deleting branch '${name}' that is not yet merged to\n         '${upstream!.ref}', even though it is merged to HEAD.\n`,
          );
        }
      }
      if (!merged) {
        ctx.err(`git branch: The branch '${name}' is not fully merged.\nIf you are sure you want to delete it, run 'git branch -D ${name}'.\n`);
        status = 1;
        continue;
      }
    }
    try {
      await ctx.client.branchDelete({ dir: root, name });
    } catch (error) {
      if (!(error instanceof GitError) || error.code !== "EBRANCHFAIL") throw error;
      ctx.err(`git branch: ${error.message.replace(/^git branch failed: /, "")}\n`);
      status = 1;
      continue;
    }
    ctx.out(`Deleted branch ${name} (was ${shortOid(oid)}).\n`);
  }
  return status;
}

function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const tag: CommandDef = {
  usage: "usage: git tag [-l] | [-f] <name> [<object>] | -d <name>...",
  spec: { flags: [{ name: "delete", short: "d" }, { name: "force", short: "f" }, { name: "list", short: "l" }] },
  async run(ctx) {
    const root = await ctx.root();
    const pos = ctx.args.positionals;
    if (ctx.bool("delete")) {
      if (pos.length === 0) throw new CliUsageError("tag name required");
      for (const name of pos) {
        const oid = await ctx.client.revParse({ dir: root, ref: `refs/tags/${name}` }).catch(() => {
          throw new GitError("ENOTAG", `tag '${name}' not found.`);
        });
        await ctx.client.tagDelete({ dir: root, name });
        ctx.out(`Deleted tag '${name}' (was ${shortOid(oid)})\n`);
      }
      return 0;
    }
    if (pos.length > 0 && !ctx.bool("list")) {
      noExtra(pos, 2);
      if (refusedName(ctx, pos[0]!, "tag")) return 128;
      // A tag that exists or an object that resolves to nothing is fatal in real git: 128.
      await fatalOn(ctx.client.tag({ dir: root, name: pos[0]!, ...(pos[1] !== undefined ? { object: pos[1] } : {}), ...(ctx.bool("force") ? { force: true } : {}) }), (e) => e.code === "ETAGFAIL");
      return 0;
    }
    for (const name of [...(await ctx.client.tagList({ dir: root }))].sort(byteOrder)) ctx.out(`${name}\n`);
    return 0;
  },
};

/** // GB
 * git's branch.autoSetupMerge (setup_tracking), after branch `name` was made at `start` as typed: when `start` names a // GB
 * remote-tracking branch (`origin/x`, `remotes/origin/x`, `refs/remotes/origin/x`, git's DWIM order: a tag or a local // GB
 * branch of that name wins), `branch.<name>.remote`/`merge` are set and `branch '<name>' set up to track '<r>/<b>'.` // GB
 * printed (stdout, not with -q). `--no-track` or `branch.autoSetupMerge=false` sets nothing; `--track` (or // GB
 * `autoSetupMerge=always`) tracks a local branch too (remote `.`: `set up to track '<b>'.`). // GB
 */ // GB
async function setupTracking(ctx: CliContext, root: string, name: string, start: string): Promise<void> { // GB
  const track = ctx.bool("track"); // GB
  if (track === false) return; // GB
  const setting = await ctx.client.configGet({ dir: root, path: "branch.autoSetupMerge" }).catch(() => undefined); // GB
  const mode = String(Array.isArray(setting) ? setting[setting.length - 1] : (setting ?? "true")).toLowerCase(); // GB
  if (track === undefined && (mode === "false" || mode === "no" || mode === "off" || mode === "0")) return; // GB
  const candidates = start.startsWith("refs/") ? [start] : [`refs/${start}`, `refs/tags/${start}`, `refs/heads/${start}`, `refs/remotes/${start}`]; // GB
  let full: string | undefined; // GB
  for (const candidate of candidates) { // GB
    if (!isValidRefName(candidate.replace(/^refs\//, ""))) continue; // GB
    if ((await resolves(ctx, root, candidate)) !== undefined) { // GB
      full = candidate; // GB
      break; // GB
    } // GB
  } // GB
  if (full === undefined) return; // GB
  let upstream: { remote: string; branch: string } | undefined; // GB
  if (full.startsWith("refs/remotes/")) { // GB
    const rest = full.slice("refs/remotes/".length); // GB
    const remotes = (await ctx.client.remoteList({ dir: root })).map((r) => r.name).filter((r) => rest.startsWith(`${r}/`)); // GB
    const remote = remotes.sort((a, b) => b.length - a.length)[0]; // GB
    if (remote !== undefined && rest.slice(remote.length + 1) !== "HEAD") upstream = { remote, branch: rest.slice(remote.length + 1) }; // GB
  } else if (full.startsWith("refs/heads/") && (track === true || mode === "always")) { // GB
    upstream = { remote: ".", branch: full.slice("refs/heads/".length) }; // GB
  } // GB
  if (upstream === undefined) return; // GB
  await ctx.client.configSet({ dir: root, path: `branch.${name}.remote`, value: upstream.remote }); // GB
  await ctx.client.configSet({ dir: root, path: `branch.${name}.merge`, value: `refs/heads/${upstream.branch}` }); // GB
  const shown = upstream.remote === "." ? upstream.branch : `${upstream.remote}/${upstream.branch}`; // GB
  if (ctx.bool("quiet") !== true) ctx.out(`branch '${name}' set up to track '${shown}'.\n`); // GB
} // GB

/** `git checkout --track <remote>/<b>` (no -b): the new branch `<b>`, as git (`refs/remotes/` and the remote dropped). */ // GB
function trackedName(ctx: CliContext, pos: readonly string[]): string | undefined { // GB
  if (ctx.bool("track") !== true || pos.length !== 1) return undefined; // GB
  const name = pos[0]!.replace(/^(refs\/)?(remotes\/)?[^/]*\//, ""); // GB
  if (name === pos[0]) throw new CliFatalError(`missing branch name; try -b`); // GB
  return name; // GB
} // GB

/** // GE
 * git's orphaned_commit_warning (builtin/checkout.c, git 2.39.5), on stderr, when a checkout/switch leaves a detached // GE
 * HEAD at `old`: the commits reachable from `old` but from no ref (refs/heads, refs/tags, refs/remotes, refs/stash) // GE
 * nor from the new HEAD `now`, newest first — `Warning: you are leaving <n> commit(s) behind, not connected to` / // GE
 * `any of your branches:`, a blank line, `  <oid7> <subject>` for the first 4 (all 5 when there are 5, else // GE
 * ` ... and <n-4> more.`), a blank line, then (unless `advice.detachedHead` is false) the `git branch // GE
 * <new-branch-name> <oid7>` hint. None left behind: `Previous HEAD position was <oid7> <subject>` instead. This git keeps no reflog: the warning is the only // GE
 * trace of those commits. Cost: one `log` of `now`; only if `old` is not in it, one per ref tip (run 33, fixer GE). // GE
 */ // GE
async function warnOrphans(ctx: CliContext, root: string, old: string, now: string | undefined): Promise<void> { // GE
  if (old === now) return; // GE
  const lost = await orphansOf(ctx, root, old, now); // GE
  if (lost.length === 0) { // GE
    const commit = await ctx.client.show({ dir: root, ref: old }); // GE
    ctx.err(`Previous HEAD position was ${shortOid(old)} ${splitMessage(commit.message).subject}\n`); // GE
    return; // GE
  } // GE
  const shown = lost.length === 5 ? lost : lost.slice(0, 4); // GE
  let list = shown.map((c) => `  ${shortOid(c.oid)} ${splitMessage(c.message).subject}\n`).join(""); // GE
  if (lost.length > shown.length) list += ` ... and ${lost.length - shown.length} more.\n`; // GE
  const one = lost.length === 1; // GE
  let text = `Warning: you are leaving ${lost.length} commit${one ? "" : "s"} behind, not connected to\nany of your branches:\n\n${list}\n`; // GE
  if (!(await adviceOff(ctx, root, "advice.detachedHead"))) { // GE
    text += `If you want to keep ${one ? "it" : "them"} by creating a new branch, this may be a good time\nto do so with:\n\n git branch <new-branch-name> ${shortOid(lost[0]!.oid)}\n\n`; // GE
  } // GE
  ctx.err(text); // GE
} // GE

/** The commits reachable from `old` and from no ref nor `now`, newest first (git's `old --not --all now` walk). */ // GE
async function orphansOf(ctx: CliContext, root: string, old: string, now: string | undefined): Promise<CommitView[]> { // GE
  const reachable = new Set<string>(); // GE
  const reach = async (tip: string | undefined) => { // GE
    if (tip === undefined || reachable.has(tip)) return; // GE
    for (const c of await ctx.client.log({ dir: root, ref: tip }).catch(() => [])) reachable.add(c.oid); // GE
  }; // GE
  await reach(now); // GE
  if (reachable.has(old)) return []; // GE
  const tips: string[] = []; // GE
  for (const b of await ctx.client.branchList({ dir: root })) tips.push(`refs/heads/${b}`); // GE
  for (const r of await ctx.client.remoteList({ dir: root })) { // GE
    for (const b of await ctx.client.branchList({ dir: root, remote: r.name })) tips.push(`refs/remotes/${r.name}/${b}`); // GE
  } // GE
  for (const t of await ctx.client.tagList({ dir: root })) tips.push(`refs/tags/${t}`); // GE
  tips.push("refs/stash"); // GE
  for (const tip of tips) { // GE
    await reach(await resolves(ctx, root, `${tip}^{commit}`)); // GE
    if (reachable.has(old)) return []; // GE
  } // GE
  return (await ctx.client.log({ dir: root, ref: old }).catch(() => [])).filter((c) => !reachable.has(c.oid)); // GE
} // GE

/** // fixer GD
 * `git checkout --detach [<commit>]` / `git switch --detach [<commit>]` (git 2.39.5, builtin/checkout.c): HEAD detached // fixer GD
 * at the commit `<commit>` names (a branch too; default `HEAD`, so a branch's tip), the working tree moved as for any // fixer GD
 * switch, then `HEAD is now at <oid7> <subject>` on stderr (none with `-q`; git's orphaned-commit warning first when // fixer GD
 * a detached HEAD is left for another commit). Exit 0. Fatal (exit 128): with `-b`/`-B`/`-c`/`-C` // fixer GD
 * (`'--detach' cannot be used with '-b/-B/--orphan'`); checkout: a second argument, or one that names no commit // fixer GD
 * (git's `git checkout: --detach does not take a path argument '<arg>'`, as git reads it as a path); switch: two // fixer GD
 * (`only one reference expected`), or one naming no commit (`invalid reference: <arg>`) (issue 20, run 33, fixer GD). // fixer GD
 */ // fixer GD
async function detachAt(ctx: CliContext, root: string, cmd: "checkout" | "switch", pos: readonly string[], paths: readonly string[], create: string | undefined, force: boolean): Promise<number> { // fixer GD
  if (create !== undefined) throw new CliFatalError("'--detach' cannot be used with '-b/-B/--orphan'"); // fixer GD
  if (cmd === "switch" && pos.length > 1) throw new CliFatalError("only one reference expected"); // fixer GD
  const extra = [...pos.slice(1), ...paths][0]; // fixer GD
  const target = pos[0] ?? "HEAD"; // fixer GD
  const oid = await resolves(ctx, root, `${target}^{commit}`); // fixer GD
  if (cmd === "checkout" && (extra !== undefined || oid === undefined)) { // fixer GD
    throw new CliFatalError(`--detach does not take a path argument '${extra ?? target}'`); // fixer GD: git's text starts `git checkout: ` too
  } // fixer GD
  if (oid === undefined) throw new CliFatalError(`invalid reference: ${target}`); // fixer GD
  // The full oid, never a branch name: the client's checkout attaches HEAD to a branch it is given. // fixer GD
  await switchTo(ctx, root, oid, { force }); // fixer GD
  return 0; // fixer GD
} // fixer GD

async function switchTo(ctx: CliContext, root: string, target: string, options: { create?: string; force: boolean; detach?: boolean }) {
  const quiet = ctx.bool("quiet") === true; // as real git: -q prints none of the lines below
  // A detached HEAD left for another commit: git's warning about the commits no ref keeps (not with -q). // GE
  const detachedAt = quiet || (await ctx.client.currentBranch({ dir: root })) !== undefined ? undefined : await resolves(ctx, root, "HEAD"); // GE
  const orphans = async () => { // GE
    if (detachedAt !== undefined) await warnOrphans(ctx, root, detachedAt, await resolves(ctx, root, "HEAD")); // GE
  }; // GE
  if (options.create !== undefined) {
    // The name taken or an unknown start is fatal in real git (128); local changes in the way are not (1).
    await fatalOn(ctx.client.branch({ dir: root, name: options.create, startPoint: target, checkout: true, ...(options.force ? { force: true } : {}) }), (e) => e.code === "EBRANCHFAIL");
    await setupTracking(ctx, root, options.create, target); // GB
    await orphans(); // GE
    if (!quiet) ctx.err(`Switched to a new branch '${options.create}'\n`);
    return;
  }
  const before = await ctx.client.currentBranch({ dir: root });
  const branches = quiet ? [] : await ctx.client.branchList({ dir: root }); // f40g2
  await ctx.client.checkout({ dir: root, ref: target, ...(options.force ? { force: true } : {}) });
  const after = await ctx.client.currentBranch({ dir: root });
  await orphans(); // GE
  if (quiet) return;
  if (after !== undefined && after !== before && !branches.includes(after)) { // f40g2: made from `<remote>/<target>` (git's checkout.guess)
    const upstream = await upstreamRef(ctx, root, after); // f40g2
    if (upstream !== undefined) ctx.out(`branch '${after}' set up to track '${upstream.name}'.\n`); // f40g2
    ctx.err(`Switched to a new branch '${after}'\n`); // f40g2
  } else if (after !== undefined) {
    // `checkout HEAD` stays, with no line of its own; then, as git's report_tracking, the upstream's (f40g2, run 40).
    if (!(target === "HEAD" && after === before)) ctx.err(after === before ? `Already on '${after}'\n` : `Switched to branch '${after}'\n`); // f40g2
    const upstream = await upstreamOf(ctx, root, after); // f40g2
    if (upstream !== undefined) ctx.out(`${upstreamLines(upstream)}\n`); // f40g2
  } else {
    const commit = await ctx.client.show({ dir: root, ref: "HEAD" });
    ctx.err(`HEAD is now at ${shortOid(commit.oid)} ${splitMessage(commit.message).subject}\n`);
  }
}

/**
 * `git checkout [<tree-ish>] -- <specs>`: restores the paths from `from`'s tree (index and working tree) or, without
 * it, from the index (working tree only). With `count`, returns how many files were written — those that differed
 * from the source, as real git counts them (`Updated N paths from …`).
 */
async function restorePaths(ctx: CliContext, root: string, from: string | undefined, specs: readonly string[], count = false): Promise<number> {
  const paths = await ctx.pathspecs(specs);
  const source = from !== undefined ? { ref: from } : {};
  let written = 0;
  try {
    if (paths.some((p) => p.endsWith("/"))) {
      // An unknown ref lists nothing here: the client's checkout then names it.
      const files = await ctx.client.lsFiles({ dir: root, ...source }).catch(() => undefined);
      if (files) assertDirSpecs(specs, paths, files);
    }
    if (count) {
      // git's literal-first rule (the client's checkout applies it too): a glob naming an entry is that entry only.
      const files = await ctx.client.lsFiles({ dir: root, ...source });
      const names = new Set([...files, ...(from !== undefined ? await ctx.client.lsFiles({ dir: root }) : [])]);
      const exact = paths.map((p) => literalFirst(p, (n) => names.has(n)));
      const changed = await ctx.client.diffSummary({ dir: root, ...(from !== undefined ? source : { fromIndex: true }), ...(paths.includes(".") ? {} : { paths }) });
      written = changed.filter((e) => exact.some((p) => specMatches(e.path, p))).length;
    }
    await ctx.client.checkout({ dir: root, ...source, paths, force: true });
  } catch (error) {
    // As real git: `error: pathspec '<p>' did not match any file(s) known to git`, exit 1 (not 128).
    if (error instanceof PathspecNotFoundError) throw new GitError("ECHECKOUTFAIL", `pathspec '${error.pathspec}' did not match any file(s) known to git`);
    throw error;
  }
  return written;
}

const checkout: CommandDef = {
  paths: true,
  usage: "usage: git checkout [-f] <branch> | -b <new-branch> [<start>] | [<tree-ish>] -- <path>...",
  spec: {
    flags: [
      { name: "b", value: "required" },
      { name: "B", value: "required" },
      { name: "force", short: "f" },
      { name: "detach" },
      { name: "track", short: "t", negatable: true }, // GB
      QUIET,
    ],
  },
  async run(ctx) {
    const root = await ctx.root();
    const pos = ctx.args.positionals;
    const force = ctx.bool("force") === true;
    if (ctx.bool("detach") === true) return detachAt(ctx, root, "checkout", pos, ctx.args.afterDashDash ?? [], ctx.str("b") ?? ctx.str("B"), force); // fixer GD
    if (ctx.args.afterDashDash !== undefined) {
      // `git checkout [<tree-ish>] -- <paths>`, silent as real git with `--`: without a tree-ish the paths come from
      // the index (working tree only, staged changes kept); with one, from its tree into the index and working tree.
      noExtra(pos, 1);
      if (ctx.args.afterDashDash.length === 0) throw new CliUsageError("missing paths after '--'");
      await restorePaths(ctx, root, pos[0], ctx.args.afterDashDash);
      return 0;
    }
    if (pos.length >= 1 && ctx.str("b") === undefined && ctx.str("B") === undefined) {
      // `git checkout <path>...` (from the index) or `git checkout <tree-ish> <path>...`, as real git: the first
      // argument is a tree-ish when it resolves and paths follow; otherwise all are paths when each names an index entry.
      const from = pos.length >= 2 && (await resolves(ctx, root, pos[0]!)) !== undefined ? pos[0] : undefined;
      const specs = from === undefined ? pos : pos.slice(1);
      if (from !== undefined || (await resolves(ctx, root, pos[0]!)) === undefined) {
        const known = await ctx.client.lsFiles({ dir: root, ...(from !== undefined ? { ref: from } : {}) });
        const paths = await ctx.pathspecs(specs);
        if (from !== undefined || paths.every((p) => known.some((f) => specMatches(f, p)) || p === ".")) {
          const quiet = ctx.bool("quiet") === true;
          const count = await restorePaths(ctx, root, from, specs, !quiet);
          if (quiet) return 0; // as real git: -q prints no count
          // As real git, the files written are counted (not the pathspecs, nor files already as the source has them).
          const source = from === undefined ? "the index" : shortOid(await ctx.client.revParse({ dir: root, ref: `${from}^{tree}` }));
          ctx.err(`Updated ${count} path${count === 1 ? "" : "s"} from ${source}\n`);
          return 0;
        }
      }
    }
    const create = ctx.str("b") ?? ctx.str("B") ?? trackedName(ctx, pos); // GB
    if (create !== undefined) {
      noExtra(pos, 1);
      if (refusedName(ctx, create, "branch")) return 128;
      await switchTo(ctx, root, pos[0] ?? "HEAD", { create, force: ctx.str("B") !== undefined || force });
      return 0;
    }
    noExtra(pos, 1);
    const target = need(pos[0], "branch or commit: git checkout <branch>");
    await switchTo(ctx, root, target, { force });
    return 0;
  },
};

const switchCmd: CommandDef = {
  usage: "usage: git switch [-f] <branch> | -c <new-branch> [<start>] | --detach <commit>",
  spec: {
    flags: [
      { name: "create", short: "c", value: "required" },
      { name: "force-create", short: "C", value: "required" },
      { name: "force", short: "f" },
      { name: "discard-changes" },
      { name: "detach" },
      { name: "track", short: "t", negatable: true }, // GB
      QUIET,
    ],
  },
  async run(ctx) {
    const root = await ctx.root();
    const pos = ctx.args.positionals;
    noExtra(pos, 1);
    const force = ctx.bool("force") === true || ctx.bool("discard-changes") === true;
    if (ctx.bool("detach") === true) return detachAt(ctx, root, "switch", pos, [], ctx.str("create") ?? ctx.str("force-create"), force); // fixer GD
    const create = ctx.str("create") ?? ctx.str("force-create") ?? trackedName(ctx, pos); // GB
    if (create !== undefined) {
      if (refusedName(ctx, create, "branch")) return 128;
      await switchTo(ctx, root, pos[0] ?? "HEAD", { create, force: ctx.str("force-create") !== undefined || force });
      return 0;
    }
    const target = need(pos[0], "branch: git switch <branch>");
    // As real git (exit 128): a name that is no branch, or with --detach one that resolves to nothing.
    // f40g2 (run 40): a name that is a branch of exactly one remote is git's guess (`--guess`, on by default): the
    // client's checkout makes the branch tracking it.
    const guess = async () => { // f40g2
      if ((await resolves(ctx, root, target)) !== undefined) return false; // f40g2: a tag or commit is no guess, as git
      let found = 0; // f40g2
      for (const r of await ctx.client.remoteList({ dir: root })) if ((await resolves(ctx, root, `refs/remotes/${r.name}/${target}`)) !== undefined) found++; // f40g2
      return found === 1; // f40g2
    }; // f40g2
    if (!ctx.bool("detach") && (await resolves(ctx, root, `refs/heads/${target}`)) === undefined && !(isValidRefName(`heads/${target}`) && (await guess()))) { // f40g2
      throw new CliFatalError(`invalid reference: ${target} (a branch is expected; use --detach for a commit)`);
    }
    if (ctx.bool("detach") && (await resolves(ctx, root, target)) === undefined) throw new CliFatalError(`invalid reference: ${target}`);
    await switchTo(ctx, root, target, { force });
    return 0;
  },
};

/** Splits `[remote|url] [[+]src[:dst]]` of fetch/pull/push (`force`: the refspec's leading `+`). */
function remoteAndRefspec(ctx: CliContext): { remote?: string; url?: string; src?: string; dst?: string; force?: boolean } {
  noExtra(ctx.args.positionals, 2);
  const [where, refspec] = ctx.args.positionals;
  const out: { remote?: string; url?: string; src?: string; dst?: string; force?: boolean } = {};
  if (where !== undefined) {
    if (URL_PATTERN.test(where)) {
      checkTransport(where);
      out.url = where;
    } else if (/^[^/\s]+@[^:\s]+:/.test(where)) {
      throw new GitError("ETRANSPORT", `unsupported transport '${where}' (only https://, http:// and file:// URLs are supported)`);
    } else out.remote = where;
  }
  if (refspec !== undefined) {
    if (refspec.startsWith("+")) out.force = true;
    const spec = refspec.replace(/^\+/, "");
    if (spec.includes("*")) throw new CliUsageError(`refspec patterns are not supported: '${refspec}'`);
    const colon = spec.indexOf(":");
    if (colon < 0) out.src = spec;
    else {
      if (colon > 0) out.src = spec.slice(0, colon);
      out.dst = spec.slice(colon + 1);
    }
  }
  return out;
}

const fetch: CommandDef = {
  usage: "usage: git fetch [--depth <n>] [--prune] [--[no-]tags] [<remote>|<url>] [[+]<src>[:<dst>]]",
  spec: { flags: [{ name: "depth", value: "required" }, { name: "prune", short: "p" }, { name: "tags", short: "t", negatable: true }, QUIET] },
  async run(ctx) {
    const where = remoteAndRefspec(ctx);
    const root = await ctx.root();
    const depthFlag = ctx.str("depth");
    const depth = depthFlag === undefined ? undefined : nonNegativeInt(depthFlag, "--depth", 1);
    const tags = ctx.bool("tags");
    // `<src>:<dst>`: the fetched commit is stored at <dst> too, as git's get_local_ref names it.
    const dst = where.dst === undefined || where.dst === "" ? undefined : localRefName(where.dst);
    if (dst !== undefined) {
      if (!isValidRefName(dst)) {
        ctx.err(`git fetch: invalid refspec '${ctx.args.positionals[1]}'\n`);
        return 128;
      }
      const current = await ctx.client.currentBranch({ dir: root });
      if (current !== undefined && `refs/heads/${current}` === dst) {
        ctx.err(`git fetch: refusing to fetch into branch '${dst}' checked out at '${root}'\n`);
        return 128;
      }
    }
    // An empty <src> (`:dst`) is the remote's HEAD, as git.
    const src = where.src ?? (dst !== undefined ? "HEAD" : undefined);
    const result = await ctx.client.fetch({
      dir: root,
      ...(where.remote !== undefined ? { remote: where.remote } : {}),
      ...(where.url !== undefined ? { url: where.url } : {}),
      ...(src !== undefined ? { remoteRef: src } : {}),
      ...(depth !== undefined ? { depth } : {}),
      ...(ctx.bool("prune") ? { prune: true } : {}),
      ...(tags !== undefined ? { tags } : {}),
    });
    if (dst === undefined) return 0;
    if (result.fetchHead === null) throw new GitError("EFETCHFAIL", `couldn't find remote ref ${src}`);
    return storeFetched(ctx, root, where, src ?? "HEAD", dst, result.fetchHead);
  },
};

/**
 * git's get_local_ref: a refspec's <dst> as a full ref — `refs/…` as given, `heads/…`, `tags/…` and `remotes/…`
 * under `refs/`, anything else a branch.
 */
function localRefName(name: string): string {
  if (name.startsWith("refs/")) return name;
  if (/^(?:heads|tags|remotes)\//.test(name)) return `refs/${name}`;
  return `refs/heads/${name}`;
}

/**
 * Stores the fetched commit `oid` at `dst` as git's update_local_ref does, with its output line (`From <url>` first;
 * nothing when `dst` already holds it): a new ref (`* [new branch]`), a fast-forward (`old..new`), else — a commit that
 * does not descend from the old one, or any other commit for an existing tag — `! [rejected] … (non-fast-forward)` /
 * `(would clobber existing tag)`, exit 1 and `dst` kept, unless the refspec's `+` forces it (`+ old...new …
 * (forced update)`, `t [tag update]`).
 */
async function storeFetched(
  ctx: CliContext,
  root: string,
  where: { remote?: string; url?: string; force?: boolean },
  src: string,
  dst: string,
  oid: string,
): Promise<number> {
  const old = await resolves(ctx, root, dst);
  if (old === oid) return 0;
  const remoteName = where.remote ?? "origin";
  const url =
    where.url ??
    (await ctx.client.remoteList({ dir: root }).then((remotes) => remotes.find((r) => r.name === remoteName)?.url, () => undefined)) ??
    remoteName;
  const srcName = src === "HEAD" ? "" : src.replace(/^(?:refs\/)?(?:heads|tags)\//, "");
  const line = (flag: string, summary: string, note = "") =>
    ` ${flag} ${summary.padEnd(17)} ${srcName.padEnd(Math.max(10, srcName.length))} -> ${dst.replace(/^refs\/(?:heads|tags|remotes)\//, "")}${note}\n`;
  let status = 0;
  let out: string;
  if (old === undefined) {
    const what = /^(?:refs\/)?tags\//.test(src) ? "[new tag]" : src === "HEAD" || (src.startsWith("refs/") && !src.startsWith("refs/heads/")) ? "[new ref]" : "[new branch]";
    out = line("*", what);
  } else {
    const tag = dst.startsWith("refs/tags/");
    const fastForward = !tag && (await ctx.client.log({ dir: root, ref: oid })).some((c) => c.oid === old);
    if (fastForward) out = line(" ", `${shortOid(old)}..${shortOid(oid)}`);
    else if (where.force) out = tag ? line("t", "[tag update]") : line("+", `${shortOid(old)}...${shortOid(oid)}`, "  (forced update)");
    else {
      out = line("!", "[rejected]", tag ? "  (would clobber existing tag)" : "  (non-fast-forward)");
      status = 1;
    }
  }
  if (status === 0) await ctx.client.updateRef({ dir: root, ref: dst, value: oid, force: true });
  if (!ctx.bool("quiet")) ctx.err(`From ${displayFetchUrl(url)}\n${out}`); // as git: -q prints none of it, a rejection included; no user:password, no `.git` // GC
  return status;
}

function mergeOutcome(ctx: CliContext, before: string | undefined, after: string | undefined, merge: boolean): void {
  if (ctx.bool("quiet")) return; // as real git: -q prints none of these lines
  if (after === undefined || after === before) ctx.out("Already up to date.\n");
  else if (merge) ctx.out(`Merge commit ${shortOid(after)}\n`);
  else ctx.out(`Fast-forward to ${shortOid(after)}\n`);
}

function ffFlags(ctx: CliContext): { fastForward?: boolean; fastForwardOnly?: boolean } {
  const ffOnly = ctx.bool("ff-only") === true;
  const ff = ctx.bool("ff");
  if (ffOnly && ff === false) throw new CliUsageError("--ff-only and --no-ff cannot be used together");
  return { ...(ffOnly ? { fastForwardOnly: true } : {}), ...(ff === false ? { fastForward: false } : {}) };
}

const pull: CommandDef = {
  usage: "usage: git pull [--ff-only | --no-ff] [<remote>|<url>] [<branch>]",
  spec: { flags: [{ name: "ff-only" }, { name: "ff", negatable: true }, { name: "depth", value: "required" }, { name: "rebase", negatable: true }, QUIET] },
  async run(ctx) {
    const where = remoteAndRefspec(ctx);
    if (ctx.bool("rebase")) throw new GitError("EUNSUPPORTED", "--rebase is not supported; pull merges");
    // git would store the fetched commit at <dst> too; not done here, so refused rather than ignored.
    if (where.dst !== undefined) {
      throw new CliUsageError(`'${ctx.args.positionals[1]}': a <src>:<dst> refspec is not supported by pull (git fetch <remote> <src>:<dst>, then git merge)`);
    }
    const root = await ctx.root();
    const depthFlag = ctx.str("depth");
    const depth = depthFlag === undefined ? undefined : nonNegativeInt(depthFlag, "--depth", 1);
    const before = await resolves(ctx, root, "HEAD");
    const dates = ctx.dates();
    // fixer GN (issue 20, run 34): git 2.39's pull.rebase / branch.<b>.rebase and pull.ff from .git/config; the flags win.
    const config = async (path: string) => { // fixer GN
      const value = (await ctx.client.configGet({ dir: root, path }).catch(() => undefined)) as unknown; // fixer GN
      return typeof value === "string" && value !== "" ? value.toLowerCase() : typeof value === "boolean" ? String(value) : undefined; // fixer GN
    }; // fixer GN
    const current = await ctx.client.currentBranch({ dir: root }); // fixer GN
    const rebase = ctx.bool("rebase") === false ? undefined : ((current === undefined ? undefined : await config(`branch.${current}.rebase`)) ?? (await config("pull.rebase"))); // fixer GN
    if (rebase !== undefined && !/^(?:false|no|off|0)$/.test(rebase)) { // fixer GN: true, merges, interactive, …
      ctx.err(`fatal: ${current !== undefined && (await config(`branch.${current}.rebase`)) !== undefined ? `branch.${current}.rebase` : "pull.rebase"} is '${rebase}': rebase is not supported; pull merges (git pull --no-rebase, or git config pull.rebase false)\n`); // fixer GN
      return 128; // fixer GN: nothing fetched, nothing changed
    } // fixer GN
    const flags = ffFlags(ctx); // fixer GN
    const pullFf = ctx.bool("ff-only") || ctx.bool("ff") !== undefined || ctx.bool("rebase") === false ? undefined : await config("pull.ff"); // fixer GN: git ignores pull.ff=only under --no-rebase
    const ffOnly = flags.fastForwardOnly === true || pullFf === "only"; // fixer GN
    try { // fixer GN
      await ctx.client.pull({
        dir: root,
        ...(where.remote !== undefined ? { remote: where.remote } : {}),
        ...(where.url !== undefined ? { url: where.url } : {}),
        ...(where.src !== undefined ? { remoteRef: where.src } : {}),
        ...(depth !== undefined ? { depth } : {}),
        ...flags, // fixer GN
        ...(pullFf === "only" ? { fastForwardOnly: true } : /^(?:false|no|off|0)$/.test(pullFf ?? "") ? { fastForward: false } : {}), // fixer GN
        ...(dates.author ? { author: dates.author } : {}),
        ...(dates.committer ? { committer: dates.committer } : {}),
        env: ctx.env,
      });
    } catch (error) { // fixer GN
      // fixer GN: git's die() for a pull that cannot fast-forward under --ff-only / pull.ff=only: 128, HEAD kept.
      if (ffOnly && error instanceof GitError && /not possible to fast-forward/.test(error.message)) { // fixer GN
        ctx.err("fatal: Not possible to fast-forward, aborting.\n"); // fixer GN
        return 128; // fixer GN
      } // fixer GN
      throw error; // fixer GN
    } // fixer GN
    const after = await resolves(ctx, root, "HEAD");
    const view = after !== undefined && after !== before ? await headCommit(ctx, root) : undefined;
    const merged = (view?.parent.length ?? 0) > 1 && view?.parent[0] === before;
    if (merged) ctx.warnLatin1([]);
    mergeOutcome(ctx, before, after, merged);
    return 0;
  },
};

const merge: CommandDef = {
  usage: "usage: git merge [--ff-only | --no-ff] [-m <msg>] <commit>",
  spec: { flags: [{ name: "ff-only" }, { name: "ff", negatable: true }, { name: "message", short: "m", value: "required", bytes: "latin1" }, QUIET] },
  async run(ctx) {
    noExtra(ctx.args.positionals, 1);
    const theirs = need(ctx.args.positionals[0], "commit to merge: git merge <commit>");
    const root = await ctx.root();
    const message = ctx.str("message");
    const dates = ctx.dates();
    const result = await ctx.client.merge({
      dir: root,
      theirs,
      ...ffFlags(ctx),
      ...(message !== undefined ? { message } : {}),
      ...(dates.author ? { author: dates.author } : {}),
      ...(dates.committer ? { committer: dates.committer } : {}),
      env: ctx.env,
    });
    if (!result.alreadyMerged && !result.fastForward && result.oid !== undefined) ctx.warnLatin1(["message"]);
    if (ctx.bool("quiet")) return 0; // as real git: -q prints none of these lines
    if (result.alreadyMerged || result.oid === undefined) ctx.out("Already up to date.\n");
    else if (result.fastForward) ctx.out(`Fast-forward to ${shortOid(result.oid)}\n`);
    else ctx.out(`Merge commit ${shortOid(result.oid)}\n`);
    return 0;
  },
};

const push: CommandDef = {
  usage: "usage: git push [-f] [-d] [-u] [--tags] [<remote>|<url>] [[+]<src>[:<dst>]]", // GC
  spec: { flags: [{ name: "force", short: "f" }, { name: "delete", short: "d" }, { name: "set-upstream", short: "u" }, { name: "tags" }, QUIET] }, // GC
  async run(ctx) {
    const where = remoteAndRefspec(ctx);
    const root = await ctx.root();
    const tags = ctx.bool("tags") === true; // GC
    const del = ctx.bool("delete") === true || (where.src === undefined && where.dst !== undefined);
    if (del && tags) throw new CliFatalError("options '--delete' and '--all/--mirror/--tags' cannot be used together"); // GC
    if (del && where.src === undefined && where.dst === undefined) throw new CliUsageError("--delete needs a ref to delete");
    const current = await ctx.client.currentBranch({ dir: root }); // GC
    // GC: a lone `HEAD` is the current branch, pushed to the same name (git's refspec matching); detached, git's error.
    const headAlone = !del && where.src === "HEAD" && where.dst === undefined; // GC
    // No refspec (fixer GN, run 34): git's push.default (src/git/push-default.ts) picks the remote ref, or refuses (128).
    const bare = !del && !tags && where.src === undefined && where.dst === undefined; // fixer GN
    const config = async (path: string) => { // fixer GN
      const value = await ctx.client.configGet({ dir: root, path }).catch(() => undefined); // fixer GN
      return typeof value === "string" && value !== "" ? value : (value as unknown) === true ? "true" : undefined; // fixer GN
    }; // fixer GN
    // fixer GN: git's pushremote_for_branch — branch.<b>.pushRemote, remote.pushDefault, branch.<b>.remote, origin.
    const branchRemote = bare && current !== undefined ? await config(`branch.${current}.remote`) : undefined; // fixer GN
    const bareRemote = // fixer GN
      bare && where.remote === undefined && where.url === undefined && current !== undefined // fixer GN
        ? ((await config(`branch.${current}.pushRemote`)) ?? (await config("remote.pushDefault")) ?? branchRemote ?? "origin") // fixer GN
        : undefined; // fixer GN
    if (bareRemote !== undefined) where.remote = bareRemote; // fixer GN
    const autoSetupRemote = bare && /^(?:true|yes|on|1)$/i.test((await config("push.autoSetupRemote")) ?? ""); // fixer GN
    const destination = bare // fixer GN
      ? pushDefaultDestination({ // fixer GN
          setting: await config("push.default"), // fixer GN
          branch: current, // fixer GN
          remote: where.url ?? where.remote ?? "origin", // fixer GN
          branchRemote, // fixer GN
          merge: current === undefined ? undefined : await config(`branch.${current}.merge`), // fixer GN
          autoSetupRemote, // fixer GN
          autoSetupMergeSimple: (await config("branch.autoSetupMerge"))?.toLowerCase() === "simple", // fixer GN
        }) // fixer GN
      : undefined; // fixer GN
    if (destination !== undefined && !destination.ok) { // fixer GN
      if (destination.code === "EUNSUPPORTED") throw new GitError("EUNSUPPORTED", destination.message); // fixer GN
      ctx.err(`fatal: ${destination.message}\n`); // fixer GN: git's die(), exit 128, nothing sent
      return 128; // fixer GN
    } // fixer GN
    const remoteRef = del ? (where.dst ?? where.src) : headAlone && current !== undefined ? `refs/heads/${current}` : destination?.ok ? destination.dst : where.dst; // GC, fixer GN
    // What real git prints per ref: `old..new  src -> dst`, `* [new branch]`, `- [deleted]`.
    const remoteName = where.remote ?? (where.url === undefined ? "origin" : undefined);
    const target = anonymizeUrl( // GC: as git's transport_anonymize_url
      where.url ??
      (await ctx.client.remoteList({ dir: root }).then((remotes) => remotes.find((r) => r.name === remoteName)?.url, () => undefined)) ??
      remoteName ??
      "origin",
    ); // GC
    const lines: string[] = []; // GC: git's `To <url>` report, one line per ref sent
    const errors: string[] = []; // GC
    let failedAny = false; // GC
    let pushedRevision = false; // f40g2: a revision's commit was pushed — no branch to set an upstream for
    // GC: one ref pushed; `old` is the remote's oid before (from its advertisement), so the line is git's.
    // f40g2 (run 40): the line names the remote ref as the server reported it (its full name: `dst` may be short or
    // left to the push), and its kind follows that name, as git's print_ok_ref_status: `refs/tags/` a `[new tag]`,
    // `refs/heads/` a `[new branch]`, any other a `[new reference]`; names prettified (`t1`, `o/m`, `refs/notes/n`).
    const pushOne = async (ref: string | undefined, dst: string | undefined, srcName: string, dstName: string, tag: boolean): Promise<void> => { // GC
      let old: string | undefined; // GC
      let oid: string | undefined; // GC
      const result = await ctx.client.push({
        dir: root,
        ...(where.remote !== undefined ? { remote: where.remote } : {}),
        ...(where.url !== undefined ? { url: where.url } : {}),
        ...(ref !== undefined ? { ref } : {}), // GC
        ...(dst !== undefined ? { remoteRef: dst } : {}), // GC
        ...(ctx.bool("force") || where.force ? { force: true } : {}),
        ...(del ? { delete: true } : {}),
        [PUSH_REMOTE_OLD]: (o: string, n: string) => ((old = o), (oid = n)), // GC
      } as GitPushOptions);
      const failed = Object.entries(result.refs ?? {}).filter(([, s]) => !s.ok);
      if (!result.ok || failed.length > 0) {
        // git's send-pack flags: a local refusal `[rejected]`, the server's `ng` (and a failed unpack)
        // `[remote rejected]`, a ref the report left out `[remote failure]`.
        const flag = (why: string) =>
          why === "remote failed to report status" ? "[remote failure]" : LOCAL_PUSH_REFUSALS.has(why) ? "[rejected]" : "[remote rejected]";
        failedAny = true; // GC
        if (result.error?.startsWith("remote unpack failed: ")) errors.push(`error: ${result.error}\n`); // GC
        if (failed.length === 0) lines.push(` ! [rejected]        ${srcName} -> ${dstName} (${result.error ?? "rejected"})\n`); // GC
        for (const [name, s] of failed) {
          const why = s.error || result.error || "rejected";
          lines.push(` ! ${flag(why).padEnd(18)}${srcName} -> ${prettify(name)} (${why})\n`); // GC, f40g2
        }
        return; // GC
      }
      const zero = "0".repeat(40); // GC
      const reported = Object.keys(result.refs ?? {}); // f40g2
      const full = dst?.startsWith("refs/") ? dst : reported.length === 1 ? reported[0]! : tag ? `refs/tags/${dstName}` : `refs/heads/${dstName}`; // f40g2
      const shown = prettify(full); // f40g2
      if (del) lines.push(` - [deleted]         ${shown}\n`); // GC, f40g2
      else if (old === undefined || old === oid) return; // GC: up to date — nothing sent, nothing printed (as git)
      else if (old === zero) { // f40g2
        const kind = full.startsWith("refs/tags/") ? "[new tag]" : full.startsWith("refs/heads/") ? "[new branch]" : "[new reference]"; // f40g2
        lines.push(` * ${kind.padEnd(18)}${srcName} -> ${shown}\n`); // GC, f40g2
      } else lines.push(`   ${shortOid(old)}..${oid === undefined ? "" : shortOid(oid)}  ${srcName} -> ${shown}\n`); // GC, f40g2
    }; // GC
    if (!tags || where.src !== undefined || where.dst !== undefined) { // GC: --tags alone pushes the tags only
      if (headAlone && current === undefined) { // GC: git's refusal of a detached HEAD with no <dst>
        ctx.err(DETACHED_HEAD_PUSH + `error: failed to push some refs to '${target}'\n`); // GC
        return 1; // GC
      }
      const srcName = prettify(del ? "" : (where.src ?? current ?? "HEAD")); // GC, f40g2
      const dstName = prettify(remoteRef ?? srcName); // GC, f40g2
      const branches = where.src !== undefined ? await ctx.client.branchList({ dir: root }) : []; // f40g2
      const localTags = where.src !== undefined ? await ctx.client.tagList({ dir: root }) : []; // f40g2
      const tagSrc = // GC: a tag pushed (to a name the server chooses) is a `[new tag]`, as git
        !del && where.src !== undefined && (where.src.startsWith("refs/tags/") || (!branches.includes(where.src) && localTags.includes(where.src))); // GC, f40g2
      let src = where.src; // f40g2
      // f40g2 (run 40): a revision (`HEAD~1`, `main^`, a short oid) is no ref name, which isomorphic-git's push resolves
      // ("Could not find HEAD~1."): with a <dst> it is resolved here (src/git/ops/rev.ts) and its commit pushed, as
      // git; one that names nothing is git's "src refspec … does not match any"; with no <dst>, git's invalid refspec.
      if (!del && src !== undefined && where.dst === undefined && /[~^]/.test(src)) { // f40g2
        ctx.err(`fatal: invalid refspec '${ctx.args.positionals[1]}'\n`); // f40g2
        return 128; // f40g2
      } // f40g2
      if (!del && src !== undefined && where.dst !== undefined && (/[~^]/.test(src) || (/^[0-9a-f]{4,39}$/i.test(src) && !branches.includes(src) && !localTags.includes(src)))) { // f40g2
        const oid = await ctx.client.revParse({ dir: root, ref: src }).catch(() => undefined); // f40g2
        if (oid === undefined) { // f40g2
          ctx.err(`error: src refspec ${src} does not match any\nerror: failed to push some refs to '${target}'\n`); // f40g2
          return 1; // f40g2
        } // f40g2
        src = oid; // f40g2
        pushedRevision = true; // f40g2
      } // f40g2
      await pushOne(!del ? (src ?? (bare && current !== undefined ? `refs/heads/${current}` : undefined)) : undefined, remoteRef, srcName, dstName, tagSrc); // GC, fixer GN, f40g2
    } // GC
    if (tags) { // GC: every local tag to the same name, in byte order, as git's `refs/tags/*` refspec
      for (const name of await ctx.client.tagList({ dir: root })) await pushOne(`refs/tags/${name}`, `refs/tags/${name}`, name, name, true); // GC
    } // GC
    if (failedAny || !ctx.bool("quiet")) { // GC: as git: -q prints a rejection only
      for (const e of errors) ctx.err(e); // GC
      if (lines.length > 0) ctx.err(`To ${target}\n${lines.join("")}`); // GC
      else if (!failedAny) ctx.err("Everything up-to-date\n"); // GC
      if (failedAny) ctx.err(`error: failed to push some refs to '${target}'\n`); // GC
    } // GC
    if (failedAny) return 1; // GC
    // fixer GN: push.autoSetupRemote tracks a bare push's new upstream, as `-u` (git's TRANSPORT_PUSH_AUTO_UPSTREAM).
    if ((ctx.bool("set-upstream") || (autoSetupRemote && destination?.ok && destination.noUpstream)) && !del) { // fixer GN
      const branchName = headAlone ? current : (where.src ?? current); // GC
      const dstBranch = where.dst ?? (destination?.ok ? destination.dst : undefined); // fixer GN
      if (branchName !== undefined && where.remote !== undefined && !pushedRevision) { // f40g2
        const local = branchName.replace(/^refs\/heads\//, "");
        await ctx.client.configSet({ dir: root, path: `branch.${local}.remote`, value: where.remote });
        await ctx.client.configSet({ dir: root, path: `branch.${local}.merge`, value: `refs/heads/${(dstBranch ?? local).replace(/^refs\/heads\//, "")}` }); // fixer GN
        // -q keeps it quiet, as git's `install_branch_config` without BRANCH_CONFIG_VERBOSE (run 37, fixer GE).
        if (!ctx.bool("quiet")) ctx.out(`branch '${local}' set up to track '${where.remote}/${(dstBranch ?? local).replace(/^refs\/heads\//, "")}'.\n`); // fixer GN, fixer GE
      }
    }
    return 0;
  },
};

/** git's refusal of `git push <remote> HEAD` on a detached HEAD (remote.c's match_explicit_lhs/rhs), exit 1. */ // GC
const DETACHED_HEAD_PUSH = // GC
  "error: The destination you provided is not a full refname (i.e.,\n" + // GC
  'starting with "refs/"). We tried to guess what you meant by:\n\n' + // GC
  "- Looking for a ref that matches 'HEAD' on the remote side.\n" + // GC
  "- Checking if the <src> being pushed ('HEAD')\n" + // GC
  '  is a ref in "refs/{heads,tags}/". If so we add a corresponding\n' + // GC
  "  refs/{heads,tags}/ prefix on the remote side.\n\n" + // GC
  "Neither worked, so we gave up. You must fully qualify the ref.\n" + // GC
  "hint: The <src> part of the refspec is a commit object.\n" + // GC
  "hint: Did you mean to create a new branch by pushing to\n" + // GC
  "hint: 'HEAD:refs/heads/HEAD'?\n"; // GC

const remote: CommandDef = {
  usage: "usage: git remote [-v] | add [-f] <name> <url> | remove|rm <name> | get-url <name>",
  spec: { flags: [{ name: "verbose", short: "v" }, { name: "force", short: "f" }] },
  async run(ctx) {
    const root = await ctx.root();
    const [action, ...rest] = ctx.args.positionals;
    if (action === undefined) {
      const remotes = [...(await ctx.client.remoteList({ dir: root }))].sort((a, b) => byteOrder(a.name, b.name));
      for (const r of remotes) ctx.out(ctx.bool("verbose") ? `${r.name}\t${r.url} (fetch)\n${r.name}\t${r.url} (push)\n` : `${r.name}\n`);
      return 0;
    }
    if (action === "add") {
      noExtra(rest, 2);
      const name = need(rest[0], "remote name: git remote add <name> <url>");
      const url = need(rest[1], "remote URL: git remote add <name> <url>");
      checkTransport(url);
      await ctx.client.remoteAdd({ dir: root, name, url, ...(ctx.bool("force") ? { force: true } : {}) });
      return 0;
    }
    if (action === "remove" || action === "rm") {
      noExtra(rest, 1);
      const name = need(rest[0], "remote name: git remote remove <name>");
      const known = await ctx.client.remoteList({ dir: root });
      if (!known.some((r) => r.name === name)) throw new GitError("ENOREMOTE", `No such remote: '${name}'`);
      await ctx.client.remoteRemove({ dir: root, name });
      return 0;
    }
    if (action === "get-url") {
      noExtra(rest, 1);
      const name = need(rest[0], "remote name: git remote get-url <name>");
      const found = (await ctx.client.remoteList({ dir: root })).find((r) => r.name === name);
      if (!found) throw new GitError("ENOREMOTE", `No such remote '${name}'`);
      ctx.out(`${found.url}\n`);
      return 0;
    }
    throw new CliUsageError(`unknown subcommand '${action}'`);
  },
};

const hashObject: CommandDef = {
  usage: "usage: git hash-object [-w] --stdin",
  spec: { flags: [{ name: "stdin" }, { name: "write", short: "w" }, { name: "type", short: "t", value: "required" }] },
  async run(ctx) {
    noExtra(ctx.args.positionals, 0);
    if (!ctx.bool("stdin")) throw new CliUsageError("--stdin is required (files are hashed from standard input)");
    const type = ctx.str("type");
    if (type !== undefined && type !== "blob") throw new CliUsageError(`only -t blob is supported, not '${type}'`);
    const write = ctx.bool("write") === true;
    const dir = write ? await ctx.root() : await ctx.root().catch(() => ctx.cwd);
    const oid = await ctx.client.hashObject({ dir, content: ctx.stdin ?? "", write });
    ctx.out(`${oid}\n`);
    return 0;
  },
};

const catFile: CommandDef = {
  usage: "usage: git cat-file (-p | -t | -s | -e) <object>[:<path>]",
  spec: { flags: [{ name: "p" }, { name: "t" }, { name: "s" }, { name: "e" }] },
  async run(ctx) {
    noExtra(ctx.args.positionals, 1);
    const mode = (["p", "t", "s", "e"] as const).filter((m) => ctx.bool(m));
    if (mode.length !== 1) throw new CliUsageError("exactly one of -p, -t, -s, -e is required");
    const spec = need(ctx.args.positionals[0], "object: git cat-file -p <object>");
    const root = await ctx.root();
    let object;
    try {
      object = await readObjectSpec(ctx, root, spec);
    } catch (error) {
      // As real git: a revision or `<rev>:<path>` naming nothing is fatal (128), -e included; -e of an absent
      // object is a silent 1.
      const fatal = error instanceof CliFatalError ? error : fatalIf(error, unknownRevision);
      if (mode[0] === "e" && !(fatal instanceof CliFatalError)) return 1;
      // A full object id naming no object: git dies too (128), `-p` with `Not a valid object name <oid>`, `-t`/`-s`
      // with `git cat-file: could not get object info`.
      // A size refusal (GIT_MAX_* limits) is not a missing object: it stays as it is (attack6 zlib bomb); nor is a
      // corrupt pack object (`pack has bad object at offset N: …`, scripts/gen-git.mjs, issue 20 run 30).
      const refusedBySize = error instanceof Error && (/\bGIT_MAX_[A-Z_]+\b/.test(error.message) || /\bpack has bad object at offset \d+: /.test(error.message));
      if (!(fatal instanceof CliFatalError) && !refusedBySize && /^[0-9a-f]{40}$/.test(spec)) {
        throw new CliFatalError(mode[0] === "p" ? `Not a valid object name ${spec}` : "could not get object info", { cause: error });
      }
      throw fatal;
    }
    switch (mode[0]) {
      case "e":
        return 0;
      case "t":
        ctx.out(`${object.type ?? "blob"}\n`);
        return 0;
      case "s":
        ctx.out(`${object.bytes.byteLength}\n`);
        return 0;
      default:
        if (object.type === "tree") {
          const fully = await ctx.quoteFully();
          for (const e of await ctx.client.lsTree({ dir: root, ref: object.oid })) {
            ctx.out(`${e.mode} ${e.type} ${e.oid}\t${quotePath(e.path, false, fully)}\n`);
          }
        } else {
          ctx.out(utf8EscapeDecode(object.bytes)); // a byte that is not UTF-8 as U+DC00 + byte, as `show <rev>:<path>`
        }
        return 0;
    }
  },
};

/**
 * `<rev>:<path>` (or `:<path>`) with a path starting `./` or `../` made repository-relative, as git's
 * resolve_relative_path: such a path is relative to the cwd (gitrevisions(7)); any other spec as given.
 * @throws CliFatalError `'<path>' is outside repository at '<root>'` (git: fatal, 128) when it leaves the repository.
 */
async function cwdRev(ctx: CliContext, spec: string): Promise<string> {
  const colon = /^:[0-3]:/.test(spec) ? 2 : spec.indexOf(":"); // `:<n>:<path>`: the path after the stage
  if (colon < 0) return spec;
  const path = spec.slice(colon + 1);
  if (!path.startsWith("./") && !path.startsWith("../")) return spec;
  const root = await ctx.root();
  const base = `/r/${await ctx.cwdInRepo()}`;
  const abs = normalizePath(path, base);
  if (abs !== "/r" && !abs.startsWith("/r/")) throw new CliFatalError(`'${path}' is outside repository at '${root}'`);
  return `${spec.slice(0, colon + 1)}${abs.slice(3)}${path.endsWith("/") && abs !== "/r" ? "/" : ""}`;
}

/**
 * The object `<rev>` or `<rev>:<path>` names, as `show` and `cat-file` read it: `<rev>:` (no path) is the tree of
 * `<rev>` (as git), and a leading `./` of the path is dropped.
 */
async function readObjectSpec(ctx: CliContext, root: string, typed: string): Promise<CatFileResult> {
  const spec = await cwdRev(ctx, typed);
  // `:<path>`, `:<n>:<path>`: the index's entry (ops/rev.ts), not HEAD's (issue 20, run 40, fixer f40g1).
  if (spec.startsWith(":") && spec !== ":") return ctx.client.catFile({ dir: root, oid: await fatalOn(ctx.client.revParse({ dir: root, ref: spec }), noIndexEntry) });
  const colon = spec.indexOf(":");
  const rev = colon < 0 ? spec : spec.slice(0, colon) || "HEAD";
  const filepath = colon < 0 ? undefined : spec.slice(colon + 1);
  let oid = rev;
  if (filepath === "") oid = await ctx.client.revParse({ dir: root, ref: `${rev}^{tree}` });
  else if (!/^[0-9a-f]{40}$/.test(rev)) oid = await ctx.client.revParse({ dir: root, ref: rev });
  if (!filepath) return ctx.client.catFile({ dir: root, oid });
  try {
    return await ctx.client.catFile({ dir: root, oid, filepath });
  } catch (error) {
    // As real git (exit 128): `<rev>:<path>` naming no entry of the tree (isomorphic-git's NotFoundError).
    if ((error as { cause?: { code?: unknown } }).cause?.code === "NotFoundError") throw new CliFatalError(`path '${filepath}' does not exist in '${rev}'`, { cause: error });
    throw error;
  }
}

const updateRef: CommandDef = {
  usage: "usage: git update-ref [--force] <ref> <oid>",
  spec: { flags: [{ name: "force" }] },
  async run(ctx) {
    noExtra(ctx.args.positionals, 2);
    const ref = need(ctx.args.positionals[0], "ref: git update-ref <ref> <oid>");
    const value = need(ctx.args.positionals[1], "new value: git update-ref <ref> <oid>");
    const root = await ctx.root();
    const oid = /^[0-9a-f]{40}$/.test(value) ? value : await ctx.client.revParse({ dir: root, ref: value });
    await ctx.client.updateRef({ dir: root, ref, value: oid, ...(ctx.bool("force") ? { force: true } : {}) });
    return 0;
  },
};

const config: CommandDef = {
  usage: "usage: git config [--local] [--get | --get-all | --add | --unset] <key> [<value>]",
  spec: {
    flags: [{ name: "get" }, { name: "get-all" }, { name: "add" }, { name: "unset" }, { name: "local" }, { name: "global" }, { name: "system" }],
  },
  async run(ctx) {
    if (ctx.bool("global") || ctx.bool("system")) {
      throw new GitError("EUNSUPPORTED", "only the repository's .git/config is available in the Workspace (no --global or --system)");
    }
    noExtra(ctx.args.positionals, 2);
    const key = need(ctx.args.positionals[0], "key: git config <key> [<value>]");
    const value = ctx.args.positionals[1];
    const root = await ctx.root();
    if (ctx.bool("unset")) {
      noExtra(ctx.args.positionals, 1);
      const existing = await ctx.client.configGet({ dir: root, path: key });
      if (existing === undefined) return 1;
      await ctx.client.configSet({ dir: root, path: key, value: undefined });
      return 0;
    }
    if (value !== undefined && !ctx.bool("get") && !ctx.bool("get-all")) {
      await ctx.client.configSet({ dir: root, path: key, value, ...(ctx.bool("add") ? { append: true } : {}) });
      return 0;
    }
    if (ctx.bool("add")) throw new CliUsageError("--add needs a value");
    noExtra(ctx.args.positionals, 1);
    const all = ctx.bool("get-all") === true;
    const got = await ctx.client.configGet({ dir: root, path: key, ...(all ? { all: true } : {}) });
    const values = got === undefined ? [] : Array.isArray(got) ? got : [got];
    if (values.length === 0) return 1;
    for (const v of all ? values : values.slice(-1)) ctx.out(`${String(v)}\n`);
    return 0;
  },
};

const stash: CommandDef = {
  usage: "usage: git stash [push [-m <message>]] | list | pop [<stash>]",
  spec: { flags: [{ name: "message", short: "m", value: "required", bytes: "latin1" }, QUIET] },
  async run(ctx) {
    const root = await ctx.root();
    const [action = "push", ...rest] = ctx.args.positionals;
    if (action === "list") {
      noExtra(rest, 0);
      for (const line of await ctx.client.stashList({ dir: root })) ctx.out(`${line}\n`);
      return 0;
    }
    if (action === "pop") {
      noExtra(rest, 1);
      const which = rest[0];
      let index = 0;
      if (which !== undefined) {
        const m = /^(?:stash@\{(\d+)\}|(\d+))$/.exec(which);
        if (!m) throw new CliUsageError(`'${which}' is not a stash reference`);
        index = Number(m[1] ?? m[2]);
      }
      const list = await ctx.client.stashList({ dir: root });
      if (list.length === 0) throw new GitError("ENOSTASH", "No stash entries found.");
      if (index >= list.length) throw new GitError("ENOSTASH", `stash@{${index}} is not a valid reference`);
      await ctx.client.stashPop({ dir: root, index });
      if (!ctx.bool("quiet")) ctx.out(`Dropped stash@{${index}}\n`);
      return 0;
    }
    if (action === "push") {
      noExtra(rest, 0);
      const entries = await ctx.client.status({ dir: root });
      if (!entries.some((e) => e.worktree !== "?")) {
        ctx.out("No local changes to save\n");
        return 0;
      }
      const message = ctx.str("message");
      await ctx.client.stashPush({ dir: root, ...(message !== undefined ? { message } : {}) });
      ctx.warnLatin1(["message"], false);
      const branchName = (await ctx.client.currentBranch({ dir: root })) ?? "(no branch)";
      let label = `On ${branchName}: ${message}`;
      if (message === undefined) {
        const head = await headCommit(ctx, root);
        label = `WIP on ${branchName}: ${head ? `${shortOid(head.oid)} ${splitMessage(head.message).subject}` : ""}`;
      }
      if (!ctx.bool("quiet")) ctx.out(`Saved working directory and index state ${label}\n`);
      return 0;
    }
    throw new CliUsageError(`unknown subcommand '${action}'`);
  },
};

const reset: CommandDef = {
  paths: true,
  usage: "usage: git reset [--hard] [<commit>] | [<commit>] [--] <path>...",
  spec: { flags: [{ name: "hard" }, { name: "soft" }, { name: "mixed" }, QUIET] },
  async run(ctx) {
    if (ctx.bool("soft")) throw new CliUsageError("--soft is not supported (only the default and --hard)");
    if (ctx.bool("mixed")) throw new CliUsageError("--mixed is not supported (plain `git reset [<commit>]` is the default)");
    const root = await ctx.root();
    const pos = [...ctx.args.positionals];
    let ref: string | undefined;
    if (pos.length > 0 && (ctx.args.afterDashDash !== undefined || (await resolves(ctx, root, pos[0]!)) !== undefined)) {
      ref = pos.shift();
    } else if (pos.length > 0 && !(await inWorktree(ctx, root, pos[0]!))) {
      // As real git: without `--`, a first argument that is neither a revision nor a path of the working tree.
      throw new GitError("EPATHSPEC", ambiguousArgument(pos[0]!));
    }
    const specs = [...pos, ...(ctx.args.afterDashDash ?? [])];
    const hard = ctx.bool("hard") === true;
    if (hard && specs.length > 0) throw new CliUsageError("cannot do a hard reset with paths");
    if (ref !== undefined && (await resolves(ctx, root, ref)) === undefined) {
      // As real git (exit 128): a ref written before `--` that names nothing.
      throw new GitError("EPATHSPEC", `Failed to resolve '${ref}' as a valid ${specs.length > 0 ? "tree" : "revision"}.`);
    }
    if (specs.length > 0) {
      let paths = await ctx.pathspecs(specs);
      // What reset matches: the index and `ref`'s tree (none while HEAD is unborn; an unknown ref: the client names
      // it). As in real git, a pathspec matching nothing is no error and changes nothing (the typed API's `reset`
      // rejects it with EPATHSPEC): such specs are dropped — a directory form `x/` matches only below a directory,
      // never the file `x`, which the client would match.
      const tree = await ctx.client.lsFiles({ dir: root, ref: ref ?? "HEAD" }).catch(() => undefined);
      if (tree || ref === undefined) {
        const files = [...(await ctx.client.lsFiles({ dir: root })), ...(tree ?? [])];
        paths = paths.filter((p) => files.some((f) => specMatches(f, p)));
        if (paths.length === 0) return 0;
      }
      await ctx.client.reset({ dir: root, paths, ...(ref !== undefined ? { ref } : {}) });
      return 0;
    }
    await ctx.client.reset({ dir: root, ...(hard ? { hard: true } : {}), ...(ref !== undefined ? { ref } : {}) });
    if (hard && !ctx.bool("quiet")) {
      const head = await headCommit(ctx, root);
      if (head) ctx.out(`HEAD is now at ${shortOid(head.oid)} ${splitMessage(head.message).subject}\n`);
    }
    return 0;
  },
};

const clean: CommandDef = {
  usage: "usage: git clean (-f | -n) [-d]",
  spec: { flags: [{ name: "force", short: "f" }, { name: "dry-run", short: "n" }, { name: "d" }, QUIET] },
  async run(ctx) {
    noExtra(allPaths(ctx, 0), 0);
    const dryRun = ctx.bool("dry-run") === true;
    if (!ctx.bool("force") && !dryRun) {
      throw new CliUsageError("refusing to clean without -f (remove) or -n (dry run)");
    }
    const root = await ctx.root();
    const directories = ctx.bool("d") === true;
    const from = await ctx.cwdInRepo();
    const inCwd = (p: string) => from === "" || p === from || p.startsWith(from + "/");
    let removed: string[];
    const failures: { path: string; reason: string }[] = []; // fixer GR: ops/worktree.ts CLEAN_FAILURES
    if (dryRun || from === "") {
      removed = await ctx.client.clean({ dir: root, directories, dryRun, ...({ [CLEAN_FAILURES]: failures } as object) }); // fixer GR
    } else {
      // Real git cleans only the cwd's subtree; the client cleans the whole tree, so it runs only when that is the same.
      const planned = await ctx.client.clean({ dir: root, directories, dryRun: true });
      const outside = planned.filter((p) => !inCwd(p));
      if (outside.length > 0) {
        throw new GitError(
          "EUNSUPPORTED",
          `would also remove ${outside.length} untracked path(s) outside ${from}/ (e.g. '${outside[0]}'); run git clean from the repository root`,
        );
      }
      removed = await ctx.client.clean({ dir: root, directories, ...({ [CLEAN_FAILURES]: failures } as object) }); // fixer GR
    }
    const fully = await ctx.quoteFully(); // fixer GR: for the listing and the warnings
    if (!ctx.bool("quiet") || dryRun) { // fixer GR: the listing, unless -q
      for (const p of removed.filter(inCwd).sort(byteOrder)) {
        ctx.out(`${dryRun ? "Would remove" : "Removing"} ${quotePath(relativeTo(p, from), false, fully)}\n`);
      }
    }
    // As git 2.39's clean.c: a path that could not go is warned about (also with -q), the rest removed, exit 1. // fixer GR
    for (const f of failures) ctx.err(`warning: failed to remove ${quotePath(relativeTo(f.path, from), false, fully)}: ${f.reason}\n`); // fixer GR
    return failures.length > 0 ? 1 : 0; // fixer GR
  },
};

const version: CommandDef = {
  usage: "usage: git version",
  spec: { flags: [] },
  async run(ctx) {
    noExtra(ctx.args.positionals, 0);
    ctx.out(`${CLI_VERSION}\n`);
    return 0;
  },
};

const help: CommandDef = {
  usage: "usage: git help [<command>]",
  spec: { flags: [{ name: "all", short: "a" }] },
  async run(ctx) {
    noExtra(ctx.args.positionals, 1);
    const topic = ctx.args.positionals[0];
    if (topic === undefined) {
      ctx.out(helpText());
      return 0;
    }
    const def = COMMANDS[topic];
    if (!def) {
      ctx.err(`git help: '${topic}' is not a supported workspace git command\n`);
      return 1;
    }
    ctx.out(`${def.usage}\n`);
    return 0;
  },
};

/** Every subcommand, by name (spec 04 §2.5). */
export const COMMANDS: Readonly<Record<string, CommandDef>> = {
  help,
  version,
  clone,
  init,
  status,
  add,
  rm,
  commit,
  log,
  show,
  diff,
  "rev-parse": revParse,
  "symbolic-ref": symbolicRef,
  "ls-files": lsFiles,
  "ls-tree": lsTree,
  branch,
  tag,
  checkout,
  switch: switchCmd,
  fetch,
  pull,
  merge,
  push,
  remote,
  "hash-object": hashObject,
  "cat-file": catFile,
  "update-ref": updateRef,
  config,
  stash,
  reset,
  clean,
};

/** `git help` (and empty argv): the usage line and the list of subcommands. */
export function helpText(): string {
  return (
    "usage: git [-C <path>] <command> [<args>]\n\n" +
    "Workspace git commands:\n" +
    Object.keys(COMMANDS)
      .map((name) => `   ${name}\n`)
      .join("") +
    "\n'git help <command>' prints a command's usage.\n"
  );
}
