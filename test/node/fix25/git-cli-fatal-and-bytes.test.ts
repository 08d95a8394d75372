/**
 * Issue 20, twenty-fifth attack run, fixer FG — siblings of test/workers/attack25c/shell-git-show-binary-blob-mangled
 * and of the exit statuses the run found (`git branch b` / `git tag v1` that exist, `git switch nope`: real git 128,
 * ours 1), side by side with real git 2.39 (the helpers' disk copy).
 *
 * 1. Exit statuses: every case below is `fatal:` (128) in real git and exited 1 here; the `error:` cases (1 in real
 *    git: `branch -d`/`tag -d` of a missing name, `checkout <unknown>`, `merge <unknown>`) keep 1. Our messages are
 *    the documented `git <sub>: <message>`; only `<rev>:<path>` naming nothing changed text (it printed
 *    isomorphic-git's `Could not find file or directory found at "<oid>:<path>".`).
 * 2. Bytes: `show <rev>:<path>`, `cat-file -p`, `diff` and `show <commit>` of a file that is not UTF-8 give real git's bytes
 *    once the surrogate escapes are encoded back (what the shell does); the typed `diff` gives the same text.
 */
import { execFileSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { utf8EscapeEncode } from "../../../src/util/utf8-escape.js";
import { cleanupScratch, committedRepo, diskCopy, identityEnv, realGitResult, workspaceCopy } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

/** Real git's stdout as bytes (the helpers decode it as UTF-8). */
function realGitBytes(cwd: string, ...args: string[]): Uint8Array {
  return new Uint8Array(
    execFileSync("/usr/bin/git", args, {
      cwd,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: cwd, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", ...identityEnv(), LC_ALL: "C" },
      stdio: ["pipe", "pipe", "pipe"],
    }),
  );
}

describe("fix25 (FG): the git CLI exits 128 where real git dies with fatal:", () => {
  it("branch/tag that exist, unknown revisions, switch to no branch, <rev>:<path> naming nothing — statuses as real git", async () => {
    const base = committedRepo({ "a.txt": "a\n" }, "one", (d) => {
      realGitResult(d, "branch", "b");
      realGitResult(d, "tag", "v1");
    });
    const fatal: string[][] = [
      ["branch", "b"],
      ["tag", "v1"],
      ["switch", "nope"],
      ["switch", "v1"],
      ["switch", "--detach", "nope"],
      ["checkout", "-b", "b"],
      ["switch", "-c", "b"],
      ["branch", "x", "nope"],
      ["branch", "-f", "main"],
      ["branch", "-f", "b", "nope"],
      ["tag", "v2", "nope"],
      ["tag", "-f", "v1", "nope"],
      ["checkout", "-b", "b3", "nope"],
      ["checkout", "-B", "b", "nope"],
      ["switch", "-c", "b2", "nope"],
      ["show", "nope"],
      ["show", "HEAD:missing"],
      ["log", "nope"],
      ["rev-parse", "nope"],
      ["rev-parse", "--verify", "nope"],
      ["rev-parse", "--abbrev-ref", "nope"],
      ["cat-file", "-p", "nope"],
      ["cat-file", "-p", "HEAD:missing"],
      ["diff", "nope", "--", "a.txt"],
      ["cat-file", "-e", "HEAD:missing"],
      ["cat-file", "-e", "nope"],
    ];
    const error1: string[][] = [["branch", "-d", "nope"], ["tag", "-d", "nope"], ["checkout", "nope"], ["merge", "nope"], ["branch", "-d", "main"], ["cat-file", "-e", "0123456789abcdef0123456789abcdef01234567"], ["rev-parse", "--verify", "-q", "nope"]];
    const real: string[] = [];
    const ours: string[] = [];
    for (const argv of [...fatal, ...error1]) {
      const disk = diskCopy(base);
      const { git } = await workspaceCopy(base);
      real.push(`${argv.join(" ")} → ${realGitResult(disk, ...argv).status}`);
      ours.push(`${argv.join(" ")} → ${(await git.cli({ argv, cwd: "/repo", env: identityEnv() })).exitCode}`);
    }
    expect(real).toEqual([...fatal.map((a) => `${a.join(" ")} → 128`), ...error1.map((a) => `${a.join(" ")} → 1`)]);
    // Before: every fatal case → 1.
    expect(ours).toEqual(real);
  }, 120_000);

  it("keeps the documented messages; <rev>:<path> names the path as git; nothing changes", async () => {
    const base = committedRepo({ "a.txt": "a\n" }, "one", (d) => {
      realGitResult(d, "branch", "b");
      realGitResult(d, "tag", "v1");
    });
    const { ws, git } = await workspaceCopy(base);
    const run = async (...argv: string[]) => git.cli({ argv, cwd: "/repo", env: identityEnv() });
    const head = (await run("rev-parse", "HEAD")).stdout;
    expect(await run("branch", "b")).toEqual({ stdout: "", stderr: "git branch: a branch named 'b' already exists\n", exitCode: 128 });
    expect(await run("tag", "v1")).toEqual({ stdout: "", stderr: "git tag: tag 'v1' already exists\n", exitCode: 128 });
    expect(await run("switch", "nope")).toEqual({ stdout: "", stderr: "git switch: invalid reference: nope (a branch is expected; use --detach for a commit)\n", exitCode: 128 });
    expect(await run("switch", "--detach", "nope")).toEqual({ stdout: "", stderr: "git switch: invalid reference: nope\n", exitCode: 128 });
    expect(await run("checkout", "-b", "b")).toEqual({ stdout: "", stderr: "git checkout: a branch named 'b' already exists\n", exitCode: 128 });
    expect(await run("switch", "-c", "n", "nope")).toEqual({ stdout: "", stderr: "git switch: unknown revision 'nope'\n", exitCode: 128 });
    expect(await run("branch", "-f", "main")).toEqual({ stdout: "", stderr: "git branch: cannot force update the current branch 'main'\n", exitCode: 128 });
    expect(await run("show", "HEAD:missing")).toEqual({ stdout: "", stderr: "git show: path 'missing' does not exist in 'HEAD'\n", exitCode: 128 });
    expect(await run("cat-file", "-p", "v1:missing")).toEqual({ stdout: "", stderr: "git cat-file: path 'missing' does not exist in 'v1'\n", exitCode: 128 });
    expect(await run("diff", "nope", "--", "a.txt")).toEqual({ stdout: "", stderr: "git diff: unknown revision 'nope'\n", exitCode: 128 });
    // Nothing was created or moved.
    expect((await run("branch")).stdout).toBe("  b\n* main\n");
    expect((await run("tag")).stdout).toBe("v1\n");
    expect((await run("rev-parse", "HEAD")).stdout).toBe(head);
    expect((await run("status", "--porcelain")).stdout).toBe("");
    expect(await ws.fs.stat("/repo/.git/refs/heads/n").then(() => "exists", (e: { code?: string }) => e.code)).toBe("ENOENT");
  }, 60_000);

  it("local changes in the way of checkout -b <start> stay exit 1 (real git: error:, not fatal:)", async () => {
    const base = committedRepo({ "a.txt": "a\n" }, "one", (d) => {
      realGitResult(d, "checkout", "-q", "-b", "other");
      execFileSync("sh", ["-c", "echo other > a.txt"], { cwd: d });
      realGitResult(d, "commit", "-qam", "two");
      realGitResult(d, "checkout", "-q", "main");
      execFileSync("sh", ["-c", "echo mine > a.txt"], { cwd: d });
    });
    const disk = diskCopy(base);
    const { git } = await workspaceCopy(base);
    const real = realGitResult(disk, "checkout", "-b", "nb", "other");
    const ours = await git.cli({ argv: ["checkout", "-b", "nb", "other"], cwd: "/repo", env: identityEnv() });
    expect([real.status, ours.exitCode]).toEqual([1, 1]);
    expect((await git.cli({ argv: ["branch"], cwd: "/repo" })).stdout).toBe("* main\n  other\n");
  }, 60_000);
});

describe("fix25 (FG): a file that is not UTF-8 keeps its bytes through the git CLI and the typed diff", () => {
  const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

  it("show <rev>:<path>, cat-file -p, diff and show <commit>: real git's bytes once escapes are encoded back", async () => {
    const base = committedRepo({ "t.txt": latin1("caf\xe9\n"), "bin.dat": latin1("\x89PNG\xff\x00\xc3(\n") }, "one", (d) => {
      execFileSync("sh", ["-c", "printf 'caf\\351 au lait\\n' > t.txt; printf '\\211PNG\\377\\000\\303)\\n' > bin.dat"], { cwd: d });
    });
    const disk = diskCopy(base);
    const { git } = await workspaceCopy(base);
    const cli = async (...argv: string[]) => {
      const r = await git.cli({ argv, cwd: "/repo", env: identityEnv() });
      expect([argv.join(" "), r.stderr, r.exitCode]).toEqual([argv.join(" "), "", 0]);
      return r.stdout;
    };
    const same = async (...argv: string[]) => {
      const ours = await cli(...argv);
      expect({ argv: argv.join(" "), bytes: [...utf8EscapeEncode(ours)] }).toEqual({ argv: argv.join(" "), bytes: [...realGitBytes(disk, ...argv)] });
      return ours;
    };
    expect(await same("show", "HEAD:bin.dat")).toBe("\udc89PNG\udcff\x00\udcc3(\n"); // U+FFFD ×3 before
    await same("cat-file", "-p", "HEAD:t.txt");
    await same("cat-file", "-p", "HEAD:bin.dat");
    // The text file's patch keeps é's byte (0xe9); the one with a NUL is "Binary files … differ", as git.
    const patch = await same("diff");
    expect(patch).toContain("-caf\udce9\n+caf\udce9 au lait\n");
    expect(patch).toContain("Binary files a/bin.dat and b/bin.dat differ\n");
    await same("diff", "--numstat");
    await cli("commit", "-qam", "two");
    realGitBytes(disk, "commit", "-qam", "two");
    await same("show", "--format=%s", "HEAD");
    await same("diff", "HEAD~1", "HEAD");
    // The typed API's patch is the same text.
    expect(await git.diff({ dir: "/repo", ref: "HEAD~1", to: "HEAD" })).toBe(await cli("diff", "HEAD~1", "HEAD"));
  }, 60_000);
});
