/**
 * Issue 20, twenty-eighth attack run: a sed range whose end is a regex (`/start/,/end/`, `N,/end/`) tests the end
 * regex on the line that opened the range, so a start line that also matches the end (`/^## Usage/,/^## /` on
 * `## Usage`) closes the range at once; GNU sed 4.9 (and POSIX) looks for the end only from the next line on. The
 * common "cut a markdown section" forms `sed -n '/^## A/,/^## /p'` print the heading alone, and
 * `sed -i '/^## A/,/^## /d' f.md` deletes only the heading and leaves the section in the file, exit 0.
 * Tried: side by side with GNU sed 4.9 under bash 5.2.15 — `/a/,/a/p`, `/^## A/,/^## /p` and `d`, `-i` on a file,
 * `/start/,/end/p` with `end` on the start line, `2,/./p`, `/b/,/b/d`, `{=;p}` inside such a range, an INI section
 * edit `sed -i '/^\[server\]/,/^\[/s/…/…/'` (left the file unchanged) and a fenced-block delete `/```sh/,/```/d`.
 * Held: `0,/re/` (ends on the first line, as GNU), `/b/,+1p`, `/two/,/three/p` where the start line does not match
 * the end, `1~2d`, `2~3p`, `addr,~N`; awk's `/a/,/b/` (awk does end on the start line, as gawk/mawk).
 * Found (high — `sed -i` leaves a file with the wrong lines and `sed -n` prints the wrong text, silently, in the
 * usual section-extract form; 2 of 2 runs).
 * Suggested fix: in just-bash's sed range matching (patched by scripts/gen-shell.mjs, range state in the sed
 * executor): when the start address matches and the end is a regex, mark the range active and do not test the end
 * on that line (only a line-number end ≤ the start line closes it at once; `0,/re/` keeps testing the first line).
 * Fixed: just-bash's whole range test is replaced (scripts/gen-shell.mjs, entries marked `// SD`) by
 * src/backends/worker-shell/isolate/sed-range.ts, which follows GNU sed 4.9: a regex end is looked for from the line
 * after the start, `0,/re/` may end on line 1, a line-number start passed by `n`/`N` opens its range once, `M` ≤ the
 * start line selects one line, `+N`/`~N` (up to the next multiple after the start)/`first~step`/`$` ends as GNU.
 * Siblings in test/workers/fix28/sed-ranges.test.ts (fixer SD).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const tree = { files: { "f.md": "# T\n## A\nx\n## B\ny\n", "c.ini": "[server]\nhost = localhost\n\n[db]\nhost = db.local\n" } };

it("a regex range end is looked for from the line after the start, as GNU sed", async () => {
  const out = await shellCases(tree, [
    "sed -n '/^## A/,/^## /p' f.md",
    "sed -i '/^## A/,/^## /d' f.md; cat f.md",
    "printf 'a\\nb\\na\\nc\\n' | sed -n '/a/,/a/p'",
    "printf 'start end\\nmid\\nend\\nafter\\n' | sed -n '/start/,/end/p'",
    "printf 'a\\nb\\nc\\n' | sed -n '2,/./p'",
    "sed -i '/^\\[server\\]/,/^\\[/s/^host = .*/host = 0.0.0.0/' c.ini; cat c.ini",
  ]);
  expect(out).toEqual([
    // Was: "## A\n".
    ["sed -n '/^## A/,/^## /p' f.md", "## A\nx\n## B\n", ""],
    // Was: "# T\nx\n## B\ny\n" (only the heading deleted).
    ["sed -i '/^## A/,/^## /d' f.md; cat f.md", "# T\ny\n", ""],
    // Was: "a\na\n".
    ["printf 'a\\nb\\na\\nc\\n' | sed -n '/a/,/a/p'", "a\nb\na\n", ""],
    // Was: "start end\n".
    ["printf 'start end\\nmid\\nend\\nafter\\n' | sed -n '/start/,/end/p'", "start end\nmid\nend\n", ""],
    // Was: "b\n".
    ["printf 'a\\nb\\nc\\n' | sed -n '2,/./p'", "b\nc\n", ""],
    // Was: the file unchanged (the range ended on `[server]`, which matches `^\[`).
    ["sed -i '/^\\[server\\]/,/^\\[/s/^host = .*/host = 0.0.0.0/' c.ini; cat c.ini", "[server]\nhost = 0.0.0.0\n\n[db]\nhost = db.local\n", ""],
  ]);
});
