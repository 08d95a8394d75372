/**
 * Issue 20, twenty-sixth attack run: awk ignores RS — records are always lines. `BEGIN { RS = ";" }`, `-v RS=';'`
 * and an `RS=';'` operand all leave `a;b;c` one record, and POSIX paragraph mode (`RS = ""`: records separated by
 * blank lines, newline always a field separator, leading/trailing newlines skipped) reads every line, blank ones
 * included, as a record — the standard way to process `key: value` blocks gives one record per line and NF 0 for
 * the blank ones. No error: the program just computes something else.
 * Tried: side by side with GNU awk 5.2.1 (mawk agrees on POSIX RS) — RS one character set in BEGIN, by -v and by an
 * operand; RS="" with the default FS and FS="\n"/":"; leading and trailing blank lines; other variables set the same
 * three ways (FS, OFS, ORS, v).
 * Held: FS, OFS, ORS and plain variables from BEGIN, -v and operands (fix24/shell-awk).
 * Found (medium — silently wrong records, exit 0; 2 of 2 runs).
 * Suggested fix: split awk's input into records by RS as POSIX: one character → that character; "" → paragraph mode
 * (runs of blank lines separate, leading newlines skipped, `\n` also separates fields whatever FS is); read RS when
 * each record is taken, so BEGIN, -v and operand assignments apply. (A regex RS is a gawk extension, not asked.)
 * Fixed: awk's input is one reader (src/backends/worker-shell/isolate/awk.ts AwkInput, patched in by
 * scripts/gen-shell.mjs, entries `// SE`) that takes each record by RS when it is read: one character, "" paragraph
 * mode (leading newlines skipped, blank-line runs separate; `__awk.fields` adds newline as a field separator when FS
 * is not " "), a longer RS as an ERE (gawk/mawk); RS is a special variable (default "\n") that BEGIN, -v and operands
 * set. Siblings (an RS changed between records, an ERE RS, FS=":" in paragraph mode) in
 * test/workers/fix26/shell-awk-records-options.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("awk splits records by RS, with POSIX paragraph mode for RS=\"\"", async () => {
  const out = await shellCases({}, [
    "awk 'BEGIN { RS = \";\" } { print NR \":\" $0 }' <<< 'a;b;c'",
    "printf 'k1=v1;k2=v2;' | awk -v RS=';' -F= '{ print $2 }'",
    "printf 'a;b' | awk '{ print }' RS=';'",
    "printf 'a b\\nc\\n\\nd\\n' | awk 'BEGIN { RS = \"\" } { print NR \": \" NF }'",
    "printf '\\n\\nname: x\\nage: 1\\n\\n\\n\\nname: y\\nage: 2\\n\\n' | awk 'BEGIN { RS = \"\"; FS = \"\\n\" } { print NR, $1 }'",
  ]);
  expect(out).toEqual([
    // Was: "1:a;b;c\n".
    ["awk 'BEGIN { RS = \";\" } { print NR \":\" $0 }' <<< 'a;b;c'", "1:a\n2:b\n3:c\n\n", ""],
    ["printf 'k1=v1;k2=v2;' | awk -v RS=';' -F= '{ print $2 }'", "v1\nv2\n", ""],
    ["printf 'a;b' | awk '{ print }' RS=';'", "a\nb\n", ""],
    // Was: "1: 2\n2: 1\n3: 0\n4: 1\n".
    ["printf 'a b\\nc\\n\\nd\\n' | awk 'BEGIN { RS = \"\" } { print NR \": \" NF }'", "1: 3\n2: 1\n", ""],
    ["printf '\\n\\nname: x\\nage: 1\\n\\n\\n\\nname: y\\nage: 2\\n\\n' | awk 'BEGIN { RS = \"\"; FS = \"\\n\" } { print NR, $1 }'", "1 name: x\n2 name: y\n", ""],
  ]);
});
