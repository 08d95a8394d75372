/**
 * Issue 20, twenty-ninth attack run: `find -exec … \;` replaces `{}` only when it is a whole argument; GNU findutils
 * replaces every `{}` inside an argument too. So the common rename `find src -name '*.ts' -exec mv {} {}.bak \;`
 * moves every file onto one file named `{}.bak` in the working directory — all but the last are lost, exit 0 — and
 * `-exec cp {} {}.orig \;`, `-exec sh -c 'echo {}' \;` act on the literal `{}`.
 * Tried: side by side with GNU findutils 4.9 in a temp dir — `-exec mv {} {}.bak \;`, `-exec cp {} {}.orig \;`,
 * `-exec echo x{}y \;`, `-exec sh -c 'echo {}' \;`, `-exec echo {}.bak {} \;`, `-exec echo pre-{} +`.
 * Held: a whole `{}` argument with `\;` and `+`; `-exec … {} +` batching; `-exec sh -c '…' sh {} +`; the loud
 * refusal of `pre-{} +` (status 1; GNU's message differs); xargs -I{} inside arguments.
 * Found (high — data lost silently in a common rename/backup form; 2 of 2 runs).
 * Suggested fix: src/shell/generated/core.ts (scripts/gen-shell.mjs) find's `-exec`/`-ok` runner: build each
 * argument with `R.replaceAll("{}", path)` (every occurrence, as GNU) instead of `R === "{}" ? path : R`.
 *
 * Fixed: find's `-exec … \;` runner builds each argument with every `{}` replaced by the path (as GNU), and `-exec` is
 * parsed as GNU parses it (`+` ends the command only after an argument holding `{}`, which must be a lone last `{}`, with
 * GNU's messages) — src/backends/worker-shell/isolate/find-exec.ts, scripts/gen-shell.mjs entries marked `// FX`;
 * siblings in test/workers/fix29/shell-find-exec.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const tree = { dirs: ["src/lib"], files: { "src/a.ts": "A\n", "src/b.ts": "B\n", "src/lib/c.ts": "C\n" } };

it("find -exec … \\; replaces {} inside an argument, as GNU find", async () => {
  const out = await shellCases(tree, [
    "find src -name '*.ts' -exec mv {} {}.bak \\; ; find . | sort; cat src/*.bak src/lib/*.bak",
    "find src -name '*.ts' -exec cp {} {}.orig \\; ; find . -type f | sort",
    "find src -name '*.ts' -exec echo x{}y \\; | sort",
    "find src -name '*.ts' -exec sh -c 'echo {}' \\; | sort",
  ]);
  expect(out).toEqual([
    [
      "find src -name '*.ts' -exec mv {} {}.bak \\; ; find . | sort; cat src/*.bak src/lib/*.bak",
      // Was: ".\n./src\n./src/lib\n./{}.bak\n" and cat's "No such file" errors (A and B lost).
      ".\n./src\n./src/a.ts.bak\n./src/b.ts.bak\n./src/lib\n./src/lib/c.ts.bak\nA\nB\nC\n",
      "",
    ],
    [
      "find src -name '*.ts' -exec cp {} {}.orig \\; ; find . -type f | sort",
      // Was: "./src/a.ts\n./src/b.ts\n./src/lib/c.ts\n./{}.orig\n".
      "./src/a.ts\n./src/a.ts.orig\n./src/b.ts\n./src/b.ts.orig\n./src/lib/c.ts\n./src/lib/c.ts.orig\n",
      "",
    ],
    // Was: "x{}y\nx{}y\nx{}y\n".
    ["find src -name '*.ts' -exec echo x{}y \\; | sort", "xsrc/a.tsy\nxsrc/b.tsy\nxsrc/lib/c.tsy\n", ""],
    // Was: "{}\n{}\n{}\n".
    ["find src -name '*.ts' -exec sh -c 'echo {}' \\; | sort", "src/a.ts\nsrc/b.ts\nsrc/lib/c.ts\n", ""],
  ]);
});
