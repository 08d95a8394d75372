/**
 * Issue 20, run 31, fixer ST — attacker c's finding: `git stash pop` refused "stash conflicts with changes committed
 * since in a.txt" whenever HEAD changed a stashed file since the stash was made, even where git 2.39.5 merges cleanly
 * (the stash's change and HEAD's on different lines), so the common `git stash; git pull; git stash pop` failed.
 *
 * Tried: stashes made by the real git (and by the Workspace), a commit on top, then `stash pop` by the real git in one
 * copy and by the Workspace in another; compared the files (bytes, exec bits), `status --porcelain`, `ls-files -s`
 * and `stash list` as the real git reads them.
 * Found: every pop of a file HEAD had touched was refused (exit 1), the stash left unapplied.
 * Fixed: src/git/ops/stash.ts — `stashPop` merges as git's do_apply_stash (base = the stash's parent, ours = the
 * index, theirs = the stash's working-tree commit) with the merge driver of `merge` (boundedMergeDriver, exported
 * from src/git/ops/worktree.ts) on the blobs' bytes; new files staged, other changes unstaged (git's
 * unstage_changes_unless_new). A real conflict (the same lines, modify/delete, add/add, binary) still refuses before
 * writing anything and keeps the entry (git 2.39.5 writes markers and unmerged entries; the Workspace's merge never
 * leaves a conflicted index): `CONFLICT (content): Merge conflict in a.txt; the stash was not applied and is kept`.
 */
import { writeFileSync, chmodSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  cleanupScratch,
  committedRepo,
  diskCopy,
  diskSnapshot,
  exportDir,
  realGit,
  realGitResult,
  workspaceCopy,
  wsSnapshot,
} from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

const LINES = "1\n2\n3\n4\n5\n6\n7\n";
const write = (d: string, path: string, text: string | Uint8Array) => writeFileSync(join(d, path), text);

/**
 * A repository on disk after `change` + real `git stash` + `since` (HEAD moved, local edits); returns it with a real
 * git copy popped and a Workspace copy popped.
 */
async function popBoth(files: Parameters<typeof committedRepo>[0], change: (d: string) => void, since: (d: string) => void) {
  const disk = committedRepo(files);
  change(disk);
  realGit(disk, "stash", "-q");
  since(disk);
  const before = diskSnapshot(disk);
  const real = diskCopy(disk);
  const { ws, git, dir } = await workspaceCopy(disk);
  const realPop = realGitResult(real, "stash", "pop");
  const wsPop = await git.cli({ argv: ["stash", "pop"], cwd: dir });
  const exported = await exportDir(ws, dir);
  const view = (d: string) => ({
    status: realGit(d, "status", "--porcelain=v1", "--untracked-files=all"),
    index: realGit(d, "ls-files", "-s"),
    stashes: realGit(d, "stash", "list").split("\n").length - 1,
  });
  return { disk, before, real, realPop, wsPop, ws, dir, git, realView: view(real), wsView: view(exported), wsFiles: await wsSnapshot(ws, dir) };
}

describe("stash pop merges what git merges cleanly", () => {
  it("HEAD changed another line of a stashed file: merged, as git (staged + unstaged, new file, deletion, exec bit, local edits)", { timeout: 60_000 }, async () => {
    const r = await popBoth(
      { "a.txt": LINES, "b.txt": "b\n", "c.txt": "c\n", "del.txt": "d\n", "x.sh": "x\n", "s.txt": "s\n" },
      (d) => {
        write(d, "a.txt", LINES.replace("1\n", "1 stash\n"));
        write(d, "b.txt", "b staged\n");
        realGit(d, "add", "b.txt");
        write(d, "b.txt", "b unstaged\n");
        write(d, "new.txt", "new\n");
        realGit(d, "add", "new.txt");
        rmSync(join(d, "del.txt"));
        chmodSync(join(d, "x.sh"), 0o755);
        write(d, "u.txt", "untracked, not stashed\n");
      },
      (d) => {
        write(d, "a.txt", LINES.replace("7\n", "7 upstream\n"));
        realGit(d, "commit", "-q", "-am", "upstream");
        write(d, "c.txt", "c local edit\n"); // a local edit the stash does not hold
        write(d, "s.txt", "s staged\n");
        realGit(d, "add", "s.txt"); // a staged change the stash does not hold
        write(d, "loc.txt", "local untracked\n");
      },
    );
    expect(r.realPop.status).toBe(0);
    expect(r.wsPop).toEqual({ stdout: "Dropped stash@{0}\n", stderr: "", exitCode: 0 }); // Was: exit 1, "git stash: stash conflicts with changes committed since in a.txt"
    expect(r.wsFiles).toEqual(diskSnapshot(r.real));
    expect(r.wsFiles["a.txt"]).toBe(`file ${Buffer.from("1 stash\n2\n3\n4\n5\n6\n7 upstream\n").toString("hex")}`);
    expect(r.wsView).toEqual(r.realView);
    expect(r.wsView.status).toBe(" M a.txt\n M b.txt\n M c.txt\n D del.txt\nA  new.txt\nM  s.txt\n M x.sh\n?? loc.txt\n?? u.txt\n");
    expect(r.wsView.stashes).toBe(0);
    expect((await r.git.cli({ argv: ["status", "--porcelain=v1"], cwd: r.dir })).stdout).toBe(r.realView.status);
  });

  it("exec bit on one side, content on the other (both ways); a file both changed the same way", { timeout: 60_000 }, async () => {
    const r = await popBoth(
      { "x.sh": "x\n", "y.sh": "y\n", "same.txt": "s\n" },
      (d) => {
        chmodSync(join(d, "x.sh"), 0o755);
        write(d, "y.sh", "y stash\n");
        write(d, "same.txt", "both\n");
      },
      (d) => {
        write(d, "x.sh", "x upstream\n");
        write(d, "y.sh", "y\n");
        chmodSync(join(d, "y.sh"), 0o755);
        write(d, "same.txt", "both\n");
        realGit(d, "commit", "-q", "-am", "upstream");
      },
    );
    expect(r.realPop.status).toBe(0);
    expect(r.wsPop.exitCode).toBe(0);
    expect(r.wsFiles).toEqual(diskSnapshot(r.real));
    expect(r.wsFiles["x.sh"]).toBe(`exec ${Buffer.from("x upstream\n").toString("hex")}`);
    expect(r.wsFiles["y.sh"]).toBe(`exec ${Buffer.from("y stash\n").toString("hex")}`);
    expect(r.wsView).toEqual(r.realView);
    expect(r.wsView.status).toBe(" M x.sh\n M y.sh\n");
  });

  it("bytes merged exactly: CRLF, a lone CR, non-UTF-8 bytes, changes close enough for diff3", { timeout: 60_000 }, async () => {
    const base = Buffer.from("l1\r\nl2 \xe9\rmid\nl3\nl4\nl5\nl6\n", "latin1");
    const r = await popBoth(
      { "t.txt": base },
      (d) => write(d, "t.txt", Buffer.from("l1\r\nl2 \xe9\rmid\nl3 stash \xff\nl4\nl5\nl6\n", "latin1")),
      (d) => {
        // HEAD changes lines 1 and 5: its change spans the stash's (line 3), so the merge goes through diff3.
        write(d, "t.txt", Buffer.from("l1 up\r\nl2 \xe9\rmid\nl3\nl4\nl5 up\nl6\n", "latin1"));
        realGit(d, "commit", "-q", "-am", "upstream");
      },
    );
    expect(r.realPop.status).toBe(0);
    expect(r.wsPop.exitCode).toBe(0);
    expect(r.wsFiles).toEqual(diskSnapshot(r.real));
    expect(r.wsFiles["t.txt"]).toBe(`file ${Buffer.from("l1 up\r\nl2 \xe9\rmid\nl3 stash \xff\nl4\nl5 up\nl6\n", "latin1").toString("hex")}`);
    expect(r.wsView).toEqual(r.realView);
  });

  it("git stash; git merge <branch>; git stash pop — all by the Workspace, as git", { timeout: 60_000 }, async () => {
    const disk = committedRepo({ "a.txt": LINES, "b.txt": "b\n" }, "base", (d) => {
      realGit(d, "checkout", "-q", "-b", "side");
      write(d, "a.txt", LINES.replace("6\n", "6 side\n"));
      write(d, "b.txt", "b side\n");
      realGit(d, "commit", "-q", "-am", "side");
      realGit(d, "checkout", "-q", "main");
      write(d, "a.txt", LINES.replace("2\n", "2 local\n"));
    });
    const real = diskCopy(disk);
    const { ws, git, dir } = await workspaceCopy(disk);
    const run = (...argv: string[]) => git.cli({ argv, cwd: dir });
    for (const argv of [["stash", "-q"], ["merge", "-q", "side"], ["stash", "pop", "-q"]]) {
      expect(realGitResult(real, ...argv).status).toBe(0);
      expect((await run(...argv)).exitCode).toBe(0);
    }
    expect(await wsSnapshot(ws, dir)).toEqual(diskSnapshot(real));
    expect((await run("status", "--porcelain=v1")).stdout).toBe(" M a.txt\n");
    expect(realGit(real, "status", "--porcelain=v1")).toBe(" M a.txt\n");
    expect((await run("stash", "list")).stdout).toBe("");
  });
});

describe("a real conflict refuses before writing anything and keeps the entry", () => {
  const refused = (r: Awaited<ReturnType<typeof popBoth>>, stderr: string) => {
    // git 2.39.5: exit 1 too, the entry kept (it also leaves markers / unmerged entries; the Workspace writes nothing).
    expect(r.realPop.status).toBe(1);
    expect(r.realView.stashes).toBe(1);
    expect(r.wsPop).toEqual({ stdout: "", stderr, exitCode: 1 });
    expect(r.wsFiles).toEqual(r.before);
    expect(r.wsView.stashes).toBe(1);
    expect(r.wsView.index).toBe(realGit(r.disk, "ls-files", "-s"));
    expect(r.wsView.status).toBe(realGit(r.disk, "status", "--porcelain=v1", "--untracked-files=all"));
  };

  it("the same line changed on both sides", { timeout: 60_000 }, async () => {
    const r = await popBoth(
      { "a.txt": LINES, "b.txt": "b\n" },
      (d) => {
        write(d, "a.txt", LINES.replace("4\n", "4 stash\n"));
        write(d, "b.txt", "b stash\n");
      },
      (d) => {
        write(d, "a.txt", LINES.replace("4\n", "4 upstream\n"));
        realGit(d, "commit", "-q", "-am", "upstream");
      },
    );
    expect(r.realPop.stdout).toContain("CONFLICT (content): Merge conflict in a.txt\n");
    refused(r, "git stash: CONFLICT (content): Merge conflict in a.txt; the stash was not applied and is kept\n");
    // After the refusal the entry still pops once HEAD's change is gone (nothing was lost).
    expect((await r.git.cli({ argv: ["reset", "-q", "--hard", "HEAD~1"], cwd: r.dir })).exitCode).toBe(0);
    expect((await r.git.cli({ argv: ["stash", "pop", "-q"], cwd: r.dir })).exitCode).toBe(0);
    expect((await r.git.cli({ argv: ["status", "--porcelain=v1"], cwd: r.dir })).stdout).toBe(" M a.txt\n M b.txt\n");
  });

  it("HEAD deleted a file the stash modifies; the stash deleted a file HEAD modified", { timeout: 60_000 }, async () => {
    const r = await popBoth(
      { "gone.txt": "g\n", "kept.txt": "k\n" },
      (d) => {
        write(d, "gone.txt", "g stash\n");
        rmSync(join(d, "kept.txt"));
      },
      (d) => {
        realGit(d, "rm", "-q", "gone.txt");
        write(d, "kept.txt", "k upstream\n");
        realGit(d, "commit", "-q", "-am", "upstream");
      },
    );
    expect(r.realPop.stdout).toContain("CONFLICT (modify/delete): gone.txt deleted in Updated upstream and modified in Stashed changes.");
    expect(r.realPop.stdout).toContain("CONFLICT (modify/delete): kept.txt deleted in Stashed changes and modified in Updated upstream.");
    refused(
      r,
      "git stash: CONFLICT (modify/delete): gone.txt deleted in Updated upstream and modified in Stashed changes; " +
        "CONFLICT (modify/delete): kept.txt deleted in Stashed changes and modified in Updated upstream; the stash was not applied and is kept\n",
    );
  });

  it("a binary file changed on both sides; a file both added", { timeout: 60_000 }, async () => {
    const r = await popBoth(
      { "bin.dat": Buffer.from("a\0b\n1\n2\n3\n4\n") },
      (d) => {
        write(d, "bin.dat", Buffer.from("a\0b\n1 stash\n2\n3\n4\n"));
        write(d, "add.txt", "stash\n");
        realGit(d, "add", "add.txt");
      },
      (d) => {
        write(d, "bin.dat", Buffer.from("a\0b\n1\n2\n3\n4 up\n"));
        write(d, "add.txt", "upstream\n");
        realGit(d, "add", "add.txt");
        realGit(d, "commit", "-q", "-am", "upstream");
      },
    );
    expect(r.realPop.stdout).toContain("CONFLICT (add/add): Merge conflict in add.txt");
    expect(r.realPop.stdout).toContain("CONFLICT (content): Merge conflict in bin.dat");
    refused(r, "git stash: CONFLICT (add/add): Merge conflict in add.txt; CONFLICT (content): Merge conflict in bin.dat; the stash was not applied and is kept\n");
  });

  it("an unstaged local edit to a file the merge writes: refused as git (nothing lost)", { timeout: 60_000 }, async () => {
    const r = await popBoth(
      { "a.txt": LINES },
      (d) => write(d, "a.txt", LINES.replace("1\n", "1 stash\n")),
      (d) => {
        write(d, "a.txt", LINES.replace("7\n", "7 upstream\n"));
        realGit(d, "commit", "-q", "-am", "upstream");
        write(d, "a.txt", LINES.replace("7\n", "7 upstream\n").replace("4\n", "4 local\n"));
      },
    );
    expect(r.realPop.stderr).toContain("Your local changes to the following files would be overwritten by merge:\n\ta.txt\n");
    refused(r, "git stash: your local changes to the following files would be overwritten by stash: a.txt\n");
  });
});
