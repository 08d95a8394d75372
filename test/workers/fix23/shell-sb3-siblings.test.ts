/**
 * Issue 20, twenty-third attack run (fixer SB3): siblings of test/workers/attack23b/shell-sed-i-edits-through-link,
 * shell-readlink-f-unresolvable-exit-0, shell-cp-modes-not-as-gnu, shell-find-printf-stat-directives-literal and
 * shell-error-reasons-siblings. Every expected stdout/stderr is what GNU sed 4.9, coreutils 9.1, findutils 4.9 and
 * util-linux 2.38 rev printed for the same command in the same tree on Linux, but for the owner (`user`, uid 1000: the
 * shell's user, as `ls -l` and `whoami` show it) and the link count (1: the Workspace has no hard links; a directory on
 * ext4 says 2 + its subdirectories).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const TREE = { dirs: ["d"], files: { f: "F\n", "d/a": "hello\n" }, links: { loop: "loop", dangling: "nope", l: "d/a", ld: "d" } };
const MODES = { dirs: ["d"], files: { a: "A\n", b: "B\n", "d/f": "F\n" } };

it("sed -i: a link replaced by the edited file (target's mode), --follow-symlinks edits the target and names its backup after it, a dangling link is `can't read` (2), a link to a directory `couldn't edit` (4)", async () => {
  const expected: [string, string, string][] = [
    ["sed -i.bak --follow-symlinks s/h/X/ l; echo rc=$?; ls d; cat d/a d/a.bak; ls -l l | cut -c1", "rc=0\na\na.bak\nXello\nhello\nl\n", ""],
    ["sed -i s/h/X/ --follow-symlinks l; echo rc=$?; ls -l l | cut -c1; cat d/a", "rc=0\nl\nXello\n", ""],
    ["chmod 751 d/a; sed -i s/h/X/ l; stat -c '%a %F' l d/a; cat d/a", "751 regular file\n751 regular file\nhello\n", ""],
    ["sed -i s/a/b/ dangling; echo rc=$?; ls -l dangling | cut -c1", "rc=2\nl\n", "sed: can't read dangling: No such file or directory\n"],
    ["sed -i s/a/b/ ld; echo rc=$?", "rc=4\n", "sed: couldn't edit ld: not a regular file\n"],
    ["sed -n p --follow-symlinks l", "hello\n", ""],
  ];
  expect(await shellCases(TREE, expected.map(([command]) => command))).toEqual(expected);
});

it("readlink as GNU readlink 9.1: -f/-e/-m through every link (a link in the working directory too), -v reasons, -n/-z, options after operands, usage errors", async () => {
  const expected: [string, string, string][] = [
    ["readlink -f loop l ld/a ld/.. nope dangling ld/nope; echo rc=$?", "/workspace/d/a\n/workspace/d/a\n/workspace\n/workspace/nope\n/workspace/nope\n/workspace/d/nope\nrc=1\n", ""],
    ["readlink -e l dangling; echo rc=$?", "/workspace/d/a\nrc=1\n", ""],
    ["readlink -m nope/x/../y loop; echo rc=$?", "/workspace/nope/y\n/workspace/loop\nrc=0\n", ""],
    ["readlink -v f nope l; echo rc=$?", "d/a\nrc=1\n", "readlink: f: Invalid argument\nreadlink: nope: No such file or directory\n"],
    ["readlink -fv nope/x loop f/x; echo rc=$?", "rc=1\n", "readlink: nope/x: No such file or directory\nreadlink: loop: Too many levels of symbolic links\nreadlink: f/x: Not a directory\n"],
    ["readlink -n l; echo; readlink -n l l; readlink -z l | od -c", "d/a\nd/a\nd/a\n0000000   d   /   a  \\0\n0000004\n", "readlink: ignoring --no-newline with multiple arguments\n"],
    ["readlink l -f; readlink -f -- l; readlink -x; readlink; readlink --foo l; echo rc=$?", "/workspace/d/a\n/workspace/d/a\nrc=1\n", "readlink: invalid option -- 'x'\nTry 'readlink --help' for more information.\nreadlink: missing operand\nTry 'readlink --help' for more information.\nreadlink: unrecognized option '--foo'\nTry 'readlink --help' for more information.\n"],
    ["readlink --canon l; echo rc=$?", "rc=1\n", "readlink: option '--canon' is ambiguous; possibilities: '--canonicalize' '--canonicalize-existing' '--canonicalize-missing'\nTry 'readlink --help' for more information.\n"],
    ["cd ld && readlink -f ../l a ../ld/../f; echo rc=$?", "/workspace/d/a\n/workspace/d/a\n/workspace/f\nrc=0\n", ""],
  ];
  expect(await shellCases(TREE, expected.map(([command]) => command))).toEqual(expected);
});

it("cp and mv check the destination first and name the operand that failed, with its reason", async () => {
  const expected: [string, string, string][] = [
    ["cp f f/; echo rc=$?", "rc=1\n", "cp: cannot stat 'f/': Not a directory\n"],
    ["cp f loop; echo rc=$?", "rc=1\n", "cp: cannot stat 'loop': Too many levels of symbolic links\n"],
    ["cp f dangling; echo rc=$?; ls -l dangling | cut -c1", "rc=1\nl\n", "cp: not writing through dangling symlink 'dangling'\n"],
    ["cp f d/nope/x; echo rc=$?", "rc=1\n", "cp: cannot create regular file 'd/nope/x': No such file or directory\n"],
    ["cp nope x; echo rc=$?", "rc=1\n", "cp: cannot stat 'nope': No such file or directory\n"],
    ["cp -r d f; echo rc=$?", "rc=1\n", "cp: cannot overwrite non-directory 'f' with directory 'd'\n"],
    ["mkdir -p e/f; cp f e; echo rc=$?", "rc=1\n", "cp: cannot overwrite directory 'e/f' with non-directory\n"],
    ["mv f d/nope/x; echo rc=$?", "rc=1\n", "mv: cannot move 'f' to 'd/nope/x': No such file or directory\n"],
    ["mv f loop; echo rc=$?; cat loop", "rc=0\nF\n", ""],
    ["mv d f; echo rc=$?", "rc=1\n", "mv: cannot overwrite non-directory 'f' with directory 'd'\n"],
    ["mv f nope/; echo rc=$?", "rc=1\n", "mv: cannot move 'f' to 'nope/': Not a directory\n"],
    ["mv nope x; echo rc=$?", "rc=1\n", "mv: cannot stat 'nope': No such file or directory\n"],
    ["mkdir -p e/f; mv f e; echo rc=$?", "rc=1\n", "mv: cannot overwrite directory 'e/f' with non-directory\n"],
    ["mkdir -p e/d/z; mv d e; echo rc=$?", "rc=1\n", "mv: cannot move 'd' to 'e/d': Directory not empty\n"],
  ];
  expect(await shellCases(TREE, expected.map(([command]) => command))).toEqual(expected);
});

it("tee, touch, nl, rev, base64 and sort: the real reason, and nl/rev go on with the next file", async () => {
  const expected: [string, string, string][] = [
    ["echo x | tee nope/x f; echo rc=$?; cat f", "x\nrc=1\nx\n", "tee: nope/x: No such file or directory\n"],
    ["touch loop d/nope/x; echo rc=$?", "rc=1\n", "touch: cannot touch 'loop': Too many levels of symbolic links\ntouch: cannot touch 'd/nope/x': No such file or directory\n"],
    ["nl d f; echo rc=$?", "     1\tF\nrc=1\n", "nl: d: Is a directory\n"],
    ["nl nope f; echo rc=$?", "     1\tF\nrc=1\n", "nl: nope: No such file or directory\n"],
    ["rev d f; echo rc=$?", "F\nrc=1\n", "rev: d: 0: Is a directory\n"],
    ["rev nope f; echo rc=$?", "F\nrc=1\n", "rev: cannot open nope: No such file or directory\n"],
    ["base64 d; echo rc=$?", "rc=1\n", "base64: read error: Is a directory\n"],
    ["base64 nope; echo rc=$?", "rc=1\n", "base64: nope: No such file or directory\n"],
    ["sort d; echo rc=$?", "rc=2\n", "sort: read failed: d: Is a directory\n"],
    ["sort nope f; echo rc=$?", "rc=2\n", "sort: cannot read: nope: No such file or directory\n"],
  ];
  expect(await shellCases(TREE, expected.map(([command]) => command))).toEqual(expected);
});

it("find -printf %y %Y (N dangling, L loop) %l %H %n %u %g %U %G with widths, %M of a link; stat -c %% %h %t %T %q %B %f, widths, %U/%G as ls -l", async () => {
  const expected: [string, string, string][] = [
    ["find . -printf '%y %Y %p [%l]\\n' | sort -k3", "d d . []\nd d ./d []\nf f ./d/a []\nl N ./dangling [nope]\nf f ./f []\nl f ./l [d/a]\nl d ./ld [d]\nl L ./loop [loop]\n", ""],
    ["find ld/ d -printf '%H|%y|%p|%5y|%-3n|%u %g %U %G\\n'", "ld/|d|ld/|    d|1  |user user 1000 1000\nld/|f|ld/a|    f|1  |user user 1000 1000\nd|d|d|    d|1  |user user 1000 1000\nd|f|d/a|    f|1  |user user 1000 1000\n", ""],
    ["find l -printf '%M %m %y%Y\\n'", "lrwxrwxrwx 777 lf\n", ""],
    ["stat -c '%h %% %n|%t %T|%|x%' d/a", "1 % d/a|0 0|?x%\n", ""],
    ["stat -c '%5n|%-5s|%05s|%q|%B|%f|%U %G' d/a", "  d/a|6    |00006|?|512|81a4|user user\n", ""],
    ["stat -c '%f %F' d l", "41ed directory\na1ff symbolic link\n", ""],
  ];
  expect(await shellCases(TREE, expected.map(([command]) => command))).toEqual(expected);
});

it("cp modes as GNU cp 9.1: an existing file keeps its own, new files and directories the source's less umask 022 (special bits dropped, a directory's sticky kept), -p all of it, merged trees keep what was there", async () => {
  const expected: [string, string, string][] = [
    ["chmod 755 b; chmod 600 a; cp a b; stat -c '%a %n' b", "755 b\n", ""],
    ["chmod 755 b; chmod 600 a; cp -p a b; stat -c '%a %n' b", "600 b\n", ""],
    ["chmod 777 a; cp a n; stat -c '%a %n' n", "755 n\n", ""],
    ["chmod 4755 a; cp a n; cp -p a m; stat -c '%a %n' n m", "755 n\n4755 m\n", ""],
    ["chmod 700 d; chmod 755 d/f; cp -r d e; stat -c '%a %n' e e/f", "700 e\n755 e/f\n", ""],
    ["chmod 777 d; chmod 666 d/f; cp -r d e; stat -c '%a %n' e e/f", "755 e\n644 e/f\n", ""],
    ["chmod 1777 d; cp -r d e; stat -c '%a %n' e", "1755 e\n", ""],
    ["chmod 2755 d; cp -r d e; stat -c '%a %n' e", "755 e\n", ""],
    ["chmod 700 d; chmod 600 d/f; cp -rp d e; stat -c '%a %n' e e/f", "700 e\n600 e/f\n", ""],
    ["mkdir -p e/d; chmod 711 e/d; echo old > e/d/f; chmod 700 e/d/f; chmod 755 d/f; mkdir d/s; chmod 750 d/s; cp -r d e; stat -c '%a %n' e/d e/d/f e/d/s", "711 e/d\n700 e/d/f\n750 e/d/s\n", ""],
    ["mkdir -p e/d; chmod 711 e/d; echo old > e/d/f; chmod 700 e/d/f; chmod 755 d/f; cp -rp d e; stat -c '%a %n' e/d e/d/f", "755 e/d\n755 e/d/f\n", ""],
    ["chmod 640 a; ln -s a la; chmod 755 b; cp la b; stat -c '%a %n' b; cat b", "755 b\nA\n", ""],
    ["chmod 640 a; ln -s b lb; chmod 700 b; cp a lb; stat -c '%a %n' b; cat b", "700 b\nA\n", ""],
    ["chmod 640 a; cp a d; stat -c '%a %n' d/a", "640 d/a\n", ""],
    ["chmod 640 a; echo x > d/a; chmod 604 d/a; cp a d/; stat -c '%a %n' d/a", "604 d/a\n", ""],
    ["cp -r d d2; cp -r d d2; stat -c '%a %n' d2 d2/d", "755 d2\n755 d2/d\n", ""],
    ["chmod 600 d/f; cp d/f d/g; stat -c '%a' d/g; cp -n a b; cat b", "600\nB\n", ""],
  ];
  expect(await shellCases(MODES, expected.map(([command]) => command))).toEqual(expected);
});
