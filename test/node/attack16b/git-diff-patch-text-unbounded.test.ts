/**
 * Issue 20, sixteenth attack run: the patch text of a git diff is built whole, in memory, with no bound —
 * GIT_MAX_OBJECT_BYTES bounds each file (64 MiB) and GIT_DIFF_MAX_EDIT_LENGTH the search (the ninth run), but
 * neither bounds what the diff prints, summed over the files.
 * Tried: a repository with one commit, then a commit adding three text files of 16 MiB each (64-byte lines;
 * each a quarter of GIT_MAX_OBJECT_BYTES); `workspace.git.cli({ argv: ["diff", "HEAD~1", "HEAD"] })` — what the
 * shell's `git diff` and ws:git's `cli` run on the host before clipping the answer — with heap + array buffers
 * sampled (attack6 `peak`). Also tried: `show` with several objects and `log -p` (Held: refused as usage, 129).
 * Found (medium; a Durable Object has 128 MB; docs/git.md "Files up to the limit work (a 50 MiB file adds,
 * commits and checks out…)"): the diff's stdout is 49 Mi characters and the call grows memory by 212–267 MiB
 * (3 of 3 runs) — 4–5 bytes per character of patch — before the shell (maxOutputBytes, 16 MiB) or the RPC
 * clip (clipGitResultForRpc) cut the answer to a fraction of it.
 * Suggested fix: bound the patch text as it is built (src/git/ops/diff.ts; CliContext.out): past a documented
 * GIT_DIFF_MAX_PATCH_BYTES (or the caller's output budget, passed down) print each further file as
 * "diff too large: <path> (N lines changed)" — or stop with a line saying the output was cut — so the host
 * never holds more than the bound.
 */
import { afterAll, expect, it } from "vitest";
import { cleanupScratch, newWorkspace } from "../git/worktree-helpers.js";
import { peak } from "../attack6/memory.js";

afterAll(cleanupScratch);

const MiB = 1024 * 1024;

it.fails("git diff of three added 16 MiB files stays under 128 MiB of memory", { timeout: 60_000 }, async () => {
  const { ws, git } = newWorkspace();
  await git.init({ dir: "/r" });
  await ws.fs.writeFile("/r/a.txt", "a\n");
  await git.add({ dir: "/r", paths: ["a.txt"] });
  await git.commit({ dir: "/r", message: "one" });
  const body = `${"x".repeat(63)}\n`.repeat((16 * MiB) / 64);
  for (let i = 0; i < 3; i++) await ws.fs.writeFile(`/r/f${i}.txt`, body);
  await git.add({ dir: "/r", paths: ["f0.txt", "f1.txt", "f2.txt"] });
  await git.commit({ dir: "/r", message: "big" });
  const { value, grew } = await peak(() => git.cli({ argv: ["diff", "HEAD~1", "HEAD"], cwd: "/r" }));
  expect(value.exitCode).toBe(0);
  expect(value.stdout.startsWith("diff --git a/f0.txt b/f0.txt\n")).toBe(true);
  // Today: 212–267 MiB (49 Mi characters of patch held at once).
  expect(grew).toBeLessThan(128 * MiB);
});
