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
import { cleanupScratch, committedRepo, diskCopy, diskSnapshot, exportDir, realGit, realGitResult, realRepo, tempDir, workspaceCopy, writeTree, wsSnapshot } from "./worktree-helpers.js";
import { within } from "./attack-helpers.js";

afterAll(cleanupScratch);

function repo() {
  return committedRepo({ "a.txt": "a\n", "sub/b.txt": "b\n" }, "base", (d) => {
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

  it("git stash: refused as the real git (`'sub/b.txt' is beyond a symbolic link`); nothing written, the link kept", { timeout: 30_000 }, async () => {
    // (before issue 20's twenty-fourth attack run ours stashed the deletion and replaced the untracked link by the
    // directory — the link was lost; see attack24b/git-stash-push-drops-link-over-tracked-dir)
    const t = await both(repo());
    const r = await within(10_000, t.git.cli({ argv: ["stash"], cwd: t.dir }));
    const real = realGitResult(t.real, "stash");
    expect(r).toEqual({ stdout: "", stderr: "git stash: 'sub/b.txt' is beyond a symbolic link\n", exitCode: real.status });
    expect(await t.ws.fs.readFile("/outside/b.txt", "utf8")).toBe("SECRET\n");
    expect(norm(await wsSnapshot(t.ws, t.dir), "/outside")).toEqual(norm(diskSnapshot(t.real), t.outside));
    expect(await t.git.stashList({ dir: t.dir })).toEqual([]);
    expect(realGit(t.real, "stash", "list")).toBe("");
  });

  it("stash pop of a deleted sub/b.txt after sub became a link: refused as a local change; /outside/b.txt untouched", { timeout: 30_000 }, async () => {
    const { ws, git, dir } = await workspaceCopy(repo());
    await ws.fs.rm(`${dir}/sub/b.txt`);
    await git.stashPush({ dir });
    await ws.fs.mkdir("/outside");
    await ws.fs.writeFile("/outside/b.txt", "SECRET\n");
    await ws.fs.rm(`${dir}/sub`, { recursive: true });
    await ws.fs.symlink("/outside", `${dir}/sub`);
    const r = await within(10_000, git.cli({ argv: ["stash", "pop"], cwd: dir }));
    expect(r).toEqual({ stdout: "", stderr: "git stash: your local changes to the following files would be overwritten by stash: sub/b.txt\n", exitCode: 1 });
    expect(await ws.fs.readFile("/outside/b.txt", "utf8")).toBe("SECRET\n");
    expect(await git.stashList({ dir })).toHaveLength(1);
  });

  it("untracked link loops (self, parent, l1 <-> l2) and a link to outside: status, clean -fd and add -A finish, store links as links, remove only the links", { timeout: 60_000 }, async () => {
    const d = realRepo((r) => {
      writeTree(r, { "a.txt": "a\n" });
      realGit(r, "add", "-A");
      realGit(r, "commit", "-q", "-m", "base");
    });
    const layout = async () => {
      const t = await workspaceCopy(d);
      await t.ws.fs.mkdir("/outside");
      await t.ws.fs.writeFile("/outside/keep.txt", "k\n");
      await t.ws.fs.mkdir(`${t.dir}/u/deep`, { recursive: true });
      await t.ws.fs.symlink("/outside", `${t.dir}/u/escape`);
      await t.ws.fs.symlink(".", `${t.dir}/u/deep/self`);
      await t.ws.fs.symlink("../..", `${t.dir}/u/deep/up`);
      await t.ws.fs.symlink("l2", `${t.dir}/l1`);
      await t.ws.fs.symlink("l1", `${t.dir}/l2`);
      return t;
    };
    // the real git, same layout on disk
    const real = diskCopy(d);
    const outside = tempDir("outside-");
    writeFileSync(join(outside, "keep.txt"), "k\n");
    mkdirSync(join(real, "u/deep"), { recursive: true });
    symlinkSync(outside, join(real, "u/escape"));
    symlinkSync(".", join(real, "u/deep/self"));
    symlinkSync("../..", join(real, "u/deep/up"));
    symlinkSync("l2", join(real, "l1"));
    symlinkSync("l1", join(real, "l2"));

    let t = await layout();
    expect((await within(20_000, t.git.cli({ argv: ["status", "--porcelain=v1"], cwd: t.dir }))).stdout).toBe(realGit(real, "status", "--porcelain=v1"));
    expect((await within(20_000, t.git.cli({ argv: ["clean", "-f", "-d"], cwd: t.dir }))).stdout).toBe("Removing l1\nRemoving l2\nRemoving u/\n");
    expect(await wsSnapshot(t.ws, t.dir)).toEqual({ "a.txt": "file 610a" });
    expect((await t.ws.fs.readdir("/outside")).map((e) => e.name)).toEqual(["keep.txt"]);
    t = await layout();
    await within(20_000, t.git.add({ dir: t.dir, paths: ["."], all: true }));
    realGit(real, "add", "-A");
    expect(await t.git.lsFiles({ dir: t.dir })).toEqual(realGit(real, "ls-files").trim().split("\n"));
    const copy = await exportDir(t.ws, t.dir);
    // the same index but for u/escape, whose target differs (/outside here, a temporary directory there): a link either way
    const withoutEscape = (text: string) => text.split("\n").filter((l) => l !== "" && !l.endsWith("\tu/escape"));
    expect(withoutEscape(realGit(copy, "ls-files", "-s"))).toEqual(withoutEscape(realGit(real, "ls-files", "-s")));
    expect(realGit(copy, "ls-files", "-s", "u/escape")).toMatch(/^120000 /);
    expect(realGit(copy, "cat-file", "-p", ":u/escape")).toBe("/outside");
  });
});

describe("add through a symlinked directory", () => {
  it("add escape/secret.txt, escape/, escape/., ./escape/, escape/nope: exit 128 'beyond a symbolic link' as real git; nothing staged; add escape stages the link", { timeout: 60_000 }, async () => {
    const d = repo();
    const t = await workspaceCopy(d);
    await t.ws.fs.mkdir("/outside");
    await t.ws.fs.writeFile("/outside/secret.txt", "secret\n");
    await t.ws.fs.symlink("/outside", `${t.dir}/escape`);
    const real = diskCopy(d);
    const outside = tempDir("outside-");
    writeFileSync(join(outside, "secret.txt"), "secret\n");
    symlinkSync(outside, join(real, "escape"));
    for (const path of ["escape/secret.txt", "escape/", "escape/.", "./escape/", "escape/nope", "escape//secret.txt"]) {
      const r = await within(10_000, t.git.cli({ argv: ["add", path], cwd: t.dir }));
      const message = `pathspec '${path}' is beyond a symbolic link`;
      expect({ path, exitCode: r.exitCode, stderr: r.stderr }).toEqual({ path, exitCode: 128, stderr: `git add: ${message}\n` });
      expect({ path, ...realGitResult(real, "add", path) }).toMatchObject({ path, status: 128, stderr: `fatal: ${message}\n` });
      const error = await t.git.add({ dir: t.dir, paths: [path] }).then(() => undefined, (e: { code?: string; message?: string }) => ({ code: e.code, message: e.message }));
      expect({ path, error }).toEqual({ path, error: { code: "EPATHSPEC", message } });
    }
    expect(await t.git.lsFiles({ dir: t.dir })).toEqual(["a.txt", "sub/b.txt"]);
    expect(await t.git.lsFiles({ dir: t.dir })).toEqual(realGit(real, "ls-files").trim().split("\n"));
    // the link itself is a path in the repository: staged as a link (mode 120000), as real git does
    await within(10_000, t.git.add({ dir: t.dir, paths: ["escape"] }));
    realGit(real, "add", "escape");
    expect(await t.git.lsFiles({ dir: t.dir })).toEqual(realGit(real, "ls-files").trim().split("\n"));
    expect(realGit(await exportDir(t.ws, t.dir), "ls-files", "-s", "escape")).toMatch(/^120000 /);
  });
});
