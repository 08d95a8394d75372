/**
 * Issue 20, twenty-first attack run: the shell cannot tell a symbolic link from what it points to — `find -type l`
 * is refused (`find: Unknown argument to -type: l`), `stat` (without -L) and `ls -l`/`ls -ld` report the TARGET
 * (a link to a directory is "directory", `d…`; a link to a file "regular file", `-…`), and a dangling link is
 * "No such file or directory" for both. GNU stat and ls describe the link itself (lstat) unless -L is given.
 * Tried: /workspace with a.txt, d/f.txt, la -> a.txt, ld -> d, dangling -> missing: `find . -type l | sort`,
 * `stat -c %F la ld dangling`, `ls -ld ld | cut -c1`, `ls -l la | cut -c1`, `ls -l dangling | cut -c1`, `stat -c %N
 * la`, `stat -c %s la`; side by side with GNU coreutils 9.1 / findutils 4.9.
 * Held: `ls -F` (`la@ ld@ dangling@`), `test -L`/`[ -h ]`, `readlink`, `ls -la d` line count.
 * Found (medium — a wrong answer exactly where an agent checks before acting: "is this a link or a real directory?"
 * before `rm -rf`/`cp -r`, or a `find -type l` audit of links planted in a tree; 2 of 2 runs): ours prints
 * `find: Unknown argument to -type: l` ($? 1), `regular file`/`directory` for la/ld, `stat: cannot stat
 * 'dangling': No such file or directory`, `d` for `ls -ld ld`, `-` for `ls -l la`, `ls: dangling: No such file or
 * directory`, `'la'` for %N and 8 (a.txt's size) for %s. GNU: `./dangling ./la ./ld`, `symbolic link` ×3, `l` ×3,
 * `'la' -> 'a.txt'`, 5.
 * Suggested fix: gen-shell patches: find's -type accepts `l` (test lstat's isSymbolicLink; `f`/`d` then test the
 * entry itself as GNU does without -L); stat and ls use the adapter's lstat for operands (stat -L / ls -L follow),
 * ls -l prints `l…` and ` -> target`, stat %F "symbolic link", %s the target string's length, %N `'x' -> 'y'`.
 * Fixed: gen-shell patches (helpers in src/backends/worker-shell/isolate/link-operands.ts): find -type takes GNU's
 * letters and lists (`l` is an entry neither file nor directory — in the Workspace, a link); stat lstats its operands
 * unless -L (now accepted), %F says `symbolic link` (and `regular empty file`), %N `'x' -> 'y'`, %s the target's
 * length, %A `l…`; ls -l/-d/-F show a link operand itself (`lrwxrwxrwx … name -> target`), ls -l's entries too, and a
 * dangling link is listed.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const TREE = {
  dirs: ["d"],
  files: { "a.txt": "one\ntwo\n", "d/f.txt": "keep\n" },
  links: { la: "a.txt", ld: "d", dangling: "missing" },
};

const checks: [string, string][] = [
  ["find . -type l | sort", "./dangling\n./la\n./ld\n"],
  ["stat -c %F la ld dangling", "symbolic link\nsymbolic link\nsymbolic link\n"],
  ["ls -ld ld | cut -c1", "l\n"],
  ["ls -l la | cut -c1", "l\n"],
  ["ls -l dangling | cut -c1", "l\n"],
  ["stat -c %N la", "'la' -> 'a.txt'\n"],
  ["stat -c %s la", "5\n"],
];

it("find -type l, stat and ls -l describe a symbolic link itself, as GNU", async () => {
  const out = await shellCases(TREE, checks.map(([command]) => command));
  expect(out).toEqual(checks.map(([command, stdout]) => [command, stdout, ""]));
});
