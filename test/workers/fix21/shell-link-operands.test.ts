/**
 * Issue 20, twenty-first attack run, fixer SH: the siblings of the link-operand fixes
 * (src/backends/worker-shell/isolate/link-operands.ts, patched into just-bash by scripts/gen-shell.mjs). Each
 * expected output is GNU coreutils 9.1 / findutils 4.9 on the same tree (a.txt, d/f.txt, d/sub, e/x/, an empty
 * file, la -> a.txt, ld -> d, dangling -> missing, a file z), except where the Workspace has no equivalent
 * (hard links: ENOSYS; ls -l's owner/size/date columns are just-bash's own).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const TREE = {
  dirs: ["d/sub", "e/x"],
  files: { "a.txt": "one\ntwo\n", "d/f.txt": "keep\n", empty: "", z: "z\n" },
  links: { la: "a.txt", ld: "d", dangling: "missing" },
};

async function runAll(cases: readonly (readonly [string, string, string])[]) {
  return shellCases(TREE, cases.map(([command]) => command), { wrap: (command) => `(${command}); echo rc=$?` });
}

it("ln: several targets need a directory; -n, -v, -f onto a directory, one operand, directory-form names", async () => {
  const cases = [
    ["ln -s x y z", "rc=1\n", "ln: target 'z': Not a directory\n"],
    ["ln -s x y nowhere", "rc=1\n", "ln: target 'nowhere': No such file or directory\n"],
    ["ln -s ../a.txt ../z e && readlink e/a.txt e/z", "../a.txt\n../z\nrc=0\n", ""],
    ["ln -sf x e", "rc=1\n", "ln: e/x: cannot overwrite directory\n"],
    ["ln -sfn a.txt ld && readlink ld && ls d", "a.txt\nf.txt\nsub\nrc=0\n", ""],
    ["ln -sf a.txt la && readlink la && cat a.txt", "a.txt\none\ntwo\nrc=0\n", ""],
    ["ln -sv a.txt vv && cat vv", "'vv' -> 'a.txt'\none\ntwo\nrc=0\n", ""],
    ["cd d && ln -s ../a.txt && cat a.txt", "one\ntwo\nrc=0\n", ""],
    ["ln -s a.txt", "rc=1\n", "ln: failed to create symbolic link './a.txt': File exists\n"],
    ["ln -s t nonexist/", "rc=1\n", "ln: failed to create symbolic link 'nonexist/': No such file or directory\n"],
    ["ln -sf t a.txt/", "rc=1\n", "ln: failed to access 'a.txt/': Not a directory\n"],
    ["ln -sf ../a.txt ld/ && cat d/a.txt", "one\ntwo\nrc=0\n", ""],
    ["ln -sf ../a.txt ld/f.txt && readlink d/f.txt && cat d/f.txt", "../a.txt\none\ntwo\nrc=0\n", ""],
    // GNU ln 9.1 reads f.txt from the working directory here and replaces d/f.txt by a link to itself (its bytes
    // gone); the shell reads the target as the link will, from d, and refuses.
    ["ln -sf f.txt d/f.txt; cat d/f.txt", "keep\nrc=0\n", "ln: 'f.txt' and 'd/f.txt' are the same file\n"],
    // No hard links in the Workspace.
    ["ln a.txt hard", "rc=1\n", "ln: failed to create hard link 'hard' => 'a.txt': Function not implemented\n"],
    ["ln d hd", "rc=1\n", "ln: d: hard link not allowed for directory\n"],
  ] as const;
  expect(await runAll(cases)).toEqual(cases.map((c) => [...c]));
});

it("mv and cp: the same file named twice is refused; a link moves as a link; cp follows a link unless -r", async () => {
  const cases = [
    ["mv a.txt a.txt; cat a.txt", "one\ntwo\nrc=0\n", "mv: 'a.txt' and 'a.txt' are the same file\n"],
    ["mv -v la d && readlink d/la && test ! -e la", "renamed 'la' -> 'd/la'\na.txt\nrc=0\n", ""],
    ["mv -v a.txt la && cat la && test ! -e a.txt", "renamed 'a.txt' -> 'la'\none\ntwo\nrc=0\n", ""],
    ["mv d/f.txt ld/; cat d/f.txt", "keep\nrc=0\n", "mv: 'd/f.txt' and 'ld/f.txt' are the same file\n"],
    ["mv dangling d && readlink d/dangling", "missing\nrc=0\n", ""],
    ["cp la copy && stat -c %F copy && cat copy", "regular file\none\ntwo\nrc=0\n", ""],
    ["cp -r la rcopy && stat -c %F rcopy && readlink rcopy", "symbolic link\na.txt\nrc=0\n", ""],
    ["cp -r ld e && readlink e/ld", "d\nrc=0\n", ""],
    ["cp dangling x", "rc=1\n", "cp: cannot stat 'dangling': No such file or directory\n"],
  ] as const;
  expect(await runAll(cases)).toEqual(cases.map((c) => [...c]));
});

it("find -type, stat and ls describe the entry itself (GNU without -L)", async () => {
  const cases = [
    ["find . -type f | sort", "./a.txt\n./d/f.txt\n./empty\n./z\nrc=0\n", ""],
    ["find . -type l,d | sort", ".\n./d\n./d/sub\n./dangling\n./e\n./e/x\n./la\n./ld\nrc=0\n", ""],
    ["find ld -type l", "ld\nrc=0\n", ""],
    ["find . -type x", "rc=1\n", "find: Unknown argument to -type: x\n"],
    ["stat -L -c %F la ld", "regular file\ndirectory\nrc=0\n", ""],
    ["stat -c %A la", "lrwxrwxrwx\nrc=0\n", ""],
    ["stat -c '%F|%s' empty a.txt dangling", "regular empty file|0\nregular file|8\nsymbolic link|7\nrc=0\n", ""],
    ["stat -L -c %F dangling", "rc=1\n", "stat: cannot stat 'dangling': No such file or directory\n"],
    ["ls la; ls dangling", "la\ndangling\nrc=0\n", ""],
    ["ls -F la", "la@\nrc=0\n", ""],
    ["ls ld", "f.txt\nsub\nrc=0\n", ""],
    ["for f in la ld dangling; do ls -l $f; done | sed 's/ .* \\([a-z]*\\) -> / \\1 -> /'", "lrwxrwxrwx la -> a.txt\nlrwxrwxrwx ld -> d\nlrwxrwxrwx dangling -> missing\nrc=0\n", ""],
    ["ls -l | grep -- '->' | sed 's/ .* \\([a-z]*\\) -> / \\1 -> /'", "lrwxrwxrwx dangling -> missing\nlrwxrwxrwx la -> a.txt\nlrwxrwxrwx ld -> d\nrc=0\n", ""],
    ["ls -ld la | cut -c1-10", "lrwxrwxrwx\nrc=0\n", ""],
  ] as const;
  expect(await runAll(cases)).toEqual(cases.map((c) => [...c]));
});
