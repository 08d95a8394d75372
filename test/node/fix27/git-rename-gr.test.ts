/**
 * Issue 20, twenty-seventh attack run, fixer GR — siblings of test/workers/attack27c/shell-git-no-rename-detection:
 * exact rename detection side by side with real git 2.39 (the helpers' disk copy). git pairs an added file with a
 * deleted one holding the same blob (diffcore-rename.c find_exact_renames: the first unpaired one in path order, one
 * with the same base name first; a symbolic link only with a symbolic link) in `status` (short, `--porcelain=v1`,
 * long; a rename also changed in the working tree is `RM`; the old path re-created is `??`), `diff` (`--name-status`
 * `R100`, `--stat`/`--numstat` with pprint_rename's `a => b` and `{dir => dir2}/f`, the patch's `similarity index
 * 100%` / `rename from` / `rename to`, a binary file's `Bin`, a mode change's `old mode`/`new mode`), `show` and
 * pathspecs (limiting comes first: a rename with one side outside them is a lone `A` or `D`). A rename whose content
 * changed is a delete plus an add here (inexact renames are not detected; docs/git.md). The typed `diffSummary`
 * pairs only with `renames: true`.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupScratch, committedRepo, diskCopy, identityEnv, realGitResult, workspaceCopy } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

/** Two commits (the second moves `dir` and `a.txt`), then staged moves of every kind and a few worktree edits. */
function renamedRepo(): string {
  return committedRepo(
    {
      "a.txt": "one\ntwo\nthree\n",
      "b.txt": "same\n",
      "c.txt": "same\n",
      "dir/g": "g\n",
      "dir/sub/f": "f\n",
      "x y.txt": "xy\n",
      "s.sh": "run\n",
      "bin.dat": new Uint8Array([120, 0, 121]),
      l: { link: "b.txt" },
      "\u00fc.txt": "u\n",
      "k.txt": "k\n",
      "m.txt": "m\n",
    },
    "first",
    (d) => {
      const git = (...args: string[]) => realGitResult(d, ...args);
      git("mv", "dir", "dir2");
      git("mv", "a.txt", "z.txt");
      git("commit", "-q", "-m", "move");
      git("rm", "-q", "b.txt", "c.txt");
      writeFile(d, "0.txt", "same\n");
      writeFile(d, "new/c.txt", "same\n");
      git("mv", "x y.txt", "p q.txt");
      git("mv", "bin.dat", "bin2.dat");
      git("mv", "s.sh", "t.sh");
      git("mv", "l", "l2");
      git("mv", "\u00fc.txt", "\u00f6.txt");
      git("mv", "dir2/g", "dir2/h");
      git("mv", "z.txt", "w.txt");
      git("mv", "k.txt", "k2.txt");
      git("mv", "m.txt", "dir2/sub/m.txt");
      git("add", "-A");
      git("update-index", "--chmod=+x", "t.sh");
      writeFile(d, "w.txt", "one\ntwo\nthree\nfour\n");
      writeFile(d, "k.txt", "again\n");
    },
  );
}

function writeFile(dir: string, path: string, text: string): void {
  const full = join(dir, path);
  execFileSync("mkdir", ["-p", join(full, "..")]);
  writeFileSync(full, text);
}

/** Runs each argv in real git (in `disk` + `sub`) and ours (in `/repo` + `sub`); returns both lists of results. */
async function sideBySide(base: string, sub: string, cases: string[][]) {
  const disk = diskCopy(base);
  const { git } = await workspaceCopy(base);
  const real: unknown[] = [];
  const ours: unknown[] = [];
  for (const argv of cases) {
    const r = realGitResult(join(disk, sub), ...argv);
    const o = await git.cli({ argv, cwd: sub === "" ? "/repo" : `/repo/${sub}`, env: identityEnv() });
    real.push({ argv: argv.join(" "), stdout: r.stdout, status: r.status });
    ours.push({ argv: argv.join(" "), stdout: o.stdout, status: o.exitCode });
  }
  return { real, ours };
}

describe("fix27 (GR): exact renames as git 2.39", () => {
  it("status, diff and show print renames as git, at the root and in a subdirectory", { timeout: 120_000 }, async () => {
    const base = renamedRepo();
    const atRoot = [
      ["status", "-s", "-uno"], // -s prints an untracked file ` ? p` (spec 04 §2.5; git `??`): see --porcelain=v1
      ["status", "--porcelain=v1"],
      ["status"],
      ["diff", "--cached", "--name-status"],
      ["diff", "--cached", "--name-only"],
      ["diff", "--cached", "--stat"],
      ["diff", "--cached", "--numstat"],
      ["diff", "--cached"],
      // z.txt -> w.txt is also changed in the working tree: an inexact rename against HEAD, left out here (see below).
      ["diff", "HEAD", "--name-status", "--", "b.txt", "0.txt", "k.txt", "k2.txt", "dir2", "bin.dat", "bin2.dat"],
      ["diff", "HEAD", "--stat", "--", "b.txt", "0.txt", "k.txt", "k2.txt", "dir2", "bin.dat", "bin2.dat"],
      ["diff", "--name-status"],
      ["diff", "HEAD~1", "HEAD", "--stat"],
      ["diff", "HEAD~1", "HEAD"],
      ["diff", "HEAD~1", "--cached", "--name-status"],
      ["show", "--stat", "--format=%s"],
      ["show", "--format=%s"],
      ["show", "--stat", "--format=%s", "HEAD~1"],
      ["diff", "--cached", "--name-status", "--", "dir2/"],
      ["diff", "--cached", "--name-status", "--", "0.txt"],
      ["diff", "--cached", "--name-status", "--", "b.txt", "0.txt"],
      ["diff", "--cached", "--stat", "--", "new", "c.txt"],
      ["status", "-s", "--", "new"],
      ["status", "-s", "--", "c.txt", "new"],
    ];
    const inSub = [
      ["status", "-s", "-uno"],
      ["status"],
      ["diff", "--cached", "--name-status"],
      ["diff", "--cached", "--stat"],
    ];
    const root = await sideBySide(base, "", atRoot);
    expect(root.ours).toEqual(root.real);
    const sub = await sideBySide(base, "dir2", inSub);
    expect(sub.ours).toEqual(sub.real);
    // An inexact rename (similarity below 100%) is a delete plus an add here (git: `R073\tz.txt\tw.txt`).
    const { git } = await workspaceCopy(base);
    const inexact = await git.cli({ argv: ["diff", "HEAD", "--name-status", "--", "z.txt", "w.txt"], cwd: "/repo", env: identityEnv() });
    expect(inexact.stdout).toBe("A\tw.txt\nD\tz.txt\n");
    const numstat = await git.cli({ argv: ["diff", "--cached", "--numstat", "--", "dir2", "m.txt"], cwd: "/repo", env: identityEnv() });
    expect(numstat.stdout).toBe("0\t0\tdir2/{g => h}\n0\t0\tm.txt => dir2/sub/m.txt\n");
    const show = await git.cli({ argv: ["show", "--stat", "--format=%s", "HEAD"], cwd: "/repo", env: identityEnv() });
    expect(show.stdout).toBe("move\n\n {dir => dir2}/g     | 0\n {dir => dir2}/sub/f | 0\n a.txt => z.txt      | 0\n 3 files changed, 0 insertions(+), 0 deletions(-)\n");
    // The forms checked above, spelled out once.
    const disk = diskCopy(base);
    expect(realGitResult(disk, "status", "-s").stdout).toBe(
      [
        "R  b.txt -> 0.txt",
        "R  bin.dat -> bin2.dat",
        "R  dir2/g -> dir2/h",
        "R  m.txt -> dir2/sub/m.txt",
        "R  k.txt -> k2.txt",
        "R  l -> l2",
        "R  c.txt -> new/c.txt",
        'R  "x y.txt" -> "p q.txt"',
        "RM s.sh -> t.sh", // the index has it 100755 (update-index --chmod=+x), the file is 100644
        "RM z.txt -> w.txt",
        'R  "\\303\\274.txt" -> "\\303\\266.txt"',
        "?? k.txt",
        "",
      ].join("\n"),
    );
  });

  it("--stat/--numstat names as git's pprint_rename; a binary file whose mode changed is Bin", { timeout: 60_000 }, async () => {
    const base = committedRepo(
      { "a/b/c1": "c1\n", "a/c2": "c2\n", ab1: "ab1\n", "x/y/z/f3": "f3\n", "p/q4": "q4\n", m5: "m5\n", bin: new Uint8Array([120, 0]) },
      "first",
      (d) => {
        const git = (...args: string[]) => realGitResult(d, ...args);
        execFileSync("mkdir", ["-p", join(d, "x/z"), join(d, "q"), join(d, "n/m5")]);
        for (const [a, b] of [["a/b/c1", "a/c1"], ["a/c2", "a/b/c2"], ["ab1", "ab1c"], ["x/y/z/f3", "x/z/f3"], ["p/q4", "q/q4"], ["m5", "n/m5/m5"]]) git("mv", a!, b!);
        git("update-index", "--chmod=+x", "bin");
      },
    );
    const { real, ours } = await sideBySide(base, "", [
      ["diff", "--cached", "--numstat"],
      ["diff", "--cached", "--stat"],
      ["diff", "--cached"],
    ]);
    expect(ours).toEqual(real);
    expect((real[0] as { stdout: string }).stdout).toBe(
      "0\t0\ta/{ => b}/c2\n0\t0\ta/{b => }/c1\n0\t0\tab1 => ab1c\n-\t-\tbin\n0\t0\tm5 => n/m5/m5\n0\t0\t{p => q}/q4\n0\t0\tx/{y => }/z/f3\n",
    );
  });

  it("diffSummary pairs only with renames: true; diff gives the rename header", async () => {
    const { git } = await workspaceCopy(renamedRepo());
    const plain = await git.diffSummary({ dir: "/repo", cached: true, paths: ["b.txt", "0.txt", "bin.dat", "bin2.dat"] });
    expect(plain).toEqual([
      { path: "0.txt", status: "A", insertions: 1, deletions: 0 },
      { path: "b.txt", status: "D", insertions: 0, deletions: 1 },
      { path: "bin.dat", status: "D", insertions: 0, deletions: 0, binary: { oldBytes: 3, newBytes: 0 } },
      { path: "bin2.dat", status: "A", insertions: 0, deletions: 0, binary: { oldBytes: 0, newBytes: 3 } },
    ]);
    const renamed = await git.diffSummary({ dir: "/repo", cached: true, renames: true, paths: ["b.txt", "0.txt", "bin.dat", "bin2.dat"] });
    expect(renamed).toEqual([
      { path: "0.txt", from: "b.txt", status: "R", insertions: 0, deletions: 0 },
      { path: "bin2.dat", from: "bin.dat", status: "R", insertions: 0, deletions: 0, binary: { oldBytes: 0, newBytes: 0 } },
    ]);
    expect(await git.diff({ dir: "/repo", cached: true, renames: true, paths: ["b.txt", "0.txt"] })).toBe(
      "diff --git a/b.txt b/0.txt\nsimilarity index 100%\nrename from b.txt\nrename to 0.txt\n",
    );
    await expect(git.diff({ dir: "/repo", renames: "yes" as unknown as boolean })).rejects.toThrow(/renames must be a boolean/);
  });
});
