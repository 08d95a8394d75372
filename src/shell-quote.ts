/**
 * Shell quoting for command backends (spec 01 §7, spec 02 §1.8).
 *
 * @module
 */

/** A value spliced into a command verbatim, without quoting: `sh\`ls ${{ raw: "*.ts" }}\``. */
export interface RawShellValue {
  /** Shell text spliced as is (globs, pipes, redirections): never quoted, so never pass untrusted text here. */
  readonly raw: string;
}

/** What the {@link sh} tag accepts: strings and numbers are quoted, arrays quoted per item, `{ raw }` kept as is. */
export type ShellValue = string | number | RawShellValue | readonly (string | number | RawShellValue)[];

const SAFE = /^[A-Za-z0-9_\-+=:,./@%]+$/;

/**
 * Quotes one argument for a POSIX shell. Returns `s` unchanged when it is
 * non-empty and made only of `[A-Za-z0-9_\-+=:,./@%]`; otherwise wraps it in
 * single quotes, writing each `'` as `'\''`. `shellQuote("")` is `''`.
 *
 * @throws TypeError when `s` is not a string.
 */
export function shellQuote(s: string): string {
  if (typeof s !== "string") throw new TypeError(`shellQuote expects a string, got ${typeof s}`);
  if (SAFE.test(s)) return s;
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

function isRaw(value: unknown): value is RawShellValue {
  return typeof value === "object" && value !== null && !Array.isArray(value) && typeof (value as RawShellValue).raw === "string";
}

function quoteOne(value: unknown): string {
  if (isRaw(value)) return value.raw;
  if (typeof value === "string") return shellQuote(value);
  if (typeof value === "number") return shellQuote(String(value));
  throw new TypeError(
    `sh: cannot splice a ${value === null ? "null" : typeof value} into a command; pass a string, a number, an array of them, or { raw: string }`,
  );
}

/**
 * Tagged template that builds a shell command: literal parts are kept
 * verbatim (from `strings.raw`, so `\n` stays two characters), strings and
 * numbers are quoted with {@link shellQuote}, arrays are quoted per item and
 * joined with spaces, and `{ raw }` values are spliced as they are.
 *
 * @example
 * ```ts
 * sh`grep -rn ${pattern} ${[dir1, dir2]}` // "grep -rn 'a b' src lib"
 * ```
 * @throws TypeError for any other value (`null`, objects, booleans…).
 */
export function sh(strings: TemplateStringsArray, ...values: ShellValue[]): string {
  let out = strings.raw[0] ?? "";
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    out += Array.isArray(value) ? value.map(quoteOne).join(" ") : quoteOne(value);
    out += strings.raw[i + 1] ?? "";
  }
  return out;
}
