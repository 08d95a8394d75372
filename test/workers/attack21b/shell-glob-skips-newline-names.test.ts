/**
 * Issue 20, twenty-first attack run: in the shell, `*` and `?` never match a newline in a file name — neither in
 * pathname expansion (`rm -- *.tmp`, `for f in *.tmp`) nor in `find -name` / `-path` — so a file named "nl\nx.tmp"
 * survives clean-ups by pattern, with `$?` 0 (or the literal pattern passed on: `rm: cannot remove '*.tmp'`).
 * GNU bash globbing and GNU find (fnmatch without FNM_PERIOD/PATHNAME for -name) match any character there.
 * Tried: /workspace holding a.txt and "nl\nx.tmp": `rm -- *.tmp`, `find . -name
 * 'nl?x.tmp' -exec rm {} +`, `find . -path './nl*' -delete`, `for f in *.tmp; do rm -- "$f"; done`; side by side with
 * bash 5.2 / GNU findutils 4.9. Also `echo nl*`, `ls *.txt` with "nl\nx.txt" (lists 1 of 2), `find -print0 | xargs
 * -0 rm`.
 * Held: `find . -name '*.tmp' -delete` removes it (only a pattern whose `*`/`?` must span the "\n" misses); the
 * name itself is stored and removed fine (`rm $'nl\nx'`, `printf 'nl\nx\0' | xargs -0 rm`); `case $'nl\nx' in nl*)`
 * matches; names with a space, `*`, `[a]`, leading `-` glob and remove as GNU; a trailing "\n" in
 * `a.tmp\n` (not matched by '*.tmp' in GNU either).
 * Found (medium — hostile names escape pattern-based deletion and listing, silently; 2 of 2 runs): after each of the
 * four, "nl\nx.tmp" is still there; the two find forms exit 0, `rm -- *.tmp` and the loop exit 1 with `rm:
 * cannot remove '*.tmp': No such file or directory` (the pattern matched nothing). The Workspace's own glob matcher and the container's ignore globs
 * already cross "\n" (porting.md); just-bash's glob → RegExp compiles `*` to `.*`/`[^/]*` without the `s` flag.
 * Suggested fix: in the gen-shell patch of just-bash's glob-to-regex (bash expansion and find's -name/-path/-iname),
 * compile with the dotAll flag (or `[^]`/`[\s\S]` for `*` and `?`) so `*`, `?` and `[!x]` match "\n".
 * Fixed: scripts/gen-shell.mjs (SOURCE_PATCHES) compiles just-bash's glob regexes with the dotAll flag — bash
 * pathname expansion (`Expander.patternToRegex`), `${a[@]/pat/rep}` on arrays, and the matcher find -name/-iname/
 * -path and grep --include/--exclude share, which now also reads `[!x]` as a negated class (it was a class of `!`
 * and `x`); RE2's negated classes (`[!x]` in bash, GLOBIGNORE) match "\n" as they are. All four commands now remove
 * the file, `$?` 0, stderr empty. Siblings: test/workers/fix21/shell-glob-newline.test.ts.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const commands = [
  "rm -- *.tmp",
  "find . -name 'nl?x.tmp' -exec rm {} +",
  "find . -path './nl*' -delete",
  'for f in *.tmp; do rm -- "$f"; done',
];

it("* and ? match a newline in a name (bash globbing and find), as GNU: the file is removed", async () => {
  const out = await inShellWorkspace(async (ws) => {
    const results: { stdout: string; stderr: string }[] = [];
    for (const command of commands) {
      await ws.fs.rm("/workspace", { recursive: true, force: true });
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.writeFile("/workspace/a.txt", "a\n");
      await ws.fs.writeFile("/workspace/nl\nx.tmp", "secret\n");
      const r = await sh(ws, `(${command}); echo rc=$?; ls -A | tr '\\n' '|'`, { cwd: "/workspace" });
      results.push({ stdout: r.stdout, stderr: r.stderr });
    }
    return results;
  });
  expect(out).toEqual(commands.map(() => ({ stdout: "rc=0\na.txt|", stderr: "" })));
});
