/**
 * Collation of `sort`, `comm`, `join -i` and `uniq -i`, and sed's `s///Ng`,
 * as GNU coreutils 9.1 and GNU sed 4.9 in the shell's C locale (issue 20,
 * twenty-fourth attack run).
 *
 * just-bash's `sort` compared lines with `String.prototype.localeCompare` (an
 * ICU collation: case folded, punctuation ignored at first), while `ls`,
 * globs and GNU's tools in the C locale order by bytes; `comm` compared by
 * UTF-16 code units. Here text is compared by its UTF-8 bytes — the shell's
 * text is UTF-8 with "surrogateescape" (src/util/utf8-escape.ts), so a byte
 * that is not UTF-8 (U+DC80…U+DCFF) compares as that one byte — and `-f`
 * folds ASCII lower case to upper case, as GNU's C locale does.
 *
 * scripts/gen-shell.mjs patches just-bash to call these (imported as the
 * namespace `__sortSed`, entries marked `// SS`). Pure: it is bundled into
 * the shell's Dynamic Worker.
 *
 * @module
 */

/**
 * Appends to `out` the UTF-8 bytes of the character at `i` of `text` and
 * returns the index after it: a byte escape U+DC80…U+DCFF as its one byte,
 * any other lone surrogate as U+FFFD (as the shell's encoder writes it).
 */
function bytesAt(text: string, i: number, out: number[]): number {
  let cp = text.charCodeAt(i);
  let next = i + 1;
  if (cp >= 0xd800 && cp <= 0xdbff && next < text.length) {
    const low = text.charCodeAt(next);
    if (low >= 0xdc00 && low <= 0xdfff) {
      cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
      next++;
    }
  }
  if (cp < 0x80) out.push(cp);
  else if (cp >= 0xdc80 && cp <= 0xdcff) out.push(cp - 0xdc00);
  else {
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f));
    else if (cp < 0x10000) out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
    else out.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
  }
  return next;
}

/**
 * Compares `a` and `b` by their UTF-8 bytes, as memcmp(3) / strcoll(3) in the
 * C locale (GNU `sort`, `comm`, `join`, `ls`): -1, 0 or 1. Code point order
 * for valid text; a byte escape compares as its byte.
 */
export function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  // Start at the first differing character (not inside a surrogate pair).
  if (i > 0) {
    const prev = a.charCodeAt(i - 1);
    if (prev >= 0xd800 && prev <= 0xdbff) i--;
  }
  const bytesA: number[] = [];
  const bytesB: number[] = [];
  let ia = i;
  let ib = i;
  let pa = 0;
  let pb = 0;
  for (;;) {
    if (pa === bytesA.length && ia < a.length) {
      bytesA.length = 0;
      pa = 0;
      ia = bytesAt(a, ia, bytesA);
    }
    if (pb === bytesB.length && ib < b.length) {
      bytesB.length = 0;
      pb = 0;
      ib = bytesAt(b, ib, bytesB);
    }
    const endA = pa === bytesA.length;
    const endB = pb === bytesB.length;
    if (endA || endB) return endA && endB ? 0 : endA ? -1 : 1;
    const d = bytesA[pa++]! - bytesB[pb++]!;
    if (d !== 0) return d < 0 ? -1 : 1;
  }
}

/** `text` with ASCII lower case folded to upper case, as toupper(3) in the C locale (`sort -f`, `uniq -i`, `join -i`). */
export function foldCase(text: string): string {
  return text.replace(/[a-z]+/g, (run) => run.toUpperCase());
}

/** The number at the start of `text` as GNU `sort -n` reads it: blanks, an optional `-`, digits, an optional `.` and digits. */
function numberOf(text: string): { negative: boolean; int: string; frac: string } {
  const m = /^[ \t\n]*(-?)(\d*)(?:\.(\d*))?/.exec(text)!;
  const int = m[2]!.replace(/^0+/, "");
  const frac = (m[3] ?? "").replace(/0+$/, "");
  return { negative: m[1] === "-" && (int !== "" || frac !== ""), int, frac };
}

/**
 * Compares the numbers at the start of `a` and `b` as GNU `sort -n`
 * (strnumcmp in the C locale): leading blanks, an optional `-` (no `+`),
 * digits and a `.` fraction, compared exactly (no float rounding); no
 * exponent (`1e3` is 1); no number is 0 (`-0`, `abc`, `+3`). -1, 0 or 1.
 */
export function compareNumbers(a: string, b: string): number {
  const x = numberOf(a);
  const y = numberOf(b);
  if (x.negative !== y.negative) return x.negative ? -1 : 1;
  let d = x.int.length - y.int.length;
  if (d === 0) d = x.int < y.int ? -1 : x.int > y.int ? 1 : 0;
  if (d === 0) d = x.frac < y.frac ? -1 : x.frac > y.frac ? 1 : 0;
  const sign = d < 0 ? -1 : d > 0 ? 1 : 0;
  return x.negative ? -sign : sign;
}

/**
 * `sort -u`: the first line of each run of lines that `compare` (the key
 * comparison, without the last-resort one) finds equal, as GNU sort keeps
 * the first of them in input order.
 */
export function uniqueRuns(lines: readonly string[], compare: (a: string, b: string) => number): string[] {
  const out: string[] = [];
  for (const line of lines) if (out.length === 0 || compare(out[out.length - 1]!, line) !== 0) out.push(line);
  return out;
}

/** `sort -c`: whether a line comparing `order` to the one before it is out of order (with `-u`, equal lines are too). */
export function disorder(order: number, unique: boolean): boolean {
  return unique ? order >= 0 : order > 0;
}

/**
 * sed's `s///` with a number and/or `g`: the matches of `regex` (global) in
 * `space`, found by `scan` (just-bash's GNU-style scanner, which calls back
 * with each match and its groups), replaced from the `nth` (1 if none) on —
 * only that one without `g`, every later one too with it (POSIX; GNU sed
 * 4.9: `echo aaaa | sed 's/a/x/2g'` is `axxx`). `null` when fewer than
 * `nth` matches: no substitution was made (for `t` and the `p` flag).
 */
export function sedSubstitute(
  space: string,
  regex: RegExp,
  nth: number | undefined,
  global: boolean,
  replace: (match: string, groups: string[]) => string,
  scan: (text: string, regex: RegExp, each: (match: string, groups: string[]) => string) => string,
): string | null {
  const first = nth !== undefined && nth > 0 ? nth : 1;
  let count = 0;
  let made = false;
  const out = scan(space, regex, (match, groups) => {
    count++;
    if (count < first || (!global && count > first)) return match;
    made = true;
    return replace(match, groups);
  });
  return made ? out : null;
}
