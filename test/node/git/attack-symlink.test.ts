/**
 * A working-tree directory replaced by a symbolic link to somewhere outside
 * the repository (issue 15 "paths escaping the repository", issue 20
 * "nothing lost, no way out"): `sub/b.txt` is tracked, and the user (or a
 * tool) replaced `sub` by `sub -> /outside`, where `/outside/b.txt` is a
 * file that is not the repository's. git never reads, writes or removes
 * through such a link (its `has_symlink_leading_path`): `reset --hard`
 * brings `sub` back as a directory, `checkout -f` of a commit deleting
 * `sub/b.txt` leaves `/outside/b.txt` alone, and `stash` works — as the
 * real git does on disk with the same layout.
 */
import { afterAll, describe, expect, it } from "vitest";
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupScratch, diskCopy, diskSnapshot, realGit, realGitResult, realRepo, tempDir, workspaceCopy, writeTree, wsSnapshot } from "./worktree-helpers.js";
import { within } from "./attack-helpers.js";

afterAll(cleanupScratch);

function repo() {
  return realRepo((d) => {
    writeTree(d, { "a.txt": "a\n", "sub/b.txt": "b\n" });
    realGit(d, "add", "-A");
    realGit(d, "commit", "-q", "-m", "base");
    realGit(d, "checkout", "-q", "-b", "gone");
    realGit(d, "rm", "-q", "sub/b.txt");
    realGit(d, "commit", "-q", "-m", "gone");
    realGit(d, "checkout", "-q", "main");
  });
}

/** The same damage on both sides: `sub` → a directory outside holding `b.txt` = "SECRET". */
async function both(disk: string) {
  const t = await workspaceCopy(disk);
  await t.ws.fs.mkdir("/outside");
  await t.ws.fs.writeFile("/outside/b.txt", "SECRET\n");
  await t.ws.fs.rm(`${t.dir}/sub`, { recursive: true });
  await t.ws.fs.symlink("/outside", `${t.dir}/sub`);
  const real = diskCopy(disk);
  const outside = tempDir("outside-");
  writeFileSync(join(outside, "b.txt"), "SECRET\n");
  rmSync(join(real, "sub"), { recursive: true });
  symlinkSync(outside, join(real, "sub"));
  return { ...t, real, outside };
}

/** Snapshots with the link target (which differs: /outside vs a temp dir) named `<outside>`. */
const norm = (snap: Record<string, string>, outside: string) =>
  Object.fromEntries(Object.entries(snap).map(([k, v]) => [k, v === `link ${outside}` ? "link <outside>" : v]));

describe("a tracked directory replaced by a link to outside", () => {
  for (const argv of [["reset", "--hard"], ["checkout", "-f", "main"], ["checkout", "HEAD", "--", "."], ["checkout", "HEAD", "--", "sub/b.txt"], ["reset", "--hard", "gone"], ["checkout", "-f", "gone"]]) {
    it(`git ${argv.join(" ")}: the working tree the real git leaves; the file behind the link untouched`, { timeout: 30_000 }, async () => {
      const t = await both(repo());
      const r = await within(10_000, t.git.cli({ argv, cwd: t.dir }));
      const real = realGitResult(t.real, ...argv);
      expect(r.exitCode).toBe(real.status);
      expect(await t.ws.fs.readFile("/outside/b.txt", "utf8")).toBe("SECRET\n");
      expect(readFileSync(join(t.outside, "b.txt"), "utf8")).toBe("SECRET\n");
      expect(norm(await wsSnapshot(t.ws, t.dir), "/outside")).toEqual(norm(diskSnapshot(t.real), t.outside));
      expect((await t.git.cli({ argv: ["status", "--porcelain=v1"], cwd: t.dir })).stdout).toBe(realGit(t.real, "status", "--porcelain=v1"));
    });
  }

  it("git stash: saves the deletion and brings sub back as a directory; the file behind the link untouched", { timeout: 30_000 }, async () => {
    // (the real git refuses here: "error: 'sub/b.txt' is beyond a symbolic link", exit 1; ours stashes
    // without reading through the link — the untracked link itself is replaced by the directory)
    const t = await both(repo());
    const r = await within(10_000, t.git.cli({ argv: ["stash"], cwd: t.dir }));
    expect(r).toEqual({ stdout: "Saved working directory and index state WIP on main: " + realGit(t.real, "log", "-1", "--format=%h %s"), stderr: "", exitCode: 0 });
    expect(await t.ws.fs.readFile("/outside/b.txt", "utf8")).toBe("SECRET\n");
    expect(await wsSnapshot(t.ws, t.dir)).toEqual({ "a.txt": "file 610a", "sub/b.txt": "file 620a" });
    expect(await t.git.diff({ dir: t.dir, ref: "HEAD", to: "refs/stash" })).toBe("diff --git a/sub/b.txt b/sub/b.txt\ndeleted file mode 100644\nindex 6178079..0000000\n--- a/sub/b.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-b\n");
  });
});
