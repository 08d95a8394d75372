/**
 * Issue 20, run 36, fixer GR — attacker b's side note in test/workers/attack36b/git-rm-read-only-mount-stages-deletion.test.ts
 * ("git clean -fd beside the mount"): `git clean` stopped at the first path the Workspace refused (EROFS), leaving
 * every later untracked path in place, exit 1 with the Workspace's error. git 2.39.5's clean.c warns for each file it
 * cannot remove (`warning: failed to remove m/a.txt: Read-only file system`, also with -q), removes all the rest —
 * inside a partly removable directory too, listing what went there one by one (`Removing p/x.txt`, not `p/`) — and
 * exits 1. Checked against git 2.39.5 on this machine: the same tree with `m` and `p/m` bind-mounted read-only
 * (`mount --bind m m && mount -o remount,ro,bind m`, unmounted after) running CASES; its output is REAL, verbatim
 * (stderr sorted: git warns in readdir order, this Workspace lists in byte order). Fixed in src/git/ops/worktree.ts
 * `clean` (CLEAN_FAILURES, removeDirs) and src/git/cli/commands.ts `clean` (issue 20, run 36, fixer GR).
 */
import { expect, it } from "vitest";
import { WorkerBundle } from "../../../src/index.js";
import { createGitClient } from "../../../src/git/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

/** Each case: its header, stdout, `rc=`, stderr lines sorted and prefixed `E:`, the files left on one line. */
const CASES = String.raw`c() { echo "## $1"; eval "$2" >/tmp/gr_o 2>/tmp/gr_e; rc=$?; cat /tmp/gr_o; echo "rc=$rc"; sort /tmp/gr_e | sed 's/^/E:/'; echo "-- left"; find . -path ./.git -prune -o -type f -print | sort | tr '\n' ' '; echo; }
c dry "git clean -fdn"
c files "git clean -f"
echo U > u.txt
c dirs "git clean -fd"
echo U > u.txt; mkdir -p w; echo W > w/w.txt; echo X > p/x.txt
c quiet "git clean -fdq"
`;

/** git 2.39.5's output of CASES (above). */
const REAL = `## dry
Would remove m/
Would remove p/
Would remove u.txt
Would remove w/
Would remove z.txt
rc=0
-- left
./m/a.txt ./m/sub/b.txt ./p/m/a.txt ./p/x.txt ./t.txt ./u.txt ./w/w.txt ./z.txt 
## files
Removing u.txt
Removing z.txt
rc=0
-- left
./m/a.txt ./m/sub/b.txt ./p/m/a.txt ./p/x.txt ./t.txt ./w/w.txt 
## dirs
Removing p/x.txt
Removing u.txt
Removing w/
rc=1
E:warning: failed to remove m/a.txt: Read-only file system
E:warning: failed to remove m/sub/b.txt: Read-only file system
E:warning: failed to remove p/m/a.txt: Read-only file system
-- left
./m/a.txt ./m/sub/b.txt ./p/m/a.txt ./t.txt 
## quiet
rc=1
E:warning: failed to remove m/a.txt: Read-only file system
E:warning: failed to remove m/sub/b.txt: Read-only file system
E:warning: failed to remove p/m/a.txt: Read-only file system
-- left
./m/a.txt ./m/sub/b.txt ./p/m/a.txt ./t.txt 
`;

it("git clean removes what it can beside a read-only mount, warns for the rest and exits 1, as git 2.39.5", async () => {
  const out = await inShellWorkspace(
    async (ws) => {
      await ws.ready();
      const r = await sh(
        ws,
        "mkdir -p /tmp w && echo T > t.txt && git init -q && git add t.txt && git commit -qm c && echo X > p/x.txt && echo U > u.txt && echo Z > z.txt && echo W > w/w.txt && " +
          CASES,
        { cwd: "/workspace" },
      );
      const bytes = { a: await ws.fs.readFile("/workspace/m/sub/b.txt", "utf8"), pa: await ws.fs.readFile("/workspace/p/m/a.txt", "utf8") };
      return { out: r.stdout, stderr: r.stderr, bytes };
    },
    {
      workspace: {
        git: createGitClient(),
        defaultGitIdentity: { name: "T", email: "t@e" },
        mounts: {
          "/workspace/m": WorkerBundle({ "a.txt": "A\n", "sub/b.txt": "B\n" }),
          "/workspace/p/m": WorkerBundle({ "a.txt": "PA\n" }),
        },
      },
    },
  );
  expect(out).toEqual({ out: REAL, stderr: "", bytes: { a: "B\n", pa: "PA\n" } });
}, 120000);
