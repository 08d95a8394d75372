/**
 * The duration grammar of spec 04 §3.5, shared by the artifacts CLI's
 * `--ttl`, the `ws:artifacts` module's `ttl` and `ws:assets`' expiry strings.
 *
 * @module
 */

const DIGITS = /^[0-9]+$/;
/** The whole string is one or more `<digits><letters>` segments (units checked afterwards). */
const SEGMENTS = /^(?:[0-9]+[A-Za-z]+)+$/;
const SEGMENT = /([0-9]+)([A-Za-z]+)/g;
/** Seconds per unit (lower case). */
const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400 };

/**
 * Parses a duration into whole **seconds** (spec 04 §3.5).
 *
 * The input is trimmed. All digits means seconds (`"90"` → 90). Otherwise the
 * whole string must be a run of `<digits><unit>` segments, unit one of
 * `s`, `m`, `h`, `d` (case-insensitive), which are summed: `"2h30m"` → 9000,
 * `"1D"` → 86400, `"1d1s"` → 86401. Fractions (`"1.5h"`), spaces between
 * segments (`"1h 30m"`), signs and other units are refused. The result is
 * always a positive safe integer.
 *
 * @param input - The duration text, e.g. `"3600"`, `"15m"`, `"2h30m"`.
 * @returns The duration in seconds (> 0).
 * @throws RangeError `empty duration` — blank input.
 * @throws RangeError `duration must be positive (got '<input>')` — sums to 0 (`"0"`, `"0h0m"`).
 * @throws RangeError `unknown duration unit '<unit>' in '<input>'` — e.g. `"5w"`, `"10ms"`.
 * @throws RangeError `invalid duration '<input>'` — anything else (`"1.5h"`, `"1h 30m"`, `"h"`, `"-5"`),
 *   including a total beyond `Number.MAX_SAFE_INTEGER` seconds.
 * @throws TypeError when `input` is not a string.
 * Each message quotes at most the first 64 characters of the input (or
 * unit), then `…' (<n> characters)`.
 */
export function parseDuration(input: string): number {
  if (typeof input !== "string") {
    throw new TypeError(`duration must be a string such as "3600", "15m" or "2h30m" (got ${describe(input)})`);
  }
  const text = input.trim();
  if (text === "") throw new RangeError("empty duration");
  const quoted = quote(text);
  let seconds: number;
  if (DIGITS.test(text)) {
    seconds = Number(text);
  } else {
    if (!SEGMENTS.test(text)) throw new RangeError(`invalid duration ${quoted}`);
    seconds = 0;
    for (const [, digits, unit] of text.matchAll(SEGMENT)) {
      const perUnit = UNIT_SECONDS[unit!.toLowerCase()];
      if (perUnit === undefined) throw new RangeError(`unknown duration unit ${quote(unit!)} in ${quoted}`);
      seconds += Number(digits) * perUnit;
    }
  }
  if (!Number.isSafeInteger(seconds)) throw new RangeError(`invalid duration ${quoted}`);
  if (seconds <= 0) throw new RangeError(`duration must be positive (got ${quoted})`);
  return seconds;
}

/** Characters of the input an error message quotes; a longer input is cut there and its length given. */
const MAX_QUOTED_CHARS = 64;

/**
 * `'text'`, or its first {@link MAX_QUOTED_CHARS} characters (never half a character) then `…' (<n> characters)`.
 * Also quotes the artifacts CLI's refused arguments. @internal
 */
export function quote(text: string): string {
  if (text.length <= MAX_QUOTED_CHARS) return `'${text}'`;
  let end = MAX_QUOTED_CHARS;
  if ((text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
  return `'${text.slice(0, end)}…' (${text.length} characters)`;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return `${typeof value} ${String(value)}`;
  return typeof value;
}
