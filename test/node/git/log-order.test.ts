/**
 * `log` order (spec 04 §2.3, issue 15): the client's `log` and the CLI's
 * `git log` list commits in real git's default order — newest committer
 * timestamp first, ties in the order the walk queued them — compared with
 * `git log --format=%H` of /usr/bin/git on the same repository, for merge
 * histories with equal timestamps and with skewed (child older than parent)
 * timestamps.
 */
import { afterAll, describe, expect, it } from "vitest";
import { gitDated } from "./repo-helpers.js";
import { TIME, cleanupScratch, realGit, realRepo, tempDir, workspaceCopy } from "./worktree-helpers.js";

afterAll(cleanupScratch);

/** A commit on disk at committer (and author) time `time`, with one file change. */
function commitAt(dir: string, time: number, name: string): void {
  realGit(dir, "commit", "-q", "--allow-empty", "-m", name);
  // re-date it: amend with the wanted dates
  gitDated(dir, { author: `@${time} +0000`, committer: `@${time} +0000` }, "commit", "-q", "--amend", "--allow-empty", "--no-edit");
}

function mergeAt(dir: string, time: number, ...branches: string[]): void {
  gitDated(dir, { author: `@${time} +0000`, committer: `@${time} +0000` }, "merge", "-q", "--no-ff", "-m", `merge ${branches.join(" ")}`, ...branches);
}

/**
 * main: A-B-------M1---F--M2
 *        \       /        /
 * side:   C--D--E        /
 *            \          /
 * other:      G--H-----
 * `times` gives each commit's timestamp by name.
 */
function history(times: Record<string, number>): string {
  return realRepo((dir) => {
    realGit(dir, "init", "-q", "-b", "main");
    commitAt(dir, times.A!, "A");
    realGit(dir, "branch", "side");
    commitAt(dir, times.B!, "B");
    realGit(dir, "checkout", "-q", "side");
    commitAt(dir, times.C!, "C");
    commitAt(dir, times.D!, "D");
    realGit(dir, "branch", "other");
    commitAt(dir, times.E!, "E");
    realGit(dir, "checkout", "-q", "other");
    commitAt(dir, times.G!, "G");
    commitAt(dir, times.H!, "H");
    realGit(dir, "checkout", "-q", "main");
    mergeAt(dir, times.M1!, "side");
    commitAt(dir, times.F!, "F");
    mergeAt(dir, times.M2!, "other");
  });
}

async function compare(disk: string, refs: string[]): Promise<void> {
  const { git, dir } = await workspaceCopy(disk);
  for (const ref of refs) {
    const real = realGit(disk, "log", "--format=%H", ref).trim().split("\n");
    expect(real.length).toBeGreaterThan(1);
    expect((await git.log({ dir, ref })).map((c) => c.oid), ref).toEqual(real);
    for (const depth of [1, 3, 5]) {
      const realN = realGit(disk, "log", "--format=%H", `-n${depth}`, ref).trim().split("\n");
      expect((await git.log({ dir, ref, depth })).map((c) => c.oid), `${ref} -n${depth}`).toEqual(realN);
    }
    const cli = await git.cli({ argv: ["log", "--format=%H %s", ref], cwd: dir });
    expect(cli).toEqual({ stdout: realGit(disk, "log", "--format=%H %s", ref), stderr: "", exitCode: 0 });
  }
}

describe("log: real git's default order", () => {
  it("every timestamp equal: a merge history lists each commit once, in the order git queued them", async () => {
    const same = Object.fromEntries(["A", "B", "C", "D", "E", "G", "H", "M1", "F", "M2"].map((n) => [n, TIME]));
    const disk = history(same);
    // the real git's order on this history, spelled out: with equal timestamps git itself lists A (queued
    // as B's parent) before C (queued later as D's parent), a parent before its child
    expect(realGit(disk, "log", "--format=%s").trim().split("\n")).toEqual(["merge other", "F", "H", "merge side", "G", "B", "E", "D", "A", "C"]);
    await compare(disk, ["HEAD", "side", "other", "HEAD~1", "HEAD^2"]);
  });

  it("skewed timestamps: children older than their parents, side branches newer than the main line", async () => {
    const disk = history({ A: TIME + 500, B: TIME + 10, C: TIME + 900, D: TIME + 20, E: TIME + 20, G: TIME + 1000, H: TIME + 5, M1: TIME + 30, F: TIME + 30, M2: TIME });
    await compare(disk, ["HEAD", "side", "other", "HEAD^2", "HEAD~2"]);
  });

  it("a mix of equal and distinct timestamps", async () => {
    const disk = history({ A: TIME, B: TIME + 60, C: TIME + 60, D: TIME + 60, E: TIME + 120, G: TIME + 60, H: TIME + 120, M1: TIME + 120, F: TIME + 120, M2: TIME + 120 });
    await compare(disk, ["HEAD", "side", "HEAD~1"]);
  });

  it("a shallow clone: the commits of .git/shallow are walked as having no parents, as real git walks them", async () => {
    const full = history(Object.fromEntries(["A", "B", "C", "D", "E", "G", "H", "M1", "F", "M2"].map((n, i) => [n, TIME + i * 60])));
    const disk = tempDir();
    realGit(disk, "clone", "-q", "--depth", "3", "--no-local", `file://${full}`, ".");
    expect(realGit(disk, "rev-parse", "--is-shallow-repository").trim()).toBe("true");
    const { git, dir } = await workspaceCopy(disk);
    const real = realGit(disk, "log", "--format=%H").trim().split("\n");
    expect(real.length).toBeLessThan(10);
    expect((await git.log({ dir })).map((c) => c.oid)).toEqual(real);
  });
});
