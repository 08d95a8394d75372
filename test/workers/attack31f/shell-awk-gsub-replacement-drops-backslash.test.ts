/**
 * Issue 20, thirty-first attack run: in awk's sub/gsub replacement a backslash before a character other than `&` or
 * `\` is dropped: `gsub(/"/, "\\\"")` (escape quotes for JSON) leaves `say "hi"` unchanged, `gsub(/\./, "\\.")` gives
 * `x.y`, `gsub(/\t/, "\\t")` gives `atb` — gawk and mawk keep the backslash (`say \"hi\"`, `x\.y`, `a\tb`).
 * Tried: side by side with gawk 5.2.1 and mawk 1.3.4 (they agree; gawk --posix too): replacements `"\\\""`, `"\\."`,
 * `"\\t"`, `"\\&amp;"`, `"\\&"`, `"[&]"`.
 * Held: `\\&` (a literal `&`), `&` (the match), plain text.
 * Found (medium — escaping quotes/tabs/dots with gsub before printing JSON, TSV or a regex is a common awk step, and
 * the output silently stays unescaped (invalid JSON); 2 of 2 runs).
 * Suggested fix: the awk interpreter's sub/gsub replacement expansion (just-bash's awk chunk, patched in
 * scripts/gen-shell.mjs, or src/backends/worker-shell/isolate/awk.ts): as POSIX/gawk, `\&` is a literal `&`, `\\` a
 * backslash, and a backslash before any other character stays a backslash.
 *
 * Fixed: just-bash's awk sub/gsub replacement expansion keeps a backslash before a character other than `&` or `\`
 * (and gensub's `\t`/`\n` are `t`/`n`, as gawk); patched in scripts/gen-shell.mjs (entries marked `// AW2`). Siblings
 * in test/workers/fix31/awk2-io-regex.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("awk gsub keeps a backslash before a character other than & or \\ in the replacement", async () => {
  const out = await shellCases({ files: { "in.txt": 'say "hi"\nx.y\na\tb\n' } }, [
    `awk '{ gsub(/"/, "\\\\\\""); gsub(/\\./, "\\\\."); gsub(/\\t/, "\\\\t"); print }' in.txt`,
  ]);
  // Was: 'say "hi"\nx.y\natb\n'
  expect(out).toEqual([[`awk '{ gsub(/"/, "\\\\\\""); gsub(/\\./, "\\\\."); gsub(/\\t/, "\\\\t"); print }' in.txt`, 'say \\"hi\\"\nx\\.y\na\\tb\n', ""]]);
});
