/**
 * `fetch`, `pull`, `push` and the remotes between a Workspace on node:sqlite
 * and the loopback smart-HTTP server (test/shared/git-server.ts). The other
 * side is always checked with the real git: after each push the server's
 * repository passes `git fsck --strict`, its `git log` shows the Workspace's
 * commits, and the pushed blobs are the exact bytes written (issue 15).
 */
import { writeFileSync, mkdirSync, chmodSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bytesDiff, forkRepo, gitServer, repoUrl, serverGit } from "../../shared/git-remote.js";
import { IDENTITY, cleanupScratch, exportDir, newWorkspace, realGit, rejection, tempDir, wsSnapshot } from "./worktree-helpers.js";

afterAll(cleanupScratch);

/** The real git commits `files` on `branch` of the server's repository `name` (through a clone and a push); returns the new oid. */
function advanceServer(url: string, files: Record<string, string>, message: string, branch = "main"): string {
  const dir = tempDir("wsgit-upstream-");
  realGit(dir, "clone", "-q", "-b", branch, url, dir);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  realGit(dir, "add", "-A");
  realGit(dir, "commit", "-q", "-m", message);
  realGit(dir, "push", "-q", "origin", branch);
  return realGit(dir, "rev-parse", "HEAD").trim();
}

async function clonedFork(options: { depth?: number } = {}) {
  const fork = await forkRepo();
  const { ws, git } = newWorkspace();
  await git.clone({ url: fork.url, dir: "/repo", ...options });
  return { ...fork, ws, git, dir: "/repo" };
}

async function serverHead(name: string, ref = "main"): Promise<string> {
  return (await serverGit(name, ["rev-parse", ref])).stdout.trim();
}

describe("fetch", () => {
  it("updates refs/remotes/origin/* and leaves the working tree and HEAD alone", async () => {
    const { fixture } = gitServer();
    const { url, ws, git, dir } = await clonedFork();
    const before = await wsSnapshot(ws, dir);
    const upstream = advanceServer(url, { "NEW.md": "from upstream\n" }, "upstream: NEW.md");
    expect(await git.fetch({ dir })).toEqual({ defaultBranch: "refs/heads/main", fetchHead: upstream });
    const disk = await exportDir(ws, dir);
    expect(realGit(disk, "rev-parse", "origin/main", "HEAD").trim().split("\n")).toEqual([upstream, fixture.branches.main]);
    expect(await wsSnapshot(ws, dir)).toEqual(before);
    // Another branch by name.
    const feature = await git.fetch({ dir, ref: "feature", singleBranch: true });
    expect(feature.fetchHead).toBe(fixture.branches.feature);
    expect(realGit(await exportDir(ws, dir), "rev-parse", "origin/feature").trim()).toBe(fixture.branches.feature);
  });

  it("names a missing remote, a non-HTTP remote and a missing repository", async () => {
    const { ws, git } = newWorkspace();
    expect(await rejection(git.fetch({ dir: "/nowhere" }))).toEqual({ name: "NotARepositoryError", code: "ENOTAREPO", message: "not a git repository: /nowhere" });
    await ws.fs.mkdir("/r");
    await git.clone({ url: repoUrl("fixture"), dir: "/r", depth: 1 });
    expect(await rejection(git.fetch({ dir: "/r", remote: "upstream" }))).toEqual({
      name: "GitError",
      code: "EFETCHFAIL",
      message: "git fetch failed: no such remote 'upstream' (add it with remoteAdd, or pass url)",
    });
    await git.remoteAdd({ dir: "/r", name: "ssh", url: "ssh://git@example.com/x.git" });
    expect(await rejection(git.fetch({ dir: "/r", remote: "ssh" }))).toEqual({
      name: "GitError",
      code: "EFETCHFAIL",
      message: "git fetch failed: unsupported transport 'ssh' for ssh://git@example.com/x.git: only http:// and https:// URLs work in the Workspace",
    });
    expect(await rejection(git.fetch({ dir: "/r", url: repoUrl("does-not-exist") }))).toMatchObject({ name: "GitError", code: "EFETCHFAIL" });
    expect(await rejection(git.fetch({ dir: "/r", depth: "1" as unknown as number }))).toEqual({
      name: "GitError",
      code: "EUSAGE",
      message: "git fetch: depth must be a number >= 0, got string",
    });
  });
});

describe("pull", () => {
  it("fast-forwards the current branch and the working tree (no identity needed)", async () => {
    const fork = await forkRepo();
    const { ws } = newWorkspace();
    const { createGitClient } = await import("../../../src/git/index.js");
    const git = createGitClient()({ ws }); // no defaultIdentity: a fast-forward needs none
    await git.clone({ url: fork.url, dir: "/repo" });
    const upstream = advanceServer(fork.url, { "README.md": "rewritten upstream\n", "docs/new.txt": "new\n" }, "upstream: rewrite");
    await git.pull({ dir: "/repo" });
    const disk = await exportDir(ws, "/repo");
    expect(realGit(disk, "rev-parse", "HEAD", "origin/main").trim().split("\n")).toEqual([upstream, upstream]);
    expect(realGit(disk, "status", "--porcelain=v1")).toBe("");
    expect(await ws.fs.readFile("/repo/README.md", "utf8")).toBe("rewritten upstream\n");
    expect(await ws.fs.readFile("/repo/docs/new.txt", "utf8")).toBe("new\n");
    // Nothing new: already up to date, nothing changes.
    await git.pull({ dir: "/repo" });
    expect(realGit(await exportDir(ws, "/repo"), "rev-parse", "HEAD").trim()).toBe(upstream);
  });

  it("merges diverged histories with a merge commit the real git accepts; fastForwardOnly refuses and keeps the tree", async () => {
    const { url, ws, git, dir } = await clonedFork();
    await ws.fs.writeFile(`${dir}/local.txt`, "local change\n");
    await git.add({ dir, paths: ["local.txt"] });
    const local = (await git.commit({ dir, message: "local: add local.txt" })).oid;
    const upstream = advanceServer(url, { "remote.txt": "remote change\n" }, "upstream: add remote.txt");
    const before = await wsSnapshot(ws, dir);
    expect(await rejection(git.pull({ dir, fastForwardOnly: true }))).toEqual({
      name: "GitError",
      code: "EPULLFAIL",
      message: "git pull failed: not possible to fast-forward",
    });
    expect(await wsSnapshot(ws, dir)).toEqual(before);
    await git.pull({ dir, author: { name: "Merger", email: "merger@example.com" } });
    const disk = await exportDir(ws, dir);
    realGit(disk, "fsck", "--strict");
    expect(realGit(disk, "log", "-1", "--format=%P%n%an <%ae>%n%s").trim().split("\n")).toEqual([
      `${local} ${upstream}`,
      "Merger <merger@example.com>",
      `Merge branch 'main' of ${url.replace(/\.git$/, "")}`, // as git: no `.git` (fixer GC, run 32)
    ]);
    expect(realGit(disk, "status", "--porcelain=v1")).toBe("");
    expect(await ws.fs.readFile(`${dir}/remote.txt`, "utf8")).toBe("remote change\n");
    expect(await ws.fs.readFile(`${dir}/local.txt`, "utf8")).toBe("local change\n");
  });
});

describe("push", () => {
  it("a commit made in the Workspace (text, binary, executable, symlink, non-ASCII path) reaches the server exactly", async () => {
    const { name, ws, git, dir } = await clonedFork();
    const binary = new Uint8Array(70_000).map((_, i) => (i * 31 + 7) & 0xff);
    await ws.fs.mkdir(`${dir}/notes`);
    await ws.fs.writeFile(`${dir}/notes/añadido ✓.md`, "hola\n");
    await ws.fs.writeFile(`${dir}/assets/new.bin`, binary);
    await ws.fs.writeFile(`${dir}/bin/tool.sh`, "#!/bin/sh\necho tool\n");
    await ws.fs.chmod(`${dir}/bin/tool.sh`, 0o755);
    await ws.fs.symlink("../README.md", `${dir}/notes/readme-link`);
    await ws.fs.writeFile(`${dir}/README.md`, "# Changed in the Workspace\n");
    await git.add({ dir, paths: ["."] });
    const { oid } = await git.commit({ dir, message: "workspace: several kinds of files" });
    const result = await git.push({ dir });
    expect(result).toEqual({ ok: true, error: null, refs: { "refs/heads/main": { ok: true, error: "" } } });
    expect((await serverGit(name, ["fsck", "--strict"])).code).toBe(0);
    expect((await serverGit(name, ["log", "-2", "--format=%H %an <%ae> %s", "main"])).stdout).toBe(
      `${oid} ${IDENTITY.name} <${IDENTITY.email}> workspace: several kinds of files\n${gitServer().fixture.branches.main} Fixture Author <author@fixture.test> c5: run twice\n`,
    );
    const tree = (await serverGit(name, ["-c", "core.quotePath=false", "ls-tree", "-r", "main"])).stdout;
    expect(tree).toContain("100755 blob");
    expect(tree.split("\n").filter((l) => /\t(bin\/tool\.sh|notes\/readme-link|notes\/añadido ✓\.md|assets\/new\.bin)$/.test(l)).map((l) => l.split(" ")[0])).toEqual([
      "100644",
      "100755",
      "100644",
      "120000",
    ]);
    expect(bytesDiff((await serverGit(name, ["cat-file", "blob", "main:assets/new.bin"])).bytes, binary)).toBe("");
    expect((await serverGit(name, ["cat-file", "blob", "main:notes/añadido ✓.md"])).stdout).toBe("hola\n");
    expect((await serverGit(name, ["cat-file", "blob", "main:notes/readme-link"])).stdout).toBe("../README.md");
    expect((await serverGit(name, ["cat-file", "blob", "main:README.md"])).stdout).toBe("# Changed in the Workspace\n");
    expect((await serverGit(name, ["diff", "--name-status", `${gitServer().fixture.branches.main}`, "main"])).stdout).toBe(
      "M\tREADME.md\nA\tassets/new.bin\nA\tbin/tool.sh\nA\t\"notes/a\\303\\261adido \\342\\234\\223.md\"\nA\tnotes/readme-link\n",
    );
  });

  it("a non-fast-forward push resolves ok: false and leaves the server alone; force replaces it", async () => {
    const { name, url, ws, git, dir } = await clonedFork();
    const upstream = advanceServer(url, { "up.txt": "up\n" }, "upstream moves");
    await ws.fs.writeFile(`${dir}/mine.txt`, "mine\n");
    await git.add({ dir, paths: ["mine.txt"] });
    const { oid } = await git.commit({ dir, message: "mine" });
    const rejected = await git.push({ dir });
    expect(rejected).toEqual({
      ok: false,
      error: "rejected: refs/heads/main non-fast-forward (fetch and merge first, or push with force)",
      refs: { "refs/heads/main": { ok: false, error: "non-fast-forward (fetch and merge first, or push with force)" } },
    });
    expect(await serverHead(name)).toBe(upstream);
    expect(await git.push({ dir, force: true })).toEqual({ ok: true, error: null, refs: { "refs/heads/main": { ok: true, error: "" } } });
    expect(await serverHead(name)).toBe(oid);
    expect((await serverGit(name, ["fsck", "--strict"])).code).toBe(0);
  });

  it("pushes to a new remote branch and deletes it", async () => {
    const { name, ws, git, dir } = await clonedFork({ depth: 1 });
    await ws.fs.writeFile(`${dir}/topic.txt`, "topic\n");
    await git.add({ dir, paths: ["topic.txt"] });
    const { oid } = await git.commit({ dir, message: "topic work" });
    expect(await git.push({ dir, remoteRef: "topic" })).toMatchObject({ ok: true, refs: { "refs/heads/topic": { ok: true } } });
    expect(await serverHead(name, "topic")).toBe(oid);
    expect((await serverGit(name, ["fsck", "--strict"])).code).toBe(0);
    expect(await git.push({ dir, remoteRef: "topic", delete: true })).toMatchObject({ ok: true });
    expect((await serverGit(name, ["rev-parse", "--verify", "-q", "topic"])).code).not.toBe(0);
  });

  it("refuses a delete that names no remote ref (it deleted the upstream, the remote's main) — lead, run 34", async () => {
    // git 2.39.5: `git push --delete origin` → "fatal: --delete doesn't make sense without any refs", 128. The
    // typed push with `delete` and neither `remoteRef` nor `ref` left the remote ref to isomorphic-git, which took
    // `branch.<b>.merge`: on a branch made from origin/main, the remote's main was deleted.
    const { name, ws, git, dir } = await clonedFork({ depth: 1 });
    const main = await serverHead(name);
    await git.branch({ dir, name: "fix", checkout: true });
    const config = await ws.fs.readFile(`${dir}/.git/config`, "utf8");
    await ws.fs.writeFile(`${dir}/.git/config`, `${config}[branch "fix"]\n\tremote = origin\n\tmerge = refs/heads/main\n`);
    await expect(git.push({ dir, delete: true })).rejects.toMatchObject({
      code: "EUSAGE",
      message: "git push: delete needs remoteRef (or ref): the remote branch to delete",
    });
    expect(await serverHead(name)).toBe(main);
    expect((await serverGit(name, ["fsck", "--strict"])).code).toBe(0);
  });
});

describe("remotes", () => {
  it("remoteAdd, remoteList (sorted), remoteRemove and their errors", async () => {
    const { ws, git } = newWorkspace();
    await git.clone({ url: repoUrl("fixture"), dir: "/r", depth: 1 });
    await git.remoteAdd({ dir: "/r", name: "backup", url: "https://example.com/b.git" });
    expect(await git.remoteList({ dir: "/r" })).toEqual([
      { name: "backup", url: "https://example.com/b.git" },
      { name: "origin", url: repoUrl("fixture") },
    ]);
    expect(await rejection(git.remoteAdd({ dir: "/r", name: "backup", url: "https://example.com/c.git" }))).toEqual({
      name: "GitError",
      code: "EREMOTEFAIL",
      message: "git remote failed: remote backup already exists",
    });
    await git.remoteAdd({ dir: "/r", name: "backup", url: "https://example.com/c.git", force: true });
    expect((await git.remoteList({ dir: "/r" }))[0]).toEqual({ name: "backup", url: "https://example.com/c.git" });
    await git.remoteRemove({ dir: "/r", name: "origin" });
    expect(await git.remoteList({ dir: "/r" })).toEqual([{ name: "backup", url: "https://example.com/c.git" }]);
    expect(await ws.fs.readdir("/r/.git/refs/remotes")).toEqual([]);
    expect(await rejection(git.remoteRemove({ dir: "/r", name: "origin" }))).toEqual({
      name: "GitError",
      code: "EREMOTEFAIL",
      message: "git remote failed: no such remote: 'origin'",
    });
    expect(await rejection(git.remoteAdd({ dir: "/r", name: "bad name", url: "https://x" }))).toEqual({
      name: "GitError",
      code: "EREMOTEFAIL",
      message: "git remote failed: 'bad name' is not a valid remote name",
    });
    expect(await rejection(git.remoteList({ dir: "/none" }))).toMatchObject({ code: "ENOTAREPO" });
  });
});
