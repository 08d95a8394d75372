/**
 * Issue 20, run 33, fixer GD — leads from fixer GE: the shell's `git checkout --detach` / `git switch --detach` stayed
 * on the branch (`Already on 'main'`), so the next commit moved `main`; and `git diff` / `git show` left gitlinks
 * (mode 160000, a nested repository staged by `git add`) out: no `Subproject commit <oid>` patch, no ` sub | 1 +` stat.
 * Each script's stdout and stderr are checked against git 2.39.5 (/usr/bin/git on this machine: the same scripts run
 * with `bash -c SCRIPT` in an empty directory on 2026-12-06; the oids, which differ per run, put back from what each
 * script recorded).
 * - Detach: `checkout --detach <rev>`, `checkout --detach` (at HEAD, from a branch and when already detached),
 *   `switch --detach <rev>` and bare `switch --detach`, `-q`, `--detach -b` (fatal), `switch --detach <unknown>`
 *   (fatal), then a commit on the detached HEAD leaves `main` where it was and `checkout main` warns it is left behind.
 * - Gitlinks: `diff --cached` (patch, `--stat`, `--numstat`, `--name-status`) of a newly staged gitlink, `diff HEAD~1`
 *   (working tree: the submodule's directory as the index has it) patch and stat, `show` and `show --stat`, a changed
 *   gitlink (`index <a>..<b> 160000`, `-`/`+Subproject commit` lines, ` sub | 2 +-`), `diff <a> <b>` between commits,
 *   and a removed one (`deleted file mode 160000`, numstat `0 1`).
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "Shell User", email: "shell@example.com" } } };

const DETACH =
  "mkdir r && cd r && git init -q -b main . && echo a > a && git add . && git commit -qm a && git rev-parse --short HEAD > ../a.oid && " +
  "echo b > b && git add b && git commit -qm b && git rev-parse --short HEAD > ../b.oid && git checkout --detach HEAD~1; echo rc=$?; " +
  "git branch --show-current; git checkout main; git checkout --detach; echo rc=$?; git branch --show-current; git checkout --detach; " +
  "git checkout main; git switch --detach HEAD~1; git switch --detach; git checkout -q main; git checkout --detach -b x; echo rc=$?; git checkout --detach v9; echo rc=$?; git checkout --detach main a; echo rc=$?; " +
  "git switch --detach nope; echo rc=$?; git checkout -q --detach main; echo rc=$?; echo c > c && git add c && git commit -qm c && " +
  "git rev-parse --short HEAD > ../c.oid; git branch --show-current; git log --format=%s main; git checkout main";

// git 2.39.5's stdout and stderr of DETACH (<name>: the short oid the script recorded for that commit).
const DETACH_OUT = "rc=0\nrc=0\nrc=128\nrc=128\nrc=128\nrc=128\nrc=0\nb\na\n";
const DETACH_ERR = `HEAD is now at <a> a
Previous HEAD position was <a> a
Switched to branch 'main'
HEAD is now at <b> b
HEAD is now at <b> b
Switched to branch 'main'
HEAD is now at <a> a
HEAD is now at <a> a
fatal: '--detach' cannot be used with '-b/-B/--orphan'
fatal: git checkout: --detach does not take a path argument 'v9'
fatal: git checkout: --detach does not take a path argument 'a'
fatal: invalid reference: nope
Warning: you are leaving 1 commit behind, not connected to
any of your branches:

  <c> c

If you want to keep it by creating a new branch, this may be a good time
to do so with:

 git branch <new-branch-name> <c>

Switched to branch 'main'
`;

it("git checkout --detach and git switch --detach detach HEAD, as git 2.39.5", async () => {
  const r = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/t", { recursive: true });
    const out = await sh(ws, DETACH, { cwd: "/t" });
    const oids = new Map<string, string>();
    for (const name of ["a", "b", "c"]) oids.set(name, (await sh(ws, `cat ${name}.oid`, { cwd: "/t" })).stdout.trim());
    return { out, oids };
  }, withGit);
  let expected = DETACH_ERR;
  for (const [name, oid] of r.oids) {
    expect(oid).toMatch(/^[0-9a-f]{7}$/);
    expected = expected.replaceAll(`<${name}>`, oid);
  }
  expect(r.out.stdout).toBe(DETACH_OUT);
  // git's `fatal: `; this CLI prefixes its fatal errors with `git <command>: ` (docs/git.md).
  expected = expected.replace("fatal: '--detach'", "git checkout: '--detach'").replace("fatal: invalid", "git switch: invalid").replaceAll("fatal: git checkout", "git checkout");
  expect(r.out.stderr).toBe(expected);
});

const LINK =
  "mkdir r && cd r && git init -q -b main . && echo a > a && git add . && git commit -qm a && mkdir sub && " +
  "(cd sub && git init -q -b main . && echo s > s && git add s && git commit -qm s && git rev-parse HEAD > ../../s1.oid) && " +
  "git add sub 2>/dev/null && echo == cached && git diff --cached && git diff --cached --stat && git diff --cached --numstat && " +
  "git diff --cached --name-status && git commit -qm sub && echo == stat && git diff HEAD~1 --stat && git diff HEAD~1 && " +
  "echo == show && git show --format=%s && git show --stat --format=%s && " +
  "(cd sub && echo t > t && git add t && git commit -qm t && git rev-parse HEAD > ../../s2.oid) && git rm -q --cached sub && " +
  "git add sub 2>/dev/null && echo == modified && git diff --cached && git diff --cached --stat && git commit -qm sub2 && " +
  "echo == range && git diff HEAD~2 HEAD --stat && git diff HEAD~1 HEAD && echo == removed && git rm -q --cached sub && " +
  "git diff --cached && git diff --cached --numstat && git status --porcelain=v1";

// git 2.39.5's stdout of LINK (S1 / S2: the nested repository's two commits; s1 / s2 their first 7 digits); no stderr.
const LINK_OUT = `== cached
diff --git a/sub b/sub
new file mode 160000
index 0000000..s1
--- /dev/null
+++ b/sub
@@ -0,0 +1 @@
+Subproject commit S1
 sub | 1 +
 1 file changed, 1 insertion(+)
1	0	sub
A	sub
== stat
 sub | 1 +
 1 file changed, 1 insertion(+)
diff --git a/sub b/sub
new file mode 160000
index 0000000..s1
--- /dev/null
+++ b/sub
@@ -0,0 +1 @@
+Subproject commit S1
== show
sub

diff --git a/sub b/sub
new file mode 160000
index 0000000..s1
--- /dev/null
+++ b/sub
@@ -0,0 +1 @@
+Subproject commit S1
sub

 sub | 1 +
 1 file changed, 1 insertion(+)
== modified
diff --git a/sub b/sub
index s1..s2 160000
--- a/sub
+++ b/sub
@@ -1 +1 @@
-Subproject commit S1
+Subproject commit S2
 sub | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)
== range
 sub | 1 +
 1 file changed, 1 insertion(+)
diff --git a/sub b/sub
index s1..s2 160000
--- a/sub
+++ b/sub
@@ -1 +1 @@
-Subproject commit S1
+Subproject commit S2
== removed
diff --git a/sub b/sub
deleted file mode 160000
index s2..0000000
--- a/sub
+++ /dev/null
@@ -1 +0,0 @@
-Subproject commit S2
0	1	sub
D  sub
?? sub/
`;

it("git diff, diff --cached and show print gitlinks as Subproject commit lines, as git 2.39.5", async () => {
  const r = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/t", { recursive: true });
    const out = await sh(ws, LINK, { cwd: "/t" });
    const oid = async (name: string) => (await sh(ws, `cat ${name}.oid`, { cwd: "/t" })).stdout.trim();
    return { out, s1: await oid("s1"), s2: await oid("s2") };
  }, withGit);
  expect(r.s1).toMatch(/^[0-9a-f]{40}$/);
  expect(r.s2).toMatch(/^[0-9a-f]{40}$/);
  const fill = (text: string) =>
    text.replaceAll("S1", r.s1).replaceAll("S2", r.s2).replaceAll("s1", r.s1.slice(0, 7)).replaceAll("s2", r.s2.slice(0, 7));
  expect(r.out.stderr).toBe("");
  expect(r.out.stdout).toBe(fill(LINK_OUT));
});
