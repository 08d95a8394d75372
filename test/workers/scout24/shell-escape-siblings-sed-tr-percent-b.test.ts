/**
 * Issue 20, twenty-fourth attack run (scout of fixes): 3aca56d makes printf (format, %b), echo -e, $'…', awk strings
 * and find -printf write an escape's byte; the other escape readers in the shell were left as they were.
 * Tried against bash 5.2.15 / GNU sed 4.9 / coreutils 9.1 tr: the same bytes through `sed 's/…/\xHH/'`, `\oNNN`,
 *   `tr` octal sets, printf `%b` with `\e`, and `printf '%d' "'$x"` of a byte (bash's character-code form).
 * Held: printf/%b/echo -e/$'…'/awk/find -printf bytes (fix24 tests), `\u`, `\0NNN`, `\c`, base64/md5sum/gzip/split/
 *   head -c/tail -c/tee/xargs of those bytes, `${x^^}`, `${x:1:1}`, `${x/…/…}` on them, `tr $'\xe9' E`.
 * Found (low: GNU escapes give literal text or the wrong byte): `sed 's/a/\x41/'` writes `x41` (GNU `A`), `\xc0` writes
 *   `xc0` (GNU byte c0), `\o300` writes `o300`, and `s/\xc0/X/` leaves the byte; `tr a '\101'` writes `1` (GNU `A`),
 *   `tr '\141' b` changes nothing, `tr '\300' x` does not match byte c0; `printf '%b' '\e'` writes `\e` (bash 1b, as the
 *   format does); `printf '%d' "'$x"` with `x=$'\xc0'` is 56512 (the escape's UTF-16 unit; bash 192).
 * Suggested fix: route sed's `\xHH`/`\oNNN`/`\dNNN` (replacement and regex) and tr's `\NNN` through escapes.ts
 *   byteChar (tr's octal is a byte, not `\1` then digits); add `\e`/`\E` to %b; map U+DC80…U+DCFF to its byte in
 *   printf's `'c` argument form.
 * Fixed (fixer SR): src/backends/worker-shell/isolate/escapes.ts (sedPattern, sedReplacement, trEscape, trRange,
 *   charCode, firstByte), called through SOURCE_PATCHES in scripts/gen-shell.mjs (entries "… (SR)"): sed's `\xHH`
 *   (1-2 digits), `\oNNN`, `\dNNN`, `\cX` make their byte in an s regex, an address and a replacement (a `&` or `\`
 *   made so is literal; \a \f \v in the replacement; `\\` in a replacement stays a backslash, so `s/a/\\n/` writes `\n`);
 *   tr's `\NNN` is a byte, also as a range end (`\101-\132`), with \a \b \f \v; printf %b takes `\e`/`\E`; the
 *   `'c` form gives the code point (a byte escape its byte: 192), and %c writes the first byte (`%c` of é is c3, was
 *   c3 83). Siblings in test/workers/fix24/shell-decoding.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const cases: [string, string][] = [
  ["printf 'a\\n' | sed 's/a/\\x41/'", "A\n"],
  ["printf 'a\\n' | sed 's/a/\\xc0/' | od -An -tx1", " c0 0a\n"],
  ["printf 'a\\n' | sed 's/a/\\o300/' | od -An -tx1", " c0 0a\n"],
  ["printf '\\xc0\\n' | sed 's/\\xc0/X/'", "X\n"],
  ["printf 'a' | tr a '\\101'", "A"],
  ["printf 'a' | tr '\\141' b", "b"],
  ["printf '\\xc0' | tr '\\300' x", "x"],
  ["printf '%b' '\\e' | od -An -tx1", " 1b\n"],
  ["x=$'\\xc0'; printf '%d\\n' \"'$x\"", "192\n"],
];

it("sed and tr escapes and %b's \\e write bytes as GNU/bash do", async () => {
  const out = await shellCases({}, cases.map(([command]) => command), { collect: (_ws, _c, r) => [r.stdout, r.stderr, r.exitCode] });
  expect(out).toEqual(cases.map(([, stdout]) => [stdout, "", 0]));
});
