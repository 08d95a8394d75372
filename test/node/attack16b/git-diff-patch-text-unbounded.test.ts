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
 * Fixed: GIT_DIFF_MAX_PATCH_CHARS (8 Mi characters, src/git/limits.ts) bounds one diff's hunks: files are diffed
 * one after another, and a file whose hunks would pass what is left keeps its header and gets one line
 * "Patch left out: +A -D lines; …" in their place; a whole-file add or delete is counted without the line
 * search; diffSummary builds no text. The diff above now grows memory ~33 MiB.
 */
import { afterAll, expect, it } from "vitest";
import { GIT_DIFF_MAX_PATCH_CHARS } from "../../../src/git/index.js";
import { cleanupScratch, newWorkspace } from "../git/worktree-helpers.js";
import { peak } from "../attack6/memory.js";

afterAll(cleanupScratch);

const MiB = 1024 * 1024;

it("git diff of three added 16 MiB files stays under 128 MiB of memory", { timeout: 60_000 }, async () => {
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
  const left = (name: string) =>
    `diff --git a/${name} b/${name}\nnew file mode 100644\nindex 0000000..7895f58\n` +
    `Patch left out: +262144 -0 lines; the diff's patch text would pass 8388608 characters (GIT_DIFF_MAX_PATCH_CHARS): diff fewer paths at a time\n`;
  expect(value.stdout).toBe(left("f0.txt") + left("f1.txt") + left("f2.txt"));
  expect(value.stderr).toBe("");
  // diffSummary builds no patch text: exact counts, whatever the size.
  expect(await git.diffSummary({ dir: "/r", ref: "HEAD~1", to: "HEAD" })).toEqual(
    ["f0.txt", "f1.txt", "f2.txt"].map((path) => ({ path, status: "A", insertions: 262_144, deletions: 0 })),
  );
});

it("within the bound the patch is whole: a one-line change in a 4 MiB file, and a small file after a left-out one", { timeout: 60_000 }, async () => {
  expect(GIT_DIFF_MAX_PATCH_CHARS).toBe(8 * MiB);
  const { ws, git } = newWorkspace();
  await git.init({ dir: "/r" });
  const body = `${"y".repeat(63)}\n`.repeat((4 * MiB) / 64);
  await ws.fs.writeFile("/r/big.txt", body);
  await ws.fs.writeFile("/r/z.txt", "one\n");
  await git.add({ dir: "/r", paths: ["big.txt", "z.txt"] });
  await git.commit({ dir: "/r", message: "one" });
  await ws.fs.writeFile("/r/big.txt", body.replace(/y\n$/, "Y\n"));
  await ws.fs.writeFile("/r/huge.txt", `${"h".repeat(63)}\n`.repeat((9 * MiB) / 64));
  await ws.fs.writeFile("/r/z.txt", "two\n");
  await git.add({ dir: "/r", paths: ["huge.txt"] });
  const text = await git.diff({ dir: "/r" });
  const y = "y".repeat(63);
  const lines = text.split("\n");
  expect(lines.slice(0, 4)).toEqual(["diff --git a/big.txt b/big.txt", expect.stringMatching(/^index [0-9a-f]{7}\.\.[0-9a-f]{7} 100644$/), "--- a/big.txt", "+++ b/big.txt"]);
  expect(lines.slice(4, 12)).toEqual([`@@ -65533,4 +65533,4 @@ ${y}`, ` ${y}`, ` ${y}`, ` ${y}`, `-${y}`, `+${y.slice(0, 62)}Y`, "diff --git a/huge.txt b/huge.txt", "new file mode 100644"]);
  expect(lines.slice(13)).toEqual([
    "Patch left out: +147456 -0 lines; the diff's patch text would pass 8388608 characters (GIT_DIFF_MAX_PATCH_CHARS): diff fewer paths at a time",
    "diff --git a/z.txt b/z.txt",
    expect.stringMatching(/^index [0-9a-f]{7}\.\.[0-9a-f]{7} 100644$/),
    "--- a/z.txt",
    "+++ b/z.txt",
    "@@ -1 +1 @@",
    "-one",
    "+two",
    "",
  ]);
});
