/**
 * Shell commands scripts and agents reach for that just-bash 3.4.2 lacked or
 * got wrong (issue 20, twenty-fifth attack run, fixer SW), as bash 5.2 and
 * GNU coreutils 9.1 / findutils 4.9 have them:
 *
 * - `trap` (EXIT/0, ERR, signals stored, `-p`, `-l`, `-`, `''`), with the
 *   EXIT trap run once when a shell, subshell or `$(…)` ends and the ERR
 *   trap after a failing command where `set -e` would apply;
 * - printf `%q` / `%Q` quoting as bash's;
 * - `xargs` as GNU xargs (quotes, `-I`/`-i`, `-L`, `-d`, `-E`, `-s`, `-a`,
 *   exit statuses 123/124/127);
 * - `mktemp` as GNU mktemp.
 *
 * scripts/gen-shell.mjs patches just-bash to call these, imported as the
 * namespace `__scriptBuiltins`; `mktemp` is a custom command (worker.ts).
 * This module is bundled into the shell Worker and imports nothing of just-bash.
 *
 * @module
 */
import { reason } from "./path-errors.js";

interface ExecResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  internalOutputAccounting?: { stdout: number; stderr: number };
  [key: string]: unknown;
}

// ---------------------------------------------------------------------------
// printf %q / %Q: bash's quoting.

/** The characters bash's sh_backslash_quote escapes with a backslash anywhere in a word. */
const BACKSLASHED = new Set(" \t\n!\"$&'()*,;<>?[\\]^`{|}");

/** Whether code point `cp` is one bash (C.UTF-8) prints as is: not a control, DEL, C1 control or a byte that is not UTF-8. */
function printable(cp: number): boolean {
  return !(cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || (cp >= 0xd800 && cp <= 0xdfff) || cp === 0x2028 || cp === 0x2029);
}

/** The bytes of `ch` (one code point; a U+DC80…U+DCFF escape is the byte it stands for). */
function bytesOf(ch: string): number[] {
  const cp = ch.codePointAt(0) ?? 0;
  if (cp >= 0xdc80 && cp <= 0xdcff) return [cp - 0xdc00];
  return [...new TextEncoder().encode(ch)];
}

const ANSI_C: Record<string, string> = { "\x07": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v", "\x1b": "\\E", "'": "\\'", "\\": "\\\\" };

/**
 * `value` quoted as bash 5.2's `printf %q` (and `${x@Q}`-like reuse) writes
 * it: `''` when empty; `$'…'` (ANSI-C, octal bytes) when it has a character
 * that is not printable; else each shell-special character backslashed
 * (`a\ b`, `c\'d`; `#` first, `~` first or after `=`/`:`).
 */
export function shellQuote(value: string): string {
  if (value === "") return "''";
  const chars = [...value];
  if (chars.some((ch) => !printable(ch.codePointAt(0) ?? 0))) {
    let out = "$'";
    for (const ch of chars) {
      const known = ANSI_C[ch];
      if (known !== undefined) out += known;
      else if (printable(ch.codePointAt(0) ?? 0)) out += ch;
      else for (const byte of bytesOf(ch)) out += `\\${byte.toString(8).padStart(3, "0")}`;
    }
    return `${out}'`;
  }
  let out = "";
  chars.forEach((ch, i) => {
    if (BACKSLASHED.has(ch) || (ch === "#" && i === 0) || (ch === "~" && (i === 0 || chars[i - 1] === "=" || chars[i - 1] === ":"))) out += "\\";
    out += ch;
  });
  return out;
}

/**
 * printf's `%q` / `%Q` of `arg` for directive `spec` (`%-10.3q`): `%Q`
 * takes the precision of `arg` before quoting it, `%q` of the quoted text;
 * the width pads (left with `-`).
 */
export function printfQuote(spec: string, arg: string): string {
  const m = /^%([-+ #0']*)(\d*)(?:\.(\d*))?[hlLjzt]*([qQ])$/.exec(spec);
  if (m === null) return shellQuote(arg);
  const [, flags = "", width = "", precision, conversion] = m;
  const limit = precision === undefined ? undefined : Number(precision || "0");
  let text = conversion === "Q" && limit !== undefined ? shellQuote([...arg].slice(0, limit).join("")) : shellQuote(arg);
  if (conversion === "q" && limit !== undefined) text = [...text].slice(0, limit).join("");
  const pad = Number(width || "0") - [...text].length;
  if (pad > 0) text = flags.includes("-") ? text + " ".repeat(pad) : " ".repeat(pad) + text;
  return text;
}

// ---------------------------------------------------------------------------
// xargs as GNU findutils 4.9.

/** What the patched just-bash xargs hands over: how to run one command line, decode stdin, account output. */
export interface XargsDeps {
  /** Runs argv (argv[0] the command name) as just-bash's xargs did; null when the shell cannot run commands. */
  run(argv: string[]): Promise<ExecResult> | null;
  /** stdin as text. */
  decode(stdin: unknown): string;
  /** just-bash's output accumulator for this command (limits), when the shell has one. */
  scope(): { appendResult(r: ExecResult): void; append(stream: "stdout" | "stderr", text: string): void; build(code: number): ExecResult } | undefined;
  /** just-bash's `xargs --help`. */
  help(): ExecResult;
}

interface XargsContext {
  stdin?: unknown;
  cwd: string;
  fs: { resolvePath(base: string, path: string): string; readFile(path: string): Promise<string> };
  limits?: { maxLoopIterations?: number };
}

const XARGS_TRY = "Try 'xargs --help' for more information.\n";
/** GNU xargs's default command-line buffer (bytes, each argument counted with its terminating NUL). */
const XARGS_DEFAULT_SIZE = 131072;
/** The largest -s GNU xargs takes on Linux (ARG_MAX less the environment, as it prints with --show-limits). */
const XARGS_MAX_SIZE = 2091367;

const XARGS_LONG: Record<string, { short: string; arg: "none" | "required" | "optional" }> = {
  null: { short: "0", arg: "none" },
  "arg-file": { short: "a", arg: "required" },
  delimiter: { short: "d", arg: "required" },
  eof: { short: "e", arg: "optional" },
  replace: { short: "i", arg: "optional" },
  "max-lines": { short: "l", arg: "optional" },
  "max-args": { short: "n", arg: "required" },
  "max-procs": { short: "P", arg: "required" },
  "no-run-if-empty": { short: "r", arg: "none" },
  "max-chars": { short: "s", arg: "required" },
  verbose: { short: "t", arg: "none" },
  exit: { short: "x", arg: "none" },
  help: { short: "help", arg: "none" },
};
/** Short options: their argument (`:` required, `::` optional and attached only). */
const XARGS_SHORT: Record<string, "none" | "required" | "optional"> = { "0": "none", a: "required", E: "required", e: "optional", i: "optional", I: "required", l: "optional", L: "required", n: "required", P: "required", r: "none", s: "required", t: "none", x: "none", d: "required" };

function xargsFail(message: string, tryHelp = true): ExecResult {
  return { stdout: "", stderr: `xargs: ${message}\n${tryHelp ? XARGS_TRY : ""}`, exitCode: 1 };
}

/** GNU xargs's reading of a -d delimiter: one character, or an escape (`\n`, `\t`, `\0`, `\\`, `\ooo`, `\xHH`). */
function xargsDelimiter(spec: string): string | ExecResult {
  if ([...spec].length === 1) return spec;
  const simple: Record<string, string> = { a: "\x07", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v", "\\": "\\" };
  if (spec.length === 2 && spec[0] === "\\" && simple[spec[1] as string] !== undefined) return simple[spec[1] as string] as string;
  let m = /^\\x([0-9a-fA-F]{1,2})$/.exec(spec);
  if (m) return String.fromCharCode(parseInt(m[1] as string, 16));
  m = /^\\([0-7]{1,3})$/.exec(spec);
  if (m && parseInt(m[1] as string, 8) < 256) return String.fromCharCode(parseInt(m[1] as string, 8));
  return xargsFail(`invalid input delimiter specification ${spec}: the delimiter must be either a single character or an escape sequence starting with \\.`, false);
}

/** A count option's value (`-n`, `-L`, `-s`, `-P`) as GNU xargs checks it, or its error. */
function xargsNumber(value: string, option: string, min: number, max = Number.MAX_SAFE_INTEGER): number | ExecResult {
  if (!/^\s*[+-]?\d+$/.test(value)) return xargsFail(`invalid number "${value}" for -${option} option`);
  const n = Number(value);
  if (n < min) return xargsFail(`value ${value} for -${option} option should be >= ${min}`);
  if (n > max) return xargsFail(`value ${value} for -${option} option should be <= ${max}`);
  return n;
}

/** One input item and whether a line ended after it (for -L). */
interface Item {
  value: string;
  endsLine: boolean;
}

/**
 * The items of `input` as GNU xargs reads them without -0/-d: blanks and
 * newlines separate, `'…'` and `"…"` quote (not across a line), `\` escapes;
 * with `replace` each line is one item (leading blanks dropped); an
 * unquoted item equal to `eof` ends the input. A line ending in a blank
 * goes on to the next for -L.
 */
function xargsItems(input: string, replace: boolean, eof: string | undefined): Item[] | string {
  const items: Item[] = [];
  let current = "";
  let has = false;
  let quoted = false;
  let quote = "";
  let lastBlank = false;
  const end = (endsLine: boolean): boolean => {
    if (has) {
      if (!quoted && eof !== undefined && current === eof) return false;
      items.push({ value: current, endsLine });
    } else if (endsLine && items.length > 0 && !lastBlank) {
      (items[items.length - 1] as Item).endsLine = true;
    }
    current = "";
    has = false;
    quoted = false;
    return true;
  };
  for (let i = 0; i < input.length; i++) {
    const c = input[i] as string;
    if (quote !== "") {
      if (c === quote) quote = "";
      else if (c === "\n") return `unmatched ${quote === "'" ? "single" : "double"} quote; by default quotes are special to xargs unless you use the -0 option`;
      else current += c;
      continue;
    }
    if (c === "\n") {
      if (replace) {
        if (!end(true)) return items;
      } else if (!end(!lastBlank || has)) return items;
      lastBlank = false;
      continue;
    }
    if ((c === " " || c === "\t") && !replace) {
      if (!end(false)) return items;
      lastBlank = true;
      continue;
    }
    if ((c === " " || c === "\t") && replace && !has) continue;
    lastBlank = false;
    if (c === "'" || c === '"') {
      quote = c;
      has = true;
      quoted = true;
      continue;
    }
    if (c === "\\" && i + 1 < input.length) {
      current += input[++i];
      has = true;
      continue;
    }
    current += c;
    has = true;
  }
  if (quote !== "") return `unmatched ${quote === "'" ? "single" : "double"} quote; by default quotes are special to xargs unless you use the -0 option`;
  end(true);
  return items;
}

/** An argument as `xargs -t` prints it: bare, or shell-quoted when it has a special character. */
function xargsTraceWord(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`;
}

/**
 * `xargs ARGS` as GNU findutils 4.9's xargs: options (`-0 -a -d -E -e -I -i
 * -L -l -n -P -r -s -t -x`, the long forms, GNU's messages and `Try`),
 * input read with quotes and backslashes (or split at -0/-d exactly), the
 * command (default `echo`) run once even for empty input (not with -r or
 * -I), lines grouped by -L, arguments by -n and by the -s size (default
 * 131072), each -I line put in place of REPLACE. Status: 0; 123 when a run
 * ended 1–125; 124 (and stop) when one ended 255; 127 (and stop) when the
 * command is not found (`xargs: CMD: No such file or directory`); 1 for a
 * usage error or unmatched quote. Commands run one at a time (-P accepted).
 */
export async function xargs(args: string[], ctx: XargsContext, deps: XargsDeps): Promise<ExecResult> {
  let delimiter: string | undefined;
  let argFile: string | undefined;
  let eof: string | undefined;
  let replace: string | undefined;
  let maxLines: number | undefined;
  let maxArgs: number | undefined;
  let maxChars = XARGS_DEFAULT_SIZE;
  let noRunIfEmpty = false;
  let verbose = false;
  let exitIfLong = false;
  let warnings = "";
  let i = 0;
  const set = (opt: string, value: string | undefined): ExecResult | undefined => {
    switch (opt) {
      case "0":
        delimiter = "\0";
        return;
      case "a":
        argFile = value;
        return;
      case "d": {
        const d = xargsDelimiter(value ?? "");
        if (typeof d !== "string") return d;
        delimiter = d;
        return;
      }
      case "E":
      case "e":
        eof = value === undefined || value === "" ? undefined : value;
        return;
      case "I":
      case "i": {
        if (maxArgs !== undefined) warnings += "xargs: warning: options --max-args and --replace/-I/-i are mutually exclusive, ignoring previous --max-args value\n";
        replace = opt === "i" ? value || "{}" : (value ?? "");
        maxArgs = undefined;
        maxLines = 1;
        exitIfLong = true;
        return;
      }
      case "L":
      case "l": {
        const n = opt === "l" && (value === undefined || value === "") ? 1 : xargsNumber(value ?? "", "L", 1);
        if (typeof n !== "number") return n;
        if (maxArgs !== undefined) warnings += "xargs: warning: options --max-args and --max-lines/-l/-L are mutually exclusive, ignoring previous --max-args value\n";
        maxLines = n;
        maxArgs = undefined;
        replace = undefined;
        return;
      }
      case "n": {
        const n = xargsNumber(value ?? "", "n", 1);
        if (typeof n !== "number") return n;
        if (maxLines !== undefined && replace === undefined) warnings += "xargs: warning: options --max-lines and --max-args/-n are mutually exclusive, ignoring previous --max-lines value\n";
        maxArgs = n;
        if (replace === undefined) maxLines = undefined;
        return;
      }
      case "P": {
        const n = xargsNumber(value ?? "", "P", 0);
        if (typeof n !== "number") return n;
        return;
      }
      case "s": {
        const n = xargsNumber(value ?? "", "s", 1, XARGS_MAX_SIZE);
        if (typeof n !== "number") return n;
        maxChars = n;
        return;
      }
      case "r":
        noRunIfEmpty = true;
        return;
      case "t":
        verbose = true;
        return;
      case "x":
        exitIfLong = true;
        return;
    }
    return undefined;
  };
  for (; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--") {
      i++;
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = arg.slice(2, eq === -1 ? undefined : eq);
      const matches = Object.keys(XARGS_LONG).filter((long) => long.startsWith(name));
      const exact = matches.includes(name) ? name : matches.length === 1 ? matches[0] : undefined;
      if (exact === undefined) return xargsFail(matches.length > 1 ? `option '${arg}' is ambiguous` : `unrecognized option '${arg}'`);
      const spec = XARGS_LONG[exact] as { short: string; arg: string };
      if (spec.short === "help") return deps.help();
      let value: string | undefined = eq === -1 ? undefined : arg.slice(eq + 1);
      if (spec.arg === "none" && value !== undefined) return xargsFail(`option '--${exact}' doesn't allow an argument`);
      if (spec.arg === "required" && value === undefined) {
        if (i + 1 >= args.length) return xargsFail(`option '--${exact}' requires an argument`);
        value = args[++i];
      }
      const failed = set(spec.short, value);
      if (failed) return failed;
      continue;
    }
    if (!arg.startsWith("-") || arg === "-") break;
    for (let k = 1; k < arg.length; k++) {
      const opt = arg[k] as string;
      const kind = XARGS_SHORT[opt];
      if (kind === undefined) return xargsFail(`invalid option -- '${opt}'`);
      if (kind === "none") {
        const failed = set(opt, undefined);
        if (failed) return failed;
        continue;
      }
      let value: string | undefined = arg.slice(k + 1);
      if (value === "") {
        if (kind === "optional") value = undefined;
        else {
          if (i + 1 >= args.length) return xargsFail(`option requires an argument -- '${opt}'`);
          value = args[++i];
        }
      }
      const failed = set(opt, value);
      if (failed) return failed;
      break;
    }
  }
  const command = args.slice(i);
  if (command.length === 0) command.push("echo");

  // The input.
  let input: string;
  if (argFile !== undefined) {
    try {
      input = await ctx.fs.readFile(ctx.fs.resolvePath(ctx.cwd, argFile));
    } catch (error) {
      return { stdout: "", stderr: `${warnings}xargs: Cannot open input file ‘${argFile}’: ${reason(error)}\n`, exitCode: 1 };
    }
  } else input = deps.decode(ctx.stdin);
  let items: Item[];
  if (delimiter !== undefined) {
    const parts = input.split(delimiter);
    if (parts.at(-1) === "") parts.pop();
    items = parts.map((value) => ({ value, endsLine: true }));
  } else {
    const read = xargsItems(input, replace !== undefined, eof);
    if (typeof read === "string") return { stdout: "", stderr: `${warnings}xargs: ${read}\n`, exitCode: 1 };
    items = read;
  }

  // The command lines.
  const size = (words: readonly string[]): number => words.reduce((n, w) => n + new TextEncoder().encode(w).length + 1, 0);
  const lines: string[][] = [];
  let stderrPre = warnings;
  if (replace !== undefined) {
    for (const item of items) lines.push(command.map((word) => (replace === "" ? word : word.replaceAll(replace as string, item.value))));
  } else if (items.length === 0) {
    if (!noRunIfEmpty) lines.push([...command]);
  } else {
    const base = size(command);
    if (base > maxChars) return { stdout: "", stderr: `${stderrPre}xargs: argument list too long\n`, exitCode: 1 };
    let line: string[] = [];
    let used = base;
    let lineCount = 0;
    const flush = (): void => {
      if (line.length > 0) lines.push([...command, ...line]);
      line = [];
      used = base;
      lineCount = 0;
    };
    for (const item of items) {
      const need = new TextEncoder().encode(item.value).length + 1;
      if (base + need > maxChars) {
        return { stdout: "", stderr: `${stderrPre}xargs: argument line too long\n`, exitCode: 1 };
      }
      if (used + need > maxChars) {
        if (exitIfLong && (maxArgs !== undefined || maxLines !== undefined)) return { stdout: "", stderr: `${stderrPre}xargs: argument list too long\n`, exitCode: 1 };
        flush();
      }
      line.push(item.value);
      used += need;
      if (item.endsLine) lineCount++;
      if ((maxArgs !== undefined && line.length >= maxArgs) || (maxLines !== undefined && lineCount >= maxLines)) flush();
    }
    flush();
  }

  // Running them.
  const scope = deps.scope();
  let stdout = "";
  let stderr = "";
  const out = (r: ExecResult): void => {
    if (scope) scope.appendResult(r);
    else {
      stdout += r.stdout;
      stderr += r.stderr;
    }
  };
  const err = (text: string): void => {
    if (scope) scope.append("stderr", text);
    else stderr += text;
  };
  const done = (code: number): ExecResult => (scope ? scope.build(code) : { stdout, stderr, exitCode: code });
  if (stderrPre !== "") err(stderrPre);
  stderrPre = "";
  let status = 0;
  for (const argv of lines) {
    if (verbose) err(`${argv.map(xargsTraceWord).join(" ")}\n`);
    const running = deps.run(argv);
    const result: ExecResult = running === null ? { stdout: `${argv.join(" ")}\n`, stderr: "", exitCode: 0 } : await running;
    const name = argv[0] as string;
    if (result.exitCode === 127 && result.stderr.endsWith(`bash: ${name}: command not found\n`)) {
      out({ ...result, stderr: `${result.stderr.slice(0, -`bash: ${name}: command not found\n`.length)}xargs: ${name}: No such file or directory\n` });
      return done(127);
    }
    out(result);
    if (result.exitCode === 255) {
      err(`xargs: ${name}: exited with status 255; aborting\n`);
      return done(124);
    }
    if (result.exitCode !== 0) status = 123;
  }
  return done(status);
}

// ---------------------------------------------------------------------------
// mktemp as GNU coreutils 9.1.

/** What mktemp uses of just-bash's command context. */
interface MktempContext {
  cwd: string;
  env?: ReadonlyMap<string, string> | Readonly<Record<string, string>>;
  fs: {
    resolvePath(base: string, path: string): string;
    lstat(path: string): Promise<unknown>;
    writeFile(path: string, content: string): Promise<void>;
    mkdir(path: string, options?: { recursive?: boolean }): Promise<void>;
    chmod(path: string, mode: number): Promise<void>;
  };
}

const MKTEMP_TRY = "Try 'mktemp --help' for more information.\n";
const MKTEMP_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const MKTEMP_HELP = `Usage: mktemp [OPTION]... [TEMPLATE]
Create a temporary file or directory, safely, and print its name.
TEMPLATE must contain at least 3 consecutive 'X's in last component.
If TEMPLATE is not specified, use tmp.XXXXXXXXXX, and --tmpdir is implied.
Files are created u+rw, and directories u+rwx, minus umask restrictions.

  -d, --directory     create a directory, not a file
  -u, --dry-run       do not create anything; merely print a name (unsafe)
  -q, --quiet         suppress diagnostics about file/dir-creation failure
      --suffix=SUFF   append SUFF to TEMPLATE; SUFF must not contain a slash.
                        This option is implied if TEMPLATE does not end in X
  -p DIR, --tmpdir[=DIR]  interpret TEMPLATE relative to DIR; if DIR is not
                        specified, use $TMPDIR if set, else /tmp.  With
                        this option, TEMPLATE must not be an absolute name;
                        unlike with -t, TEMPLATE may contain slashes, but
                        mktemp creates only the final component
  -t                  interpret TEMPLATE as a single file name component,
                        relative to a directory: $TMPDIR, if set; else the
                        directory specified via -p; else /tmp [deprecated]
      --help        display this help and exit
`;

function envOf(ctx: MktempContext, name: string): string | undefined {
  const env = ctx.env;
  if (env === undefined) return undefined;
  return env instanceof Map ? env.get(name) : (env as Record<string, string>)[name];
}

function mktempFail(message: string, tryHelp = false): ExecResult {
  return { stdout: "", stderr: `mktemp: ${message}\n${tryHelp ? MKTEMP_TRY : ""}`, exitCode: 1 };
}

/** `count` random characters of GNU mktemp's alphabet. */
function randomName(count: number): string {
  const bytes = new Uint8Array(count);
  crypto.getRandomValues(bytes);
  return [...bytes].map((b) => MKTEMP_CHARS[b % MKTEMP_CHARS.length]).join("");
}

/**
 * The `mktemp` command as GNU coreutils 9.1's: `mktemp [-d] [-u] [-q]
 * [-p DIR | --tmpdir[=DIR]] [-t] [--suffix=SUFF] [TEMPLATE]` — a new file
 * (mode 0600) or directory (0700) named by TEMPLATE (default
 * `tmp.XXXXXXXXXX` in $TMPDIR or /tmp; at least three trailing X's, each
 * replaced by a random letter or digit), its name printed. `/tmp` is made
 * (mode 1777) when it is the directory used and missing. Errors as GNU's
 * (status 1).
 */
export const mktempCommand = {
  name: "mktemp",
  async execute(args: string[], ctx: MktempContext): Promise<ExecResult> {
    let directory = false;
    let dryRun = false;
    let quiet = false;
    let suffix: string | undefined;
    let tmpdir: string | undefined;
    let useTmpdir = false;
    let dashT = false;
    const operands: string[] = [];
    const long = ["directory", "dry-run", "quiet", "suffix", "tmpdir", "help", "version"];
    for (let i = 0; i < args.length; i++) {
      const arg = args[i] as string;
      if (arg === "--") {
        operands.push(...args.slice(i + 1));
        break;
      }
      if (arg.startsWith("--")) {
        const eq = arg.indexOf("=");
        const name = arg.slice(2, eq === -1 ? undefined : eq);
        const matches = long.filter((l) => l.startsWith(name));
        const exact = matches.includes(name) ? name : matches.length === 1 ? matches[0] : undefined;
        if (exact === undefined) return mktempFail(matches.length > 1 ? `option '${arg}' is ambiguous` : `unrecognized option '${arg}'`, true);
        const value = eq === -1 ? undefined : arg.slice(eq + 1);
        if (value !== undefined && exact !== "suffix" && exact !== "tmpdir") return mktempFail(`option '--${exact}' doesn't allow an argument`, true);
        if (exact === "directory") directory = true;
        else if (exact === "dry-run") dryRun = true;
        else if (exact === "quiet") quiet = true;
        else if (exact === "help") return { stdout: MKTEMP_HELP, stderr: "", exitCode: 0 };
        else if (exact === "version") return { stdout: "mktemp (GNU coreutils) 9.1\n", stderr: "", exitCode: 0 };
        else if (exact === "tmpdir") {
          useTmpdir = true;
          tmpdir = value;
        } else {
          if (value === undefined && i + 1 >= args.length) return mktempFail(`option '--suffix' requires an argument`, true);
          suffix = value ?? args[++i];
        }
        continue;
      }
      if (arg.startsWith("-") && arg !== "-") {
        for (let k = 1; k < arg.length; k++) {
          const opt = arg[k] as string;
          if (opt === "d") directory = true;
          else if (opt === "u") dryRun = true;
          else if (opt === "q") quiet = true;
          else if (opt === "t") dashT = true;
          else if (opt === "p") {
            let value = arg.slice(k + 1);
            if (value === "") {
              if (i + 1 >= args.length) return mktempFail(`option requires an argument -- 'p'`, true);
              value = args[++i] as string;
            }
            useTmpdir = true;
            tmpdir = value;
            break;
          } else return mktempFail(`invalid option -- '${opt}'`, true);
        }
        continue;
      }
      operands.push(arg);
    }
    if (operands.length > 1) return mktempFail("too many templates", true);
    let template = operands[0];
    if (template === undefined) {
      template = "tmp.XXXXXXXXXX";
      useTmpdir = true;
    }
    // The suffix: --suffix, or what follows the last X.
    if (suffix !== undefined) {
      if (!template.endsWith("X")) return mktempFail(`with --suffix, template ‘${template}’ must end in X`);
    } else {
      const lastX = template.lastIndexOf("X");
      suffix = lastX === -1 ? "" : template.slice(lastX + 1);
      template = template.slice(0, template.length - suffix.length);
    }
    if (suffix.includes("/")) return mktempFail(`invalid suffix ‘${suffix}’, contains directory separator`);
    const xs = /X*$/.exec(template)?.[0].length ?? 0;
    const shown = template + suffix;
    if (xs < 3) return mktempFail(`too few X's in template ‘${shown}’`);
    // The directory it goes in.
    const tmpenv = envOf(ctx, "TMPDIR");
    let dir: string | undefined;
    if (dashT) {
      if (template.includes("/")) return mktempFail(`invalid template, ‘${shown}’, contains directory separator`);
      dir = tmpenv || tmpdir || "/tmp";
    } else if (useTmpdir) {
      if (template.startsWith("/")) return mktempFail(`invalid template, ‘${shown}’; with --tmpdir, it may not be absolute`);
      dir = tmpdir || tmpenv || "/tmp";
    }
    const prefix = dir === undefined ? "" : dir.endsWith("/") ? dir : `${dir}/`;
    const head = prefix + template.slice(0, template.length - xs);
    const failure = (error: unknown): ExecResult =>
      quiet ? { stdout: "", stderr: "", exitCode: 1 } : mktempFail(`failed to create ${directory ? "directory" : "file"} via template ‘${prefix}${shown}’: ${reason(error)}`);
    if (dir === "/tmp" && !dryRun) {
      // The Workspace has no /tmp until something makes it; a system always has one.
      const tmp = ctx.fs.resolvePath(ctx.cwd, "/tmp");
      try {
        await ctx.fs.lstat(tmp);
      } catch {
        try {
          await ctx.fs.mkdir(tmp, { recursive: true });
          await ctx.fs.chmod(tmp, 0o1777);
        } catch {
          // Reported below, when the name in it cannot be made.
        }
      }
    }
    for (let attempt = 0; attempt < 100; attempt++) {
      const name = head + randomName(xs) + suffix;
      const path = ctx.fs.resolvePath(ctx.cwd, name);
      if (dryRun) {
        try {
          await ctx.fs.lstat(path);
          continue;
        } catch {
          return { stdout: `${name}\n`, stderr: "", exitCode: 0 };
        }
      }
      try {
        await ctx.fs.lstat(path);
        continue; // taken: another name
      } catch (error) {
        const code = (error as { code?: unknown } | null)?.code;
        if (code !== undefined && code !== "ENOENT") return failure(error);
      }
      try {
        if (directory) {
          await ctx.fs.mkdir(path);
          await ctx.fs.chmod(path, 0o700);
        } else {
          await ctx.fs.writeFile(path, "");
          await ctx.fs.chmod(path, 0o600);
        }
      } catch (error) {
        return failure(error);
      }
      return { stdout: `${name}\n`, stderr: "", exitCode: 0 };
    }
    return failure(Object.assign(new Error("exists"), { code: "EEXIST" }));
  },
};

// ---------------------------------------------------------------------------
// trap: EXIT and ERR run, signals stored.

/** The part of just-bash's interpreter context the traps use. */
interface TrapContext {
  state: {
    env: Map<string, string>;
    options: Record<string, boolean>;
    lastExitCode: number;
    callDepth?: number;
  };
  executeScript(ast: unknown): Promise<ExecResult>;
}

/** One shell's traps: condition name (`EXIT`, `SIGINT`, `ERR`, …) → action (`''` ignores). */
interface TrapTable {
  traps: Map<string, string>;
  /** In a subshell: the parent's traps, which `trap`/`trap -p` show until the subshell changes one (as bash). */
  shown?: Map<string, string>;
  /** Whether a trap action is running (the ERR trap does not fire inside one). */
  running: boolean;
  /**
   * The trap whose action is running in this shell, and `$?` when it began (bash's `running_trap` and
   * `trap_saved_exit_value`): an argument-less `exit` in the EXIT trap and an argument-less `return` in any trap
   * use that status (see {@link trapSavedStatus}; issue 20, run 38, fixer SE).
   */
  runningTrap?: { condition: "EXIT" | "ERR"; status: number };
}

/** Linux's signal names by number (bash 5.2 `trap -l`), without the `SIG`. */
const SIGNALS: string[] = [];
{
  const low = "HUP INT QUIT ILL TRAP ABRT BUS FPE KILL USR1 SEGV USR2 PIPE ALRM TERM STKFLT CHLD CONT STOP TSTP TTIN TTOU URG XCPU XFSZ VTALRM PROF WINCH IO PWR SYS".split(" ");
  low.forEach((name, i) => (SIGNALS[i + 1] = name));
  SIGNALS[34] = "RTMIN";
  for (let n = 35; n <= 49; n++) SIGNALS[n] = `RTMIN+${n - 34}`;
  for (let n = 50; n <= 63; n++) SIGNALS[n] = `RTMAX-${64 - n}`;
  SIGNALS[64] = "RTMAX";
}
/** The conditions bash lists after the signals, in its order. */
const PSEUDO = ["DEBUG", "ERR", "RETURN"];
/** Other names bash takes for a signal. */
const SIGNAL_ALIASES: Record<string, string> = { IOT: "ABRT", POLL: "IO", CLD: "CHLD" };

const tables = new WeakMap<object, TrapTable>();
/** just-bash's parser (script text → AST), handed over by the top-level shell (patched in execInScope). */
let parseScript: ((text: string) => unknown) | undefined;

/** `exec COMMAND` replaces the shell: its EXIT trap does not run (issue 20, run 27, fixer L2). */
export function dropExitTrap(state: object): void {
  tables.get(state)?.traps.delete("EXIT");
}

function tableOf(state: object): TrapTable {
  let table = tables.get(state);
  if (table === undefined) tables.set(state, (table = { traps: new Map(), running: false }));
  return table;
}

/** The trap key of condition `spec` (`EXIT`, `0`, `INT`, `SIGINT`, `sigint`, `2`, `ERR`, …), or null when bash would not take it. */
function conditionOf(spec: string): string | null {
  if (/^\d+$/.test(spec)) {
    const n = Number(spec);
    if (n === 0) return "EXIT";
    return SIGNALS[n] === undefined ? null : `SIG${SIGNALS[n]}`;
  }
  let name = spec.toUpperCase();
  if (name === "EXIT" || PSEUDO.includes(name)) return name;
  if (name.startsWith("SIG")) name = name.slice(3);
  name = SIGNAL_ALIASES[name] ?? name;
  return SIGNALS.includes(name) ? `SIG${name}` : null;
}

/** The order `trap -p` lists conditions in: EXIT, the signals by number, DEBUG, ERR, RETURN. */
function conditionRank(key: string): number {
  if (key === "EXIT") return 0;
  const pseudo = PSEUDO.indexOf(key);
  if (pseudo !== -1) return 100 + pseudo;
  return SIGNALS.indexOf(key.slice(3));
}

function singleQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

const TRAP_USAGE = "trap: usage: trap [-lp] [[arg] signal_spec ...]\n";

/** `trap -l`: bash's table of signals, five a line. */
function signalTable(): string {
  const entries = SIGNALS.flatMap((name, n) => (name === undefined ? [] : [`${String(n).padStart(2)}) SIG${name}`]));
  let out = "";
  entries.forEach((entry, i) => (out += entry + ((i + 1) % 5 === 0 ? "\n" : "\t")));
  if (entries.length % 5 !== 0) out += "\n";
  return out;
}

/**
 * The `trap` builtin as bash 5.2's: `trap [-lp] [[ACTION] CONDITION…]`.
 * ACTION `-` (or none, with one CONDITION, or a first operand that is a
 * signal number) resets, `''` ignores; CONDITION is `EXIT`/`0`, `ERR`,
 * `DEBUG`, `RETURN` or a signal (name with or without `SIG`, any case, or
 * number). `trap`/`trap -p [CONDITION…]` print `trap -- 'ACTION' NAME`,
 * `trap -l` the signals. A bad condition: `bash: trap: X: invalid signal
 * specification` (status 1); a bad option: status 2. EXIT runs when the
 * shell ends and ERR after a failing command (see {@link errTrap}); signal
 * traps are kept and listed but never run (nothing sends the shell a
 * signal), as are DEBUG and RETURN.
 */
export function trap(ctx: TrapContext, args: readonly string[], help: () => ExecResult | Promise<ExecResult>): ExecResult | Promise<ExecResult> {
  const table = tableOf(ctx.state);
  let list = false;
  let print = false;
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--") {
      i++;
      break;
    }
    if (arg === "--help") return help();
    if (!arg.startsWith("-") || arg === "-") break;
    for (const opt of arg.slice(1)) {
      if (opt === "l") list = true;
      else if (opt === "p") print = true;
      else return { stdout: "", stderr: `bash: trap: ${arg.startsWith("--") ? arg : `-${opt}`}: invalid option\n${TRAP_USAGE}`, exitCode: 2 };
    }
  }
  if (list) return { stdout: signalTable(), stderr: "", exitCode: 0 };
  const operands = args.slice(i);
  const shown = table.shown ?? table.traps;
  const line = (key: string): string => `trap -- ${singleQuote(shown.get(key) as string)} ${key}\n`;
  if (print || operands.length === 0) {
    if (operands.length === 0) {
      const keys = [...shown.keys()].sort((a, b) => conditionRank(a) - conditionRank(b));
      return { stdout: keys.map(line).join(""), stderr: "", exitCode: 0 };
    }
    let stdout = "";
    let stderr = "";
    let exitCode = 0;
    for (const spec of operands) {
      const key = conditionOf(spec);
      if (key === null) {
        stderr += `bash: trap: ${spec}: invalid signal specification\n`;
        exitCode = 1;
      } else if (shown.has(key)) stdout += line(key);
    }
    return { stdout, stderr, exitCode };
  }
  const first = operands[0] as string;
  let action: string | undefined;
  let conditions: readonly string[];
  if ((/^\d+$/.test(first) && conditionOf(first) !== null) || (operands.length === 1 && first !== "-" && first !== "" && conditionOf(first) !== null)) {
    conditions = operands; // reset
  } else {
    conditions = operands.slice(1);
    if (conditions.length === 0) return { stdout: "", stderr: TRAP_USAGE, exitCode: 2 };
    action = first === "-" ? undefined : first;
  }
  // A subshell's first change drops the parent's traps it was showing.
  table.shown = undefined;
  let stderr = "";
  let exitCode = 0;
  for (const spec of conditions) {
    const key = conditionOf(spec);
    if (key === null) {
      stderr += `bash: trap: ${spec}: invalid signal specification\n`;
      exitCode = 1;
      continue;
    }
    if (action === undefined) table.traps.delete(key);
    else table.traps.set(key, action);
  }
  return { stdout: "", stderr, exitCode };
}

/** What running a trap's action gave: its output, and the status it `exit`ed with (if it did). */
interface TrapRun {
  stdout: string;
  stderr: string;
  exit?: number;
}

/** Errors just-bash throws that end a (sub)shell and so run its EXIT trap first (not limits, aborts or loop control). */
const SHELL_ENDING = new Set(["ExitError", "PosixFatalError", "ArithmeticError", "NounsetError", "ErrexitError", "BadSubstitutionError", "GlobError", "BraceExpansionError"]);

function nameOf(error: unknown): string | undefined {
  return typeof error === "object" && error !== null ? (error as { name?: string }).name : undefined;
}

/**
 * The status an argument-less `exit` or `return` uses in place of `$?` while a trap's action runs in the shell of
 * `state`, as bash 5.2 (builtins/common.c get_exitstat, exit.def exit_or_logout): `exit` in the EXIT trap exits with
 * the status the shell was ending with (`trap 'rm -f lock; exit' EXIT; …; exit 3` ends 3), and `return` in a
 * function or sourced file run from an EXIT or ERR trap returns the `$?` the trap began with. Elsewhere (an `exit`
 * in the ERR trap, no trap running, a subshell or `$( )` of the trap: a new shell) undefined: `$?` is used
 * (issue 20, run 38, fixer SE).
 */
export function trapSavedStatus(state: object, builtin: "exit" | "return"): number | undefined {
  const running = tables.get(state)?.runningTrap;
  if (running === undefined || (builtin === "exit" && running.condition !== "EXIT")) return undefined;
  return running.status;
}

/**
 * Whether `error`, met by the script of a trap's action running in the shell of `state`, is `set -e` ending the
 * shell: bash 5.2 ends the shell there with the failing command's status (`set -e; trap 'echo t; false' EXIT;
 * exit 3` ends 1 after `t`; in an ERR trap too), where just-bash's executeScript ended only the action's script
 * (patched to rethrow it then; issue 20, run 38, fixer SE).
 */
export function errexitEndsTrap(state: object, error: unknown): boolean {
  return tables.get(state)?.runningTrap !== undefined && nameOf(error) === "ErrexitError";
}

/**
 * `ast` (an ERR trap's action) with no command line numbers, so `$LINENO` in it stays the line of the command that
 * failed (set by {@link errTrap}), as bash 5.2 (issue 20, run 40, fixer f40sh).
 */
function withoutLines(ast: unknown): void {
  const stack: unknown[] = [ast];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== "object" || node === null) continue;
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    if (typeof (node as { line?: unknown }).line === "number") delete (node as { line?: unknown }).line;
    for (const value of Object.values(node)) if (typeof value === "object" && value !== null) stack.push(value);
  }
}

/** For each interpreter state: the simple command running (or about to), for `$BASH_COMMAND` (run 40, fixer f40sh). */
const currentCommands = new WeakMap<object, unknown>();

/**
 * Notes simple command `command` as the one `state`'s shell runs (patched where just-bash's executeSimpleCommandInner
 * sets `$LINENO`); not while a trap's action runs, whose `$BASH_COMMAND` stays the command that was running when the
 * trap began, as bash 5.2 (issue 20, run 40, fixer f40sh).
 */
export function noteCommand(state: object, command: unknown): void {
  if (tables.get(state)?.running === true) return;
  currentCommands.set(state, command);
}

/**
 * `$BASH_COMMAND`: the text of the simple command `state`'s shell runs, as bash prints it (`ls /nope 2> /dev/null`);
 * `words` is just-bash's serializer of a simple command's assignments and words, `word` of one word (run 40, fixer
 * f40sh).
 */
export function bashCommand(state: object, words: (command: unknown) => string, word: (w: unknown) => string): string {
  const command = currentCommands.get(state) as { redirections?: { fd?: number | null; fdVariable?: string; operator: string; target: { type?: string; delimiter?: string } }[] } | undefined;
  if (command === undefined) return "";
  const text = [words({ ...command, redirections: [] })];
  for (const r of command.redirections ?? []) {
    const fd = r.fdVariable !== undefined ? `{${r.fdVariable}}` : r.fd !== null && r.fd !== undefined ? String(r.fd) : "";
    if (r.target.type === "HereDoc") text.push(`${fd}${r.operator} ${r.target.delimiter ?? ""}`);
    else if (r.operator === ">&" || r.operator === "<&") text.push(`${fd || (r.operator === ">&" ? "1" : "0")}${r.operator}${word(r.target)}`); // bash: `>&2` is `1>&2`
    else text.push(`${fd}${r.operator} ${word(r.target)}`);
  }
  return text.filter((part) => part !== "").join(" ");
}

/** Runs trap `action` (of `condition`) in `ctx`'s shell, `$?` being `status` (and again after). */
async function runAction(ctx: TrapContext, table: TrapTable, action: string, status: number, condition: "EXIT" | "ERR"): Promise<TrapRun> {
  const state = ctx.state;
  state.lastExitCode = status;
  state.env.set("?", String(status));
  let ast: unknown;
  try {
    if (parseScript === undefined) return { stdout: "", stderr: "" };
    ast = parseScript(action);
    if (condition === "ERR") withoutLines(ast); // run 40, fixer f40sh
  } catch (error) {
    return { stdout: "", stderr: `bash: ${error instanceof Error ? error.message : String(error)}\n` };
  }
  const running = table.running;
  const runningTrap = table.runningTrap;
  table.running = true;
  table.runningTrap = { condition, status }; // fixer SE
  try {
    const result = await ctx.executeScript(ast);
    return { stdout: result.stdout, stderr: result.stderr };
  } catch (error) {
    const name = nameOf(error);
    if (name === "ExecutionLimitError" || name === "ExecutionAbortedError" || typeof (error as { stdout?: unknown })?.stdout !== "string") throw error;
    const e = error as ExecResult;
    return { stdout: e.stdout, stderr: e.stderr, ...(SHELL_ENDING.has(name ?? "") ? { exit: typeof e.exitCode === "number" ? e.exitCode : 1 } : {}) };
  } finally {
    table.running = running;
    table.runningTrap = runningTrap; // fixer SE
    state.lastExitCode = status;
    state.env.set("?", String(status));
  }
}

/**
 * Ends the shell whose traps are `table`: runs its EXIT trap (once) after
 * `run`'s result or shell-ending error, with `$?` the shell's status; the
 * trap's output follows the shell's, and an `exit N` in it makes N the
 * status (else the shell's own stays).
 */
async function endShell(ctx: TrapContext, table: TrapTable, run: () => Promise<ExecResult>): Promise<ExecResult> {
  let result: ExecResult | undefined;
  let error: unknown;
  try {
    result = await run();
  } catch (e) {
    error = e;
  }
  const action = table.traps.get("EXIT");
  if (action === undefined || action === "" || (result === undefined && !SHELL_ENDING.has(nameOf(error) ?? ""))) {
    if (result === undefined) throw error;
    return result;
  }
  table.traps.delete("EXIT");
  if (result === undefined) {
    const e = error as ExecResult;
    const t = await runAction(ctx, table, action, typeof e.exitCode === "number" ? e.exitCode : 1, "EXIT");
    e.stdout += t.stdout;
    e.stderr += t.stderr;
    if (t.exit !== undefined) e.exitCode = t.exit;
    throw e;
  }
  const t = await runAction(ctx, table, action, result.exitCode, "EXIT");
  const accounting = result.internalOutputAccounting;
  return {
    ...result,
    stdout: result.stdout + t.stdout,
    stderr: result.stderr + t.stderr,
    exitCode: t.exit ?? result.exitCode,
    ...(accounting ? { internalOutputAccounting: { stdout: accounting.stdout + new TextEncoder().encode(t.stdout).length, stderr: accounting.stderr + new TextEncoder().encode(t.stderr).length } } : {}),
  };
}

/** Runs `run` with `table` as the traps of `ctx`'s state, the state's own put back after. */
async function withTable(ctx: TrapContext, table: TrapTable, run: () => Promise<ExecResult>): Promise<ExecResult> {
  const state = ctx.state;
  const saved = tables.get(state);
  tables.set(state, table);
  try {
    return await endShell(ctx, table, run);
  } finally {
    if (saved === undefined) tables.delete(state);
    else tables.set(state, saved);
  }
}

/** For each interpreter context: the `$(…)` nesting depth of each shell level entered (the first is the shell itself). */
const levels = new WeakMap<object, number[]>();

/**
 * Where just-bash's executeScript starts (patched): when it is the first
 * script of an interpreter (the top-level shell of execInScope: the
 * command, `bash -c`, a command xargs/env/find -exec run) or the body of a
 * new `$(…)`/`<(…)` (its substitution depth is deeper), runs it (through
 * executeScript again) as that shell, whose EXIT trap runs when it ends;
 * else undefined (eval, source, a trap's action: the same shell). `parse` is
 * just-bash's parser, kept for trap actions.
 */
export function scriptEntry(ctx: TrapContext & { substitutionDepth?: number }, ast: unknown, parse: (text: string) => unknown): Promise<ExecResult> | undefined {
  const depth = ctx.substitutionDepth ?? 0;
  const stack = levels.get(ctx);
  if (stack === undefined) {
    parseScript = parse;
    levels.set(ctx, [depth]);
    return withTable(ctx, tables.get(ctx.state) ?? { traps: new Map(), running: false }, () => ctx.executeScript(ast));
  }
  if (depth <= (stack.at(-1) as number)) return undefined;
  stack.push(depth);
  return subshell(ctx, () => ctx.executeScript(ast)).finally(() => stack.pop());
}

/** A script file run as a new shell (`./script`, `bash FILE`): no traps of the caller's; its EXIT trap runs at its end. */
export function newShell(ctx: TrapContext, run: () => Promise<ExecResult>): Promise<ExecResult> {
  return withTable(ctx, { traps: new Map(), running: false }, run);
}

/**
 * A subshell (`( … )`, `$(…)`, a background job) as bash runs one: the
 * parent's traps are not run in it (ERR is kept under `set -E`; ignored
 * signals stay ignored) but `trap -p` shows them until it sets one; its own
 * EXIT trap runs at its end.
 */
export function subshell(ctx: TrapContext, run: () => Promise<ExecResult>): Promise<ExecResult> {
  const parent = tables.get(ctx.state);
  const traps = new Map<string, string>();
  if (parent !== undefined) {
    for (const [key, action] of parent.traps) if (action === "" && key !== "EXIT") traps.set(key, "");
    const err = parent.traps.get("ERR");
    if (err !== undefined && ctx.state.options.errtrace) traps.set("ERR", err);
  }
  const shown = parent === undefined || parent.traps.size === 0 ? undefined : new Map(parent.shown ?? parent.traps);
  return withTable(ctx, { traps, ...(shown ? { shown } : {}), running: false }, run);
}

/** An ERR trap a function call put aside on entry (see {@link enterFunction}): the call's depth, the table, the action. */
interface SavedErrTrap {
  depth: number;
  table: TrapTable;
  action: string;
}

/** For each interpreter state: the ERR traps put aside by the function calls running, innermost last. */
const savedErrTraps = new WeakMap<object, SavedErrTrap[]>();

/**
 * A shell function's body starts (patched into just-bash's function call, after `callDepth++`): as bash 5.2's
 * execute_function, without `set -E` (errtrace) the ERR trap the caller has is not the function's — it is put aside
 * and reset, so a failure in the function does not run it (`trap … ERR; f() { false; }; f` runs it once, for `f`'s
 * status, not for the `false`), while a trap the function sets itself is the shell's ERR trap and runs for the
 * function's own failures (`main() { trap 'cleanup' ERR; …; false; }`). An ignored ERR trap (`''`) stays. See
 * {@link leaveFunction} for the way back (issue 20, run 39, fixer ST).
 */
export function enterFunction(ctx: TrapContext): void {
  const table = tables.get(ctx.state);
  const action = table?.traps.get("ERR");
  if (table === undefined || action === undefined || action === "" || ctx.state.options.errtrace) return;
  table.traps.delete("ERR");
  let stack = savedErrTraps.get(ctx.state);
  if (stack === undefined) savedErrTraps.set(ctx.state, (stack = []));
  stack.push({ depth: ctx.state.callDepth ?? 0, table, action });
}

/**
 * A shell function returns (or is left by an error; patched into just-bash's function call, before `callDepth--`):
 * the ERR trap put aside at its entry comes back unless the function set one of its own (`trap '' ERR` too) — bash's
 * maybe_set_error_trap; a trap the function set stays after it returns (issue 20, run 39, fixer ST).
 */
export function leaveFunction(ctx: TrapContext): void {
  const stack = savedErrTraps.get(ctx.state);
  if (stack === undefined) return;
  const depth = ctx.state.callDepth ?? 0;
  while (stack.length > 0 && (stack.at(-1) as SavedErrTrap).depth >= depth) {
    const saved = stack.pop() as SavedErrTrap;
    if (saved.depth === depth && !saved.table.traps.has("ERR")) saved.table.traps.set("ERR", saved.action);
  }
}

/** For each interpreter state: whether an ERR trap was set when the pipeline that ended last began. */
const armedAtStart = new WeakMap<object, boolean>();

/**
 * Runs pipeline `run` (patched around just-bash's executePipeline), noting whether an ERR trap (not ignored) was set
 * when it began: bash 5.2 runs the ERR trap after a failed pipeline only then (execute_cmd.c `was_error_trap`), so a
 * function that sets the trap runs it for its own failures but not for its own failing status in a caller that had
 * none (`f() { trap 'echo f' ERR; false; }; f` prints `f` once; issue 20, run 39, fixer ST).
 */
export async function armedPipeline<T>(ctx: TrapContext, run: () => Promise<T>): Promise<T> {
  const action = tables.get(ctx.state)?.traps.get("ERR");
  const armed = action !== undefined && action !== "";
  try {
    return await run();
  } finally {
    armedAtStart.set(ctx.state, armed);
  }
}

/** The compound commands whose failure is the failure of a command inside them, where the ERR trap already ran. */
const COMPOUNDS = new Set(["If", "For", "CStyleFor", "While", "Until", "Case", "Group"]);

/**
 * After a statement whose last pipeline failed with `status` where `set -e`
 * would end the shell (not in a condition, not before `&&`/`||`, not
 * negated): runs the ERR trap as bash 5.2 does — for a simple command,
 * pipeline or subshell (an `if`/`for`/`while`/`case`/`{ }` ran it for the
 * command inside); a function or subshell does not get its caller's trap
 * unless `set -E` (see {@link enterFunction}, {@link subshell}), and only if
 * an ERR trap was set when the pipeline began (see {@link armedPipeline}) —
 * adding its output to `out`. `$?` stays `status`; an `exit` in the action ends the
 * shell. Returns false (it sits in just-bash's errexit condition).
 */
export async function errTrap(ctx: TrapContext, pipeline: { commands?: { type?: string }[] } | undefined, status: number, out: { appendResult(r: ExecResult): void; stdout: string; stderr: string }, exitError: new (code: number, stdout: string, stderr: string) => Error): Promise<false> {
  const table = tables.get(ctx.state);
  const action = table?.traps.get("ERR");
  if (table === undefined || action === undefined || action === "" || table.running) return false;
  const commands = pipeline?.commands ?? [];
  if (commands.length === 1 && COMPOUNDS.has(commands[0]?.type ?? "")) return false;
  if (armedAtStart.get(ctx.state) === false) return false; // fixer ST
  const line = (commands[0] as { line?: unknown } | undefined)?.line; // run 40, fixer f40sh
  if (typeof line === "number") (ctx.state as { currentLine?: number }).currentLine = line; // run 40, fixer f40sh
  const t = await runAction(ctx, table, action, status, "ERR");
  if (t.exit !== undefined) throw new exitError(t.exit, out.stdout + t.stdout, out.stderr + t.stderr);
  out.appendResult({ stdout: t.stdout, stderr: t.stderr, exitCode: status });
  return false;
}

/**
 * `mapfile`/`readarray` with `-C CALLBACK` (and `-c QUANTUM`, 5000 by default), as bash 5.2 (issue 20, run 40, fixer
 * f40sh; just-bash skipped both): `run` reads the lines as before, then CALLBACK runs in this shell for every
 * QUANTUM-th line assigned, as `CALLBACK INDEX 'LINE'` (bash's mapfile.c run_callback). Unlike bash, each callback
 * runs after all the lines are assigned rather than before its line is. Without `-C`, just `run`.
 */
export async function mapfileCallback(ctx: TrapContext & { state: { arrays?: Map<string, { elements: Map<string, string> }> } }, args: string[], run: () => ExecResult | Promise<ExecResult>): Promise<ExecResult> {
  let callback: string | undefined;
  let quantum = 5000;
  let origin = 0;
  let name = "MAPFILE";
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const option = /^-([dnOsuCc])(.*)$/s.exec(arg);
    if (option !== null) {
      const value = option[2] !== "" ? option[2] : args[++i] ?? "";
      if (option[1] === "C") callback = value;
      else if (option[1] === "c") quantum = Number(value);
      else if (option[1] === "O") origin = Number(value);
      continue;
    }
    if (arg === "--") {
      if (i + 1 < args.length) name = args[i + 1]!;
      break;
    }
    if (!arg.startsWith("-")) name = arg;
  }
  const result = await run();
  if (callback === undefined || result.exitCode !== 0 || parseScript === undefined) return result;
  if (!Number.isSafeInteger(quantum) || quantum < 1) return { ...result, stderr: `${result.stderr}bash: mapfile: ${quantum}: invalid callback quantum\n`, exitCode: 1 };
  const elements = ctx.state.arrays?.get(name)?.elements;
  if (elements === undefined) return result;
  let stdout = result.stdout;
  let stderr = result.stderr;
  const quote = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;
  for (let index = Number.isSafeInteger(origin) ? origin : 0, n = 1; elements.has(String(index)); index++, n++) {
    if (n % quantum !== 0) continue;
    const run = await ctx.executeScript(parseScript(`${callback} ${index} ${quote(elements.get(String(index))!)}`));
    stdout += run.stdout;
    stderr += run.stderr;
  }
  return { ...result, stdout, stderr };
}
