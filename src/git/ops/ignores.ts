/**
 * Which untracked paths the ignore files (`.gitignore` in every directory,
 * `.git/info/exclude`) ignore, for one operation — `status`, `add`, `diff`,
 * `clean` and `stash` (spec 04 §2.3).
 *
 * The answers are isomorphic-git's `isIgnored`'s: the same `ignore` package
 * (case-insensitive), the same rule bounds (`boundIgnoreRules`, docs/git.md
 * ".gitignore patterns are bounded"), the same order — the root's rules with
 * `info/exclude` first, then each directory's down to the path's, a path in
 * an ignored directory ignored — save where `isIgnored` differs from git:
 * each directory above a path is asked as a directory (`src/`), against the
 * rules of every ignore file above it (the last match wins, a deeper file's
 * after), so a rule re-including a directory (`!*\/`, `!src/lib/`) applies to
 * it as in git (issue 20, twenty-second attack run: `*`, `!*\/`, `!*.ts`
 * hid every source file). But `isIgnored` read and parsed every
 * ancestor's `.gitignore` again for every path, and tested every rule
 * against it: a 250-deep untracked directory chain took 24 s of
 * `git status`, a 20,000-rule `.gitignore` with 100 untracked files 5.9 s
 * (issue 20, thirteenth attack run). Here each ignore file is read and
 * parsed once per operation, a missing one is remembered as missing, and
 * plain-name rules (`node_modules`, `.DS_Store`) are looked up in a set
 * instead of tested one by one; the rules that are patterns are bounded by
 * {@link GIT_IGNORE_MAX_PATTERNS} per path, over all the ignore files that
 * apply to it (a chain of nested `.gitignore` files of 10,000 patterns each
 * held `git status` for minutes; issue 20, fifteenth attack run). A
 * `.gitignore` that is a symbolic link is not read (git 2.32+ opens it
 * O_NOFOLLOW; issue 20, run 40, fixer f40g1); `.git/info/exclude` is.
 *
 * @module
 */
import type { GitContext, IgnoreMatcher } from "../context.js";
import { absPath } from "./tree-state.js";

/**
 * Most pattern rules the Workspace's git applies to one path, summed over
 * the ignore files that apply to it — `.git/info/exclude`, then the root's
 * `.gitignore`, then each directory's down to the path's (so at most this
 * many from one file too): the rules it tests one by one against each
 * untracked path (about 1 µs per rule per path), so neither a hostile
 * `.gitignore` of 200,000 patterns nor 20 nested ones of 10,000 each can
 * hold `git status` for minutes. Rules past the limit are skipped, as if
 * they were comments — the files nearest the root keep theirs first, in
 * order: the paths the skipped rules would ignore show as untracked (real
 * git reads them all). Which rules are kept depends only on the directory
 * chain, so `status`, `add`, `clean`, `diff` and `stash` agree.
 *
 * Counted: every rule except blank lines, comments and — in a file with no
 * `!` (re-include) rule — plain names (letters, digits and `._+=,@%~-`, no
 * `/`: `node_modules`, `.DS_Store`), which are looked up in a set and have
 * no limit. In a file with a `!` rule, every rule counts (order matters).
 * @defaultValue 10,000 rules per path, over the ignore files above it
 */
export const GIT_IGNORE_MAX_PATTERNS = 10_000;

/** A rule that is a plain name: it matches a path component equal to it (ASCII case-insensitive). */
const PLAIN_NAME = /^[A-Za-z0-9._+=,@%~-]+$/;

/**
 * The `ignore` matcher of one directory's ignore files' `texts` (in order: the
 * root's are `.git/info/exclude`, then `.gitignore`), bounded as
 * {@link GIT_IGNORE_MAX_PATTERNS} says, or `undefined` when they hold no rule.
 */
export function compileIgnoreFile(git: GitContext["git"], texts: readonly string[]): IgnoreMatcher | undefined {
  return compileIgnoreRules(git, texts, GIT_IGNORE_MAX_PATTERNS).matcher;
}

/**
 * {@link compileIgnoreFile} keeping at most `budget` pattern rules (the
 * directories above have used the rest); `patterns`: how many it kept.
 */
function compileIgnoreRules(git: GitContext["git"], texts: readonly string[], budget: number): { matcher: IgnoreMatcher | undefined; patterns: number } {
  const files = texts.map((text) =>
    git
      .boundIgnoreRules(text)
      .split(/\r?\n/)
      .filter((line) => line !== "" && !/^\s+$/.test(line) && !line.startsWith("#")),
  );
  if (files.every((rules) => rules.length === 0)) return { matcher: undefined, patterns: 0 };
  const negations = files.some((rules) => rules.some((rule) => rule.startsWith("!")));
  const names = new Set<string>();
  const patterns: string[] = [];
  for (const rules of files) {
    for (const rule of rules) {
      if (!negations && PLAIN_NAME.test(rule) && !/^\.+$/.test(rule)) names.add(asciiLower(rule));
      else if (patterns.length < budget) patterns.push(rule);
    }
  }
  const matcher = git.createIgnore();
  matcher.add(patterns.join("\n"));
  if (names.size === 0) return { matcher, patterns: patterns.length };
  // No `!` rule: a path is ignored when any rule matches it or a directory above it, so the
  // plain names (which match a path's last component, or a directory's) go first, as a set.
  const named = (path: string) => path.split("/").some((part) => part !== "" && names.has(asciiLower(part)));
  const IGNORED = { ignored: true, unignored: false };
  return {
    matcher: {
      add: () => {
        throw new Error("compileIgnoreFile: the matcher is complete");
      },
      ignores: (path) => named(path) || matcher.ignores(path),
      test: (path) => (named(path) ? IGNORED : matcher.test(path)),
      // The path itself only: its last component (`dir/` for a directory) is a plain name.
      match: (path) => (names.has(asciiLower(lastName(path))) ? IGNORED : matcher.match(path)),
    },
    patterns: patterns.length,
  };
}

/** The last component of `path` (`a/b/` → `b`). */
function lastName(path: string): string {
  const end = path.endsWith("/") ? path.length - 1 : path.length;
  return path.slice(path.lastIndexOf("/", end - 1) + 1, end);
}

/** `text` with A–Z lowered only (the `ignore` package's case-insensitive regexes fold nothing else onto ASCII). */
function asciiLower(text: string): string {
  return /[A-Z]/.test(text) ? text.replace(/[A-Z]+/g, (s) => s.toLowerCase()) : text;
}

/**
 * Which untracked paths the ignore files ignore, for ONE operation: each
 * ignore file is read and compiled ({@link compileIgnoreFile}) when the
 * first path below its directory is asked about, and a missing one is
 * remembered as missing; a directory's file keeps only the pattern rules the
 * files above it left of {@link GIT_IGNORE_MAX_PATTERNS}. Make a new one per
 * operation: a `.gitignore` written afterwards is not seen.
 */
export class WorktreeIgnores {
  readonly #ctx: GitContext;
  readonly #dir: string;
  /**
   * Directory (relative, `""` = the root) → its rules (`undefined` when it has
   * none) and the pattern rules kept in it and the directories above it.
   */
  readonly #matchers = new Map<string, Promise<{ matcher: IgnoreMatcher | undefined; used: number }>>();
  /** Directories (relative) listed without a `.gitignore`: theirs is not read. */
  readonly #noIgnoreFile = new Set<string>();

  /** `dir`: the working tree (absolute); `.git/info/exclude` is read from `dir/.git`. */
  constructor(ctx: GitContext, dir: string) {
    this.#ctx = ctx;
    this.#dir = dir;
  }

  /**
   * Tells what the directory `path` (absolute, as the walk lists it) holds:
   * when it holds no `.gitignore`, none is read for it (a read of a missing
   * file deep down costs a lookup of the whole path).
   */
  noteListing(path: string, names: readonly string[]): void {
    if (names.includes(".gitignore")) return;
    const base = this.#dir === "/" ? "/" : `${this.#dir}/`;
    if (path === this.#dir) this.#noIgnoreFile.add("");
    else if (path.startsWith(base)) this.#noIgnoreFile.add(path.slice(base.length));
  }

  /**
   * Directory (relative) → whether it is excluded, itself or through a
   * directory above it: asked once per operation for all the paths below it.
   */
  readonly #excluded = new Map<string, Promise<boolean>>();

  /**
   * Whether `filepath` (relative to the working tree, `/`-separated) is
   * ignored, as git decides (its `dir.c`): when a directory above it is
   * excluded, it is; else when the last rule matching it — over the ignore
   * files of the directories above it, the root's (with `info/exclude` first)
   * first — is not a `!` rule. Each directory above is matched as a directory
   * (`src/`: a rule ending in `/`, such as `!*\/`, applies to it), and so is
   * `filepath` when `directory` is `true` (what the walk met is a directory).
   */
  async isIgnored(filepath: string, directory = false): Promise<boolean> {
    if (filepath === "." || filepath === "") return false;
    if (filepath === ".git" || filepath.endsWith("/.git")) return true;
    const parent = filepath.lastIndexOf("/");
    if (parent > 0 && (await this.#dirExcluded(filepath.slice(0, parent)))) return true;
    return this.#lastMatchIgnores(filepath, directory);
  }

  /** Whether the directory `dir` (relative) is excluded, or one above it is. */
  #dirExcluded(dir: string): Promise<boolean> {
    let excluded = this.#excluded.get(dir);
    if (excluded === undefined) {
      const parent = dir.lastIndexOf("/");
      excluded = (async () => (parent > 0 && (await this.#dirExcluded(dir.slice(0, parent)))) || this.#lastMatchIgnores(dir, true))();
      this.#excluded.set(dir, excluded);
    }
    return excluded;
  }

  /**
   * Whether the last rule matching `path` itself (`path/` when `directory`),
   * over the ignore files of the directories above it from the root down, is
   * an ignoring one (not `!`). The directories above are not asked here.
   */
  async #lastMatchIgnores(path: string, directory: boolean): Promise<boolean> {
    let ignored = false;
    // Pattern rules kept in the directories above (GIT_IGNORE_MAX_PATTERNS bounds them together).
    let used = 0;
    // `slash`: where the directory whose rules apply ends (-1: the root).
    for (let slash = -1; slash < path.length; slash = nextSlash(path, slash)) {
      const rules = await this.#matcher(slash < 0 ? "" : path.slice(0, slash), used);
      used = rules.used;
      if (rules.matcher === undefined) continue;
      const result = rules.matcher.match(directory ? `${path.slice(slash + 1)}/` : path.slice(slash + 1));
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    }
    return ignored;
  }

  /** `folder`'s rules; `above`: the pattern rules its ancestors kept (the same for every path below it). */
  #matcher(folder: string, above: number): Promise<{ matcher: IgnoreMatcher | undefined; used: number }> {
    let rules = this.#matchers.get(folder);
    if (rules === undefined) {
      rules = this.#load(folder, above);
      this.#matchers.set(folder, rules);
    }
    return rules;
  }

  async #load(folder: string, above: number): Promise<{ matcher: IgnoreMatcher | undefined; used: number }> {
    const texts: string[] = [];
    if (folder === "") texts.push(await this.#read(absPath(this.#dir, ".git/info/exclude")));
    if (!this.#noIgnoreFile.has(folder)) texts.push(await this.#read(absPath(this.#dir, folder === "" ? ".gitignore" : `${folder}/.gitignore`), true));
    const { matcher, patterns } = compileIgnoreRules(this.#ctx.git, texts, Math.max(0, GIT_IGNORE_MAX_PATTERNS - above));
    return { matcher, used: above + patterns };
  }

  /**
   * The file's text; `""` when it cannot be read (missing, a directory), as `isIgnored`. `noFollow`: a
   * symbolic link is not read either (`""`) — git (since 2.32) opens an in-tree `.gitignore` with O_NOFOLLOW,
   * so a link to a file anywhere (outside the repository) is no ignore file (issue 20, run 40, fixer f40g1).
   */
  async #read(path: string, noFollow = false): Promise<string> {
    try {
      if (noFollow && (await this.#ctx.fs.promises.lstat(path)).isSymbolicLink()) return "";
      const text = await this.#ctx.fs.promises.readFile(path, "utf8");
      return typeof text === "string" ? text : new TextDecoder().decode(text as Uint8Array);
    } catch {
      return "";
    }
  }
}

/** The index of the next `/` after `from` in `path`, or `path.length`. */
function nextSlash(path: string, from: number): number {
  const at = path.indexOf("/", from + 1);
  return at < 0 ? path.length : at;
}
