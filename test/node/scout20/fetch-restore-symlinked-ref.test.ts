/**
 * Issue 20, scout after the twentieth attack run: fetch's ref snapshot (6c9536a) keeps only regular files of at most
 * 4,096 bytes under `.git/refs`; a failed fetch puts those back (network.ts `restoreRefs`).
 * Tried: a Workspace clone of a fork of the fixture; then, on the server, a new commit on `main` and a new branch
 * `zzz`. Locally `refs/remotes/origin/main` is a symbolic link to a file `/notes/main.ref` holding the old oid (git
 * still reads such legacy symlink refs), and `refs/remotes/origin/zzz` is a directory with a nested ref inside, so
 * isomorphic-git's `updateRemoteRefs` writes `origin/main` and then fails EISDIR on `origin/zzz`: the fetch fails
 * after it has written a ref.
 * Held: the fetch fails `EFETCHFAIL`; the nested ref and the regular refs are put back.
 * Found (low — a legacy layout; 1 of 1): the write of `origin/main` goes through the link into `/notes/main.ref`
 * (new oid), and since the snapshot now skips symbolic links, nothing puts it back: after the failed fetch the ref
 * resolves to the new commit (whose objects did arrive, but the fetch reported failure and promised the refs as they
 * were). Before 6c9536a the snapshot read the link's target (`readFile` follows it) and the restore wrote it back.
 * Suggested fix: keep symbolic links to regular files in the snapshot by their target (lstat, then stat the target:
 * a regular file ≤ 4,096 bytes is read and restored as before; a link to a directory or a large file is still left
 * alone), or snapshot the link itself (readlink) and restore it as a link.
 * Fixed: the snapshot keeps a link under .git/refs to a regular file of at most 4,096 bytes by its target's content
 * (put back through the link); a link to a directory or to a larger file is still left alone.
 */
import { afterAll, expect, it } from "vitest";
import { forkRepo } from "../../shared/git-remote.js";
import { cleanupScratch, newWorkspace, realGit, rejection, tempDir } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

it("a failed fetch puts back a ref that is a symbolic link to a file", async () => {
  const fork = await forkRepo();
  const { ws, git } = newWorkspace();
  const dir = "/repo";
  await git.clone({ url: fork.url, dir });
  const origin = `${dir}/.git/refs/remotes/origin`;
  const old = await ws.fs.readFile(`${origin}/main`, "utf8");
  // The remote moves on: a new commit on main and a new branch zzz.
  const disk = tempDir("wsgit-scout20-");
  realGit(disk, "clone", "-q", fork.url, disk);
  realGit(disk, "-c", "user.name=A", "-c", "user.email=a@b.c", "commit", "-q", "--allow-empty", "-m", "next");
  realGit(disk, "push", "-q", "origin", "HEAD:main", "HEAD:refs/heads/zzz");
  // origin/main a symbolic link to a file; origin/zzz a directory (a nested ref inside), so the fetch fails after writing main.
  await ws.fs.mkdir("/notes", { recursive: true });
  await ws.fs.writeFile("/notes/main.ref", old);
  await ws.fs.rm(`${origin}/main`);
  await ws.fs.symlink("/notes/main.ref", `${origin}/main`);
  await ws.fs.mkdir(`${origin}/zzz`, { recursive: true });
  await ws.fs.writeFile(`${origin}/zzz/nested`, old);
  expect(await rejection(git.fetch({ dir }))).toMatchObject({ name: "GitError", code: "EFETCHFAIL" });
  // Held: the nested ref is as it was.
  expect(await ws.fs.readFile(`${origin}/zzz/nested`, "utf8")).toBe(old);
  expect(await ws.fs.readlink(`${origin}/main`)).toBe("/notes/main.ref");
  // Today: the new oid, written through the link and never put back.
  expect(await ws.fs.readFile("/notes/main.ref", "utf8")).toBe(old);
});
