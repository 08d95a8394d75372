/**
 * The input offset a group's or loop's redirected stdin shares between its
 * commands (issue 20, run 30, fixer SP).
 *
 * just-bash hands the commands of `{ …; } < f` and `while …; do …; done < f`
 * the redirect's remaining text (`state.groupStdin`); only the builtins `read`
 * and `mapfile` moved it on. Every other command got the whole remaining input
 * again and left it there: `{ head -n1; sort; } < f` printed the header twice,
 * `{ cat; cat; } < f` the file twice. As bash 5.2 with GNU tools on a regular
 * file (POSIX XCU 1.4 "INPUT FILES": a utility that stops early leaves the
 * offset just past the data it used), a command that reads its stdin now
 * consumes it — all of it, or, for one that stops early (`head -n N`/`-c N`,
 * `grep -m N`, sed `q`/`Q`, `mapfile -n N`), exactly what it used.
 */
import { utf8EscapeByteLength } from "../../../util/utf8-escape.js";

interface GroupState {
  groupStdin?: string;
  groupStdinSourceFd?: number;
}

/** What the command runner notes of a command that read the group's stdin: that text and how much it used. */
export interface GroupRead {
  input: string;
  consumed: number | undefined;
}


/**
 * How much of `raw` (a command's stdin: a byte string, or text) the first
 * `used` characters of `text` (`raw` as the command decoded it) are.
 */
export function rawPrefix(raw: string, text: string, used: number): number {
  if (raw === text) return used;
  return Math.min(raw.length, utf8EscapeByteLength(text.slice(0, used)));
}

/**
 * After a command that read the group's stdin (`read` noted by the command
 * runner): the group's stdin goes on past what it used (all of it unless the
 * command said), and so does the descriptor it came from (`<&N`), as `read`
 * does. Nothing moves when the command ran with other stdin, or when the
 * group's stdin changed meanwhile.
 */
export function advanceGroup(ctx: { state: unknown }, result: { __groupStdinRead?: GroupRead }, advanceFd: (fd: number, n: number) => void): void {
  const read = result.__groupStdinRead;
  if (read === undefined) return;
  delete result.__groupStdinRead;
  const state = ctx.state as GroupState & { groupStdinPipe?: boolean };
  if (read.input === "" || state.groupStdin !== read.input) return;
  const used = state.groupStdinPipe === true ? undefined : read.consumed;
  const n = Math.max(0, Math.min(read.input.length, used ?? read.input.length));
  state.groupStdin = read.input.substring(n);
  if (state.groupStdinSourceFd !== undefined && n > 0) advanceFd(state.groupStdinSourceFd, n);
}

/**
 * What `head` (not `tail`) used of its stdin to print `output`, a prefix of
 * it: that prefix — GNU head seeks a regular file back to just past what it
 * printed, with `-n -N`/`-c -N` ("all but the last") too.
 */
export function headConsumed(name: string, output: string): number | undefined {
  return name === "head" ? output.length : undefined;
}

/**
 * grep's stdin result `out` with what it used of `raw`: with -m, up to and
 * with the last selected line when it stopped there (GNU grep leaves stdin
 * just after it); else all of it (also with -q, which reads on in its buffer).
 */
export function grepStdin<R extends object>(raw: string, text: string, result: { consumed?: number }, quiet: unknown, out: R): R {
  if (quiet || result.consumed === undefined) return out;
  return { ...out, internalStdinConsumed: rawPrefix(raw, text, result.consumed) };
}

/** Where the line `index` (0-based, newline-terminated) of `text` ends: just past its newline. */
export function lineEnd(text: string, index: number): number {
  let at = 0;
  for (let line = 0; line <= index; line++) {
    const nl = text.indexOf("\n", at);
    if (nl === -1) return text.length;
    at = nl + 1;
  }
  return at;
}

/** What sed used of its stdin `raw` (decoded `text`): up to the line where `q`/`Q` stopped it, else all. */
export function sedConsumed(raw: string, text: string, io: { quitAt?: number }): number | undefined {
  if (io.quitAt === undefined) return undefined;
  return rawPrefix(raw, text, io.quitAt);
}

/**
 * `mapfile` done with `used` characters of `text` (its input as it decoded
 * it): the group's stdin (when it read that, not `given`) goes on past them,
 * and its descriptor; returns how much of its own stdin it used.
 */
export function mapfileDone(ctx: { state: unknown }, given: string, text: string, used: number, advanceFd: (fd: number, n: number) => void): number {
  const state = ctx.state as GroupState;
  if (given || state.groupStdin === undefined) return rawPrefix(given ?? "", text, used);
  const raw = state.groupStdin;
  const n = rawPrefix(raw, text, used);
  state.groupStdin = raw.substring(n);
  if (state.groupStdinSourceFd !== undefined && n > 0) advanceFd(state.groupStdinSourceFd, n);
  return n;
}

/**
 * Runs `run` (a group, loop or subshell) with its stdin known to be a pipe
 * (`pipe` true: it read the previous command of a pipeline) or a redirect
 * (false), or as its parent's (undefined). From a pipe, a command that reads
 * it takes all of it — GNU head, grep and sed read a pipe in blocks and
 * cannot seek back, so `printf 'a\nb\n' | { head -n1; cat; }` leaves `cat`
 * nothing — while `read` and `mapfile` still take only their lines, as bash.
 */
export async function withPipe<R>(ctx: { state: unknown }, pipe: boolean | undefined, run: () => Promise<R>): Promise<R> {
  if (pipe === undefined) return run();
  const state = ctx.state as GroupState & { groupStdinPipe?: boolean };
  const saved = state.groupStdinPipe;
  state.groupStdinPipe = pipe;
  try {
    return await run();
  } finally {
    state.groupStdinPipe = saved;
  }
}

/** The options that take a value in `mapfile`/`readarray`. */
const MAPFILE_VALUE = new Set(["d", "n", "O", "s", "u", "C", "c"]);

/**
 * `mapfile`'s words with each option on its own and each value in the next
 * word, as bash's getopt reads them: `-n1` is `-n 1`, `-tn2` is `-t -n 2`,
 * `-d,` is `-d ,`; up to `--` or the first word that is no option.
 */
export function mapfileArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const word = args[i] as string;
    if (word === "--" || !word.startsWith("-") || word === "-") break;
    for (let k = 1; k < word.length; k++) {
      const ch = word[k] as string;
      out.push(`-${ch}`);
      if (MAPFILE_VALUE.has(ch)) {
        if (k + 1 < word.length) out.push(word.slice(k + 1));
        else if (i + 1 < args.length) out.push(args[++i] as string);
        break;
      }
    }
  }
  return [...out, ...args.slice(i)];
}
