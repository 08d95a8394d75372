/**
 * Issue 20, twenty-second attack run (fixer G1), siblings of test/workers/attack22b/git-deleted-index-comes-back-
 * from-cache.test.ts, git-ignore-negated-directory-rule-ignored.test.ts and git-ignore-bracket-negation-inverted
 * .test.ts, in real workerd, each expectation what git 2.39.5 printed for the same commands:
 *   - the index cache (isomorphic-git's isIndexStale, patched by scripts/gen-git.mjs) the other way round: an
 *     index read as missing, then put back (`cp saved .git/index`), is read again; and the typed API (status, add,
 *     commit) after `rm .git/index` sees the empty index;
 *   - the ignore decisions (src/git/ops/ignores.ts) of `clean` (files and `-d` directories), of `add <path>` (a
 *     re-included directory is not refused), of a re-inclusion in a deeper `.gitignore` of a directory a rule
 *     above excludes (`lib/` at the root, `!lib/` in src/.gitignore: git's last match wins, the deeper file's
 *     last), of a directory-only rule (`top.txt/`) on a file, and of the typed API's status and clean.
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "T", email: "t@e" } } };
const init = "git init -q -b main; git config user.name T; git config user.email t@e; ";
const setup = `${init}mkdir -p src/lib docs; for f in src/a.ts src/lib/b.ts docs/r.md top.txt; do echo 1 > "$f"; done; `;

it("an index read as missing and then put back is read again; the typed API sees a deleted index as empty", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/i1", { recursive: true });
    const back = await sh(ws, `${init}echo x > a; git add a; cp .git/index ../saved; rm .git/index; git status --porcelain=v1; echo --; cp ../saved .git/index; git status --porcelain=v1`, {
      cwd: "/workspace/i1",
    });
    await ws.fs.mkdir("/workspace/i2", { recursive: true });
    await sh(ws, `${init}echo x > a; git add a; git commit -q -m one; git status --porcelain=v1; rm .git/index`, { cwd: "/workspace/i2" });
    const afterRm = await ws.git.status({ dir: "/workspace/i2" });
    await ws.fs.writeFile("/workspace/i2/b", "y\n");
    await ws.git.add({ dir: "/workspace/i2", paths: ["b"] });
    await ws.git.commit({ dir: "/workspace/i2", message: "two" });
    const tree = await sh(ws, "git ls-tree --name-only HEAD; git status --porcelain=v1", { cwd: "/workspace/i2" });
    return { back: [back.stdout, back.stderr, back.exitCode], afterRm, tree: [tree.stdout, tree.stderr, tree.exitCode] };
  }, withGit);
  expect(out).toEqual({
    back: ["?? a\n--\nA  a\n", "", 0],
    // as git's `D  a` and `?? a`
    afterRm: [
      { path: "a", index: "D", worktree: " " },
      { path: "a", index: " ", worktree: "?" },
    ],
    tree: ["b\n?? a\n", "", 0],
  });
});

const cases: [string, string][] = [
  // clean: a re-included directory (`!*/`) is removed as untracked; docs/ holds only ignored files and stays.
  ["printf '*\\n!*/\\n!*.ts\\n' > .gitignore; git clean -n -d", "Would remove src/\n"],
  ["printf 'src/*\\n!src/lib/\\n' > .gitignore; git clean -n -d", "Would remove .gitignore\nWould remove docs/\nWould remove src/lib/\nWould remove top.txt\n"],
  // add of a path: a directory re-included is not refused as ignored.
  ["printf 'docs\\n!docs/\\n' > .gitignore; git add docs; echo rc=$?; git add src/lib; git status --porcelain=v1", "rc=0\nA  docs/r.md\nA  src/lib/b.ts\n?? .gitignore\n?? src/a.ts\n?? top.txt\n"],
  // a deeper .gitignore re-includes a directory a rule above excludes (its rules come after).
  ["printf 'lib/\\n' > .gitignore; printf '!lib/\\n' > src/.gitignore; git status --porcelain=v1 -uall", "?? .gitignore\n?? docs/r.md\n?? src/.gitignore\n?? src/a.ts\n?? src/lib/b.ts\n?? top.txt\n"],
  ["printf 'lib\\n' > .gitignore; printf '!lib/\\n' > src/.gitignore; git status --porcelain=v1 -uall", "?? .gitignore\n?? docs/r.md\n?? src/.gitignore\n?? src/a.ts\n?? src/lib/b.ts\n?? top.txt\n"],
  // a directory-only rule does not match a file.
  ["printf 'top.txt/\\n*.md/\\n' > .gitignore; git status --porcelain=v1 -uall", "?? .gitignore\n?? docs/r.md\n?? src/a.ts\n?? src/lib/b.ts\n?? top.txt\n"],
  // a negated class naming directories, in clean -d: lib/ and docs/ are ignored, src/ is not.
  ["printf '[!s]*/\\n' > .gitignore; git clean -n -d", "Would remove .gitignore\nWould remove src/a.ts\nWould remove top.txt\n"],
];

it("clean, add <path>, nested re-inclusion and directory-only rules decide ignores as git does", async () => {
  const out = await inShellWorkspace(async (ws) => {
    const results: string[] = [];
    for (const [i, [command]] of cases.entries()) {
      await ws.fs.mkdir(`/workspace/r${i}`, { recursive: true });
      const r = await sh(ws, setup + command, { cwd: `/workspace/r${i}` });
      results.push(r.stdout + r.stderr);
    }
    return results;
  }, withGit);
  expect(out).toEqual(cases.map(([, expected]) => expected));
});

it("the typed API's status and clean apply a directory re-inclusion and a negated class", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/t", { recursive: true });
    await sh(ws, `${setup}printf '*\\n!*/\\n!*.ts\\n' > .gitignore`, { cwd: "/workspace/t" });
    const status = await ws.git.status({ dir: "/workspace/t" });
    const clean = await ws.git.clean({ dir: "/workspace/t", directories: true, dryRun: true });
    await ws.fs.writeFile("/workspace/t/.gitignore", "[^d]*/\n");
    const status2 = await ws.git.status({ dir: "/workspace/t" });
    return { status, clean, status2 };
  }, withGit);
  expect(out).toEqual({
    status: [
      { path: "src/a.ts", index: " ", worktree: "?" },
      { path: "src/lib/b.ts", index: " ", worktree: "?" },
    ],
    clean: ["src/"],
    status2: [
      { path: ".gitignore", index: " ", worktree: "?" },
      { path: "docs/r.md", index: " ", worktree: "?" },
      { path: "top.txt", index: " ", worktree: "?" },
    ],
  });
});
