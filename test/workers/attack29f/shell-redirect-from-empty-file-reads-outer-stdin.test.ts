/**
 * Issue 20, twenty-ninth attack run: inside a compound whose stdin is a pipe or a file (`… | while read -r f; do …;
 * done`, `{ …; } < list`), a command whose own stdin is redirected from an EMPTY file (`wc -l < "$f"`, `read -r x <
 * "$f"`, `mapfile -t L < "$f"`, `cat < /dev/null`) reads the compound's stdin instead: `$(wc -l < empty)` counts the
 * loop's remaining lines, `sort < empty` prints them, and `read`/`mapfile` even consume them, so the loop silently
 * skips the rest of its items. An empty redirect is treated as "no redirect" (`stdin || groupStdin`).
 * Tried: side by side with bash 5.2.15 in a temp dir — `find … | while read -r f; do n=$(wc -l < "$f"); …`, `wc -l <
 * "$f"` / `sort < "$f"` / `read -r first < "$f"` / `mapfile -t L < "$f"` in a piped while loop, a while loop with
 * `done < list`, `printf … | { x=$(cat < /dev/null); … }`, `echo zz | { wc -l < e.txt; }`, `xargs -I{} sh -c 'wc -l
 * < {}'`.
 * Held: the same with a non-empty file; a simple command in a pipeline (`printf zz | wc -l < e.txt` is 0); `for f in
 * a e; do … $(wc -l < "$f")` with no outer stdin; `cat e.txt` as an operand; xargs' `sh -c`.
 * Found (high — a common loop form silently counts the wrong file, prints foreign lines, or drops the loop's
 * remaining items; 2 of 2 runs).
 * Suggested fix: src/shell/generated/core.ts (from scripts/gen-shell.mjs) — where a command's stdin is chosen
 * (`let d4 = r3 || i3.state.groupStdin || ""` in the command runner, `!b4 && e5.state.groupStdin !== void 0` in
 * read, `!u3 && e5.state.groupStdin !== void 0` in mapfile): fall back to the group's stdin only when the command has
 * no `<`/`<<<`/`<<` redirect of its own (`r3 === void 0`, or a flag set by the redirection), not when the redirected
 * input is the empty string. *
 * Fixed (issue 20, run 29, lead): a command whose own stdin redirect gave the empty string runs with the loop's or
 * group's stdin hidden (emptyRedirectedStdin() in isolate/shell-options.ts, wrapped around just-bash's runCommand
 * by the patch "empty redirected stdin (LD)" in scripts/gen-shell.mjs), so the command, `read`, `mapfile` and a
 * function's body read nothing. Siblings: test/workers/fix29/shell-empty-redirect-stdin.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const tree = { files: { "a.txt": "1\n2\n3\n", "e.txt": "", "b.txt": "x\n" } };

it("a `< empty-file` redirect gives the command empty stdin inside a piped loop or group, as bash", async () => {
  const out = await shellCases(tree, [
    "printf 'e.txt\\na.txt\\nb.txt\\n' | while read -r f; do n=$(wc -l < \"$f\"); echo \"$n $f\"; done",
    "printf 'e.txt\\na.txt\\n' | while read -r f; do sort < \"$f\"; done",
    "printf 'e.txt\\na.txt\\n' | while read -r f; do first=\"\"; read -r first < \"$f\"; echo \"$f:[$first]\"; done",
    "printf 'e.txt\\na.txt\\n' | while read -r f; do mapfile -t L < \"$f\"; echo \"$f:${#L[@]}\"; done",
    "printf 'e.txt\\na.txt\\n' > list; while read -r f; do n=$(wc -l < \"$f\"); echo \"$n $f\"; done < list",
    "printf 'a\\nb\\n' | { x=$(cat < /dev/null); echo \"[$x]\"; }",
    "echo zz | { wc -l < e.txt; }",
  ]);
  expect(out).toEqual([
    // Was: "2 e.txt\n3 a.txt\n1 b.txt\n" (counted the loop's two remaining lines).
    ["printf 'e.txt\\na.txt\\nb.txt\\n' | while read -r f; do n=$(wc -l < \"$f\"); echo \"$n $f\"; done", "0 e.txt\n3 a.txt\n1 b.txt\n", ""],
    // Was: "a.txt\n1\n2\n3\n" (printed the loop's input).
    ["printf 'e.txt\\na.txt\\n' | while read -r f; do sort < \"$f\"; done", "1\n2\n3\n", ""],
    // Was: "e.txt:[a.txt]\n" (read took the loop's next item; a.txt never processed).
    ["printf 'e.txt\\na.txt\\n' | while read -r f; do first=\"\"; read -r first < \"$f\"; echo \"$f:[$first]\"; done", "e.txt:[]\na.txt:[1]\n", ""],
    // Was: "e.txt:1\n" (mapfile took the loop's next item).
    ["printf 'e.txt\\na.txt\\n' | while read -r f; do mapfile -t L < \"$f\"; echo \"$f:${#L[@]}\"; done", "e.txt:0\na.txt:3\n", ""],
    // Was: "1 e.txt\n3 a.txt\n".
    ["printf 'e.txt\\na.txt\\n' > list; while read -r f; do n=$(wc -l < \"$f\"); echo \"$n $f\"; done < list", "0 e.txt\n3 a.txt\n", ""],
    // Was: "[a\nb]\n".
    ["printf 'a\\nb\\n' | { x=$(cat < /dev/null); echo \"[$x]\"; }", "[]\n", ""],
    // Was: "1\n".
    ["echo zz | { wc -l < e.txt; }", "0\n", ""],
  ]);
});
