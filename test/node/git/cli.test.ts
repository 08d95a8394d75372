/**
 * The git CLI of spec 04 §2.5 on a real Workspace (issue 15): outputs
 * compared with the REAL git 2.39 CLI on an identical checkout (status in
 * every format, log formats, show, diff, ls-files, ls-tree, branch,
 * rev-parse, cat-file, hash-object, clean, commit and merge oids), and the
 * table of flags, exit codes (0/1/128/129) and messages.
 */
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { createGitClient } from "../../../src/git/index.js";
import type { GitClient, GitCliResult } from "../../../src/git/types.js";
import { cleanupScratch, diskCopy, exportDir, IDENTITY, realGit, realGitResult, realRepo, TIME, workspaceCopy, writeTree } from "./worktree-helpers.js";

afterAll(cleanupScratch);

/** The same identity and dates as {@link realGit} uses. */
const ENV = {
  GIT_AUTHOR_NAME: IDENTITY.name,
  GIT_AUTHOR_EMAIL: IDENTITY.email,
  GIT_COMMITTER_NAME: IDENTITY.name,
  GIT_COMMITTER_EMAIL: IDENTITY.email,
  GIT_AUTHOR_DATE: `@${TIME} +0000`,
  GIT_COMMITTER_DATE: `@${TIME} +0000`,
};

function run(git: GitClient, argv: string[], cwd = "/repo", extra: Record<string, string> = {}, stdin?: string): Promise<GitCliResult> {
  return git.cli({ argv, cwd, env: { ...ENV, ...extra }, ...(stdin !== undefined ? { stdin } : {}) });
}

/** Expects exit 0 and returns stdout. */
async function ok(git: GitClient, argv: string[], cwd = "/repo", extra: Record<string, string> = {}): Promise<string> {
  const result = await run(git, argv, cwd, extra);
  expect({ argv, exitCode: result.exitCode, stderr: result.exitCode === 0 ? "" : result.stderr }).toEqual({ argv, exitCode: 0, stderr: "" });
  return result.stdout;
}

/**
 * History made by the real git: main has "first" (a.txt, b/b.txt, c.txt,
 * sub/deep/d.txt, "é.txt") and "second\n\nbody…"; feature branches off
 * "first" with one commit of its own.
 */
function historyRepo(): string {
  return realRepo((d) => {
    writeTree(d, { "a.txt": "alpha\n", "b/b.txt": "beta\n", "c.txt": "c\n", "sub/deep/d.txt": "d\n", "é.txt": "accent\n" });
    realGit(d, "add", "-A");
    realGit(d, "commit", "-q", "-m", "first");
    realGit(d, "branch", "feature");
    writeTree(d, { "a.txt": "alpha 2\nmore\n" });
    realGit(d, "commit", "-q", "-am", "second line one\nline two\n\nbody para\n\nlast para");
    realGit(d, "checkout", "-q", "feature");
    writeTree(d, { "f.txt": "feature\n" });
    realGit(d, "add", "f.txt");
    realGit(d, "commit", "-q", "-m", "feature work");
    realGit(d, "checkout", "-q", "main");
  });
}

/** Applies the same working-tree edits to the disk checkout and to the Workspace one. */
async function editBoth(disk: string, ws: Workspace): Promise<void> {
  writeTree(disk, { "a.txt": "changed\n", "new/x.txt": "x\n", "new/y/z.txt": "z\n", "u.txt": "u\n", "sub/extra.txt": "e\n", "b/b.txt": "beta\nmore beta\n" });
  rmSync(`${disk}/c.txt`);
  await ws.fs.writeFile("/repo/a.txt", "changed\n");
  await ws.fs.mkdir("/repo/new/y", { recursive: true });
  await ws.fs.writeFile("/repo/new/x.txt", "x\n");
  await ws.fs.writeFile("/repo/new/y/z.txt", "z\n");
  await ws.fs.writeFile("/repo/u.txt", "u\n");
  await ws.fs.writeFile("/repo/sub/extra.txt", "e\n");
  await ws.fs.writeFile("/repo/b/b.txt", "beta\nmore beta\n");
  await ws.fs.rm("/repo/c.txt");
}

describe("compared with the real git on an identical checkout", () => {
  let disk: string;
  let ws: Workspace;
  let git: GitClient;

  beforeAll(async () => {
    disk = historyRepo();
    ({ ws, git } = await workspaceCopy(disk));
    await editBoth(disk, ws);
    // a staged new file and a staged modification on both sides
    writeTree(disk, { "s.txt": "staged\n" });
    realGit(disk, "add", "s.txt", "b/b.txt");
    await ws.fs.writeFile("/repo/s.txt", "staged\n");
    await ok(git, ["add", "s.txt", "b/b.txt"]);
  }, 60_000);

  it("status: long format, --porcelain=v1, -s and --porcelain(=v2) at the root and in a subdirectory", async () => {
    expect(await ok(git, ["status"])).toBe(realGit(disk, "status"));
    expect(await ok(git, ["status", "--long"])).toBe(realGit(disk, "status"));
    expect(await ok(git, ["status", "--porcelain=v1"])).toBe(realGit(disk, "status", "--porcelain=v1"));
    expect(await ok(git, ["status", "--porcelain=1"])).toBe(realGit(disk, "status", "--porcelain=v1"));
    expect(await ok(git, ["status", "-uall", "--porcelain=v1"])).toBe(realGit(disk, "status", "-uall", "--porcelain=v1"));
    expect(await ok(git, ["status", "-uno", "--porcelain=v1"])).toBe(realGit(disk, "status", "-uno", "--porcelain=v1"));
    // -s: real git's XY lines; untracked is " ? p" (spec 04 §2.5) where real git prints "?? p"
    expect(await ok(git, ["status", "-s"])).toBe(realGit(disk, "status", "-s").replace(/^\?\? /gm, " ? "));
    // --porcelain and --porcelain=v2: real git's "1 XY … path" reduced to "1 XY path" (spec 04 §2.5)
    const v2 = realGit(disk, "status", "--porcelain=v2").replace(/^1 (..) (?:\S+ ){6}/gm, "1 $1 ");
    expect(await ok(git, ["status", "--porcelain"])).toBe(v2);
    expect(await ok(git, ["status", "--porcelain=v2"])).toBe(v2);
    expect(v2).toContain("1 A. s.txt\n");
    // in a subdirectory: long and -s print paths relative to it, porcelain relative to the root
    const sub = `${disk}/sub/deep`;
    expect(await ok(git, ["status"], "/repo/sub/deep")).toBe(realGit(sub, "status"));
    expect(await ok(git, ["status", "-s"], "/repo/sub/deep")).toBe(realGit(sub, "status", "-s").replace(/^\?\? /gm, " ? "));
    expect(await ok(git, ["status", "--porcelain=v1"], "/repo/sub/deep")).toBe(realGit(sub, "status", "--porcelain=v1"));
    // pathspecs
    expect(await ok(git, ["status", "--porcelain=v1", "b"])).toBe(realGit(disk, "status", "--porcelain=v1", "b"));
    expect(await ok(git, ["status", "--porcelain=v1", "--", "a.txt", "new"])).toBe(realGit(disk, "status", "--porcelain=v1", "--", "a.txt", "new"));
    // -C from elsewhere
    expect(await ok(git, ["-C", "repo", "status", "--porcelain=v1"], "/")).toBe(realGit(disk, "status", "--porcelain=v1"));
  });

  it("log: default blocks (iso dates), --oneline, --format/--pretty placeholders, -n, -N, a ref", async () => {
    expect(await ok(git, ["log"])).toBe(realGit(disk, "log", "--date=iso"));
    expect(await ok(git, ["log", "--date=iso"])).toBe(realGit(disk, "log", "--date=iso"));
    expect(await ok(git, ["log", "--oneline"])).toBe(realGit(disk, "log", "--oneline"));
    const fmt = "%H|%h|%s|%b|%an|%ae|%ad|%cn|%ce|%cd|%%";
    expect(await ok(git, ["log", `--format=${fmt}`])).toBe(realGit(disk, "log", "--date=iso", `--format=${fmt}`));
    expect(await ok(git, ["log", "--pretty=format:%h %s"])).toBe(realGit(disk, "log", "--pretty=format:%h %s"));
    expect(await ok(git, ["log", "--pretty=tformat:%h"])).toBe(realGit(disk, "log", "--pretty=tformat:%h"));
    expect(await ok(git, ["log", "--pretty=oneline"])).toBe(realGit(disk, "log", "--pretty=oneline"));
    expect(await ok(git, ["log", "-n", "1", "--oneline"])).toBe(realGit(disk, "log", "-n", "1", "--oneline"));
    expect(await ok(git, ["log", "-1", "--format=%s"])).toBe("second line one line two\n");
    expect(await ok(git, ["log", "--max-count=1", "--format=%H"])).toBe(realGit(disk, "log", "--max-count=1", "--format=%H"));
    expect(await ok(git, ["log", "feature", "--oneline"])).toBe(realGit(disk, "log", "feature", "--oneline"));
    expect(await ok(git, ["log", "HEAD~1"])).toBe(realGit(disk, "log", "--date=iso", "HEAD~1"));
    expect(await ok(git, ["log", "-n", "0"])).toBe("");
  });

  it("show: commit header and patch, a root commit, <ref>:<path>, -s, --oneline", async () => {
    expect(await ok(git, ["show"])).toBe(realGit(disk, "show", "--date=iso"));
    expect(await ok(git, ["show", "HEAD~1"])).toBe(realGit(disk, "show", "--date=iso", "HEAD~1"));
    expect(await ok(git, ["show", "feature"])).toBe(realGit(disk, "show", "--date=iso", "feature"));
    expect(await ok(git, ["show", "-s"])).toBe(realGit(disk, "show", "-s", "--date=iso"));
    expect(await ok(git, ["show", "HEAD:a.txt"])).toBe(realGit(disk, "show", "HEAD:a.txt"));
    expect(await ok(git, ["show", "HEAD~1:sub/deep/d.txt"])).toBe("d\n");
  });

  it("diff: a ref against the working tree, two refs, paths, --name-only/--name-status/--numstat", async () => {
    expect(await ok(git, ["diff", "HEAD"])).toBe(realGit(disk, "diff", "HEAD"));
    expect(await ok(git, ["diff"])).toBe(realGit(disk, "diff", "HEAD"));
    expect(await ok(git, ["diff", "HEAD~1", "HEAD"])).toBe(realGit(disk, "diff", "HEAD~1", "HEAD"));
    expect(await ok(git, ["diff", "main", "feature"])).toBe(realGit(disk, "diff", "main", "feature"));
    expect(await ok(git, ["diff", "HEAD", "--", "a.txt"])).toBe(realGit(disk, "diff", "HEAD", "--", "a.txt"));
    expect(await ok(git, ["diff", "HEAD~1", "HEAD", "--name-only"])).toBe(realGit(disk, "diff", "HEAD~1", "HEAD", "--name-only"));
    expect(await ok(git, ["diff", "main", "feature", "--name-status"])).toBe(realGit(disk, "diff", "main", "feature", "--name-status"));
    expect(await ok(git, ["diff", "main", "feature", "--numstat"])).toBe(realGit(disk, "diff", "main", "feature", "--numstat"));
  });

  it("ls-files, ls-tree and cat-file print what the real git prints", async () => {
    expect(await ok(git, ["ls-files"])).toBe(realGit(disk, "ls-files"));
    expect(await ok(git, ["ls-files"], "/repo/sub")).toBe(realGit(`${disk}/sub`, "ls-files"));
    expect(await ok(git, ["ls-files", "b"])).toBe(realGit(disk, "ls-files", "b"));
    expect(await ok(git, ["ls-files", "--ref=feature"])).toBe(realGit(disk, "ls-tree", "-r", "--name-only", "feature"));
    expect(await ok(git, ["ls-tree", "HEAD"])).toBe(realGit(disk, "ls-tree", "HEAD"));
    expect(await ok(git, ["ls-tree", "HEAD", "sub/deep/"])).toBe(realGit(disk, "ls-tree", "HEAD", "sub/deep/"));
    expect(await ok(git, ["ls-tree", "--name-only", "feature"])).toBe(realGit(disk, "ls-tree", "--name-only", "feature"));
    for (const mode of ["-p", "-t", "-s"]) {
      for (const object of ["HEAD", "HEAD:a.txt", "HEAD^{tree}", "HEAD:sub"]) {
        expect({ mode, object, out: await ok(git, ["cat-file", mode, object]) }).toEqual({ mode, object, out: realGit(disk, "cat-file", mode, object) });
      }
    }
  });

  it("branch, rev-parse, symbolic-ref", async () => {
    expect(await ok(git, ["branch"])).toBe(realGit(disk, "branch"));
    expect(await ok(git, ["branch", "--show-current"])).toBe(realGit(disk, "branch", "--show-current"));
    for (const args of [["HEAD"], ["HEAD~1"], ["--short", "HEAD"], ["--abbrev-ref", "HEAD"], ["feature", "main^"], ["--verify", "HEAD"]]) {
      expect({ args, out: await ok(git, ["rev-parse", ...args]) }).toEqual({ args, out: realGit(disk, "rev-parse", ...args) });
    }
    expect(await ok(git, ["rev-parse", "--show-toplevel"], "/repo/sub/deep")).toBe("/repo\n");
    expect(await ok(git, ["rev-parse", "--git-dir"])).toBe(".git\n");
    expect(await ok(git, ["rev-parse", "--is-inside-work-tree"])).toBe("true\n");
    expect(await ok(git, ["symbolic-ref", "HEAD"])).toBe(realGit(disk, "symbolic-ref", "HEAD"));
    expect(await ok(git, ["symbolic-ref", "--short", "HEAD"])).toBe(realGit(disk, "symbolic-ref", "--short", "HEAD"));
  });

  it("hash-object --stdin [-w] gives the real git's oid; -w stores the blob", async () => {
    const content = "hello workspace\n";
    const expected = execGit(disk, ["hash-object", "--stdin"], content);
    expect((await run(git, ["hash-object", "--stdin"], "/repo", {}, content)).stdout).toBe(expected);
    expect((await run(git, ["hash-object", "--stdin", "-w"], "/repo", {}, content)).stdout).toBe(expected);
    expect(await ok(git, ["cat-file", "-p", expected.trim()])).toBe(content);
    expect((await run(git, ["cat-file", "-e", expected.trim()])).exitCode).toBe(0);
  });
});

function execGit(cwd: string, args: string[], stdin: string): string {
  return execFileSync("/usr/bin/git", args, { cwd, input: stdin, encoding: "utf8" });
}
