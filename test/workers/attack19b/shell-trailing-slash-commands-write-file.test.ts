/**
 * Issue 20, nineteenth attack run: the shell's commands that write a file (`tee`, `cp`, `mv`, `touch`) drop a
 * trailing `/` of the destination — the Workspace fs adapter normalises it away (fs-adapter.ts resolvePath: "repeated
 * and trailing slashes") — so a destination that can only name a directory overwrites or creates a FILE. The
 * scout18 fix (24f8ca5) refuses such targets for redirects only (redirect-failure.ts redirectTargetError); the root
 * cause it named (WorkspaceFsAdapter writeFile/appendFile) was left.
 * Tried: with /workspace/f.txt = "keep\n", in the shell: `echo h | tee f.txt/`, `echo i | tee new1/`,
 * `cp f.txt g.txt/`, `touch new2/`, `echo j > k.txt; mv k.txt f.txt/`; side by side with real bash 5 + coreutils.
 * Found (medium — silent data loss in an ordinary typo): every one succeeds ($? 0, no stderr): tee replaces f.txt
 * ("h\n"), `tee new1/` creates a file new1, `cp` creates a file g.txt, `touch` a file new2, and `mv k.txt f.txt/`
 * replaces f.txt with k.txt ("j\n") (1 of 1 probe run, 2 of 2 test runs). coreutils refuses each, writing nothing:
 * `tee: f.txt/: Is a directory`, `tee: new1/: Is a directory`, `cp: cannot create regular file 'g.txt/': Not a
 * directory`, `touch: setting times of 'new2/': No such file or directory`, `mv: cannot stat 'f.txt/': Not a
 * directory`, each `$?` 1 (tee still copies stdin to stdout).
 * Suggested fix: keep the trailing `/` (and a last `.` segment) of a path through the adapter's resolvePath and
 * refuse, in WorkspaceFsAdapter writeFile/appendFile/rename's destination/utimes-creating-touch, a path ending in `/`
 * that does not lead to a directory (EISDIR to create, ENOTDIR for a file, ENOENT for nothing) — the rule
 * SQLiteWorkspaceProvider already keeps for node:fs (docs/porting.md).
 * Fixed: WorkspaceFsAdapter.resolvePath keeps the trailing `/` (and a last `.`) and every adapter method requires such
 * a path to lead to a directory: writeFile/appendFile/cp's file destination refuse `f/` with EISDIR, mv to `f/` needs
 * a directory source (ENOTDIR), stat/exists/utimes of `f.txt/` fail ENOTDIR.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("tee/cp/mv/touch to a path ending in / refuse a file destination ($? 1) and write nothing", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.ready();
    await ws.fs.mkdir("/workspace", { recursive: true });
    await ws.fs.writeFile("/workspace/f.txt", "keep\n");
    await ws.fs.writeFile("/workspace/k.txt", "j\n");
    const script = [
      "echo h | tee f.txt/ >/dev/null 2>&1; echo rc=$?",
      "echo i | tee new1/ >/dev/null 2>&1; echo rc=$?",
      "cp f.txt g.txt/ 2>/dev/null; echo rc=$?",
      "touch new2/ 2>/dev/null; echo rc=$?",
      "mv k.txt f.txt/ 2>/dev/null; echo rc=$?",
    ].join("\n");
    const r = await sh(ws, script, { cwd: "/workspace" });
    return {
      stdout: r.stdout,
      f: await ws.fs.readFile("/workspace/f.txt", "utf8"),
      names: (await ws.fs.readdir("/workspace")).map((e) => e.name).sort(),
    };
  });
  // Probe (this checkout): stdout "rc=0\n" × 5, f "j\n", names ["f.txt", "g.txt", "new1", "new2"].
  expect(out).toEqual({ stdout: "rc=1\n".repeat(5), f: "keep\n", names: ["f.txt", "k.txt"] });
}, 60_000);
