/**
 * Issue 20, run 29, fixer GI — siblings of test/workers/attack29d/shell-git-status-untracked-ignored-after-rm-cached.test.ts:
 * a path HEAD has and the index lacks (after `git rm --cached`) is untracked in the working tree, so the ignore rules
 * apply to it as to any untracked path — an ignored one is left out, only the staged deletion shows. Checked side by
 * side with git 2.39.5 for a file ignored by name, one not ignored, a directory removed with `rm -r --cached` whose
 * files a `*.env` rule ignores, the same directory ignored whole (`d/`), and a negation rule (`*.env`, `!keep.env`):
 * `status` (long, `-s`-free `--porcelain=v1`, `-uall`, `-uno`), `add .` / `add -A` / `add -u`, `clean -n` / `clean -f`
 * (the files left), `diff --stat`, `diff HEAD --stat`, `diff --cached --name-status`, `commit -a` (then `ls-files`),
 * and the client's `status()` entries.
 */
import { afterAll, describe, expect, it } from "vitest";
import { cleanupScratch, committedRepo, diskCopy, diskSnapshot, realGit, realGitResult, workspaceCopy, wsBytes, wsSnapshot } from "../git/worktree-helpers.js";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

afterAll(cleanupScratch);

const FILES = { "a.txt": "1\n", "secret.env": "k\n", "keep.env": "k\n", "d/s.env": "k\n", "d/k.txt": "k\n" };

/** The scenarios: what `git rm --cached` removes, and the `.gitignore` written after. */
const SCENARIOS: { name: string; rm: string[]; ignore?: string }[] = [
  { name: "a file ignored by name", rm: ["secret.env"], ignore: "secret.env\n" },
  { name: "a file not ignored", rm: ["secret.env"] },
  { name: "a directory whose .env files are ignored", rm: ["-r", "d"], ignore: "*.env\n" },
  { name: "a directory ignored whole", rm: ["-r", "d"], ignore: "d/\n" },
  { name: "a negation rule re-including one file", rm: ["secret.env", "keep.env"], ignore: "*.env\n!keep.env\n" },
];

/** Each sequence runs on a fresh copy; every step's output and status is compared. */
const SEQUENCES: string[][][] = [
  [["status", "--porcelain=v1"]],
  [["status", "--porcelain=v1", "-uall"]],
  [["status", "--porcelain=v1", "-uno"]],
  [["status"]],
  [["add", "."], ["status", "--porcelain=v1", "-uall"]],
  [["add", "-A"], ["status", "--porcelain=v1", "-uall"], ["ls-files"]],
  [["add", "-u"], ["status", "--porcelain=v1", "-uall"]],
  [["clean", "-n"]],
  [["clean", "-f"]],
  [["diff", "--stat"], ["diff", "HEAD", "--stat"], ["diff", "--cached", "--name-status"]],
  [["commit", "-q", "-a", "-m", "x"], ["status", "--porcelain=v1", "-uall"], ["ls-files"]],
];

function scenarioRepo(s: (typeof SCENARIOS)[number]): string {
  return committedRepo(FILES, "base", (d) => {
    realGit(d, "rm", "--cached", "-q", ...s.rm);
    if (s.ignore !== undefined) writeFileSync(join(d, ".gitignore"), s.ignore);
  });
}

describe("a path removed from the index is untracked, and ignored as git ignores it", () => {
  for (const scenario of SCENARIOS) {
    it(`${scenario.name}: status, add, clean, diff and commit -a as git 2.39.5`, { timeout: 120_000 }, async () => {
      const base = scenarioRepo(scenario);
      for (const sequence of SEQUENCES) {
        const disk = diskCopy(base);
        const { ws, git, dir } = await workspaceCopy(base);
        for (const argv of sequence) {
          const real = realGitResult(disk, ...argv);
          const ours = await git.cli({ argv, cwd: dir });
          expect.soft({ stdout: ours.stdout, exitCode: ours.exitCode }, argv.join(" ")).toEqual({ stdout: real.stdout, exitCode: real.status });
        }
        // The bytes left: the working tree as git leaves it (clean -f removes only what git removes).
        expect.soft(await wsSnapshot(ws, dir), sequence.map((a) => a.join(" ")).join("; ")).toEqual(diskSnapshot(disk));
      }
    });
  }

  it("the exact outputs for the ignored file and the ignored directory (--porcelain=v1, long format)", { timeout: 60_000 }, async () => {
    const file = await workspaceCopy(scenarioRepo(SCENARIOS[0]!));
    expect(await file.git.cli({ argv: ["status", "--porcelain=v1"], cwd: file.dir })).toEqual({
      stdout: "D  secret.env\n?? .gitignore\n",
      stderr: "",
      exitCode: 0,
    });
    expect(await file.git.status({ dir: file.dir })).toEqual([
      { path: ".gitignore", index: " ", worktree: "?" },
      { path: "secret.env", index: "D", worktree: " " },
    ]);
    const whole = await workspaceCopy(scenarioRepo(SCENARIOS[3]!));
    expect((await whole.git.cli({ argv: ["status"], cwd: whole.dir })).stdout).toBe(
      "On branch main\nChanges to be committed:\n  (use \"git restore --staged <file>...\" to unstage)\n\tdeleted:    d/k.txt\n\tdeleted:    d/s.env\n\n" +
        "Untracked files:\n  (use \"git add <file>...\" to include in what will be committed)\n\t.gitignore\n\n",
    );
    // add -A stages the deletion and .gitignore, never the ignored files again; the files stay on disk.
    await whole.git.add({ dir: whole.dir, all: true });
    expect(await whole.git.lsFiles({ dir: whole.dir })).toEqual([".gitignore", "a.txt", "keep.env", "secret.env"]);
    expect(await whole.git.status({ dir: whole.dir })).toEqual([
      { path: ".gitignore", index: "A", worktree: " " },
      { path: "d/k.txt", index: "D", worktree: " " },
      { path: "d/s.env", index: "D", worktree: " " },
    ]);
    expect(new TextDecoder().decode(await wsBytes(whole.ws, "/repo/d/s.env"))).toBe("k\n");
  });
});
