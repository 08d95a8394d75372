/**
 * Issue 20, run 34, fixer GO: siblings of attack34d/grep-operand-with-brackets-reglobbed.test.ts,
 * attack34d/ls-operand-with-brackets-reglobbed.test.ts and
 * attack34d/glob-matching-its-own-literal-name-drops-other-matches.test.ts.
 *
 * A command takes its operands literally: names holding `[`, `]`, `*`, `?` (`app/[id]`, `f[1].txt` beside `f1.txt`,
 * `q?.txt` beside `qa.txt`, `s*.md` beside `sa.md`) given quoted or escaped to grep, egrep, fgrep, grep -r/-l, rg -l,
 * ls, ls -d, cat, head, wc, du, stat and sort name that file and no other; a quoted pattern that names nothing is
 * `No such file or directory` (grep status 2, ls status 2), never a glob of its own. The shell's pathname expansion
 * matches a pattern against the directory even when a file is named like the pattern: `echo *.log` beside `*.log`,
 * `a.log`, `b.log` is all three, `rm s/*` and `mv logs/*.log dest/` move/remove every match, `for f in *.log` visits
 * three; a pattern whose only match is its own text expands to that name (also under nullglob and failglob); one
 * with no match stays as written, is dropped under nullglob and fails the subshell under failglob (status 1).
 * Expected outputs are bash 5.2.15 with GNU grep 3.8 and coreutils 9.1 run on the same tree in a temp directory
 * (LANG unset, so names sort by byte); failglob's message is sent to /dev/null there because bash prefixes it with
 * the script's name and line. ripgrep is not on this machine: `rg -l h 'app/[id]'` expects ripgrep's documented
 * behaviour (a path operand is searched as a path; -l prints each matching file once).
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";
import type { Workspace } from "../../../src/index.js";

async function tree(ws: Workspace): Promise<void> {
  for (const d of ["app/[id]", "app/i", "logs", "s", "t", "dest"]) await ws.fs.mkdir(`/workspace/${d}`, { recursive: true });
  const files: [string, string][] = [
    ["app/[id]/page.tsx", "hi\n"],
    ["app/i/page.tsx", "no\n"],
    ["f[1].txt", "hi\n"],
    ["f1.txt", "ho\n"],
    ["q?.txt", "q\n"],
    ["qa.txt", "qa\n"],
    ["s*.md", "star\n"],
    ["sa.md", "sa\n"],
    ["logs/*.log", "*.log\n"],
    ["logs/a.log", "a.log\n"],
    ["logs/b.log", "b.log\n"],
    ["s/*", ""],
    ["s/a", ""],
    ["s/b", ""],
    ["s/[ab]", ""],
    ["t/*.txt", ""],
  ];
  for (const [name, text] of files) await ws.fs.writeFile(`/workspace/${name}`, text);
}

const OPERANDS = String.raw`grep h 'f[1].txt'; echo rc=$?
egrep -H 'h|q' 'f[1].txt' 'q?.txt'; echo rc=$?
fgrep -c a 's*.md' qa.txt; echo rc=$?
grep -rn h 'app/[id]'; echo rc=$?
grep -rl hi app/\[id\]/; echo rc=$?
grep x '*.nope'; echo rc=$?
ls 'app/[id]' 'q?.txt' 's*.md'; echo rc=$?
ls -d 'app/[id]' app/\[id\]/; echo rc=$?
ls -d '*.nope'; echo rc=$?
cat 'f[1].txt' 'q?.txt' 's*.md'
head -n1 'f[1].txt' 'q?.txt'
wc -l < 's*.md'
du -a 'app/[id]' | cut -f2
stat -c %n 'f[1].txt' 'q?.txt'
wc -c 'f[1].txt' 's*.md'
sort 'q?.txt' f1.txt
`;

const GLOBS = String.raw`cd logs; echo *.log; echo "*.log" '*.log'; set -- *.log; echo $#
for f in *.log; do echo "[$f]"; done
cd ../s; echo *; echo ?; echo [ab]; echo [*]; x='*'; echo $x; echo "$x"
cd ..; echo s/*; echo s/[*]
cd t; echo *.txt; shopt -s nullglob; echo *.txt; echo *.zz; echo "n=[$(echo *.zz)]"; shopt -u nullglob; echo *.zz
(shopt -s failglob; echo *.txt; echo *.zz; echo not-reached) 2>/dev/null; echo rc=$?
cd ..; mv logs/*.log dest/; echo rc=$?; ls -A logs | wc -l; ls dest
rm s/*; echo rc=$?; ls -A s | wc -l
`;

it("commands take quoted or escaped operands with [ ] * ? as paths, as GNU", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await tree(ws);
    const r = await sh(ws, OPERANDS, { cwd: "/workspace" });
    const rg = await sh(ws, "rg -l h 'app/[id]'; echo rc=$?", { cwd: "/workspace" });
    return [r.stdout, r.stderr, rg.stdout, rg.stderr];
  });
  expect(out).toEqual([
    "hi\nrc=0\nf[1].txt:hi\nq?.txt:q\nrc=0\ns*.md:1\nqa.txt:1\nrc=0\napp/[id]/page.tsx:1:hi\nrc=0\napp/[id]/page.tsx\nrc=0\nrc=2\n" +
      "q?.txt\ns*.md\n\napp/[id]:\npage.tsx\nrc=0\napp/[id]\napp/[id]/\nrc=0\nrc=2\nhi\nq\nstar\n==> f[1].txt <==\nhi\n\n==> q?.txt <==\nq\n" +
      "1\napp/[id]/page.tsx\napp/[id]\nf[1].txt\nq?.txt\n3 f[1].txt\n5 s*.md\n8 total\nho\nq\n",
    "grep: *.nope: No such file or directory\nls: cannot access '*.nope': No such file or directory\n",
    "app/[id]/page.tsx\nrc=0\n",
    "",
  ]);
}, 90000);

it("a glob matches every file even beside a file named like it, as bash 5.2", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await tree(ws);
    const r = await sh(ws, GLOBS, { cwd: "/workspace" });
    const names = async (d: string) => (await ws.fs.readdir(`/workspace/${d}`)).map((e) => e.name).sort();
    return [r.stdout, r.stderr, await names("logs"), await names("dest"), await names("s"), await ws.fs.readFile("/workspace/dest/*.log", "utf8")];
  });
  expect(out).toEqual([
    "*.log a.log b.log\n*.log *.log\n3\n[*.log]\n[a.log]\n[b.log]\n* [ab] a b\n* a b\na b\n*\n* [ab] a b\n*\ns/* s/[ab] s/a s/b\ns/*\n" +
      "*.txt\n*.txt\n\nn=[]\n*.zz\n*.txt\nrc=1\nrc=0\n0\n*.log\na.log\nb.log\nrc=0\n0\n",
    "",
    [],
    ["*.log", "a.log", "b.log"],
    [],
    "*.log\n",
  ]);
}, 90000);
