/**
 * Issue 20, thirty-fourth run (fixer CP): the siblings of test/workers/attack34d/chmod-r-follows-links-out-of-the-tree
 * and cp-rn-into-existing-directory-copies-nothing — the shell's `chmod -R`/`-v` and `cp -n` in the neighbourhood of
 * those defects, each case in a fresh /workspace, compared with GNU coreutils 9.1 run on this machine (bash 5.2.15,
 * umask 022, same commands in an empty temporary directory; the expected texts are its stdout and stderr verbatim).
 * - chmod -R: links met in the walk (to a file, a directory, nowhere, back up the tree) are left alone with their
 *   targets and named by -v (`neither symbolic link … nor referent has been changed`); a link operand is followed,
 *   with -R into the directory it leads to (names `lu/f`, `lu/v/g`); an operand's trailing slash is kept in its own
 *   name and dropped below it; -v words each file as GNU (`changed from 0755 (rwxr-xr-x) to …`, `retained as`,
 *   s/S/t/T); a dangling link operand is `cannot operate on dangling symlink`, status 1.
 * - cp -n: a directory is merged into an existing one at every level (`-rn a/.`, `-Rn a c`, `-an` keeping modes and
 *   links, `-rnT`), an existing file, link or directory is never overwritten (status 0, no message), and GNU's
 *   refusals stay: a directory over a file (`cannot overwrite non-directory`), a dangling link (`not writing through
 *   dangling symlink`), both status 1; `cp -rn d .` and `cp -rn d/. d` are quiet no-ops.
 * Lines of `chmod -Rv` are sorted (GNU lists a directory in its on-disk order, the Workspace in name order).
 * `cp -nv` is not compared: GNU names every file it makes inside a new subtree, the shell's cp names the subtree.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, resetTree, sh } from "../shell/helpers.js";

/** [command, GNU stdout, GNU stderr]. */
const CASES: readonly (readonly [string, string, string])[] = [
  ["mkdir s d; printf '#!/bin/sh\\n' > s/run.sh; chmod 755 s/run.sh; echo x > d/a; ln -s ../s/run.sh d/run; ln -s ../s d/ls; ln -s nowhere d/dang; chmod -Rv 644 d > out; echo rc=$?; sort out; chmod -R a-w d; echo rc=$?; stat -c '%a %n' s s/run.sh d d/a",
    "rc=0\nmode of 'd' changed from 0755 (rwxr-xr-x) to 0644 (rw-r--r--)\nmode of 'd/a' retained as 0644 (rw-r--r--)\nneither symbolic link 'd/dang' nor referent has been changed\nneither symbolic link 'd/ls' nor referent has been changed\nneither symbolic link 'd/run' nor referent has been changed\nrc=0\n755 s\n755 s/run.sh\n444 d\n444 d/a\n",
    ""],
  ["mkdir -p u/v; echo x > u/f; echo y > u/v/g; ln -s u lu; chmod -Rv 700 lu > out; echo rc=$?; sort out; stat -c '%a %n' u u/f u/v u/v/g",
    "rc=0\nmode of 'lu' changed from 0755 (rwxr-xr-x) to 0700 (rwx------)\nmode of 'lu/f' changed from 0644 (rw-r--r--) to 0700 (rwx------)\nmode of 'lu/v' changed from 0755 (rwxr-xr-x) to 0700 (rwx------)\nmode of 'lu/v/g' changed from 0644 (rw-r--r--) to 0700 (rwx------)\n700 u\n700 u/f\n700 u/v\n700 u/v/g\n",
    ""],
  ["echo x > t; ln -s t lt; chmod -v 600 lt; echo rc=$?; stat -c '%a %n' t",
    "mode of 'lt' changed from 0644 (rw-r--r--) to 0600 (rw-------)\nrc=0\n600 t\n",
    ""],
  ["mkdir -p p/q; echo > p/q/f; chmod -Rv 750 p/ > out; sort out",
    "mode of 'p/' changed from 0755 (rwxr-xr-x) to 0750 (rwxr-x---)\nmode of 'p/q' changed from 0755 (rwxr-xr-x) to 0750 (rwxr-x---)\nmode of 'p/q/f' changed from 0644 (rw-r--r--) to 0750 (rwxr-x---)\n",
    ""],
  ["echo > f; chmod -v 4755 f; chmod -v 4644 f; chmod -v 644 f; chmod -v 644 f; mkdir t1; chmod -v 1777 t1; chmod -v 1776 t1; chmod -v 2750 t1; chmod -v 0750 t1",
    "mode of 'f' changed from 0644 (rw-r--r--) to 4755 (rwsr-xr-x)\nmode of 'f' changed from 4755 (rwsr-xr-x) to 4644 (rwSr--r--)\nmode of 'f' changed from 4644 (rwSr--r--) to 0644 (rw-r--r--)\nmode of 'f' retained as 0644 (rw-r--r--)\nmode of 't1' changed from 0755 (rwxr-xr-x) to 1777 (rwxrwxrwt)\nmode of 't1' changed from 1777 (rwxrwxrwt) to 1776 (rwxrwxrwT)\nmode of 't1' changed from 1776 (rwxrwxrwT) to 2750 (rwxr-s---)\nmode of 't1' retained as 2750 (rwxr-s---)\n",
    ""],
  ["mkdir -p w/x; echo > w/x/f; ln -s x w/lx; ln -s ../w w/x/up; chmod -R 700 w; echo rc=$?; stat -c '%a %n' w w/x w/x/f",
    "rc=0\n700 w\n700 w/x\n700 w/x/f\n",
    ""],
  ["ln -s nowhere dang; chmod 600 dang; echo rc=$?; chmod -R 600 dang; echo rc=$?; chmod 600 missing; echo rc=$?",
    "rc=1\nrc=1\nrc=1\n",
    "chmod: cannot operate on dangling symlink 'dang'\nchmod: cannot operate on dangling symlink 'dang'\nchmod: cannot access 'missing': No such file or directory\n"],
  ["mkdir -p a/s/t b; echo 1 > a/f; echo 3 > a/s/g; echo 4 > a/s/t/h; echo 5 > a/new; echo 2 > b/f; cp -rn a/. b; echo rc=$?; for f in $(find b -type f | sort); do echo \"$f:$(cat $f)\"; done",
    "rc=0\nb/f:2\nb/new:5\nb/s/g:3\nb/s/t/h:4\n",
    ""],
  ["mkdir -p a/s/t c/a/s; echo 1 > a/f; echo 3 > a/s/g; echo 4 > a/s/t/h; echo 5 > a/new; echo 2 > c/a/f; echo 6 > c/a/s/g; cp -Rn a c; echo rc=$?; for f in $(find c -type f | sort); do echo \"$f:$(cat $f)\"; done",
    "rc=0\nc/a/f:2\nc/a/new:5\nc/a/s/g:6\nc/a/s/t/h:4\n",
    ""],
  ["mkdir -p a/s b/s; echo 1 > a/x; chmod 700 a/x; echo 2 > a/s/y; chmod 600 a/s/y; ln -s x a/lx; echo 9 > b/x; cp -an a/. b; echo rc=$?; stat -c '%a %F %n' b/x b/s/y b/lx; cat b/x b/s/y",
    "rc=0\n644 regular file b/x\n600 regular file b/s/y\n777 symbolic link b/lx\n9\n2\n",
    ""],
  ["mkdir -p a/s e; echo 1 > a/f; echo 2 > a/s/g; echo z > e/s; cp -rn a/. e; echo rc=$?; find e | sort",
    "rc=1\ne\ne/f\ne/s\n",
    "cp: cannot overwrite non-directory 'e/./s' with directory 'a/./s'\n"],
  ["mkdir -p a h/f; echo 1 > a/f; echo 2 > a/g; cp -rn a/. h; echo rc=$?; find h | sort",
    "rc=0\nh\nh/f\nh/g\n",
    ""],
  ["echo 1 > f; mkdir -p h/f; cp -n f h; echo rc=$?; ln -s nowhere dl; cp -n f dl; echo rc=$?",
    "rc=0\nrc=1\n",
    "cp: not writing through dangling symlink 'dl'\n"],
  ["mkdir d; echo 1 > d/f; cp -rn d .; echo rc=$?; cp -rn d/. d; echo rc=$?; find d | sort",
    "rc=0\nrc=0\nd\nd/f\n",
    ""],
  ["mkdir -p a/s b; echo 1 > a/f; echo 2 > a/s/g; echo 0 > b/f; cp -rnT a b; echo rc=$?; cp -r a/. b; echo rc=$?; for f in $(find b -type f | sort); do echo \"$f:$(cat $f)\"; done",
    "rc=0\nrc=0\nb/f:1\nb/s/g:2\n",
    ""],
];

it("chmod -R leaves links in the tree alone, follows link operands and words -v; cp -n merges directories, as GNU coreutils 9.1", async () => {
  const got = await inShellWorkspace(async (ws) => {
    const results: [string, string, string][] = [];
    for (const [command] of CASES) {
      await resetTree(ws, {});
      const r = await sh(ws, command, { cwd: "/workspace" });
      results.push([command, r.stdout, r.stderr]);
    }
    return results;
  });
  expect(got).toEqual(CASES);
}, 120000);
