/**
 * Issue 20, twenty-ninth attack run: sed reads a backslash inside a bracket expression as an escape, so `[&/\]` (the
 * class of `&`, `/` and `\`, as POSIX and GNU sed 4.9 read it) never closes and the canonical "escape a string for a
 * sed replacement" idiom `sed 's/[&/\]/\\&/g'` fails with `unterminated substitution pattern`, status 1 — its
 * `$( … )` is empty and the `sed -i` that follows (replacing the `url=` line by `url=$esc`) silently writes `url=` into the file, exit 0.
 *
 * Tried: side by side with GNU sed 4.9 under bash 5.2.15 — `s/[&/\]/\\&/g`, `s/[\]/X/`, `s/[]]/X/`, the keyword-escaping
 * form and the escape-then-`sed -i` config edit.
 * Held: the keyword-escaping form `s/[]\/$*.^[]/\\&/g`, `s/[]]/X/`, `s/[\/&]/\\&/g` (the backslash there is before `/`), `s/[/]/_/g`, `/[/]/p`, `s|[|]|_|`, `s,[,],;,`,
 * `s/[^/]*\///`, and about 240 other agent-style scripts (log analysis, CSV, config edits, refactors) byte-identical.
 * Found (high — a config value is replaced by an empty string in the file with exit 0, from the usual escaping idiom;
 * 2 of 2 runs).
 * Suggested fix: in just-bash's sed script parser (the `s` command's delimiter scan and the regex translation,
 * patched by scripts/gen-shell.mjs): inside a bracket expression a backslash is an ordinary character and a `]`
 * right after `[` or `[^` is a member; only the `]` that closes the bracket ends it — and the regex handed on must
 * escape that literal backslash.
 *
 * Fixed: src/backends/worker-shell/isolate/sed-bracket.ts (wired by scripts/gen-shell.mjs, entries `// SB`): the `s`
 * and address delimiter scan reads a bracket expression whole (a backslash and the delimiter are members inside it,
 * `]` first is a member, `[:…:]` `[.….]` `[=…=]` whole), and each bracket is translated to a JavaScript class with
 * escaped members (GNU's `\n` `\t` … still escapes there) around just-bash's own BRE/ERE conversion; `\%re%`
 * addresses are read and -E addresses are EREs. Siblings: test/workers/fix29/shell-sed-bracket.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("a backslash inside a bracket expression is a literal member, as GNU sed", async () => {
  const out = await shellCases({ files: { f: "url=old\n" } }, [
    "echo 'a/b&c\\d' | sed 's/[&/\\]/\\\\&/g'",
    "echo 'a\\b' | sed 's/[\\]/X/'",
    "new='https://x.com/a?b=1&c=2'; esc=$(printf '%s' \"$new\" | sed 's/[&/\\]/\\\\&/g'); sed -i \"s/^url=.*/url=$esc/\" f; cat f",
  ]);
  expect(out).toEqual([
    // Was: "", "sed: invalid command: unterminated substitution pattern\n".
    ["echo 'a/b&c\\d' | sed 's/[&/\\]/\\\\&/g'", "a\\/b\\&c\\\\d\n", ""],
    // Was: "", "sed: invalid command: unterminated substitution pattern\n".
    ["echo 'a\\b' | sed 's/[\\]/X/'", "aXb\n", ""],
    // Was: "url=\n" in the file (the escaping sed failed, so the value was empty).
    [
      "new='https://x.com/a?b=1&c=2'; esc=$(printf '%s' \"$new\" | sed 's/[&/\\]/\\\\&/g'); sed -i \"s/^url=.*/url=$esc/\" f; cat f",
      "url=https://x.com/a?b=1&c=2\n",
      "",
    ],
  ]);
});
