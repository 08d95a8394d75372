/**
 * Issue 20, run 35, fixer DD — siblings of test/workers/attack35f/dotdot-after-link-is-lexical-in-shell.test.ts.
 * A `..` that follows a symbolic link, in every form the shell hands a path to the filesystem: cat, test -e / -d,
 * a `>` and a `>>` redirection, ls, cp, mv, rm, mkdir -p, a relative `../x` from a cwd entered through a link,
 * a chain of two links, a link to an absolute path, `..` twice past a link, a dangling link then `..` (ENOENT),
 * a file then `..` (ENOTDIR), `cd` (logical: `cd lnk/..`, `cd lnk; cd ..`), `cd -P` and `pwd -P` (physical), and
 * `rm -r lnk/..` (refused by name, as GNU rm), `cd -P` into a dangling link's `..` or a file (status 1). The script runs unchanged in this shell from /workspace and in bash
 * 5.2.15 + GNU coreutils 9.1 on this machine from an empty temporary directory (`bash script.sh 2>&1`, the root
 * printed as R); EXPECTED is that bash output, byte for byte. Before the fix: 1, 2, 3, 5, 7, 8, 9, 10, 11, 18, 19,
 * 20 named /workspace/<x> (the lexical parent of the link), 4 and 15 succeeded, 13/13b were [], 23 was 0.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const SCRIPT = `exec 2>&1
R=$PWD
mkdir -p a/b c/d; printf INNER > a/f; printf OUTER > f; printf CF > c/f
ln -s a/b lnk; ln -s lnk lnk2; ln -s "$R/c/d" abs; ln -s nowhere dang
echo "1 $(cat lnk/../f)"
echo "2 $(cat lnk2/../f)"
echo "3 $(cat abs/../f)"
cat dang/../f; echo "4 $?"
echo "5 $(cat lnk/../../f)"
test -e lnk/../f; echo "6 $?"; test -e lnk/../nope; echo "6b $?"; [ -d lnk/.. ]; echo "6c $?"
echo new > lnk/../g; echo "7 $(cat a/g)"; test -e g; echo "7b $?"
echo "8 $(ls lnk/..)"
cp lnk/../f copy; echo "9 $(cat copy)"
mv lnk/../g lnk/../h; echo "10 $(ls a)"
(cd lnk && echo "11 $(cat ../f) \${PWD#$R} $(pwd -P | sed "s|^$R||")")
(cd lnk && cd .. && echo "12 [\${PWD#$R}]")
(cd -P lnk/.. && echo "13 [\${PWD#$R}]")
(cd lnk && cd -P .. && echo "13b [\${PWD#$R}]")
(cd lnk/.. && echo "13c [\${PWD#$R}]")
cat f/../f; echo "15 $?"
mkdir -p new/../made; echo "16 $(ls -d new made)"
echo x >> lnk/../app; echo "17 $(cat a/app)"
(cd lnk && echo hi > ../w; echo "18 $(cat $R/a/w)")
(cd lnk2 && echo "19 $(ls ..)")
rm lnk/../f; echo "20 $? $(ls a) $(cat f)"
echo "21 $(cat abs/../../f)"
rm -r lnk/..; echo "22 $? $(ls a | wc -l)"
(cd -P dang/.. 2>/dev/null; echo "23 $?"); (cd -P lnk/../h 2>/dev/null; echo "24 $?"); (cd -P lnk2 && echo "25 [\${PWD#$R}] $(cat ../h)")
`;

const EXPECTED = `1 INNER
2 INNER
3 CF
cat: dang/../f: No such file or directory
4 1
5 OUTER
6 0
6b 1
6c 0
7 new
7b 1
8 b
f
g
9 INNER
10 b
f
h
11 INNER /lnk /a/b
12 []
13 [/a]
13b [/a]
13c []
cat: f/../f: Not a directory
15 1
16 made
new
17 x
18 hi
19 app
b
f
h
w
20 0 app
b
h
w OUTER
21 OUTER
rm: refusing to remove '.' or '..' directory: skipping 'lnk/..'
22 1 4
23 1
24 1
25 [/a/b] new
`;

it("a `..` after a link goes up from where the link leads in every file operation; cd stays logical, cd -P physical", async () => {
  const out = await inShellWorkspace(async (ws) => {
    const result = await sh(ws, SCRIPT, { cwd: "/workspace" });
    return { stdout: result.stdout.replaceAll("/workspace", "R"), exitCode: result.exitCode };
  });
  expect(out).toEqual({ stdout: EXPECTED, exitCode: 0 });
}, 120000);

it("mkdir -p through several missing directories and `..`, and `..` at / itself, as GNU mkdir and bash", async () => {
  // bash 5.2.15 / coreutils 9.1: `mkdir -p x/../y/z/../../w; ls -d x y y/z w` → w x y y/z; `cat /../..$PWD/f` reads f.
  const out = await inShellWorkspace(async (ws) => {
    const r = await sh(ws, "mkdir -p x/../y/z/../../w && ls -d x y y/z w && printf F > f && cat /../..$PWD/f", { cwd: "/workspace" });
    // 500 `b/..` pairs (3,500 bytes, under PATH_MAX 4096): one walk of the prefix; bash reads a/f too.
    const long = await sh(ws, "mkdir -p a/b && printf INNER > a/f && cat a/$(printf 'b/../%.0s' {1..500})f", { cwd: "/workspace" });
    return r.stdout + r.stderr + long.stdout + long.stderr;
  });
  expect(out).toBe("w\nx\ny\ny/z\nFINNER");
}, 120000);

it("truncate through a link's `..` cuts the file beside the link's target, as GNU truncate", async () => {
  // bash 5.2.15 / coreutils 9.1: `truncate -s 2 lnk/../f; cat a/f f` → INOUTER.
  const out = await inShellWorkspace(async (ws) => {
    const r = await sh(ws, "mkdir -p a/b && ln -s a/b lnk && printf INNER > a/f && printf OUTER > f && truncate -s 2 lnk/../f && cat a/f f", { cwd: "/workspace" });
    return r.stdout + r.stderr;
  });
  expect(out).toBe("INOUTER");
}, 120000);
