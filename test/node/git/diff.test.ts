/**
 * `diff` and `diffSummary` (spec 04 §2.3, issue 15) against the real git:
 * the same edits in a Workspace and on disk, then our patch text equal to
 * `git diff <ref> [<to>]` byte for byte, and the summary equal to
 * `git diff --numstat` with `--name-status`.
 */
import { afterAll, describe, expect, it } from "vitest";
import { at, gitAt, twin, writeBoth, type FileSpec } from "./repo-helpers.js";
import { TIME, cleanupScratch, newWorkspace, realGit, rejection, tempDir } from "./worktree-helpers.js";

afterAll(cleanupScratch);

const lines = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`).join("\n") + "\n";

const PROGRAM = [
  "#include <stdio.h>",
  "",
  "static int helper(int x)",
  "{",
  "  int y = x * 2;",
  "  int z = y + 1;",
  "  return z;",
  "}",
  "",
  "int main(void)",
  "{",
  '  printf("one\\n");',
  '  printf("two\\n");',
  '  printf("three\\n");',
  '  printf("four\\n");',
  '  printf("five\\n");',
  '  printf("six\\n");',
  '  printf("seven\\n");',
  '  printf("eight\\n");',
  "  return 0;",
  "}",
  "",
].join("\n");

const BASE: Record<string, FileSpec> = {
  "program.c": PROGRAM,
  "long.txt": lines(60, "line"),
  "edit-me.txt": "alpha\nbeta\ngamma\n",
  "delete-me.txt": "going away\nsoon\n",
  "no-newline.txt": "first\nsecond",
  "binary.bin": new Uint8Array([0, 1, 2, 3, 4, 5]),
  "script.sh": "#!/bin/sh\necho hi\n",
  "mode-and-content.sh": "#!/bin/sh\necho a\n",
  "link": { link: "long.txt" },
  "dir/inner.txt": "inner\n",
  "dir/sub/deeper.txt": "deeper\n",
  "empty-delete.txt": "",
  "naïve café.txt": "accent\n",
  "quote\"name.txt": "quoted\n",
};

const EDITS: Record<string, FileSpec> = {
  "program.c": PROGRAM.replace("  int z = y + 1;", "  int z = y + 2;").replace('  printf("seven\\n");', '  printf("SEVEN\\n");\n  printf("seven and a half\\n");'),
  "long.txt": lines(60, "line").replace("line 5\n", "line five\n").replace("line 30\n", "").replace("line 58\n", "line 58\nline 58b\n"),
  "edit-me.txt": "alpha\nBETA\ngamma\ndelta\n",
  "delete-me.txt": null,
  "no-newline.txt": "first\nsecond changed",
  "binary.bin": new Uint8Array([0, 1, 2, 9, 4, 5, 6]),
  "script.sh": { exec: "#!/bin/sh\necho hi\n" },
  "mode-and-content.sh": { exec: "#!/bin/sh\necho b\n" },
  "link": { link: "edit-me.txt" },
  "dir/sub/deeper.txt": "deeper, edited\n",
  "empty-delete.txt": null,
  "naïve café.txt": "accent\nmore\n",
  "quote\"name.txt": "quoted\nagain\n",
  "added.txt": "brand new\nfile\n",
  "added-empty.txt": "",
  "added.bin": new Uint8Array([7, 0, 7]),
  "untracked.txt": "not shown by git diff HEAD\n",
};

const TO_STAGE = ["added.txt", "added-empty.txt", "added.bin"];

/** A repository committed on both sides, then edited the same way (some additions staged). */
async function edited() {
  const { ws, git, dir, disk } = await twin();
  await writeBoth(ws, dir, disk, BASE);
  await git.add({ dir, all: true });
  await git.commit({ dir, message: "base", ...at(TIME) });
  gitAt(disk, TIME, "add", "-A");
  gitAt(disk, TIME, "commit", "-q", "-m", "base");
  await writeBoth(ws, dir, disk, EDITS);
  await git.add({ dir, paths: TO_STAGE });
  realGit(disk, "add", ...TO_STAGE);
  return { ws, git, dir, disk };
}

/** The real git's patch, without rename detection (the client reports renames as a deletion and an addition). */
function realDiff(disk: string, ...args: string[]): string {
  return realGit(disk, "-c", "core.quotePath=true", "diff", "--no-renames", "--no-color", "--no-ext-diff", ...args);
}

/** `git diff --numstat` and `--name-status` merged into our summary shape. */
function realSummary(disk: string, ...args: string[]) {
  const numstat = realGit(disk, "diff", "--no-renames", "--numstat", "-z", ...args).split("\0").filter(Boolean);
  const status = realGit(disk, "diff", "--no-renames", "--name-status", "-z", ...args).split("\0").filter(Boolean);
  const statusOf = new Map<string, string>();
  for (let i = 0; i < status.length; i += 2) statusOf.set(status[i + 1]!, status[i]!);
  return numstat.map((line) => {
    const [ins, del, path] = line.split("\t");
    // git's T (type change) is T in the summary too (issue 20, twenty-second attack run; before, M)
    const kind = statusOf.get(path!);
    if (ins !== "-") return { path: path!, status: kind, insertions: Number(ins), deletions: Number(del) };
    // a binary file: its sizes from git's `Bin <old> -> <new> bytes`
    const stat = realGit(disk, "diff", "--no-renames", "--stat=300", "--stat-name-width=250", ...args, "--", path!);
    const [, oldBytes, newBytes] = /\| +Bin (\d+) -> (\d+) bytes\n/.exec(stat)!;
    return { path: path!, status: kind, insertions: 0, deletions: 0, binary: { oldBytes: Number(oldBytes), newBytes: Number(newBytes) } };
  });
}

describe("diff: git diff's patch, byte for byte", () => {
  it("HEAD → working tree: edits with function context, additions (staged), deletions, binaries, modes, links, quoted names", async () => {
    const { git, dir, disk } = await edited();
    const ours = await git.diff({ dir });
    const real = realDiff(disk, "HEAD");
    expect(ours).toBe(real);
    // the format pieces the CLI relies on, spelled out once
    expect(ours).toContain("diff --git a/added.txt b/added.txt\nnew file mode 100644\nindex 0000000..");
    expect(ours).toContain("diff --git a/delete-me.txt b/delete-me.txt\ndeleted file mode 100644\nindex ");
    expect(ours).toContain("diff --git a/script.sh b/script.sh\nold mode 100644\nnew mode 100755\n");
    expect(ours).toContain("Binary files a/binary.bin and b/binary.bin differ\n");
    expect(ours).toContain("Binary files /dev/null and b/added.bin differ\n");
    expect(ours).toContain('diff --git "a/na\\303\\257ve caf\\303\\251.txt" "b/na\\303\\257ve caf\\303\\251.txt"\n');
    expect(ours).toContain("@@ -3,7 +3,7 @@\n");
    expect(ours).toContain("@@ -15,7 +15,8 @@ int main(void)\n");
    expect(ours).toContain("@@ -2,7 +2,7 @@ line 1\n");
    expect(ours).toContain("\\ No newline at end of file\n");
    expect(ours).not.toContain("untracked.txt");
  });

  it("diffSummary is git diff --numstat with the A/M/D status", async () => {
    const { git, dir, disk } = await edited();
    const ours = await git.diffSummary({ dir });
    expect(ours).toEqual(realSummary(disk, "HEAD"));
    expect(ours.find((e) => e.path === "edit-me.txt")).toEqual({ path: "edit-me.txt", status: "M", insertions: 2, deletions: 1 });
  });

  it("commit → commit, a ref → the working tree, and paths (exact or directory prefix)", async () => {
    const { git, dir, disk } = await edited();
    await git.add({ dir, all: true });
    await git.commit({ dir, message: "edits", ...at(TIME + 60) });
    gitAt(disk, TIME, "add", "-A");
    gitAt(disk, TIME + 60, "commit", "-q", "-m", "edits");
    expect(await git.revParse({ dir, ref: "HEAD" })).toBe(realGit(disk, "rev-parse", "HEAD").trim());
    expect(await git.diff({ dir, ref: "HEAD~1", to: "HEAD" })).toBe(realDiff(disk, "HEAD~1", "HEAD"));
    expect(await git.diff({ dir, ref: "HEAD", to: "HEAD~1" })).toBe(realDiff(disk, "HEAD", "HEAD~1"));
    expect(await git.diffSummary({ dir, ref: "HEAD~1", to: "HEAD" })).toEqual(realSummary(disk, "HEAD~1", "HEAD"));
    expect(await git.diff({ dir, ref: "HEAD~1", to: "HEAD", paths: ["dir", "long.txt"] })).toBe(realDiff(disk, "HEAD~1", "HEAD", "--", "dir", "long.txt"));
    expect(await git.diff({ dir, ref: "HEAD~1", to: "HEAD", paths: ["dir/sub/"] })).toBe(realDiff(disk, "HEAD~1", "HEAD", "--", "dir/sub/"));
    expect(await git.diff({ dir, ref: "HEAD~1", paths: ["/repo/program.c"] })).toBe(realDiff(disk, "HEAD~1", "--", "program.c"));
    expect(await git.diff({ dir, ref: "HEAD~1" })).toBe(realDiff(disk, "HEAD~1"));
    expect(await git.diff({ dir })).toBe("");
    expect(await git.diffSummary({ dir })).toEqual([]);
  });

  it("a text file turned into a link (a deletion and an addition), and a file replaced by a directory", async () => {
    const { ws, git } = newWorkspace();
    await git.init({ dir: "/r" });
    const disk = tempDir();
    realGit(disk, "init", "-q", "-b", "main");
    await writeBoth(ws, "/r", disk, { "a.txt": "a\n", "b": "was a file\n" });
    await git.add({ dir: "/r", all: true });
    await git.commit({ dir: "/r", message: "base", ...at(TIME) });
    gitAt(disk, TIME, "add", "-A");
    gitAt(disk, TIME, "commit", "-q", "-m", "base");
    await writeBoth(ws, "/r", disk, { "a.txt": { link: "b/inside.txt" }, "b": null });
    await writeBoth(ws, "/r", disk, { "b/inside.txt": "now a directory\n" });
    await git.add({ dir: "/r", all: true });
    realGit(disk, "add", "-A");
    expect(await git.diff({ dir: "/r" })).toBe(realDiff(disk, "HEAD"));
    expect(await git.diffSummary({ dir: "/r" })).toEqual(realSummary(disk, "HEAD"));
  });

  it("many hunks in a long file, function lines carried between hunks", async () => {
    const { ws, git } = newWorkspace();
    await git.init({ dir: "/r" });
    const disk = tempDir();
    realGit(disk, "init", "-q", "-b", "main");
    const body = Array.from({ length: 40 }, (_, i) => `fn_${i}() {\n  a;\n  b;\n  c;\n  d;\n  e;\n}\n`).join("");
    await writeBoth(ws, "/r", disk, { "f.c": body });
    await git.add({ dir: "/r", all: true });
    await git.commit({ dir: "/r", message: "base", ...at(TIME) });
    gitAt(disk, TIME, "add", "-A");
    gitAt(disk, TIME, "commit", "-q", "-m", "base");
    const edited = body
      .split("\n")
      .map((line, i) => (i % 23 === 5 ? `${line} // changed` : i % 37 === 3 ? `${line}\n  inserted;` : line))
      .filter((_, i) => i % 41 !== 9)
      .join("\n");
    await writeBoth(ws, "/r", disk, { "f.c": edited });
    expect(await git.diff({ dir: "/r" })).toBe(realDiff(disk, "HEAD"));
    expect(await git.diffSummary({ dir: "/r" })).toEqual(realSummary(disk, "HEAD"));
  });

  it("before the first commit: files added to the index show as new against HEAD", async () => {
    const { ws, git } = newWorkspace();
    await git.init({ dir: "/r" });
    await ws.fs.writeFile("/r/a.txt", "one\ntwo\n");
    await ws.fs.writeFile("/r/untracked.txt", "x\n");
    await git.add({ dir: "/r", paths: ["a.txt"] });
    expect(await git.diff({ dir: "/r" })).toBe(
      "diff --git a/a.txt b/a.txt\nnew file mode 100644\nindex 0000000..814f4a4\n--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n",
    );
    expect(await git.diffSummary({ dir: "/r" })).toEqual([{ path: "a.txt", status: "A", insertions: 2, deletions: 0 }]);
  });

  it("from the empty tree to the first commit (what git show prints for a root commit)", async () => {
    const { git, dir, disk } = await edited();
    const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
    expect(await git.diff({ dir, ref: EMPTY_TREE, to: "HEAD" })).toBe(realDiff(disk, EMPTY_TREE, "HEAD"));
    expect(await git.diffSummary({ dir, ref: EMPTY_TREE, to: "HEAD" })).toEqual(realSummary(disk, EMPTY_TREE, "HEAD"));
  });

  it("errors: unknown revisions, paths outside, no repository", async () => {
    const { git, dir } = await edited();
    expect(await rejection(git.diff({ dir, ref: "nope" }))).toEqual({ name: "GitError", code: "EDIFFFAIL", message: "git diff failed: unknown revision 'nope'" });
    expect(await rejection(git.diff({ dir, to: "HEAD~5" }))).toEqual({ name: "GitError", code: "EDIFFFAIL", message: "git diff failed: unknown revision 'HEAD~5'" });
    expect(await rejection(git.diffSummary({ dir, paths: ["../x"] }))).toEqual({ name: "PathOutsideRepoError", code: "EPATHOUTSIDE", message: "path '../x' is outside the repository at /repo" });
    expect(await rejection(git.diff({ dir: "/nowhere" }))).toEqual({ name: "NotARepositoryError", code: "ENOTAREPO", message: "not a git repository: /nowhere" });
    expect(await rejection(git.diff({ dir, paths: "x" } as never))).toEqual({ name: "GitError", code: "EUSAGE", message: 'git diff: paths must be an array of non-empty strings, got "x"' });
  });
});
