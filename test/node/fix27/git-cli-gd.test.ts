/**
 * Issue 20, twenty-seventh attack run, fixer GD — siblings of test/workers/attack27c/shell-git-ls-tree-path-operand,
 * shell-git-log-format-placeholders-printed-literally, shell-git-rev-path-dot-relative-to-cwd,
 * shell-git-show-stat-merge-commit-empty and the lead's `git diff --quiet`/`--exit-code` and `ls-tree nope` /
 * `cat-file -p <missing oid>` (exit 128), side by side with real git 2.39 (the helpers' disk copy): stdout, stderr
 * where they agree, and the exit status of each command, run from the root and from a subdirectory.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupScratch, committedRepo, diskCopy, identityEnv, realGitResult, workspaceCopy } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

/** A repository of `a.txt`, `d/b.txt`, `d/e/c.txt`, a name with a space, a tag and an annotated tag. */
function treeRepo(): string {
  return committedRepo({ "a.txt": "one\n", "d/b.txt": "b\n", "d/e/c.txt": "c\n", "s p/q r.txt": "q\n" }, "first", (d) => {
    realGitResult(d, "tag", "v1");
    realGitResult(d, "tag", "-a", "-m", "annotated", "v0");
    realGitResult(d, "branch", "side");
  });
}

/** Runs each argv in real git (in `disk` + `sub`) and ours (in `/repo` + `sub`); returns both lists of results. */
async function sideBySide(base: string, sub: string, cases: string[][], compareStderr = true) {
  const disk = diskCopy(base);
  const { git } = await workspaceCopy(base);
  const real: unknown[] = [];
  const ours: unknown[] = [];
  for (const argv of cases) {
    const r = realGitResult(join(disk, sub), ...argv);
    const o = await git.cli({ argv, cwd: sub === "" ? "/repo" : `/repo/${sub}`, env: identityEnv() });
    real.push({ argv: argv.join(" "), stdout: r.stdout, status: r.status, ...(compareStderr ? { stderr: r.stderr !== "" } : {}) });
    ours.push({ argv: argv.join(" "), stdout: o.stdout, status: o.exitCode, ...(compareStderr ? { stderr: o.stderr !== "" } : {}) });
  }
  return { real, ours };
}

describe("fix27 (GD): git ls-tree as git 2.39", () => {
  it("paths, -r, -t, -d, --name-only, --object-only, --full-name, --full-tree, -z, at the root and in a subdirectory", async () => {
    const base = treeRepo();
    const common = [
      ["ls-tree", "HEAD"],
      ["ls-tree", "-r", "HEAD"],
      ["ls-tree", "-r", "--name-only", "HEAD"],
      ["ls-tree", "-r", "-t", "HEAD"],
      ["ls-tree", "-d", "HEAD"],
      ["ls-tree", "-r", "-d", "HEAD"],
      ["ls-tree", "--object-only", "HEAD"],
      ["ls-tree", "--full-name", "HEAD"],
      ["ls-tree", "--full-tree", "HEAD"],
      ["ls-tree", "-z", "-r", "HEAD"],
      ["ls-tree", "--name-only", "-z", "HEAD"],
      ["ls-tree", "v0"],
      ["ls-tree", "v1^{tree}"],
      ["ls-tree", "HEAD", "nope"],
      ["ls-tree", "nope"],
      ["ls-tree", "-r", "HEAD~3"],
    ];
    const atRoot = [
      ...common,
      ["ls-tree", "HEAD", "d/b.txt"],
      ["ls-tree", "HEAD", "d"],
      ["ls-tree", "HEAD", "d/"],
      ["ls-tree", "--name-only", "HEAD", "d/e"],
      ["ls-tree", "-t", "HEAD", "d/e/c.txt"],
      ["ls-tree", "-r", "HEAD", "d"],
      ["ls-tree", "-d", "HEAD", "d"],
      ["ls-tree", "HEAD", "a.txt", "d/e/"],
      ["ls-tree", "HEAD", "s p"],
      ["ls-tree", "-r", "HEAD", "s p/"],
      ["ls-tree", "HEAD", "."],
      ["ls-tree", "HEAD", "--", "d"],
      ["ls-tree", "HEAD:d"],
      ["ls-tree", "HEAD:d", "e"],
      ["ls-tree", "HEAD", "d/b.txt/"],
    ];
    const inSub = [
      ...common,
      ["ls-tree", "--name-only", "HEAD", "e/"],
      ["ls-tree", "HEAD", "../a.txt"],
      ["ls-tree", "HEAD", ".."],
      ["ls-tree", "-t", "-r", "HEAD", ".."],
      ["ls-tree", "-r", "HEAD", "./e"],
      ["ls-tree", "HEAD", "e"],
      ["ls-tree", "--full-tree", "HEAD", "d"],
      ["ls-tree", "HEAD:d"],
      ["ls-tree", "HEAD:./e"],
    ];
    for (const [sub, cases] of [["", atRoot], ["d", inSub]] as const) {
      const { real, ours } = await sideBySide(base, sub, cases);
      expect(ours).toEqual(real);
    }
  }, 120_000);

  it("a tree-ish naming nothing and cat-file of a missing object die as git (128), with git's message", async () => {
    const base = treeRepo();
    const { git } = await workspaceCopy(base);
    const run = (...argv: string[]) => git.cli({ argv, cwd: "/repo", env: identityEnv() });
    const missing = "0123456789abcdef0123456789abcdef01234567";
    // Was: `git ls-tree: unknown revision 'nope'` 1; cat-file -p of a missing full oid: 1.
    expect(await run("ls-tree", "nope")).toEqual({ stdout: "", stderr: "git ls-tree: Not a valid object name nope\n", exitCode: 128 });
    expect(await run("ls-tree", "HEAD:zz")).toEqual({ stdout: "", stderr: "git ls-tree: Not a valid object name HEAD:zz\n", exitCode: 128 });
    expect(await run("cat-file", "-p", missing)).toEqual({ stdout: "", stderr: `git cat-file: Not a valid object name ${missing}\n`, exitCode: 128 });
    expect(await run("cat-file", "-t", missing)).toEqual({ stdout: "", stderr: "git cat-file: could not get object info\n", exitCode: 128 });
    expect(await run("cat-file", "-s", missing)).toEqual({ stdout: "", stderr: "git cat-file: could not get object info\n", exitCode: 128 });
    expect(await run("cat-file", "-e", missing)).toEqual({ stdout: "", stderr: "", exitCode: 1 });
    const disk = diskCopy(base);
    for (const argv of [["cat-file", "-p", missing], ["cat-file", "-t", missing], ["cat-file", "-e", missing], ["ls-tree", "nope"]]) {
      expect([argv.join(" "), realGitResult(disk, ...argv).status]).toEqual([argv.join(" "), (await run(...argv)).exitCode]);
    }
  }, 60_000);
});

describe("fix27 (GD): <rev>:./path and <rev>:../path are relative to the cwd", () => {
  it("show, cat-file, rev-parse and ls-tree in a subdirectory and at the root, as git", async () => {
    const base = treeRepo();
    const inSub = [
      ["show", "HEAD:./b.txt"],
      ["show", "HEAD:../a.txt"],
      ["show", "v1:./e/c.txt"],
      ["show", ":./b.txt"],
      ["cat-file", "-p", "HEAD:./e/c.txt"],
      ["cat-file", "-t", "HEAD:./e"],
      ["cat-file", "-s", "HEAD:../a.txt"],
      ["rev-parse", "HEAD:./b.txt", "HEAD:./e", "HEAD:../a.txt", "HEAD:./", "HEAD:../", "HEAD:./e/"],
      ["rev-parse", "HEAD:d/b.txt"],
      ["show", "HEAD:b.txt"],
    ];
    const atRoot = [
      ["show", "HEAD:./a.txt"],
      ["rev-parse", "HEAD:./d/b.txt", "HEAD:./"],
      ["cat-file", "-p", "HEAD:./d/e/c.txt"],
    ];
    for (const [sub, cases] of [["d", inSub], ["", atRoot]] as const) {
      const { real, ours } = await sideBySide(base, sub, cases);
      expect(ours).toEqual(real);
    }
    const { git } = await workspaceCopy(base);
    const run = (...argv: string[]) => git.cli({ argv, cwd: "/repo/d", env: identityEnv() });
    // git also echoes the argument on stdout before dying; the status is git's (was 1).
    expect(await run("rev-parse", "HEAD:./nope")).toEqual({ stdout: "", stderr: "git rev-parse: path 'd/nope' does not exist in 'HEAD'\n", exitCode: 128 });
    expect(await run("show", "HEAD:../../x")).toEqual({ stdout: "", stderr: "git show: '../../x' is outside repository at '/repo'\n", exitCode: 128 });
  }, 120_000);
});

describe("fix27 (GD): log/show --format placeholders as git 2.39", () => {
  it("dates, times, names, %d/%D decorations, %f, %m, %S, %x, colours, magic, unknown ones kept", async () => {
    const base = treeRepo();
    const disk0 = diskCopy(base);
    // a second commit on main with other dates and zones, a remote-tracking ref, a stash, a ref git does not decorate
    const env = { author: "1700000000 +0130", committer: "1700003600 -0800" };
    const dated = (d: string, ...args: string[]) =>
      execFileSync("/usr/bin/git", args, {
        cwd: d,
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: d, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", ...identityEnv(), GIT_AUTHOR_DATE: env.author, GIT_COMMITTER_DATE: env.committer, LC_ALL: "C" },
      });
    execFileSync("sh", ["-c", "echo two >> a.txt"], { cwd: disk0 });
    dated(disk0, "commit", "-qam", "second:  the  [subject]...  here!\n\nbody line\n");
    dated(disk0, "update-ref", "refs/remotes/origin/main", "HEAD");
    dated(disk0, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main");
    dated(disk0, "remote", "add", "origin", "https://example.com/r.git");
    dated(disk0, "update-ref", "refs/other/x", "HEAD");
    dated(disk0, "branch", "zz", "HEAD~1");
    const formats = [
      "%h%x09%s|%ci|%ai|%ct|%at|%cI|%aI|%as|%cs|%aD|%cD|%ar|%cr",
      "[%d][%D]",
      "%an|%aN|%ae|%aE|%al|%aL|%cn|%cN|%ce|%cE|%cl|%cL",
      "%f|%m|%S|%e|%N|%gd|%gs|%Cred%Creset%C(red)%C(auto)x",
      "%z|%a|%az|%xZZ|%x4|%x41|%(foo)|%q|%",
      "%s%+b%-n%n|% s|%+e|% e|%-e",
      "%T %t %P %p %H",
    ];
    const cases = formats.flatMap((f) => [["log", `--format=${f}`], ["log", `--pretty=format:${f}`], ["show", "-s", `--format=${f}`, "HEAD~1"]]);
    const { real, ours } = await sideBySide(disk0, "", [...cases, ["log", "--format=%S %h", "side"], ["log", "--format="], ["log", "--format=format:"]]);
    expect(ours).toEqual(real);
    // Detached HEAD: `HEAD` alone, then the branches.
    dated(disk0, "checkout", "-q", "--detach", "HEAD~1");
    const detached = await sideBySide(disk0, "", [["log", "--format=%D"]]);
    expect(detached.ours).toEqual(detached.real);
  }, 120_000);

  it("refuses a placeholder git knows that is not implemented (129) rather than print it", async () => {
    const { git } = await workspaceCopy(treeRepo());
    const run = (...argv: string[]) => git.cli({ argv, cwd: "/repo", env: identityEnv() });
    for (const [format, named] of [["%<(10)%s", "%<(10)"], ["%w(20,2)%s", "%w(20,2)"], ["%G?", "%G?"], ["%ah", "%ah"], ["%C(always,red)x", "%C(always,red)"], ["%(describe)", "%(describe…)"]]) {
      expect(await run("log", `--format=${format}`)).toEqual({
        stdout: "",
        stderr: `git log: unsupported --format placeholder '${named}' (see docs/git.md for the supported ones)\n`,
        exitCode: 129,
      });
    }
  }, 60_000);
});

describe("fix27 (GD): git show of a merge, --stat and the blank lines as git", () => {
  it("--stat against the first parent; --oneline, --format=, format:, tformat, -s; an ordinary commit alike", async () => {
    const base = committedRepo({ "a.txt": "one\n", "b.txt": "b\n" }, "first", (d) => {
      execFileSync("sh", ["-c", "echo two > a.txt"], { cwd: d });
      realGitResult(d, "commit", "-qam", "second");
      realGitResult(d, "checkout", "-q", "-b", "f", "HEAD~1");
      execFileSync("sh", ["-c", "echo bb > b.txt"], { cwd: d });
      realGitResult(d, "commit", "-qam", "fb");
      realGitResult(d, "checkout", "-q", "main");
      realGitResult(d, "merge", "-q", "-m", "M", "f");
    });
    const variants = [[], ["--stat"], ["--oneline"], ["--stat", "--oneline"], ["--format=%s"], ["--stat", "--format=%s"], ["--format="], ["--stat", "--format="], ["--format=format:%s"], ["--stat", "--format=format:%s"], ["-s", "--format=format:%s"], ["-s", "--oneline"], ["--pretty=oneline"], ["--stat", "--pretty=oneline"]];
    // `--date=iso`: the default block's dates are ISO here (docs/git.md), as git's with it.
    const cases = ["HEAD", "HEAD^2"].flatMap((rev) => variants.map((v) => ["show", "--date=iso", ...v, rev]));
    const { real, ours } = await sideBySide(base, "", cases);
    expect(ours).toEqual(real);
  }, 120_000);
});

describe("fix27 (GD): git diff --quiet and --exit-code", () => {
  it("exit 1 when there are differences, 0 when none; --quiet prints nothing; --cached, refs, paths, --stat", async () => {
    const base = committedRepo({ "a.txt": "one\n", "b.txt": "b\n" }, "first", (d) => {
      execFileSync("sh", ["-c", "echo two > a.txt; echo new > n.txt; git add n.txt"], { cwd: d });
    });
    const cases = [
      ["diff", "--quiet"],
      ["diff", "--exit-code"],
      ["diff", "--quiet", "--", "b.txt"],
      ["diff", "--exit-code", "--", "b.txt"],
      ["diff", "--cached", "--quiet"],
      ["diff", "--staged", "--exit-code", "--name-only"],
      ["diff", "--cached", "--quiet", "--", "a.txt"],
      ["diff", "--quiet", "HEAD"],
      ["diff", "--quiet", "HEAD", "HEAD"],
      ["diff", "--exit-code", "--stat"],
      ["diff", "--exit-code", "--numstat", "HEAD"],
      ["diff", "--exit-code", "--name-status", "--cached"],
      ["diff", "--quiet", "--stat"],
      ["diff", "--quiet", "nope", "--"],
    ];
    const { real, ours } = await sideBySide(base, "", cases);
    expect(ours).toEqual(real);
  }, 120_000);
});
