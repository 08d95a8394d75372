/**
 * The git command line of a Workspace (spec 04 §2.5): `runGitCli` parses
 * real-git-style argv and runs it through the public {@link GitClient}
 * only. It never throws for user errors: usage errors exit 129,
 * repository/identity/pathspec errors 128, other failures 1, each printed
 * as `git <sub>: <cause>` on stderr (the client's `git <op> failed: `
 * prefix dropped, see {@link cliMessage}).
 *
 * @module
 */
import { GitError } from "./errors.js";
import type { GitCliInput, GitCliResult, GitClient } from "./types.js";
import { normalizePath } from "../util/path.js";
import { COMMANDS, helpText } from "./cli/commands.js";
import { CliContext } from "./cli/context.js";
import { CliFatalError, CliUsageError, parseArgs, readBytes, refuseBytes, splitGlobal } from "./cli/parse.js";

/** {@link GitError} codes that exit 128 (spec 04 §2.5); every other failure exits 1. */
export const EXIT_128_CODES: ReadonlySet<string> = new Set(["ENOTAREPO", "EALREADYINIT", "EIDENTITY", "EPATHSPEC"]);

/**
 * The cause of a client error as the CLI prints it: the client's
 * `git <op> failed: ` prefix (spec 04 §2.4) and the `git <op>: ` prefix of
 * its usage errors (`EUSAGE`, e.g. `git init: bare must be a boolean`) are
 * dropped, since the CLI already starts the line with `git <sub>: ` (so
 * `git branch: a branch named 'x' already exists`, not
 * `git branch: git branch failed: …`). A cancelled operation's
 * `git <op> cancelled: <reason>; …` (`ECANCELED`) keeps `cancelled: …`.
 */
export function cliMessage(message: string): string {
  return message.replace(/^git [a-z][a-z-]*(?: failed)?: /, "").replace(/^git [a-z][a-z-]* (cancelled: )/, "$1");
}

/**
 * Runs one git command line on `client`.
 *
 * - `input.argv`: the arguments after `git`; a leading `-C <path>` (once)
 *   changes the directory (relative to `cwd`); the pager options before the
 *   subcommand (`--no-pager`, `-P`, `--paginate`, `-p`) change nothing (no
 *   pager here). Empty → help, exit 0.
 * - `input.cwd`: the default directory (absolute Workspace path; default
 *   `/`). The repository is found upward from it and pathspecs are relative
 *   to it.
 * - `input.env`: identity (`GIT_AUTHOR_NAME`, …) and dates
 *   (`GIT_AUTHOR_DATE`, `GIT_COMMITTER_DATE`); `process.env` is never read.
 *
 * A byte that is not UTF-8 in an argument or identity variable (U+DC00 +
 * byte, as the shell passes it; U+FFFD was stored before issue 20's
 * twenty-sixth attack run): in a commit's text (`commit -m`/`--author`,
 * `merge -m`, `stash -m`, `GIT_AUTHOR_NAME`/`EMAIL`,
 * `GIT_COMMITTER_NAME`/`EMAIL`) it is read as its Latin-1 character, as git
 * 2.39 does (`a\xffb` is stored as `aÿb`), with git's `Warning: commit
 * message did not conform to UTF-8.` on stderr once the commit is written;
 * `--format`/`--pretty` keep it; anywhere else (a ref, branch or tag name, a
 * pathspec, a revision, a remote or URL, a config key or value, `-C`) the
 * command is refused, exit 128: `git <sub>: '<arg>': Invalid or incomplete
 * multibyte or wide character (EILSEQ: …)` — the Workspace cannot name it.
 * - `input.stdin`: `hash-object --stdin`'s content.
 *
 * `stdout` holds a blob's bytes (`show <rev>:<path>`, `cat-file -p`, a
 * patch's lines) that are not UTF-8 as U+DC00 + byte (UTF-8 with
 * "surrogateescape"; U+FFFD before issue 20's twenty-fifth attack run), so
 * the shell's `git` writes them back as those bytes; `TextEncoder` still
 * writes each as U+FFFD.
 *
 * @returns `{ stdout, stderr, exitCode }`: 0 ok · 1 failure (an unsupported
 *   transport, `PathOutsideRepoError`, a `GitError` `EUSAGE` from the client
 *   such as `git config: invalid key: a` (real git: 1) or
 *   `git init: invalid initial branch name: 'a..b'` (real git: 128), any
 *   other error) · 128
 *   NotARepository / AlreadyInitialized / MissingIdentity / PathspecNotFound
 *   (also `pathspec '<p>' is beyond a symbolic link`), and where real git
 *   dies with `fatal:` (since issue 20's twenty-fifth attack run; 1 before):
 *   a branch or tag that exists (`branch`, `tag`, `checkout -b`, `switch -c`),
 *   `branch -f` of the current branch, an unknown revision (`branch`/`tag`/
 *   `checkout -b`/`switch -c` start, `log`, `show`, `rev-parse`, `cat-file`),
 *   `<rev>:<path>` naming nothing, `switch` to no branch (`invalid
 *   reference: …`), `log` without commits; an argument naming something
 *   with a byte that is not UTF-8 (above) · 129 usage errors (`unknown option '--x'`, `option '--x' requires a
 *   value`, `unexpected argument '<x>'`, missing arguments).
 * @example
 * ```ts
 * const { stdout, exitCode } = await workspace.git.cli({ argv: ["status", "-s"], cwd: "/repo" });
 * ```
 */
export async function runGitCli(client: GitClient, input: GitCliInput): Promise<GitCliResult> {
  const given = (input ?? {}) as Partial<GitCliInput>;
  if (!Array.isArray(given.argv) || given.argv.some((a) => typeof a !== "string")) {
    return { stdout: "", stderr: "git: argv must be an array of strings\n", exitCode: 129 };
  }
  if (given.cwd !== undefined && (typeof given.cwd !== "string" || given.cwd === "")) {
    return { stdout: "", stderr: "git: cwd must be a non-empty string\n", exitCode: 129 };
  }
  let global: { chdir: string | undefined; rest: string[] };
  try {
    global = splitGlobal(given.argv);
  } catch (error) {
    return { stdout: "", stderr: `git: ${(error as Error).message}\n`, exitCode: 129 };
  }
  try {
    for (const dir of [given.cwd, global.chdir]) if (dir !== undefined) refuseBytes(dir);
  } catch (error) {
    return { stdout: "", stderr: `git: ${(error as Error).message}\n`, exitCode: 128 };
  }
  const base = normalizePath(given.cwd ?? "/");
  const cwd = global.chdir === undefined ? base : normalizePath(global.chdir, base);
  const [sub, ...rest] = global.rest;
  if (sub === undefined) return { stdout: helpText(), stderr: "", exitCode: 0 };
  if (sub === "--version") return runGitCli(client, { ...given, argv: ["version"], cwd });
  if (sub === "--help" || sub === "-h") return runGitCli(client, { ...given, argv: ["help", ...rest], cwd });
  const def = Object.hasOwn(COMMANDS, sub) ? COMMANDS[sub] : undefined;
  if (!def) {
    return { stdout: "", stderr: `git: '${sub}' is not a supported workspace git command\n`, exitCode: 1 };
  }
  if (rest.length === 1 && (rest[0] === "-h" || rest[0] === "--help")) {
    return { stdout: `${def.usage}\n`, stderr: "", exitCode: 0 };
  }
  const env = given.env !== null && typeof given.env === "object" ? given.env : {};
  let ctx: CliContext | undefined;
  try {
    const args = parseArgs(rest, def.spec);
    if (!def.paths && args.afterDashDash !== undefined && args.afterDashDash.length > 0) {
      throw new CliUsageError(`unexpected argument '${args.afterDashDash[0]}'`);
    }
    // Bytes that are not UTF-8, the same for every subcommand: Latin-1 in a commit's text, refused in names.
    const read = readBytes(args, def.spec, env);
    ctx = new CliContext({ client, sub, cwd, env: read.env, stdin: given.stdin, args: read.args, latin1: read.latin1 });
    const exitCode = await def.run(ctx);
    return { stdout: ctx.stdout, stderr: ctx.stderr, exitCode };
  } catch (error) {
    const stdout = ctx?.stdout ?? "";
    const stderr = ctx?.stderr ?? "";
    if (error instanceof CliUsageError) {
      return { stdout, stderr: `${stderr}git ${sub}: ${error.message}\n`, exitCode: 129 };
    }
    const message = cliMessage(error instanceof Error ? error.message : String(error));
    const exitCode = error instanceof CliFatalError || (error instanceof GitError && EXIT_128_CODES.has(error.code)) ? 128 : 1;
    return { stdout, stderr: `${stderr}git ${sub}: ${message}\n`, exitCode };
  }
}
