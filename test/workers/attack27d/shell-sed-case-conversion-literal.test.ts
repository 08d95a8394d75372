/**
 * Issue 20, twenty-seventh attack run: sed's replacement ignores GNU's case conversions `\U`, `\L`, `\u`, `\l`, `\E`
 * and writes the letter instead: `sed 's/aaa/\U&/'` of `aaa` gives `Uaaa` (GNU: `AAA`), `\u&` of `hello` `uhello`
 * (GNU: `Hello`). No error, exit 0 — the text is silently corrupted.
 * Tried: side by side with GNU sed 4.9 — each of `\U \L \u \l \E` with `&`, `\1`, literal text, in BRE and -E.
 * Held: `&`, `\1`…`\9`, `\n`, `\t`, `\\`, `s///Ng`, `s///gp`, `w FILE`.
 * Found (medium — GNU sed's usual way to change case (`s/[A-Z]/\L&/g`) writes wrong text silently; 2 of 2 runs).
 * Suggested fix: sed's replacement builder (just-bash sed; the replacement escapes patched for `\x`/`\o` in
 * gen-shell.mjs): keep a case state — `\U`/`\L` until `\E` or the next `\U`/`\L`, `\u`/`\l` for the next character —
 * and apply it to literal text and group references alike.
 *
 * Fixed: sed's replacement is built by sed-gnu.ts replacement (in place of just-bash's builder, scripts/gen-shell.mjs
 * `// SH`) with GNU's case state: `\U`/`\L` to `\E` or the next of them, `\u`/`\l` for the next character
 * (carried over an empty group).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("sed replacements take \\U \\L \\u \\l \\E as GNU sed", async () => {
  const out = await shellCases({ files: { "b.txt": "aaa bbb aaa\nccc aaa\n" } }, [
    "sed 's/aaa/\\U&/g' b.txt",
    "echo HELLO World | sed 's/.*/\\L&/'",
    "echo hello | sed 's/.*/\\u&/'",
    "echo Hello | sed 's/H/\\l&/'",
    "sed 's/\\(c*\\) \\(a*\\)/\\u\\2 \\U\\1\\E!/' b.txt",
    "sed -E 's/(\\w+) (\\w+)/\\L\\2 \\u\\1/' b.txt",
  ]);
  expect(out).toEqual([
    // Was: "Uaaa bbb Uaaa\nccc Uaaa\n".
    ["sed 's/aaa/\\U&/g' b.txt", "AAA bbb AAA\nccc AAA\n", ""],
    // Was: "LHELLO World\n".
    ["echo HELLO World | sed 's/.*/\\L&/'", "hello world\n", ""],
    // Was: "uhello\n".
    ["echo hello | sed 's/.*/\\u&/'", "Hello\n", ""],
    // Was: "lHello\n".
    ["echo Hello | sed 's/H/\\l&/'", "hello\n", ""],
    // Was: "aaau UE!bbb aaa\nuaaa UcccE!\n".
    ["sed 's/\\(c*\\) \\(a*\\)/\\u\\2 \\U\\1\\E!/' b.txt", "aaa !bbb aaa\nAaa CCC!\n", ""],
    // Was: "Lbbb uaaa aaa\nLaaa uccc\n".
    ["sed -E 's/(\\w+) (\\w+)/\\L\\2 \\u\\1/' b.txt", "bbb Aaa aaa\naaa Ccc\n", ""],
  ]);
});
