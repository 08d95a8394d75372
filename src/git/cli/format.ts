/**
 * Output formats of the git CLI (spec 04 §2.5): dates, `log` formats,
 * `status` formats. Pure: no I/O.
 *
 * @module
 */
import type { CommitPerson, CommitView, StatusEntry } from "../types.js";
import { GIT_LOG_MAX_CHARS } from "../limits.js";
import { isGlobSpec, literalPrefix, wildmatch } from "../wildmatch.js";
import { quotePath as quoteCStyle } from "../quote.js";
import { utf8EscapeDecode } from "../../util/utf8-escape.js";

/** The first 7 hex digits of an oid (real git's minimum abbreviation). */
export function shortOid(oid: string): string {
  return oid.slice(0, 7);
}

/**
 * `YYYY-MM-DD HH:MM:SS ±HHMM` in the person's own timezone (real git's
 * `--date=iso`). `timezoneOffset` is isomorphic-git's minutes, UTC − local
 * (`+0200` is `-120`).
 *
 * @example
 * formatDate({ name: "A", email: "a@x", timestamp: 1704157445, timezoneOffset: -120 }) // "2024-01-02 03:04:05 +0200"
 */
export function formatDate(person: Pick<CommitPerson, "timestamp" | "timezoneOffset">): string {
  const minutesEast = -person.timezoneOffset || 0;
  const local = new Date((person.timestamp + minutesEast * 60) * 1000);
  const pad = (n: number, w = 2): string => String(n).padStart(w, "0");
  const sign = minutesEast < 0 ? "-" : "+";
  const abs = Math.abs(minutesEast);
  return (
    `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())} ` +
    `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())} ` +
    `${sign}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`
  );
}

/**
 * Splits a commit message as git does: the subject is the first paragraph
 * with its lines joined by spaces (`%s`); the body is everything after the
 * first blank line, ending with one newline when not empty (`%b`).
 */
export function splitMessage(message: string): { subject: string; body: string } {
  const lines = message.replace(/\r\n/g, "\n").split("\n");
  // git's whitespace is ASCII (space, tab, LF, CR): a subject line keeps its leading characters and anything else
  // (U+FEFF, U+00A0), and only trailing ASCII whitespace is cut (pretty.c format_subject / is_blank_line).
  const blank = (line: string) => /^[ \t\n\r]*$/.test(line);
  let i = 0;
  while (i < lines.length && blank(lines[i]!)) i++;
  const subjectLines: string[] = [];
  while (i < lines.length && !blank(lines[i]!)) subjectLines.push(lines[i++]!.replace(/[ \t\n\r]+$/, ""));
  while (i < lines.length && blank(lines[i]!)) i++;
  const rest = lines.slice(i);
  while (rest.length > 0 && blank(rest[rest.length - 1]!)) rest.pop();
  return { subject: subjectLines.join(" "), body: rest.length > 0 ? rest.join("\n") + "\n" : "" };
}

/**
 * What a `--format` placeholder needs besides the commit: the ref names decorating each commit (`%d`/`%D`, git's
 * `HEAD -> main, tag: v1, origin/main`), the revision the walk started from (`%S`, default `HEAD`) and the time
 * `%ar`/`%cr` count from (seconds; default now).
 */
export interface FormatExtras {
  decorations?: ReadonlyMap<string, string>;
  source?: string;
  now?: number;
}

/** One piece of a parsed `--format`: text as written, or a placeholder (`key` without `%`, git's `+`/`-`/` ` magic). */
type FormatToken = { text: string } | { key: string; magic?: "+" | "-" | " " };

const PERSON_PARTS = new Set(["n", "N", "e", "E", "l", "L", "d", "D", "r", "t", "i", "I", "s"]);

/**
 * The placeholder git 2.39's format_commit_one reads at `format[at]` (after `%` and any magic): its key and length,
 * `undefined` for one git does not know (printed as written), or `{ unsupported }` for one git knows that is not
 * implemented here (layout `%<(…)`/`%>(…)`/`%w(…)`, signatures `%G…`, `%ah`/`%ch`, `%(describe…)`/`%(trailers…)`,
 * `%C(always,…)`).
 */
function placeholderAt(format: string, at: number): { key: string; length: number } | { unsupported: string } | undefined {
  const c = format[at];
  const next = format[at + 1];
  switch (c) {
    case undefined:
      return undefined;
    case "H": case "h": case "T": case "t": case "P": case "p": case "s": case "b": case "B": case "f": case "e": case "m":
    case "d": case "D": case "S": case "N": case "n": case "%":
      return { key: c, length: 1 };
    case "x":
      return next !== undefined && /^[0-9a-fA-F]{2}$/.test(format.slice(at + 1, at + 3)) ? { key: format.slice(at, at + 3), length: 3 } : undefined;
    case "a":
    case "c":
      if (next === "h") return { unsupported: `%${c}h` };
      return next !== undefined && PERSON_PARTS.has(next) ? { key: c + next, length: 2 } : undefined;
    case "g":
      return next !== undefined && "dDnNeEs".includes(next) ? { key: c + next, length: 2 } : undefined;
    case "G":
      return next !== undefined && "G?SKFPT".includes(next) ? { unsupported: `%G${next}` } : undefined;
    case "C": {
      if (next === "(") {
        const end = format.indexOf(")", at + 2);
        if (end < 0) return undefined;
        const spec = format.slice(at + 2, end);
        if (/^always(,|$)/.test(spec)) return { unsupported: `%C(${spec})` };
        return { key: "C", length: end - at + 1 };
      }
      const named = /^(red|green|blue|reset)/.exec(format.slice(at + 1));
      return named ? { key: "C", length: 1 + named[1]!.length } : undefined;
    }
    case "w":
    case "<":
    case ">": {
      // git's %w(…) and parse_padding_placeholder: %<(…), %<|(…), %>(…), %>|(…), %>>(…), %><(…)
      let j = at + 1;
      if (c === ">" && (format[j] === "<" || format[j] === ">")) j++;
      if (c !== "w" && format[j] === "|") j++;
      if (format[j] !== "(") return undefined;
      const end = format.indexOf(")", j);
      return end < 0 ? undefined : { unsupported: `%${format.slice(at, end + 1)}` };
    }
    case "(":
      return /^(describe|trailers)[:)]/.test(format.slice(at + 1)) ? { unsupported: `%(${/^\w+/.exec(format.slice(at + 1))![0]}…)` } : undefined;
    default:
      return undefined;
  }
}

let lastFormat: { format: string; tokens: FormatToken[] } | undefined;

/** `format` cut into text and placeholders as git reads it; the first placeholder git knows that is not implemented throws. */
function tokenize(format: string): FormatToken[] {
  if (lastFormat?.format === format) return lastFormat.tokens;
  const tokens: FormatToken[] = [];
  let text = "";
  for (let i = 0; i < format.length; ) {
    const pct = format.indexOf("%", i);
    if (pct < 0) {
      text += format.slice(i);
      break;
    }
    text += format.slice(i, pct);
    const m = format[pct + 1];
    const magic = m === "+" || m === "-" || m === " " ? m : undefined;
    const found = placeholderAt(format, pct + 1 + (magic ? 1 : 0));
    if (found && "unsupported" in found) throw new UnsupportedPlaceholderError(found.unsupported);
    if (found) {
      if (text !== "") tokens.push({ text });
      text = "";
      tokens.push(magic ? { key: found.key, magic } : { key: found.key });
      i = pct + 1 + (magic ? 1 : 0) + found.length;
    } else if (magic) {
      // git: the magic is consumed and an unknown placeholder after it prints nothing (`%-` then deletes the line feeds before)
      if (text !== "") tokens.push({ text });
      text = "";
      tokens.push({ key: "", magic });
      i = pct + 2;
    } else {
      text += "%";
      i = pct + 1;
    }
  }
  if (text !== "") tokens.push({ text });
  lastFormat = { format, tokens };
  return tokens;
}

/** A `--format` placeholder git 2.39 knows that this CLI does not implement (layout, signatures, `%ah`, …). */
export class UnsupportedPlaceholderError extends Error {
  constructor(readonly placeholder: string) {
    super(`unsupported --format placeholder '${placeholder}' (see docs/git.md for the supported ones)`);
  }
}

/**
 * Checks that `format` has no placeholder git knows that is not implemented here.
 * @throws UnsupportedPlaceholderError
 */
export function checkFormat(format: string): void {
  tokenize(format);
}

/** Whether `format` prints ref names (`%d`, `%D`): the caller then gathers {@link FormatExtras.decorations}. */
export function formatDecorates(format: string): boolean {
  return tokenize(format).some((t) => "key" in t && (t.key === "d" || t.key === "D"));
}

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A person's date in one of git's forms: `i` ISO-like, `I` strict ISO 8601, `s` short, `D` RFC 2822, `r` relative. */
function personDate(person: Pick<CommitPerson, "timestamp" | "timezoneOffset">, form: string, now: number): string {
  if (form === "t") return String(person.timestamp);
  if (form === "r") return relativeDate(person.timestamp, now);
  const minutesEast = -person.timezoneOffset || 0;
  const local = new Date((person.timestamp + minutesEast * 60) * 1000);
  const pad = (n: number, w = 2): string => String(n).padStart(w, "0");
  const sign = minutesEast < 0 ? "-" : "+";
  const abs = Math.abs(minutesEast);
  const ymd = `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`;
  const hms = `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
  switch (form) {
    case "s":
      return ymd;
    case "I":
      return `${ymd}T${hms}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
    case "D":
      return `${DAYS[local.getUTCDay()]}, ${local.getUTCDate()} ${MONTHS[local.getUTCMonth()]} ${local.getUTCFullYear()} ${hms} ${sign}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`;
    default:
      return formatDate(person);
  }
}

/** git's show_date_relative (date.c), in English: `5 minutes ago`, `3 years, 1 month ago`, `in the future`. */
export function relativeDate(time: number, now: number): string {
  if (now < time) return "in the future";
  const ago = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"} ago`;
  let diff = now - time;
  if (diff < 90) return ago(diff, "second");
  diff = Math.floor((diff + 30) / 60);
  if (diff < 90) return ago(diff, "minute");
  diff = Math.floor((diff + 30) / 60);
  if (diff < 36) return ago(diff, "hour");
  diff = Math.floor((diff + 12) / 24);
  if (diff < 14) return ago(diff, "day");
  if (diff < 70) return ago(Math.floor((diff + 3) / 7), "week");
  if (diff < 365) return ago(Math.floor((diff + 15) / 30), "month");
  if (diff < 1825) {
    const totalMonths = Math.floor((diff * 12 * 2 + 365) / (365 * 2));
    const years = Math.floor(totalMonths / 12);
    const months = totalMonths % 12;
    return months ? `${years} year${years === 1 ? "" : "s"}, ${ago(months, "month")}` : ago(years, "year");
  }
  return ago(Math.floor((diff + 183) / 365), "year");
}

/** git's format_sanitized_subject (`%f`): runs of characters other than `[A-Za-z0-9._]` as one `-`, `..` as `.`, no trailing `.`/`-`. */
function sanitizedSubject(subject: string): string {
  let out = "";
  let space = 2;
  for (let i = 0; i < subject.length; i++) {
    const ch = subject[i]!;
    if (/[A-Za-z0-9._]/.test(ch)) {
      if (space === 1) out += "-";
      space = 0;
      out += ch;
      if (ch === ".") while (subject[i + 1] === ".") i++;
    } else space |= 1;
  }
  return out.replace(/[.-]+$/, "");
}

/**
 * Expands a `--format` string as git 2.39 (git-log(1) PRETTY FORMATS): `%H %h %T %t %P %p`, `%s %b %B %f %e`,
 * the author's and committer's `%an %aN %ae %aE %al %aL %ad %aD %ar %at %ai %aI %as` (`%c…` likewise; no mailmap, so
 * `%aN` is `%an`; `%ad`/`%cd` ISO as `%ai`), `%d %D` (from `extras`), `%S`, `%m` (`>`), `%n`, `%xNN`, `%%`, the
 * colours `%Cred`/`%C(…)` (nothing: output is never a terminal), the reflog `%g…` and notes `%N` (nothing here), and
 * the `+`/`-`/` ` magic; any other `%x` stays as written, as git does.
 * @throws UnsupportedPlaceholderError for a placeholder git knows that is not implemented.
 */
export function formatCommit(commit: CommitView, format: string, extras: FormatExtras = {}): string {
  return commitWithin(commit, format, "", Infinity, extras).text;
}

/**
 * {@link formatCommit} then `end`, expanded part by part (a stretch of the
 * format, or one placeholder's value) only while it fits in `room`
 * characters: whole, or (`whole` false) its first `max(0, room) + 1`
 * characters — all {@link clipLines} reads — so a format repeating a large
 * field (`%B` × 64 of a 1 MiB message) builds no more than the room and one
 * part.
 */
function commitWithin(commit: CommitView, format: string, end: string, room: number, extras: FormatExtras = {}): { text: string; whole: boolean } {
  let split: { subject: string; body: string } | undefined;
  const subject = () => (split ??= splitMessage(commit.message)).subject;
  const value = (key: string): string => {
    if (key.startsWith("x")) {
      const byte = parseInt(key.slice(1), 16);
      return String.fromCharCode(byte < 0x80 ? byte : 0xdc00 + byte); // a byte that is not UTF-8 as U+DC00 + byte
    }
    if (key.length === 2 && (key[0] === "a" || key[0] === "c")) {
      const person = key[0] === "a" ? commit.author : commit.committer;
      switch (key[1]) {
        case "n":
        case "N":
          return person.name;
        case "e":
        case "E":
          return person.email;
        case "l":
        case "L": {
          const at = person.email.indexOf("@");
          return at < 0 ? person.email : person.email.slice(0, at);
        }
        default:
          return personDate(person, key[1]!, extras.now ?? Math.floor(Date.now() / 1000));
      }
    }
    switch (key) {
      case "H":
        return commit.oid;
      case "h":
        return shortOid(commit.oid);
      case "T":
        return commit.tree;
      case "t":
        return shortOid(commit.tree);
      case "P":
        return commit.parent.join(" ");
      case "p":
        return commit.parent.map(shortOid).join(" ");
      case "s":
        return subject();
      case "f":
        return sanitizedSubject(subject());
      case "b":
        return (split ??= splitMessage(commit.message)).body;
      case "B":
        return commit.message.endsWith("\n") ? commit.message : commit.message + "\n";
      case "d": {
        const names = extras.decorations?.get(commit.oid);
        return names ? ` (${names})` : "";
      }
      case "D":
        return extras.decorations?.get(commit.oid) ?? "";
      case "S":
        return extras.source ?? "HEAD";
      case "m":
        return ">";
      case "n":
        return "\n";
      case "%":
        return "%";
      default:
        return ""; // %e (no encoding header is kept), %C… (no colour), %g… (no reflog walk), %N (no notes), an unknown one after magic
    }
  };
  const limit = Math.max(0, room) + 1;
  const parts: string[] = [];
  let size = 0;
  /** Appends `part`, or as much of it as makes `limit` characters; false once there. */
  const add = (part: string): boolean => {
    if (size + part.length >= limit) {
      parts.push(part.slice(0, limit - size));
      size = limit;
      return false;
    }
    parts.push(part);
    size += part.length;
    return true;
  };
  for (const token of tokenize(format)) {
    if ("text" in token) {
      if (!add(token.text)) return { text: parts.join(""), whole: false };
      continue;
    }
    let v = value(token.key);
    if (token.magic === "-" && v === "") {
      // git's DEL_LF_BEFORE_EMPTY: the line feeds just before an empty value go
      while (parts.length > 0) {
        const last = parts[parts.length - 1]!;
        const kept = last.replace(/\n+$/, "");
        size -= last.length - kept.length;
        if (kept !== "") {
          parts[parts.length - 1] = kept;
          break;
        }
        parts.pop();
      }
      continue;
    }
    if (v !== "" && token.magic === "+") v = "\n" + v;
    else if (v !== "" && token.magic === " ") v = " " + v;
    if (!add(v)) return { text: parts.join(""), whole: false };
  }
  if (!add(end)) return { text: parts.join(""), whole: false };
  return { text: parts.join(""), whole: size <= room };
}

/**
 * Real git's default (`medium`) block with ISO dates: `commit <oid>`, a
 * `Merge:` line for merges, `Author:`, `Date:`, a blank line and the
 * message indented by four spaces (blank lines as four spaces), ending
 * with a newline. Not bounded: {@link formatLog} bounds what it prints.
 */
export function formatMedium(commit: CommitView): string {
  return mediumWithin(commit, Infinity).text;
}

/**
 * {@link formatMedium} in at most `room` characters: the header and as many
 * whole message lines as fit (a first line longer than the room is cut),
 * `whole` false when something was left out. The message is formatted in
 * one pass over its text (no array of its lines).
 */
function mediumWithin(commit: CommitView, room: number): { text: string; whole: boolean } {
  let head = `commit ${commit.oid}\n`;
  if (commit.parent.length > 1) head += `Merge: ${commit.parent.map(shortOid).join(" ")}\n`;
  head += `Author: ${commit.author.name} <${commit.author.email}>\n`;
  head += `Date:   ${formatDate(commit.author)}\n\n`;
  if (head.length > room) return { text: clipLines(head, room), whole: false };
  const body = cleanMessage(commit.message);
  if (body === "") return { text: head, whole: true };
  const left = room - head.length;
  // the end (in `body`) of the whole lines that fit: each prints as "    " + line + "\n"
  let end = 0;
  let used = 0;
  let whole = false;
  for (let from = 0; ; ) {
    const nl = body.indexOf("\n", from);
    const lineEnd = nl < 0 ? body.length : nl;
    if (used + 5 + (lineEnd - from) > left) break;
    used += 5 + (lineEnd - from);
    end = lineEnd;
    if (nl < 0) {
      whole = true;
      break;
    }
    from = nl + 1;
  }
  if (used === 0) {
    // not even the first line fits: as much of it as does
    if (left < 6) return { text: head, whole: false };
    const cut = cutAt(body, Math.min(left - 5, body.indexOf("\n") < 0 ? body.length : body.indexOf("\n")));
    return { text: `${head}    ${body.slice(0, cut)}\n`, whole: false };
  }
  return { text: indent(head, body, end), whole };
}

/**
 * `head` then `text.slice(0, end)` (whole lines) with each line indented by four spaces and ended by a newline,
 * formatted 16 Ki characters of lines at a time (split and joined there):
 * a `replace` of the newlines, or an array of every line, over a message of
 * 2 Mi short lines grew memory by 70–130 MiB.
 */
function indent(head: string, text: string, end: number): string {
  const chunks = [head];
  for (let from = 0; from < end || chunks.length === 1; ) {
    let to = from + 16384 >= end ? end : text.lastIndexOf("\n", from + 16384);
    if (to < from) {
      to = text.indexOf("\n", from + 16384);
      if (to < 0 || to > end) to = end;
    }
    chunks.push(`    ${text.slice(from, to).split("\n").join("\n    ")}\n`);
    from = to + 1;
  }
  return chunks.join("");
}

/** `n`, or `n - 1` where cutting `text` at `n` would split a surrogate pair. */
function cutAt(text: string, n: number): number {
  if (n <= 0 || n >= text.length) return Math.max(0, Math.min(n, text.length));
  const code = text.charCodeAt(n - 1);
  return code >= 0xd800 && code <= 0xdbff ? n - 1 : n;
}

/** `text` cut to at most `room` characters: its whole lines that fit, else (one long line) its start and a newline. */
function clipLines(text: string, room: number): string {
  if (text.length <= room) return text;
  const nl = text.lastIndexOf("\n", room - 1);
  if (nl >= 0) return text.slice(0, nl + 1);
  return room < 2 ? "" : `${text.slice(0, cutAt(text, room - 1))}\n`;
}

/** `<oid7> <subject>` (`--oneline`). */
export function formatOneline(commit: CommitView): string {
  return `${shortOid(commit.oid)} ${splitMessage(commit.message).subject}\n`;
}

/** A JavaScript `\s` character (what `trimEnd` removes), by UTF-16 code unit. */
function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || (code > 127 && /\s/.test(String.fromCharCode(code)));
}

/**
 * The message without leading and trailing blank lines and without each
 * line's trailing whitespace (what git stores after cleanup), `\r\n` as
 * `\n`; `""` for a blank message. Linear in the message: a message whose
 * lines have no trailing whitespace is a slice of it, otherwise it is
 * joined from the stretches between the whitespace cut (4,096 at a time).
 */
function cleanMessage(message: string): string {
  const text = message.includes("\r\n") ? message.replace(/\r\n/g, "\n") : message;
  const first = text.search(/\S/);
  if (first < 0) return "";
  let last = text.length - 1;
  while (isSpace(text.charCodeAt(last))) last--;
  const body = text.slice(text.lastIndexOf("\n", first) + 1, last + 1);
  if (!/[^\S\n]\n/.test(body)) return body;
  const chunks: string[] = [];
  let parts: string[] = [];
  let cut = 0;
  for (let lineStart = 0, nl = body.indexOf("\n"); nl >= 0; lineStart = nl + 1, nl = body.indexOf("\n", lineStart)) {
    let end = nl;
    while (end > lineStart && isSpace(body.charCodeAt(end - 1))) end--;
    if (end === nl) continue;
    parts.push(body.slice(cut, end));
    cut = nl;
    if (parts.length === 4096) {
      chunks.push(parts.join(""));
      parts = [];
    }
  }
  parts.push(body.slice(cut));
  chunks.push(parts.join(""));
  return chunks.join("");
}

/**
 * How `git log` prints commits (spec 04 §2.5): `"medium"` blocks separated
 * by blank lines, `"oneline"`, `"format"` (a separator: no newline after
 * the last entry) or `"tformat"` (a terminator: a newline after each).
 */
export type LogStyle = { kind: "medium" } | { kind: "oneline" } | { kind: "format" | "tformat"; format: string; extras?: FormatExtras };

/**
 * Reads a `--pretty`/`--format` value as real git does: `oneline` (full oid and subject; `--oneline` abbreviates),
 * `medium`, `format:<f>`, `tformat:<f>`; anything else containing `%` is
 * `tformat:`.
 *
 * @returns `undefined` for an unknown named format.
 */
export function parsePretty(value: string): LogStyle | undefined {
  if (value === "oneline") return { kind: "tformat", format: "%H %s" };
  if (value === "medium") return { kind: "medium" };
  if (value.startsWith("format:")) return { kind: "format", format: value.slice(7) };
  if (value.startsWith("tformat:")) return { kind: "tformat", format: value.slice(8) };
  if (value === "" || value.includes("%")) return { kind: "tformat", format: value }; // git: an empty format prints nothing
  return undefined;
}

/**
 * The whole `git log` output for `commits` in `style` (and `git show`'s
 * commit part), at most `maxChars` characters (UTF-16 code units) of
 * commits: the commit that would pass it keeps its lines that fit (the
 * header, whole message lines) and the output ends with one line
 * `Log cut: commit <oid7> not shown in full[ and <n> more commits not
 * shown]; the log's text would pass <maxChars> characters
 * (GIT_LOG_MAX_CHARS): log fewer commits at a time (-n), or --oneline`.
 * A `medium` message is indented in one pass over its text; a format is
 * expanded placeholder by placeholder only as far as the room left.
 *
 * @param maxChars - Default {@link GIT_LOG_MAX_CHARS} (8 Mi characters).
 */
export function formatLog(commits: readonly CommitView[], style: LogStyle, maxChars: number = GIT_LOG_MAX_CHARS): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; i < commits.length; i++) {
    const commit = commits[i]!;
    const sep = i > 0 && (style.kind === "medium" || style.kind === "format") ? "\n" : "";
    const room = maxChars - size - sep.length;
    let entry: { text: string; whole: boolean };
    if (style.kind === "medium") entry = mediumWithin(commit, Math.max(0, room));
    else {
      // a format is expanded only as far as the room (a repeated %B would otherwise copy the message each time)
      const text =
        style.kind === "oneline" ? { text: formatOneline(commit), whole: true } : commitWithin(commit, style.format, style.kind === "tformat" && style.format !== "" ? "\n" : "", room, style.extras);
      entry =
        text.whole && text.text.length <= room ? text : { text: clipLines(text.text, Math.max(0, room)), whole: false };
    }
    if (!entry.whole) {
      if (entry.text !== "") parts.push(sep + (entry.text.endsWith("\n") ? entry.text : `${entry.text}\n`));
      else if (sep !== "" || (parts.length > 0 && !parts[parts.length - 1]!.endsWith("\n"))) parts.push("\n");
      parts.push(logCut(commit, commits.length - i - 1, maxChars));
      break;
    }
    parts.push(sep + entry.text);
    size += sep.length + entry.text.length;
  }
  return parts.join("");
}

/** The line ending a log cut by {@link GIT_LOG_MAX_CHARS} at `commit`, with `rest` commits after it not shown. */
function logCut(commit: CommitView, rest: number, maxChars: number): string {
  const more = rest > 0 ? ` and ${rest} more ${rest === 1 ? "commit" : "commits"} not shown` : "";
  return (
    `Log cut: commit ${shortOid(commit.oid)} not shown in full${more}; the log's text would pass ${maxChars} characters ` +
    "(GIT_LOG_MAX_CHARS): log fewer commits at a time (-n), or --oneline\n"
  );
}

/** A status entry with its display path. */
export interface StatusLine {
  /** The path as printed (repo-relative for porcelain, else relative to the cwd; untracked directories end in `/`). */
  path: string;
  index: string;
  worktree: string;
  /** What it sorts by: the repo-relative path (default: `path`), as real git orders a subdirectory's `../` paths. */
  key?: string;
  /** A staged exact rename (index `R`): the old path, printed as `path` is. */
  from?: string;
}

/** True for an untracked entry (`worktree === "?"`). */
export function isUntracked(entry: Pick<StatusEntry, "worktree">): boolean {
  return entry.worktree === "?";
}

/**
 * Real git's order: changed paths first, then untracked ones, each sorted
 * by path (byte order).
 */
export function orderStatus<T extends StatusLine>(entries: readonly T[]): T[] {
  const byPath = (a: T, b: T): number => {
    const [x, y] = [a.key ?? a.path, b.key ?? b.path];
    return x < y ? -1 : x > y ? 1 : 0;
  };
  return [...entries.filter((e) => !isUntracked(e)).sort(byPath), ...entries.filter(isUntracked).sort(byPath)];
}

/**
 * `git status -s` lines (spec 04 §2.5): `XY p`, untracked ` ? p` (the
 * entry's own index and worktree letters).
 */
export function formatStatusShort(entries: readonly StatusLine[], fully = true): string {
  return orderStatus(entries).map((e) => `${e.index}${e.worktree} ${statusName(e, true, fully)}\n`).join("");
}

/** `--porcelain=v1` lines: `XY p`, untracked `?? p` (real git's v1). */
export function formatStatusPorcelainV1(entries: readonly StatusLine[], fully = true): string {
  return orderStatus(entries)
    .map((e) => (isUntracked(e) ? `?? ${quotePath(e.path, true, fully)}\n` : `${e.index}${e.worktree} ${statusName(e, true, fully)}\n`))
    .join("");
}

/** A status line's name: the path, or git's `<from> -> <path>` for a rename (each quoted on its own). */
function statusName(e: StatusLine, quoteSpace = false, fully = true): string {
  return e.from !== undefined ? `${quotePath(e.from, quoteSpace, fully)} -> ${quotePath(e.path, quoteSpace, fully)}` : quotePath(e.path, quoteSpace, fully);
}

/**
 * `--porcelain` / `--porcelain=v2` lines (spec 04 §2.5): `1 XY p` (XY as in
 * real git's v2: `.` for unchanged), untracked `? p`.
 */
export function formatStatusPorcelainV2(entries: readonly StatusLine[], fully = true): string {
  return orderStatus(entries)
    .map((e) =>
      isUntracked(e) ? `? ${quotePath(e.path, false, fully)}\n` : `1 ${dot(e.index)}${dot(e.worktree)} ${quotePath(e.path, false, fully)}\n`,
    )
    .join("");
}

function dot(letter: string): string {
  return letter === " " ? "." : letter;
}

/** What `git status` (long format) needs besides the entries. */
export interface LongStatusHead {
  /** Current branch short name; `undefined` when HEAD is detached. */
  branch: string | undefined;
  /** Abbreviated HEAD oid when detached. */
  detachedAt?: string;
  /** No commit yet on the branch. */
  noCommits: boolean;
  /** Upstream line(s) after `On branch`, e.g. `Your branch is up to date with 'origin/main'.` (without the final newline; a blank line follows). */
  upstream?: string;
}

const LABELS: Record<string, string> = { A: "new file:   ", M: "modified:   ", D: "deleted:    ", T: "typechange: ", R: "renamed:    " };

/**
 * Real git's default `git status` (2.39 wording, hints included): `On
 * branch`, `No commits yet`, `Changes to be committed:`, `Changes not
 * staged for commit:`, `Untracked files:` and the closing summary line.
 */
export function formatStatusLong(head: LongStatusHead, entries: readonly StatusLine[], fully = true): string {
  const ordered = orderStatus(entries);
  const staged = ordered.filter((e) => e.index !== " " && e.index !== "?");
  const unstaged = ordered.filter((e) => e.worktree === "M" || e.worktree === "D" || e.worktree === "T");
  const untracked = ordered.filter(isUntracked);
  let out = head.branch !== undefined ? `On branch ${head.branch}\n` : `HEAD detached at ${head.detachedAt ?? ""}\n`;
  if (head.upstream) out += `${head.upstream}\n\n`;
  if (head.noCommits) out += "\nNo commits yet\n\n";
  if (staged.length > 0) {
    out += "Changes to be committed:\n";
    out += head.noCommits
      ? '  (use "git rm --cached <file>..." to unstage)\n'
      : '  (use "git restore --staged <file>..." to unstage)\n';
    for (const e of staged) out += `\t${LABELS[e.index] ?? "modified:   "}${statusName(e, false, fully)}\n`;
    out += "\n";
  }
  if (unstaged.length > 0) {
    out += "Changes not staged for commit:\n";
    out += unstaged.some((e) => e.worktree === "D")
      ? '  (use "git add/rm <file>..." to update what will be committed)\n'
      : '  (use "git add <file>..." to update what will be committed)\n';
    out += '  (use "git restore <file>..." to discard changes in working directory)\n';
    for (const e of unstaged) out += `\t${LABELS[e.worktree]}${quotePath(e.path, false, fully)}\n`;
    out += "\n";
  }
  if (untracked.length > 0) {
    out += "Untracked files:\n";
    out += '  (use "git add <file>..." to include in what will be committed)\n';
    for (const e of untracked) out += `\t${quotePath(e.path, false, fully)}\n`;
    out += "\n";
  }
  if (staged.length > 0) {
    // nothing more
  } else if (unstaged.length > 0) {
    out += 'no changes added to commit (use "git add" and/or "git commit -a")\n';
  } else if (untracked.length > 0) {
    out += 'nothing added to commit but untracked files present (use "git add" to track)\n';
  } else if (head.noCommits) {
    out += 'nothing to commit (create/copy files and use "git add" to track)\n';
  } else {
    out += "nothing to commit, working tree clean\n";
  }
  return out;
}

/**
 * Quotes a path as git does (ops/diff.ts `quotePath`): with `fully` (`core.quotePath` on, the default) paths with
 * control characters, `"`, `\` or non-ASCII bytes are printed in double quotes with C escapes and octal bytes;
 * without (`core.quotePath false`), non-ASCII bytes stay as they are. With `quoteSpace` (git's
 * `QUOTE_PATH_QUOTE_SP`, used by `status -s` and `--porcelain=v1` only) a path holding a space is quoted too
 * (`"new file.txt"`; the space stays as is).
 */
export function quotePath(path: string, quoteSpace = false, fully = true): string {
  return quoteCStyle(path, { quoteSpace, fully });
}

/**
 * How git's `match_pathspec_item` matches the untracked directory `dir` (`"d/"`) to `spec` while walking
 * (`DO_MATCH_LEADING_PATHSPEC`): 4 exactly (`d/`), 3 by its pattern (`u*`, `u/*`), 2 the spec only leads below it
 * (`d/f`, `d/?*`, `*.txt`), 1 the spec is above it (`"."`, `d`), 0 not at all.
 */
function dirMatch(dir: string, spec: string): number {
  if (spec === "." || spec === "") return 1;
  if (dir.startsWith(spec)) {
    if (spec.length === dir.length) return 4;
    if (spec.endsWith("/") || dir[spec.length] === "/") return 1;
  }
  const glob = isGlobSpec(spec);
  if (glob && wildmatch(spec, dir)) return 3;
  if (spec.length > dir.length && spec.startsWith(dir)) return 2;
  return glob && dir.startsWith(literalPrefix(spec)) ? 2 : 0;
}

/**
 * Collapses untracked files into their topmost wholly-untracked directory
 * (`d/`), as real git's default `--untracked-files=normal` does. `tracked`
 * are the index's paths (repo-relative). With `specs` (the pathspecs as
 * `CliContext.pathspec` returns them; each entry matches one), a directory is
 * collapsed only where git collapses it: where a spec names it or lies above
 * it, or a glob matches `d/` itself (`u*`, `u/*`) — not where a spec only
 * leads into it (`u/f.txt`, `u/?*`, `*.txt`: its files are listed one by one;
 * git's `DO_MATCH_LEADING_PATHSPEC`, the closest match of all specs deciding, so
 * `u/f.txt u` lists `u/f.txt`). A collapsed directory whose own name is an
 * index entry (a file `d` staged where the working tree has a directory `d`,
 * as after `git reset <ref> -- d`) is not listed: git's `index_name_is_other`
 * (issue 20, run 39, fixer GT).
 */
export function collapseUntracked(entries: readonly StatusEntry[], tracked: Iterable<string>, specs?: readonly string[]): StatusEntry[] {
  const trackedDirs = new Set<string>();
  const trackedFiles = new Set<string>();
  for (const path of tracked) {
    trackedFiles.add(path);
    let slash = path.indexOf("/");
    while (slash >= 0) {
      trackedDirs.add(path.slice(0, slash));
      slash = path.indexOf("/", slash + 1);
    }
  }
  const out: StatusEntry[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    if (!isUntracked(entry)) {
      out.push(entry);
      continue;
    }
    let path = entry.path;
    let slash = path.indexOf("/");
    while (slash >= 0) {
      const dir = path.slice(0, slash);
      if (!trackedDirs.has(dir) && (specs === undefined || [1, 3, 4].includes(Math.max(...specs.map((s) => dirMatch(`${dir}/`, s)))))) {
        path = dir + "/";
        break;
      }
      slash = path.indexOf("/", slash + 1);
    }
    if (seen.has(path)) continue;
    seen.add(path);
    if (path !== entry.path && trackedFiles.has(path.slice(0, -1))) continue; // git's index_name_is_other: `d/` with an entry `d`
    out.push({ ...entry, path });
  }
  return out;
}

/**
 * `target` relative to `from` (both repo-relative, `""` for the root), as
 * git prints paths in a subdirectory: `../a`, `b/c`. A trailing `/` is kept.
 */
export function relativeTo(target: string, from: string): string {
  if (from === "") return target;
  const t = target.split("/");
  const f = from.split("/");
  let common = 0;
  while (common < f.length && common < t.length && t[common] === f[common]) common++;
  const rel = "../".repeat(f.length - common) + t.slice(common).join("/");
  return rel === "" ? "./" : rel;
}

/** One file of a `--stat` listing. */
export interface StatEntry {
  path: string;
  insertions: number;
  deletions: number;
  /** A binary file: printed `Bin <old> -> <new> bytes` (`Bin` alone when both are 0: the content did not change). */
  binary?: { oldBytes: number; newBytes: number };
  /** A rename: the old path (the name printed is git's `a => b` / `{dir => dir2}/f`). */
  from?: string;
}

/**
 * The name `--stat` and `--numstat` print for a file: its quoted path, or for a rename git's pprint_rename — both
 * quoted in full when either needs quoting, else the common leading directories and trailing `/…` part written once
 * around `{old => new}` (`{dir => dir2}/f`, `d/{a.txt => b.txt}`), or `old => new` when they share none.
 */
export function statName(e: Pick<StatEntry, "path" | "from">, fully = true): string {
  if (e.from === undefined) return quotePath(e.path, false, fully);
  const a = e.from;
  const b = e.path;
  const qa = quotePath(a, false, fully);
  const qb = quotePath(b, false, fully);
  if (qa !== a || qb !== b) return `${qa} => ${qb}`;
  let pfx = 0;
  for (let i = 0; i < a.length && i < b.length && a[i] === b[i]; i++) if (a[i] === "/") pfx = i + 1;
  let sfx = 0;
  const adjust = pfx ? 1 : 0;
  const at = (s: string, i: number) => (i < s.length ? s.charCodeAt(i) : 0); // 0: the C string's terminator
  for (let i = a.length, j = b.length; pfx - adjust <= i && pfx - adjust <= j && at(a, i) === at(b, j); i--, j--) {
    if (a[i] === "/") sfx = a.length - i;
  }
  const aMid = Math.max(0, a.length - pfx - sfx);
  const bMid = Math.max(0, b.length - pfx - sfx);
  const mid = `${a.slice(pfx, pfx + aMid)} => ${b.slice(pfx, pfx + bMid)}`;
  return pfx + sfx ? `${a.slice(0, pfx)}{${mid}}${a.slice(a.length - sfx)}` : mid;
}

/** Wide (2-column) code points, as git's East Asian Wide/Fullwidth table, roughly (CJK, Hangul, fullwidth forms, emoji). */
const WIDE = /[\u1100-\u115f\u231a\u231b\u2329\u232a\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe10-\ufe19\ufe30-\ufe6f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{2fffd}\u{30000}-\u{3fffd}]/u;
const ZERO_WIDTH = /[\p{Mn}\p{Me}\p{Cf}\u1160-\u11ff]/u;

/**
 * How many terminal columns `text` takes, as git's `utf8_strwidth` counts a name in `--stat` (a name printed
 * unquoted under `core.quotePath false` may hold non-ASCII characters): combining marks and format characters 0,
 * East Asian wide characters 2, others 1.
 */
function columns(text: string): number {
  let n = 0;
  for (const ch of text) n += ch.charCodeAt(0) < 0x80 ? 1 : ZERO_WIDTH.test(ch) ? 0 : WIDE.test(ch) ? 2 : 1;
  return n;
}

/**
 * Real git's `--stat` (80 columns, as when output is not a terminal):
 * ` <name> | <n> <+++-->` per file, names padded (a long one cut to
 * `...<tail>`), the graph scaled to fit, then
 * ` N files changed, X insertions(+), Y deletions(-)`. A binary file is
 * ` <name> | Bin <old> -> <new> bytes` (sizes), not counted in the graph's
 * scale, and the counts are then at least 3 wide (aligned with `Bin`).
 * Empty for no files.
 */
export function formatStat(entries: readonly StatEntry[], width = 80, fully = true): string {
  if (entries.length === 0) return "";
  const names = entries.map((e) => statName(e, fully));
  const maxLen = Math.max(...names.map(columns));
  // binary files: not counted in max_change; "Bin X -> Y bytes" is as wide as bin_width and aligns the counts with "Bin"
  const text = entries.filter((e) => !e.binary);
  const bins = entries.filter((e) => e.binary);
  const maxChange = Math.max(0, ...text.map((e) => e.insertions + e.deletions));
  const binWidth = Math.max(0, ...bins.map((e) => 14 + String(e.binary!.newBytes).length + String(e.binary!.oldBytes).length));
  const numberWidth = Math.max(bins.length > 0 ? 3 : 0, String(maxChange).length);
  const w = Math.max(width, 16 + 6 + numberWidth);
  let graphWidth = maxChange + 4 > binWidth ? maxChange : binWidth - 4;
  let nameWidth = maxLen;
  if (nameWidth + numberWidth + 6 + graphWidth > w) {
    if (graphWidth > Math.floor((w * 3) / 8) - numberWidth - 6) {
      graphWidth = Math.max(6, Math.floor((w * 3) / 8) - numberWidth - 6);
    }
    if (nameWidth > w - numberWidth - 6 - graphWidth) nameWidth = w - numberWidth - 6 - graphWidth;
    else graphWidth = w - numberWidth - 6 - nameWidth;
  }
  const scale = (it: number) => (it === 0 ? 0 : 1 + Math.floor((it * (graphWidth - 1)) / maxChange));
  let out = "";
  entries.forEach((e, i) => {
    let name = names[i]!;
    let pad = nameWidth;
    if (columns(name) > nameWidth) {
      // git's show_stats: drop whole characters from the front until the rest fits in the width less `...`,
      // then start at the first `/` left, if any.
      pad = Math.max(0, nameWidth - 3);
      const chars = [...name];
      let left = columns(name);
      let at = 0;
      while (left > pad && at < chars.length) left -= columns(chars[at++]!);
      let tail = chars.slice(at).join("");
      const slash = tail.indexOf("/");
      if (slash >= 0) tail = tail.slice(slash);
      name = "..." + tail + " ".repeat(Math.max(0, pad - columns(tail)));
    } else name += " ".repeat(nameWidth - columns(name));
    if (e.binary) {
      const { oldBytes, newBytes } = e.binary;
      out += ` ${name} | ${"Bin".padStart(numberWidth)}${oldBytes || newBytes ? ` ${oldBytes} -> ${newBytes} bytes` : ""}\n`;
      return;
    }
    let add = e.insertions;
    let del = e.deletions;
    if (graphWidth <= maxChange) {
      let total = scale(add + del);
      if (total < 2 && add && del) total = 2;
      if (add < del) {
        add = scale(add);
        del = total - add;
      } else {
        del = scale(del);
        add = total - del;
      }
    }
    const count = e.insertions + e.deletions;
    out += ` ${name} | ${String(count).padStart(numberWidth)}${count ? " " : ""}${"+".repeat(add)}${"-".repeat(del)}\n`;
  });
  const ins = entries.reduce((n, e) => n + e.insertions, 0);
  const dels = entries.reduce((n, e) => n + e.deletions, 0);
  const files = entries.length;
  let summary = ` ${files} file${files === 1 ? "" : "s"} changed`;
  if (ins || !dels) summary += `, ${ins} insertion${ins === 1 ? "" : "s"}(+)`;
  if (dels || !ins) summary += `, ${dels} deletion${dels === 1 ? "" : "s"}(-)`;
  return out + summary + "\n";
}

/**
 * `git show <tree>` as git prints a tree (show_tree_object): `tree <ref as typed>`, a blank line, then each entry's
 * name as stored (not quoted), `/` after a subtree.
 */
export function formatTreeNames(ref: string, entries: readonly { path: string; type: string }[]): string {
  return `tree ${ref}\n\n${entries.map((e) => `${e.path}${e.type === "tree" ? "/" : ""}\n`).join("")}`;
}

/**
 * `git show <annotated tag>`'s block for one tag object (`bytes`: the raw tag), as git 2.39.5's builtin/log.c
 * (`tag <name>` then show_tag_object): `tag <name>`, the `Tagger:` line (with `Date:   <iso date>` in the medium
 * style; neither line with `--oneline` / `--pretty=oneline`), then the tag's message after its blank line, as
 * stored (a signature too). `target`: the object it tags and its type (issue 20, run 40, fixer f40g1).
 */
export function formatTagBlock(bytes: Uint8Array, style: "medium" | "oneline" | "format"): { text: string; target: string; type: string } {
  const raw = utf8EscapeDecode(bytes);
  const end = raw.indexOf("\n\n");
  const head = end < 0 ? raw : raw.slice(0, end + 1);
  const field = (name: string): string | undefined => new RegExp(`^${name} (.*)$`, "m").exec(head)?.[1];
  let text = `tag ${field("tag") ?? ""}\n`;
  const tagger = /^(.*<[^>]*>) (\d+) ([+-])(\d\d)(\d\d)$/.exec(field("tagger") ?? "");
  if (tagger && style !== "oneline") {
    text += `Tagger: ${tagger[1]}\n`;
    const east = (tagger[3] === "-" ? -1 : 1) * (Number(tagger[4]) * 60 + Number(tagger[5]));
    if (style === "medium") text += `Date:   ${formatDate({ timestamp: Number(tagger[2]), timezoneOffset: -east })}\n`;
  }
  if (end >= 0) text += raw.slice(end + 1);
  return { text, target: field("object") ?? "", type: field("type") ?? "" };
}
