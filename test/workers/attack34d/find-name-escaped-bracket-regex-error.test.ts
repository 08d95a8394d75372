/**
 * Issue 20, thirty-fourth attack run: the shell's `find -name`/`-iname`/`-path` fail on a backslash-escaped `[` —
 * the way to find a literal bracketed name, e.g. the dynamic-route directories `app/[id]` of a Next.js / SvelteKit
 * project. `find . -name '\[id\]'` prints `find: Invalid regular expression: /^\\[id\]$/: error parsing regexp:
 * missing closing ]` and finds nothing; `find app -path '*\[id\]*'` the same. GNU findutils 4.9 (fnmatch): `./app/[id]`,
 * and `app/[id]`, `app/[id]/page.tsx`, status 0.
 * Tried: -name, -iname, -path with `\[`/`\]`, `[[]id]`, an escaped `\*` (`-name 'a\*b'` beside `axb`); differential:
 * GNU find on this machine.
 * Also an escaped `*`: `find . -name 'a\*b'` beside a file named `a*b` finds nothing (GNU: `./a*b`).
 * Held: `-name '[[]id]'` (the bracket-class spelling) finds `./app/[id]`; `-name 'a?b'` finds `./a*b` and `./axb`.
 * Found (medium — an agent looking for its route files with the escaped pattern is told nothing exists (and gets a
 * regexp error it cannot fix from the find docs); 2 of 2 runs): see the `Was:` lines.
 * Suggested fix: find's glob-to-regex in the shell (just-bash's find chunk, or src/backends/worker-shell/isolate/
 * walk-operands.ts; the bundle's `case"name"` → its glob-to-regex): read `\x` as the literal x (escaped for RE2) before
 * and inside bracket scanning, as pattern-match.ts's `bracket` does for `case` patterns.
 *
 * Fixed: the glob → RE2 converter find and grep share (just-bash's matchGlob) is replaced by
 * src/backends/worker-shell/isolate/fnmatch.ts `globRegex` (glibc fnmatch(3) with flags 0: `\x` literal, brackets
 * read by pattern-match.ts's `bracket`, an unclosed `[` literal), patched in by scripts/gen-shell.mjs (`// FL`)
 * (issue 20, run 34, fixer FL). Siblings: test/workers/fix34/find-fnmatch-ls-long.test.ts.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("find -name/-iname/-path with an escaped [ match the literal bracket, as GNU find", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/app/[id]", { recursive: true });
    await ws.fs.mkdir("/workspace/app/i", { recursive: true });
    await ws.fs.writeFile("/workspace/app/[id]/page.tsx", "hi\n");
    await ws.fs.writeFile("/workspace/a*b", "");
    await ws.fs.writeFile("/workspace/axb", "");
    const r = await sh(
      ws,
      "find . -name '\\[id\\]'; echo rc=$?; find app -path '*\\[id\\]*' | sort; find . -iname '\\[ID\\]'; echo rc=$?; find . -name 'a\\*b'",
      { cwd: "/workspace" },
    );
    return [r.stdout, r.stderr];
  });
  // Was: ["rc=1\nrc=1\n" (and nothing for a\*b), "find: Invalid regular expression: /^\\\\[id\\]$/: error parsing regexp: missing closing ]: `[id\\]$`\n…"] (one per call)
  expect(out).toEqual(["./app/[id]\nrc=0\napp/[id]\napp/[id]/page.tsx\n./app/[id]\nrc=0\n./a*b\n", ""]);
}, 60000);
