/**
 * Issue 20, seventeenth attack run: GIT_MAX_PACK_FILE_BYTES (16 MiB, src/git/limits.ts) bounds each pack file one
 * operation reads, and GIT_PACK_CACHE_BYTES (32 MiB) what the client keeps between operations — but nothing
 * bounds the sum of the packs ONE operation reads and holds: its own pack cache (src/git/operation.ts
 * operationCache) keeps every pack it read, whole, until it ends.
 * Tried: a repository made by the real git with 8 commits, each adding a 12 MiB random file and followed by
 * `git repack -d` (one pack per commit, each 12 MiB — what a clone and seven fetches give, every pack within
 * GIT_MAX_PACK_FILE_BYTES and each download within GIT_MAX_PACK_BYTES), copied into a Workspace; `git.log`
 * (walks one commit per pack) with heap + array buffers sampled (attack6 `peak`). Held: the log is right (8
 * commits, in order).
 * Found (medium; a Durable Object has 128 MB, and limits.ts chose 16 MiB per pack for it): the one `log` grows memory
 * by ~24 MiB per pack — 6 packs: 144 MiB (probe), 8 packs: 156–168 MiB — past 128 MiB (3 of 3 runs); a clean
 * `status` of the 6-pack repository grew 84 MiB. The number of packs is the only thing that grows, and ordinary
 * use (a fetch per day) makes them.
 * Suggested fix: bound what one operation holds in packs — e.g. an LRU over the operation's PackfileCache: when
 * the packs read (as counted in packFileBoundedFs) pass a documented sum (GIT_MAX_PACK_FILE_BYTES or
 * GIT_PACK_CACHE_BYTES), set the least recently used index's `pack` back to null (isomorphic-git's
 * readObjectPacked reads it again when next needed) — or refuse E<OP>FAIL naming the number of packs and the
 * way out (git repack outside the Workspace / a fresh shallow clone).
 * Fixed: an operation holds at most GIT_PACK_CACHE_BYTES (32 MiB) of the packs it read besides those a read is
 * using; past it the least recently used index's pack goes back to null (with its checksum verdict and kept
 * objects) and is read again when next needed (src/git/operation.ts holdPack/trackPack; the bundle's readSlice
 * reads a pack let go of mid-read again). isomorphic-git's FileSystem.read no longer copies each file it reads.
 * Session 33: holding 32 MiB, the log still grew 97–109 MiB on an idle machine and 133 MiB in a loaded CI run (the
 * packs let go of are garbage until V8 collects them); one operation now holds at most GIT_MAX_PACK_FILE_BYTES
 * (16 MiB) besides those being read — 61–73 MiB.
 */
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { cleanupScratch, importDir, newWorkspace, realGit, realRepo } from "../git/worktree-helpers.js";
import { peak } from "../attack6/memory.js";

afterAll(cleanupScratch);
const MiB = 1024 * 1024;

it("git log over eight 12 MiB packs (each within every bound) stays under 128 MiB of memory", { timeout: 60_000 }, async () => {
  const n = 8;
  const disk = realRepo((d) => {
    for (let i = 0; i < n; i++) {
      writeFileSync(join(d, `f${i}.bin`), randomBytes(12 * MiB));
      realGit(d, "add", "-A");
      realGit(d, "commit", "-q", "-m", `c${i}`);
      realGit(d, "repack", "-d", "-q");
    }
  });
  const { ws, git } = newWorkspace();
  await importDir(ws, disk, "/r");
  const packs = (await ws.fs.readdir("/r/.git/objects/pack")).filter((e) => e.name.endsWith(".pack"));
  expect(packs.length).toBe(n);
  for (const p of packs) expect(p.size).toBeLessThan(16 * MiB);
  const { value, grew } = await peak(() => git.log({ dir: "/r" }));
  expect(value.map((c) => c.message)).toEqual(Array.from({ length: n }, (_, i) => `c${n - 1 - i}\n`));
  expect(grew).toBeLessThan(128 * MiB);
});
