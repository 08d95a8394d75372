/**
 * The shell's grep (just-bash's, patched by scripts/gen-shell.mjs; entries marked `// SG`, imported as the namespace
 * `__grepGnu`) as GNU grep 3.8 where it differed silently (issue 20, twenty-seventh attack run, fixer SG):
 *
 * - patterns are read as GNU reads them — basic ones with `\+ \? \< \>` and `\{,n\}`, extended ones with `{,n}`, a
 *   literal `)` and `{` where they are no operator — by the POSIX translator expr uses ({@link translatePosix}), with
 *   GNU's errors (`grep: Unmatched \{`, status 2); matches are leftmost-longest, as POSIX (`grep -o 'a\|ab'` is `ab`);
 * - `-w` keeps a match only when no word character is next to it (GNU's test, not `\b`), so `grep -w ''` matches an
 *   empty line only;
 * - {@link search}: `-o` prints the non-empty matches (an empty one is stepped over), a selected line inside another
 *   one's after-context is printed as a match (`2:`), `-m` limits `-c` and `-m 0` reads nothing, trailing context
 *   follows the last of `-m` matches, `--` separates groups whenever a context option is given (also with `-o`);
 * - `-b`, `-z`, `-T`, `-s`, `-a`, `-I`, `--binary-files`, `--label`, `-y`, `-NUM`, `--color`/`--colour` (no colour:
 *   the output is never a terminal), and a file with a NUL byte is a binary file (`grep: f: binary file matches`).
 *
 * Issue 20, thirty-first run (fixer GS): `-ow` prints every match of a line whole, `--` separates the context groups
 * of different files ({@link fileOutput}), and `-P` reads PCRE2's syntax (grep-perl.ts), running lookarounds,
 * back-references and `-w` on V8 ({@link nativeRegex}).
 *
 * Pure: it is bundled into the shell's Dynamic Worker.
 *
 * @module
 */
import { translatePosix } from "./mode-expr.js";
import { NESTED_REPEAT_REFUSAL, perlPattern } from "./grep-perl.js";
import { utf8EscapeByteLength } from "../../../util/utf8-escape.js";

/** What grep's own option parser does not know (gathered by {@link option}). */
export interface GrepState {
  byteOffset: boolean;
  nullData: boolean;
  initialTab: boolean;
  noMessages: boolean;
  /** `binary` (GNU's default), `text` (-a) or `without-match` (-I). */
  binaryFiles: "binary" | "text" | "without-match";
  /** The name of standard input (`--label`). */
  label: string;
  /** `-NUM` / `-C NUM` / `--context=NUM`: the context of both sides that -A / -B do not set; -1 when none. */
  context: number;
  after: number;
  before: number;
  /** GNU's warnings, printed once before any output. */
  warnings: string;
  /** Group numbers of the `-w` guards in the compiled pattern (0 when not -w). */
  wordGroups: number;
  /** The `-w` regex that needs a non-word character before the match (for a search not at the line start). */
  innerRegex?: GrepRegex;
  /** A file of this grep printed a context group (GS: `--` goes before the next file's first group). */
  printedGroup?: boolean;
}

/** A new state. */
export function state(): GrepState {
  return {
    byteOffset: false,
    nullData: false,
    initialTab: false,
    noMessages: false,
    binaryFiles: "binary",
    label: "(standard input)",
    context: -1,
    after: -1,
    before: -1,
    warnings: "",
    wordGroups: 0,
  };
}

/**
 * Option `name` of the cluster `letters` at `at` (just-bash split `-abc` into letters; a long option is whole), one
 * just-bash's parser does not know: recorded in `st`. Returns how many more letters of the cluster it took, or -1
 * when it is no option GNU grep has either.
 */
export function option(st: GrepState, name: string, letters: readonly string[], at: number): number {
  if (/^[0-9]$/.test(name)) {
    let digits = name;
    let k = at + 1;
    while (k < letters.length && /^[0-9]$/.test(letters[k] as string)) digits += letters[k++];
    st.context = Number(digits);
    return k - at - 1;
  }
  const [long, value] = name.startsWith("--") && name.includes("=") ? [name.slice(0, name.indexOf("=")), name.slice(name.indexOf("=") + 1)] : [name, undefined];
  switch (long) {
    case "s":
    case "--no-messages":
      st.noMessages = true;
      return 0;
    case "b":
    case "--byte-offset":
      st.byteOffset = true;
      return 0;
    case "z":
    case "--null-data":
      st.nullData = true;
      return 0;
    case "T":
    case "--initial-tab":
      st.initialTab = true;
      return 0;
    case "a":
    case "--text":
      st.binaryFiles = "text";
      return 0;
    case "I":
      st.binaryFiles = "without-match";
      return 0;
    case "U":
    case "--binary":
    case "--line-buffered":
      return 0;
    case "--binary-files":
      if (value === "binary" || value === "text" || value === "without-match") {
        st.binaryFiles = value;
        return 0;
      }
      return -1;
    case "--label":
      if (value === undefined) return -1;
      st.label = value;
      return 0;
    case "--color":
    case "--colour":
      return value === undefined || value === "never" || value === "auto" || value === "always" || value === "yes" || value === "no" || value === "tty" || value === "none" || value === "force" || value === "if-tty" ? 0 : -1;
    case "--context":
    case "--after-context":
    case "--before-context":
      if (value === undefined || !/^[0-9]+$/.test(value)) return -1;
      if (long === "--context") st.context = Number(value);
      else if (long === "--after-context") st.after = Number(value);
      else st.before = Number(value);
      return 0;
    default:
      return -1;
  }
}

/** grep's own `-y` (an obsolete -i). */
export function isIgnoreCase(name: string): boolean {
  return name === "i" || name === "y" || name === "--ignore-case";
}

/** The regex just-bash's factory makes (RE2). */
export interface GrepRegex {
  lastIndex: number;
  exec(text: string): (RegExpExecArray & (string | undefined)[]) | null;
}
/** just-bash's buildRegex, patched to take a ready pattern (`mode: "raw"`) and POSIX's leftmost-longest matching. */
type Build = (pattern: string, options: { mode: string; ignoreCase?: boolean; wholeWord?: boolean; lineRegexp?: boolean; longest?: boolean; native?: boolean }) => {
  regex: GrepRegex;
  kResetGroup?: number;
  preFilter?: unknown;
};

const WORD = "A-Za-z0-9_";

/**
 * A `grep -P` regex just-bash's buildRegex asked V8 for (`native`: a lookaround or back-reference, grep-perl.ts): the
 * pattern it translated, with its flags (`g`, `i`, `u`; never RE2's `L`). GNU grep 3.8 runs -P on PCRE2, which
 * backtracks as V8 does (GS).
 */
export function nativeRegex(source: string, flags: string): GrepRegex {
  return new RegExp(source, flags.replace("L", "")) as unknown as GrepRegex;
}

/** The group separator, as an object so that a selected line `--` is not taken for it (GS). */
const SEPARATOR = new String("--") as unknown as string;

/**
 * The regex for grep's `patterns` (one per line of -e/-f) in `mode`, or `error` (GNU's message, status 2). -x and -w
 * wrap the alternatives; -w as GNU tests it: no word character just before or after the match ({@link search}
 * takes the match from between the two guard groups).
 */
export function compile(
  st: GrepState,
  patterns: readonly string[],
  mode: string,
  flags: { ignoreCase: boolean; wholeWord: boolean; lineRegexp: boolean },
  build: Build,
): { regex?: GrepRegex; kResetGroup?: number; preFilter?: unknown; error?: string } {
  if (mode === "perl") {
    // GS: PCRE2's syntax read (grep-perl.ts); lookarounds and back-references run on V8, the rest on RE2. -w is
    // GNU's `(?<!\w)(?:…)(?!\w)` (a lookaround: V8), not RE2's `\b`, which never matched `grep -Pw @foo`.
    if (patterns.length > 1) return { error: "grep: the -P option only supports a single pattern\n" };
    const read = perlPattern(patterns[0] ?? "");
    if (read.error !== undefined) return { error: read.error };
    const native = read.native || flags.wholeWord;
    if (native && read.nested) return { error: NESTED_REPEAT_REFUSAL };
    try {
      // GP: V8 gets the source with overlapping one-character alternatives made one class (grep-perl.ts).
      const built = build(native ? read.nativeSource : read.source, { mode: "perl", ignoreCase: flags.ignoreCase, wholeWord: flags.wholeWord, lineRegexp: flags.lineRegexp, native });
      return { regex: built.regex, kResetGroup: built.kResetGroup, preFilter: native ? undefined : built.preFilter };
    } catch {
      return { error: `grep: invalid regular expression: ${patterns.join("\n")}\n` };
    }
  }
  if (patterns.length === 0) return { regex: build("[^\\s\\S]", { mode: "raw" }).regex };
  const sources: string[] = [];
  let groups = 0;
  const warnings: string[] = [];
  for (const pattern of patterns) {
    if (mode === "fixed") {
      sources.push(pattern.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&"));
      continue;
    }
    try {
      const t = translatePosix(pattern, { extended: mode === "extended", grep: true }, warnings);
      if (t.backrefs) {
        return { error: "grep: back-references (\\1 … \\9) are not supported: the shell's regular expressions are RE2's, which match in linear time\n" };
      }
      // Group numbers count on through the patterns (`\(a\)` of the second pattern is group 2 of the whole).
      sources.push(t.source);
      groups += t.groups;
    } catch (error) {
      return { error: `grep: ${error instanceof Error ? error.message : String(error)}\n` };
    }
  }
  st.warnings = warnings.map((w) => `grep: warning: ${w}\n`).join("");
  let source = sources.length === 1 ? (sources[0] as string) : sources.map((s) => `(?:${s})`).join("|");
  const ignoreCase = flags.ignoreCase;
  try {
    if (flags.lineRegexp) source = `^(?:${source})$`;
    else if (flags.wholeWord) {
      st.wordGroups = groups + 2;
      st.innerRegex = build(`([^${WORD}])(?:${source})([^${WORD}]|$)`, { mode: "raw", ignoreCase, longest: true }).regex;
      source = `(^|[^${WORD}])(?:${source})([^${WORD}]|$)`;
    }
    const built = build(source, { mode: "raw", ignoreCase, longest: true });
    return { regex: built.regex, preFilter: flags.wholeWord ? undefined : built.preFilter };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { error: `grep: ${message.replace(/^Invalid regular expression: \/[^]*?\/: /, "")}\n` };
  }
}

/** The options just-bash's grep passes its search engine (the ones used here). */
export interface SearchOptions {
  invertMatch: boolean;
  showLineNumbers: boolean;
  countOnly: boolean;
  filename: string;
  onlyMatching: boolean;
  beforeContext: number;
  afterContext: number;
  maxCount: number;
  kResetGroup?: number;
  maxWork?: number;
  signal?: AbortSignal;
}

/** What {@link search} found: the output, whether a line was selected, and whether it was a binary file's. */
export interface SearchResult {
  output: string;
  matched: boolean;
  matchCount: number;
  /** A binary file had a selected line; its lines are not printed (grep says `binary file matches`). */
  binary: boolean;
  /** With -m, when it stopped there: how much of `content` it used, up to and with the last selected line (SP). */
  consumed?: number;
  /** `output` is lines in context groups (a context option was given): `--` goes before it when an earlier file printed (GS). */
  groups?: boolean;
}

/**
 * The output of one file's {@link search} `result` when grep prints it: GNU grep 3.8 puts `--` between any two
 * context groups, also when they are in different files (issue 20, run 31, GS). `st` remembers whether a group was
 * printed by an earlier file of the same grep.
 */
export function fileOutput(st: GrepState, result: SearchResult): string {
  if (result.output === "") return "";
  const sep = result.groups === true && st.printedGroup === true ? "--\n" : "";
  if (result.groups === true) st.printedGroup = true;
  return sep + result.output;
}


/** The reason a file grep could not search failed: the file system's (`Permission denied`), else the error's own text. */
export function failure(error: unknown, reason: (error: unknown) => string): string {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code === "string" || !(error instanceof Error) || /^E[A-Z]+\b|no such file/i.test(error.message)) return reason(error);
  return error.message.replace(/^grep: /, "");
}

/** Units of search work allowed per character of input, on top of the shell's base bound (run 38, fixer SG2). */
export const SEARCH_WORK_PER_CHAR = 8;

/**
 * The matching-work bound of one search of `length` characters (UTF-16 code units of one file's or stdin's text)
 * for grep ({@link search}) and rg (just-bash's search engine, patched by scripts/gen-shell.mjs): `base` (just-bash's
 * `maxWork` — 1,000,000 for grep, the 100,000 `maxLoopIterations` for rg) plus {@link SEARCH_WORK_PER_CHAR} units
 * per character; `undefined` (no bound) when `base` is. A unit is one regex search (one per line, one per match), one
 * context line visited or 1 KiB scanned. A search without context needs at most ~3 units per character of any
 * input the 64 MiB read bound admits (a line is at least its newline; a match, even an empty one, at least one
 * position), so it never meets the bound; rg's -A/-B/-C N charges up to 2N + 1 more units per selected line (it
 * revisits the context range of every match), so a wide context over many short selected lines can — as an error (`grep: f: matching work limit exceeded (N)`, status 2; `search: matching work limit exceeded (N)`,
 * status 126 for rg), never a cut result (issue 20, run 38, fixer SG2: the bound was 1,000,000 / 100,000 units
 * whatever the input, so grep failed past 1,000,000 lines and rg past 100,000).
 */
export function searchWorkBound(base: number | undefined, length: number): number | undefined { // run 38, fixer SG2
  return base === undefined ? undefined : base + SEARCH_WORK_PER_CHAR * (length + 1);
}

/**
 * The bound on lines, matches and output lines of one rg search of `length` characters: `base` (just-bash's
 * `maxMatches`, the 1,000,000 `maxArrayElements`) or, when larger, 2 × (length + 1) — more than any input can have
 * (a line is at least its newline, a match one position, and every output line is a line or a `--` between two),
 * so the 64 MiB read bound and the shell's output bound are what bound them (issue 20, run 38, fixer SG2).
 */
export function searchItemBound(base: number | undefined, length: number): number | undefined { // run 38, fixer SG2
  return base === undefined ? undefined : Math.max(base, 2 * (length + 1));
}

/**
 * Search `content` (one file or stdin) as GNU grep 3.8: lines (NUL-terminated records with -z; in a binary file a
 * NUL ends a line too) selected by `regex` (or not, -v), printed with GNU's prefixes (`name:`, `12:`, `340:` for
 * -b, padded and tab-aligned with -T; `-` for context lines), at most `maxCount` (-m; negative: no limit).
 */
export function search(st: GrepState, content: string, regex: GrepRegex, opts: SearchOptions, stdin = false): SearchResult {
  const eol = st.nullData ? "\0" : "\n";
  let work = 0;
  // The work bound grows with the input: lines and matches are bounded by the read bound, not by loop iterations
  // (issue 20, run 38, fixer SG2).
  const maxWork = searchWorkBound(opts.maxWork, content.length); // run 38, fixer SG2
  const charge = (units = 1) => {
    if (opts.signal?.aborted) throw new Error("grep: aborted");
    work += units;
    if (maxWork !== undefined && work > maxWork) throw new Error(`grep: matching work limit exceeded (${maxWork})`); // run 38, fixer SG2
  };
  const binaryFile = !st.nullData && st.binaryFiles !== "text" && content.includes("\0");
  const countOnly = opts.countOnly;
  // -m 0: GNU grep reads nothing (no count either) and exits 1.
  if (opts.maxCount === 0) return { output: "", matched: false, matchCount: 0, binary: false };
  if (binaryFile && st.binaryFiles === "without-match") {
    return { output: countOnly ? `${opts.filename ? `${opts.filename}:` : ""}0\n` : "", matched: false, matchCount: 0, binary: false };
  }
  const lines = binaryFile ? content.split(/\n|\0/) : content.split(eol);
  // The split after the final terminator is no line; a last line without one is.
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  // Byte offset of each line's start (for -b).
  let offsets: number[] | undefined;
  if (st.byteOffset) {
    offsets = [];
    let at = 0;
    for (const line of lines) {
      offsets.push(at);
      at += utf8EscapeByteLength(line) + 1;
    }
  }
  const word = st.wordGroups > 0;
  /** The next match in `line` starting at or after `from`: [start, end), or null. */
  const next = (line: string, from: number): [number, number] | null => {
    charge();
    if (from > line.length) return null;
    if (!word) {
      regex.lastIndex = from;
      const m = regex.exec(line);
      if (m === null) return null;
      if (opts.kResetGroup !== undefined) {
        const kept = m[opts.kResetGroup] ?? "";
        return [m.index + m[0].length - kept.length, m.index + m[0].length];
      }
      return [m.index, m.index + m[0].length];
    }
    const re = from === 0 ? regex : (st.innerRegex as GrepRegex);
    re.lastIndex = from === 0 ? 0 : from - 1;
    const m = re.exec(line);
    if (m === null) return null;
    const before = m[1] ?? "";
    // Both regexes have the leading guard as group 1 and the trailing one as group `wordGroups` (GS: the inner one's
    // was read from the group before it, cutting a later match short by the leading guard's length).
    const after = m[st.wordGroups] ?? "";
    return [m.index + before.length, m.index + m[0].length - after.length];
  };
  const selected = (line: string): boolean => (next(line, 0) !== null) !== opts.invertMatch;
  const max = opts.maxCount;
  if (countOnly) {
    let count = 0;
    let i = 0;
    for (; i < lines.length && (max < 0 || count < max); i++) if (selected(lines[i] as string)) count++;
    const consumed = max >= 0 && count >= max ? upTo(lines, i - 1, content.length) : undefined;
    return { output: `${opts.filename ? `${opts.filename}:` : ""}${count}\n`, matched: count > 0, matchCount: count, binary: false, consumed };
  }
  const after = opts.afterContext >= 0 ? opts.afterContext : st.after >= 0 ? st.after : st.context;
  const before = opts.beforeContext >= 0 ? opts.beforeContext : st.before >= 0 ? st.before : st.context;
  const contextAsked = after >= 0 || before >= 0;
  const afterN = Math.max(after, 0);
  const beforeN = Math.max(before, 0);
  // -T pads numbers to the width of the file's size (GNU's offset_width; a pipe's is unknown: 19 digits).
  const numberWidth = st.initialTab ? (stdin ? 19 : String(utf8EscapeByteLength(content)).length) : 0;
  const out: string[] = [];
  const emit = (text: string) => {
    out.push(text);
  };
  const head = (index: number, sep: string, offset: number, text: string): string => {
    let h = "";
    if (opts.filename) h += `${opts.filename}${sep}`;
    if (opts.showLineNumbers) h += `${String(index + 1).padStart(numberWidth)}${sep}`;
    if (st.byteOffset) h += `${String(offset).padStart(numberWidth)}${sep}`;
    if (st.initialTab && h !== "" && text !== "") h += "\t";
    return h + text;
  };
  let count = 0;
  /** The last line printed (or, with -o, passed as printed context), -1 before any. */
  let last = -1;
  let anyOutput = false;
  let pendingAfter = 0;
  const separate = (index: number) => {
    if (contextAsked && anyOutput && index > last + 1) out.push(SEPARATOR);
  };
  const context = (index: number) => {
    separate(index);
    if (!opts.onlyMatching) emit(head(index, "-", offsets?.[index] ?? 0, lines[index] as string));
    last = index;
    anyOutput = true;
  };
  let matched = false;
  let consumed: number | undefined;
  for (let i = 0; i < lines.length; i++) {
    if (max >= 0 && count >= max) {
      // GNU prints the trailing context of the last match, whatever those lines are.
      if (pendingAfter > 0 && !binaryFile) {
        context(i);
        pendingAfter--;
        continue;
      }
      break;
    }
    const line = lines[i] as string;
    if (!selected(line)) {
      if (pendingAfter > 0) {
        if (!binaryFile) context(i);
        pendingAfter--;
      }
      continue;
    }
    count++;
    matched = true;
    if (binaryFile) continue;
    for (let b = Math.max(last + 1, i - beforeN); b < i; b++) context(b);
    separate(i);
    if (opts.onlyMatching) {
      if (!opts.invertMatch) {
        let from = 0;
        // LL: -b's byte offset of each match counted on from the previous one (the whole prefix each time was quadratic
        // on a long line: 50,000 matches on one 1.3 MB line took minutes); none counted without -b. // LL
        let byteAt = offsets?.[i] ?? 0; // LL
        let charAt = 0; // LL
        for (;;) {
          const m = next(line, from);
          if (m === null) break;
          const [s, e] = m;
          if (e > s) { // LL
            if (st.byteOffset) { // LL
              byteAt += utf8EscapeByteLength(line.slice(charAt, s)); // LL
              charAt = s; // LL
            } // LL
            emit(head(i, ":", byteAt, line.slice(s, e))); // LL
          } // LL
          from = e > s ? e : e + 1;
        }
      }
    } else emit(head(i, ":", offsets?.[i] ?? 0, line));
    last = i;
    anyOutput = true;
    pendingAfter = afterN;
    if (max >= 0 && count >= max && consumed === undefined) consumed = upTo(lines, i, content.length);
  }
  const term = st.nullData ? "\0" : "\n";
  return {
    // GNU ends the group separator with a newline, also with -z (GS).
    output: out.map((text) => `${text}${text === SEPARATOR ? "\n" : term}`).join(""),
    matched,
    matchCount: count,
    binary: binaryFile && matched,
    consumed,
    groups: contextAsked,
  };
}

/** How much of the text split into `lines` (each with its one-character terminator) lines 0…`last` are, at most `length` (SP). */
function upTo(lines: readonly string[], last: number, length: number): number {
  let n = 0;
  for (let k = 0; k <= last && k < lines.length; k++) n += (lines[k] as string).length + 1;
  return Math.min(n, length);
}
