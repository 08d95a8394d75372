/**
 * Argument parsing of the git CLI (spec 04 §2.5): `--f`, `--f=v`, `--f v`,
 * single-letter aliases (`-m v`, `-mv`), `--no-<f>` for negatable flags,
 * `--` ends flags; single-letter flags cluster (`-am msg`, `-qm msg`, `-fdn`)
 * in every command, as git's parse-options (gitcli(7)): a letter taking a
 * value takes the rest of the cluster or the next argument. Pure: no I/O.
 *
 * Bytes that are not UTF-8 (the shell passes each as U+DC00 + byte) are read in one place, {@link readBytes}.
 *
 * @module
 */
import { utf8EscapeDecode, utf8EscapeEncode } from "../../util/utf8-escape.js";

/** One flag a subcommand accepts. */
export interface FlagSpec {
  /** Long name without dashes, e.g. `"depth"`; the key of {@link ParsedArgs.flags}. */
  name: string;
  /** Single-letter alias without the dash, e.g. `"b"`. */
  short?: string;
  /**
   * `"none"` (boolean, the default), `"required"` (`--f v`, `--f=v`, `-fv`,
   * `-f v`), or `"optional"` (only `--f=v` or `-fv`; bare `--f`/`-f` gives `true`).
   */
  value?: "none" | "required" | "optional";
  /** `--no-<name>` sets it to `false`. Default `false`. */
  negatable?: boolean;
  /** Collect every occurrence into {@link ParsedArgs.lists} (e.g. `-m` given twice). Default: last wins. */
  multiple?: boolean;
  /**
   * How a byte that is not UTF-8 in the value is read ({@link readBytes}): `"latin1"` for text a commit stores
   * (`-m`, `--author`): the Latin-1 character of that byte, git's verify_utf8 repair; `"keep"` for text only
   * printed (`--format`): as given, so the byte comes out again. Default: refused (a name, ref, path or revision).
   */
  bytes?: "latin1" | "keep";
}

/** How one subcommand's argv is parsed. */
export interface ArgsSpec {
  flags: readonly FlagSpec[];
  /** `-<N>` (e.g. `log -3`) sets this flag to `"N"`. Default: not accepted. */
  numericFlag?: string;
}

/** The result of {@link parseArgs}. */
export interface ParsedArgs {
  /** Flag name → `true`/`false` (booleans) or its last value. */
  flags: Map<string, string | boolean>;
  /** Every value of `multiple` flags, in order. */
  lists: Map<string, string[]>;
  /** Arguments that are not flags, before `--`. */
  positionals: string[];
  /** Arguments after `--` (`undefined` when there was no `--`). */
  afterDashDash: string[] | undefined;
}

/** A usage error: printed as `git <sub>: <message>`, exit 129. */
export class CliUsageError extends Error {
  override readonly name = "CliUsageError";
}

/**
 * A failure real git reports with `fatal:` and exit 128 (`a branch named 'b' already exists`, `invalid reference:
 * nope`, an unknown revision): printed as `git <sub>: <message>` (the client's `git <op> failed: ` prefix dropped).
 */
export class CliFatalError extends Error {
  override readonly name = "CliFatalError";
}

/** `error` as a {@link CliFatalError} (exit 128) when `fatal(error)` says real git dies there, else as it is. */
export function fatalIf(error: unknown, fatal: (error: { code?: unknown; message: string }) => boolean): unknown {
  return error instanceof Error && fatal(error as Error & { code?: unknown }) ? new CliFatalError(error.message, { cause: error }) : error;
}

/** `op`, a failure of it rethrown through {@link fatalIf}. */
export async function fatalOn<T>(op: Promise<T>, fatal: (error: { code?: unknown; message: string }) => boolean): Promise<T> {
  try {
    return await op;
  } catch (error) {
    throw fatalIf(error, fatal);
  }
}

/**
 * Parses `argv` (the arguments after the subcommand) against `spec`.
 *
 * @throws CliUsageError `unknown option '--x'`, `option '--x' requires a value`,
 *   `option '--x' takes no value`.
 * @example
 * parseArgs(["-am", "msg", "--amend"], { flags: [{ name: "all", short: "a" }, { name: "message", short: "m", value: "required" }, { name: "amend" }] })
 * // flags: all=true, message="msg", amend=true
 */
export function parseArgs(argv: readonly string[], spec: ArgsSpec): ParsedArgs {
  const out: ParsedArgs = { flags: new Map(), lists: new Map(), positionals: [], afterDashDash: undefined };
  const set = (flag: FlagSpec, value: string | boolean): void => {
    out.flags.set(flag.name, value);
    if (flag.multiple && typeof value === "string") {
      const list = out.lists.get(flag.name) ?? [];
      list.push(value);
      out.lists.set(flag.name, list);
    }
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      out.afterDashDash = argv.slice(i + 1);
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      const inline = eq < 0 ? undefined : arg.slice(eq + 1);
      const flag = name.length > 1 ? spec.flags.find((f) => f.name === name) : undefined;
      if (!flag && name.startsWith("no-")) {
        const positive = spec.flags.find((f) => f.name === name.slice(3) && f.negatable);
        if (positive) {
          if (inline !== undefined) throw new CliUsageError(`option '--${name}' takes no value`);
          set(positive, false);
          continue;
        }
      }
      if (!flag) throw new CliUsageError(`unknown option '--${name}'`);
      const kind = flag.value ?? "none";
      if (kind === "none") {
        if (inline !== undefined) throw new CliUsageError(`option '--${name}' takes no value`);
        set(flag, true);
      } else if (kind === "optional") {
        set(flag, inline ?? true);
      } else if (inline !== undefined) {
        set(flag, inline);
      } else {
        if (i + 1 >= argv.length) throw new CliUsageError(`option '--${name}' requires a value`);
        set(flag, argv[++i]!);
      }
      continue;
    }
    if (arg.startsWith("-") && arg.length > 1) {
      if (spec.numericFlag && /^-\d+$/.test(arg)) {
        const flag = spec.flags.find((f) => f.name === spec.numericFlag)!;
        set(flag, arg.slice(1));
        continue;
      }
      const letters = arg.slice(1);
      const first = spec.flags.find((f) => isShort(f, letters[0]!));
      if (!first) throw new CliUsageError(`unknown option '-${letters[0]}'`);
      if ((first.value ?? "none") === "optional") {
        set(first, letters.length > 1 ? letters.slice(1) : true);
        continue;
      }
      if (letters.length === 1 || (first.value ?? "none") === "required") {
        if ((first.value ?? "none") === "required") {
          if (letters.length > 1) set(first, letters.slice(1));
          else if (i + 1 >= argv.length) throw new CliUsageError(`option '-${letters}' requires a value`);
          else set(first, argv[++i]!);
        } else {
          set(first, true);
        }
        continue;
      }
      // A cluster of several letters (git's parse-options: `-qm msg` is `-q -m msg`).
      for (let k = 0; k < letters.length; k++) {
        const letter = letters[k]!;
        const flag = spec.flags.find((f) => isShort(f, letter));
        if (!flag) throw new CliUsageError(`unknown option '-${letter}'`);
        if ((flag.value ?? "none") === "optional") {
          set(flag, letters.length > k + 1 ? letters.slice(k + 1) : true);
          break;
        }
        if ((flag.value ?? "none") === "required") {
          const rest = letters.slice(k + 1);
          if (rest) set(flag, rest);
          else if (i + 1 >= argv.length) throw new CliUsageError(`option '-${letter}' requires a value`);
          else set(flag, argv[++i]!);
          break;
        }
        set(flag, true);
      }
      continue;
    }
    out.positionals.push(arg);
  }
  return out;
}

/** A flag reached by `-<letter>`: its `short`, or a one-letter `name` (`-d`, `-D`, `-b`). */
function isShort(flag: FlagSpec, letter: string): boolean {
  return flag.short === letter || (flag.name.length === 1 && flag.name === letter);
}

/**
 * git's pager options (`--no-pager`/`-P`, `--paginate`/`-p`) before the subcommand: there is no pager here (output is
 * returned, never a terminal's), so each is taken and changes nothing, as git's when stdout is no terminal (issue 20,
 * run 40, fixer f40g2; before, `git --no-pager log` was refused as an unknown command).
 */
export const PAGER_OPTIONS: ReadonlySet<string> = new Set(["--no-pager", "-P", "--paginate", "-p"]);

/**
 * Splits the leading global options: `-C <path>` (once; relative paths join
 * `cwd`) and the {@link PAGER_OPTIONS} (dropped), in any order, before the subcommand.
 *
 * @throws CliUsageError `option '-C' requires a value`, `option '-C' given more than once`.
 */
export function splitGlobal(argv: readonly string[]): { chdir: string | undefined; rest: string[] } {
  let chdir: string | undefined;
  let i = 0;
  while (i < argv.length) {
    const arg = argv[i]!;
    if (PAGER_OPTIONS.has(arg)) {
      i += 1;
      continue;
    }
    if (arg !== "-C" && !(arg.startsWith("-C") && arg.length > 2)) break;
    if (chdir !== undefined) throw new CliUsageError("option '-C' given more than once");
    if (arg.length > 2) {
      chdir = arg.slice(2);
      i += 1;
    } else {
      if (i + 1 >= argv.length) throw new CliUsageError("option '-C' requires a value");
      chdir = argv[i + 1]!;
      i += 2;
    }
    if (chdir === "") throw new CliUsageError("option '-C' requires a value");
  }
  return { chdir, rest: argv.slice(i) };
}

/** A byte that is not UTF-8 as the shell passes it: a lone U+DC80…U+DCFF (U+DC00 + byte, src/util/utf8-escape.ts). */
const NOT_UTF8_BYTE = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/;
const NOT_UTF8_BYTES = new RegExp(NOT_UTF8_BYTE.source, "g");

/**
 * The identity variables a commit stores (git reads them as text: a byte that is not UTF-8 is its Latin-1
 * character, with {@link COMMIT_UTF8_WARNING}); other variables are left as given.
 */
export const IDENTITY_ENV: readonly string[] = ["GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"];

/** Real git's warning (commit_tree_extended, on stderr, `-q` or not) for a commit whose text was not UTF-8. */
export const COMMIT_UTF8_WARNING =
  "Warning: commit message did not conform to UTF-8.\n" +
  "You may want to amend it after fixing the message, or set the config\n" +
  "variable i18n.commitEncoding to the encoding your project uses.\n";

/**
 * `text` with its runs of byte escapes that form UTF-8 joined (`\303` `\251` given apart → `é`); bytes that form no
 * UTF-8 stay escapes. As given when it holds none.
 */
function joinBytes(text: string): string {
  return NOT_UTF8_BYTE.test(text) ? utf8EscapeDecode(utf8EscapeEncode(text)) : text;
}

/** `text` with each byte that is not UTF-8 as the character U+0080…U+00FF of the same number (git's verify_utf8). */
function latin1(text: string): string {
  return text.replace(NOT_UTF8_BYTES, (c) => String.fromCharCode(c.charCodeAt(0) - 0xdc00));
}

/**
 * Refuses an argument holding a byte that is not UTF-8 where it would name something (a ref, a path, a revision,
 * a remote, a config key or value): real git takes the byte, but a Workspace's names and refs are UTF-8 only, and
 * storing U+FFFD would give another name. Exit 128.
 * @throws CliFatalError `'<arg>': Invalid or incomplete multibyte or wide character (EILSEQ: …)`.
 */
export function refuseBytes(arg: string): string {
  const joined = joinBytes(arg);
  if (NOT_UTF8_BYTE.test(joined)) {
    throw new CliFatalError(
      `'${joined}': Invalid or incomplete multibyte or wide character (EILSEQ: names, refs and paths in the Workspace are UTF-8 only)`,
    );
  }
  return joined;
}

/**
 * Reads the bytes that are not UTF-8 (U+DC00 + byte, as the shell passes them) in one command's parsed arguments
 * and environment, the same for every subcommand:
 * - a flag value with `bytes: "latin1"` and the {@link IDENTITY_ENV} variables: each such byte as its Latin-1
 *   character (git 2.39's verify_utf8 repair: `a\377b` is stored as `61 c3 bf 62`); the names of those repaired
 *   are returned in `latin1`, for {@link COMMIT_UTF8_WARNING} once a commit is written from them;
 * - a flag value with `bytes: "keep"`: as given;
 * - any other flag value, positional or argument after `--`: refused ({@link refuseBytes}).
 * Runs of escapes that form UTF-8 are joined first everywhere.
 * @throws CliFatalError for a refused argument (exit 128).
 */
export function readBytes(
  args: ParsedArgs,
  spec: ArgsSpec,
  env: Readonly<Record<string, string | undefined>>,
): { args: ParsedArgs; env: Record<string, string | undefined>; latin1: ReadonlySet<string> } {
  const repaired = new Set<string>();
  const read = (name: string, mode: FlagSpec["bytes"], value: string): string => {
    if (mode === "keep") return joinBytes(value);
    if (mode !== "latin1") return refuseBytes(value);
    const joined = joinBytes(value);
    if (!NOT_UTF8_BYTE.test(joined)) return joined;
    repaired.add(name);
    return latin1(joined);
  };
  const modeOf = (name: string) => spec.flags.find((f) => f.name === name)?.bytes;
  const flags = new Map<string, string | boolean>();
  for (const [name, value] of args.flags) flags.set(name, typeof value === "string" ? read(name, modeOf(name), value) : value);
  const lists = new Map<string, string[]>();
  for (const [name, values] of args.lists) lists.set(name, values.map((v) => read(name, modeOf(name), v)));
  const outEnv: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(env)) {
    outEnv[name] = typeof value !== "string" ? value : IDENTITY_ENV.includes(name) ? read(name, "latin1", value) : joinBytes(value);
  }
  return {
    args: {
      flags,
      lists,
      positionals: args.positionals.map(refuseBytes),
      afterDashDash: args.afterDashDash?.map(refuseBytes),
    },
    env: outEnv,
    latin1: repaired,
  };
}
