/**
 * What one git CLI subcommand runs with: the client, the working
 * directory, the parsed arguments, output buffers and the path helpers
 * that turn cwd-relative pathspecs into repository-relative ones
 * (spec 04 §2.5).
 *
 * @module
 */
import { GitError, PathOutsideRepoError, PathspecNotFoundError } from "../errors.js";
import type { GitClient, GitIdentity } from "../types.js";
import { isUnder, normalizePath } from "../../util/path.js";
import { matchesPathspec } from "../wildmatch.js";
import { CliFatalError, CliUsageError, COMMIT_UTF8_WARNING, IDENTITY_ENV, type ParsedArgs } from "./parse.js";
import { gitConfigBool } from "../quote.js";

/**
 * The key of a client's own `(dir) => Promise<string>` resolving a path's links (the repository's
 * canonical path; see repo-lock.ts `CANONICAL_DIR`, the same registered symbol): the CLI reaches it by
 * name, not by import, as it works only through the public client.
 */
const CANONICAL_DIR = Symbol.for("agent-computer.git.canonicalDir");

/** Real git's refusal of an empty pathspec (`git add ''`), printed after `git <sub>: `, exit 128. */
const EMPTY_PATHSPEC = "empty string is not a valid pathspec. please use . instead if you meant to match all paths";

/** The state of one `cli()` call, handed to a subcommand. */
export class CliContext {
  readonly client: GitClient;
  /** The subcommand as typed, e.g. `"status"`. */
  readonly sub: string;
  /** Absolute working directory (after `-C`). */
  readonly cwd: string;
  /** Identity and date variables (never `process.env`). */
  readonly env: Record<string, string | undefined>;
  /** Standard input (`hash-object --stdin`). */
  readonly stdin: string | Uint8Array | undefined;
  /** The parsed arguments after the subcommand. */
  readonly args: ParsedArgs;
  /** The flags and identity variables whose bytes that are not UTF-8 were read as Latin-1 (parse.ts `readBytes`). */
  readonly latin1: ReadonlySet<string>;
  stdout = "";
  stderr = "";
  #root: Promise<string> | undefined;
  #realCwd: Promise<string> | undefined;
  #quoteFully: Promise<boolean> | undefined;

  constructor(init: {
    client: GitClient;
    sub: string;
    cwd: string;
    env: Record<string, string | undefined>;
    stdin: string | Uint8Array | undefined;
    args: ParsedArgs;
    latin1?: ReadonlySet<string>;
  }) {
    this.client = init.client;
    this.sub = init.sub;
    this.cwd = init.cwd;
    this.env = init.env;
    this.stdin = init.stdin;
    this.args = init.args;
    this.latin1 = init.latin1 ?? new Set();
  }

  /**
   * After a commit is written: git's `Warning: commit message did not conform to UTF-8.` (three lines on stderr,
   * `-q` or not) when its text came from a value read as Latin-1 — the flags `flags` (e.g. `"message"`) or, with
   * `identity`, an identity variable (`GIT_AUTHOR_NAME`, …).
   */
  warnLatin1(flags: readonly string[], identity = true): void {
    if ([...flags, ...(identity ? IDENTITY_ENV : [])].some((name) => this.latin1.has(name))) this.err(COMMIT_UTF8_WARNING);
  }

  /** Appends to stdout. */
  out(text: string): void {
    this.stdout += text;
  }

  /** Appends to stderr. */
  err(text: string): void {
    this.stderr += text;
  }

  /** A boolean flag (`undefined` when not given; `false` for `--no-x`). */
  bool(name: string): boolean | undefined {
    const value = this.args.flags.get(name);
    return value === undefined ? undefined : value !== false;
  }

  /** A flag's string value (`undefined` when absent or given without a value). */
  str(name: string): string | undefined {
    const value = this.args.flags.get(name);
    return typeof value === "string" ? value : undefined;
  }

  /**
   * The repository root above the cwd (`client.repoRoot({ dir: cwd })`), once.
   * @throws NotARepositoryError outside a repository.
   */
  root(): Promise<string> {
    this.#root ??= this.client.repoRoot({ dir: this.cwd });
    return this.#root;
  }

  /**
   * Whether paths are quoted in full (`core.quotePath`, default on; off: bytes from 0x80 up printed as they are), read
   * once per command from the repository's `.git/config` as git reads a boolean.
   * @throws CliFatalError `bad boolean config value '<v>' for 'core.quotepath'` (exit 128, as git).
   */
  quoteFully(): Promise<boolean> {
    this.#quoteFully ??= (async () => {
      const value = await this.client.configGet({ dir: await this.root(), path: "core.quotepath" }).catch(() => undefined);
      try {
        return gitConfigBool(value, "core.quotepath", true);
      } catch (error) {
        throw new CliFatalError((error as Error).message, { cause: error });
      }
    })();
    return this.#quoteFully;
  }

  /** `path` with its links resolved, as the filesystem resolves it (the client's canonical path; as given for a client without one). */
  #canonical(path: string): Promise<string> {
    const canonical = (this.client as { [CANONICAL_DIR]?: (dir: string) => Promise<string> })[CANONICAL_DIR];
    return typeof canonical === "function" ? canonical(path) : Promise.resolve(path);
  }

  /**
   * The cwd with its links resolved, once: the root is the repository's
   * real path, so a cwd reached through a link (`/alias/sub` for
   * `/repo/sub`) is related to it by its real path, as real git does.
   */
  realCwd(): Promise<string> {
    this.#realCwd ??= this.#canonical(this.cwd);
    return this.#realCwd;
  }

  /** Whether the repository path `rel` (no trailing `/`) is, or lies through, a symbolic link (its resolved path differs). */
  async viaLink(rel: string): Promise<boolean> {
    const root = await this.root();
    const abs = root === "/" ? `/${rel}` : `${root}/${rel}`;
    return (await this.#canonical(abs)) !== abs;
  }

  /** The cwd relative to the root (`""` at the root). */
  async cwdInRepo(): Promise<string> {
    const root = await this.root();
    return repoRelative(await this.realCwd(), root) ?? "";
  }

  /**
   * A pathspec (relative to the cwd, or absolute) as a repository-relative
   * path; `"."` for the root itself. One written as a directory (`x/`, `x/.`)
   * keeps a trailing `/` (`"x/"`): it matches only what is under a directory
   * `x`, never a file `x` (see {@link specMatches}, {@link assertDirSpecs}).
   * @throws GitError `EPATHSPEC` (exit 128) `empty string is not a valid pathspec. please use . instead if you
   *   meant to match all paths` for `""`, as real git (never taken for the cwd: `git checkout -- "$F"` with `F`
   *   empty restores nothing) · PathOutsideRepoError when it leaves the repository.
   */
  async pathspec(spec: string): Promise<string> {
    if (spec === "") throw new GitError("EPATHSPEC", EMPTY_PATHSPEC);
    const root = await this.root();
    let rel = repoRelative(normalizePath(spec, await this.realCwd()), root);
    if (rel === undefined && spec.startsWith("/")) {
      // An absolute pathspec through a link (`/alias/a.txt`): its directory's real path, its last name as written
      // (a link named there is itself the path); else the real path of the whole (`/alias` for the root).
      const abs = normalizePath(spec);
      const slash = abs.lastIndexOf("/");
      rel = repoRelative(normalizePath(abs.slice(slash + 1), await this.#canonical(abs.slice(0, slash) || "/")), root);
      rel ??= repoRelative(await this.#canonical(abs), root);
    }
    if (rel === undefined) throw new PathOutsideRepoError(spec, root);
    if (rel === "") return ".";
    return /\/\.?$/.test(spec) ? `${rel}/` : rel;
  }

  /** {@link pathspec} of each. */
  async pathspecs(specs: readonly string[]): Promise<string[]> {
    const out: string[] = [];
    for (const spec of specs) out.push(await this.pathspec(spec));
    return out;
  }

  /**
   * `{ timestamp, timezoneOffset }` for author and committer from
   * `GIT_AUTHOR_DATE` / `GIT_COMMITTER_DATE` in `env` (each `undefined`
   * when unset). The committer date falls back to the author date's absence,
   * as in real git (each is independent).
   * @throws CliUsageError for an unreadable date.
   */
  dates(): { author?: { timestamp: number; timezoneOffset: number }; committer?: { timestamp: number; timezoneOffset: number } } {
    const read = (name: string) => {
      const value = this.env[name];
      if (value === undefined || value === "") return undefined;
      const parsed = parseGitDate(value);
      if (!parsed) throw new CliUsageError(`invalid date in ${name}: '${value}'`);
      return parsed;
    };
    const author = read("GIT_AUTHOR_DATE");
    const committer = read("GIT_COMMITTER_DATE");
    return { ...(author ? { author } : {}), ...(committer ? { committer } : {}) };
  }
}

/**
 * Whether the repository path `path` (a file) matches `spec` as {@link CliContext.pathspec} returns it:
 * `"."` everything; a directory form `"x/"` what is below `x/`; `"x"` the file `x` or what is below `x/`; a spec
 * holding a glob character (`*`, `?`, `[`, `\`) also what its pattern matches, `*` crossing `/` (the typed API's
 * `matchesSpec`, git's pathspec matching).
 */
export function specMatches(path: string, spec: string): boolean {
  return spec === "." || matchesPathspec(path, spec);
}

/**
 * Refuses a directory-form pathspec (`x/`, `x/.`) under which `files` (the paths a command matches: the index,
 * a commit's tree) hold nothing — a file `x` does not match it, as in real git. The client matches `x` as a
 * file too, so a command that writes checks this first.
 * @param specs the pathspecs as typed; `paths` the same through {@link CliContext.pathspec}.
 * @throws PathspecNotFoundError `EPATHSPEC` (exit 128) `pathspec '<spec as typed>' did not match any files`.
 */
export function assertDirSpecs(specs: readonly string[], paths: readonly string[], files: readonly string[]): void {
  paths.forEach((p, i) => {
    if (p.endsWith("/") && !files.some((f) => f.startsWith(p))) throw new PathspecNotFoundError(specs[i]!);
  });
}

/** `path` relative to `root` (`""` for the root), or `undefined` when outside it. */
export function repoRelative(path: string, root: string): string | undefined {
  if (!isUnder(path, root)) return undefined;
  if (path === root) return "";
  return root === "/" ? path.slice(1) : path.slice(root.length + 1);
}

/**
 * Reads a git date as `GIT_AUTHOR_DATE` takes it: `@<seconds> [±HHMM]`,
 * `<seconds> ±HHMM`, or ISO 8601 `YYYY-MM-DD[T ]HH:MM:SS[±HH[:]MM|Z]`
 * (no zone: UTC). Returns isomorphic-git's sign for `timezoneOffset`
 * (minutes, UTC − local).
 */
export function parseGitDate(value: string): { timestamp: number; timezoneOffset: number } | undefined {
  const zone = (z: string | undefined): number | undefined => {
    if (z === undefined || z === "" || z === "Z") return 0;
    const m = /^([+-])(\d\d):?(\d\d)$/.exec(z);
    if (!m) return undefined;
    const minutes = Number(m[2]) * 60 + Number(m[3]);
    return m[1] === "-" ? -minutes : minutes;
  };
  const raw = /^@?(\d+)(?:\s+([+-]\d{4}))?$/.exec(value.trim());
  if (raw) {
    const east = zone(raw[2]);
    if (east === undefined) return undefined;
    return { timestamp: Number(raw[1]), timezoneOffset: -east || 0 };
  }
  const iso = /^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d)\s*(Z|[+-]\d\d:?\d\d)?$/.exec(value.trim());
  if (!iso) return undefined;
  const east = zone(iso[7]);
  if (east === undefined) return undefined;
  const utc = Date.UTC(Number(iso[1]), Number(iso[2]) - 1, Number(iso[3]), Number(iso[4]), Number(iso[5]), Number(iso[6]));
  if (Number.isNaN(utc)) return undefined;
  return { timestamp: utc / 1000 - east * 60, timezoneOffset: -east || 0 };
}

/**
 * Reads `--author "Name <email>"`.
 * @throws CliUsageError when it is not in that form.
 */
export function parseAuthor(value: string): GitIdentity {
  const m = /^\s*(.*?)\s*<([^<>]*)>\s*$/.exec(value);
  if (!m || m[1] === "" || m[2] === "") throw new CliUsageError(`--author '${value}' is not 'Name <email>'`);
  return { name: m[1]!, email: m[2]! };
}
