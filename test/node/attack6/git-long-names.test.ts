/**
 * Issue 20 sixth attack run, categories 2 and 3 in git (long names, hostile
 * names, deep trees): a file whose name is 5,000 characters (past the index
 * entry's 12-bit name-length field, 0xFFF), a name holding a newline, and a
 * file 100 directories deep, added with `add -A` and committed through the
 * Workspace's git CLI. What must hold: the index and the objects written are
 * ones the real git reads — `git fsck --strict` is clean, its `ls-files -z`
 * and `ls-tree -r` list the four names, its `ls-files` equals ours — and our status is clean after
 * the commit. Withstood.
 */
import { afterAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { cleanupScratch, committedRepo, exportDir, realGit, tempDir, workspaceCopy } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

describe("attack6: long, newline and deep names through git", () => {
  it("add -A and commit of a 5,000-character name, a newline name and a 100-deep file: the real git reads the result", { timeout: 300_000 }, async () => {
    const t = await workspaceCopy(committedRepo({ "a.txt": "a\n" }));
    const long = "n".repeat(5000);
    const deep = `${"d/".repeat(100)}deep.txt`;
    await t.ws.fs.writeFile(`${t.dir}/${long}`, "long\n");
    await t.ws.fs.writeFile(`${t.dir}/b\nc.txt`, "nl\n");
    await t.ws.fs.mkdir(`${t.dir}/${"d/".repeat(100)}`, { recursive: true });
    await t.ws.fs.writeFile(`${t.dir}/${deep}`, "deep\n");
    expect(await t.git.cli({ argv: ["add", "-A"], cwd: t.dir })).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    const commit = await t.git.cli({ argv: ["commit", "-m", "long"], cwd: t.dir });
    expect(commit.exitCode).toBe(0);
    expect(await t.git.cli({ argv: ["status", "--porcelain"], cwd: t.dir })).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    const ours = (await t.git.cli({ argv: ["ls-files"], cwd: t.dir })).stdout;
    // only .git goes to disk (a 5,000-character name does not fit a Linux file name)
    const disk = tempDir();
    await exportDir(t.ws, `${t.dir}/.git`, join(disk, ".git"));
    realGit(disk, "fsck", "--strict");
    expect(realGit(disk, "ls-files", "-z").split("\0").filter(Boolean).sort()).toEqual(["a.txt", "b\nc.txt", deep, long].sort());
    expect(realGit(disk, "ls-tree", "-r", "-z", "--name-only", "HEAD").split("\0").filter(Boolean).sort()).toEqual(["a.txt", "b\nc.txt", deep, long].sort());
    expect(ours).toBe(realGit(disk, "ls-files"));
    const entry = realGit(disk, "ls-tree", "-z", "HEAD").split("\0").find((e) => e.endsWith(`\t${long}`))!;
    expect(realGit(disk, "cat-file", "-p", entry.split(/\s/)[2]!)).toBe("long\n");
  });
});
