/**
 * Shell patterns of `find -name`/`-iname`/`-path`/`-ipath`/`-wholename`/`-iwholename` and of grep's
 * `--include`/`--exclude`/`--exclude-dir`, read as glibc's fnmatch(3) reads them with the flags those tools pass
 * (none: no FNM_PATHNAME, FNM_PERIOD or FNM_NOESCAPE — GNU findutils 4.9 `pred_name`/`pred_path`, GNU grep 3.8's
 * `excluded_file_name`) (issue 20, run 34, fixer FL).
 *
 * just-bash turned such a pattern into a regular expression character by character and copied a backslash and
 * what followed it as they were, and a bracket expression up to its first `]`: `\[id\]` became the RE2 source
 * `\\[id\]` (a backslash, then an unclosed class: "Invalid regular expression", nothing found), `a\*b` the source
 * `a\\.*b` (a backslash, then anything), so a literal `[`, `*` or `?` could not be asked for. scripts/gen-shell.mjs
 * replaces that converter (shared by find and grep) with {@link globRegex}, imported as the namespace `__fnmatch`
 * (entries marked `// FL`). Pure: it is bundled into the shell's Dynamic Worker.
 *
 * @module
 */
import { bracket } from "./pattern-match.js";

/** RE2 source that matches no string (a trailing lone `\`: glibc's fnmatch answers FNM_NOMATCH). */
const NOTHING = "[^\\x{0}-\\x{10ffff}]";

/** `c` (one code point) as an RE2 literal: letters, digits, `_` and non-ASCII as they are, anything else escaped. */
function literal(c: string): string {
  return /^[A-Za-z0-9_]$/.test(c) || c.codePointAt(0)! > 0x7f ? c : `\\x{${c.codePointAt(0)!.toString(16)}}`;
}

/**
 * The RE2 source, anchored at both ends, of fnmatch(3) pattern `pattern` with flags 0: `*` any run of characters
 * (a `/` and a leading `.` included), `?` any one character, `[…]` a bracket expression as bash and glibc read it
 * ({@link bracket}: `!`/`^` negates, a leading `]` is a member, `\x` is x, ranges, `[:class:]`; a `[` with no closing
 * `]` is the character `[`), `\x` the character x whatever it is, a trailing lone `\` matches nothing (glibc:
 * "trailing \ loses"); every other character stands for itself. The caller compiles it with the `s` flag (so `*` and
 * `?` match a newline in a name, as fnmatch does), and `i` for -iname/-ipath/-iwholename.
 */
export function globRegex(pattern: string): string {
  let out = "^";
  for (let i = 0; i < pattern.length; ) {
    const c = pattern[i]!;
    if (c === "*") {
      // A run of stars is one `.*`: fewer states, the same language.
      while (pattern[i] === "*") i++;
      out += ".*";
      continue;
    }
    if (c === "?") {
      out += ".";
      i++;
      continue;
    }
    if (c === "[") {
      const b = bracket(pattern, i);
      if (b !== null) {
        out += b.regex;
        i = b.end + 1;
        continue;
      }
      out += literal("[");
      i++;
      continue;
    }
    if (c === "\\") {
      if (i + 1 >= pattern.length) return NOTHING;
      i++;
    }
    const ch = String.fromCodePoint(pattern.codePointAt(i)!);
    out += literal(ch);
    i += ch.length;
  }
  return `${out}$`;
}
