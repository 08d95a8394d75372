/**
 * Issue 20, twenty-ninth attack run: `git checkout <branch>`, `git reset --hard <commit>` and a fast-forward
 * `git merge` (what `git pull` runs) of a commit holding a symbolic link whose target is empty, holds a NUL byte or is too long
 * (a crafted tree: a blob of "", "a\0b" or 280,000 bytes at mode 120000 — fs.symlink refuses ENOENT, EINVAL,
 * ENAMETOOLONG) fail only when they reach the link, after they have already
 * written and removed the other files: the operation fails `ECHECKOUTFAIL` / exit 1, HEAD stays on the old branch,
 * and the working tree holds the new commit's `a.txt` and lacks `z/keep` — `git status` shows ` M a.txt` and
 * ` D z/keep`, so a following `git commit -am` records the hostile commit's content on the old branch. docs/git.md
 * ("Errors") promises that checkout, merge, reset and stash pop "read every object they will write before changing
 * anything, so the working tree stays as it was".
 * Tried: crafted commits (written into .git with attack-helpers) holding blob entries whose mode lies (a tree oid at
 * 100644/120000, a blob at 40000), a missing blob, duplicate and unsorted entries, a 5,000-character name, an
 * 80,000-byte link target, empty and NUL link targets, modes 100664/100000, a gitlink or a link named .git, a nested
 * d/.git directory and a newline in a name; each through checkout, reset --hard, merge, ls-tree -r and diff --stat.
 * Compared with git 2.39.5 (which writes what it can and switches with `error: unable to create symlink l`).
 * Held: mode/type lies, a missing blob and every .git name are refused before anything is written; nothing is ever
 * written outside the repository; long names and long link targets check out.
 * Found (medium — a refused checkout/reset/merge leaves the working tree half-switched, against the documented
 * guarantee, and says nothing about it; 2 of 2 runs).
 * Suggested fix: src/git/ops/tree-state.ts readAll (the read-before-write pass of applyChanges, stash pop and the
 * fast-forward) — for a mode 120000 entry also check the target as placeWorktreeFile will write it (non-empty, no
 * NUL, valid UTF-8, what fs.symlink accepts) and throw the op's error there, before anything is written.
 * Fixed: the Workspace's own link-target check is one function, `checkSymlinkTarget` (src/fs/path.ts, used by
 * `WorkspaceFs.symlink`), and src/git/ops/tree-state.ts `readAll` — the read-before-write pass of applyChanges
 * (checkout, checkout -b, reset --hard, merge and its fast-forward, pull), `checkout -- <paths>` and stash pop —
 * runs it on every mode 120000 target through `linkTargetOf`, which also refuses a target that is not valid UTF-8
 * (it was written with U+FFFD), so the op fails `E<OP>FAIL` `cannot check out symbolic link "l": ENOENT: link target
 * is empty, symlink: /repo/l` with nothing written; clone checks its tree's links the same way before its checkout
 * (src/git/ops/network.ts); a confined client (ws:git with a root) refuses there a target leading out of the root as
 * text (GitContext.linkRoot), which also failed half-way. Siblings in test/node/fix29/git-link-targets.test.ts (fixer
 * GL, run 29).
 */
import { afterAll, expect, it } from "vitest";
import { cleanupScratch, committedRepo, realGit, workspaceCopy } from "../git/worktree-helpers.js";
import { writeCommit, writeLoose } from "../git/attack-helpers.js";

afterAll(cleanupScratch);

for (const [label, target] of [["an empty link target", ""], ["a link target holding NUL", "a\0b"], ["a link target over 256 KiB (MAX_PATH_BYTES)", "x/".repeat(140_000)]] as const) {
  for (const argv of [["checkout", "evil"], ["reset", "--hard", "evil"], ["merge", "evil"]]) {
    it(`git ${argv.join(" ")} of a commit with ${label}: refused before writing; the working tree stays as it was`, { timeout: 60_000 }, async () => {
      const disk = committedRepo({ "a.txt": "a\n", "z/keep": "k\n", "m/n": "n\n" });
      const { ws, git, dir } = await workspaceCopy(disk);
      const head = realGit(disk, "rev-parse", "HEAD").trim();
      const link = await writeLoose(ws, dir, "blob", target);
      const a2 = await writeLoose(ws, dir, "blob", "A2\n");
      const m = realGit(disk, "rev-parse", "HEAD:m").trim();
      await writeCommit(ws, dir, "evil", [
        { mode: "100644", name: "a.txt", oid: a2 },
        { mode: "120000", name: "l", oid: link },
        { mode: "40000", name: "m", oid: m },
      ], head);

      const r = await git.cli({ argv, cwd: dir });
      expect(r.exitCode).toBe(1); // refused (today too: `git checkout: ENOENT: link target is empty, symlink: /repo/l`)
      expect((await git.cli({ argv: ["rev-parse", "HEAD"], cwd: dir })).stdout.trim()).toBe(head);
      expect(await ws.fs.readFile(`${dir}/a.txt`, "utf8")).toBe("a\n"); // Was: "A2\n" (the hostile commit's)
      expect(await ws.fs.readFile(`${dir}/z/keep`, "utf8")).toBe("k\n"); // Was: ENOENT (removed)
      expect(await git.cli({ argv: ["status", "--porcelain=v1"], cwd: dir })).toEqual({ stdout: "", stderr: "", exitCode: 0 }); // Was: " M a.txt\n D z/keep\n"
    });
  }
}
