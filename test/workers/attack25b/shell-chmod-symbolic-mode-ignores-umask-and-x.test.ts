/**
 * Issue 20, twenty-fifth attack run: chmod's symbolic modes give more permission than GNU chmod 9.1 with the
 * shell's umask 022 (the umask cp, tar and new files already honour):
 * - with no `u`/`g`/`o`/`a` before the operator the umask is not applied: `chmod 444 f; chmod +w f` makes f 0666 —
 *   group- and world-writable (GNU: 0644); `chmod =rwx f` 0777 (GNU 0755), `chmod -r f` from 0777 0333 (GNU 0311,
 *   with a "new permissions are…" note);
 * - `X` adds execute to a regular file that has none: `chmod 600 f; chmod a+X f` gives 0711 (GNU 0600: X only for a
 *   directory or a file already executable by someone), `chmod 644 f; chmod +X f` 0755 (GNU 0644), so the usual
 *   `chmod -R a+rX tree` makes every data file executable.
 * Tried: numeric modes, u/g/o/a with + - =, copies (o=u, unsupported: "invalid mode"), X on files and directories,
 * s/t bits, -R, --reference (unsupported), and a directory's setgid bit under a 3-digit numeric mode (GNU keeps it;
 * ours clears it — low, not asserted).
 * Held: numeric modes, who-qualified + - = (u+x,g-r; a=r; u=rwx,go=; ug=r,o+w), s and t bits, -R with X on
 * directories and on files that are already executable.
 * Found (medium — files silently made group/world-writable or executable; 2 of 2 runs).
 * Suggested fix: in chmod's symbolic mode parser, mask the bits of a clause without a who by the umask (022), and
 * make X add execute only for a directory or when the mode before the change has any execute bit (GNU mode_adjust).
 * Fixed (fixer SY): chmod's modes follow GNU mode_compile/mode_adjust (src/backends/worker-shell/isolate/mode-expr.ts,
 * chmodMode; scripts/gen-shell.mjs entries `// SY`): a clause without who is masked by the umask 022, X adds execute
 * only to a directory or a file with an execute bit, u/g/o after the operator copy those bits (o=u, go=u-w), a
 * directory keeps its set-ID bits under a numeric mode of fewer than 5 digits (chmod 755 on a 2755 directory: 2755),
 * `chmod -w` from 0777 gives 0577 with GNU's "new permissions are r-xrwxrwx, not r-xr-xr-x" and status 1, and an
 * invalid mode adds GNU's `Try 'chmod --help'` line. Siblings: test/workers/fix25/shell-mode-expr-env.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("chmod symbolic modes without who honour the umask and X skips non-executable files, as GNU chmod", async () => {
  const out = await shellCases({ dirs: ["d"], files: { "f.txt": "hello\n", "d/x.txt": "x\n" } }, [
    "chmod 444 f.txt; chmod +w f.txt; stat -c %a f.txt",
    "chmod 600 f.txt; chmod =rwx f.txt; stat -c %a f.txt",
    "chmod 600 f.txt; chmod a+X f.txt; stat -c %a f.txt",
    "chmod 644 f.txt; chmod +X f.txt; stat -c %a f.txt",
    "chmod -R 700 d; chmod 600 d/x.txt; chmod -R a+rX d; stat -c %a d d/x.txt",
  ]);
  expect(out).toEqual([
    // Was: "666\n".
    ["chmod 444 f.txt; chmod +w f.txt; stat -c %a f.txt", "644\n", ""],
    // Was: "777\n".
    ["chmod 600 f.txt; chmod =rwx f.txt; stat -c %a f.txt", "755\n", ""],
    // Was: "711\n".
    ["chmod 600 f.txt; chmod a+X f.txt; stat -c %a f.txt", "600\n", ""],
    ["chmod 644 f.txt; chmod +X f.txt; stat -c %a f.txt", "644\n", ""],
    // Was: "755\n755\n".
    ["chmod -R 700 d; chmod 600 d/x.txt; chmod -R a+rX d; stat -c %a d d/x.txt", "755\n644\n", ""],
  ]);
});
