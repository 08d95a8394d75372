/**
 * Fixer CZ (issue 20, twenty-ninth attack run): three places where just-bash
 * answered unlike bash 5.2 / GNU coreutils 9.1 / gzip 1.12.
 * scripts/gen-shell.mjs patches just-bash to call these functions, imported
 * as the namespace `__lookupDateGzip`.
 *
 * - Commands the shell cannot run (those of optional groups not listed, and
 *   python3/sqlite3/node, which need a Node worker thread) are not commands:
 *   they are neither in /usr/bin nor registered, so `command -v`, `type`,
 *   `which`, `hash`, `compgen -c` and `[ -x /usr/bin/jq ]` do not find them,
 *   as bash on a machine without them. Running one still answers the group's
 *   message, status 127: the shell asks {@link unavailableCommand} when its
 *   PATH lookup found nothing.
 * - `date -d` refuses a date whose fields are out of range (`2024-02-30`,
 *   `24:00`) instead of letting JavaScript's Date roll it over.
 * - gzip/gunzip/zcat read a name's suffix as GNU gzip's get_suffix and
 *   make_ofname: `.gz`, `.z`, `.taz`, `.tgz`, `-gz`, `.Z`, `-z`, `_z` and the
 *   -S suffix, case-insensitively, `.tgz`/`.taz` giving `.tar`; with -c (zcat)
 *   the name's suffix does not matter.
 *
 * @module
 */

/** The messages of the commands each shell cannot run, by the shell's command registry. */
const unavailableByRegistry = new WeakMap<object, ReadonlyMap<string, string>>();

/** Remembers, for the shell whose command registry is `commands`, the commands it cannot run and why. */
export function registerUnavailable(commands: object, reasons: unknown): void {
  if (reasons === null || typeof reasons !== "object") return;
  const map = new Map<string, string>();
  for (const [name, reason] of Object.entries(reasons as Record<string, unknown>)) if (typeof reason === "string") map.set(name, reason);
  unavailableByRegistry.set(commands, map);
}

/**
 * What running `name` answers when the shell's PATH lookup found no such
 * command and `name` is one the shell cannot run: its message, status 127.
 * `null` for any other name (bash's `command not found`).
 */
export function unavailableCommand(commands: { has(name: string): boolean }, name: string): { stdout: string; stderr: string; exitCode: number } | null {
  if (name.includes("/") || commands.has(name)) return null;
  const reason = unavailableByRegistry.get(commands)?.get(name);
  return reason === undefined ? null : { stdout: "", stderr: `${reason}\n`, exitCode: 127 };
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const MONTH = String.raw`(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?`;

function isLeap(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function validDay(year: number, month: number, day: number): boolean {
  if (!(month >= 1 && month <= 12) || day < 1) return false;
  const days = [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
}

/** A two-digit year as GNU reads it (69–99: 19xx, 00–68: 20xx). */
function fullYear(text: string): number {
  const n = Number(text);
  return text.length > 2 ? n : n < 69 ? 2000 + n : 1900 + n;
}

/**
 * Whether the date and time fields written in `date -d`'s string `text` are
 * in range, as GNU date's parser requires: month 1–12, day within its
 * month (leap years included), hour 0–23, minute and second 0–59. The forms
 * read are YYYY-MM-DD and YYYY/MM/DD, MM/DD/YY[YY], `Mon DD [YYYY]`,
 * `DD Mon [YYYY]` (a year elsewhere in the string, else the current one) and
 * HH:MM[:SS]. JavaScript's Date parser, which just-bash's date uses, accepts
 * any day up to 31 and the hour 24 and rolls them over into the next month
 * or day: `2024-02-30` was `2024-03-01`, where GNU says `invalid date`.
 */
export function dateFieldsValid(text: string, now: Date = new Date()): boolean {
  if (text.startsWith("@")) return true;
  const s = text.toLowerCase();
  for (const m of s.matchAll(/(?<![\d/-])(\d{4})([-/])(\d{1,2})\2(\d{1,2})(?![\d/])/g)) {
    if (!validDay(Number(m[1]), Number(m[3]), Number(m[4]))) return false;
  }
  for (const m of s.matchAll(/(?<![\d/-])(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})(?![\d/])/g)) {
    if (!validDay(fullYear(m[3]!), Number(m[1]), Number(m[2]))) return false;
  }
  const elsewhere = /(?<![\d:./-])(\d{4})(?![\d:./-])/.exec(s.replace(/(\d{4})[-/]\d{1,2}[-/]\d{1,2}/g, " "));
  const year = (written: string | undefined) => (written !== undefined ? Number(written) : elsewhere ? Number(elsewhere[1]) : now.getUTCFullYear());
  for (const m of s.matchAll(new RegExp(String.raw`(?<![a-z])${MONTH}\s*(\d{1,2})(?:st|nd|rd|th)?(?![\d:])(?:,?\s*(\d{4})(?![\d:]))?`, "g"))) {
    if (!validDay(year(m[3]), MONTHS.indexOf(m[1]!) + 1, Number(m[2]))) return false;
  }
  for (const m of s.matchAll(new RegExp(String.raw`(?<![\d:])(\d{1,2})(?:st|nd|rd|th)?[\s-]*${MONTH}(?:,?[\s-]*(\d{4})(?![\d:]))?`, "g"))) {
    if (!validDay(year(m[3]), MONTHS.indexOf(m[2]!) + 1, Number(m[1]))) return false;
  }
  for (const m of s.matchAll(/(?<![\d+:.-])(\d{1,2}):(\d{2})(?::(\d{2}))?(?![\d:])/g)) {
    if (Number(m[1]) > 23 || Number(m[2]) > 59 || (m[3] !== undefined && Number(m[3]) > 59)) return false;
  }
  return true;
}

/**
 * `date` as just-bash's parser gave it, or `null` when it is no time: with
 * TZ set, a local time in the hour a daylight-saving change skips
 * (`TZ=America/New_York date -d '2024-03-10 02:30'`) never reads back as
 * written; the patched parser answers an invalid Date for it, and GNU date
 * says `invalid date`.
 */
export function validTime(date: Date | null): Date | null {
  return date === null || Number.isNaN(date.getTime()) ? null : date;
}

/** gzip's own suffixes (gzip.c known_suffixes), after the -S one. */
const KNOWN_SUFFIXES = [".gz", ".z", ".taz", ".tgz", "-gz", ".Z", "-z", "_z"];
/** gzip's MAX_SUFFIX: a longer -S suffix is refused. */
const MAX_SUFFIX = 30;

/**
 * The compression suffix `name` ends with, as written (GNU gzip's
 * get_suffix): `zSuffix` (-S, default `.gz`) or one of gzip's own, compared
 * without case, with something before it that is not a `/`. `null` when
 * there is none.
 */
export function gzipSuffix(name: string, zSuffix: string): string | null {
  const z = zSuffix.toLowerCase();
  // The -S suffix goes first, unless it ends one of gzip's own (then last, so `.gz` wins over `-S z`).
  const ofBuiltin = KNOWN_SUFFIXES.some((known) => z.length < known.length && known.toLowerCase().endsWith(z));
  const list = ofBuiltin ? [...KNOWN_SUFFIXES, z] : [z, ...KNOWN_SUFFIXES];
  const lower = name.toLowerCase();
  for (const suffix of list) {
    const s = suffix.toLowerCase();
    if (s.length === 0 || lower.length <= s.length || !lower.endsWith(s)) continue;
    if (lower[lower.length - s.length - 1] === "/") continue;
    return name.slice(name.length - s.length);
  }
  return null;
}

/** The name gzip -d gives the output of `name` (`.tgz`/`.taz` → `.tar`, another suffix dropped); `null` without one. */
export function gzipDecompressedName(name: string, zSuffix: string): string | null {
  const suffix = gzipSuffix(name, zSuffix);
  if (suffix === null) return null;
  const base = name.slice(0, name.length - suffix.length);
  const lower = suffix.toLowerCase();
  return lower === ".tgz" || lower === ".taz" ? `${base}.tar` : base;
}

interface GzipFlags {
  quiet?: boolean;
  verbose?: boolean;
  recursive?: boolean;
}

/**
 * gzip -d of a name without a suffix (not -c): GNU warns `unknown suffix --
 * ignored` and exits 2, unless -q, or -r without -v, where it passes over
 * the file silently with status 0.
 */
export function gzipUnknownSuffix(command: string, operand: string, flags: GzipFlags): { stdout: string; stderr: string; exitCode: number } {
  const warn = flags.verbose === true || (!flags.recursive && !flags.quiet);
  if (!warn) return { stdout: "", stderr: "", exitCode: 0 };
  return { stdout: "", stderr: flags.quiet ? "" : `${command}: ${operand}: unknown suffix -- ignored\n`, exitCode: 2 };
}

/** gzip (compressing, no -c, no -f) of a name that has a suffix: GNU leaves it, says so unless -q (or -r without -v), status 0. */
export function gzipHasSuffix(command: string, operand: string, suffix: string, flags: GzipFlags): { stdout: string; stderr: string; exitCode: number } {
  const say = flags.verbose === true || (!flags.recursive && !flags.quiet);
  return { stdout: "", stderr: say ? `${command}: ${operand} already has ${suffix} suffix -- unchanged\n` : "", exitCode: 0 };
}

/** gzip -S with an empty suffix or one longer than 30 bytes: `invalid suffix`, status 1, before any file. */
export function gzipInvalidSuffix(command: string, zSuffix: unknown): { stdout: string; stderr: string; exitCode: number } | null {
  if (typeof zSuffix !== "string") return null;
  if (zSuffix.length > 0 && new TextEncoder().encode(zSuffix).length <= MAX_SUFFIX) return null;
  return { stdout: "", stderr: `${command}: invalid suffix '${zSuffix}'\n`, exitCode: 1 };
}

/** gzip's exit status over several files: an error (1) wins, a warning (2) only over success. */
export function gzipStatus(previous: number, current: number): number {
  if (current === 0) return previous;
  if (current === 2) return previous === 0 ? 2 : previous;
  return current;
}
