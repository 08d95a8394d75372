/**
 * Issue 20, twenty-third attack run, fixer GB: siblings of test/workers/attack23b/git-cli-branch-d-deletes-unmerged-
 * branch.test.ts and git-cli-show-tree-prints-raw-object.test.ts. Each expectation is what git 2.39.5 printed on this
 * machine for the same script, with the CLI's `git <sub>: ` prefix where git writes `error: ` / `fatal: ` (and no
 * trailing `.` after `branch '<b>' not found`).
 */
import { describe, expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "T", email: "t@e" } } };

/** Runs `script` in a fresh /workspace and returns its stdout, stderr and exit code. */
async function run(script: string): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  return inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const r = await sh(ws, script, { cwd: "/workspace" });
    return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
  }, withGit);
}

const INIT = "git init -q -b main . && echo a > a.txt && git add a.txt && git commit -q -m init";
const NOT_MERGED = (b: string) => `git branch: The branch '${b}' is not fully merged.\nIf you are sure you want to delete it, run 'git branch -D ${b}'.\n`;

describe("git branch -d: only merged branches (git 2.39's branch_merged)", () => {
  it("goes on past a failure: an unmerged branch kept, a missing one named, a merged one deleted; exit 1; -d -f and -D delete", async () => {
    const r = await run(
      `${INIT} && git branch m && git checkout -q -b f && echo f > f.txt && git add f.txt && git commit -q -m f && git checkout -q main && ` +
        "git rev-parse --short m && git rev-parse --short f && git branch -d f gone m; echo rc=$?; git branch; git branch -d -f f; echo rc=$?; " +
        "git branch -d main; echo rc=$?; git checkout -q -b g && git commit -q --allow-empty -m g && git checkout -q main && git branch -D g >/dev/null; echo rc=$?; git branch",
    );
    const [m, f] = r.stdout.split("\n");
    expect(r.stdout).toBe(`${m}\n${f}\nDeleted branch m (was ${m}).\nrc=1\n  f\n* main\nDeleted branch f (was ${f}).\nrc=0\nrc=1\nrc=0\n* main\n`);
    expect(r.stderr).toBe(`${NOT_MERGED("f")}git branch: branch 'gone' not found\ngit branch: cannot delete branch 'main' checked out at '/workspace'\n`);
  });

  it("a branch with an upstream is merged when its upstream's tip holds it; git's warnings when HEAD disagrees", async () => {
    const r = await run(
      `${INIT} && git branch up && git branch old && git checkout -q -b f && echo f > f.txt && git add f.txt && git commit -q -m f && git checkout -q main && ` +
        "git config branch.f.remote . && git config branch.f.merge refs/heads/up && git branch -d f; echo rc=$?; " +
        "git branch -f up f && git branch -d f >/dev/null; echo rc=$?; " +
        "echo b > b.txt && git add b.txt && git commit -q -m b && git branch g && git config branch.g.remote . && git config branch.g.merge refs/heads/old && " +
        "git branch -d g; echo rc=$?; git branch",
    );
    expect(r.stdout).toBe("rc=1\nrc=0\nrc=1\n  g\n* main\n  old\n  up\n");
    expect(r.stderr).toBe(
      NOT_MERGED("f") +
        "warning: deleting branch 'f' that has been merged to\n         'refs/heads/up', but not yet merged to HEAD.\n" +
        "warning: not deleting branch 'g' that is not yet merged to\n         'refs/heads/old', even though it is merged to HEAD.\n" +
        NOT_MERGED("g"),
    );
  });

  it("an unborn HEAD holds nothing: -d refuses, -D deletes", async () => {
    const r = await run(`${INIT} && git branch m && git symbolic-ref HEAD refs/heads/none && git branch -d m; echo rc=$?; git branch -D m >/dev/null; echo rc=$?; git branch`);
    expect(r).toEqual({ stdout: "rc=1\nrc=0\n  main\n", stderr: NOT_MERGED("m"), exitCode: 0 });
  });
});

describe("invalid branch and tag names exit 128, as git", () => {
  it("branch, branch -f, tag, checkout -b, switch -c", async () => {
    const r = await run(
      `${INIT} && git branch 'a..b'; echo rc=$?; git tag 'a..b'; echo rc=$?; git checkout -b 'a..b'; echo rc=$?; git switch -c 'x y'; echo rc=$?; ` +
        "git branch HEAD; echo rc=$?; git branch -f 'a..b'; echo rc=$?; git branch; git tag",
    );
    expect(r.stdout).toBe("rc=128\nrc=128\nrc=128\nrc=128\nrc=128\nrc=128\n* main\n");
    expect(r.stderr).toBe(
      "git branch: 'a..b' is not a valid branch name\ngit tag: 'a..b' is not a valid tag name\ngit checkout: 'a..b' is not a valid branch name\n" +
        "git switch: 'x y' is not a valid branch name\ngit branch: 'HEAD' is not a valid branch name\ngit branch: 'a..b' is not a valid branch name\n",
    );
  });
});

describe("trees by revision: show, cat-file, rev-parse", () => {
  it("show <tree> for HEAD^{tree}, HEAD:, a tree's oid, <tree>:<dir>, a trailing /; show <blob oid>; show <tree>:<file>", async () => {
    const r = await run(
      "git init -q -b main . && mkdir -p d/e && echo b > d/b.txt && echo c > d/e/c.txt && echo a > a.txt && git add -A && git commit -qm init && " +
        'git show "HEAD^{tree}" && git show HEAD: && git rev-parse HEAD:d && git show $(git rev-parse HEAD:d) && git show $(git rev-parse HEAD:a.txt) && ' +
        'git show "HEAD^{tree}:d/b.txt" && git show "HEAD^{tree}:d" && git show HEAD:d/; echo rc=$?',
    );
    const d = r.stdout.split("\n")[8]!;
    expect(d).toMatch(/^[0-9a-f]{40}$/);
    expect(r).toEqual({
      stdout:
        "tree HEAD^{tree}\n\na.txt\nd/\ntree HEAD:\n\na.txt\nd/\n" +
        `${d}\ntree ${d}\n\nb.txt\ne/\na\nb\ntree HEAD^{tree}:d\n\nb.txt\ne/\ntree HEAD:d/\n\nb.txt\ne/\nrc=0\n`,
      stderr: "",
      exitCode: 0,
    });
  });

  it("cat-file -p HEAD: lists the root tree (it printed the commit); ^{tree} of a tree and <tree>:<path> resolve", async () => {
    const r = await run(
      "git init -q -b main . && mkdir -p d/e && echo b > d/b.txt && echo a > a.txt && git add -A && git commit -qm init && " +
        'git cat-file -p HEAD: > p.txt && git ls-tree HEAD > l.txt && diff p.txt l.txt && git cat-file -t "HEAD^{tree}:d" && ' +
        'test "$(git rev-parse "HEAD^{tree}^{tree}")" = "$(git rev-parse "HEAD^{tree}")" && git rev-parse "$(git rev-parse "HEAD^{tree}"):d" > t.txt && ' +
        'test "$(cat t.txt)" = "$(git rev-parse HEAD:d)" && echo same; git show "HEAD^{commit}" -s --format=%s; git show nosuch; echo rc=$?',
    );
    // rc=128 as real git's fatal (1 before issue 20's twenty-fifth attack run).
    expect(r.stdout).toBe("tree\nsame\ninit\nrc=128\n");
    expect(r.stderr).toBe("git show: unknown revision 'nosuch'\n");
  });
});
