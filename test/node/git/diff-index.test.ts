/**
 * The index side of `diff` (spec 04 §2.3, issue 15): `git diff` (index →
 * working tree), `git diff --cached`/`--staged [<ref>]` (ref → index),
 * `git diff <ref>` (ref → working tree) and `git diff <a> <b>`, through the
 * client and the CLI, compared byte for byte with /usr/bin/git on the same
 * checkout holding staged and unstaged changes to the same files, with each
 * output format (patch, `--stat`, `--name-only`, `--name-status`,
 * `--numstat`).
 */
import { afterAll, describe, expect, it } from "vitest";
import { cleanupScratch, committedRepo, realGit, realGitResult, realRepo, rejection, workspaceCopy, writeTree } from "./worktree-helpers.js";
import { rmSync } from "node:fs";

afterAll(cleanupScratch);

/** Two commits, then staged and unstaged changes — several to the same file. */
function dirtyCheckout(): string {
  const disk = committedRepo({
    "both.txt": "one\ntwo\nthree\nfour\nfive\n",
    "staged-only.txt": "s1\ns2\n",
    "work-only.txt": "w1\nw2\n",
    "staged-then-deleted.txt": "x\ny\n",
    "deleted-staged.txt": "gone\n",
    "mode.sh": "#!/bin/sh\necho hi\n",
    "reverted.txt": "r\n",
    "dir/nested.txt": "n1\nn2\nn3\n",
    "bin.dat": new Uint8Array([0, 1, 2, 3]),
  }, "first", (d) => {
    writeTree(d, { "both.txt": "one\ntwo\nthree\nfour\nfive\nsix\n", "dir/nested.txt": "n1\nN2\nn3\n" });
    realGit(d, "commit", "-q", "-am", "second");
  });
  // staged
  writeTree(disk, {
    "both.txt": "ONE\ntwo\nthree\nfour\nfive\nsix\n",
    "staged-only.txt": "s1\ns2 staged\n",
    "staged-then-deleted.txt": "x\ny staged\n",
    "new-staged.txt": "brand new\n",
    "new-then-edited.txt": "first version\n",
    "mode.sh": { exec: "#!/bin/sh\necho hi\n" },
    "reverted.txt": "r staged\n",
    "bin.dat": new Uint8Array([0, 9, 9]),
  });
  realGit(disk, "add", "-A");
  realGit(disk, "rm", "-q", "--cached", "deleted-staged.txt");
  // then unstaged on top, some to the same files
  writeTree(disk, {
    "both.txt": "ONE\ntwo\nthree\nfour\nFIVE\nsix\n",
    "work-only.txt": "w1\nw2 unstaged\n",
    "new-then-edited.txt": "second version\n",
    "reverted.txt": "r\n",
    "untracked.txt": "not shown\n",
    "bin.dat": new Uint8Array([0, 7]),
  });
  rmSync(`${disk}/staged-then-deleted.txt`);
  return disk;
}

const FORMATS: string[][] = [[], ["--stat"], ["--name-only"], ["--name-status"], ["--numstat"]];

async function compareCli(disk: string, forms: string[][]): Promise<void> {
  const { git, dir } = await workspaceCopy(disk);
  for (const form of forms) {
    for (const format of FORMATS) {
      const argv = ["diff", ...format, ...form];
      const real = realGitResult(disk, ...argv);
      expect(real.status, argv.join(" ")).toBe(0);
      expect(await git.cli({ argv, cwd: dir }), argv.join(" ")).toEqual({ stdout: real.stdout, stderr: "", exitCode: 0 });
    }
  }
}

describe("diff: the index side, as real git", () => {
  it("client: fromIndex = git diff, cached = git diff --cached [ref], ref = git diff <ref>, ref + to = git diff <a> <b>", async () => {
    const disk = dirtyCheckout();
    const { git, dir } = await workspaceCopy(disk);
    const cases: Array<[object, string[]]> = [
      [{ fromIndex: true }, []],
      [{ cached: true }, ["--cached"]],
      [{ cached: true, ref: "HEAD~1" }, ["--cached", "HEAD~1"]],
      [{}, ["HEAD"]],
      [{ ref: "HEAD~1" }, ["HEAD~1"]],
      [{ ref: "HEAD~1", to: "HEAD" }, ["HEAD~1", "HEAD"]],
      [{ fromIndex: true, paths: ["/repo/both.txt", "/repo/dir"] }, ["--", "both.txt", "dir"]],
      [{ cached: true, paths: ["/repo/both.txt"] }, ["--cached", "--", "both.txt"]],
    ];
    for (const [options, argv] of cases) {
      const label = JSON.stringify(options);
      const patch = realGit(disk, "diff", ...argv);
      expect(patch, label).not.toBe("");
      expect(await git.diff({ dir, ...options }), label).toBe(patch);
      const numstat = realGit(disk, "diff", "--numstat", ...argv).trim().split("\n");
      const status = realGit(disk, "diff", "--name-status", ...argv).trim().split("\n");
      const summary = await git.diffSummary({ dir, ...options });
      expect(summary.map((e) => (e.binary ? `-\t-\t${e.path}` : `${e.insertions}\t${e.deletions}\t${e.path}`)), label).toEqual(numstat);
      expect(summary.map((e) => `${e.status}\t${e.path}`), label).toEqual(status);
    }
    // bin.dat: binary on every side, with its sizes (HEAD 4 bytes, index 3, working tree 2)
    expect((await git.diffSummary({ dir, fromIndex: true, paths: ["/repo/bin.dat"] }))[0]).toEqual({ path: "bin.dat", status: "M", insertions: 0, deletions: 0, binary: { oldBytes: 3, newBytes: 2 } });
    expect((await git.diffSummary({ dir, cached: true, paths: ["/repo/bin.dat"] }))[0]?.binary).toEqual({ oldBytes: 4, newBytes: 3 });
    // the three sides of both.txt differ pairwise: each form shows its own hunk
    expect(await git.diff({ dir, fromIndex: true, paths: ["/repo/both.txt"] })).toContain("-five\n+FIVE\n");
    expect(await git.diff({ dir, fromIndex: true, paths: ["/repo/both.txt"] })).not.toContain("+ONE");
    expect(await git.diff({ dir, cached: true, paths: ["/repo/both.txt"] })).toContain("-one\n+ONE\n");
    expect(await git.diff({ dir, cached: true, paths: ["/repo/both.txt"] })).not.toContain("+FIVE");
  });

  it("CLI: git diff, --cached, --staged, <ref>, --cached <ref>, <a> <b>, with paths, in every output format", async () => {
    const disk = dirtyCheckout();
    await compareCli(disk, [[], ["--cached"], ["--staged"], ["HEAD"], ["HEAD~1"], ["--cached", "HEAD~1"], ["--staged", "HEAD~1"], ["HEAD~1", "HEAD"], ["--", "both.txt"], ["--cached", "both.txt", "dir"]]);
  });

  it("before the first commit: git diff --cached shows everything staged, git diff the unstaged edits", async () => {
    const disk = realRepo((d) => {
      writeTree(d, { "a.txt": "a\n", "b.txt": "b\n" });
      realGit(d, "add", "-A");
      writeTree(d, { "a.txt": "a edited\n" });
    });
    await compareCli(disk, [[], ["--cached"], ["--staged"]]);
    const { git, dir } = await workspaceCopy(disk);
    expect(await git.diff({ dir, cached: true })).toBe(realGit(disk, "diff", "--cached"));
    expect(await git.diff({ dir, fromIndex: true })).toBe(realGit(disk, "diff"));
  });

  it("a clean index: git diff and git diff --cached print nothing", async () => {
    const disk = committedRepo({ "a.txt": "a\n" }, "one");
    const { git, dir } = await workspaceCopy(disk);
    expect(await git.diff({ dir, fromIndex: true })).toBe("");
    expect(await git.diff({ dir, cached: true })).toBe("");
    expect(await git.cli({ argv: ["diff", "--cached", "--stat"], cwd: dir })).toEqual({ stdout: "", stderr: "", exitCode: 0 });
  });

  it("bad combinations: EUSAGE from the client, exit 129 from the CLI as real git", async () => {
    const disk = dirtyCheckout();
    const { git, dir } = await workspaceCopy(disk);
    expect(await rejection(git.diff({ dir, cached: true, to: "HEAD" }))).toEqual({
      name: "GitError",
      code: "EUSAGE",
      message: expect.stringContaining("cached compares ref with the index: it cannot be combined with to"),
    });
    for (const options of [{ fromIndex: true, ref: "HEAD" }, { fromIndex: true, cached: true }, { fromIndex: true, to: "HEAD" }]) {
      expect(await rejection(git.diffSummary({ dir, ...options })), JSON.stringify(options)).toMatchObject({ name: "GitError", code: "EUSAGE" });
    }
    expect(await rejection(git.diff({ dir, cached: "yes" } as never))).toMatchObject({ code: "EUSAGE" });
    expect(realGitResult(disk, "diff", "--cached", "HEAD~1", "HEAD").status).toBe(129);
    expect(await git.cli({ argv: ["diff", "--cached", "HEAD~1", "HEAD"], cwd: dir })).toEqual({
      stdout: "",
      stderr: "git diff: --cached compares one <ref> with the index: unexpected argument 'HEAD'\n",
      exitCode: 129,
    });
  });

  it("--stat with binary files of large sizes beside long names and big text changes: the widths real git picks", async () => {
    const big = (n: number, fill: number) => { const b = new Uint8Array(n).fill(fill); b[0] = 0; return b; };
    const disk = committedRepo({
      "img.bin": big(123456, 1),
      [`${"very-long-directory-name/".repeat(3)}file.bin`]: big(10, 2),
      "text.txt": Array.from({ length: 300 }, (_, i) => `line ${i}\n`).join(""),
      "small.txt": "a\n",
    }, "one");
    writeTree(disk, {
      "img.bin": big(7, 3),
      [`${"very-long-directory-name/".repeat(3)}file.bin`]: big(98765, 4),
      "text.txt": Array.from({ length: 300 }, (_, i) => (i % 3 ? `line ${i}\n` : `LINE ${i}\n`)).join(""),
      "small.txt": "b\n",
    });
    realGit(disk, "add", "img.bin");
    await compareCli(disk, [[], ["--cached"], ["HEAD"]]);
  });
});
