/**
 * Issue 20, twenty-third attack run (scout of fixes): now that failglob ends a shell (a70b280), the parent's
 * `shopt` options reaching a child `bash -c` / `bash script` end scripts bash would run whole.
 * Tried: `shopt -s failglob; bash -c 'echo *.zz; echo in'`, `bash s.sh` with the same text, and `shopt -s nullglob; bash -c 'echo [*.zz]'`, against bash 5.2.
 * Held: the parent's own failglob behaviour (fix23 test).
 * Found: a new bash starts with its options off (`*.zz`, `in`, `[*.zz]`); ours inherits them:
 *   the child prints `no match` and stops (status 1), nullglob empties `[*.zz]`.
 * Suggested fix: start `bash`/`sh` children with default shopt options (only exported variables and the
 *   environment cross), as bash does.
 * Fixed: `bash`/`sh` (`-c`, a file, stdin) run their text with bash 5.2's starting `shopt` options and BASHOPTS
 *   to match (src/backends/worker-shell/isolate/shell-options.ts, `newShellShopt`; exported variables still
 *   cross), and the child's `shopt` no longer changes the caller's (it shared one options object). A script run
 *   by its path (`./s`) starts with default `shopt` and `set -o` options too (`newShell`). Siblings in
 *   test/workers/fix23/shell-failglob-siblings.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const cases: [string, string][] = [
  ["shopt -s failglob; bash -c 'echo *.zz; echo in'; echo after $?", "*.zz\nin\nafter 0\n"],
  ["shopt -s failglob; echo 'echo *.zz; echo in' > s.sh; bash s.sh; echo after $?", "*.zz\nin\nafter 0\n"],
  ["shopt -s nullglob; bash -c 'echo [*.zz]'", "[*.zz]\n"],
];

it("a child bash starts with its shopt options off, as bash 5.2", async () => {
  const out = await shellCases({}, cases.map(([command]) => command), { collect: (_ws, _c, r) => [r.stdout, r.stderr, r.exitCode] });
  expect(out).toEqual(cases.map(([, stdout]) => [stdout, "", 0]));
});
