/**
 * Issue 20, twenty-ninth run, fixer GL — siblings of
 * test/node/attack29c/git-checkout-bad-link-target-half-switches-tree.test.ts: a symbolic link (mode 120000) whose
 * target the Workspace cannot hold (empty: ENOENT, NUL: EINVAL, past MAX_PATH_BYTES: ENAMETOOLONG — the checks of
 * `WorkspaceFs.symlink`, now `checkSymlinkTarget` in src/fs/path.ts) or that is not valid UTF-8 (it was written as
 * U+FFFD, `caf\xe9` → `caf\uFFFD`, silently) is refused by every route that writes a tree — checkout, switch,
 * `checkout <ref> -- <paths>`, reset --hard, merge (fast-forward and a merge commit), stash pop, clone — before
 * anything is written, with the op's `E<OP>FAIL` naming the link. git 2.39.5 writes what it can and goes on
 * (`error: unable to create symlink l: No such file or directory`, HEAD switched; a non-UTF-8 target byte for byte);
 * docs/git.md promises these ops read everything before changing anything.
 */
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { forkRepo } from "../../shared/git-remote.js";
import { cleanupScratch, committedRepo, newWorkspace, realGit, tempDir, workspaceCopy } from "../git/worktree-helpers.js";
import { failure, writeCommit, writeLoose } from "../git/attack-helpers.js";
import { MAX_PATH_BYTES } from "../../../src/fs/path.js";
import { CONFINED_TO } from "../../../src/git/confine.js";
import type { GitClient } from "../../../src/git/types.js";

afterAll(cleanupScratch);

const LONG = "x/".repeat(140_000);
const CASES = [
  ["an empty target", "", 'ENOENT: link target is empty, symlink: /repo/l'],
  ["a target holding NUL", "a\0b", 'EINVAL: link target contains NUL, symlink: /repo/l'],
  ["a target over MAX_PATH_BYTES", LONG, `ENAMETOOLONG: link target too long: 280000 bytes of UTF-8, at most ${MAX_PATH_BYTES}; use a shorter target: ${"x/".repeat(30)}…, symlink`],
  ["a target that is not UTF-8", Buffer.from([0x63, 0x61, 0x66, 0xe9]), 'its target "caf\\351" is not valid UTF-8; Workspace link targets are UTF-8 text'],
] as const;

/** A Workspace copy of a 3-file repository plus branch `evil` (a child of HEAD) changing a.txt and adding link `l` → `target`. */
async function evilRepo(target: string | Uint8Array) {
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
  return { disk, ws, git, dir, head };
}

/** The working tree and index are as the clean HEAD left them: a.txt, z/keep, m/n; no l; nothing staged or changed. */
async function unchanged(r: Awaited<ReturnType<typeof evilRepo>>): Promise<void> {
  const { ws, git, dir, head } = r;
  expect((await git.cli({ argv: ["rev-parse", "HEAD"], cwd: dir })).stdout.trim()).toBe(head);
  expect(await ws.fs.readFile(`${dir}/a.txt`, "utf8")).toBe("a\n");
  expect(await ws.fs.readFile(`${dir}/z/keep`, "utf8")).toBe("k\n");
  expect(await ws.fs.readFile(`${dir}/m/n`, "utf8")).toBe("n\n");
  expect(await ws.fs.lstat(`${dir}/l`).catch((e: { code: string }) => e.code)).toBe("ENOENT");
  expect(await git.cli({ argv: ["status", "--porcelain=v1"], cwd: dir })).toEqual({ stdout: "", stderr: "", exitCode: 0 });
}

describe.each(CASES)("a link with %s", (_label, target, why) => {
  const refusal = (op: string) => `git ${op}: cannot check out symbolic link "l": ${why}\n`;

  for (const argv of [["checkout", "evil"], ["switch", "evil"], ["checkout", "-b", "side", "evil"], ["reset", "--hard", "evil"], ["merge", "evil"], ["checkout", "evil", "--", "."], ["checkout", "evil", "--", "l"]]) {
    it(`git ${argv.join(" ")}: refused before writing, naming the link`, { timeout: 60_000 }, async () => {
      const r = await evilRepo(target);
      expect(await r.git.cli({ argv, cwd: r.dir })).toEqual({ stdout: "", stderr: refusal(argv[0]!), exitCode: 1 });
      await unchanged(r);
      expect((await r.git.cli({ argv: ["branch", "--list"], cwd: r.dir })).stdout).toBe("  evil\n* main\n");
    });
  }

  it("typed checkout / reset / merge: E<OP>FAIL naming the link, nothing written", { timeout: 60_000 }, async () => {
    const r = await evilRepo(target);
    expect(await failure(r.git.checkout({ dir: r.dir, ref: "evil" }))).toEqual({ name: "GitError", code: "ECHECKOUTFAIL", message: `git checkout failed: cannot check out symbolic link "l": ${why}`, isGitError: true });
    expect(await failure(r.git.reset({ dir: r.dir, ref: "evil", hard: true }))).toEqual({ name: "GitError", code: "ERESETFAIL", message: `git reset failed: cannot check out symbolic link "l": ${why}`, isGitError: true });
    expect(await failure(r.git.merge({ dir: r.dir, theirs: "evil" }))).toEqual({ name: "GitError", code: "EMERGEFAIL", message: `git merge failed: cannot check out symbolic link "l": ${why}`, isGitError: true });
    await unchanged(r);
  });

  it("a merge commit (diverged branches) holding the link: refused, no commit, the tree as it was", { timeout: 60_000 }, async () => {
    const r = await evilRepo(target);
    await r.ws.fs.writeFile(`${r.dir}/m/n`, "n2\n");
    expect((await r.git.cli({ argv: ["commit", "-qam", "ours"], cwd: r.dir })).exitCode).toBe(0);
    const ours = (await r.git.cli({ argv: ["rev-parse", "HEAD"], cwd: r.dir })).stdout.trim();
    expect(await r.git.cli({ argv: ["merge", "-m", "join", "evil"], cwd: r.dir })).toEqual({ stdout: "", stderr: refusal("merge"), exitCode: 1 });
    expect((await r.git.cli({ argv: ["rev-parse", "HEAD"], cwd: r.dir })).stdout.trim()).toBe(ours);
    expect(await r.ws.fs.readFile(`${r.dir}/a.txt`, "utf8")).toBe("a\n");
    expect(await r.ws.fs.readFile(`${r.dir}/m/n`, "utf8")).toBe("n2\n");
    expect(await r.ws.fs.lstat(`${r.dir}/l`).catch((e: { code: string }) => e.code)).toBe("ENOENT");
    expect(await r.git.cli({ argv: ["status", "--porcelain=v1"], cwd: r.dir })).toEqual({ stdout: "", stderr: "", exitCode: 0 });
  });
});

it("stash pop of a stash holding a link that is not UTF-8 (made by git 2.39.5): refused, the stash kept, nothing written", { timeout: 60_000 }, async () => {
  const disk = committedRepo({ "a.txt": "a\n", "z/keep": "k\n" }, "base", (d) => {
    symlinkSync(Buffer.from([0x63, 0x61, 0x66, 0xe9]), join(d, "l"));
    realGit(d, "add", "l");
    realGit(d, "rm", "-q", "z/keep");
    realGit(d, "stash", "-q");
  });
  const { ws, git, dir } = await workspaceCopy(disk);
  const stashes = (await git.cli({ argv: ["stash", "list"], cwd: dir })).stdout;
  expect(stashes).toMatch(/^stash@\{0\}: WIP on main: [0-9a-f]{7} base\n$/);
  expect(await git.cli({ argv: ["stash", "pop"], cwd: dir })).toEqual({ stdout: "", stderr: 'git stash: cannot check out symbolic link "l": its target "caf\\351" is not valid UTF-8; Workspace link targets are UTF-8 text\n', exitCode: 1 });
  expect((await git.cli({ argv: ["stash", "list"], cwd: dir })).stdout).toBe(stashes);
  expect(await ws.fs.readFile(`${dir}/z/keep`, "utf8")).toBe("k\n"); // Was (before the check): removed by the pop
  expect(await ws.fs.lstat(`${dir}/l`).catch((e: { code: string }) => e.code)).toBe("ENOENT");
  expect(await git.cli({ argv: ["status", "--porcelain=v1"], cwd: dir })).toEqual({ stdout: "", stderr: "", exitCode: 0 });
});

describe("clone of a commit with a link the Workspace cannot make", () => {
  /** A server repository whose HEAD commit (on main) holds a.txt, then l → `target` (an empty blob here: no disk can hold that link). */
  async function servedRepo(): Promise<string> {
    const fork = await forkRepo();
    const disk = tempDir("wsgit-link-");
    realGit(disk, "clone", "-q", fork.url, disk);
    const empty = realGit(disk, "hash-object", "-w", "/dev/null").trim();
    writeFileSync(join(disk, "a.txt"), "A\n");
    const a = realGit(disk, "hash-object", "-w", "a.txt").trim();
    realGit(disk, "read-tree", "--empty");
    realGit(disk, "update-index", "--add", "--cacheinfo", `100644,${a},a.txt`);
    realGit(disk, "update-index", "--add", "--cacheinfo", `120000,${empty},l`);
    const evil = realGit(disk, "write-tree").trim();
    const commit = realGit(disk, "commit-tree", evil, "-p", "HEAD", "-m", "evil").trim();
    realGit(disk, "push", "-q", "origin", `${commit}:refs/heads/evil`);
    return fork.url;
  }

  it("into a new directory: ECLONEFAIL naming the link, the directory removed", { timeout: 60_000 }, async () => {
    const url = await servedRepo();
    const { ws, git } = newWorkspace();
    expect(await failure(git.clone({ url, dir: "/repo", ref: "evil" }))).toEqual({
      name: "GitError",
      code: "ECLONEFAIL",
      message: 'git clone failed: cannot check out symbolic link "l": ENOENT: link target is empty, symlink: /repo/l',
      isGitError: true,
    });
    expect(await ws.fs.lstat("/repo").catch((e: { code: string }) => e.code)).toBe("ENOENT");
  });

  it("into an existing directory: refused before the checkout writes anything (its own file stays, no a.txt)", { timeout: 60_000 }, async () => {
    const url = await servedRepo();
    const { ws, git } = newWorkspace();
    await ws.fs.mkdir("/repo");
    await ws.fs.writeFile("/repo/mine.txt", "mine\n");
    expect((await failure(git.clone({ url, dir: "/repo", ref: "evil" })))?.code).toBe("ECLONEFAIL");
    expect((await ws.fs.readdir("/repo")).map((e) => e.name)).toEqual(["mine.txt"]); // Was: a.txt too (written before l failed)
    expect(await ws.fs.readFile("/repo/mine.txt", "utf8")).toBe("mine\n");
  });

  it("with paths leaving the link out: cloned", { timeout: 60_000 }, async () => {
    const url = await servedRepo();
    const { ws, git } = newWorkspace();
    await git.clone({ url, dir: "/repo", ref: "evil", paths: ["a.txt"] });
    expect((await ws.fs.readdir("/repo")).map((e) => e.name).sort()).toEqual([".git", "a.txt"]);
  });
});

it("a confined client (ws:git in a run with a root): a link leading out of the root is refused before anything is written", { timeout: 60_000 }, async () => {
  for (const argv of [["checkout", "evil"], ["reset", "--hard", "evil"], ["merge", "evil"], ["checkout", "evil", "--", "."]]) {
    const r = await evilRepo("../../etc/passwd");
    const confined = (r.git as unknown as { [CONFINED_TO]: (root: string) => GitClient })[CONFINED_TO]("/repo");
    expect(await confined.cli({ argv, cwd: r.dir })).toEqual({ stdout: "", stderr: `git ${argv[0]}: paths must stay under /repo: symlink target ../../etc/passwd\n`, exitCode: 1 });
    await unchanged(r); // Was: a.txt "A2\n", z/keep removed (` M a.txt`, ` D z/keep`)
  }
  const r = await evilRepo("m/n"); // inside the root: written
  const confined = (r.git as unknown as { [CONFINED_TO]: (root: string) => GitClient })[CONFINED_TO]("/repo");
  expect((await confined.cli({ argv: ["checkout", "-q", "evil"], cwd: r.dir })).exitCode).toBe(0);
  expect(await r.ws.fs.readlink(`${r.dir}/l`)).toBe("m/n");
});

describe("held: link targets the Workspace holds check out as they are", () => {
  for (const [label, target] of [["a UTF-8 target", "dïr/ünï 🙂"], ["a 200,000-byte target", "y/".repeat(100_000)], ["a target with a BOM", "\uFEFFx"], ["an absolute target", "/etc/passwd"]] as const) {
    it(`${label}: checkout, reset --hard and merge write it`, { timeout: 60_000 }, async () => {
      for (const argv of [["checkout", "evil"], ["reset", "--hard", "evil"], ["merge", "evil"]]) {
        const r = await evilRepo(target);
        expect((await r.git.cli({ argv, cwd: r.dir })).exitCode).toBe(0);
        expect(await r.ws.fs.readlink(`${r.dir}/l`)).toBe(target);
        expect(await r.ws.fs.readFile(`${r.dir}/a.txt`, "utf8")).toBe("A2\n");
        expect(await r.git.cli({ argv: ["status", "--porcelain=v1"], cwd: r.dir })).toEqual({ stdout: "", stderr: "", exitCode: 0 });
      }
    });
  }
});
