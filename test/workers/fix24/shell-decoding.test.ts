/**
 * Issue 20, twenty-fourth attack run (scout of fixes, fixer SR): siblings of the two scout24 findings
 * shell-read-builtin-latin1-mojibake and shell-escape-siblings-sed-tr-percent-b.
 *
 * Tried: read with -n/-N/-d ''/-a/-r, IFS of a non-ASCII character, backslash escapes, a group's redirect, `<&3` and
 *   `-u 3`, a here-document, an input without a final newline; mapfile/readarray from a file and a here-string; sed's
 *   \a \f \v and numeric escapes in the regex, an address and the replacement; tr octal ranges and escapes; printf
 *   %b \E, the 'c argument form of a code point past U+FFFF and %c.
 * Held (already right before this fix): read -u and <&N (an open descriptor's input is text), ASCII input.
 * Found: the finding's causes reached these too (read -n 1 of é took one byte; %c of é wrote c3 83; the 'c form of an
 *   emoji gave its high surrogate).
 * Fixed: see the two scout24 tests' Fixed: paragraphs (isolate/read-input.ts, isolate/escapes.ts).
 *
 * Every expected stdout is what bash 5.2.15 (its builtins), GNU sed 4.9 and coreutils 9.1 tr/od printed for the same
 * command in an empty directory on Linux (C.UTF-8).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const readCases: [string, string][] = [
  ["read -n 1 x <<< éa; echo \"$x\" | od -An -tx1", " c3 a9 0a\n"],
  ["printf 'éa\\n' | { read -n 1 x; cat; } | od -An -tx1", " 61 0a\n"],
  ["read -N 2 x <<< éüx; echo \"$x\" | od -An -tx1", " c3 a9 c3 bc 0a\n"],
  ["printf 'é\\nü\\n' > g; { read a; read b; } < g; echo \"$a$b\" | od -An -tx1", " c3 a9 c3 bc 0a\n"],
  ["printf 'é\\nü\\n' > g; exec 3< g; read x <&3; read y <&3; echo \"$x$y\" | od -An -tx1", " c3 a9 c3 bc 0a\n"],
  ["printf 'é\\nü\\n' > g; exec 3< g; read -u 3 x; read -u 3 y; echo \"$x$y\" | od -An -tx1", " c3 a9 c3 bc 0a\n"],
  ["printf 'é\\nü\\n' > g; while read -r l; do echo \"${#l}\"; done < g", "1\n1\n"],
  ["printf 'a\\xe9b\\nz\\n' | { read -r x; echo \"$x\"; cat; } | od -An -tx1", " 61 e9 62 0a 7a 0a\n"],
  ["read x <<E\né\nE\necho \"${#x}\"", "1\n"],
  ["readarray -t a <<< $'é\\nü'; printf '%s|' \"${a[@]}\" | od -An -tx1", " c3 a9 7c c3 bc 7c\n"],
  ["printf 'é\\nü\\n' > g; mapfile a < g; printf '%s' \"${a[1]}\" | od -An -tx1", " c3 bc 0a\n"],
  ["IFS=é read a b <<< 1é2; echo \"$a,$b\"", "1,2\n"],
  ["read -a arr <<< 'é ü'; echo \"${arr[1]} ${#arr[0]}\"", "ü 1\n"],
  ["printf 'a\\\\é\\n' | { read x; echo \"$x\"; }", "aé\n"],
  ["printf 'a\\\\\\nb\\n' | { read x; echo \"$x\"; }", "ab\n"],
  ["printf 'é\\0z' | { read -r -d '' x; echo \"$x\"; }", "é\n"],
  ["printf '%s\\n' ab cd | while IFS= read -r l; do echo \"[$l]\"; done", "[ab]\n[cd]\n"],
  ["printf 'ab\\n' | { read -n 1 x; read y; echo \"$x $y\"; }", "a b\n"],
  ["printf '\\xc0\\xc1\\n' | { read -N 1 x; printf %s \"$x\" | od -An -tx1; }", " c0\n"],
  ["printf 'é' | { read x; echo \"$? $x\"; }", "1 é\n"],
];

const escapeCases: [string, string][] = [
  ["printf 'a\\n' | sed 's/a/\\a\\f\\v/' | od -An -tx1", " 07 0c 0b 0a\n"],
  ["printf 'a\\n' | sed 's/a/\\x26\\x5c/'", "&\\\n"],
  ["printf 'a\\n' | sed 's/a/\\d065\\o102\\cA/' | od -An -tx1", " 41 42 01 0a\n"],
  ["printf 'a\\n' | sed 's/a/\\d300\\o777/' | od -An -tx1", " 2c ff 0a\n"],
  ["printf 'a\\n' | sed 's/a/\\xc3\\xa9/'", "é\n"],
  ["printf 'é\\n' | sed 's/\\xc3\\xa9/E/'", "E\n"],
  ["printf 'a.a\\n' | sed 's/\\x2e/X/g'", "XXX\n"],
  ["printf 'ab\\n\\xc0\\n' | sed -n '/\\xc0/p' | od -An -tx1", " c0 0a\n"],
  ["printf 'a\\n' | sed 's/a/\\xg/'", "xg\n"],
  ["printf 'a\\n' | sed 's/a/\\\\x41/'", "\\x41\n"],
  ["printf 'a\\n' | sed 's/a/\\\\n/; s/$/x\\\\\\\\y/'", "\\nx\\\\y\n"],
  ["printf 'hello' | tr 'a-z' '\\101-\\132'", "HELLO"],
  ["printf 'abc' | tr '\\141-\\143' X", "XXX"],
  ["printf '\\xc0\\xc1' | tr '\\300-\\301' ab", "ab"],
  ["printf 'a' | tr a '\\n' | od -An -tx1", " 0a\n"],
  ["printf 'a\\\\b' | tr '\\\\' x", "axb"],
  ["printf 'a\\tb' | tr '\\t\\142' '_B'", "a_B"],
  ["printf '%b' '\\E[0m\\e' | od -An -tx1", " 1b 5b 30 6d 1b\n"],
  ["printf '%d %d %x\\n' \"'é\" \"'😀\" \"'A\"", "233 128512 41\n"],
  ["printf '%c' é | od -An -tx1", " c3\n"],
  ["printf '%c%c' a 😀 | od -An -tx1", " 61 f0\n"],
  ["x=$'\\xc0'; printf '%c' \"$x\" | od -An -tx1", " c0\n"],
];

it("read, mapfile and readarray read characters from every kind of stdin, as bash 5.2", async () => {
  const out = await shellCases({}, readCases.map(([command]) => command), { collect: (_ws, _c, r) => [r.stdout, r.stderr, r.exitCode] });
  expect(out).toEqual(readCases.map(([, stdout]) => [stdout, "", 0]));
});

it("sed, tr and printf escapes make the bytes GNU sed 4.9, coreutils 9.1 and bash 5.2 make", async () => {
  const out = await shellCases({}, escapeCases.map(([command]) => command), { collect: (_ws, _c, r) => [r.stdout, r.stderr, r.exitCode] });
  expect(out).toEqual(escapeCases.map(([, stdout]) => [stdout, "", 0]));
});
