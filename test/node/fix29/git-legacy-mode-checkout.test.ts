/**
 * Issue 20, run 29, fixer GM — siblings of test/node/attack29c/git-legacy-mode-100664-tree-unreadable.test.ts on
 * the writing side: checkout, reset --hard and merge of a tree whose entries hold legacy modes (100664, 100600,
 * 100775, 100744, 120777, 40755) leave the files git 2.39.5 leaves (100775/100744 executable, 120777 a link), the
 * index holds the canonical modes, status is clean, and a commit or merge made afterwards writes the canonical tree
 * — the same tree oid git writes (git never writes 100664 back).
 */
import { execFileSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupScratch, committedRepo, diskCopy, diskSnapshot, exportDir, realGit, workspaceCopy, wsSnapshot } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

function literalTree(disk: string, entries: [mode: string, name: string, oid: string][]): string {
  const body = Buffer.concat(entries.flatMap(([mode, name, oid]) => [Buffer.from(`${mode} ${name}\0`), Buffer.from(oid, "hex")]));
  return execFileSync("git", ["hash-object", "-t", "tree", "-w", "--stdin", "--literally"], { cwd: disk, input: body }).toString().trim();
}

function blob(disk: string, text: string): string {
  return execFileSync("git", ["hash-object", "-w", "--stdin"], { cwd: disk, input: text }).toString().trim();
}

/** main: a.txt, sub/s.txt; `old`: a child of main whose tree (and subtree) hold legacy modes; `side`: main + z.txt. */
function legacyRepo(): string {
  const disk = committedRepo({ "a.txt": "a\n", "sub/s.txt": "s\n" }, "base");
  const sub = literalTree(disk, [
    ["100600", "s.txt", realGit(disk, "rev-parse", "HEAD:sub/s.txt").trim()],
    ["100744", "t.sh", blob(disk, "t\n")],
  ]);
  const tree = literalTree(disk, [
    ["100664", "a.txt", realGit(disk, "rev-parse", "HEAD:a.txt").trim()],
    ["100664", "b.txt", blob(disk, "b\n")],
    ["100775", "c.sh", blob(disk, "#!/bin/sh\necho c\n")],
    ["120777", "l", blob(disk, "a.txt")],
    ["40755", "sub", sub],
  ]);
  realGit(disk, "branch", "old", realGit(disk, "commit-tree", tree, "-p", "HEAD", "-m", "old modes").trim());
  realGit(disk, "checkout", "-q", "-b", "side");
  execFileSync("sh", ["-c", "echo z > z.txt"], { cwd: disk });
  realGit(disk, "add", "z.txt");
  realGit(disk, "commit", "-q", "-m", "side");
  realGit(disk, "checkout", "-q", "main");
  return disk;
}

describe("checking out a tree with legacy modes, and writing back", () => {
  it("checkout: the files, the index and a later commit's tree are git 2.39.5's", { timeout: 60_000 }, async () => {
    const disk = legacyRepo();
    const { ws, git, dir } = await workspaceCopy(disk);
    const run = (...argv: string[]) => git.cli({ argv, cwd: dir });
    const real = diskCopy(disk);
    realGit(real, "checkout", "-q", "old");

    expect(await run("checkout", "-q", "old")).toEqual({ stdout: "", stderr: "", exitCode: 0 }); // Was: exit 1, "Unexpected GitTree entry mode: 100664"
    expect(await wsSnapshot(ws, dir)).toEqual(diskSnapshot(real));
    expect((await ws.fs.stat(`${dir}/c.sh`)).mode & 0o777).toBe(0o755);
    expect((await ws.fs.stat(`${dir}/sub/t.sh`)).mode & 0o777).toBe(0o755);
    expect((await ws.fs.stat(`${dir}/b.txt`)).mode & 0o777).toBe(0o644);
    expect(await ws.fs.readlink(`${dir}/l`)).toBe("a.txt");
    expect(await run("status", "--porcelain=v1")).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    // The index holds the canonical modes (git's `ls-files -s` of an export).
    expect(realGit(await exportDir(ws, dir), "ls-files", "-s")).toBe(realGit(real, "ls-files", "-s"));

    // A commit of that state writes the canonical tree, as git does (not the legacy tree's oid).
    expect((await run("commit", "-q", "--allow-empty", "-m", "again")).exitCode).toBe(0);
    realGit(real, "commit", "-q", "--allow-empty", "-m", "again");
    const tree = realGit(real, "rev-parse", "HEAD^{tree}");
    expect(tree).not.toBe(realGit(real, "rev-parse", "old~1^{tree}"));
    expect(await run("rev-parse", "HEAD^{tree}")).toEqual({ stdout: tree, stderr: "", exitCode: 0 });
    expect(await run("cat-file", "-p", "HEAD^{tree}")).toEqual({ stdout: realGit(real, "cat-file", "-p", "HEAD^{tree}"), stderr: "", exitCode: 0 });
    const exported = await exportDir(ws, dir);
    expect(realGit(exported, "cat-file", "tree", "HEAD^{tree}")).toBe(realGit(real, "cat-file", "tree", "HEAD^{tree}"));
    expect(realGit(exported, "cat-file", "tree", "HEAD:sub")).not.toContain("100600");
    realGit(exported, "fsck", "--no-dangling");
    expect(realGit(exported, "status", "--porcelain=v1")).toBe("");
  });

  it("reset --hard to the legacy commit, then back to main", { timeout: 60_000 }, async () => {
    const disk = legacyRepo();
    const { ws, git, dir } = await workspaceCopy(disk);
    const run = (...argv: string[]) => git.cli({ argv, cwd: dir });
    const real = diskCopy(disk);
    realGit(real, "reset", "-q", "--hard", "old");
    expect(await run("reset", "-q", "--hard", "old")).toEqual({ stdout: "", stderr: "", exitCode: 0 }); // Was: exit 1, the internal error
    expect(await wsSnapshot(ws, dir)).toEqual(diskSnapshot(real));
    expect(await run("status", "--porcelain=v1")).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    expect(await run("diff", "HEAD")).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    realGit(real, "reset", "-q", "--hard", "main");
    expect(await run("reset", "-q", "--hard", "main")).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    expect(await wsSnapshot(ws, dir)).toEqual(diskSnapshot(real));
  });

  it("merge of the legacy commit into another branch writes git's canonical merge tree", { timeout: 60_000 }, async () => {
    const disk = legacyRepo();
    const { ws, git, dir } = await workspaceCopy(disk);
    const run = (...argv: string[]) => git.cli({ argv, cwd: dir });
    const real = diskCopy(disk);
    realGit(real, "checkout", "-q", "side");
    realGit(real, "merge", "-q", "-m", "merge old", "old");
    expect((await run("checkout", "-q", "side")).exitCode).toBe(0);
    expect(await run("merge", "-q", "-m", "merge old", "old")).toMatchObject({ exitCode: 0 }); // Was: exit 1, the internal error
    expect(await wsSnapshot(ws, dir)).toEqual(diskSnapshot(real));
    expect(await run("rev-parse", "HEAD^{tree}")).toEqual({ stdout: realGit(real, "rev-parse", "HEAD^{tree}"), stderr: "", exitCode: 0 });
    expect(await run("status", "--porcelain=v1")).toEqual({ stdout: "", stderr: "", exitCode: 0 });
  });
});
