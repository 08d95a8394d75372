/**
 * Issue 20, twenty-seventh attack run: `shopt -s nocaseglob` is ignored for a pattern of one path segment —
 * `echo a*` lists only the lower-case names, `*C` only `ABC`, `?b?` misses `ABC` — while a pattern with a
 * directory part (`dir/*​/f.*` matching `Dir/sub/F.txt`) does ignore case. bash 5.2 matches every segment without
 * regard to case.
 * Tried: side by side with GNU bash 5.2.15 — `a*`, `*C`, `?b?`, `[A]*` (through ls), `dir/*​/f.*` under
 * nocaseglob; nocasematch in `case`, `[[ == ]]` and `[[ =~ ]]`.
 * Held: multi-segment patterns under nocaseglob; nocasematch.
 * Found (low — an option scripts set on purpose silently does nothing for the common one-segment glob; 2 of 2 runs).
 * Suggested fix: in the shell's pathname expansion (just-bash's glob expander, patched by scripts/gen-shell.mjs),
 * pass the nocaseglob flag to the matcher on the path that expands a single-segment pattern in the working
 * directory, as the multi-segment path already does.
 * Fixed: just-bash's glob expander gets `nocaseglob` (scripts/gen-shell.mjs, `// SK`) and compiles every pathname
 * pattern without case (also `!(…)` through leads-l2.ts's matcher, and the globstar route); literal directory names
 * stay exact, as bash. Siblings in test/workers/fix27/shell-glob-printf-sk.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const tree = { files: { ABC: "", Abd: "", abc: "" } };

it("nocaseglob matches a one-segment pattern without regard to case, as bash", async () => {
  const out = await shellCases(tree, [
    "shopt -s nocaseglob; echo a*",
    "shopt -s nocaseglob; echo *C",
    "shopt -s nocaseglob; echo ?b?",
    "shopt -s nocaseglob; ls [A]*",
  ]);
  expect(out).toEqual([
    // Was: "abc\n".
    ["shopt -s nocaseglob; echo a*", "ABC Abd abc\n", ""],
    // Was: "ABC\n".
    ["shopt -s nocaseglob; echo *C", "ABC abc\n", ""],
    // Was: "Abd abc\n".
    ["shopt -s nocaseglob; echo ?b?", "ABC Abd abc\n", ""],
    // Was: "ABC\nAbd\n".
    ["shopt -s nocaseglob; ls [A]*", "ABC\nAbd\nabc\n", ""],
  ]);
});
