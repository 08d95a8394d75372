/**
 * Issue 20, twenty-ninth attack run: inside `$(( … ))`, a command substitution's double-quoted variable (`"$f"`)
 * expands to the empty string, so `$(( $(wc -l < "$f") + 1 ))` prints `1` after `bash: : No such file or directory`,
 * and `$(( $(cat "$f" | wc -l) * 10 ))` and `total=$(( total + $(grep -c a "$f") ))` silently add `0` (`20` → `0`, `6` → `5`); bash
 * 5.2 runs the command with the variable's value (3, 20, 6). `"${a[@]}"` there is a syntax error (`invalid arithmetic
 * operator`), status 1.
 *
 * Tried: side by side with bash 5.2.15: `$(( $(wc -l < "$f") + 1 ))`, `$(( $(cat "$f" | wc -l) * 10 ))`,
 * `$(( total + $(grep -c a "$f") ))`, `$(( $(printf '%s+' "${a[@]}") 0 ))`, `$(( $(echo "2") + 1 ))`.
 * Held: an unquoted or literal command inside (`$(( $(wc -l < f) + 1 ))`, `$(( $(grep -c . f) * 2 ))`,
 * `$(( $(printf '%s+' 1 2) 0 ))`) and a double-quoted literal (`$(echo "2")`).
 * Found (high — a count or total in the most common arithmetic form is silently wrong, exit 0; 2 of 2 runs).
 * Suggested fix: in just-bash's parser for `$(( … ))` (patched by scripts/gen-shell.mjs): parse a `$( … )` (and
 * backquotes) inside the arithmetic text with the full word parser, as in any other word, so its quoted parameter
 * expansions keep their parts — the arithmetic lexer seems to drop the `"$f"` part (and stop at `"${a[@]}"`).
 *
 * Fixed: the quoting was not the cause — just-bash ran an arithmetic `$( … )` (and backquotes, and `$( … )` in array
 * subscripts) through the Bash object's `exec`, a new shell without the script's variables, functions or cwd, after
 * finding its end by counting parentheses. scripts/gen-shell.mjs (entries `// AX`) now parses the body with
 * just-bash's own command-substitution parser and runs it as a `$( … )` in a word (src/backends/worker-shell/isolate/
 * arith-subst.ts), and `$(( ))`, `(( ))` and `for (( ))` text with a substitution is substituted before it is
 * evaluated, as bash (`$(( $(printf '%s+' 3 1 2) 0 ))` is 6). Siblings: test/workers/fix29/shell-arith-substitution.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("a quoted variable in a command substitution inside $(( )) expands, as bash", async () => {
  const out = await shellCases({ files: { "my f": "a\nb\n" } }, [
    "f='my f'; echo $(( $(wc -l < \"$f\") + 1 ))",
    "f='my f'; echo $(( $(cat \"$f\" | wc -l) * 10 ))",
    "f='my f'; total=5; total=$(( total + $(grep -c a \"$f\") )); echo $total",
    "a=(3 1 2); echo $(( $(printf '%s+' \"${a[@]}\") 0 ))",
  ]);
  expect(out).toEqual([
    // Was: "1\n", "bash: : No such file or directory\n".
    ["f='my f'; echo $(( $(wc -l < \"$f\") + 1 ))", "3\n", ""],
    // Was: "0\n".
    ["f='my f'; echo $(( $(cat \"$f\" | wc -l) * 10 ))", "20\n", ""],
    // Was: "5\n".
    ["f='my f'; total=5; total=$(( total + $(grep -c a \"$f\") )); echo $total", "6\n", ""],
    // Was: "", "bash: line 1: $(printf '%s+' \"${a[@]}\") 0 : ) 0: syntax error: invalid arithmetic operator …".
    ["a=(3 1 2); echo $(( $(printf '%s+' \"${a[@]}\") 0 ))", "6\n", ""],
  ]);
});
