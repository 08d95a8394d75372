/**
 * Issue 20, run 36, fixer GR — siblings of test/workers/attack36b/git-rm-read-only-mount-stages-deletion.test.ts:
 * `git rm` removes the working-tree files first and the index entries only of the files that went, so a file the
 * working tree keeps (a read-only mount: EROFS; a directory where the index has a file: EISDIR) is never recorded as
 * removed. Every case is checked against git 2.39.5 on this machine, the same tree with `m` and `d/m` bind-mounted
 * read-only (`mount --bind m m && mount -o remount,ro,bind m`, unmounted after), running the same CASES script:
 * its output is REAL below, verbatim. Covered: `git rm -r` of a mount, `-q`, one file of it, `-rf`, a mount first
 * beside writable paths in one `-r`, a directory whose only file is in a mount below it, `--cached` (index-only:
 * allowed), `-n`, `git commit` after the failure ("nothing to commit"), a tracked file replaced by a directory (with a
 * file in it, and empty): git prints every `rm '<path>'` line, then `fatal: git rm: '<path>': <strerror>`, 128, the
 * index untouched.
 * Deliberate difference (docs/porting.md, /tmp/h/porting36_GR.tsv): when a writable file comes first in index order
 * and a later one cannot be removed, git 2.39.5 drops every matched entry and exits 0 silently (REAL's `mixed` and
 * `mixeddir`: `D  m/a.txt` beside `?? m/`, committed by the next `git commit`); here the files removed before the
 * failure lose their entries, the failing file and the rest keep theirs, and the command dies 128 as for a first
 * failure — OURS gives the two sections as this library prints them.
 */
import { expect, it } from "vitest";
import { WorkerBundle } from "../../../src/index.js";
import { createGitClient } from "../../../src/git/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

/** Each case: its header, stdout, `rc=`, stderr lines prefixed `E:`, `git ls-files` on one line, `git status -s -uno`; then `git reset -q`. */
const CASES = String.raw`c() { echo "## $1"; eval "$2" >/tmp/gr_o 2>/tmp/gr_e; rc=$?; cat /tmp/gr_o; echo "rc=$rc"; sed 's/^/E:/' /tmp/gr_e; echo "-- ls"; git ls-files | tr '\n' ' '; echo; echo "-- st"; git status -s -uno; git reset -q; }
c mount "git rm -r m"
c mountq "git rm -q -r m"
c one "git rm m/b.txt"
c force "git rm -rf m"
c first "git rm -r m sub z.txt"
c deep "git rm -r d"
c cached "git rm --cached -r m"
c dry "git rm -n -r m"
c after "git rm -q -r m; git commit -qm gone >/dev/null; echo rc=\$?"
c isdir "rm z.txt && mkdir z.txt && echo in >z.txt/x && git rm z.txt"
c emptydir "rm -r z.txt && mkdir z.txt && git rm -q z.txt"
rmdir z.txt; git checkout -q -- z.txt
c mixed "git rm -r a.txt m"
git checkout -q -- a.txt
c mixeddir "rm sub/s.txt && mkdir sub/s.txt && git rm a.txt sub/s.txt"
`;

/** git 2.39.5's output of CASES (above). */
const REAL = `## mount
rm 'm/a.txt'
rm 'm/b.txt'
rm 'm/k/c.txt'
rc=128
E:fatal: git rm: 'm/a.txt': Read-only file system
-- ls
a.txt d/m/x.txt m/a.txt m/b.txt m/k/c.txt sub/s.txt z.txt 
-- st
## mountq
rc=128
E:fatal: git rm: 'm/a.txt': Read-only file system
-- ls
a.txt d/m/x.txt m/a.txt m/b.txt m/k/c.txt sub/s.txt z.txt 
-- st
## one
rm 'm/b.txt'
rc=128
E:fatal: git rm: 'm/b.txt': Read-only file system
-- ls
a.txt d/m/x.txt m/a.txt m/b.txt m/k/c.txt sub/s.txt z.txt 
-- st
## force
rm 'm/a.txt'
rm 'm/b.txt'
rm 'm/k/c.txt'
rc=128
E:fatal: git rm: 'm/a.txt': Read-only file system
-- ls
a.txt d/m/x.txt m/a.txt m/b.txt m/k/c.txt sub/s.txt z.txt 
-- st
## first
rm 'm/a.txt'
rm 'm/b.txt'
rm 'm/k/c.txt'
rm 'sub/s.txt'
rm 'z.txt'
rc=128
E:fatal: git rm: 'm/a.txt': Read-only file system
-- ls
a.txt d/m/x.txt m/a.txt m/b.txt m/k/c.txt sub/s.txt z.txt 
-- st
## deep
rm 'd/m/x.txt'
rc=128
E:fatal: git rm: 'd/m/x.txt': Read-only file system
-- ls
a.txt d/m/x.txt m/a.txt m/b.txt m/k/c.txt sub/s.txt z.txt 
-- st
## cached
rm 'm/a.txt'
rm 'm/b.txt'
rm 'm/k/c.txt'
rc=0
-- ls
a.txt d/m/x.txt sub/s.txt z.txt 
-- st
D  m/a.txt
D  m/b.txt
D  m/k/c.txt
## dry
rm 'm/a.txt'
rm 'm/b.txt'
rm 'm/k/c.txt'
rc=0
-- ls
a.txt d/m/x.txt m/a.txt m/b.txt m/k/c.txt sub/s.txt z.txt 
-- st
## after
rc=1
rc=0
E:fatal: git rm: 'm/a.txt': Read-only file system
-- ls
a.txt d/m/x.txt m/a.txt m/b.txt m/k/c.txt sub/s.txt z.txt 
-- st
## isdir
rm 'z.txt'
rc=128
E:fatal: git rm: 'z.txt': Is a directory
-- ls
a.txt d/m/x.txt m/a.txt m/b.txt m/k/c.txt sub/s.txt z.txt 
-- st
 D z.txt
## emptydir
rc=128
E:fatal: git rm: 'z.txt': Is a directory
-- ls
a.txt d/m/x.txt m/a.txt m/b.txt m/k/c.txt sub/s.txt z.txt 
-- st
 D z.txt
## mixed
rm 'a.txt'
rm 'm/a.txt'
rm 'm/b.txt'
rm 'm/k/c.txt'
rc=0
-- ls
d/m/x.txt sub/s.txt z.txt 
-- st
D  a.txt
D  m/a.txt
D  m/b.txt
D  m/k/c.txt
## mixeddir
rm 'a.txt'
rm 'sub/s.txt'
rc=0
-- ls
d/m/x.txt m/a.txt m/b.txt m/k/c.txt z.txt 
-- st
D  a.txt
D  sub/s.txt
`;

/** This library's output of REAL's last two sections (the deliberate difference in the header). */
const OURS = {
  mixed:
    "## mixed\nrm 'a.txt'\nrm 'm/a.txt'\nrm 'm/b.txt'\nrm 'm/k/c.txt'\nrc=128\nE:fatal: git rm: 'm/a.txt': Read-only file system\n" +
    "-- ls\nd/m/x.txt m/a.txt m/b.txt m/k/c.txt sub/s.txt z.txt \n-- st\nD  a.txt\n",
  mixeddir:
    "## mixeddir\nrm 'a.txt'\nrm 'sub/s.txt'\nrc=128\nE:fatal: git rm: 'sub/s.txt': Is a directory\n" +
    "-- ls\nd/m/x.txt m/a.txt m/b.txt m/k/c.txt sub/s.txt z.txt \n-- st\nD  a.txt\n D sub/s.txt\n",
};

it("git rm dies 128 on the first file the working tree keeps, the index untouched, as git 2.39.5", async () => {
  const out = await inShellWorkspace(
    async (ws) => {
      await ws.ready();
      const r = await sh(
        ws,
        "mkdir -p /tmp sub && echo S > sub/s.txt && echo Z > z.txt && echo W > a.txt && git init -q && git add -A && git commit -qm c && " + CASES,
        { cwd: "/workspace" },
      );
      const bytes = { a: await ws.fs.readFile("/workspace/m/a.txt", "utf8"), x: await ws.fs.readFile("/workspace/d/m/x.txt", "utf8") };
      return { out: r.stdout, stderr: r.stderr, bytes };
    },
    {
      workspace: {
        git: createGitClient(),
        defaultGitIdentity: { name: "T", email: "t@e" },
        mounts: {
          "/workspace/m": WorkerBundle({ "a.txt": "A\n", "b.txt": "B\n", "k/c.txt": "K\n" }),
          "/workspace/d/m": WorkerBundle({ "x.txt": "DM\n" }),
        },
      },
    },
  );
  const cut = REAL.indexOf("## mixed\n");
  expect(out).toEqual({ out: REAL.slice(0, cut) + OURS.mixed + OURS.mixeddir, stderr: "", bytes: { a: "A\n", x: "DM\n" } });
}, 120000);
