/**
 * The shell's sed (just-bash's, patched by scripts/gen-shell.mjs; entries
 * marked `// SH`, imported as the namespace `__sedGnu`) as GNU sed 4.9 where
 * it differed silently (issue 20, twenty-seventh attack run, fixer SH):
 *
 * - `a`, `i`, `c` take their text as GNU reads it: the one-line `2c\text`
 *   drops the backslash and keeps the blanks after it, `a text` skips the
 *   blanks before the text, `2c\` alone has no text, a line ending in `\`
 *   goes on to the next (keeping its leading blanks), `\t` and friends are
 *   their characters and any other `\x` is `x`;
 * - `c` on a range (not negated) writes its text once, when the range ends;
 * - replacements take `\U` `\L` `\u` `\l` `\E` (case conversion);
 * - `w FILE`, `W FILE` and the `s///w FILE` flag: every file is opened
 *   (created empty) before any input is read, and one that cannot be is
 *   `sed: couldn't open file F: <reason>`, status 4; `/dev/stdout` and
 *   `/dev/stderr` are the command's streams; one file gathers every line
 *   written to it over all input files (`-i`, `-s`);
 * - `q N` / `Q N` exit codes, `l N` and `-l N` line wrapping (GNU's default
 *   70), `addr1,~N`, `F` naming each input file (`-` for stdin), `-s`
 *   (separate files), `--posix`, `--debug`-free long options
 *   (`--expression=`, `--file=`, `--line-length=`, `--separate`,
 *   `--null-data` refused clearly), options after operands (getopt order).
 *
 * Pure apart from the file system calls it is given: bundled into the
 * shell's Dynamic Worker.
 *
 * @module
 */

import { byteChar, joinBytes } from "./escapes.js";
import { reason } from "./path-errors.js";

/** The part of just-bash's sed lexer the text reader uses. */
interface SedLexer {
  input: string;
  pos: number;
  peek(offset?: number): string;
  advance(): string;
}

/** A sed token as just-bash's lexer makes it (only the fields used here). */
interface SedToken {
  type: string;
  value: unknown;
  line: number;
  column: number;
  [key: string]: unknown;
}

/** The escape `\c` (c at `i` of `text`, after the backslash) in a/i/c text: the text it stands for and its length. */
function textEscape(text: string, i: number): [string, number] {
  const c = text[i]!;
  const simple: Record<string, string> = { a: "\x07", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v" };
  if (simple[c] !== undefined) return [simple[c]!, 1];
  const digits =
    c === "d" ? /^[0-9]{1,3}/.exec(text.slice(i + 1, i + 4)) : c === "o" ? /^[0-7]{1,3}/.exec(text.slice(i + 1, i + 4)) : c === "x" ? /^[0-9a-fA-F]{1,2}/.exec(text.slice(i + 1, i + 3)) : null;
  if (digits) return [byteChar(parseInt(digits[0], c === "d" ? 10 : c === "o" ? 8 : 16)), 1 + digits[0].length];
  if (c === "c" && i + 1 < text.length && text[i + 1] !== "\n") return [String.fromCharCode(text[i + 1]!.toUpperCase().charCodeAt(0) ^ 0x40), 2];
  return [c, 1];
}

/**
 * Reads the text of an `a`, `i` or `c` command from `lexer` (just after the
 * letter), as GNU sed 4.9's read_text: blanks skipped; then a `\` is dropped
 * and so is a newline right after it (the POSIX form, `a\` newline `text`);
 * without the `\` the text starts at the first non-blank (GNU's one-line
 * form). The text runs to the first newline not escaped by `\`; `\` newline
 * goes on with the next line as written; other escapes as {@link textEscape}.
 * The token's `text` is `null` when there is none (`2c\` at the end of the
 * script: GNU writes nothing); `error` when the letter ends the script.
 */
export function readText(lexer: SedLexer, letter: string, line: number, column: number): SedToken {
  while (lexer.peek() === " " || lexer.peek() === "\t") lexer.advance();
  if (lexer.pos >= lexer.input.length) return { type: "ERROR", value: letter, message: "expected \\ after `a', `c' or `i'", line, column };
  if (lexer.peek() === "\\") {
    lexer.advance();
    if (lexer.peek() === "\n") lexer.advance();
    else if (lexer.pos >= lexer.input.length) return { type: "TEXT_CMD", value: letter, text: null, line, column };
  }
  let raw = "";
  while (lexer.pos < lexer.input.length && lexer.peek() !== "\n") {
    const ch = lexer.advance();
    if (ch === "\\" && lexer.pos < lexer.input.length) raw += ch + lexer.advance();
    else raw += ch;
  }
  if (lexer.peek() === "\n") lexer.advance();
  let text = "";
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] !== "\\" || i + 1 >= raw.length) {
      text += raw[i];
      continue;
    }
    const [made, length] = textEscape(raw, i + 1);
    text += made;
    i += length;
  }
  return { type: "TEXT_CMD", value: letter, text: joinBytes(text), line, column };
}

/** For q, Q, l and L: the number after the letter (blanks before it skipped), as `{ number }`; `{}` for other letters or none. */
export function commandNumber(lexer: SedLexer, letter: string): { number?: number } {
  if (letter !== "q" && letter !== "Q" && letter !== "l" && letter !== "L") return {};
  let at = 0;
  while (lexer.peek(at) === " " || lexer.peek(at) === "\t") at++;
  if (!/[0-9]/.test(lexer.peek(at))) return {};
  for (let i = 0; i < at; i++) lexer.advance();
  let digits = "";
  while (/[0-9]/.test(lexer.peek())) digits += lexer.advance();
  return { number: parseInt(digits, 10) };
}

/**
 * The flags after `s/RE/REPL/` as GNU sed 4.9 reads them: `g`, `p`, `i`/`I`,
 * `m`/`M`, `e`, a number, and `w FILE` (the rest of the line) last. `flags`
 * keeps the letters just-bash reads (g i p I digits); `error` for any other
 * character before the end of the command.
 */
export function substituteFlags(lexer: SedLexer): { flags: string; multiline: boolean; execute: boolean; wfile?: string; error?: string } {
  let flags = "";
  let multiline = false;
  let execute = false;
  for (;;) {
    const c = lexer.peek();
    if (c === "g" || c === "i" || c === "p" || c === "I" || /[0-9]/.test(c)) flags += lexer.advance();
    else if (c === "m" || c === "M") (lexer.advance(), (multiline = true));
    else if (c === "e") (lexer.advance(), (execute = true));
    else if (c === "w") {
      lexer.advance();
      let name = "";
      while (lexer.pos < lexer.input.length && lexer.peek() !== "\n") name += lexer.advance();
      name = name.replace(/^[ \t]+/, "");
      if (name === "") return { flags, multiline, execute, error: "missing filename in r/R/w/W commands" };
      return { flags, multiline, execute, wfile: name };
    } else break;
  }
  let at = 0;
  while (lexer.peek(at) === " " || lexer.peek(at) === "\t") at++;
  const next = lexer.peek(at);
  if (next !== "" && next !== ";" && next !== "\n" && next !== "}" && next !== "#") return { flags, multiline, execute, error: "unknown option to `s'" };
  return { flags, multiline, execute };
}

/** The case conversions of a replacement: the lasting one (`\U`, `\L`) and the one for the next character (`\u`, `\l`). */
interface CaseState {
  lasting: "" | "U" | "L";
  next: "" | "u" | "l";
}

function convert(text: string, state: CaseState): string {
  if (text === "" || (state.lasting === "" && state.next === "")) return text;
  let out = "";
  for (const ch of text) {
    if (state.next !== "") {
      out += state.next === "u" ? ch.toUpperCase() : ch.toLowerCase();
      state.next = "";
    } else out += state.lasting === "U" ? ch.toUpperCase() : state.lasting === "L" ? ch.toLowerCase() : ch;
  }
  return out;
}

/**
 * The text a sed replacement `replacement` makes for `match` and its
 * `groups`, as GNU sed 4.9: `&` and `\0` the match, `\1`…`\9` the groups,
 * `\n` `\t` `\r` their characters, any other `\x` is `x`; and the case
 * conversions `\U` and `\L` (to `\E` or the next of them) and `\u` and `\l`
 * (the next character made, carried over an empty group; dropped by a
 * following `\U` `\L` `\E`).
 */
export function replacement(replacement: string, match: string, groups: readonly (string | undefined)[]): string {
  const state: CaseState = { lasting: "", next: "" };
  let out = "";
  for (let i = 0; i < replacement.length; i++) {
    const c = replacement[i]!;
    if (c === "&") {
      out += convert(match, state);
      continue;
    }
    if (c !== "\\" || i + 1 >= replacement.length) {
      out += convert(c, state);
      continue;
    }
    const e = replacement[++i]!;
    if (e === "U" || e === "L") (state.lasting = e), (state.next = "");
    else if (e === "E") (state.lasting = ""), (state.next = "");
    else if (e === "u" || e === "l") state.next = e;
    else if (e >= "0" && e <= "9") out += convert(e === "0" ? match : (groups[Number(e) - 1] ?? ""), state);
    else out += convert(e === "n" ? "\n" : e === "t" ? "\t" : e === "r" ? "\r" : e, state);
  }
  return out;
}

/** A range's state as just-bash keeps it in its map of range states. */
interface RangeState {
  active?: boolean;
}

/**
 * Whether `c` writes its text on this line, as GNU sed 4.9: always, unless
 * its address is a range (not negated) that goes on after this line — a
 * range writes the text once, at its end (not at all when the input ends
 * inside it). `line` and `lastLine` are the line numbers; `ranges` is
 * just-bash's map of range states, keyed by the address.
 */
export function changeWrites(address: { start?: unknown; end?: unknown; negated?: boolean } | undefined, line: number, lastLine: number, ranges: Map<unknown, RangeState> | undefined): boolean {
  if (!address || address.negated || address.start === undefined || address.end === undefined) return true;
  const { start, end } = address;
  const isNumber = (a: unknown) => typeof a === "number" || a === "$";
  if (isNumber(start) && isNumber(end)) {
    const first = typeof start === "number" ? start : lastLine;
    const last = typeof end === "number" ? end : lastLine;
    return first >= last || line >= last;
  }
  const state = ranges?.get(address);
  return !state?.active;
}

/** The output sed's w, W and `s///w` share over one run: the files' text, the streams, whether `-i` is editing. */
export interface SedIO {
  files: Map<string, string>;
  stdout: string;
  stderr: string;
  inPlace: boolean;
  quit: boolean;
  /** `-l N` (GNU's default 70): the width `l` wraps at. */
  lineLength?: number;
  /** The input files joined into one run (no `-s`): each one's name and the count of lines up to its end. */
  names?: { end: number; name: string }[];
}

/** A fresh {@link SedIO}. */
export function io(): SedIO {
  return { files: new Map(), stdout: "", stderr: "", inPlace: false, quit: false };
}

/** The part of just-bash's sed state that writing uses. */
interface SedState {
  patternSpace: string;
  lineNumberOutput: unknown[];
  appendBuffer: string[];
  pendingFileWrites: { filename: string; content: string }[];
  __io?: SedIO;
  __silent?: boolean;
}

/** `N` (with a next line): the text queued by `a` is written before the next line is read, as GNU sed 4.9. */
export function flushAppends(state: SedState): void {
  for (const text of state.appendBuffer) state.lineNumberOutput.push(isRaw(text) ? text : own(text));
  state.appendBuffer.length = 0;
}

/** `n`: the pattern space written (unless -n) in order with the cycle's other output, then the queued `a` text. */
export function next(state: SedState): void {
  if (!state.__silent) state.lineNumberOutput.push(state.patternSpace);
  flushAppends(state);
}

/** The count of lines in `text` (a last line without a newline counts). */
function lineCount(text: string): number {
  if (text === "") return 0;
  const n = text.split("\n").length;
  return text.endsWith("\n") ? n - 1 : n;
}

/** What one of just-bash's sed runs returns. */
interface SedRun {
  output: string;
  exitCode?: number;
  errorMessage?: string;
}

/**
 * The input files' run: without `-s`, one run over `joined` (the files
 * joined), `F` naming each line's file; with `-s`, one run per file (line
 * numbers and `$` per file), outputs joined (a newline added after one that
 * lacked it when more follows), stopping at `q`/`Q`.
 */
export async function runFiles(parts: readonly [string, string][], separate: boolean, sedIO: SedIO, joined: string, name: string | undefined, run: (text: string, name: string | undefined) => Promise<SedRun>): Promise<SedRun> {
  if (!separate || parts.length === 0) {
    let end = 0;
    sedIO.names = parts.map(([file, text]) => ({ end: (end += lineCount(text)), name: file }));
    return run(joined, name);
  }
  let output = "";
  let exitCode: number | undefined;
  for (const [file, text] of parts) {
    const result = await run(text, file);
    if (result.errorMessage) return { ...result, output: "" };
    if (output !== "" && !output.endsWith("\n") && result.output !== "") output += "\n";
    output += result.output;
    if (result.exitCode !== undefined) exitCode = result.exitCode;
    if (sedIO.quit) break;
  }
  return { output, exitCode };
}

/**
 * `text` written by `w FILE` (or `W`, `s///w`) in `state`: to standard
 * output in order with the rest (with `-i`, to the command's own standard
 * output), to standard error, or queued for FILE, as GNU sed 4.9.
 */
export function write(state: SedState, file: string, text: string): void {
  if (file === "/dev/stdout") {
    if (state.__io?.inPlace) state.__io.stdout += `${text}\n`;
    else state.lineNumberOutput.push(text);
  } else if (file === "/dev/stderr") {
    if (state.__io) state.__io.stderr += `${text}\n`;
  } else state.pendingFileWrites.push({ filename: file, content: `${text}\n` });
}

interface SedCommand {
  type: string;
  filename?: string;
  wfile?: string;
  commands?: SedCommand[];
}

interface SedFs {
  resolvePath(cwd: string, path: string): string;
  writeFile(path: string, data: string): Promise<void>;
  stat(path: string): Promise<{ isDirectory?: boolean }>;
}

/** The files `commands` write to (w, W, s///w; in groups too), in script order, each once. */
function writeFiles(commands: readonly SedCommand[], out: string[] = []): string[] {
  for (const command of commands) {
    const file = command.type === "writeFile" || command.type === "writeFirstLine" ? command.filename : command.type === "substitute" ? command.wfile : undefined;
    if (file !== undefined && !out.includes(file)) out.push(file);
    if (command.commands) writeFiles(command.commands, out);
  }
  return out;
}

/**
 * Opens every file `commands` write to before any input is read, as GNU sed
 * 4.9: each is created or truncated (`/dev/stdout` and `/dev/stderr` are the
 * streams). The message for the first that cannot be
 * (`sed: couldn't open file F: <reason>`, status 4), or null.
 */
export async function openWriteFiles(fs: SedFs, cwd: string, commands: readonly SedCommand[], sedIO: SedIO): Promise<string | null> {
  for (const file of writeFiles(commands)) {
    if (file === "/dev/stdout" || file === "/dev/stderr") continue;
    if (file === "") return "sed: missing filename in r/R/w/W commands\n";
    const path = fs.resolvePath(cwd, file);
    try {
      let directory = false;
      try {
        directory = !!(await fs.stat(path)).isDirectory;
      } catch {
        // Not there yet: made below.
      }
      if (directory) throw Object.assign(new Error("EISDIR"), { code: "EISDIR" });
      await fs.writeFile(path, "");
      sedIO.files.set(path, "");
    } catch (error) {
      return `sed: couldn't open file ${file}: ${reason(error)}\n`;
    }
  }
  return null;
}

/**
 * GNU sed's `l`: `text` with `\\`, `\a` `\b` `\f` `\n` `\r` `\t` `\v` and
 * `\ooo` for other non-printing bytes, lines broken with `\` so none is
 * longer than `width` (with the `\`; 0 or 1: never... 1 breaks before each
 * character as GNU does), then `$`.
 */
export function list(text: string, width: number): string {
  const named: Record<string, string> = { "\\": "\\\\", "\x07": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v" };
  let out = "";
  let column = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    const code = ch.charCodeAt(0);
    let pieces: string[];
    if (named[ch] !== undefined) pieces = [named[ch]!];
    else if (code >= 0xdc80 && code <= 0xdcff) pieces = [`\\${(code - 0xdc00).toString(8).padStart(3, "0")}`];
    else if (code < 32 || code === 127) pieces = [`\\${code.toString(8).padStart(3, "0")}`];
    else if (code < 127) pieces = [ch];
    else {
      // Any other character: its UTF-8 bytes in octal (GNU sed in the C locale).
      let cp = code;
      if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
        const low = text.charCodeAt(i + 1);
        if (low >= 0xdc00 && low <= 0xdfff) (cp = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00)), i++;
      }
      const bytes = [...new TextEncoder().encode(String.fromCodePoint(cp))];
      pieces = bytes.map((b) => `\\${b.toString(8).padStart(3, "0")}`);
    }
    for (const piece of pieces) {
      if (width > 0 && column + piece.length > width - 1) (out += "\\\n"), (column = 0);
      out += piece;
      column += piece.length;
    }
  }
  return `${out}$`;
}

/** Text sed writes that is not the pattern space (`=`, `l`, `i`, `F`): always ends with a newline, even on a last line that had none. */
export function own(text: string): string {
  // A String object: just-bash's output loop writes `${item}\n` for it alike; {@link endsWithSpace} tells it apart.
  return new String(text) as unknown as string;
}

/** A queued text written byte for byte, no newline added (GS). */
interface RawText {
  readonly __raw: true;
}

/**
 * Queued output written as it is (GS, issue 20 run 31): `r FILE`'s content (none for an empty or missing file),
 * `R FILE`'s line with the newline it had, the empty text of `a\` ending the script. Queuing anything ends a last
 * line that had no newline with one first, as GNU sed 4.9's output_missing_newline: `sed '$a\'` adds a missing final
 * newline and nothing else; `$r r2` with r2 `R` (no newline) gives `…y\nR`.
 */
export function raw(text: string): string {
  return Object.assign(new String(text), { __raw: true as const }) as unknown as string;
}

function isRaw(item: unknown): boolean {
  return typeof item === "object" && item !== null && (item as Partial<RawText>).__raw === true;
}

/** How one queued or written item goes out: {@link raw} text as it is, any other with a newline. */
export function written(item: unknown): string {
  return isRaw(item) ? String(item) : `${String(item)}\n`;
}

/** `R FILE`'s lines (`lines`, of `text`) each with the newline it has in the file (the last may have none) (GS). */
export function rLines(lines: readonly string[], text: string): string[] {
  return lines.map((line, k) => (k < lines.length - 1 || text.endsWith("\n") ? `${line}\n` : line));
}

/** Whether the last of `outputs` (a cycle's written lines) is the pattern space (p, P, n, w /dev/stdout), not {@link own} text. */
export function endsWithSpace(outputs: readonly unknown[]): boolean {
  return outputs.length > 0 && typeof outputs[outputs.length - 1] === "string";
}

/** The options GNU sed takes that just-bash's option loop does not, read first; `args` is what that loop is given. */
export interface SedOptions {
  args: string[];
  separate: boolean;
  lineLength: number;
  error?: string;
}

/**
 * `args` in GNU getopt's order (options first, so `sed s/a/b/ -n f` is
 * `-n`), with `--expression=S`/`--file=F` as `-e S`/`-f F`, and the options
 * just-bash does not know taken out: `-s`/`--separate`, `-l N`/
 * `--line-length=N`, `-u`/`--unbuffered`, `--posix`, `--debug` (ignored),
 * `-z`/`--null-data` (refused: NUL-separated lines are not supported).
 */
export function options(args: readonly string[]): SedOptions {
  const opts: string[] = [];
  const operands: string[] = [];
  let separate = false;
  let lineLength = 70;
  const bad = (text: string): SedOptions => ({ args: [...args], separate, lineLength, error: text });
  const refuseZ = "sed: -z (--null-data) is not supported in this shell: lines are separated by newlines\n";
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!;
    if (a === "--") {
      operands.push(...args.slice(k + 1));
      break;
    }
    if (a === "-" || !a.startsWith("-")) {
      operands.push(a);
      continue;
    }
    if (a.startsWith("--")) {
      const [name, value] = a.includes("=") ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)] : [a, undefined];
      if (name === "--expression" || name === "--file") {
        const v = value ?? args[++k];
        if (v === undefined) return bad(`sed: option '${name}' requires an argument\n`);
        opts.push(name === "--expression" ? "-e" : "-f", v);
      } else if (name === "--line-length") {
        const v = value ?? args[++k];
        if (v === undefined || !/^[0-9]+$/.test(v)) return bad(`sed: invalid line length: ${v ?? ""}\n`);
        lineLength = parseInt(v, 10);
      } else if (name === "--separate") separate = true;
      else if (name === "--null-data" || name === "--zero-terminated") return bad(refuseZ);
      else if (name === "--posix" || name === "--debug" || name === "--unbuffered" || name === "--sandbox") continue;
      else opts.push(a);
      continue;
    }
    // A group of short options: take out s, u, z and l N; an -e/-f/-l value ends the group.
    let kept = "-";
    for (let j = 1; j < a.length; j++) {
      const c = a[j]!;
      if (c === "s") separate = true;
      else if (c === "u") continue;
      else if (c === "z") return bad(refuseZ);
      else if (c === "l") {
        const v = j + 1 < a.length ? a.slice(j + 1) : args[++k];
        if (v === undefined) return bad("sed: option requires an argument -- 'l'\n");
        if (!/^[0-9]+$/.test(v)) return bad(`sed: invalid line length: ${v}\n`);
        lineLength = parseInt(v, 10);
        break;
      } else if (c === "e" || c === "f") {
        const v = j + 1 < a.length ? a.slice(j + 1) : args[++k];
        if (kept !== "-") opts.push(kept);
        kept = "-";
        if (v === undefined) return bad(`sed: option requires an argument -- '${c}'\n`);
        opts.push(`-${c}`, v);
        break;
      } else if (c === "i") {
        // -i takes the rest of the group as its suffix.
        kept += a.slice(j);
        break;
      } else kept += c;
    }
    if (kept !== "-") opts.push(kept);
  }
  // A later operand must not be read as an option by just-bash's loop.
  const safe = operands.map((o) => (o !== "-" && o.startsWith("-") ? `./${o}` : o));
  return { args: [...opts, ...safe], separate, lineLength };
}

/** The name `F` prints for line `index` (0-based) of the joined input: from `names` (one per file, by last line), else `fallback`, else `-`. */
export function fileAt(sedIO: SedIO | undefined, index: number, fallback: string | undefined): string | undefined {
  for (const { end, name } of sedIO?.names ?? []) if (index < end) return name;
  return fallback;
}
