/**
 * Behaviour of bash 5.2 and GNU coreutils 9.1 / sed 4.9 that just-bash lacked
 * (issue 20, twenty-fifth attack run, fixer L1):
 *
 * - `mapfile -u FD` / `readarray -u FD` read the open descriptor FD (just-bash
 *   skipped the option and read stdin);
 * - sed's address flags `I` (match without case) and `M` (multi-line mode):
 *   `/re/I`, `/a/I,/b/Ip`;
 * - `mkdir -p` makes each missing directory along its operand in turn, and
 *   with -v names each, parents first, none that already existed;
 * - `cp`/`mv` to a missing `name/` or to a target that is not a directory say
 *   why as GNU (`Not a directory`, `target 'T': No such file or directory`);
 * - `comm` checks that its inputs are sorted (`--check-order`, default, and
 *   `--nocheck-order`) and `join` pairs lines in one merge of both files, so
 *   its output keeps the files' order;
 * - `sort -k` rejects a bad key (`-k 0`, `-k 1.0`, `-k x`) with status 2;
 * - (run 26, fixer SD) join checks its inputs' order as GNU join 9.1
 *   (`--check-order`, `--nocheck-order`), and sort finds a key's text as
 *   GNU's begfield/limfield: `-k N` runs to the end of the line, `.C`
 *   counts from the field's start and may run past its end.
 *
 * scripts/gen-shell.mjs patches just-bash to call these (imported as the
 * namespace `__gnuExtra`, entries marked `// L1`). Pure apart from the
 * shell's fs: it is bundled into the shell's Dynamic Worker.
 *
 * @module
 */
import { failureCode, reason } from "./path-errors.js";
import { compareBytes } from "./sort-sed.js";

// ---------------------------------------------------------------- mapfile -u

/** A descriptor as just-bash's lookup returns it (only `kind` and `sourceFd` are read here). */
interface Descriptor {
  kind: string;
  sourceFd?: number;
}

/** just-bash's descriptor functions, as `read -u` uses them. */
export interface DescriptorAccess<C> {
  /** The descriptor `fd` of the shell, or undefined when it is not open. */
  lookup(ctx: C, fd: number): Descriptor | undefined;
  /** What is left to read on `fd`, or why it cannot be read. */
  content(ctx: C, fd: number): { content: string } | { error: string };
}

/**
 * The input `mapfile -u FD` reads: `null` when there is no `-u` (or it names
 * stdin: 0, or a copy of 0), which leaves just-bash's stdin in place; the
 * text left on FD; or an `{ error }` line as bash 5.2 (`mapfile: x: invalid
 * file descriptor specification`, `mapfile: 7: invalid file descriptor: Bad
 * file descriptor`), status 1. A descriptor open for writing only reads
 * nothing, as bash's read(2) on it fails.
 */
export function mapfileInput<C>(ctx: C, fdArg: string | undefined, access: DescriptorAccess<C>, command = "mapfile"): string | null | { error: string } {
  if (fdArg === undefined) return null;
  if (!/^\s*\+?\d+$/.test(fdArg)) return { error: `bash: ${command}: ${fdArg}: invalid file descriptor specification\n` };
  const fd = Number(fdArg.trim());
  if (!Number.isSafeInteger(fd)) return { error: `bash: ${command}: ${fdArg}: invalid file descriptor specification\n` };
  const descriptor = access.lookup(ctx, fd);
  if (fd === 0 || (descriptor?.kind === "dup-in" && descriptor.sourceFd === 0)) return null;
  const got = access.content(ctx, fd);
  if ("content" in got) return got.content;
  if (got.error === "write-only" || fd === 1 || fd === 2) return "";
  return { error: `bash: ${command}: ${fd}: invalid file descriptor: Bad file descriptor\n` };
}

/**
 * How much of `input` mapfile consumed: the `skip` (-s) lines it discarded
 * and the `count` (-n) it kept, each up to and with its `delimiter`; all of
 * it without -n. bash leaves the rest on the descriptor for the next reader.
 */
export function mapfileConsumed(input: string, delimiter: string, count: number, skip: number): number {
  if (!(count > 0)) return input.length;
  let at = 0;
  for (let lines = 0; lines < count + Math.max(0, skip) && at < input.length; lines++) {
    const end = input.indexOf(delimiter, at);
    if (end === -1) return input.length;
    at = end + delimiter.length;
  }
  return at;
}

// ---------------------------------------------------------------- sed address flags

/** The lexer state sed's address reader advances. */
interface SedLexer {
  peek(): string;
  advance(): string;
}

/**
 * Reads the flags after a `/regex/` address, GNU sed 4.9's `I` (ignore case)
 * and `M` (multi-line: `^`/`$` match at each newline), and returns them as
 * JavaScript RegExp flags (`"i"`, `"m"`, `"im"`).
 */
export function sedAddressFlags(lexer: SedLexer): string {
  let flags = "";
  for (let c = lexer.peek(); c === "I" || c === "M"; c = lexer.peek()) {
    lexer.advance();
    const flag = c === "I" ? "i" : "m";
    if (!flags.includes(flag)) flags += flag;
  }
  return flags;
}

// ---------------------------------------------------------------- mkdir -pv

/** The fs calls mkdir makes. */
export interface MkdirFs {
  resolvePath(base: string, path: string): string;
  stat(path: string): Promise<{ isDirectory: boolean }>;
  mkdir(path: string, options?: { recursive?: boolean }): Promise<void>;
}

/**
 * `mkdir -p OPERAND` as GNU mkdir 9.1: each missing directory along the
 * operand is made in turn, and `stdout` names each as the operand spells it up
 * to that component (`created directory 'x'`, `'x/y'`, then the operand
 * itself) for -v; one that exists is neither made nor named, and one that is
 * not a directory ends the operand (`cannot create directory 'f': Not a
 * directory`; the operand itself: `File exists`).
 */
export async function mkdirParents(fs: MkdirFs, cwd: string, operand: string): Promise<{ stdout: string; stderr: string }> { // L25b
  const ends: number[] = [];
  for (let i = 0; i < operand.length; i++) if (operand[i] !== "/" && (i + 1 === operand.length || operand[i + 1] === "/")) ends.push(i + 1);
  const at = (k: number) => ({ name: k === ends.length - 1 ? operand : operand.slice(0, ends[k]), path: fs.resolvePath(cwd, operand.slice(0, ends[k])) });
  const kind = async (k: number): Promise<boolean | undefined> => { // L25b: true a directory, false another file, undefined absent
    try {
      return (await fs.stat(at(k).path)).isDirectory;
    } catch {
      return undefined;
    }
  };
  // L25b: without `.`/`..` components, whether a prefix exists only goes from yes to no along the operand, so the
  // first missing one is found in O(log n) stats and the rest made with one recursive mkdir (a 9,000-component
  // operand past the Workspace's limits fails at once, making nothing); with them, each component in turn.
  let first = 0;
  if (!/(^|\/)\.\.?(\/|$)/.test(operand)) {
    let lo = 0;
    let hi = ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((await kind(mid)) === undefined) hi = mid;
      else lo = mid + 1;
    }
    first = lo;
    if (first > 0 && (await kind(first - 1)) === false) {
      const { name } = at(first - 1);
      return { stdout: "", stderr: `mkdir: cannot create directory '${name}': ${first === ends.length ? "File exists" : "Not a directory"}\n` };
    }
    if (first === ends.length) return { stdout: "", stderr: "" };
    try {
      await fs.mkdir(at(ends.length - 1).path, { recursive: true });
    } catch (error) {
      // A read-only mount refuses the first directory GNU mkdir -p would make: it names that one (issue 20, run 33, fixer MB).
      const why = reason(error);
      return { stdout: "", stderr: `mkdir: cannot create directory '${why === "Read-only file system" ? at(first).name : operand}': ${why}\n` };
    }
    let stdout = "";
    for (let k = first; k < ends.length; k++) stdout += `mkdir: created directory '${at(k).name}'\n`;
    return { stdout, stderr: "" };
  }
  let stdout = "";
  for (let k = 0; k < ends.length; k++) {
    const { name, path } = at(k);
    const isDirectory = await kind(k);
    if (isDirectory === true) continue;
    if (isDirectory === false) {
      const code = k === ends.length - 1 ? "File exists" : "Not a directory";
      return { stdout, stderr: `mkdir: cannot create directory '${name}': ${code}\n` };
    }
    try {
      await fs.mkdir(path);
    } catch (error) {
      return { stdout, stderr: `mkdir: cannot create directory '${name}': ${reason(error)}\n` };
    }
    stdout += `mkdir: created directory '${name}'\n`;
  }
  return { stdout, stderr: "" };
}

// ---------------------------------------------------------------- cp/mv target

/**
 * Why a `cp`/`mv` of several sources to `target` fails when it is not a
 * directory, as GNU coreutils 9.1 says it (`cp: target 'T': <reason>`): `Not
 * a directory` when it exists (`error` is null), else why looking it up
 * failed (`No such file or directory`; `Not a directory` below a file).
 * just-bash said `target 'T' is not a directory` for all of them.
 */
export async function targetReason(fs: Parameters<typeof failureCode>[0], path: string, error: unknown): Promise<string> {
  return error === null ? "Not a directory" : reason({ code: await failureCode(fs, path, error) });
}

// ---------------------------------------------------------------- comm

/** Which of comm's three columns are printed (`-1`, `-2`, `-3` take them away). */
export interface CommColumns {
  first: boolean;
  second: boolean;
  both: boolean;
}

/**
 * `comm` of the lines of two files as GNU comm 9.1 in the C locale: lines
 * compared by bytes, the lesser printed first. `check` is the order check:
 * `"--check-order"` fails at the first line out of order (`comm: file 1 is
 * not in sorted order`, status 1, output so far kept); `"--nocheck-order"`
 * checks nothing; the default (`""`) warns once per file, only after a line
 * was unpairable, and ends with `comm: input is not in sorted order`, status 1.
 */
export function comm(lines1: readonly string[], lines2: readonly string[], columns: CommColumns, check: string): { stdout: string; stderr: string; exitCode: number } {
  const prefix2 = columns.first ? "\t" : "";
  const prefix3 = prefix2 + (columns.second ? "\t" : "");
  const lines = [lines1, lines2];
  const at = [0, 0];
  const warned = [false, false];
  let stdout = "";
  let stderr = "";
  let unpairable = false;
  while (at[0]! < lines1.length || at[1]! < lines2.length) {
    const a = lines1[at[0]!];
    const b = lines2[at[1]!];
    const order = a === undefined ? 1 : b === undefined ? -1 : compareBytes(a, b);
    if (order === 0) {
      if (columns.both) stdout += `${prefix3}${a}\n`;
    } else {
      unpairable = true;
      if (order < 0) {
        if (columns.first) stdout += `${a}\n`;
      } else if (columns.second) stdout += `${prefix2}${b}\n`;
    }
    for (const file of [0, 1]) {
      if (order === 0 || (order < 0) === (file === 0)) {
        const prev = lines[file]![at[file]!]!;
        at[file]!++;
        const next = lines[file]![at[file]!];
        if (next === undefined || check === "--nocheck-order" || warned[file] || !(check === "--check-order" || unpairable)) continue;
        if (compareBytes(prev, next) > 0) {
          stderr += `comm: file ${file + 1} is not in sorted order\n`;
          if (check === "--check-order") return { stdout, stderr, exitCode: 1 };
          warned[file] = true;
        }
      }
    }
  }
  if (warned[0] || warned[1]) return { stdout, stderr: `${stderr}comm: input is not in sorted order\n`, exitCode: 1 };
  return { stdout, stderr, exitCode: 0 };
}

// ---------------------------------------------------------------- join

/** A line of a join input as just-bash reads it. */
interface JoinLine {
  joinKey: string;
  /** The line as read (without its newline). */
  original?: string;
}

/** What {@link joinMerge} is told besides the lines (issue 20, run 26, fixer SD: the order check). */
export interface JoinMergeOptions {
  /** Print the pairs (no `-v`). */
  pairs: boolean;
  /** Print file 1's unpairable lines (`-a 1`, `-v 1`). */
  unpaired1: boolean;
  /** Print file 2's unpairable lines (`-a 2`, `-v 2`). */
  unpaired2: boolean;
  /** `"--check-order"`, `"--nocheck-order"` or `""` (the default: check once a line was unpairable). */
  check?: string;
  /** The operands as given, for the order message (`join: FILE:N: is not sorted: LINE`). */
  names?: readonly string[];
  /** The inputs' texts, to number their lines as GNU does (just-bash drops empty lines before the merge). */
  texts?: readonly string[];
}

/** The 1-based numbers of the non-empty lines of `text` (the lines just-bash keeps). */
function keptLineNumbers(text: string | undefined, count: number): number[] {
  if (text === undefined) return Array.from({ length: count }, (_, i) => i + 1);
  const numbers: number[] = [];
  let line = 1;
  for (let at = 0; at < text.length; line++) {
    const end = text.indexOf("\n", at);
    const stop = end === -1 ? text.length : end;
    if (stop > at) numbers.push(line);
    at = stop + 1;
  }
  return numbers;
}

/**
 * Pairs the lines of two join inputs in one merge, as GNU join 9.1's join():
 * the lesser key goes first, so unpairable lines (`-a`, `-v`) come out
 * between the pairs in the files' order; every line of a run of equal keys in
 * file 1 pairs with every line of the run in file 2. `emit(line1, line2)`
 * prints one output line (`null` for the missing side).
 *
 * It reads the lines in GNU's order and checks it as GNU's check_order: a
 * line whose key sorts before the previous line's of the same file is
 * reported once per file (`join: FILE:N: is not sorted: LINE`) — by default
 * only once an unpairable line was seen, then the rest of both files is read
 * to check it and the result ends with `join: input is not in sorted order`,
 * status 1; `--check-order` stops at the first with status 1;
 * `--nocheck-order` checks nothing. just-bash never checked (status 0).
 */
export function joinMerge<L extends JoinLine>(lines1: readonly L[], lines2: readonly L[], options: JoinMergeOptions, emit: (line1: L | null, line2: L | null) => void): { stderr: string; exitCode: number } {
  const check = options.check ?? "";
  const files = [lines1, lines2] as const;
  const numbers = [keptLineNumbers(options.texts?.[0], lines1.length), keptLineNumbers(options.texts?.[1], lines2.length)];
  const next = [0, 0];
  const prev: (L | null)[] = [null, null];
  const warned = [false, false];
  let seenUnpairable = false;
  let stderr = "";
  /** --check-order's stop: thrown by read() and caught below. */
  const stop = Symbol("join order");
  const read = (file: 0 | 1): L | null => {
    const at = next[file]!;
    const line = files[file][at];
    if (line === undefined) return null;
    next[file] = at + 1;
    const before = prev[file];
    if (before !== null && check !== "--nocheck-order" && (check === "--check-order" || seenUnpairable) && !warned[file] && compareBytes(before.joinKey, line.joinKey) > 0) {
      stderr += `join: ${options.names?.[file] ?? `file ${file + 1}`}:${numbers[file]![at] ?? at + 1}: is not sorted: ${line.original ?? line.joinKey}\n`;
      if (check === "--check-order") throw stop;
      warned[file] = true;
    }
    prev[file] = line;
    return line;
  };
  const seq: L[][] = [[], []];
  /** GNU's getseq/advance_seq: reads one more line of `file` into its run (a fresh run when `first`). */
  const advance = (file: 0 | 1, first: boolean): boolean => {
    if (first) seq[file] = [];
    const line = read(file);
    if (line === null) return false;
    seq[file]!.push(line);
    return true;
  };
  try {
    advance(0, true);
    advance(1, true);
    while (seq[0]!.length > 0 && seq[1]!.length > 0) {
      const order = compareBytes(seq[0]![0]!.joinKey, seq[1]![0]!.joinKey);
      if (order !== 0) {
        const file = order < 0 ? 0 : 1;
        if (file === 0 ? options.unpaired1 : options.unpaired2) emit(file === 0 ? seq[0]![0]! : null, file === 0 ? null : seq[1]![0]!);
        advance(file, true);
        seenUnpairable = true;
        continue;
      }
      let eof1 = false;
      do {
        if (!advance(0, false)) {
          eof1 = true;
          break;
        }
      } while (compareBytes(seq[0]!.at(-1)!.joinKey, seq[1]![0]!.joinKey) === 0);
      let eof2 = false;
      do {
        if (!advance(1, false)) {
          eof2 = true;
          break;
        }
      } while (compareBytes(seq[0]![0]!.joinKey, seq[1]!.at(-1)!.joinKey) === 0);
      const run1 = eof1 ? seq[0]!.length : seq[0]!.length - 1;
      const run2 = eof2 ? seq[1]!.length : seq[1]!.length - 1;
      if (options.pairs) for (let a = 0; a < run1; a++) for (let b = 0; b < run2; b++) emit(seq[0]![a]!, seq[1]![b]!);
      seq[0] = eof1 ? [] : [seq[0]!.at(-1)!];
      seq[1] = eof2 ? [] : [seq[1]!.at(-1)!];
    }
    // GNU reads the rest of both files, printed or not, to check their order (unless --nocheck-order).
    const checkTail = check !== "--nocheck-order" && !(warned[0] && warned[1]);
    for (const file of [0, 1] as const) {
      const unpaired = file === 0 ? options.unpaired1 : options.unpaired2;
      if (!(unpaired || checkTail) || seq[file]!.length === 0) continue;
      const print = (line: L) => emit(file === 0 ? line : null, file === 0 ? null : line);
      if (unpaired) print(seq[file]![0]!);
      if (seq[1 - file]!.length > 0) seenUnpairable = true;
      for (let line = read(file); line !== null; line = read(file)) {
        if (unpaired) print(line);
        if (warned[file] && !unpaired) break;
      }
    }
  } catch (error) {
    if (error !== stop) throw error;
    return { stderr, exitCode: 1 };
  }
  if (warned[0] || warned[1]) return { stderr: `${stderr}join: input is not in sorted order\n`, exitCode: 1 };
  return { stderr, exitCode: 0 };
}

// ---------------------------------------------------------------- sort -k

/** GNU's quote() in a UTF-8 locale, as sort's key messages print it. */
const quote = (text: string): string => `‘${text}’`;

/** strtoumax's number at the start of `text` (spaces and `+` allowed): its value and the rest, or null without digits. */
function fieldCount(text: string): { value: number; rest: string } | null {
  const m = /^\s*\+?(\d+)/.exec(text);
  if (m === null) return null;
  return { value: Number(m[1]), rest: text.slice(m[0].length) };
}

/** Ordering letters GNU sort takes after a key position. */
const ORDERING = /^[bdfghiMnRrV]*/;

/**
 * What is wrong with sort key `spec` (`-k POS1[,POS2]`), as GNU sort 9.1
 * says it, or null for a key it takes: `field number is zero` (`-k 0`,
 * `-k 1,0`), `character offset is zero` (`-k 1.0`), `invalid number at field
 * start` (`-k x`), `invalid number after '.'` / `','`, `stray character in
 * field spec` (`-k 1x`).
 */
export function sortKeyError(spec: string): string | null {
  const bad = (what: string) => `sort: ${what}: invalid field specification ${quote(spec)}\n`;
  const count = (text: string, what: string): { value: number; rest: string } | string => fieldCount(text) ?? `sort: ${what}: invalid count at start of ${quote(text)}\n`;
  const start = count(spec, "invalid number at field start");
  if (typeof start === "string") return start;
  if (start.value === 0) return bad("field number is zero");
  let rest = start.rest;
  if (rest.startsWith(".")) {
    const char = count(rest.slice(1), "invalid number after '.'");
    if (typeof char === "string") return char;
    if (char.value === 0) return bad("character offset is zero");
    rest = char.rest;
  }
  rest = rest.replace(ORDERING, "");
  if (rest.startsWith(",")) {
    const end = count(rest.slice(1), "invalid number after ','");
    if (typeof end === "string") return end;
    if (end.value === 0) return bad("field number is zero");
    rest = end.rest;
    if (rest.startsWith(".")) {
      const char = count(rest.slice(1), "invalid number after '.'");
      if (typeof char === "string") return char;
      rest = char.rest;
    }
    rest = rest.replace(ORDERING, "");
  }
  return rest === "" ? null : bad("stray character in field spec");
}

/**
 * sort's `-k SPEC`, `-kSPEC`, `--key SPEC` or `--key=SPEC` at `args[i]`: the
 * key's text and the index of the last argument it took, or sort's error
 * result (status 2) for a missing or bad key.
 */
export function sortKeyOption(args: readonly string[], i: number): { spec: string; last: number } | { error: { stdout: string; stderr: string; exitCode: number } } {
  const arg = args[i]!;
  const fail = (stderr: string) => ({ error: { stdout: "", stderr, exitCode: 2 } });
  let spec: string | undefined;
  let last = i;
  if (arg === "-k" || arg === "--key") {
    spec = args[i + 1];
    last = i + 1;
    if (spec === undefined) {
      return fail(`${arg === "-k" ? "sort: option requires an argument -- 'k'" : "sort: option '--key' requires an argument"}\nTry 'sort --help' for more information.\n`);
    }
  } else spec = arg.startsWith("--key=") ? arg.slice(6) : arg.slice(2);
  const error = sortKeyError(spec);
  return error === null ? { spec, last } : fail(error);
}

/** A sort key as just-bash's key parser makes it (`-k POS1[,POS2]`; fields and characters 1-based). */
export interface SortKeySpec {
  startField: number;
  startChar?: number;
  endField?: number;
  endChar?: number;
  /** `b`: skip blanks before the start (and before an end character offset). */
  ignoreLeading?: boolean;
}

/** GNU sort's blanks in the C locale (field_sep: isblank or newline). */
const isBlank = (c: string | undefined): boolean => c === " " || c === "\t" || c === "\n";

/**
 * The text of key `key` in `line` as GNU sort 9.1 finds it (begfield and
 * limfield; fix of issue 20, run 26, fixer SD). Without `-t` (`tab` null) a
 * field is its leading blanks and what follows up to the next blank; with
 * `-t` fields are split at each `tab`. The key starts `startChar - 1`
 * characters into field `startField` (after its blanks with `b`), which may
 * run past that field, and ends at the end of the line when there is no
 * `endField` (just-bash ended it at the end of field `startField`); else at
 * the end of field `endField`, or `endChar` characters into it. A key that
 * ends before it starts is empty.
 */
export function sortKey(line: string, key: SortKeySpec, tab: string | null): string {
  const lim = line.length;
  const isTab = (at: number) => tab !== null && tab !== "" && line.startsWith(tab, at);
  /** From `ptr`, past `count` fields (GNU: for -t each ends after its tab, `stepTab` says whether to step over the last one). */
  const skipFields = (count: number, stepLastTab: boolean): number => {
    let ptr = 0;
    for (let left = count; ptr < lim && left > 0; left--) {
      if (tab !== null && tab !== "") {
        while (ptr < lim && !isTab(ptr)) ptr++;
        if (ptr < lim && (left > 1 || stepLastTab)) ptr += tab.length;
      } else {
        while (ptr < lim && isBlank(line[ptr])) ptr++;
        while (ptr < lim && !isBlank(line[ptr])) ptr++;
      }
    }
    return ptr;
  };
  let begin = skipFields(key.startField - 1, true);
  if (key.ignoreLeading) while (begin < lim && isBlank(line[begin])) begin++;
  begin = Math.min(lim, begin + Math.max(0, (key.startChar ?? 1) - 1));
  if (key.endField === undefined) return line.slice(begin);
  const endChar = key.endChar ?? 0;
  let end = skipFields(endChar === 0 ? key.endField : key.endField - 1, endChar !== 0);
  if (endChar !== 0) {
    if (key.ignoreLeading) while (end < lim && isBlank(line[end])) end++;
    end = Math.min(lim, end + endChar);
  }
  return end > begin ? line.slice(begin, end) : "";
}
