/**
 * `clean` and the stash in the Workspace (spec 04 §2.3, issue 15), compared
 * with the real git CLI: `git clean -n`/`-nd`/`-fd` on an identical tree,
 * and stash entries the real git reads (and writes) the same way.
 */
import { mkdirSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import {
  cleanupScratch,
  committedRepo,
  diskCopy,
  diskSnapshot,
  exportDir,
  importDir,
  newWorkspace,
  realGit,
  realGitResult,
  realRepo,
  realStatusOf,
  rejection,
  workspaceCopy,
  writeTree,
  wsSnapshot,
} from "./worktree-helpers.js";

afterAll(cleanupScratch);

/** Every kind of untracked thing `git clean` has to decide about. */
function messyRepo(): string {
  const disk = committedRepo({
    ".gitignore": "*.log\nbuild/\n",
    "tracked.txt": "t\n",
    "src/main.c": "int main;\n",
    "src/deep/keep.h": "h\n",
  });
  writeTree(disk, {
    "top.txt": "untracked top\n",
    "debug.log": "ignored\n",
    "src/scratch.c": "untracked in tracked dir\n",
    "src/deep/notes.md": "untracked deeper\n",
    "src/deep/trace.log": "ignored deeper\n",
    "fresh/a.txt": "wholly untracked dir\n",
    "fresh/inner/b.txt": "nested\n",
    "build/out.o": "ignored dir\n",
    "mixed/keep.log": "ignored inside untracked dir\n",
    "mixed/drop.txt": "untracked inside untracked dir\n",
    "mixed/sub/x.txt": "x\n",
    "é dir/ü.txt": "unicode\n",
    "link-untracked": { link: "tracked.txt" },
  });
  realGit(disk, "init", "-q", "nested");
  writeTree(disk, { "nested/file.txt": "inside a nested repository\n" });
  return disk;
}

function realList(disk: string, ...flags: string[]): string[] {
  // raw paths (the CLI quotes non-ASCII names the way core.quotePath does; the client returns them as they are)
  return realGit(disk, "-c", "core.quotePath=false", "clean", ...flags)
    .split("\n")
    .filter(Boolean)
    .map((line) => line.replace(/^(Would remove|Removing) /, ""));
}

describe("clean", () => {
  it("dryRun lists what `git clean -n` and `git clean -nd` list, in the same order", async () => {
    const disk = messyRepo();
    const { ws, git, dir } = await workspaceCopy(disk);
    await ws.fs.mkdir(`${dir}/empty-dir`);
    mkdirSync(`${disk}/empty-dir`);
    const before = await wsSnapshot(ws, dir);
    expect(await git.clean({ dir, dryRun: true })).toEqual(realList(disk, "-n"));
    expect(await git.clean({ dir, dryRun: true, directories: true })).toEqual(realList(disk, "-nd"));
    expect(await wsSnapshot(ws, dir)).toEqual(before);
    expect(await git.clean({ dir, dryRun: true })).toEqual(["link-untracked", "src/deep/notes.md", "src/scratch.c", "top.txt"]);
  });

  it("removes exactly what `git clean -fd` removes", async () => {
    const disk = messyRepo();
    const { ws, git, dir } = await workspaceCopy(disk);
    const copy = diskCopy(disk);
    const removed = await git.clean({ dir, directories: true });
    expect(removed).toEqual(realList(copy, "-fd"));
    expect(await wsSnapshot(ws, dir)).toEqual(diskSnapshot(copy));
    expect(await git.clean({ dir, directories: true })).toEqual([]);
  });

  it("without directories leaves untracked directories alone", async () => {
    const disk = messyRepo();
    const { ws, git, dir } = await workspaceCopy(disk);
    const copy = diskCopy(disk);
    expect(await git.clean({ dir })).toEqual(realList(copy, "-f"));
    expect(await wsSnapshot(ws, dir)).toEqual(diskSnapshot(copy));
  });

  it("bad options and no repository", async () => {
    const { git } = newWorkspace();
    expect(await rejection(git.clean({ dir: "/", directories: "yes" as never }))).toMatchObject({ code: "EUSAGE" });
    expect(await rejection(git.clean({ dir: "/" }))).toEqual({ name: "NotARepositoryError", code: "ENOTAREPO", message: "not a git repository: /" });
  });
});

/** A repository with history and a mix of local changes: modified, staged, deleted, staged-new, mode change, untracked. */
function dirtyRepo(): string {
  const disk = committedRepo({
    "a.txt": "a\n",
    "b.bin": new Uint8Array([0, 255, 1, 254]),
    "dir/c.txt": "c\n",
    "dir/gone.txt": "to be deleted\n",
    "run.sh": "#!/bin/sh\n",
  }, "first commit\n\nwith a body");
  writeTree(disk, {
    "a.txt": "a changed in the working tree\n",
    "b.bin": new Uint8Array([7, 7, 7, 0, 0]),
    "dir/c.txt": "c staged\n",
    "new/staged.txt": "brand new, staged\n",
    "run.sh": { exec: "#!/bin/sh\n" },
    "untracked.txt": "not stashed\n",
  });
  realGit(disk, "add", "dir/c.txt", "new/staged.txt", "b.bin");
  writeTree(disk, { "b.bin": new Uint8Array([8, 8, 8]) });
  realGit(disk, "rm", "-q", "dir/gone.txt");
  return disk;
}

describe("stash", () => {
  it("push leaves what `git stash push` leaves; the stash commits have real git's trees; list matches", async () => {
    const disk = dirtyRepo();
    const copy = diskCopy(disk);
    const { ws, git, dir } = await workspaceCopy(disk);
    await git.stashPush({ dir, message: "my work" });
    realGit(copy, "stash", "push", "-q", "-m", "my work");
    expect(await wsSnapshot(ws, dir)).toEqual(diskSnapshot(copy));
    expect(await realStatusOf(ws, dir)).toBe("?? untracked.txt\n");
    expect(await git.stashList({ dir })).toEqual(["stash@{0}: On main: my work"]);
    expect(realGit(copy, "stash", "list")).toBe("stash@{0}: On main: my work\n");
    const exported = await exportDir(ws, dir);
    for (const rev of ["stash^{tree}", "stash^2^{tree}", "stash^1", "stash^2^1"]) {
      expect(realGit(exported, "rev-parse", rev)).toBe(realGit(copy, "rev-parse", rev));
    }
    expect(realGit(exported, "stash", "list")).toBe("stash@{0}: On main: my work\n");
    expect(realGit(exported, "log", "-1", "--format=%s", "stash^2")).toBe(realGit(copy, "log", "-1", "--format=%s", "stash^2"));
    expect(realGit(exported, "fsck", "--strict")).toBe("");
  });

  it("pop restores the exact bytes and modes, and the same status as real git's `stash pop`", async () => {
    const disk = dirtyRepo();
    const copy = diskCopy(disk);
    const { ws, git, dir } = await workspaceCopy(disk);
    const before = await wsSnapshot(ws, dir);
    await git.stashPush({ dir });
    realGit(copy, "stash", "push", "-q");
    const head = realGit(copy, "rev-parse", "--short=7", "HEAD").trim();
    expect(await git.stashList({ dir })).toEqual([`stash@{0}: WIP on main: ${head} first commit`]);
    expect(realGit(copy, "stash", "list")).toBe(`stash@{0}: WIP on main: ${head} first commit\n`);
    await git.stashPop({ dir });
    realGit(copy, "stash", "pop", "-q");
    expect(await wsSnapshot(ws, dir)).toEqual(before);
    expect(await wsSnapshot(ws, dir)).toEqual(diskSnapshot(copy));
    expect(await realStatusOf(ws, dir)).toBe(realGit(copy, "status", "--porcelain=v1", "--untracked-files=all"));
    expect(await git.stashList({ dir })).toEqual([]);
    expect(await ws.fs.stat(`${dir}/.git/refs/stash`).catch((e: { code: string }) => e.code)).toBe("ENOENT");
  });

  it("a HEAD message whose first paragraph has several lines: the subject joined by spaces, as real git's stash list", async () => {
    const disk = realRepo((d) => {
      writeTree(d, { "a.txt": "a\n" });
      realGit(d, "add", "-A");
      realGit(d, "commit", "-q", "--cleanup=verbatim", "-m", "\nsecond line one  \nline two\t\n\nthe body\nmore body\n");
    });
    writeTree(disk, { "a.txt": "changed\n" });
    const copy = diskCopy(disk);
    const { git, dir } = await workspaceCopy(disk);
    await git.stashPush({ dir });
    realGit(copy, "stash", "push", "-q");
    const head = realGit(copy, "rev-parse", "--short=7", "HEAD").trim();
    const real = realGit(copy, "stash", "list");
    expect(real).toBe(`stash@{0}: WIP on main: ${head} second line one line two\n`);
    expect((await git.stashList({ dir })).map((line) => `${line}\n`).join("")).toBe(real);
    // the stash commits carry the same messages, byte for byte (the stash commit's has no final newline, the index commit's has)
    for (const rev of ["stash", "stash^2"]) {
      const raw = realGit(copy, "cat-file", "commit", rev);
      const ours = new TextDecoder().decode((await git.catFile({ dir, oid: rev })).bytes);
      expect(ours.slice(ours.indexOf("\n\n"))).toBe(raw.slice(raw.indexOf("\n\n")));
    }
  });

  it("-m messages with padding, tabs and line breaks: the same stash commits' messages and stash list as real git; an empty one is WIP", async () => {
    const disk = dirtyRepo();
    const copy = diskCopy(disk);
    const { ws, git, dir } = await workspaceCopy(disk);
    const messages = ["  padded  ", "a\t\tb  c", "line one\nline two\n", ""];
    for (const [i, message] of messages.entries()) {
      await ws.fs.writeFile(`${dir}/a.txt`, `change ${i}\n`);
      writeTree(copy, { "a.txt": `change ${i}\n` });
      await git.stashPush({ dir, message });
      realGit(copy, "stash", "push", "-q", "-m", message);
      const raw = realGit(copy, "cat-file", "commit", "stash");
      const ours = new TextDecoder().decode((await git.catFile({ dir, oid: "stash" })).bytes);
      expect(ours.slice(ours.indexOf("\n\n")), JSON.stringify(message)).toBe(raw.slice(raw.indexOf("\n\n")));
    }
    const real = realGit(copy, "stash", "list");
    expect((await git.stashList({ dir })).map((line) => `${line}\n`).join("")).toBe(real);
    expect(realGit(await exportDir(ws, dir), "stash", "list")).toBe(real);
    expect(await rejection(git.stashPush({ dir, message: "a\0b" }))).toMatchObject({ code: "EUSAGE" });
  });

  it("several entries: newest first; pop by index keeps the others (the real git agrees)", async () => {
    const disk = dirtyRepo();
    const { ws, git, dir } = await workspaceCopy(disk);
    await git.stashPush({ dir, message: "one" });
    await ws.fs.writeFile(`${dir}/a.txt`, "second change\n");
    await git.stashPush({ dir, message: "two" });
    await ws.fs.writeFile(`${dir}/dir/c.txt`, "third change\n");
    await git.stashPush({ dir });
    const head = (await git.revParse({ dir, ref: "HEAD" })).slice(0, 7);
    expect(await git.stashList({ dir })).toEqual([`stash@{0}: WIP on main: ${head} first commit`, "stash@{1}: On main: two", "stash@{2}: On main: one"]);
    await git.stashPop({ dir, index: 1 });
    expect(await ws.fs.readFile(`${dir}/a.txt`, "utf8")).toBe("second change\n");
    expect(await git.stashList({ dir })).toEqual([`stash@{0}: WIP on main: ${head} first commit`, "stash@{1}: On main: one"]);
    const exported = await exportDir(ws, dir);
    expect(realGit(exported, "stash", "list")).toBe(`stash@{0}: WIP on main: ${head} first commit\nstash@{1}: On main: one\n`);
    // the real git can pop what the Workspace stashed
    realGit(exported, "checkout", "-q", "--", ".");
    realGit(exported, "stash", "pop", "-q", "stash@{1}");
    const wsAfter = await workspaceCopy(disk);
    await wsAfter.git.stashPush({ dir: wsAfter.dir, message: "one" });
    await wsAfter.git.stashPop({ dir: wsAfter.dir });
    expect(diskSnapshot(exported)["a.txt"]).toBe((await wsSnapshot(wsAfter.ws, wsAfter.dir))["a.txt"]);
  });

  it("pops a stash made by the real git", async () => {
    const disk = dirtyRepo();
    const copy = diskCopy(disk);
    realGit(disk, "stash", "push", "-q", "-m", "made by git");
    const { ws, git, dir } = await workspaceCopy(disk);
    expect(await git.stashList({ dir })).toEqual(["stash@{0}: On main: made by git"]);
    await git.stashPop({ dir });
    expect(await wsSnapshot(ws, dir)).toEqual(diskSnapshot(copy));
  });

  it("pops a real git `stash push -u` (untracked files restored unstaged), refusing first when one exists", async () => {
    const disk = dirtyRepo();
    const copy = diskCopy(disk);
    realGit(disk, "stash", "push", "-q", "-u");
    const { ws, git, dir } = await workspaceCopy(disk);
    await ws.fs.writeFile(`${dir}/untracked.txt`, "in the way\n");
    const before = await wsSnapshot(ws, dir);
    expect(await rejection(git.stashPop({ dir }))).toEqual({
      name: "GitError",
      code: "ESTASHFAIL",
      message: "git stash failed: could not restore untracked files from stash: untracked.txt already exist",
    });
    expect(await wsSnapshot(ws, dir)).toEqual(before);
    await ws.fs.rm(`${dir}/untracked.txt`);
    await git.stashPop({ dir });
    expect(await wsSnapshot(ws, dir)).toEqual(diskSnapshot(copy));
    realGit(copy, "stash", "push", "-q", "-u");
    realGit(copy, "stash", "pop", "-q");
    expect(await realStatusOf(ws, dir)).toBe(realGit(copy, "status", "--porcelain=v1", "--untracked-files=all"));
  });

  it("nothing to stash: no entry; errors for no entries, a bad index, a conflict — nothing changes", async () => {
    const disk = dirtyRepo();
    realGit(disk, "stash", "push", "-q");
    const { ws, git, dir } = await workspaceCopy(disk);
    await git.stashPush({ dir });
    expect(await git.stashList({ dir })).toHaveLength(1);
    expect(await rejection(git.stashPop({ dir, index: 3 }))).toEqual({
      name: "GitError",
      code: "ESTASHFAIL",
      message: "git stash failed: stash@{3} is not a valid reference",
    });
    expect(await rejection(git.stashPop({ dir, index: -1 }))).toMatchObject({ code: "EUSAGE" });
    await ws.fs.writeFile(`${dir}/a.txt`, "a local edit in the way\n");
    const before = await wsSnapshot(ws, dir);
    expect(realGitResult(diskCopy(disk), "stash", "pop").status).toBe(0);
    expect(await rejection(git.stashPop({ dir }))).toEqual({
      name: "GitError",
      code: "ESTASHFAIL",
      message: "git stash failed: your local changes to the following files would be overwritten by stash: a.txt",
    });
    expect(await wsSnapshot(ws, dir)).toEqual(before);
    expect(await git.stashList({ dir })).toHaveLength(1);
    const fresh = newWorkspace();
    await importDir(fresh.ws, realRepo(() => {}), "/r");
    expect(await rejection(fresh.git.stashPop({ dir: "/r" }))).toEqual({
      name: "GitError",
      code: "ESTASHFAIL",
      message: "git stash failed: no stash entries found",
    });
    expect(await rejection(fresh.git.stashPush({ dir: "/r" }))).toEqual({
      name: "GitError",
      code: "ESTASHFAIL",
      message: "git stash failed: you do not have the initial commit yet",
    });
  });
});
