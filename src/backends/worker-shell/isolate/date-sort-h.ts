/**
 * Fixer DH (issue 20, run 30): `date`'s output formats and `sort -h`, as GNU
 * coreutils 9.1. Bundled into the shell's isolate by scripts/gen-shell.mjs as
 * the namespace `__dateSortH`.
 *
 * - `date -I`/`--iso-8601[=date|hours|minutes|seconds|ns]` and
 *   `--rfc-3339=date|seconds|ns` pick GNU's formats (`-I` alone is the date);
 *   two output formats are refused (`multiple output formats specified`).
 * - strftime directives read as GNU's fprintftime: `%[-_0^#+]*[width][E|O]X`
 *   — `-` no padding, `_` spaces, `0` zeros, `^` upper case, `#` swapped case,
 *   a width; `%N` keeps `width` digits; `%:z`, `%::z`, `%:::z`; a directive
 *   GNU does not know is copied as written.
 * - `sort -h` compares as GNU's human_numcompare: blanks, a number, one SI
 *   suffix letter (`KMGTPEZY`, also `k`) — by suffix first, then the number;
 *   whatever follows is not read.
 */

const ISO_FORMATS: Record<string, string> = {
  date: "%Y-%m-%d",
  hours: "%Y-%m-%dT%H%:z",
  minutes: "%Y-%m-%dT%H:%M%:z",
  seconds: "%Y-%m-%dT%H:%M:%S%:z",
  ns: "%Y-%m-%dT%H:%M:%S,%N%:z",
};
const ISO_ORDER = ["hours", "minutes", "date", "seconds", "ns"];
const RFC_FORMATS: Record<string, string> = {
  date: "%Y-%m-%d",
  seconds: "%Y-%m-%d %H:%M:%S%:z",
  ns: "%Y-%m-%d %H:%M:%S.%N%:z",
};
const RFC_ORDER = ["date", "seconds", "ns"];

type Result = { stdout: string; stderr: string; exitCode: number };

function refuse(message: string): Result {
  return { stdout: "", stderr: `date: ${message}\nTry 'date --help' for more information.\n`, exitCode: 1 };
}

/** GNU argmatch: an exact name, or the one name `arg` abbreviates. */
function argmatch(arg: string, names: readonly string[], option: string): string | Result {
  if (names.includes(arg)) return arg;
  const found = arg === "" ? names : names.filter((n) => n.startsWith(arg));
  if (found.length === 1 && arg !== "") return found[0]!;
  const what = found.length > 1 ? "ambiguous" : "invalid";
  const valid = names.map((n) => `  - ‘${n}’\n`).join("");
  return refuse(`${what} argument ‘${arg}’ for ‘${option}’\nValid arguments are:\n${valid.replace(/\n$/, "")}`);
}

/**
 * `date`'s output-format option `word` (`-I`, `-Iseconds`, `--iso-8601=ns`,
 * `--iso`, `--rfc-3339=seconds`, …): its strftime format, a refusal, or
 * `null` when `word` is another option.
 */
export function dateOption(word: string): { format: string } | { error: Result } | null {
  let option: "--iso-8601" | "--rfc-3339";
  let arg: string | undefined;
  if (word.startsWith("-I")) {
    option = "--iso-8601";
    arg = word.length > 2 ? word.slice(2) : undefined;
  } else if (word.startsWith("--")) {
    const eq = word.indexOf("=");
    const name = eq < 0 ? word : word.slice(0, eq);
    if (name.length >= 3 && "--iso-8601".startsWith(name)) option = "--iso-8601";
    else if (name.length >= 7 && "--rfc-3339".startsWith(name)) option = "--rfc-3339";
    else return null;
    arg = eq < 0 ? undefined : word.slice(eq + 1);
  } else return null;
  if (option === "--iso-8601") {
    if (arg === undefined) return { format: ISO_FORMATS.date! };
    const m = argmatch(arg, ISO_ORDER, option);
    return typeof m === "string" ? { format: ISO_FORMATS[m]! } : { error: m };
  }
  if (arg === undefined) return { error: refuse("option '--rfc-3339' requires an argument") };
  const m = argmatch(arg, RFC_ORDER, option);
  return typeof m === "string" ? { format: RFC_FORMATS[m]! } : { error: m };
}

/** The refusal for a second output format (`-I`, `-R`, `--rfc-3339`, `+FORMAT`). */
export function multipleFormats(): Result {
  return { stdout: "", stderr: "date: multiple output formats specified\n", exitCode: 1 };
}

/** Default digits and padding of GNU's numeric conversions. */
const NUMERIC: Record<string, { digits: number; space?: boolean; year?: boolean }> = {
  C: { digits: 2, year: true },
  d: { digits: 2 },
  e: { digits: 2, space: true },
  g: { digits: 2 },
  G: { digits: 4, year: true },
  H: { digits: 2 },
  I: { digits: 2 },
  j: { digits: 3 },
  k: { digits: 2, space: true },
  l: { digits: 2, space: true },
  m: { digits: 2 },
  M: { digits: 2 },
  s: { digits: 1 },
  S: { digits: 2 },
  u: { digits: 1 },
  U: { digits: 2 },
  V: { digits: 2 },
  w: { digits: 1 },
  W: { digits: 2 },
  y: { digits: 2 },
  Y: { digits: 4, year: true },
};
/** Conversions whose text is copied (names, composites, `%n`, `%t`, `%%`). */
const TEXT = new Set("aAbBhpPZcDFrRTxXnt%".split(""));
/** Conversions that accept the `E` / `O` modifier (GNU nstrftime). */
const E_OK = new Set("cCxXyY".split(""));
const O_OK = new Set("bBhdeHIklmMSuUVwWyg".split(""));

function pad(text: string, width: number, padChar: string): string {
  if (padChar === "-" || text.length >= width) return text;
  return (padChar === "0" || padChar === "+" ? "0" : " ").repeat(width - text.length) + text;
}

/** A signed number padded as GNU's do_number: zeros go after the sign, spaces before it. */
function padNumber(value: number | bigint, digits: number, width: number, padChar: string, plus = false): string {
  const negative = value < 0;
  let body = String(negative ? -value : value);
  const w = width < 0 ? digits : width;
  let sign = negative ? "-" : "";
  if (plus && !negative && padChar === "+" && (body.length > digits || w > digits)) sign = "+";
  if (padChar === "-") return sign + body;
  if (padChar === "_") return pad(sign + body, w, " ");
  if (body.length + sign.length < w) body = "0".repeat(w - sign.length - body.length) + body;
  return sign + body;
}

/** `%z` with `colons` colons, GNU's DO_TZ_OFFSET: `+hhmm`, `+hh:mm`, `+hh:mm:ss`, `+hh[:mm[:ss]]`. */
function zone(offset: string, colons: number, width: number, padChar: string): string {
  const m = /^([+-])(\d\d)(\d\d)$/.exec(offset) ?? ["", "+", "00", "00"];
  const sign = m[1]!;
  const h = Number(m[2]);
  const mi = Number(m[3]);
  let body: string;
  let digits: number;
  if (colons === 0) (body = String(h * 100 + mi)), (digits = 4);
  else if (colons === 1 || (colons === 3 && mi !== 0)) (body = `${h}:${String(mi).padStart(2, "0")}`), (digits = 5);
  else if (colons === 2) (body = `${h}:${String(mi).padStart(2, "0")}:00`), (digits = 8);
  else (body = String(h)), (digits = 2);
  const w = width < 0 ? digits + 1 : width;
  if (padChar === "-") return sign + body;
  if (padChar === "_") return pad(sign + body, w, " ");
  return sign + "0".repeat(Math.max(0, w - 1 - body.length)) + body;
}

/**
 * One strftime directive of `format` at `at` (a `%`), as GNU fprintftime:
 * its text and where the format goes on. `base(X)` is just-bash's plain
 * conversion X (null when unknown); `nanos` the nanoseconds of the time.
 */
export function directive(
  format: string,
  at: number,
  base: (conversion: string) => string | null,
  nanos: number,
): { text: string; next: number } {
  let i = at + 1;
  let padChar = "";
  let upcase = false;
  let swapCase = false;
  for (; i < format.length; i++) {
    const c = format[i]!;
    if (c === "_" || c === "-" || c === "0" || c === "+") padChar = c;
    else if (c === "^") upcase = true;
    else if (c === "#") swapCase = true;
    else break;
  }
  let width = -1;
  while (i < format.length && format[i]! >= "0" && format[i]! <= "9") {
    width = (width < 0 ? 0 : width) * 10 + Number(format[i]);
    if (width > 1e6) width = 1e6;
    i++;
  }
  let modifier = "";
  if (format[i] === "E" || format[i] === "O") modifier = format[i++]!;
  let colons = 0;
  while (format[i] === ":") colons++, i++;
  const conversion = format[i];
  const bad = () => {
    const end = conversion === undefined ? format.length : i + 1;
    return { text: pad(format.slice(at, end), width, padChar), next: end };
  };
  if (conversion === undefined) return bad();
  const next = i + 1;
  if (colons > 0 && (conversion !== "z" || colons > 3)) return bad();
  if (modifier === "E" && !E_OK.has(conversion)) return bad();
  if (modifier === "O" && !O_OK.has(conversion)) return bad();
  if (conversion === "%" && (next !== at + 2)) return bad();
  if (conversion === "N") {
    const all = String(Math.max(0, Math.min(999999999, Math.floor(nanos)))).padStart(9, "0");
    if (padChar === "-" && width < 0) return { text: all, next };
    const w = width < 0 ? 9 : width;
    let digits = all.slice(0, Math.min(w, 9));
    if (padChar === "-" || padChar === "_") digits = digits.replace(/(?<=.)0+$/, "");
    if (padChar === "-") return { text: digits, next };
    return { text: digits + (padChar === "_" ? " " : "0").repeat(Math.max(0, w - digits.length)), next };
  }
  if (conversion === "z") {
    const offset = base("z");
    if (offset === null) return bad();
    return { text: zone(offset, colons, width, padChar), next };
  }
  const numeric = NUMERIC[conversion];
  if (numeric !== undefined) {
    const plain = base(conversion);
    if (plain === null) return bad();
    const trimmed = plain.trim();
    const value = /^-?\d+$/.test(trimmed) ? BigInt(trimmed) : 0n;
    let p = padChar;
    if (p === "" && numeric.space) p = "_";
    if (p === "+" && !numeric.year) p = "0";
    return { text: padNumber(value, numeric.digits, width, p, numeric.year), next };
  }
  if (!TEXT.has(conversion)) return bad();
  let text = base(conversion);
  if (text === null) return bad();
  let lower = false;
  if (swapCase && "aAbBh".includes(conversion)) upcase = true;
  if ((swapCase && (conversion === "p" || conversion === "Z")) || conversion === "P") lower = true;
  if (lower) text = text.toLowerCase();
  else if (upcase) text = text.toUpperCase();
  // %F is %+4Y-%m-%d: its width goes to the year, zeros by default (`%12F` is `002023-11-14`).
  const padWith = padChar === "+" || (padChar === "" && conversion === "F") ? "0" : padChar;
  return { text: pad(text, width, padWith), next };
}

const UNIT_ORDER: Record<string, number> = { K: 1, k: 1, M: 2, G: 3, T: 4, P: 5, E: 6, Z: 7, Y: 8 };

/** GNU sort's find_unit_order: the SI suffix right after the number at the start of `text` (signed by it), else 0. */
function unitOrder(text: string): number {
  const m = /^(-?)(\d*)(?:\.(\d*))?(.?)/.exec(text)!;
  const digits = m[2]! + (m[3] ?? "");
  if (!/[1-9]/.test(digits)) return 0;
  const order = UNIT_ORDER[m[4]!] ?? 0;
  return m[1] === "-" ? -order : order;
}

/**
 * `sort -h`: GNU's human_numcompare of keys `a` and `b` — leading blanks
 * skipped, the SI suffix order first, then the number as `sort -n` reads it
 * (`numbers`, the shell's strnumcmp). -1, 0 or 1.
 */
export function compareHuman(a: string, b: string, numbers: (a: string, b: string) => number): number {
  const x = a.replace(/^[ \t]+/, "");
  const y = b.replace(/^[ \t]+/, "");
  const d = unitOrder(x) - unitOrder(y);
  if (d !== 0) return d < 0 ? -1 : 1;
  return numbers(x, y);
}
