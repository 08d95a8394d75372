/**
 * Issue 20, found after the sixteenth attack run (a fix helper's note): git operations given a `dir` that is a
 * symbolic link to a repository (or has one on its way) gave silently wrong results — `status` listed nothing and
 * `add` "succeeded" without staging — while the operations' queue already used the canonical path (canonicalDir).
 * Real git (`git -C link status`) works through the link.
 * Tried: `/w/repo` a repository with an untracked `a.txt`, `/w/s` → `repo` (relative) and `/w/abs` → `/w/repo`;
 * status, add, commit, log through the links.
 * Found (medium: silent wrong results): status through the link was `[]`; add through it left `a.txt` untracked.
 * Fixed: each operation runs on the canonical path of `dir` (links resolved, as the filesystem resolves them).
 */
import { afterAll, expect, it } from "vitest";
import { cleanupScratch, newWorkspace } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

it("status, add, commit and log through a link to the repository act on the repository", async () => {
  const { ws, git } = newWorkspace();
  await git.init({ dir: "/w/repo" });
  await ws.fs.writeFile("/w/repo/a.txt", "a\n");
  await ws.fs.symlink("repo", "/w/s");
  await ws.fs.symlink("/w/repo", "/w/abs");
  const untracked = [{ path: "a.txt", index: " ", worktree: "?" }];
  expect(await git.status({ dir: "/w/repo" })).toEqual(untracked);
  expect(await git.status({ dir: "/w/s" })).toEqual(untracked);
  expect(await git.status({ dir: "/w/abs" })).toEqual(untracked);
  await git.add({ dir: "/w/s", paths: ["a.txt"] });
  expect(await git.status({ dir: "/w/repo" })).toEqual([{ path: "a.txt", index: "A", worktree: " " }]);
  const { oid } = await git.commit({ dir: "/w/abs", message: "one" });
  expect((await git.log({ dir: "/w/repo" })).map((c) => c.oid)).toEqual([oid]);
  expect((await git.log({ dir: "/w/s" })).map((c) => c.oid)).toEqual([oid]);
  expect(await git.status({ dir: "/w/s" })).toEqual([]);
  // Nothing was made at the link's own path.
  expect((await ws.fs.lstat("/w/s")).isSymbolicLink).toBe(true);
  expect((await ws.fs.readdir("/w")).map((e) => e.name)).toEqual(["abs", "repo", "s"]);
});
