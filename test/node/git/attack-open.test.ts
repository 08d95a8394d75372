/**
 * OPEN defects found by the attack tests (issue 15 "Bad input", issue 20):
 * each test here FAILS today and passes once its defect is fixed. When one
 * passes, move it into the matching attack-*.test.ts file. The cause and
 * the proposed fix are given above each test.
 */
import { afterAll, describe, expect, it } from "vitest";
import { cleanupScratch, exportDir, realGit, realGitResult, realRepo, workspaceCopy, writeTree, wsSnapshot } from "./worktree-helpers.js";
import { failure, within, wsEverything } from "./attack-helpers.js";

afterAll(cleanupScratch);

function disk() {
  return realRepo((d) => {
    writeTree(d, { "a.txt": "a\n", "sub/b.txt": "b\n" });
    realGit(d, "add", "-A");
    realGit(d, "commit", "-q", "-m", "base");
    writeTree(d, { "a.txt": "edited\n", "new.txt": "new\n" });
  });
}

describe("an index that is a directory", () => {
  // Cause: isomorphic-git's FileSystem.read turns EISDIR into `null`, so the index reads as empty;
  // `commit` (src/git/ops/repo.ts) then writes a commit of the EMPTY tree (deleting every file from
  // history) and `status` lists each tracked file twice (D and ?). Fix: call `assertIndexFile(ctx, dir)`
  // (src/git/ops/tree-state.ts, already used by flatIndex) at the start of repo.ts `commit`, `status`,
  // `add`, `rm`, `diff`/`diffSummary` (when they read the index) and `lsFiles`.
  it("commit refuses (ECOMMITFAIL) and HEAD stays; status refuses (ESTATUSFAIL)", { timeout: 30_000 }, async () => {
    const { ws, git, dir } = await workspaceCopy(disk());
    await ws.fs.rm(`${dir}/.git/index`);
    await ws.fs.mkdir(`${dir}/.git/index`);
    const head = await git.revParse({ dir, ref: "HEAD" });
    expect(await failure(within(10_000, git.commit({ dir, message: "m" })))).toMatchObject({ code: "ECOMMITFAIL", isGitError: true });
    expect(await git.revParse({ dir, ref: "HEAD" })).toBe(head);
    expect(await failure(within(10_000, git.status({ dir })))).toMatchObject({ code: "ESTATUSFAIL", isGitError: true });
  });
});

describe("add through a symlinked directory", () => {
  // Real git: `fatal: pathspec 'escape/secret.txt' is beyond a symbolic link` (128), and for `escape/`
  // the same. Ours: `add escape/secret.txt` resolves and stages nothing; `add escape/` stages the link.
  // Cause: src/git/ops/repo.ts `add` (pathspec matching in ops/pathspec.ts) walks the working tree
  // without checking leading components for links. Fix: before matching, lstat each leading component of
  // every given path under `dir`; a link there → PathspecNotFoundError-like GitError `EPATHSPEC`
  // ("pathspec '<p>' is beyond a symbolic link"), CLI exit 128.
  it("add escape/secret.txt and escape/ fail like real git; nothing staged", { timeout: 30_000 }, async () => {
    const { ws, git, dir } = await workspaceCopy(disk());
    await ws.fs.mkdir("/outside");
    await ws.fs.writeFile("/outside/secret.txt", "secret\n");
    await ws.fs.symlink("/outside", `${dir}/escape`);
    for (const path of ["escape/secret.txt", "escape/"]) {
      const r = await within(10_000, git.cli({ argv: ["add", path], cwd: dir }));
      expect({ path, exitCode: r.exitCode, stderr: r.stderr }).toEqual({ path, exitCode: 128, stderr: `git add: pathspec '${path}' is beyond a symbolic link\n` });
    }
    expect(await git.lsFiles({ dir })).toEqual(["a.txt", "sub/b.txt"]);
  });
});

describe("configSet with invalid keys", () => {
  // Real git: `error: key does not contain a section: a` / `invalid key: a.\nb` (exit 1/2), config untouched.
  // Ours: `a` and `a.\nb` resolve and append an empty `[a]` section; `a.b c`, `.x`, `x.` resolve and
  // write nothing (silently). Cause: src/git/ops/repo.ts `configSet` passes `path` to isomorphic-git's
  // setConfig unchecked. Fix: validate `path` as git does (section `[A-Za-z0-9.-]+`, optional
  // subsection, variable name `^[A-Za-z][A-Za-z0-9-]*$`, no newline) and throw GitError `EUSAGE`
  // `invalid key: <path>` (CLI: exit 1, `git config: invalid key: <path>`).
  it("each invalid key is a GitError; .git/config is unchanged", { timeout: 30_000 }, async () => {
    const { ws, git, dir } = await workspaceCopy(disk());
    const before = await ws.fs.readFile(`${dir}/.git/config`, "utf8");
    for (const path of ["a", "a.\nb", "a.b c", ".x", "x.", "core]\n[evil.x", "core.fsmonitor\n[x]"]) {
      const error = await failure(within(10_000, git.configSet({ dir, path, value: "v" })));
      expect({ path, error: error && { isGitError: error.isGitError } }).toEqual({ path, error: { isGitError: true } });
    }
    expect(await ws.fs.readFile(`${dir}/.git/config`, "utf8")).toBe(before);
  });
});

describe("init with an invalid branch name", () => {
  // Ours: `git init: git init: defaultBranch "a..b" is not a valid branch name`, exit 1 (the prefix twice).
  // Real git: `fatal: invalid initial branch name: 'a..b'`, exit 128. Cause: src/git/ops/repo.ts `init` puts
  // "git init: " into its EUSAGE message and the CLI adds `git <sub>: ` again. Fix: drop the prefix from the
  // op's message (spec 04 §2.4: usage messages carry no `git <op>` prefix of their own), and map the
  // CLI's init usage error to 128 as real git does (or keep 1 and document it in the §2.5 table).
  it("cli init -b a..b: one prefix", { timeout: 30_000 }, async () => {
    const { git } = (await import("./worktree-helpers.js")).newWorkspace();
    const r = await within(10_000, git.cli({ argv: ["init", "-b", "a..b", "/r"] }));
    expect(r.stderr).toBe('git init: defaultBranch "a..b" is not a valid branch name\n');
  });
});

describe("concurrent commits on one repository", () => {
  // Five commits started together all resolve with their own oid, but the branch ends at the last one:
  // four "successful" commits are not in the history (HEAD = c4, parent base). Real git serialises on
  // the ref lock: the others fail ("cannot lock ref 'HEAD'"). Cause: src/git/ops/repo.ts `commit` reads
  // the parent, writes the commit, then writes the ref with no compare-and-swap, and nothing in
  // src/git/client.ts serialises operations on one repository. Fix (either): (a) in client.ts, run every
  // mutating method through a per-client async queue keyed by the resolved gitdir (reads may skip it;
  // nested op calls must not re-enter the queue); or (b) in commit (and merge/reset/checkout/branch/
  // updateRef), re-read the ref just before writing it and fail `E<OP>FAIL` "cannot lock ref '<ref>':
  // it moved from <old> to <new>" when it changed.
  it("every commit that resolves is in the history", { timeout: 30_000 }, async () => {
    const { ws, git, dir } = await workspaceCopy(disk());
    await ws.fs.writeFile(`${dir}/x.txt`, "x\n");
    await git.add({ dir, paths: ["x.txt"] });
    const results = await Promise.allSettled(Array.from({ length: 5 }, (_, i) => within(10_000, git.commit({ dir, message: `c${i}` }))));
    for (const r of results) if (r.status === "rejected") expect((r.reason as { code?: string }).code).toBe("ECOMMITFAIL");
    const oids = results.flatMap((r) => (r.status === "fulfilled" ? [r.value.oid] : []));
    const history = (await git.log({ dir })).map((c) => c.oid);
    expect(oids.filter((oid) => !history.includes(oid))).toEqual([]);
  });
});
