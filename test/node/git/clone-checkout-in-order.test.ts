/**
 * A clone's checkout (isomorphic-git's `checkout`, scripts/gen-git.mjs patch "checkout (settle)") wrote every file of
 * the tree at once — one Promise.allSettled over all of them, each holding its inflated blob — so 10 files of 12 MiB
 * held ~95 MiB together in a 128 MB Durable Object (nineteenth attack run's leads). The files are now written one
 * after another; the outcome (files, modes, index, errors collected) is the same.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { forkRepo } from "../../shared/git-remote.js";
import { cleanupScratch, newWorkspace, realGit, tempDir } from "./worktree-helpers.js";

afterAll(cleanupScratch);
const MiB = 1024 * 1024;

it("clone writes the working tree one file at a time", { timeout: 60_000 }, async () => {
  const fork = await forkRepo();
  const disk = tempDir("wsgit-big-");
  realGit(disk, "clone", "-q", fork.url, disk);
  mkdirSync(join(disk, "big"), { recursive: true });
  const n = 6;
  for (let i = 0; i < n; i++) writeFileSync(join(disk, "big", `f${i}.bin`), Buffer.alloc(2 * MiB, 0x41 + i));
  realGit(disk, "add", "-A");
  realGit(disk, "-c", "user.name=A", "-c", "user.email=a@b.c", "commit", "-q", "-m", "big files");
  realGit(disk, "push", "-q", "origin", "HEAD");
  const head = realGit(disk, "rev-parse", "HEAD").trim();

  const { ws, git } = newWorkspace();
  let open = 0;
  let most = 0;
  let written = 0;
  const fs = ws.fs as unknown as { writeFile: (path: string, ...rest: unknown[]) => Promise<void> };
  const writeFile = fs.writeFile.bind(fs);
  fs.writeFile = async (path, ...rest) => {
    const counted = path.startsWith("/repo/") && !path.startsWith("/repo/.git/");
    if (counted) (most = Math.max(most, ++open)), written++;
    try {
      return await writeFile(path, ...rest);
    } finally {
      if (counted) open--;
    }
  };
  await git.clone({ url: fork.url, dir: "/repo" });
  fs.writeFile = writeFile;
  expect(await git.revParse({ dir: "/repo", ref: "HEAD" })).toBe(head);
  for (let i = 0; i < n; i++) expect((await ws.fs.stat(`/repo/big/f${i}.bin`)).size).toBe(2 * MiB);
  expect((await git.status({ dir: "/repo" })).filter((e) => e.index !== " " || e.worktree !== " ")).toEqual([]);
  expect(written, "working-tree files written").toBeGreaterThan(n);
  expect(most, "working-tree files being written at once").toBe(1);
});
