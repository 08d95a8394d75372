/**
 * Issue 20, nineteenth attack run: the scout18 fix (24f8ca5, redirect-failure.ts redirectTargetError) refuses a
 * redirect target that ENDS in `/`, but the same directory-only target spelled `f.txt/.` still reaches the
 * Workspace with its `/.` dropped (the adapter's path normalisation), so the redirect overwrites or creates a FILE.
 * Tried: with /workspace/f.txt = "keep\n", in the shell: `echo a > f.txt/.`, `echo b > new/.`, `echo c >> f.txt/.`,
 * `echo e 2> f.txt/.`, `echo d > f.txt/..`, `echo g > ./`; side by side with real bash 5 on the same tree.
 * Also `echo k 1<> f.txt/` (read-write redirect): the scout18 check does not cover `<>`, it writes into f.txt at
 * offset 0 ("keep\n" → "e\nep\n" in the probe), `$?` 0; bash: `bash: f.txt/: Is a directory`, `$?` 1. The other
 * forms with a trailing `/` (`>&`, `&>>`, `>|`, `exec 3>`) are refused as in bash.
 * Held: `> ./` is `bash: ./: Is a directory`, $? 1; `> f.txt/..` writes nothing ($? 1, but `Is a directory` where
 * bash says `Not a directory`).
 * Found (medium — silent data loss, the case the scout18 fix meant to close): `echo a > f.txt/.` replaces f.txt's
 * bytes ("keep\n" → "a\n"), `$?` 0; `echo b > new/.` creates a FILE `new`, `$?` 0; `>> f.txt/.` appends, `2> f.txt/.`
 * truncates it; no stderr (1 of 1 probe run, 2 of 2 test runs). bash 5: `bash: f.txt/.: Not a directory`,
 * `bash: new/.: No such file or directory`, `$?` 1, nothing written.
 * Suggested fix: decide on the path as written, not on its text's last character: a target whose last segment is
 * `.` or `..`, or that ends in `/`, must name an existing directory (open with O_CREAT then fails EISDIR; a file
 * there is ENOTDIR, a missing one ENOENT) — best in WorkspaceFsAdapter writeFile/appendFile (keep the trailing `/`
 * and `/.` through resolvePath, as SQLiteWorkspaceProvider already does for node:fs), which also covers
 * shell-trailing-slash-commands-write-file.test.ts.
 * Fixed: WorkspaceFsAdapter.resolvePath keeps a path's directory form (`f.txt/` → `/w/f.txt/`, `f.txt/.` →
 * `/w/f.txt/.`) and the adapter's methods require it to lead to a directory (open with create: `f/` EISDIR, a file
 * under `f/.` ENOTDIR, a missing `new/.` ENOENT); gen-shell patches `<>`'s create failure to report its own reason.
 * The expectation first had `e` in stdout; bash 5 runs no command whose redirection failed, so `echo e 2> f.txt/.`
 * prints nothing (checked side by side).
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("echo > f.txt/., > new/. and 1<> f.txt/ fail as in bash ($? 1) and write nothing", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.ready();
    await ws.fs.mkdir("/workspace", { recursive: true });
    await ws.fs.writeFile("/workspace/f.txt", "keep\n");
    const script = ["echo a > f.txt/.; echo rc=$?", "echo b > new/.; echo rc=$?", "echo c >> f.txt/.; echo rc=$?", "echo e 2> f.txt/.; echo rc=$?", "echo k 1<> f.txt/; echo rc=$?"].join("\n");
    const r = await sh(ws, script, { cwd: "/workspace" });
    return {
      r: { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr },
      f: await ws.fs.readFile("/workspace/f.txt", "utf8"),
      names: (await ws.fs.readdir("/workspace")).map((e) => e.name),
    };
  });
  // Probe (this checkout): stdout "rc=0\nrc=0\nrc=0\ne\nrc=0\nrc=0\n", stderr "", f "k\n" (a, c, 2> truncated it, <> wrote k), names ["f.txt", "new"].
  expect(out).toEqual({
    r: {
      exitCode: 0,
      // bash runs no command whose redirection failed: `echo e 2> f.txt/.` prints nothing (checked with bash 5).
      stdout: "rc=1\nrc=1\nrc=1\nrc=1\nrc=1\n",
      stderr: "bash: f.txt/.: Not a directory\nbash: new/.: No such file or directory\nbash: f.txt/.: Not a directory\nbash: f.txt/.: Not a directory\nbash: f.txt/: Is a directory\n",
    },
    f: "keep\n",
    names: ["f.txt"],
  });
}, 60_000);
