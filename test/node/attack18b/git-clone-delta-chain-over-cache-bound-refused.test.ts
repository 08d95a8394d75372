/**
 * Issue 20, eighteenth attack run: indexing a downloaded pack (GitPackIndex.fromPack, patched by scripts/gen-git.mjs
 * in e50a01d) resolves each delta through readSlice, whose offsetCache (GIT_PACK_DELTA_CACHE_BYTES, 16 MiB) "while
 * indexing keeps every object it resolves, so a chain of deltas is resolved once per link" — but OffsetCache.set drops
 * any object larger than the bound (`if (size > this.maxBytes) return`), and fromPack's first pass keeps only objects
 * up to 8 MiB (ObjectCache of 32 MiB, a quarter each). So a delta chain on a blob over 16 MiB (legal up to
 * GIT_MAX_OBJECT_BYTES, 64 MiB) is resolved from its base again for EVERY object in it: quadratic in the chain's depth,
 * and every re-inflated base and re-applied delta is charged to GIT_MAX_INDEX_INFLATE_BYTES (512 MiB).
 * Tried: an ordinary repository made by the real git — one 17.5 MiB CSV (720,000 lines), 9 commits each rewriting
 * 500 of its lines — fetched into a fork on the loopback smart-HTTP server (pack kept as git made it: one base and a
 * linear delta chain of depth 8, ~6 MiB in all, far inside GIT_MAX_PACK_BYTES), then `workspace.git.clone({ ref:
 * "big", singleBranch: true })`. Also tried (probe): the same file with 13 commits each editing one line, real git's
 * default repack (window 10, depth 50: chains of depth 1–5, a 5.9 MiB pack) — the same ECLONEFAIL after 10.4 s.
 * Held: the refusal is clean (ECLONEFAIL, exact message, nothing kept); the objects are within every bound.
 * Found (medium: a legitimate small repository cannot be cloned at all, and the error blames the pack: "pack expands
 * too much … clone with depth: 1"): the clone fails ECLONEFAIL "pack expands too much: indexing it made more than
 * 536870912 bytes of objects" after ~10 s (3 of 3 runs), where its nine blobs are ~158 MiB; uncached, indexing charges
 * (1 + 2 + … + 9) × 17.5 MiB ≈ 787 MiB. The docs' "an ordinary pack makes a few times its size" does not hold for
 * any file over 16 MiB with history: the 6 MiB pack made > 85× its size. Time is quadratic too (each link re-inflates
 * the 17.5 MiB base).
 * Suggested fix: while indexing, always keep the object just resolved (an LRU of at least one entry whatever its
 * size, up to GIT_MAX_OBJECT_BYTES), or resolve as real git's index-pack does — each base's deltas right after the
 * base, walking the delta tree depth-first so one resolution per object; or charge GIT_MAX_INDEX_INFLATE_BYTES only
 * with the bytes a cached resolution would make (each object once) and bound the re-resolution time separately.
 * Fixed: while indexing, the offset cache (scripts/gen-git.mjs OffsetCache) keeps the last object resolved that is
 * larger than GIT_PACK_DELTA_CACHE_BYTES in one slot of its own (`large`, dropped when indexing ends), so each link of
 * a chain on a blob over 16 MiB is resolved from the link before it, once, and charged once.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { cleanupScratch, newWorkspace, realGit, realRepo } from "../git/worktree-helpers.js";
import { forkRepo, serverGit } from "../../shared/git-remote.js";

afterAll(cleanupScratch);

it("a clone of a 17.5 MiB file's 9 versions (a 6 MiB pack, one delta chain) succeeds", { timeout: 60_000 }, async () => {
  // 720,000 lines from a fixed LCG: 17.5 MiB of text; each commit rewrites 500 lines of its own block.
  const lines: string[] = [];
  let x = 1;
  const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
  for (let i = 0; i < 720_000; i++) lines.push(`${String(i).padStart(8, "0")},${next()},${["alpha", "beta", "gamma", "delta"][x & 3]}`);
  let size = 0;
  const disk = realRepo((d) => {
    for (let k = 0; k <= 8; k++) {
      if (k > 0) for (let j = 0; j < 500; j++) lines[k * 1000 + j] = `edit ${k} ${next()}`;
      const text = lines.join("\n");
      size = text.length;
      writeFileSync(join(d, "data.csv"), text);
      realGit(d, "add", "data.csv");
      realGit(d, "commit", "-q", "-m", `v${k}`);
    }
  });
  expect(size).toBeGreaterThan(17 * 1024 * 1024);
  const { name, url } = await forkRepo();
  // The server keeps the pack the fetch brings (git's delta search: one base, a chain of 8), not loose objects.
  const fetched = await serverGit(name, ["-c", "fetch.unpackLimit=1", "fetch", "-q", join(disk, ".git"), "main:refs/heads/big"]);
  expect(fetched.code).toBe(0);

  const { ws, git } = newWorkspace();
  const outcome = await git.clone({ dir: "/c", url, ref: "big", singleBranch: true }).then(
    () => "ok",
    (e: { code?: string; message?: string }) => `${e.code}: ${e.message}`,
  );
  expect(outcome).toBe("ok");
  expect((await ws.fs.stat("/c/data.csv")).size).toBe(size);
  expect((await git.log({ dir: "/c" })).length).toBe(9);
});
