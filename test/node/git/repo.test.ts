/**
 * Repository operations of the git client (spec 04 §2.3, issue 15) against
 * the real git CLI: the same repository built in a Workspace (through the
 * client and the built-in fs bridge) and on disk (with /usr/bin/git), then
 * commit oids, status, ls-files, log, rev-parse, ls-tree, cat-file,
 * hash-object, refs and config compared; the Workspace's `.git` passes
 * `git fsck --strict`.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { at, fsckWorkspace, gitAt, gitDated, porcelain, realPorcelain, writeBoth, type FileSpec } from "./repo-helpers.js";
import { IDENTITY, TIME, cleanupScratch, exportDir, newWorkspace, realGit, rejection, tempDir, workspaceCopy } from "./worktree-helpers.js";

afterAll(cleanupScratch);

const FILES: Record<string, FileSpec> = {
  "README.md": "# demo\n\nA small repository.\n",
  "src/main.ts": 'export function main() {\n  return "hi";\n}\n',
  "src/lib/util.ts": "export const one = 1;\n",
  "bin/run.sh": { exec: "#!/bin/sh\necho run\n" },
  "link-to-readme": { link: "README.md" },
  "empty.txt": "",
  "no-newline.txt": "last line without newline",
  "naïve café.txt": "unicode name\n",
  "data.bin": new Uint8Array([0, 1, 2, 3, 255, 0, 10]),
};

/** An empty repository in the Workspace (`/repo`) and on disk, both on branch main. */
async function twin() {
  const { ws, git } = newWorkspace();
  const dir = "/repo";
  await git.init({ dir });
  const disk = tempDir();
  realGit(disk, "init", "-q", "-b", "main");
  return { ws, git, dir, disk };
}

describe("commit: byte-identical to the real git", () => {
  it("init, add, commit, a second commit with edits and deletions, amend: the same oids; the .git passes fsck --strict", async () => {
    const { ws, git, dir, disk } = await twin();
    await writeBoth(ws, dir, disk, FILES);
    await git.add({ dir, paths: ["."] });
    const first = await git.commit({ dir, message: "first commit", ...at(TIME) });
    gitAt(disk, TIME, "add", "-A");
    gitAt(disk, TIME, "commit", "-q", "-m", "first commit");
    expect(first.oid).toBe(realGit(disk, "rev-parse", "HEAD").trim());

    const edits: Record<string, FileSpec> = {
      "README.md": "# demo\n\nA small repository, edited.\n",
      "src/lib/util.ts": null,
      "src/new/deep/file.txt": "new\n",
      "bin/run.sh": "#!/bin/sh\necho no longer executable\n",
      "empty.txt": { exec: "" },
    };
    await writeBoth(ws, dir, disk, edits);
    await git.add({ dir, all: true });
    const second = await git.commit({ dir, message: "second\n\nwith a body\n", ...at(TIME + 60) });
    gitAt(disk, TIME + 60, "add", "-A");
    gitAt(disk, TIME + 60, "commit", "-q", "-m", "second\n\nwith a body\n");
    expect(second.oid).toBe(realGit(disk, "rev-parse", "HEAD").trim());

    const amended = await git.commit({ dir, message: "second, amended", amend: true, committer: { ...IDENTITY, timestamp: TIME + 120, timezoneOffset: 0 } });
    gitAt(disk, TIME + 120, "commit", "-q", "--amend", "-m", "second, amended");
    expect(amended.oid).toBe(realGit(disk, "rev-parse", "HEAD").trim());
    expect((await git.show({ dir })).parent).toEqual([first.oid]);
    expect((await git.show({ dir })).author.timestamp).toBe(TIME + 60);

    const { disk: copy, output } = await fsckWorkspace(ws, dir);
    expect(output).toBe("");
    expect(realGit(copy, "log", "--format=%H").trim().split("\n")).toEqual([amended.oid, first.oid]);
    expect(realPorcelain(copy)).toEqual([]);
  });

  it("the message is cleaned as git commit -m cleans it; time zones and amend without a message", async () => {
    const { ws, git, dir, disk } = await twin();
    await writeBoth(ws, dir, disk, { "a.txt": "a\n" });
    await git.add({ dir, paths: ["a.txt"] });
    gitAt(disk, TIME, "add", "a.txt");
    const message = "\n\n  subject with trailing space   \n\n\n\nbody\t\n\n\n";
    const ours = await git.commit({
      dir,
      message,
      author: { ...IDENTITY, timestamp: TIME, timezoneOffset: -120 },
      committer: { ...IDENTITY, timestamp: TIME, timezoneOffset: 330 },
    });
    gitDated(disk, { author: `@${TIME} +0200`, committer: `@${TIME} -0530` }, "commit", "-q", "-m", message);
    expect(ours.oid).toBe(realGit(disk, "rev-parse", "HEAD").trim());
    const view = await git.show({ dir });
    expect(view.message).toBe("  subject with trailing space\n\nbody\n");
    expect(view.author.timezoneOffset).toBe(-120);
    expect(view.committer.timezoneOffset).toBe(330);
    const again = await git.commit({ dir, amend: true, ...at(TIME) } as never);
    expect((await git.show({ dir, ref: again.oid })).message).toBe("  subject with trailing space\n\nbody\n");
  });

  it("identity: env, then local config, then defaultIdentity; MissingIdentityError when none", async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    const git = createGitClient()({ ws });
    const dir = "/r";
    await git.init({ dir });
    await ws.fs.writeFile("/r/f", "x\n");
    await git.add({ dir, paths: ["f"] });
    expect(await rejection(git.commit({ dir, message: "m" }))).toEqual({
      name: "MissingIdentityError",
      code: "EIDENTITY",
      message:
        "author identity unknown: pass author { name, email }, set GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL in env, " +
        "run `git config user.name …` and `git config user.email …` in the repository, or give the Workspace defaultGitIdentity",
    });
    await git.configSet({ dir, path: "user.name", value: "Config Person" });
    await git.configSet({ dir, path: "user.email", value: "config@example.com" });
    const a = await git.commit({ dir, message: "from config" });
    const viewA = await git.show({ dir, ref: a.oid });
    expect([viewA.author.name, viewA.committer.email]).toEqual(["Config Person", "config@example.com"]);
    const b = await git.commit({ dir, message: "from env", env: { GIT_AUTHOR_NAME: "Env Author", GIT_AUTHOR_EMAIL: "env@example.com" } });
    const viewB = await git.show({ dir, ref: b.oid });
    expect([viewB.author.name, viewB.author.email, viewB.committer.name, viewB.committer.email]).toEqual(["Env Author", "env@example.com", "Env Author", "env@example.com"]);
    expect(Math.abs(viewB.committer.timestamp - Date.now() / 1000)).toBeLessThan(60);
  });
});


describe("status: the same as git status --porcelain -uall", () => {
  it("every combination of staged, unstaged, deleted, untracked, ignored and mode changes", async () => {
    const { ws, git, dir, disk } = await twin();
    const base: Record<string, FileSpec> = {
      ".gitignore": "*.log\nbuild/\n",
      "clean.txt": "clean\n",
      "unstaged.txt": "u\n",
      "staged.txt": "s\n",
      "staged-then-edited.txt": "se\n",
      "staged-then-reverted.txt": "sr\n",
      "deleted.txt": "d\n",
      "deleted-staged.txt": "ds\n",
      "unstaged-kept.txt": "rm --cached\n",
      "chmod.sh": "echo\n",
      "dir/nested.txt": "n\n",
      "link": { link: "clean.txt" },
    };
    await writeBoth(ws, dir, disk, base);
    await git.add({ dir, all: true });
    await git.commit({ dir, message: "base", ...at(TIME) });
    gitAt(disk, TIME, "add", "-A");
    gitAt(disk, TIME, "commit", "-q", "-m", "base");
    expect(await git.status({ dir })).toEqual([]);

    await writeBoth(ws, dir, disk, {
      "unstaged.txt": "u2\n",
      "staged.txt": "s2\n",
      "staged-then-edited.txt": "se2\n",
      "staged-then-reverted.txt": "sr2\n",
      "added.txt": "a\n",
      "added-then-edited.txt": "ae\n",
      "added-then-deleted.txt": "ad\n",
      "link": { link: "dir/nested.txt" },
    });
    await git.add({ dir, paths: ["staged.txt", "staged-then-edited.txt", "staged-then-reverted.txt", "added.txt", "added-then-edited.txt", "added-then-deleted.txt"] });
    realGit(disk, "add", "staged.txt", "staged-then-edited.txt", "staged-then-reverted.txt", "added.txt", "added-then-edited.txt", "added-then-deleted.txt");
    await git.rm({ dir, paths: ["deleted-staged.txt", "unstaged-kept.txt"] });
    realGit(disk, "rm", "-q", "--cached", "deleted-staged.txt", "unstaged-kept.txt");
    await writeBoth(ws, dir, disk, {
      "staged-then-edited.txt": "se3\n",
      "staged-then-reverted.txt": "sr\n",
      "added-then-edited.txt": "ae2\n",
      "added-then-deleted.txt": null,
      "deleted.txt": null,
      "deleted-staged.txt": null,
      "untracked.txt": "?\n",
      "newdir/deep/untracked.txt": "?\n",
      "ignored.log": "ignored\n",
      "build/out.txt": "ignored dir\n",
    });
    await ws.fs.chmod("/repo/chmod.sh", 0o755);
    (await import("node:fs")).chmodSync(`${disk}/chmod.sh`, 0o755);

    const ours = await git.status({ dir });
    expect(porcelain(ours)).toEqual(realPorcelain(disk));
    expect(ours.map((e) => e.path)).toEqual([...ours.map((e) => e.path)].sort());
    expect(ours.find((e) => e.path === "unstaged-kept.txt")).toEqual({ path: "unstaged-kept.txt", index: "D", worktree: " " });
    expect(ours.filter((e) => e.path === "unstaged-kept.txt")).toHaveLength(2);
    expect(ours.find((e) => e.path === "untracked.txt")).toEqual({ path: "untracked.txt", index: " ", worktree: "?" });
    expect(ours.find((e) => e.path === "staged.txt")).toEqual({ path: "staged.txt", index: "M", worktree: " " });
    expect(ours.find((e) => e.path === "staged-then-edited.txt")).toEqual({ path: "staged-then-edited.txt", index: "M", worktree: "M" });
    expect(ours.find((e) => e.path === "chmod.sh")).toEqual({ path: "chmod.sh", index: " ", worktree: "M" });

    // paths: exact files and directory prefixes
    expect(porcelain(await git.status({ dir, paths: ["newdir", "staged.txt"] }))).toEqual(["?? newdir/deep/untracked.txt", "M  staged.txt"]);
    expect(porcelain(await git.status({ dir: "/repo", paths: ["/repo/dir", "newdir/deep/"] }))).toEqual(["?? newdir/deep/untracked.txt"]);

    // a repository made by the real git, read from its own index
    const copied = await workspaceCopy(disk);
    expect(porcelain(await copied.git.status({ dir: copied.dir }))).toEqual(realPorcelain(disk));
  });

  it("before the first commit: everything added or untracked", async () => {
    const { ws, git, dir, disk } = await twin();
    await writeBoth(ws, dir, disk, { "a.txt": "a\n", "b/c.txt": "c\n" });
    await git.add({ dir, paths: ["a.txt"] });
    realGit(disk, "add", "a.txt");
    expect(porcelain(await git.status({ dir }))).toEqual(realPorcelain(disk));
    expect(await git.status({ dir })).toEqual([
      { path: "a.txt", index: "A", worktree: " " },
      { path: "b/c.txt", index: " ", worktree: "?" },
    ]);
  });
});

describe("add and rm: the index the real git would make", () => {
  async function edited() {
    const t = await twin();
    await writeBoth(t.ws, t.dir, t.disk, { ".gitignore": "*.log\n", "keep.txt": "k\n", "gone.txt": "g\n", "sub/a.txt": "a\n", "sub/b.txt": "b\n" });
    await t.git.add({ dir: t.dir, all: true });
    await t.git.commit({ dir: t.dir, message: "base", ...at(TIME) });
    gitAt(t.disk, TIME, "add", "-A");
    gitAt(t.disk, TIME, "commit", "-q", "-m", "base");
    await writeBoth(t.ws, t.dir, t.disk, { "keep.txt": "k2\n", "gone.txt": null, "sub/a.txt": null, "sub/b.txt": "b2\n", "sub/new.txt": "n\n", "new.txt": "n\n", "x.log": "log\n" });
    return t;
  }

  it("all (git add -A) stages additions, edits and deletions, not ignored files", async () => {
    const { git, dir, disk } = await edited();
    await git.add({ dir, all: true });
    realGit(disk, "add", "-A");
    expect(porcelain(await git.status({ dir }))).toEqual(realPorcelain(disk));
    expect(await git.lsFiles({ dir })).toEqual(realGit(disk, "ls-files", "-z").split("\0").filter(Boolean));
  });

  it("trackedOnly (git add -u) stages edits and deletions of tracked files only", async () => {
    const { git, dir, disk } = await edited();
    await git.add({ dir, trackedOnly: true });
    realGit(disk, "add", "-u");
    expect(porcelain(await git.status({ dir }))).toEqual(realPorcelain(disk));
  });

  it("a directory pathspec stages deletions under it, as git 2.x does", async () => {
    const { git, dir, disk } = await edited();
    await git.add({ dir, paths: ["sub"] });
    realGit(disk, "add", "sub");
    expect(porcelain(await git.status({ dir }))).toEqual(realPorcelain(disk));
    await git.add({ dir, paths: ["gone.txt"] });
    realGit(disk, "add", "gone.txt");
    expect(porcelain(await git.status({ dir }))).toEqual(realPorcelain(disk));
  });

  it("an ignored file: refused by name without force, added with force; skipped by '.'", async () => {
    const { git, dir, disk } = await edited();
    expect(await rejection(git.add({ dir, paths: ["x.log"] }))).toEqual({
      name: "GitError",
      code: "EADDFAIL",
      message: "git add failed: the path 'x.log' is ignored by one of your .gitignore files (pass force to add it)",
    });
    expect(realGitExit(disk, "add", "x.log")).toBe(1);
    await git.add({ dir, paths: ["."] });
    realGit(disk, "add", ".");
    expect(porcelain(await git.status({ dir }))).toEqual(realPorcelain(disk));
    await git.add({ dir, paths: ["x.log"], force: true });
    realGit(disk, "add", "-f", "x.log");
    expect(porcelain(await git.status({ dir }))).toEqual(realPorcelain(disk));
  });

  it("rm unstages only (git rm --cached), files and directories", async () => {
    const { ws, git, dir, disk } = await edited();
    await git.rm({ dir, paths: ["keep.txt", "sub"] });
    realGit(disk, "rm", "-q", "-r", "--cached", "keep.txt", "sub");
    expect(porcelain(await git.status({ dir }))).toEqual(realPorcelain(disk));
    expect(await ws.fs.readFile("/repo/keep.txt", "utf8")).toBe("k2\n");
  });

  it("300 files in 10 directories: add all and commit give the real git's commit", async () => {
    const { ws, git, dir, disk } = await twin();
    const files: Record<string, FileSpec> = {};
    for (let i = 0; i < 300; i++) files[`d${i % 10}/f${i}.txt`] = `file ${i}\n`;
    await writeBoth(ws, dir, disk, files);
    await git.add({ dir, all: true });
    const { oid } = await git.commit({ dir, message: "many", ...at(TIME) });
    gitAt(disk, TIME, "add", "-A");
    gitAt(disk, TIME, "commit", "-q", "-m", "many");
    expect(oid).toBe(realGit(disk, "rev-parse", "HEAD").trim());
    expect(await git.status({ dir })).toEqual([]);
  });
});

function realGitExit(cwd: string, ...args: string[]): number {
  try {
    realGit(cwd, ...args);
    return 0;
  } catch (error) {
    return (error as { status: number }).status;
  }
}
