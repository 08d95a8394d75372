/**
 * Issue 20, run 29, fixer FX: find's `-exec` beside the attack tests test/workers/attack29f/shell-find-exec-*.test.ts,
 * each case checked against GNU findutils 4.9 (LC_ALL=C) in a temp dir with the same tree: `{}` anywhere inside any
 * argument of `-exec … \;`, the command's status as the test's value (in order, short-circuiting, with -prune, -print0,
 * -printf, -delete, `!`, -o), find's status (0 when an `-exec … \;` fails, 1 when an `-exec … {} +` batch fails), `+`
 * as a word unless it follows `{}`, GNU's messages for a bad `-exec`, a `$&` in a file name kept as it is.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const tree = {
  dirs: ["src/lib"],
  files: { "src/a.ts": "// TODO a\n", "src/b.ts": "B\n", "src/lib/c.ts": "// TODO c\n", "e.txt": "", "src/x$&y": "" },
};

it("find -exec as GNU findutils 4.9", async () => {
  const out = await shellCases(tree, [
    "find src -type f -exec sh -c 'echo \"<$1>\"' _ {} \\; | sort",
    "find src/a.ts -exec echo {} {} x{}{} {}/ \\;",
    "find src -type f -exec false \\; ; echo \"rc=$?\"",
    "find src -type f -exec false {} + ; echo \"rc=$?\"",
    "find src -type f -exec sh -c 'exit 3' _ {} + ; echo \"rc=$?\"",
    "find src -exec echo pre-{} + ; echo \"rc=$?\"",
    "find src -exec echo {} x {} + ; echo \"rc=$?\"",
    "find src -maxdepth 0 -exec echo a + b {} +",
    "find src -maxdepth 0 -exec echo + \\;",
    "find src -exec ; echo \"rc=$?\"",
    "find src -exec \\; ; echo \"rc=$?\"",
    "find src -name lib -prune -o -type f -exec grep -q TODO {} \\; -print",
    "find src -type f -exec grep -q TODO {} \\; -print0 | tr '\\0' '\\n' | sort",
    "find src -type f \\( -exec grep -q TODO {} \\; -o -print \\) | sort",
    "find src/a.ts src/b.ts -exec echo A {} \\; -exec echo B {} \\;",
    "find src/a.ts src/b.ts -print -exec echo X {} \\;",
    "find src/a.ts src/b.ts -name 'a*' -exec echo ran {} \\;",
    "find src/b.ts ! -exec grep -q TODO {} \\; -exec echo not {} \\;",
    "find src -type f -exec grep -q TODO {} \\; -delete; find . -type f | sort",
    "find src -type f -exec grep -q TODO {} \\; -printf '%f\\n' | sort",
    "find src -name 'x*' -exec echo {}.bak \\;",
    "find src -type f -exec grep -q TODO {} + -print | sort",
    "find src/a.ts -exec echo {} \\; -o -exec echo never {} \\;",
  ]);
  expect(out).toEqual([
    ["find src -type f -exec sh -c 'echo \"<$1>\"' _ {} \\; | sort", "<src/a.ts>\n<src/b.ts>\n<src/lib/c.ts>\n<src/x$&y>\n", ""],
    ["find src/a.ts -exec echo {} {} x{}{} {}/ \\;", "src/a.ts src/a.ts xsrc/a.tssrc/a.ts src/a.ts/\n", ""],
    ["find src -type f -exec false \\; ; echo \"rc=$?\"", "rc=0\n", ""],
    ["find src -type f -exec false {} + ; echo \"rc=$?\"", "rc=1\n", ""],
    ["find src -type f -exec sh -c 'exit 3' _ {} + ; echo \"rc=$?\"", "rc=1\n", ""],
    ["find src -exec echo pre-{} + ; echo \"rc=$?\"", "rc=1\n", "find: In '-exec ... {} +' the '{}' must appear by itself, but you specified 'pre-{}'\n"],
    ["find src -exec echo {} x {} + ; echo \"rc=$?\"", "rc=1\n", "find: Only one instance of {} is supported with -exec ... +\n"],
    ["find src -maxdepth 0 -exec echo a + b {} +", "a + b src\n", ""],
    ["find src -maxdepth 0 -exec echo + \\;", "+\n", ""],
    ["find src -exec ; echo \"rc=$?\"", "rc=1\n", "find: missing argument to `-exec'\n"],
    ["find src -exec \\; ; echo \"rc=$?\"", "rc=1\n", "find: invalid argument `;' to `-exec'\n"],
    ["find src -name lib -prune -o -type f -exec grep -q TODO {} \\; -print", "src/a.ts\n", ""],
    ["find src -type f -exec grep -q TODO {} \\; -print0 | tr '\\0' '\\n' | sort", "src/a.ts\nsrc/lib/c.ts\n", ""],
    ["find src -type f \\( -exec grep -q TODO {} \\; -o -print \\) | sort", "src/b.ts\nsrc/x$&y\n", ""],
    ["find src/a.ts src/b.ts -exec echo A {} \\; -exec echo B {} \\;", "A src/a.ts\nB src/a.ts\nA src/b.ts\nB src/b.ts\n", ""],
    ["find src/a.ts src/b.ts -print -exec echo X {} \\;", "src/a.ts\nX src/a.ts\nsrc/b.ts\nX src/b.ts\n", ""],
    ["find src/a.ts src/b.ts -name 'a*' -exec echo ran {} \\;", "ran src/a.ts\n", ""],
    ["find src/b.ts ! -exec grep -q TODO {} \\; -exec echo not {} \\;", "not src/b.ts\n", ""],
    ["find src -type f -exec grep -q TODO {} \\; -delete; find . -type f | sort", "./e.txt\n./src/b.ts\n./src/x$&y\n", ""],
    ["find src -type f -exec grep -q TODO {} \\; -printf '%f\\n' | sort", "a.ts\nc.ts\n", ""],
    ["find src -name 'x*' -exec echo {}.bak \\;", "src/x$&y.bak\n", ""],
    ["find src -type f -exec grep -q TODO {} + -print | sort", "src/a.ts\nsrc/b.ts\nsrc/lib/c.ts\nsrc/x$&y\n", ""],
    ["find src/a.ts -exec echo {} \\; -o -exec echo never {} \\;", "src/a.ts\n", ""],
  ]);
});

it("find refuses a -prune reached after an -exec … \\; test, and keeps -ok/-execdir/-quit loud", async () => {
  const out = await shellCases(tree, [
    "find src -type d -exec test -e {}/c.ts \\; -prune -o -print; echo \"rc=$?\"",
    "find src -name lib -prune -o -print -exec true \\; | sort; echo \"rc=$?\"",
    "find src -ok echo {} \\; ; echo \"rc=$?\"",
    "find src -execdir echo {} \\; ; echo \"rc=$?\"",
    "find src -exec echo {} \\; -quit; echo \"rc=$?\"",
  ]);
  expect(out).toEqual([
    // GNU prints src, src/a.ts, src/b.ts, src/x$&y (src/lib pruned); here -prune is decided while walking, before the commands run.
    ["find src -type d -exec test -e {}/c.ts \\; -prune -o -print; echo \"rc=$?\"", "rc=1\n", "find: -prune after an -exec ... ; test is not supported by this shell\n"],
    ["find src -name lib -prune -o -print -exec true \\; | sort; echo \"rc=$?\"", "src\nsrc/a.ts\nsrc/b.ts\nsrc/x$&y\nrc=0\n", ""],
    // GNU asks on stderr for each (-ok), runs in each file's directory (-execdir), stops after the first (-quit).
    ["find src -ok echo {} \\; ; echo \"rc=$?\"", "rc=1\n", "find: unknown predicate '-ok'\n"],
    ["find src -execdir echo {} \\; ; echo \"rc=$?\"", "rc=1\n", "find: unknown predicate '-execdir'\n"],
    ["find src -exec echo {} \\; -quit; echo \"rc=$?\"", "rc=1\n", "find: unknown predicate '-quit'\n"],
  ]);
});
