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
import { at, fsckWorkspace, gitAt, gitDated, porcelain, realPorcelain, twin, writeBoth, type FileSpec } from "./repo-helpers.js";
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

  it("nothing staged: the client still commits, the same commit as git commit --allow-empty; the CLI refuses with exit 1", async () => {
    const { ws, git, dir, disk } = await twin();
    await writeBoth(ws, dir, disk, { "a.txt": "a\n" });
    await git.add({ dir, paths: ["."] });
    await git.commit({ dir, message: "first", ...at(TIME) });
    gitAt(disk, TIME, "add", "-A");
    gitAt(disk, TIME, "commit", "-q", "-m", "first");
    expect(await git.status({ dir })).toEqual([]);
    const empty = await git.commit({ dir, message: "empty", ...at(TIME + 60) });
    gitAt(disk, TIME + 60, "commit", "-q", "--allow-empty", "-m", "empty");
    expect(empty.oid).toBe(realGit(disk, "rev-parse", "HEAD").trim());
    expect((await git.show({ dir })).tree).toBe((await git.show({ dir, ref: "HEAD~1" })).tree);
    const refused = await git.cli({ argv: ["commit", "-m", "again"], cwd: dir });
    expect(refused.exitCode).toBe(1);
    expect(await git.revParse({ dir, ref: "HEAD" })).toBe(empty.oid);
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


describe("a repository at the Workspace root (dir omitted)", () => {
  it("init, add, commit, status, diff and lsFiles with the default dir '/'", async () => {
    const { ws, git } = newWorkspace();
    const disk = tempDir();
    realGit(disk, "init", "-q", "-b", "main");
    await git.init();
    expect((await ws.fs.stat("/.git")).isDirectory).toBe(true);
    await writeBoth(ws, "", disk, { "a.txt": "a\n", "src/b.ts": "b\n" });
    await git.add({ paths: ["."] });
    const { oid } = await git.commit({ message: "root", ...at(TIME) });
    gitAt(disk, TIME, "add", "-A");
    gitAt(disk, TIME, "commit", "-q", "-m", "root");
    expect(oid).toBe(realGit(disk, "rev-parse", "HEAD").trim());
    await writeBoth(ws, "", disk, { "a.txt": "a2\n", "new.txt": "n\n" });
    expect(porcelain(await git.status())).toEqual(realPorcelain(disk));
    expect(await git.diff()).toBe(realGit(disk, "diff", "HEAD"));
    expect(await git.lsFiles()).toEqual(["a.txt", "src/b.ts"]);
    expect(await git.status({ paths: ["/src"] })).toEqual([]);
    expect(await git.repoRoot({ dir: "/src" })).toBe("/");
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

/**
 * A history made by the real git, imported into a Workspace:
 * A (t0) ← B (t1, tag v1 annotated) ← M (t4, merge of D) ← E (t5); feature: A ← C (t2) ← D (t3); v0 lightweight at A.
 */
async function history() {
  const disk = tempDir();
  realGit(disk, "init", "-q", "-b", "main");
  const commit = (time: number, files: Record<string, string>, message: string) => {
    for (const [path, text] of Object.entries(files)) {
      const full = `${disk}/${path}`;
      require("node:fs").mkdirSync(require("node:path").dirname(full), { recursive: true });
      require("node:fs").writeFileSync(full, text);
    }
    gitAt(disk, time, "add", "-A");
    gitAt(disk, time, "commit", "-q", "-m", message);
  };
  commit(TIME, { "a.txt": "a\n", "src/x.ts": "x\n", "src/deep/y.ts": "y\n" }, "A: start");
  gitAt(disk, TIME, "tag", "v0");
  gitAt(disk, TIME, "branch", "feature");
  commit(TIME + 10, { "a.txt": "a2\n" }, "B: main work\n\nwith a body line");
  gitAt(disk, TIME + 10, "tag", "-a", "v1", "-m", "version 1");
  gitAt(disk, TIME, "checkout", "-q", "feature");
  commit(TIME + 20, { "f.txt": "f\n" }, "C: feature one");
  commit(TIME + 30, { "f.txt": "f2\n" }, "D: feature two");
  gitAt(disk, TIME, "checkout", "-q", "main");
  gitAt(disk, TIME + 40, "merge", "-q", "--no-ff", "-m", "M: merge feature", "feature");
  commit(TIME + 50, { "e.txt": "e\n" }, "E: after the merge");
  const copy = await workspaceCopy(disk);
  return { disk, ...copy };
}

describe("reads: the same answers as the real git", () => {
  it("log (all commits, depth, a branch, a revision) has git log's oids, trees, parents, people and messages", async () => {
    const { disk, git, dir } = await history();
    const real = (ref: string, ...extra: string[]) =>
      realGit(disk, "log", "--format=%H%x01%T%x01%P%x01%an%x01%ae%x01%at%x01%cn%x01%ce%x01%ct%x01%B%x02", ...extra, ref)
        .split("\x02\n")
        .filter((s) => s !== "")
        .map((s) => {
          const [oid, tree, parents, an, ae, at, cn, ce, ct, body] = s.split("\x01");
          return [oid, tree, parents === "" ? [] : parents!.split(" "), an, ae, Number(at), cn, ce, Number(ct), body];
        });
    const ours = (views: Awaited<ReturnType<typeof git.log>>) =>
      views.map((c) => [c.oid, c.tree, c.parent, c.author.name, c.author.email, c.author.timestamp, c.committer.name, c.committer.email, c.committer.timestamp, c.message]);
    const all = await git.log({ dir });
    expect(all).toHaveLength(6);
    expect(ours(all)).toEqual(real("HEAD"));
    expect(ours(await git.log({ dir, depth: 2 }))).toEqual(real("HEAD", "-n", "2"));
    expect(ours(await git.log({ dir, ref: "feature" }))).toEqual(real("feature"));
    expect(ours(await git.log({ dir, ref: "HEAD~1^2" }))).toEqual(real("HEAD~1^2"));
    expect(all[0]!.message).toBe("E: after the merge\n");
    expect(all[0]!.author).toEqual({ name: IDENTITY.name, email: IDENTITY.email, timestamp: TIME + 50, timezoneOffset: 0 });
  });

  it("revParse: refs, short oids, ^, ^N, ~N, chains, tags, peeling and rev:path as git rev-parse", async () => {
    const { disk, git, dir } = await history();
    const exprs = [
      "HEAD", "@", "main", "refs/heads/feature", "feature", "HEAD^", "HEAD^^", "HEAD~2", "HEAD~1^2", "HEAD^^2", "HEAD~1^2~1",
      "HEAD~1^2^", "HEAD^1^1", "HEAD~0", "HEAD^0", "main~3", "v0", "v1", "v1^{}", "v1^{commit}", "v1~1", "v1^0", "HEAD^{tree}",
      "HEAD:src/deep/y.ts", "HEAD:src", "HEAD~1^2:f.txt", "tags/v0",
    ];
    for (const expr of exprs) {
      expect([expr, await git.revParse({ dir, ref: expr })]).toEqual([expr, realGit(disk, "rev-parse", expr).trim()]);
    }
    const head = realGit(disk, "rev-parse", "HEAD").trim();
    expect(await git.revParse({ dir, ref: head.slice(0, 7) })).toBe(head);
    expect(await git.revParse({ dir, ref: `${head.slice(0, 9).toUpperCase()}~1` })).toBe(realGit(disk, "rev-parse", "HEAD~1").trim());
    for (const bad of ["HEAD~9", "HEAD^3", "nope", "HEAD:missing.txt", "v1^^^^^^"]) {
      const error = await rejection(git.revParse({ dir, ref: bad }));
      expect(error?.code).toBe("EREVPARSEFAIL");
      expect(error?.name).toBe("GitError");
      expect(realGitExit(disk, "rev-parse", "--verify", "-q", bad)).not.toBe(0);
    }
    expect(await rejection(git.revParse({ dir, ref: "nope" }))).toEqual({ name: "GitError", code: "EREVPARSEFAIL", message: "git rev-parse failed: unknown revision 'nope'" });
  });

  it("show, lsFiles, lsTree, currentBranch and repoRoot", async () => {
    const { disk, ws, git, dir } = await history();
    const merge = await git.show({ dir, ref: "HEAD~1" });
    expect(merge.parent).toEqual(realGit(disk, "rev-parse", "HEAD~2", "HEAD~1^2").trim().split("\n"));
    expect(merge.message).toBe("M: merge feature\n");
    expect((await git.show({ dir, ref: "v1" })).oid).toBe(realGit(disk, "rev-parse", "v1^{commit}").trim());

    expect(await git.lsFiles({ dir })).toEqual(realGit(disk, "ls-files", "-z").split("\0").filter(Boolean));
    expect(await git.lsFiles({ dir, ref: "v0" })).toEqual(realGit(disk, "ls-tree", "-r", "-z", "--name-only", "v0").split("\0").filter(Boolean));

    const lsTree = (...args: string[]) =>
      realGit(disk, "ls-tree", "-z", ...args)
        .split("\0")
        .filter(Boolean)
        .map((line) => {
          const [meta, path] = line.split("\t");
          const [mode, type, oid] = meta!.split(" ");
          return { mode, path, oid, type };
        });
    expect(await git.lsTree({ dir, ref: "HEAD" })).toEqual(lsTree("HEAD"));
    expect(await git.lsTree({ dir, ref: "HEAD~3", path: "src" })).toEqual(lsTree("HEAD~3", "src/"));
    expect(await git.lsTree({ dir, ref: "HEAD", path: "src/deep/" })).toEqual(lsTree("HEAD", "src/deep/"));
    expect(await git.lsTree({ dir, ref: "HEAD", path: "a.txt" })).toEqual(lsTree("HEAD", "a.txt"));
    expect(await git.lsTree({ dir, ref: "HEAD^{tree}" })).toEqual(lsTree("HEAD^{tree}"));
    expect(await git.lsTree({ dir, ref: "HEAD", path: "missing" })).toEqual([]);

    expect(await git.currentBranch({ dir })).toBe("main");
    expect(await git.currentBranch({ dir, fullname: true })).toBe("refs/heads/main");
    await git.updateRef({ dir, ref: "HEAD", value: "HEAD~1" , force: true });
    expect(await git.currentBranch({ dir })).toBeUndefined();
    const fresh = await twin();
    expect(await fresh.git.currentBranch({ dir: fresh.dir })).toBe("main");

    await ws.fs.mkdir("/repo/src/deep/er", { recursive: true });
    expect(await git.repoRoot({ dir: "/repo/src/deep/er" })).toBe("/repo");
    expect(await git.repoRoot({ dir: "/repo" })).toBe("/repo");
    expect(await rejection(git.repoRoot({ dir: "/elsewhere/x" }))).toEqual({ name: "NotARepositoryError", code: "ENOTAREPO", message: "not a git repository: /elsewhere/x" });
  });

  it("hashObject, catFile and updateRef as hash-object, cat-file, update-ref and symbolic-ref", async () => {
    const { disk, ws, git, dir } = await history();
    const content = "some content\nwith ünïcode\n";
    const real = execGitStdin(disk, content, "hash-object", "--stdin");
    expect(await git.hashObject({ content })).toBe(real);
    expect(await git.hashObject({ dir, content: new TextEncoder().encode(content) })).toBe(real);
    expect(await ws.fs.lstat(`/repo/.git/objects/${real.slice(0, 2)}/${real.slice(2)}`).catch((e) => e.code)).toBe("ENOENT");
    expect(await git.hashObject({ dir, content, write: true })).toBe(real);
    const written = await git.catFile({ dir, oid: real.slice(0, 8) });
    expect(written).toEqual({ oid: real, bytes: new TextEncoder().encode(content), type: "blob" });

    const headCommit = await git.catFile({ dir, oid: "HEAD" });
    expect(headCommit.type).toBe("commit");
    expect(Buffer.from(headCommit.bytes).toString()).toBe(realGit(disk, "cat-file", "commit", "HEAD"));
    const file = await git.catFile({ dir, oid: "HEAD~1^2", filepath: "f.txt" });
    expect([file.oid, Buffer.from(file.bytes).toString(), file.type]).toEqual([realGit(disk, "rev-parse", "HEAD~1^2:f.txt").trim(), "f2\n", "blob"]);
    expect((await git.catFile({ dir, oid: "HEAD:src/deep/y.ts" })).bytes).toEqual(new TextEncoder().encode("y\n"));
    expect((await git.catFile({ dir, oid: "v1" })).type).toBe("tag");
    expect((await rejection(git.catFile({ dir, oid: "HEAD", filepath: "nope" })))?.code).toBe("ECATFILEFAIL");

    await git.updateRef({ dir, ref: "refs/heads/side", value: "HEAD~2" });
    await git.updateRef({ dir, ref: "refs/tags/light", value: "v1^{}" });
    expect((await rejection(git.updateRef({ dir, ref: "refs/heads/side", value: "HEAD" })))?.code).toBe("EUPDATEREFFAIL");
    await git.updateRef({ dir, ref: "refs/heads/side", value: "HEAD~1", force: true });
    await git.updateRef({ dir, ref: "HEAD", value: "refs/heads/feature", symbolic: true, force: true });
    realGit(disk, "update-ref", "refs/heads/side", "HEAD~1");
    realGit(disk, "update-ref", "refs/tags/light", "v1^{}");
    realGit(disk, "symbolic-ref", "HEAD", "refs/heads/feature");
    const copy = await exportDir(ws, dir);
    for (const ref of ["refs/heads/side", "refs/tags/light", "HEAD"]) {
      expect(realGit(copy, "rev-parse", ref)).toBe(realGit(disk, "rev-parse", ref));
    }
    expect(realGit(copy, "symbolic-ref", "HEAD")).toBe("refs/heads/feature\n");
    expect(await git.currentBranch({ dir })).toBe("feature");
  });

  it("configGet and configSet read and write .git/config as git config does", async () => {
    const { ws, git, dir } = await twin();
    expect(await git.configGet({ dir, path: "core.bare" })).toBe("false");
    expect(await git.configGet({ dir, path: "core.filemode" })).toBe("true");
    expect(await git.configGet({ dir, path: "user.name" })).toBeUndefined();
    await git.configSet({ dir, path: "user.name", value: "Someone Else" });
    await git.configSet({ dir, path: "remote.origin.url", value: "https://example.com/r.git" });
    await git.configSet({ dir, path: "remote.origin.fetch", value: "+refs/heads/*:refs/remotes/origin/*" });
    await git.configSet({ dir, path: "remote.origin.fetch", value: "+refs/tags/*:refs/tags/*", append: true });
    await git.configSet({ dir, path: "core.autocrlf", value: false });
    await git.configSet({ dir, path: "pack.depth", value: 7 });
    expect(await git.configGet({ dir, path: "user.name" })).toBe("Someone Else");
    expect(await git.configGet({ dir, path: "remote.origin.fetch", all: true })).toEqual(["+refs/heads/*:refs/remotes/origin/*", "+refs/tags/*:refs/tags/*"]);
    expect(await git.configGet({ dir, path: "missing.key", all: true })).toEqual([]);
    const copy = await exportDir(ws, dir);
    expect(realGit(copy, "config", "--local", "--get", "user.name")).toBe("Someone Else\n");
    expect(realGit(copy, "config", "--local", "--get-all", "remote.origin.fetch")).toBe("+refs/heads/*:refs/remotes/origin/*\n+refs/tags/*:refs/tags/*\n");
    expect(realGit(copy, "config", "--local", "--get", "core.autocrlf")).toBe("false\n");
    expect(realGit(copy, "config", "--local", "--get", "pack.depth")).toBe("7\n");
    await git.configSet({ dir, path: "user.name", value: undefined });
    expect(await git.configGet({ dir, path: "user.name" })).toBeUndefined();
    expect(realGitExit(await exportDir(ws, dir), "config", "--local", "--get", "user.name")).toBe(1);
  });
});

function execGitStdin(cwd: string, input: string, ...args: string[]): string {
  return require("node:child_process").execFileSync("/usr/bin/git", args, { cwd, input, encoding: "utf8" }).trim();
}

describe("errors: classes, codes and messages of spec 04 §2.4", () => {
  it("NotARepositoryError from every operation that needs a repository", async () => {
    const { ws, git } = newWorkspace();
    await ws.fs.mkdir("/plain");
    const expected = { name: "NotARepositoryError", code: "ENOTAREPO", message: "not a git repository: /plain" };
    const dir = "/plain";
    const calls: Array<() => Promise<unknown>> = [
      () => git.status({ dir }), () => git.add({ dir, paths: ["."] }), () => git.rm({ dir, paths: ["x"] }), () => git.commit({ dir, message: "m" }),
      () => git.log({ dir }), () => git.show({ dir }), () => git.revParse({ dir, ref: "HEAD" }), () => git.currentBranch({ dir }), () => git.lsFiles({ dir }),
      () => git.lsTree({ dir, ref: "HEAD" }), () => git.hashObject({ dir, content: "x", write: true }), () => git.catFile({ dir, oid: "HEAD" }),
      () => git.updateRef({ dir, ref: "refs/heads/x", value: "HEAD" }), () => git.configGet({ dir, path: "user.name" }),
      () => git.configSet({ dir, path: "user.name", value: "x" }), () => git.diff({ dir }), () => git.diffSummary({ dir }), () => git.repoRoot({ dir }),
    ];
    for (const call of calls) expect([String(call), await rejection(call())]).toEqual([String(call), expected]);
    expect(await git.hashObject({ dir, content: "x" })).toBe(execGitStdin("/", "x", "hash-object", "--stdin"));
  });

  it("AlreadyInitializedError, PathspecNotFoundError, PathOutsideRepoError, EMSG", async () => {
    const { ws, git } = newWorkspace();
    const dir = "/repo";
    await git.init({ dir });
    expect(await rejection(git.init({ dir }))).toEqual({ name: "AlreadyInitializedError", code: "EALREADYINIT", message: "git repository already exists at /repo" });
    await git.init({ dir: "/bare.git", bare: true });
    expect(await rejection(git.init({ dir: "/bare.git", bare: true }))).toEqual({ name: "AlreadyInitializedError", code: "EALREADYINIT", message: "git repository already exists at /bare.git" });
    expect(await ws.fs.readFile("/bare.git/HEAD", "utf8")).toBe("ref: refs/heads/main\n");
    await git.init({ dir: "/other", defaultBranch: "trunk" });
    expect(await git.currentBranch({ dir: "/other" })).toBe("trunk");

    await ws.fs.writeFile("/repo/a.txt", "a\n");
    expect(await rejection(git.add({ dir, paths: ["a.txt", "missing.txt"] }))).toEqual({ name: "PathspecNotFoundError", code: "EPATHSPEC", message: "pathspec 'missing.txt' did not match any files" });
    expect(await git.status({ dir })).toEqual([{ path: "a.txt", index: " ", worktree: "?" }]);
    expect(await rejection(git.rm({ dir, paths: ["a.txt"] }))).toEqual({ name: "PathspecNotFoundError", code: "EPATHSPEC", message: "pathspec 'a.txt' did not match any files" });
    for (const outside of ["../x", "/etc/passwd", "a/../../x", "/repository/x"]) {
      expect(await rejection(git.add({ dir, paths: [outside] }))).toEqual({ name: "PathOutsideRepoError", code: "EPATHOUTSIDE", message: `path '${outside}' is outside the repository at /repo` });
      expect((await rejection(git.status({ dir, paths: [outside] })))?.code).toBe("EPATHOUTSIDE");
      expect((await rejection(git.diff({ dir, paths: [outside] })))?.code).toBe("EPATHOUTSIDE");
    }
    await git.add({ dir, paths: ["/repo/a.txt"] });
    expect(await git.status({ dir })).toEqual([{ path: "a.txt", index: "A", worktree: " " }]);
    for (const message of ["", "   ", "\n\n\t\n"]) {
      expect(await rejection(git.commit({ dir, message }))).toEqual({ name: "GitError", code: "EMSG", message: "aborting commit due to empty commit message" });
    }
    expect(await rejection(git.commit({ dir, message: "x", amend: true }))).toEqual({ name: "GitError", code: "ECOMMITFAIL", message: "git commit failed: nothing to amend (no commit yet)" });
    expect((await rejection(git.log({ dir })))?.code).toBe("ELOGFAIL");
  });

  it("bad options: a GitError with code EUSAGE, never a TypeError", async () => {
    const { git } = newWorkspace();
    const dir = "/repo";
    await git.init({ dir });
    const bad: Array<[() => Promise<unknown>, string]> = [
      [() => git.status(5 as never), "git status: options must be an object, got number"],
      [() => git.status({ dir: 7 } as never), "dir must be a non-empty string, got number"],
      [() => git.status({ dir, paths: "a.txt" } as never), 'git status: paths must be an array of non-empty strings, got "a.txt"'],
      [() => git.status({ dir, paths: [""] } as never), "git status: paths must be an array of non-empty strings, got an array"],
      [() => git.add({ dir } as never), "git add: paths must name at least one path (or pass all or trackedOnly)"],
      [() => git.add({ dir, paths: ["."], force: "yes" } as never), 'git add: force must be a boolean, got "yes"'],
      [() => git.rm({ dir, paths: [] }), "git rm: paths must name at least one path"],
      [() => git.commit({ dir } as never), "git commit: message is required"],
      [() => git.commit({ dir, message: 5 } as never), "git commit: message must be a string"],
      [() => git.commit({ dir, message: "m", author: "me" } as never), "git commit: author must be an object { name, email, timestamp?, timezoneOffset? }"],
      [() => git.commit({ dir, message: "m", author: { name: "a <b>", email: "e" } }), "git commit: author.name must be a string without '<', '>', NUL or a line break"],
      [() => git.commit({ dir, message: "m", author: { timestamp: 1.5 } }), "git commit: author.timestamp must be an integer number of seconds since the epoch"],
      [() => git.commit({ dir, message: "m", env: "x" } as never), "git commit: env must be an object of strings"],
      [() => git.log({ dir, depth: 0 }), "git log: depth must be a positive integer"],
      [() => git.log({ dir, ref: "" }), 'git log: ref must be a non-empty string, got ""'],
      [() => git.revParse({ dir } as never), "git rev-parse: ref must be a non-empty string, got undefined"],
      [() => git.lsTree({ dir, ref: "HEAD", path: 3 } as never), "git ls-tree: path must be a non-empty string, got number"],
      [() => git.hashObject({ content: 5 } as never), "git hash-object: content must be a string or a Uint8Array"],
      [() => git.catFile({ dir } as never), "git cat-file: oid must be a non-empty string, got undefined"],
      [() => git.updateRef({ dir, ref: "refs/heads/x" } as never), "git update-ref: value must be a non-empty string, got undefined"],
      [() => git.configGet({ dir, path: "" }), 'git config: path must be a non-empty string, got ""'],
      [() => git.configSet({ dir, path: "a.b", value: {} } as never), "git config: value must be a string, a boolean, a finite number or undefined"],
      [() => git.init({ dir: "/x", defaultBranch: "bad name" }), "invalid initial branch name: 'bad name'"],
      [() => git.configSet({ dir, path: "a", value: "v" }), "invalid key: a"],
      [() => git.configGet({ dir, path: "a.b c" }), "invalid key: a.b c"],
      [() => git.init({ dir: "/x", bare: 1 } as never), "git init: bare must be a boolean, got number"],
      [() => git.diff({ dir, to: 5 } as never), "git diff: to must be a non-empty string, got number"],
      [() => git.currentBranch({ dir, fullname: "yes" } as never), 'git branch: fullname must be a boolean, got "yes"'],
    ];
    for (const [call, message] of bad) expect([message, await rejection(call())]).toEqual([message, { name: "GitError", code: "EUSAGE", message }]);
  });
});
