/**
 * Issue 20, twenty-first attack run (fixer GB): a backslash is an ordinary name character in git on Linux, and the
 * git layer never touches a path outside the repository. isomorphic-git's path helpers took `\` for a separator
 * (normalize/join turned it into `/`, dirname/basename split at it, `c:/…` was an absolute Windows path), its tree
 * check refused any `\`, and its index reader refused `..\` anywhere — so `..\outside\secret.txt` in /repo staged
 * /outside/secret.txt, `x\y.txt` broke status/stash/checkout, `new\n.txt` failed add with `lstat 'new/n.txt'`.
 * Siblings covered here: the host (no root) with a name leading two levels up, read and delete side, against real
 * git on a disk copy; the typed API; a directory named `c:`; a directory named `a..` (the index reader's old
 * `../` substring check); a tree entry `.git\x` (refused, as git's core.protectNTFS check does); and the backstop
 * (src/git/confine.ts containedContext) with the real isomorphic-git and Workspace: a path outside the repository
 * fails EACCES and touches nothing.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { containedContext } from "../../../src/git/confine.js";
import type { GitContext } from "../../../src/git/context.js";
import { createWorkspaceFsBridge } from "../../../src/git/fs-bridge.js";
import { loadIsomorphicGit } from "../../../src/git/load.js";
import {
  cleanupScratch,
  committedRepo,
  diskCopy,
  diskSnapshot,
  identityEnv,
  newWorkspace,
  realGit,
  realGitResult,
  workspaceCopy,
  wsSnapshot,
} from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

const QUIET_DIFFERS = new Set(["checkout -q -f HEAD", "stash pop -q"]);

/** Runs `steps` with the real git on a disk copy of `base` and with ours on a Workspace copy, each after `prepare`; returns both sides' results and trees. */
async function both(base: string, files: Record<string, string>, steps: string[][]) {
  const disk = diskCopy(base);
  const { ws, git } = await workspaceCopy(base);
  await ws.fs.mkdir("/outside", { recursive: true });
  await ws.fs.writeFile("/outside/secret.txt", "TOKEN=hunter2\n");
  for (const [p, c] of Object.entries(files)) {
    writeFileSync(`${disk}/${p}`, c);
    await ws.fs.writeFile(`/repo/${p}`, c);
  }
  const ours: unknown[] = [];
  const theirs: unknown[] = [];
  for (const argv of steps) {
    const r = await git.cli({ argv, cwd: "/repo", env: identityEnv() });
    const real = realGitResult(disk, ...argv);
    // Our checkout and stash pop print "Already on 'main'" / "Dropped stash@{0}" even with -q (another matter):
    // their exit codes are compared, and the trees and the status that follows them.
    const loose = QUIET_DIFFERS.has(argv.join(" "));
    ours.push(loose ? { argv, exitCode: r.exitCode } : { argv, exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr });
    theirs.push(loose ? { argv, exitCode: real.status } : { argv, exitCode: real.status, stdout: real.stdout, stderr: real.stderr });
  }
  return {
    ours,
    theirs,
    oursTree: await wsSnapshot(ws, "/repo"),
    theirTree: diskSnapshot(disk),
    secret: await ws.fs.readFile("/outside/secret.txt", "utf8").catch((e: { code: string }) => e.code),
    outside: (await ws.fs.find("/", "**")).map((e) => e.path).filter((p) => !p.startsWith("/repo")),
  };
}

describe("fix21 GB: on the host, a name leading two levels up is one literal file to every command", () => {
  const NAME = "..\\outside\\secret.txt";
  const SEQUENCES = [
    [["add", "-A"], ["diff", "--cached"], ["ls-files"]],
    [["add", NAME], ["commit", "-q", "-m", "two"], ["ls-tree", "HEAD"], ["log", "--format=%H %s"]],
    [["add", "-A"], ["reset", "--hard"], ["status", "--porcelain=v1"]],
    [["add", "-A"], ["checkout", "-q", "-f", "HEAD"], ["status", "--porcelain=v1"]],
    [["add", "-A"], ["stash"], ["status", "--porcelain=v1"], ["stash", "pop", "-q"], ["status", "--porcelain=v1"]],
    [["add", "-A"], ["rm", "-q", "--cached", NAME], ["status", "--porcelain=v1"]],
    [["clean", "-f"], ["status", "--porcelain=v1"]],
    [["status", "--porcelain=v1"], ["diff", "--stat"]],
  ];
  for (const steps of SEQUENCES) {
    it(steps.map((a) => a.join(" ")).join(" → "), async () => {
      const base = committedRepo({ "a.txt": "a\n" }, "one");
      const r = await both(base, { [NAME]: "innocent\n" }, steps);
      expect(r.ours).toEqual(r.theirs);
      expect(r.oursTree).toEqual(r.theirTree);
      expect(r.secret).toBe("TOKEN=hunter2\n");
      expect(r.outside).toEqual(["/outside", "/outside/secret.txt"]);
    });
  }

  it("the literal file's blob is staged (its own content, never the outside file's)", async () => {
    const base = committedRepo({ "a.txt": "a\n" }, "one");
    const { ws, git } = await workspaceCopy(base);
    await ws.fs.mkdir("/outside");
    await ws.fs.writeFile("/outside/secret.txt", "TOKEN=hunter2\n");
    await ws.fs.writeFile(`/repo/${NAME}`, "innocent\n");
    expect((await git.cli({ argv: ["add", "-A"], cwd: "/repo" })).exitCode).toBe(0);
    // "innocent\n" is feb9ccb…; the secret's blob would be another oid.
    expect((await git.cli({ argv: ["ls-files"], cwd: "/repo" })).stdout).toBe('"..\\\\outside\\\\secret.txt"\na.txt\n');
    expect(await git.hashObject({ dir: "/repo", content: "innocent\n" })).toBe("feb9ccbe8c56ccb298de117ff1b00c8af638e372");
    expect((await git.lsTree({ dir: "/repo", ref: "HEAD" })).map((e) => e.path)).toEqual(["a.txt"]);
    expect(await git.diff({ dir: "/repo", cached: true })).toBe(
      'diff --git "a/..\\\\outside\\\\secret.txt" "b/..\\\\outside\\\\secret.txt"\nnew file mode 100644\nindex 0000000..feb9ccb\n--- /dev/null\n+++ "b/..\\\\outside\\\\secret.txt"\n@@ -0,0 +1 @@\n+innocent\n',
    );
    expect(await git.status({ dir: "/repo" })).toEqual([{ path: NAME, index: "A", worktree: " " }]);
  });
});

describe("fix21 GB: the typed API with names holding backslashes", () => {
  it("status, add, diff, commit, stash and checkout treat x\\y.txt and new\\n.txt as files", async () => {
    const base = committedRepo({ "a.txt": "a\n", "x\\y.txt": "bs\n" }, "one");
    const { ws, git } = await workspaceCopy(base);
    const dir = "/repo";
    await ws.fs.writeFile("/repo/x\\y.txt", "BS\n");
    await ws.fs.writeFile("/repo/new\\n.txt", "n\n");
    expect(await git.status({ dir })).toEqual([
      { path: "new\\n.txt", index: " ", worktree: "?" },
      { path: "x\\y.txt", index: " ", worktree: "M" },
    ]);
    expect(await git.diff({ dir })).toBe(
      'diff --git "a/x\\\\y.txt" "b/x\\\\y.txt"\nindex 64b315f..c61dc22 100644\n--- "a/x\\\\y.txt"\n+++ "b/x\\\\y.txt"\n@@ -1 +1 @@\n-bs\n+BS\n',
    );
    await git.add({ dir, paths: ["."] });
    expect(await git.lsFiles({ dir })).toEqual(["a.txt", "new\\n.txt", "x\\y.txt"]);
    await git.commit({ dir, message: "two" });
    expect(await git.lsTree({ dir, ref: "HEAD" }).then((e) => e.map((x) => x.path))).toEqual(["a.txt", "new\\n.txt", "x\\y.txt"]);
    await ws.fs.writeFile("/repo/x\\y.txt", "again\n");
    await git.stashPush({ dir });
    expect(await ws.fs.readFile("/repo/x\\y.txt", "utf8")).toBe("BS\n");
    await git.stashPop({ dir });
    expect(await ws.fs.readFile("/repo/x\\y.txt", "utf8")).toBe("again\n");
    await git.checkout({ dir, ref: "HEAD", paths: ["x\\y.txt"] });
    expect(await ws.fs.readFile("/repo/x\\y.txt", "utf8")).toBe("BS\n");
    expect(await git.status({ dir })).toEqual([]);
    expect((await ws.fs.readdir("/repo")).map((e) => e.name)).toEqual([".git", "a.txt", "new\\n.txt", "x\\y.txt"]);
  });
});

describe("fix21 GB: other names isomorphic-git's path helpers misread", () => {
  it("a directory named c: (a Windows drive to isomorphic-git's join) and C:\\x.txt", async () => {
    const base = committedRepo({ "a.txt": "a\n" }, "one");
    const disk = diskCopy(base);
    const { ws, git } = await workspaceCopy(base);
    for (const [p, c] of [["c:/x.txt", "x\n"], ["C:\\x.txt", "y\n"]] as const) {
      execFileSync("mkdir", ["-p", `${disk}/c:`]);
      writeFileSync(`${disk}/${p}`, c);
      await ws.fs.mkdir("/repo/c:", { recursive: true });
      await ws.fs.writeFile(`/repo/${p}`, c);
    }
    for (const argv of [["status", "--porcelain=v1", "-uall"], ["add", "-A"], ["diff", "--cached", "--stat"], ["commit", "-q", "-m", "two"], ["ls-tree", "HEAD"], ["ls-tree", "HEAD", "c:/"]]) {
      const ours = await git.cli({ argv, cwd: "/repo", env: identityEnv() });
      const real = realGitResult(disk, ...argv);
      expect({ argv, exitCode: ours.exitCode, stdout: ours.stdout, stderr: ours.stderr }).toEqual({ argv, exitCode: real.status, stdout: real.stdout, stderr: real.stderr });
    }
  });

  it("a tracked file under a directory named a.. (the index reader refused any `../` in a path)", async () => {
    const base = committedRepo({ "a.txt": "a\n", "a../b.txt": "b\n" }, "one");
    const disk = diskCopy(base);
    const { ws, git } = await workspaceCopy(base);
    writeFileSync(`${disk}/a../b.txt`, "B\n");
    await ws.fs.writeFile("/repo/a../b.txt", "B\n");
    for (const argv of [["status", "--porcelain=v1"], ["ls-files"], ["diff", "--stat"], ["checkout", "--", "."], ["status", "--porcelain=v1"]]) {
      const ours = await git.cli({ argv, cwd: "/repo", env: identityEnv() });
      const real = realGitResult(disk, ...argv);
      expect({ argv, exitCode: ours.exitCode, stdout: ours.stdout, stderr: ours.stderr }).toEqual({ argv, exitCode: real.status, stdout: real.stdout, stderr: real.stderr });
    }
    expect(await ws.fs.readFile("/repo/a../b.txt", "utf8")).toBe("b\n");
  });

  it("a tree entry .git\\x is refused (git's core.protectNTFS check, on by default); nothing is written", async () => {
    const base = committedRepo({ "a.txt": "a\n" }, "one", (d) => {
      const blob = execFileSync("/usr/bin/git", ["hash-object", "-w", "--stdin"], { cwd: d, input: "[core]\n", encoding: "utf8" }).trim();
      const a = realGit(d, "rev-parse", "HEAD:a.txt").trim();
      const tree = execFileSync("/usr/bin/git", ["mktree"], { cwd: d, input: `100644 blob ${blob}\t.git\\config\n100644 blob ${a}\ta.txt\n`, encoding: "utf8" }).trim();
      realGit(d, "branch", "evil", realGit(d, "commit-tree", tree, "-p", "HEAD", "-m", "evil").trim());
    });
    const disk = diskCopy(base);
    const real = realGitResult(disk, "checkout", "-q", "evil");
    expect(real.status).not.toBe(0);
    expect(real.stderr).toContain("invalid path '.git\\config'");
    const { ws, git } = await workspaceCopy(base);
    const ours = await git.cli({ argv: ["checkout", "-q", "evil"], cwd: "/repo" });
    expect(ours).toEqual({ stdout: "", stderr: 'git checkout: The filepath ".git\\config" contains unsafe character sequences\n', exitCode: 1 });
    expect((await ws.fs.readdir("/repo")).map((e) => e.name)).toEqual([".git", "a.txt"]);
    expect(await git.currentBranch({ dir: "/repo" })).toBe("main");
  });
});

describe("fix21 GB: the backstop — every path an operation reaches stays under its repository", () => {
  async function setup() {
    const { ws, git } = newWorkspace();
    await git.init({ dir: "/w/repo" });
    await ws.fs.writeFile("/w/repo/a.txt", "a\n");
    await ws.fs.writeFile("/w/outside.txt", "TOKEN=hunter2\n");
    const ig = await loadIsomorphicGit();
    const bridge = await createWorkspaceFsBridge(ws);
    const ctx = containedContext({ git: ig.git, http: ig.http, fs: bridge as GitContext["fs"], cache: {}, workspace: ws }, ["/w/repo"]);
    return { ws, git, ctx };
  }
  const code = (p: Promise<unknown>) => p.then(() => "resolved", (e: { code?: string; message?: string }) => `${e.code}: ${e.message}`);

  it("isomorphic-git handed a path leading out (as a misread name would) fails EACCES; nothing staged, nothing read", async () => {
    const { ws, git, ctx } = await setup();
    expect(await code(ctx.git.add({ fs: ctx.fs, dir: "/w/repo", filepath: "../outside.txt", force: true }))).toBe(
      "EACCES: EACCES: paths must stay under /w/repo, lstat: /w/outside.txt",
    );
    expect(await code(ctx.git.add({ fs: ctx.fs, dir: "/w/repo", filepath: "a.txt" }))).toBe("resolved");
    expect(await git.lsFiles({ dir: "/w/repo" })).toEqual(["a.txt"]);
    expect(await ws.fs.readFile("/w/outside.txt", "utf8")).toBe("TOKEN=hunter2\n");
  });

  it("through isomorphic-git's fs and workspace.fs: reads, writes, removals, renames and link paths outside fail EACCES; inside works", async () => {
    const { ws, ctx } = await setup();
    const p = ctx.fs.promises as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
    expect(await code(p.readFile("/w/repo/../outside.txt", "utf8"))).toBe("EACCES: EACCES: paths must stay under /w/repo, readFile: /w/repo/../outside.txt");
    expect(await code(p.unlink("/w/outside.txt"))).toBe("EACCES: EACCES: paths must stay under /w/repo, unlink: /w/outside.txt");
    expect(await code(p.writeFile("/w/repo2/x", "x"))).toBe("EACCES: EACCES: paths must stay under /w/repo, writeFile: /w/repo2/x");
    expect(await code(p.rm("/w", { recursive: true }))).toBe("EACCES: EACCES: paths must stay under /w/repo, rm: /w");
    expect(await code(p.symlink("/anywhere", "/w/link"))).toBe("EACCES: EACCES: paths must stay under /w/repo, symlink: /w/link");
    expect(await code(p.readFile("c:/w/outside.txt"))).toBe("EACCES: EACCES: paths must stay under /w/repo, readFile: c:/w/outside.txt");
    expect(p.rmdir.length).toBe((await createWorkspaceFsBridge(ws)).promises.rmdir.length);
    const fs = ctx.workspace.fs;
    expect(await code(fs.rm("/w/outside.txt"))).toBe("EACCES: EACCES: paths must stay under /w/repo, rm: /w/outside.txt");
    expect(await code(fs.rename("/w/repo/a.txt", "/w/moved.txt"))).toBe("EACCES: EACCES: paths must stay under /w/repo, rename: /w/moved.txt");
    expect(await code(fs.readdir("/w"))).toBe("EACCES: EACCES: paths must stay under /w/repo, readdir: /w");
    // Inside the repository, everything works (a link's target is its content, not a path git reaches).
    expect(await code(p.symlink("../outside.txt", "/w/repo/l"))).toBe("resolved");
    expect(await p.readFile("/w/repo/a.txt", "utf8")).toBe("a\n");
    expect((await fs.readdir("/w/repo")).map((e) => e.name)).toEqual([".git", "a.txt", "l"]);
    expect(await ws.fs.readFile("/w/outside.txt", "utf8")).toBe("TOKEN=hunter2\n");
    expect((await ws.fs.readdir("/w")).map((e) => e.name)).toEqual(["outside.txt", "repo"]);
  });
});
