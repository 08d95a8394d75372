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
import { cleanupScratch, committedRepo, diskCopy, identityEnv, realGit, realGitResult, realRepo, workspaceCopy, writeTree } from "./worktree-helpers.js";

afterAll(cleanupScratch);

/** The same identity and dates as {@link realGit} uses. */
const ENV = identityEnv();

function run(git: GitClient, argv: string[], cwd = "/repo", extra: Record<string, string> = {}, stdin?: string): Promise<GitCliResult> {
  // the table's hash-object rows read this standard input unless a test gives its own
  if (stdin === undefined && argv.includes("--stdin")) stdin = "abc\n";
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
  return committedRepo({ "a.txt": "alpha\n", "b/b.txt": "beta\n", "c.txt": "c\n", "sub/deep/d.txt": "d\n", "é.txt": "accent\n" }, "first", (d) => {
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
    expect(await ok(git, ["diff"])).toBe(realGit(disk, "diff"));
    expect(await ok(git, ["diff", "--cached"])).toBe(realGit(disk, "diff", "--cached"));
    expect(await ok(git, ["diff", "HEAD~1", "HEAD"])).toBe(realGit(disk, "diff", "HEAD~1", "HEAD"));
    expect(await ok(git, ["diff", "main", "feature"])).toBe(realGit(disk, "diff", "main", "feature"));
    expect(await ok(git, ["diff", "HEAD", "--", "a.txt"])).toBe(realGit(disk, "diff", "HEAD", "--", "a.txt"));
    expect(await ok(git, ["diff", "HEAD~1", "HEAD", "--name-only"])).toBe(realGit(disk, "diff", "HEAD~1", "HEAD", "--name-only"));
    expect(await ok(git, ["diff", "main", "feature", "--name-status"])).toBe(realGit(disk, "diff", "main", "feature", "--name-status"));
    expect(await ok(git, ["diff", "main", "feature", "--numstat"])).toBe(realGit(disk, "diff", "main", "feature", "--numstat"));
    expect(await ok(git, ["diff", "--stat", "HEAD"])).toBe(realGit(disk, "diff", "--stat", "HEAD"));
    expect(await ok(git, ["diff", "--stat", "main", "feature"])).toBe(realGit(disk, "diff", "--stat", "main", "feature"));
    expect(await ok(git, ["show", "--stat"])).toBe(realGit(disk, "show", "--stat", "--date=iso"));
    expect(await ok(git, ["show", "--stat", "HEAD~1"])).toBe(realGit(disk, "show", "--stat", "--date=iso", "HEAD~1"));
  });

  it("--stat scales the graph and cuts long names as the real git does", async () => {
    const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} ${i}\n`).join("");
    const long = "very/long/directory/name/that/goes/on/and/on/and/on/for/a/while/file.txt";
    const big = committedRepo({ "big.txt": lines(300, "old"), "small.txt": "s\n", [long]: "x\n", "gone.txt": lines(5, "g") }, "base", (d) => {
      writeTree(d, { "big.txt": lines(120, "old") + lines(250, "new"), "small.txt": "s\nt\n", [long]: "y\n", "added.txt": lines(3, "a") });
      rmSync(`${d}/gone.txt`);
      realGit(d, "add", "-A");
      realGit(d, "commit", "-q", "-m", "change");
    });
    const copy = await workspaceCopy(big);
    expect(await ok(copy.git, ["diff", "--stat", "HEAD~1", "HEAD"])).toBe(realGit(big, "diff", "--stat", "HEAD~1", "HEAD"));
    expect(await ok(copy.git, ["show", "--stat", "--format=%s"])).toBe(realGit(big, "show", "--stat", "--format=%s"));
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
    expect(await ok(git, ["branch", "-v"])).toBe(realGit(disk, "branch", "-v"));
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

/** A Workspace with no repository yet and a client without a default identity. */
function bareWorkspace(): { ws: Workspace; git: GitClient } {
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
  return { ws, git: createGitClient()({ ws }) };
}

async function expectResult(git: GitClient, argv: string[], expected: Partial<GitCliResult>, cwd = "/repo", extra: Record<string, string> = {}): Promise<GitCliResult> {
  const result = await run(git, argv, cwd, extra);
  const picked = Object.fromEntries(Object.keys(expected).map((k) => [k, result[k as keyof GitCliResult]]));
  expect({ argv, ...picked }).toEqual({ argv, ...expected });
  return result;
}

describe("write commands give the real git's objects and outputs", () => {
  it("commit (-m, -am, --amend, --author) makes the same commits as the real git", async () => {
    const disk = historyRepo();
    const { ws, git } = await workspaceCopy(disk);
    await editBoth(disk, ws);
    realGit(disk, "add", "-A");
    realGit(disk, "commit", "-q", "-m", "third", "-m", "with body");
    await ok(git, ["add", "-A"]);
    const third = await ok(git, ["commit", "-m", "third", "-m", "with body"]);
    const oid = realGit(disk, "rev-parse", "HEAD").trim();
    expect(third).toBe(`[${oid.slice(0, 7)}] third\n`);
    expect(await ok(git, ["rev-parse", "HEAD"])).toBe(`${oid}\n`);
    // -am stages tracked changes only
    writeTree(disk, { "a.txt": "again\n", "loose.txt": "l\n" });
    await ws.fs.writeFile("/repo/a.txt", "again\n");
    await ws.fs.writeFile("/repo/loose.txt", "l\n");
    realGit(disk, "commit", "-q", "-am", "fourth", "--author", "Bob <bob@example.com>");
    expect(await ok(git, ["commit", "-am", "fourth", "--author", "Bob <bob@example.com>"])).toBe(`[${realGit(disk, "rev-parse", "--short", "HEAD").trim()}] fourth\n`);
    expect(await ok(git, ["status", "--porcelain=v1"])).toBe(realGit(disk, "status", "--porcelain=v1"));
    realGit(disk, "commit", "-q", "--amend", "-m", "fourth, amended");
    await ok(git, ["commit", "--amend", "-m", "fourth, amended"]);
    expect(await ok(git, ["log", "--format=%H %an %ae %s"])).toBe(realGit(disk, "log", "--format=%H %an %ae %s"));
    // nothing staged: exit 1 with the status, as real git
    const real = realGitResult(disk, "commit", "-m", "empty");
    await expectResult(git, ["commit", "-m", "empty"], { exitCode: real.status, stdout: real.stdout, stderr: "" });
  });

  it("branch / tag / checkout / switch: outputs and refs", async () => {
    const disk = historyRepo();
    const { git } = await workspaceCopy(disk);
    await expectResult(git, ["branch", "topic"], { exitCode: 0, stdout: "", stderr: "" });
    await ok(git, ["branch", "old", "HEAD~1"]);
    realGit(disk, "branch", "topic");
    realGit(disk, "branch", "old", "HEAD~1");
    expect(await ok(git, ["branch"])).toBe(realGit(disk, "branch"));
    expect(await ok(git, ["branch", "-d", "old"])).toBe(realGit(disk, "branch", "-D", "old"));
    // 128 as real git's `fatal:` (1 before issue 20's twenty-fifth attack run).
    await expectResult(git, ["branch", "topic"], { exitCode: 128, stderr: "git branch: a branch named 'topic' already exists\n" });
    await expectResult(git, ["branch", "-f", "topic", "feature"], { exitCode: 0 });
    expect(await ok(git, ["rev-parse", "topic"])).toBe(realGit(disk, "rev-parse", "feature"));
    await expectResult(git, ["branch", "-d"], { exitCode: 129, stderr: "git branch: branch name required\n" });
    await expectResult(git, ["branch", "a", "b", "c"], { exitCode: 129, stderr: "git branch: unexpected argument 'c'\n" });
    // tags
    await ok(git, ["tag", "v1"]);
    await ok(git, ["tag", "v0", "HEAD~1"]);
    realGit(disk, "tag", "v1");
    realGit(disk, "tag", "v0", "HEAD~1");
    expect(await ok(git, ["tag"])).toBe(realGit(disk, "tag"));
    expect(await ok(git, ["tag", "-l"])).toBe(realGit(disk, "tag", "-l"));
    expect(await ok(git, ["tag", "-d", "v0"])).toBe(realGit(disk, "tag", "-d", "v0"));
    await expectResult(git, ["tag", "-a", "x"], { exitCode: 129, stderr: "git tag: unknown option '-a'\n" });
    // checkout / switch
    await expectResult(git, ["checkout", "feature"], { exitCode: 0, stdout: "", stderr: "Switched to branch 'feature'\n" });
    await expectResult(git, ["checkout", "feature"], { exitCode: 0, stderr: "Already on 'feature'\n" });
    await expectResult(git, ["switch", "main"], { exitCode: 0, stderr: "Switched to branch 'main'\n" });
    await expectResult(git, ["checkout", "-b", "nb"], { exitCode: 0, stderr: "Switched to a new branch 'nb'\n" });
    await expectResult(git, ["switch", "-c", "nb2", "feature"], { exitCode: 0, stderr: "Switched to a new branch 'nb2'\n" });
    expect(await ok(git, ["rev-parse", "HEAD"])).toBe(realGit(disk, "rev-parse", "feature"));
    await expectResult(git, ["switch", "v1"], { exitCode: 128, stderr: "git switch: invalid reference: v1 (a branch is expected; use --detach for a commit)\n" });
    const head = realGit(disk, "log", "-1", "--format=%h %s", "main~1").trim();
    await expectResult(git, ["switch", "--detach", "main~1"], { exitCode: 0, stderr: `HEAD is now at ${head}\n` });
    expect(await ok(git, ["branch"])).toBe(`* (HEAD detached at ${head.split(" ")[0]})\n  feature\n  main\n  nb\n  nb2\n  topic\n`);
    const verbose = await ok(git, ["branch", "-v"]);
    expect(verbose.split("\n")[0]).toBe(`* (HEAD detached at ${head.split(" ")[0]}) ${head}`);
    expect(verbose.split("\n")[1]).toMatch(/^ {2}feature {20}[0-9a-f]{7} feature work$/);
    await expectResult(git, ["symbolic-ref", "-q", "HEAD"], { exitCode: 1, stdout: "", stderr: "" });
    await expectResult(git, ["symbolic-ref", "HEAD"], { exitCode: 1, stderr: "git symbolic-ref: ref HEAD is not a symbolic ref\n" });
    expect(await ok(git, ["status"])).toBe(`HEAD detached at ${head.split(" ")[0]}\nnothing to commit, working tree clean\n`);
    await ok(git, ["checkout", "main"]);
    await expectResult(git, ["checkout"], { exitCode: 129, stderr: "git checkout: missing branch or commit: git checkout <branch>\n" });
    await expectResult(git, ["checkout", "no-such-branch"], { exitCode: 1 });
  });

  it("checkout -- paths, reset (paths, --hard), stash, clean", async () => {
    const disk = historyRepo();
    const { ws, git } = await workspaceCopy(disk);
    await editBoth(disk, ws);
    // checkout -- <path> restores it
    await expectResult(git, ["checkout", "--", "a.txt"], { exitCode: 0, stdout: "", stderr: "" });
    realGit(disk, "checkout", "--", "a.txt");
    expect(await ok(git, ["status", "--porcelain=v1"])).toBe(realGit(disk, "status", "--porcelain=v1"));
    await ws.fs.writeFile("/repo/sub/deep/d.txt", "edited\n");
    await expectResult(git, ["checkout", "d.txt"], { exitCode: 0, stdout: "", stderr: "Updated 1 path from the index\n" }, "/repo/sub/deep");
    expect(await ok(git, ["status", "--porcelain=v1"])).toBe(realGit(disk, "status", "--porcelain=v1"));
    // add then reset <path> unstages
    await ok(git, ["add", "b/b.txt", "u.txt"]);
    await ok(git, ["reset", "u.txt"]);
    realGit(disk, "add", "b/b.txt", "u.txt");
    realGit(disk, "reset", "-q", "u.txt");
    expect(await ok(git, ["status", "--porcelain=v1"])).toBe(realGit(disk, "status", "--porcelain=v1"));
    // clean -n / -f / -d, outputs as real git
    expect(await ok(git, ["clean", "-n"])).toBe(realGit(disk, "clean", "-n"));
    expect(await ok(git, ["clean", "-nd"])).toBe(realGit(disk, "clean", "-nd"));
    expect(await ok(git, ["clean", "-n"], "/repo/sub")).toBe(realGit(`${disk}/sub`, "clean", "-n"));
    await expectResult(git, ["clean", "-f"], { exitCode: 1, stdout: "", stderr: "git clean: would also remove 1 untracked path(s) outside sub/ (e.g. 'u.txt'); run git clean from the repository root\n" }, "/repo/sub");
    expect(await ok(git, ["clean", "-f", "-d"])).toBe(realGit(disk, "clean", "-f", "-d"));
    expect(await ok(git, ["status", "--porcelain=v1"])).toBe(realGit(disk, "status", "--porcelain=v1"));
    // stash push / list / pop
    const stashed = await ok(git, ["stash"]);
    realGit(disk, "stash", "-q");
    expect(stashed).toBe(`Saved working directory and index state WIP on main: ${realGit(disk, "log", "-1", "--format=%h %s").trim()}\n`);
    expect(await ok(git, ["status", "--porcelain=v1"])).toBe(realGit(disk, "status", "--porcelain=v1"));
    expect(await ok(git, ["stash"])).toBe("No local changes to save\n");
    await ok(git, ["stash", "pop"]);
    realGit(disk, "stash", "pop", "-q");
    expect(await ok(git, ["status", "--porcelain=v1"])).toBe(realGit(disk, "status", "--porcelain=v1"));
    expect(await ok(git, ["stash", "push", "-m", "named"])).toBe("Saved working directory and index state On main: named\n");
    realGit(disk, "stash", "push", "-q", "-m", "named");
    expect(await ok(git, ["stash", "list"])).toBe(realGit(disk, "stash", "list"));
    expect(await ok(git, ["stash", "pop", "stash@{0}"])).toBe("Dropped stash@{0}\n");
    realGit(disk, "stash", "pop", "-q");
    expect(await ok(git, ["status", "--porcelain=v1"])).toBe(realGit(disk, "status", "--porcelain=v1"));
    await expectResult(git, ["stash", "pop"], { exitCode: 1, stderr: "git stash: No stash entries found.\n" });
    await expectResult(git, ["stash", "drop"], { exitCode: 129, stderr: "git stash: unknown subcommand 'drop'\n" });
    // reset --hard
    const head = realGit(disk, "log", "-1", "--format=%h %s").trim();
    expect(await ok(git, ["reset", "--hard"])).toBe(`HEAD is now at ${head}\n`);
    expect(realGit(disk, "reset", "--hard")).toBe(`HEAD is now at ${head}\n`);
    expect(await ok(git, ["status", "--porcelain=v1"])).toBe(realGit(disk, "status", "--porcelain=v1"));
    expect(await ok(git, ["reset", "--hard", "HEAD~1"])).toBe(realGit(disk, "reset", "--hard", "HEAD~1"));
    expect(await ok(git, ["log", "--oneline"])).toBe(realGit(disk, "log", "--oneline"));
  });

  it("merge: fast-forward, already up to date, a merge commit identical to real git's, a conflict", async () => {
    const disk = historyRepo();
    const { ws, git } = await workspaceCopy(disk);
    const copy = diskCopy(disk);
    // fast-forward: main~1 → main
    await ok(git, ["checkout", "-b", "ff", "main~1"]);
    realGit(copy, "checkout", "-q", "-b", "ff", "main~1");
    const main = realGit(disk, "rev-parse", "--short", "main").trim();
    await expectResult(git, ["merge", "--ff-only", "main"], { exitCode: 0, stdout: `Fast-forward to ${main}\n` });
    await expectResult(git, ["merge", "main"], { exitCode: 0, stdout: "Already up to date.\n" });
    // a true merge
    await ok(git, ["checkout", "main"]);
    await expectResult(git, ["merge", "--ff-only", "feature"], { exitCode: 1 });
    const merged = await ok(git, ["merge", "--no-ff", "-m", "Merge feature", "feature"]);
    realGit(disk, "merge", "-q", "--no-ff", "-m", "Merge feature", "feature");
    expect(merged).toBe(`Merge commit ${realGit(disk, "rev-parse", "--short", "HEAD").trim()}\n`);
    expect(await ok(git, ["log", "-1", "--format=%H %P %s"])).toBe(realGit(disk, "log", "-1", "--format=%H %P %s"));
    expect(await ok(git, ["log", "-1"])).toBe(realGit(disk, "log", "-1", "--date=iso"));
    expect(await ok(git, ["show"])).toBe(realGit(disk, "show", "--date=iso"));
    // a conflict: exit 1, nothing changed
    await ok(git, ["checkout", "-b", "clash", "main~2"]);
    await ws.fs.writeFile("/repo/a.txt", "clashing line\n");
    await ok(git, ["commit", "-am", "clash"]);
    await ok(git, ["checkout", "main"]);
    const before = await ok(git, ["rev-parse", "HEAD"]);
    await expectResult(git, ["merge", "clash"], { exitCode: 1, stdout: "", stderr: "git merge: merge conflict in a.txt\n" });
    expect(await ok(git, ["rev-parse", "HEAD"])).toBe(before);
    expect(await ok(git, ["status", "--porcelain"])).toBe("");
    expect(await ws.fs.readFile("/repo/a.txt", "utf8")).toBe("alpha 2\nmore\n");
    await expectResult(git, ["merge"], { exitCode: 129, stderr: "git merge: missing commit to merge: git merge <commit>\n" });
    await expectResult(git, ["merge", "--ff-only", "--no-ff", "x"], { exitCode: 129, stderr: "git merge: --ff-only and --no-ff cannot be used together\n" });
  });

  it("config, update-ref, remote, cat-file and hash-object usage", async () => {
    const disk = historyRepo();
    const { git } = await workspaceCopy(disk);
    await expectResult(git, ["config", "user.name", "Cli User"], { exitCode: 0, stdout: "" });
    await expectResult(git, ["config", "user.name"], { exitCode: 0, stdout: "Cli User\n" });
    await expectResult(git, ["config", "--get", "user.name"], { exitCode: 0, stdout: "Cli User\n" });
    await expectResult(git, ["config", "no.such"], { exitCode: 1, stdout: "", stderr: "" });
    await ok(git, ["config", "--add", "multi.v", "one"]);
    await ok(git, ["config", "--add", "multi.v", "two"]);
    await expectResult(git, ["config", "--get-all", "multi.v"], { exitCode: 0, stdout: "one\ntwo\n" });
    await expectResult(git, ["config", "multi.v"], { exitCode: 0, stdout: "two\n" });
    await ok(git, ["config", "--unset", "user.name"]);
    await expectResult(git, ["config", "user.name"], { exitCode: 1, stdout: "" });
    await expectResult(git, ["config", "--unset", "user.name"], { exitCode: 1, stdout: "", stderr: "" });
    await expectResult(git, ["config"], { exitCode: 129, stderr: "git config: missing key: git config <key> [<value>]\n" });
    await expectResult(git, ["config", "--global", "user.name", "x"], { exitCode: 1, stderr: "git config: only the repository's .git/config is available in the Workspace (no --global or --system)\n" });
    // update-ref
    const prev = realGit(disk, "rev-parse", "HEAD~1").trim();
    await ok(git, ["update-ref", "refs/heads/pointer", prev]);
    expect(await ok(git, ["rev-parse", "pointer"])).toBe(`${prev}\n`);
    await ok(git, ["update-ref", "--force", "refs/heads/pointer", "HEAD"]);
    expect(await ok(git, ["rev-parse", "pointer"])).toBe(realGit(disk, "rev-parse", "HEAD"));
    await expectResult(git, ["update-ref", "refs/heads/x"], { exitCode: 129, stderr: "git update-ref: missing new value: git update-ref <ref> <oid>\n" });
    // remote
    await expectResult(git, ["remote", "add", "origin", "https://example.com/r.git"], { exitCode: 0 });
    await expectResult(git, ["remote", "add", "up", "file:///srv/r.git"], { exitCode: 0 });
    await expectResult(git, ["remote"], { exitCode: 0, stdout: "origin\nup\n" });
    await expectResult(git, ["remote", "-v"], {
      exitCode: 0,
      stdout: "origin\thttps://example.com/r.git (fetch)\norigin\thttps://example.com/r.git (push)\nup\tfile:///srv/r.git (fetch)\nup\tfile:///srv/r.git (push)\n",
    });
    await expectResult(git, ["remote", "get-url", "origin"], { exitCode: 0, stdout: "https://example.com/r.git\n" });
    await expectResult(git, ["remote", "rm", "up"], { exitCode: 0 });
    await expectResult(git, ["remote", "remove", "up"], { exitCode: 1, stderr: "git remote: No such remote: 'up'\n" });
    await expectResult(git, ["remote", "add", "s", "git@github.com:a/b.git"], {
      exitCode: 1,
      stderr: "git remote: unsupported transport 'git@github.com:a/b.git' (only https://, http:// and file:// URLs are supported)\n",
    });
    await expectResult(git, ["remote", "add", "s", "ssh://host/x.git"], {
      exitCode: 1,
      stderr: "git remote: unsupported transport 'ssh://host/x.git' (only https://, http:// and file:// URLs are supported)\n",
    });
    await expectResult(git, ["remote", "rename", "a", "b"], { exitCode: 129, stderr: "git remote: unknown subcommand 'rename'\n" });
    // cat-file / hash-object usage
    await expectResult(git, ["cat-file", "HEAD"], { exitCode: 129, stderr: "git cat-file: exactly one of -p, -t, -s, -e is required\n" });
    await expectResult(git, ["cat-file", "-e", "HEAD:nope"], { exitCode: 128, stdout: "", stderr: "git cat-file: path 'nope' does not exist in 'HEAD'\n" }); // real git: fatal (1 before run 25)
    await expectResult(git, ["cat-file", "-e", "0123456789abcdef0123456789abcdef01234567"], { exitCode: 1, stdout: "", stderr: "" });
    await expectResult(git, ["cat-file", "-p", "HEAD:nope"], { exitCode: 128, stdout: "", stderr: "git cat-file: path 'nope' does not exist in 'HEAD'\n" });
    await expectResult(git, ["hash-object", "a.txt"], { exitCode: 129, stderr: "git hash-object: unexpected argument 'a.txt'\n" });
    await expectResult(git, ["hash-object"], { exitCode: 129, stderr: "git hash-object: --stdin is required (files are hashed from standard input)\n" });
  });
});

describe("the spec 04 §2.5 table: argv, exit codes and messages", () => {
  it("global: help, version, unknown subcommands, -C", async () => {
    const { git } = bareWorkspace();
    const help = await run(git, [], "/");
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toMatch(/^usage: git \[-C <path>\] <command> \[<args>\]\n/);
    for (const sub of ["clone", "init", "status", "add", "rm", "commit", "log", "show", "rev-parse", "symbolic-ref", "ls-files", "ls-tree", "branch", "tag", "checkout", "switch", "fetch", "pull", "merge", "push", "remote", "hash-object", "cat-file", "update-ref", "config", "stash", "reset", "clean"]) {
      expect(help.stdout).toContain(`   ${sub}\n`);
    }
    await expectResult(git, ["help"], { exitCode: 0, stdout: help.stdout }, "/");
    await expectResult(git, ["help", "commit"], { exitCode: 0, stdout: 'usage: git commit [-a] [--amend [--no-edit]] [--author "Name <email>"] [--allow-empty] -m <msg>\n' }, "/");
    await expectResult(git, ["help", "frob"], { exitCode: 1, stdout: "", stderr: "git help: 'frob' is not a supported workspace git command\n" }, "/");
    await expectResult(git, ["version"], { exitCode: 0, stdout: "git version 0.0.0 (agent-computer)\n", stderr: "" }, "/");
    await expectResult(git, ["--version"], { exitCode: 0, stdout: "git version 0.0.0 (agent-computer)\n" }, "/");
    await expectResult(git, ["frob"], { exitCode: 1, stdout: "", stderr: "git: 'frob' is not a supported workspace git command\n" }, "/");
    await expectResult(git, ["-C"], { exitCode: 129, stderr: "git: option '-C' requires a value\n" }, "/");
    await expectResult(git, ["-C", "a", "-C", "b", "status"], { exitCode: 129, stderr: "git: option '-C' given more than once\n" }, "/");
    await expectResult(git, ["status", "-h"], { exitCode: 0, stdout: "usage: git status [-s | --porcelain[=v1|v2]] [-b] [-u<mode>] [--] [<pathspec>...]\n" }, "/");
  });

  it("init, then repository errors exit 128", async () => {
    const { git } = bareWorkspace();
    await expectResult(git, ["status"], { exitCode: 128, stdout: "", stderr: "git status: not a git repository: /\n" }, "/");
    await expectResult(git, ["log"], { exitCode: 128, stderr: "git log: not a git repository: /work\n" }, "/work");
    await expectResult(git, ["init", "-b", "trunk", "proj"], { exitCode: 0, stdout: "Initialized empty Git repository in /work/proj/.git/\n", stderr: "" }, "/work");
    await expectResult(git, ["-C", "/work/proj", "init"], { exitCode: 128, stdout: "", stderr: "git init: git repository already exists at /work/proj\n" }, "/");
    await expectResult(git, ["init", "--bare", "/srv/b.git"], { exitCode: 0, stdout: "Initialized empty Git repository in /srv/b.git/\n" }, "/");
    await expectResult(git, ["init", "-q", "/q"], { exitCode: 0, stdout: "" }, "/");
    await expectResult(git, ["init", "a", "b"], { exitCode: 129, stderr: "git init: unexpected argument 'b'\n" }, "/");
    await expectResult(git, ["symbolic-ref", "--short", "HEAD"], { exitCode: 0, stdout: "trunk\n" }, "/work/proj");
    await expectResult(git, ["status"], { exitCode: 0, stdout: 'On branch trunk\n\nNo commits yet\n\nnothing to commit (create/copy files and use "git add" to track)\n' }, "/work/proj");
    // real git says "fatal: …" (128); spec 04 §2.5 keeps 128 for the four error classes, so this is 1
    await expectResult(git, ["log"], { exitCode: 128, stderr: "git log: your current branch 'trunk' does not have any commits yet\n" }, "/work/proj");
  });

  it("add / rm / commit: usage 129, pathspec 128, outside 1, identity 128", async () => {
    const { ws, git } = bareWorkspace();
    await ok(git, ["init", "/repo"], "/");
    await ws.fs.mkdir("/repo/dir");
    await ws.fs.writeFile("/repo/dir/f.txt", "f\n");
    await ws.fs.writeFile("/outside.txt", "o\n");
    await expectResult(git, ["add"], { exitCode: 129, stderr: "git add: nothing specified, nothing added (maybe you wanted to say 'git add .'?)\n" });
    await expectResult(git, ["add", "--bogus", "x"], { exitCode: 129, stderr: "git add: unknown option '--bogus'\n" });
    await expectResult(git, ["add", "nope.txt"], { exitCode: 128, stderr: "git add: pathspec 'nope.txt' did not match any files\n" });
    await expectResult(git, ["add", "../outside.txt"], { exitCode: 1, stderr: "git add: path '../outside.txt' is outside the repository at /repo\n" });
    await expectResult(git, ["add", "/outside.txt"], { exitCode: 1, stderr: "git add: path '/outside.txt' is outside the repository at /repo\n" });
    await expectResult(git, ["add", "f.txt"], { exitCode: 0, stdout: "", stderr: "" }, "/repo/dir");
    await expectResult(git, ["status", "--porcelain=v1"], { exitCode: 0, stdout: "A  dir/f.txt\n" });
    await expectResult(git, ["status", "-s"], { exitCode: 0, stdout: "A  f.txt\n" }, "/repo/dir");
    await expectResult(git, ["commit"], { exitCode: 129, stderr: "git commit: option '-m' is required (there is no editor in the Workspace)\n" });
    await expectResult(git, ["commit", "-m"], { exitCode: 129, stderr: "git commit: option '-m' requires a value\n" });
    await expectResult(git, ["commit", "-x"], { exitCode: 129, stderr: "git commit: unknown option '-x'\n" });
    await expectResult(git, ["commit", "-m", "x", "--author", "nobody"], { exitCode: 129, stderr: "git commit: --author 'nobody' is not 'Name <email>'\n" });
    await expectResult(git, ["commit", "-m", "x", "extra"], { exitCode: 129, stderr: "git commit: unexpected argument 'extra'\n" });
    // no identity anywhere: 128 with the MissingIdentityError message
    const noId = await run(git, ["commit", "-m", "first"], "/repo", { GIT_AUTHOR_NAME: "", GIT_AUTHOR_EMAIL: "", GIT_COMMITTER_NAME: "", GIT_COMMITTER_EMAIL: "" });
    expect(noId.exitCode).toBe(128);
    expect(noId.stderr).toMatch(/^git commit: author identity unknown/);
    // identity from env; the commit prints [oid7] subject
    const made = await run(git, ["commit", "-m", "first\n\nbody"]);
    expect(made.exitCode).toBe(0);
    expect(made.stdout).toMatch(/^\[[0-9a-f]{7}\] first\n$/);
    await expectResult(git, ["rm", "--cached", "f.txt"], { exitCode: 0, stdout: "rm 'dir/f.txt'\n" }, "/repo/dir");
    await expectResult(git, ["rm"], { exitCode: 129, stderr: "git rm: missing pathspec: git rm [--cached] <path>...\n" });
    await ok(git, ["add", "dir/f.txt"]);
    // As git (issue 20, run 32, fixer GB): the file goes from the working tree too, and its emptied directory; before,
    // `note: removed from the index only; the working-tree files stay …` and `?? dir/` after.
    await expectResult(git, ["rm", "dir/f.txt"], { exitCode: 0, stdout: "rm 'dir/f.txt'\n", stderr: "" });
    await expectResult(git, ["status", "--porcelain=v1"], { exitCode: 0, stdout: "D  dir/f.txt\n" });
  });

  it("log / show / rev-parse / ls-tree / reset / clean usage", async () => {
    const disk = historyRepo();
    const { git } = await workspaceCopy(disk);
    await expectResult(git, ["log", "-n"], { exitCode: 129, stderr: "git log: option '-n' requires a value\n" });
    await expectResult(git, ["log", "-n", "x"], { exitCode: 129, stderr: "git log: -n must be an integer ≥ 0, got 'x'\n" });
    await expectResult(git, ["log", "a", "b"], { exitCode: 129, stderr: "git log: unexpected argument 'b'\n" });
    await expectResult(git, ["log", "--pretty=fuller"], { exitCode: 129, stderr: "git log: invalid --pretty format: fuller\n" });
    await expectResult(git, ["log", "--date=relative"], { exitCode: 129 });
    await expectResult(git, ["log", "no-such-ref"], { exitCode: 128, stdout: "", stderr: "git log: unknown revision 'no-such-ref'\n" });
    await expectResult(git, ["show", "a", "b"], { exitCode: 129, stderr: "git show: unexpected argument 'b'\n" });
    await expectResult(git, ["log", "--", "a.txt"], { exitCode: 129, stderr: "git log: unexpected argument 'a.txt'\n" });
    await expectResult(git, ["log", "--oneline", "--"], { exitCode: 0, stdout: realGit(disk, "log", "--oneline") });
    await expectResult(git, ["rev-parse", "no-such-ref"], { exitCode: 128, stdout: "", stderr: "git rev-parse: unknown revision 'no-such-ref'\n" });
    await expectResult(git, ["rev-parse", "--verify", "-q", "no-such-ref"], { exitCode: 1, stdout: "", stderr: "" });
    await expectResult(git, ["ls-tree"], { exitCode: 129, stderr: "git ls-tree: missing tree-ish: git ls-tree <tree-ish> [<path>]\n" });
    await expectResult(git, ["reset", "--soft", "HEAD~1"], { exitCode: 129, stderr: "git reset: --soft is not supported (only the default and --hard)\n" });
    await expectResult(git, ["reset", "--mixed"], { exitCode: 129, stderr: "git reset: --mixed is not supported (plain `git reset [<commit>]` is the default)\n" });
    await expectResult(git, ["reset", "--hard", "HEAD", "--", "a.txt"], { exitCode: 129, stderr: "git reset: cannot do a hard reset with paths\n" });
    await expectResult(git, ["clean"], { exitCode: 129, stderr: "git clean: refusing to clean without -f (remove) or -n (dry run)\n" });
    await expectResult(git, ["clean", "-d"], { exitCode: 129 });
    await expectResult(git, ["clean", "-fx"], { exitCode: 129, stderr: "git clean: unknown option '-x'\n" });
    await expectResult(git, ["status", "--porcelain=v3"], { exitCode: 129, stderr: "git status: unsupported porcelain version 'v3'\n" });
    await expectResult(git, ["status", "--short=1"], { exitCode: 129, stderr: "git status: option '--short' takes no value\n" });
    await expectResult(git, ["diff", "--cached", "HEAD~1", "HEAD"], { exitCode: 129, stderr: "git diff: --cached compares one <ref> with the index: unexpected argument 'HEAD'\n" });
  });

  it("clone / fetch / pull / push: transports, --depth, directory names", async () => {
    const disk = historyRepo();
    const { git } = await workspaceCopy(disk);
    const unsupported = (sub: string, url: string) => `git ${sub}: unsupported transport '${url}' (only https://, http:// and file:// URLs are supported)\n`;
    for (const url of ["git@github.com:a/b.git", "ssh://host/x.git", "git://host/x.git", "/local/path", "relative/dir"]) {
      await expectResult(git, ["clone", url], { exitCode: 1, stdout: "", stderr: unsupported("clone", url) }, "/");
    }
    for (const sub of ["fetch", "pull", "push"]) {
      await expectResult(git, [sub, "ssh://host/x.git"], { exitCode: 1, stderr: unsupported(sub, "ssh://host/x.git") });
      await expectResult(git, [sub, "git@github.com:a/b.git"], { exitCode: 1, stderr: unsupported(sub, "git@github.com:a/b.git") });
      await expectResult(git, [sub, "origin", "main", "extra"], { exitCode: 129, stderr: `git ${sub}: unexpected argument 'extra'\n` });
    }
    await expectResult(git, ["clone"], { exitCode: 129, stderr: "git clone: missing repository URL: git clone <url> [<dir>]\n" }, "/");
    await expectResult(git, ["clone", "https://example.com"], { exitCode: 129, stderr: "git clone: cannot derive a directory name from 'https://example.com'; give one: git clone <url> <dir>\n" }, "/");
    await expectResult(git, ["clone", "https://example.com/.git"], { exitCode: 129 }, "/");
    await expectResult(git, ["clone", "--depth", "-1", "https://example.com/r.git"], { exitCode: 129, stderr: "git clone: --depth must be an integer ≥ 0, got '-1'\n" }, "/");
    await expectResult(git, ["clone", "--depth"], { exitCode: 129, stderr: "git clone: option '--depth' requires a value\n" }, "/");
    await expectResult(git, ["fetch", "--depth", "0"], { exitCode: 129, stderr: "git fetch: --depth must be an integer ≥ 1, got '0'\n" });
    await expectResult(git, ["pull", "--rebase"], { exitCode: 1, stderr: "git pull: --rebase is not supported; pull merges\n" });
    await expectResult(git, ["push", "--bogus"], { exitCode: 129, stderr: "git push: unknown option '--bogus'\n" });
    // a clone from a closed loopback port fails with exit 1 and says where it was cloning to
    const failed = await run(git, ["clone", "http://127.0.0.1:9/r.git"], "/");
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr).toMatch(/^Cloning into 'r'\.\.\.\ngit clone: /);
  });

  it("hash-object --stdin works outside a repository; -w needs one", async () => {
    const { git } = bareWorkspace();
    const disk = realRepo(() => {});
    const expected = execGit(disk, ["hash-object", "--stdin"], "abc\n");
    await expectResult(git, ["hash-object", "--stdin"], { exitCode: 0, stdout: expected, stderr: "" }, "/");
    await expectResult(git, ["hash-object", "--stdin", "-w"], { exitCode: 128, stdout: "", stderr: "git hash-object: not a git repository: /\n" }, "/");
  });

  it("never throws: bad input shapes come back as exit codes", async () => {
    const { git } = bareWorkspace();
    expect(await git.cli({ argv: "status" as never })).toEqual({ stdout: "", stderr: "git: argv must be an array of strings\n", exitCode: 129 });
    expect(await git.cli({ argv: [1 as never] })).toEqual({ stdout: "", stderr: "git: argv must be an array of strings\n", exitCode: 129 });
    expect(await git.cli({ argv: ["status"], cwd: "" })).toEqual({ stdout: "", stderr: "git: cwd must be a non-empty string\n", exitCode: 129 });
    expect((await git.cli({ argv: ["status"] })).exitCode).toBe(128);
  });
});
