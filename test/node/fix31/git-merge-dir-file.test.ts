/**
 * Issue 20, run 31 (lead, from attacker c's odd list): a merge where their side turns the directory `d/` into a
 * file while ours added `d/new.txt` failed with isomorphic-git's raw `Object <oid> … was anticipated to be a blob but
 * it is a tree` (exit 1 from the CLI) — a message that names no path and says nothing of a conflict. git 2.39.5 reports
 * `CONFLICT (file/directory)` and stops. Fixed: scripts/gen-git.mjs patches isomorphic-git's mergeTree: a path one side made a file (or link) and the other a
 * directory, neither as in the base, is a conflict — the merge's usual refusal naming the path, nothing written.
 */
import { afterAll, expect, it } from "vitest";
import { cleanupScratch, diskCopy, realGit, realGitResult, realRepo, workspaceCopy, writeTree, wsBytes, wsSnapshot } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

/** A repository whose branch `side` replaces the directory `d/` by a file `d`, while `main` then commits `ours`. */
function dirMadeFileOnSide(ours: Record<string, string>): string {
  return realRepo((d) => {
    writeTree(d, { "d/a.txt": "a\n", "top.txt": "t\n" });
    realGit(d, "add", "-A");
    realGit(d, "commit", "-q", "-m", "base");
    realGit(d, "checkout", "-q", "-b", "side");
    realGit(d, "rm", "-q", "-r", "d");
    writeTree(d, { d: "now a file\n" });
    realGit(d, "add", "-A");
    realGit(d, "commit", "-q", "-m", "d is a file");
    realGit(d, "checkout", "-q", "main");
    writeTree(d, ours);
    realGit(d, "add", "-A");
    realGit(d, "commit", "-q", "-m", "ours");
  });
}

it("a file/directory conflict in a merge is refused naming the path, nothing written", async () => {
  const disk = dirMadeFileOnSide({ "d/new.txt": "new\n" });
  const real = realGitResult(diskCopy(disk), "merge", "--no-edit", "side");
  expect(real.status).toBe(1);
  expect(real.stdout).toContain("CONFLICT (file/directory)");
  const { ws, git, dir } = await workspaceCopy(disk);
  const before = await wsSnapshot(ws, dir);
  const error = await git.merge({ dir, theirs: "side" }).then(() => undefined, (e: { code?: string; message?: string }) => ({ code: e.code, message: e.message }));
  // Was: { code: "EMERGEFAIL"?, message: "… was anticipated to be a blob but it is a tree" }
  expect(error).toEqual({ code: "EMERGEFAIL", message: "git merge failed: merge conflict in d" });
  expect(await wsSnapshot(ws, dir)).toEqual(before);
  const cli = await git.cli({ argv: ["merge", "side"], cwd: dir });
  expect({ exitCode: cli.exitCode, stderr: cli.stderr }).toEqual({ exitCode: 1, stderr: "git merge: merge conflict in d\n" }); // the CLI's wording for every merge conflict
});

it("their side making d a file merges cleanly where ours left d as in the base, as git", async () => {
  const disk = dirMadeFileOnSide({ "top.txt": "T\n" });
  const real = diskCopy(disk);
  realGit(real, "merge", "-q", "--no-edit", "side");
  const { ws, git, dir } = await workspaceCopy(disk);
  await git.merge({ dir, theirs: "side", message: "Merge branch 'side'" });
  expect(await git.revParse({ dir, ref: "HEAD^{tree}" })).toBe(realGit(real, "rev-parse", "HEAD^{tree}").trim());
  expect(new TextDecoder().decode(await wsBytes(ws, `${dir}/d`))).toBe("now a file\n");
});
