/**
 * Issue 20, twenty-ninth attack run: `find … -exec CMD {} \; -print` treats `-exec` as always true; GNU find uses the
 * command's exit status as the predicate's value. So `find src -type f -exec grep -q TODO {} \; -print` lists every
 * file, `-exec test -s {} \;` keeps empty files, and `! -exec grep -q … \;` selects nothing.
 * Tried: side by side with GNU findutils 4.9 in a temp dir — `-exec grep -q TODO {} \; -print`, `-exec test -s {}
 * \; -print`, `! -exec grep -q TODO {} \; -print`.
 * Held: `-exec … \;` / `+` as the last action (its output), `-exec … {} +` batching, `-name`/`-type`/`-empty`/`-size`
 * predicates with `-print`.
 * Found (medium — a find-as-filter form silently selects the wrong files; 2 of 2 runs).
 * Suggested fix: src/shell/generated/core.ts (scripts/gen-shell.mjs) find's evaluator: run a `\;` `-exec`/`-ok`
 * while evaluating the expression (in order, short-circuiting with -a/-o/!) and return `exitCode === 0` as its value,
 * instead of collecting it as an action that evaluates true.
 *
 * Fixed: an expression holding an `-exec … \;` is evaluated per entry when the actions run (after the walk, in its
 * order), in GNU's order with -a/-o/! short-circuiting, each command's status the test's value; find's status stays 0 when
 * such a command fails, and a failed `-exec … {} +` batch makes it exit 1; a `-prune` reached only after an `-exec … \;`
 * test is refused — src/backends/worker-shell/isolate/find-exec.ts, scripts/gen-shell.mjs entries marked `// FX`;
 * siblings in test/workers/fix29/shell-find-exec.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const tree = { dirs: ["src/lib"], files: { "src/a.ts": "// TODO a\n", "src/b.ts": "B\n", "src/lib/c.ts": "// TODO c\n", "e.txt": "" } };

it("find -exec … \\; is true only when the command exits 0, as GNU find", async () => {
  const out = await shellCases(tree, [
    "find src -type f -exec grep -q TODO {} \\; -print | sort",
    "find . -type f -exec test -s {} \\; -print | sort",
    "find src -type f ! -exec grep -q TODO {} \\; -print",
  ]);
  expect(out).toEqual([
    // Was: "src/a.ts\nsrc/b.ts\nsrc/lib/c.ts\n".
    ["find src -type f -exec grep -q TODO {} \\; -print | sort", "src/a.ts\nsrc/lib/c.ts\n", ""],
    // Was: "./e.txt\n./src/a.ts\n./src/b.ts\n./src/lib/c.ts\n".
    ["find . -type f -exec test -s {} \\; -print | sort", "./src/a.ts\n./src/b.ts\n./src/lib/c.ts\n", ""],
    // Was: "".
    ["find src -type f ! -exec grep -q TODO {} \\; -print", "src/b.ts\n", ""],
  ]);
});
