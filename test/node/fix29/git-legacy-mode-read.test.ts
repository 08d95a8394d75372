/**
 * Issue 20, run 29, fixer GM — siblings of test/node/attack29c/git-legacy-mode-100664-tree-unreadable.test.ts:
 * tree entries with non-canonical modes (git before mid-2005 and some importers wrote them) are read as git 2.39.5
 * reads them (tree-walk.c canon_mode): a regular file is 100755 with the owner-execute bit and 100644 without,
 * 120xxx is 120000, 040xxx is 040000, anything else 160000 — through ls-tree, show, diff, log -p and cat-file. A
 * mode that is not octal digits is refused naming the entry (git: "malformed mode in tree entry"), and no
 * isomorphic-git "internal error … file an issue" text reaches the user.
 */
import { execFileSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupScratch, committedRepo, realGit, realGitResult, workspaceCopy } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

/** `<mode> <name>\0<oid bytes>` for each entry, written with the real git as a tree object as is (`--literally`). */
function literalTree(disk: string, entries: [mode: string, name: string, oid: string][]): string {
  const body = Buffer.concat(entries.flatMap(([mode, name, oid]) => [Buffer.from(`${mode} ${name}\0`), Buffer.from(oid, "hex")]));
  return execFileSync("git", ["hash-object", "-t", "tree", "-w", "--stdin", "--literally"], { cwd: disk, input: body }).toString().trim();
}

function blob(disk: string, text: string): string {
  return execFileSync("git", ["hash-object", "-w", "--stdin"], { cwd: disk, input: text }).toString().trim();
}

/** main: a.txt (100644), sub/s.txt; `odd`: a child commit whose tree holds every kind of legacy mode. */
function oddRepo(): { disk: string } {
  const disk = committedRepo({ "a.txt": "a\n", "sub/s.txt": "s\n" }, "base");
  const a = realGit(disk, "rev-parse", "HEAD:a.txt").trim();
  const sub = literalTree(disk, [["100600", "s.txt", realGit(disk, "rev-parse", "HEAD:sub/s.txt").trim()]]);
  const tree = literalTree(disk, [
    ["100664", "a.txt", a],
    ["100600", "b.txt", blob(disk, "b\n")],
    ["100775", "c.sh", blob(disk, "#!/bin/sh\necho c\n")],
    ["100744", "d.sh", blob(disk, "d\n")],
    ["100000", "e.txt", blob(disk, "e\n")],
    ["0100644", "f.txt", blob(disk, "f\n")],
    ["120777", "l", blob(disk, "a.txt")],
    ["40755", "sub", sub],
  ]);
  realGit(disk, "branch", "odd", realGit(disk, "commit-tree", tree, "-p", "HEAD", "-m", "odd modes").trim());
  return { disk };
}

describe("legacy tree modes are read as git reads them", () => {
  it("ls-tree (-r, -t, --name-only), cat-file -p, show and diff (patch, --stat, --name-status) match git 2.39.5", { timeout: 60_000 }, async () => {
    const { disk } = oddRepo();
    const { git, dir } = await workspaceCopy(disk);
    const run = (...argv: string[]) => git.cli({ argv, cwd: dir });
    const same = async (...argv: string[]) => expect.soft(await run(...argv), argv.join(" ")).toEqual({ stdout: realGit(disk, ...argv), stderr: "", exitCode: 0 });

    expect(realGit(disk, "ls-tree", "-r", "odd")).toContain("100644 blob 78981922613b2afb6025042ff6bd878ac1994e85\ta.txt\n");
    await same("ls-tree", "odd");
    await same("ls-tree", "-r", "odd");
    await same("ls-tree", "-r", "-t", "odd");
    await same("ls-tree", "--name-only", "odd", "sub/");
    await same("cat-file", "-p", "odd^{tree}");
    await same("cat-file", "-p", "odd:sub");
    await same("show", "odd:b.txt");
    await same("show", "--format=%s", "odd");
    await same("show", "--stat", "--format=%s", "odd");
    await same("diff", "main", "odd");
    await same("diff", "--name-status", "odd", "main");
  });

  it("a legacy-mode tree and the canonical tree of the same files differ in oid only: diff is empty, as in git", { timeout: 60_000 }, async () => {
    const disk = committedRepo({ "a.txt": "a\n", "x.sh": { exec: "x\n" } }, "base");
    const a = realGit(disk, "rev-parse", "HEAD:a.txt").trim();
    const x = realGit(disk, "rev-parse", "HEAD:x.sh").trim();
    const tree = literalTree(disk, [["100664", "a.txt", a], ["100775", "x.sh", x]]);
    realGit(disk, "branch", "old", realGit(disk, "commit-tree", tree, "-p", "HEAD", "-m", "old").trim());
    expect(tree).not.toBe(realGit(disk, "rev-parse", "main^{tree}").trim());
    const { git, dir } = await workspaceCopy(disk);
    const run = (...argv: string[]) => git.cli({ argv, cwd: dir });
    for (const argv of [["diff", "main", "old"], ["diff", "--stat", "main", "old"], ["show", "--format=%s", "old"]]) {
      expect(await run(...argv)).toEqual({ stdout: realGit(disk, ...argv), stderr: "", exitCode: 0 });
    }
    expect(await run("diff", "main", "old")).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    // The client's own view: the entries' modes are the canonical strings.
    expect((await git.lsTree({ dir, ref: "old" })).map((e) => `${e.mode} ${e.type} ${e.path}`)).toEqual(["100644 blob a.txt", "100755 blob x.sh"]);
  });

  it("a mode of no known file type (0, 644, 140000, 160644) is a gitlink, as git's canon_mode makes it", { timeout: 60_000 }, async () => {
    const disk = committedRepo({ "a.txt": "a\n" }, "base");
    const a = realGit(disk, "rev-parse", "HEAD:a.txt").trim();
    const tree = literalTree(disk, [["0", "m", a], ["644", "n", a], ["140000", "o", a], ["160644", "p", a]]);
    const { git, dir } = await workspaceCopy(disk);
    const lsTree = realGit(disk, "ls-tree", tree);
    expect(lsTree).toBe(["m", "n", "o", "p"].map((n) => `160000 commit ${a}\t${n}\n`).join(""));
    expect(await git.cli({ argv: ["ls-tree", tree], cwd: dir })).toEqual({ stdout: lsTree, stderr: "", exitCode: 0 });
  });

  it("a mode that is not octal digits is refused naming the entry, with no isomorphic-git internal-error text (git: malformed mode)", { timeout: 60_000 }, async () => {
    const disk = committedRepo({ "a.txt": "a\n" }, "base");
    const a = realGit(disk, "rev-parse", "HEAD:a.txt").trim();
    const tree = literalTree(disk, [["10064x", "a.txt", a]]);
    realGit(disk, "branch", "bad", realGit(disk, "commit-tree", tree, "-p", "HEAD", "-m", "bad").trim());
    expect(realGitResult(disk, "ls-tree", "bad")).toMatchObject({ status: 128, stderr: "fatal: malformed mode in tree entry\n" });
    const { ws, git, dir } = await workspaceCopy(disk);
    const run = (...argv: string[]) => git.cli({ argv, cwd: dir });
    const refusal = 'tree entry "a.txt" has a malformed mode "10064x" (a git mode is octal digits), so this tree cannot be read\n';
    for (const argv of [["ls-tree", "bad"], ["checkout", "bad"], ["reset", "--hard", "bad"], ["diff", "main", "bad"]]) {
      expect(await run(...argv)).toEqual({ stdout: "", stderr: `git ${argv[0]}: ${refusal}`, exitCode: 1 });
    }
    const error = await git.lsTree({ dir, ref: "bad" }).then(() => undefined, (e: { code: string; message: string }) => e);
    expect({ code: error?.code, message: error?.message }).toEqual({ code: "ELSTREEFAIL", message: `git ls-tree failed: ${refusal.trimEnd()}` });
    // Nothing was written: still on main, clean.
    expect(await run("rev-parse", "--abbrev-ref", "HEAD")).toEqual({ stdout: "main\n", stderr: "", exitCode: 0 });
    expect(await run("status", "--porcelain=v1")).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    expect((await ws.fs.readdir(dir)).map((e) => e.name)).toEqual([".git", "a.txt"]);
  });

  it("a truncated tree object fails with isomorphic-git's own message, without its request to file an issue", { timeout: 60_000 }, async () => {
    const disk = committedRepo({ "a.txt": "a\n" }, "base");
    const tree = execFileSync("git", ["hash-object", "-t", "tree", "-w", "--stdin", "--literally"], { cwd: disk, input: "100644 a.txt" }).toString().trim();
    realGit(disk, "branch", "cut", realGit(disk, "commit-tree", tree, "-p", "HEAD", "-m", "cut").trim());
    const { git, dir } = await workspaceCopy(disk);
    expect(await git.cli({ argv: ["ls-tree", "cut"], cwd: dir })).toEqual({
      stdout: "",
      stderr: "git ls-tree: GitTree: Error parsing buffer at byte location 0: Could not find the next null character.\n",
      exitCode: 1,
    }); // Was: "git ls-tree: An internal error caused this command to fail. … please file an issue at https://github.com/isomorphic-git/…"
  });
});
