/**
 * The shell's file-creation mask and file times (issue 20, twenty-sixth
 * attack run, fixer SD):
 *
 * - `umask [-p] [-S] [MODE]` as bash 5.2's builtin (just-bash had none:
 *   `command not found`, and everything was made under a fixed 022). The
 *   mask is kept on the run's fs adapter (`WorkspaceFsAdapter.umask`), which
 *   gives new files `0666 & ~umask` and new directories `0777 & ~umask`;
 *   `cp`, `tar -x` and `chmod` without u/g/o/a read it with
 *   {@link umaskOf}. Each run starts with 022; a subshell, `bash FILE`,
 *   `bash -c` and `$(…)` get the caller's and cannot change it
 *   ({@link keepUmask}, {@link withUmask}).
 * - `touch -d`/`--date`/`-t`/`-r`: the Workspace sets a file's mtime itself
 *   on every change and stores no other time, so touch cannot set the one
 *   asked for; it says so and fails (status 1, nothing created or changed)
 *   where just-bash set the current time and exited 0.
 *
 * scripts/gen-shell.mjs patches just-bash to call these (imported as the
 * namespace `__umask`, entries marked `// SD`). Bundled into the shell's
 * Dynamic Worker.
 *
 * @module
 */

/** The mask every run starts with (bash's usual default). */
export const DEFAULT_UMASK = 0o022;

/** Something that may carry the shell's mask (the run's fs adapter). */
interface MaskHolder {
  umask?: unknown;
}

/** The shell's current file-creation mask: the fs adapter's, else 022 (an fs of your own that keeps none). */
export function umaskOf(fs: unknown): number {
  const value = (fs as MaskHolder | null | undefined)?.umask;
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value & 0o777 : DEFAULT_UMASK;
}

/** Sets the shell's mask on `fs` (the run's fs adapter). */
function setUmask(fs: unknown, value: number): void {
  if (fs !== null && typeof fs === "object") (fs as MaskHolder).umask = value & 0o777;
}

/**
 * Wraps the restore function just-bash's subshell snapshot returns
 * (`( … )`, `bash FILE`) so that it also puts back the mask the subshell
 * started with: a `umask` inside does not reach the caller, as in bash.
 */
export function keepUmask(fs: unknown, restore: () => void): () => void {
  const saved = umaskOf(fs);
  return () => {
    restore();
    setUmask(fs, saved);
  };
}

/** Runs `run` (a child shell: `bash -c`, `$(…)`) and puts the mask back after it, whatever it did. */
export async function withUmask<T>(fs: unknown, run: () => Promise<T>): Promise<T> {
  const saved = umaskOf(fs);
  try {
    return await run();
  } finally {
    setUmask(fs, saved);
  }
}

/** `u=rwx,g=rx,o=rx` for mask 022, as bash's print_symbolic_umask. */
function symbolic(mask: number): string {
  const bits = ~mask & 0o777;
  const part = (shift: number) => `${bits & (4 << shift) ? "r" : ""}${bits & (2 << shift) ? "w" : ""}${bits & (1 << shift) ? "x" : ""}`;
  return `u=${part(6)},g=${part(3)},o=${part(0)}`;
}

/** bash's parse_symbolic_mode over the permission bits `initial`: the new bits, or the complaint. */
function parseSymbolic(mode: string, initial: number): number | string {
  let bits = initial;
  let at = 0;
  for (;;) {
    let who = 0;
    for (; "agou".includes(mode[at] ?? "\0"); at++) who |= { u: 0o700, g: 0o070, o: 0o007, a: 0o777 }[mode[at] as "u" | "g" | "o" | "a"];
    const op = mode[at++] ?? "";
    if (op !== "+" && op !== "-" && op !== "=") return `\`${op}': invalid symbolic mode operator`;
    let perm = 0;
    for (; "rwx".includes(mode[at] ?? "\0"); at++) perm |= { r: 0o444, w: 0o222, x: 0o111 }[mode[at] as "r" | "w" | "x"];
    const next = mode[at];
    if (next !== undefined && next !== ",") return `\`${next}': invalid symbolic mode character`;
    if (who) perm &= who;
    if (op === "+") bits |= perm;
    else if (op === "-") bits &= ~perm;
    else bits = (bits & ~(who || 0o777)) | perm;
    if (next === undefined) return bits;
    at++;
  }
}

/** The interpreter context the builtin runs with (only `fs` is used). */
interface BuiltinContext {
  fs: unknown;
}

/**
 * bash 5.2's `umask` builtin: with no MODE prints the mask (`0022`; `-S`:
 * `u=rwx,g=rx,o=rx`; `-p`: as a `umask` command); `umask 077` (octal, up to
 * 07777, kept & 0777) or `umask u=rwx,g=,o=` (symbolic, from the current
 * mask) sets it, `-S` then prints it. A bad mode leaves the mask and fails
 * (`bash: umask: 8: octal number out of range`, `` `q': invalid symbolic mode
 * character``, status 1); a bad option is status 2 with the usage line.
 */
export function umaskBuiltin(ctx: BuiltinContext, args: readonly string[]): { stdout: string; stderr: string; exitCode: number } {
  let printSymbolic = false;
  let printCommand = false;
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      i++;
      break;
    }
    if (!arg.startsWith("-") || arg === "-") break;
    for (const letter of arg.slice(1)) {
      if (letter === "S") printSymbolic = true;
      else if (letter === "p") printCommand = true;
      else return { stdout: "", stderr: `bash: umask: -${letter}: invalid option\numask: usage: umask [-p] [-S] [mode]\n`, exitCode: 2 };
    }
  }
  const mode = args[i];
  const current = umaskOf(ctx.fs);
  if (mode === undefined) {
    const shown = printSymbolic ? symbolic(current) : current.toString(8).padStart(4, "0");
    return { stdout: `${printCommand ? `umask${printSymbolic ? " -S" : ""} ` : ""}${shown}\n`, stderr: "", exitCode: 0 };
  }
  let mask: number;
  if (/^[0-9]/.test(mode)) {
    if (!/^[0-7]+$/.test(mode) || parseInt(mode, 8) > 0o7777) return { stdout: "", stderr: `bash: umask: ${mode}: octal number out of range\n`, exitCode: 1 };
    mask = parseInt(mode, 8) & 0o777;
  } else {
    const bits = parseSymbolic(mode, ~current & 0o777);
    if (typeof bits === "string") return { stdout: "", stderr: `bash: umask: ${bits}\n`, exitCode: 1 };
    mask = ~bits & 0o777;
  }
  setUmask(ctx.fs, mask);
  return { stdout: printSymbolic ? `${symbolic(mask)}\n` : "", stderr: "", exitCode: 0 };
}

// ---------------------------------------------------------------- touch

/** Whether touch's arguments (up to `--`) ask for a given time: `-d`, `--date`, `-t`, `-r`, `--reference`. */
function timeAsked(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") return false;
    if (/^--(?:date|reference)(?:=|$)/.test(arg)) return true;
    if (!arg.startsWith("-") || arg.startsWith("--") || arg === "-") continue;
    for (const letter of arg.slice(1)) {
      if (letter === "d" || letter === "t" || letter === "r") return true;
      if (letter !== "a" && letter !== "c" && letter !== "m") break;
    }
  }
  return false;
}

/** The fs calls {@link touchTimes} makes. */
interface TouchFs {
  resolvePath(base: string, path: string): string;
  exists(path: string): Promise<boolean>;
}

/**
 * touch with a time of its own (`-d`, `--date`, `-t`, `-r`): null when none
 * is asked for (touch goes on and sets the current time); else the failure
 * for each operand, `touch: setting times of 'f.txt': Operation not
 * supported`, status 1, with nothing created or changed (an operand that does
 * not exist under `-c` is skipped, as GNU touch does), whatever the date
 * (just-bash's date parser is not asked: `-d yesterday` fails the same way).
 * The Workspace sets a file's mtime itself and stores no other.
 */
export async function touchTimes(args: readonly string[], operands: readonly string[], noCreate: boolean, ctx: { fs: TouchFs; cwd: string }): Promise<{ stdout: string; stderr: string; exitCode: number } | null> {
  if (!timeAsked(args)) return null;
  let stderr = "";
  for (const operand of operands) {
    if (noCreate && !(await ctx.fs.exists(ctx.fs.resolvePath(ctx.cwd, operand)))) continue;
    stderr += `touch: setting times of '${operand}': Operation not supported\n`;
  }
  return { stdout: "", stderr, exitCode: stderr === "" ? 0 : 1 };
}
