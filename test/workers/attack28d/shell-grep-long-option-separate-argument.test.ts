/**
 * Issue 20, twenty-eighth attack run: grep's long options that take an argument refuse it as the next word —
 * `--include '*.ts'`, `--exclude-dir node_modules`, `--exclude '*.md'`, `--max-count 1` are
 * `grep: unrecognized option '--include'` with status 1 (GNU's "no match" status, not its usage status 2); GNU grep
 * 3.8 (getopt_long) takes the argument from the next word as it does from `--include=…`. So
 * `grep -rq TODO --include '*.md' . && echo found || echo none` says `none`, and `grep -rn X --include "*.ts" .`
 * prints nothing, exit 1 — forms agents write as often as the `=` form.
 * Tried: side by side with GNU grep 3.8 — `--include PAT`, `--exclude-dir DIR`, `--exclude PAT`, `--max-count N`,
 * before and after the pattern and the operands, with `-q`, `-l`, `-n`.
 * Held: the `=` forms (`--include=*.ts`, `--exclude-dir={node_modules,.git}`), `--regexp PAT` (separate word),
 * `-m1`, `-e P -e Q`, `-f FILE`.
 * Found (medium — an ordinary option form fails with the "no match" status, so `-q` tests take the wrong branch;
 * 2 of 2 runs).
 * Suggested fix: the grep option reader (src/backends/worker-shell/isolate/grep-gnu.ts `option`, and just-bash's
 * parser where it rejects the long name): for a long option that requires an argument (`--include`, `--exclude`,
 * `--exclude-dir`, `--exclude-from`, `--max-count`, `--context`, `--after-context`, `--before-context`, `--file`,
 * `--label`, `--binary-files`, `--color` takes none) take the next word when no `=` is given; an unknown long option
 * is status 2, as GNU.
 *
 * Fixed: a grep long option that requires an argument (--regexp, --file, --include, --exclude, --exclude-dir,
 * --exclude-from, --max-count, --after-context, --before-context, --context, --label, --binary-files, …) takes the
 * next word when it has no `=`, a cluster ends at -e/-f/-m/-A/-B/-C, and an unknown option is GNU's refusal with
 * `Usage:`, status 2 (src/backends/worker-shell/isolate/option-words.ts, scripts/gen-shell.mjs OP_PATCHES; fixer OP).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const tree = {
  dirs: ["src", "node_modules/x"],
  files: { "src/a.ts": "import a\n// TODO x\n", "README.md": "TODO y\n", "node_modules/x/i.js": "// TODO v\n" },
};

it("--include PAT, --exclude-dir DIR and --max-count N take the next word, as GNU grep", async () => {
  const out = await shellCases(tree, [
    "grep -rn TODO --include '*.ts' .; echo rc=$?",
    "grep -rln TODO --exclude-dir node_modules . | sort",
    "grep -rq TODO --include '*.md' . && echo found || echo none",
    "grep --max-count 1 -n TODO README.md; echo rc=$?",
  ]);
  expect(out).toEqual([
    // Was: "rc=1\n", "grep: unrecognized option '--include'\n".
    ["grep -rn TODO --include '*.ts' .; echo rc=$?", "./src/a.ts:2:// TODO x\nrc=0\n", ""],
    // Was: "", "grep: unrecognized option '--exclude-dir'\n".
    ["grep -rln TODO --exclude-dir node_modules . | sort", "./README.md\n./src/a.ts\n", ""],
    // Was: "none\n", "grep: unrecognized option '--include'\n".
    ["grep -rq TODO --include '*.md' . && echo found || echo none", "found\n", ""],
    // Was: "rc=1\n", "grep: unrecognized option '--max-count'\n".
    ["grep --max-count 1 -n TODO README.md; echo rc=$?", "1:TODO y\nrc=0\n", ""],
  ]);
});
