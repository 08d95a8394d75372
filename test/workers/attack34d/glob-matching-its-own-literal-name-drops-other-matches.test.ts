/**
 * Issue 20, thirty-fourth attack run: when a file is named exactly like an unquoted glob word (`*.log`, `*`, `?`,
 * `sub/*`), the shell's pathname expansion yields only that one name and drops every other match: with `*.log`,
 * `a.log`, `b.log` in the directory, `rm *.log` removes `*.log` alone and leaves `a.log` and `b.log` (status 0),
 * `for f in *.txt` visits one file, `echo *` prints `*`. bash 5.2.15 expands the pattern against the directory:
 * `rm *.log` removes all three, `echo *` is `* a b`. Such a file is what a loop over an unmatched glob leaves behind
 * (`for f in *.md; do … > "$f"; done` with no .md files writes a file named `*.md`).
 * Tried: `*.log`, `*.txt`, `*`, `?`, `sub/*`, `[ab]` beside a file so named; `x='*'; echo $x`; rm, mv, wc, cp, for loops;
 * differential: bash 5.2.15 on this machine.
 * Held: an unquoted `$x` holding `*` expands to every match (`* a b`); `[ab]` beside a file `[ab]` gives what bash
 * gives; without the literally named file every glob above matches everything.
 * Found (medium — a clean-up or rename loop silently leaves or skips every real match and reports success, so the
 * agent believes the files were handled; 2 of 2 runs): see the `Was:` lines.
 * Suggested fix: the shell's pathname expansion of a literal word (just-bash's interpreter, glob expander class with
 * `nullglob`/`failglob`, as patched by scripts/gen-shell.mjs): a word with unquoted glob characters must always be
 * matched against the directory; a check that the word exists as a file may only be a shortcut for words without
 * them.
 *
 * Fixed: scripts/gen-shell.mjs GO_PATCHES ("glob no-match marked", "glob match equal to its pattern kept"): the
 * word expansion tells "no match" by a mark on the expander's result instead of by its first name being the pattern's
 * text (issue 20, run 34, fixer GO). Siblings: test/workers/fix34/shell-literal-operands.test.ts.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("a glob whose text is also a file's name still matches every file, as bash", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/logs", { recursive: true });
    await ws.fs.mkdir("/workspace/s", { recursive: true });
    for (const n of ["*.log", "a.log", "b.log"]) await ws.fs.writeFile(`/workspace/logs/${n}`, "x\n");
    for (const n of ["*", "a", "b"]) await ws.fs.writeFile(`/workspace/s/${n}`, "");
    const r = await sh(ws, "cd logs && rm *.log; echo rc=$?; ls; cd ../s; echo *; for f in *; do echo \"[$f]\"; done", {
      cwd: "/workspace",
    });
    return [r.stdout, r.stderr, (await ws.fs.readdir("/workspace/logs")).map((e) => e.name)];
  });
  // Was: ["rc=0\na.log\nb.log\n*\n[*]\n", "", ["a.log", "b.log"]]
  expect(out).toEqual(["rc=0\n* a b\n[*]\n[a]\n[b]\n", "", []]);
}, 60000);
