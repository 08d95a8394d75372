/**
 * sed's two-address ranges as GNU sed 4.9 selects them (issue 20, run 28,
 * fixer SD; wired into just-bash's sed by scripts/gen-shell.mjs, entries
 * marked `// SD`, imported as the namespace `__sedRange`).
 *
 * just-bash tested a regex end on the line that opened the range, so
 * `/^## A/,/^## /` ended on its own heading; GNU (and POSIX) look for the
 * end from the next line on. The whole range state follows GNU:
 *
 * - `/re/` (or `first~step`, `$`) start: the range opens on a line the start
 *   matches and may open again after it ends;
 * - a line-number start `N`: opens on line N, or on the first line past N
 *   (when `n`/`N` read line N inside a cycle); it never opens again;
 *   `0,/re/` is open before line 1, so the end may match line 1;
 * - end `/re/`: looked for from the line after the start;
 * - end `M`: `M` ≤ the start line selects the start line alone; a cycle that
 *   went past M (through `n`/`N`) is not selected and the range ends;
 * - end `+N`: the start line and the N after it; `~N`: up to the next line
 *   after the start that is a multiple of N (`4,~4` is lines 4 to 8); with
 *   N = 0 the start line alone; a later cycle at or past the last line (after
 *   `n`/`N`) is still selected, and ends the range;
 * - end `first~step`: up to the next line it matches (checked on the start
 *   line too); `$`: up to the last line.
 *
 * Each input file of `-s`/`-i` is its own run, so a range never goes on into
 * the next file (and line numbers start again), as GNU.
 *
 * Pure: bundled into the shell's Dynamic Worker.
 *
 * @module
 */

/** An address as just-bash's sed parser makes it: a line number, `$`, `first~step`, `/re/`, `+N` or `~N`. */
type Address = number | "$" | { first: number; step: number } | { pattern: string } | { offset: number; multiple?: number } | Record<string, unknown>;

/** A command's address: one address, or a range (`start,end`), maybe negated. */
interface CommandAddress {
  start?: Address;
  end?: Address;
  negated?: boolean;
}

/**
 * The state of one range (kept in just-bash's `rangeStates`, keyed by the
 * command's address): `active` while lines after the start are in it (read
 * by `c`, which writes its text when the range ends), `closed` once a range
 * with a line-number start has ended, `last` the line a `+N` range ends on.
 */
export interface RangeState {
  active: boolean;
  closed?: boolean;
  last?: number;
}

/** just-bash's one-address test: whether `address` selects line `line` (of `lastLine`) with pattern space `space`. */
type Single = (address: Address, line: number, lastLine: number, space: string, state: unknown) => boolean;

const isStep = (a: Address): a is { first: number; step: number } => typeof a === "object" && a !== null && "first" in a && "step" in a;
const isOffset = (a: Address): a is { offset: number; multiple?: number } => typeof a === "object" && a !== null && "offset" in a;

/**
 * Whether the command with `address` runs on line `line` (`lastLine` is
 * `$`), updating its range state in `ranges`; `single` is just-bash's
 * one-address test (regexes, their flags and the empty regex). Negation is
 * applied by the caller.
 */
export function match(address: CommandAddress | undefined, line: number, lastLine: number, space: string, ranges: Map<unknown, RangeState> | undefined, state: unknown, single: Single): boolean {
  if (!address || (address.start === undefined && address.end === undefined)) return true;
  const { start, end } = address;
  if (start === undefined) return true;
  if (end === undefined) return single(start, line, lastLine, space, state);
  const map = ranges ?? new Map<unknown, RangeState>();
  let range = map.get(address);
  if (!range) map.set(address, (range = { active: false }));
  const test = (a: Address) => single(a, line, lastLine, space, state);
  if (range.active) return goesOn(range, start, end, line, lastLine, test);
  if (range.closed) return false;
  if (start === 0) {
    // `0,/re/`: open before line 1, so the end is looked for on line 1 already.
    range.active = true;
    return goesOn(range, start, end, line, lastLine, test);
  }
  if (typeof start === "number") {
    if (line < start) return false;
    if (line > start && typeof end === "number" && line > end) {
      range.closed = true;
      return false;
    }
  } else if (!test(start)) return false;
  // The range opens on this line; is it also its last?
  let alone: boolean;
  if (typeof end === "number") alone = end <= line;
  else if (end === "$") alone = line === lastLine;
  else if (isOffset(end)) {
    const n = end.multiple ?? end.offset;
    alone = n <= 0;
    range.last = end.multiple !== undefined ? (Math.floor(line / n) + 1) * n : line + n;
  } else if (isStep(end)) alone = end.step <= 0 ? end.first <= line : test(end);
  else alone = false; // a regex end is looked for from the next line on
  if (alone) stop(range, start);
  else range.active = true;
  return true;
}

/** A line after the start of an open range: whether it is selected, ending the range on its last line. */
function goesOn(range: RangeState, start: Address, end: Address, line: number, lastLine: number, test: (a: Address) => boolean): boolean {
  if (typeof end === "number") {
    if (line >= end) stop(range, start);
    return line <= end;
  }
  let last: boolean;
  if (end === "$") last = line === lastLine;
  else if (isOffset(end)) last = line >= (range.last ?? line);
  else if (isStep(end)) last = end.step <= 0 ? line >= end.first : test(end);
  else last = test(end);
  if (last) stop(range, start);
  return true;
}

/** Ends `range`; one with a line-number start (`0` included) never opens again. */
function stop(range: RangeState, start: Address): void {
  range.active = false;
  if (typeof start === "number") range.closed = true;
}

/** The part of the sed run's shared state ({@link import("./sed-gnu.js").SedIO}) the file reads use. */
interface ReadIO {
  /** The command's standard input, decoded when called. */
  stdin?: () => string;
  /** Set once sed read its input from stdin (no file operand, or `-`) or `r`/`R /dev/stdin` read it. */
  stdinTaken?: boolean;
}

/**
 * The text `r FILE` / `R FILE` reads: `/dev/stdin` is the command's standard
 * input, read once (GNU sed 4.9 inserts it at the first `r`, later ones read
 * nothing) and empty when sed reads its input from stdin (no file operand,
 * or `-`: read before any script runs here); any other file
 * through `fs` (a file that cannot be read throws; the caller skips it).
 */
export async function readFile(fs: { readFile(path: string): Promise<string> }, path: string, sedIO: ReadIO | undefined): Promise<string> {
  if (path !== "/dev/stdin" || !sedIO) return fs.readFile(path);
  if (sedIO.stdinTaken) return "";
  sedIO.stdinTaken = true;
  return sedIO.stdin?.() ?? "";
}

/** The lines `R FILE` reads from `text`, one per `R` (no empty line after a final newline). */
export function lines(text: string): string[] {
  if (text === "") return [];
  const all = text.split("\n");
  if (text.endsWith("\n")) all.pop();
  return all;
}
