/**
 * Issue 20, run 40, fixer f40g1 (sibling of attack40e/git-show-colon-path-reads-head-not-index): `:<path>` and
 * `:<n>:<path>` naming no index entry fail as git 2.39.5 (exit 128, git's message), a `./` path after `:0:` is
 * relative to the cwd; `:/<text>` is git's commit-message search.
 * Checked with real git 2.39.5 (`git init; echo head > m.txt; git add m.txt; git commit -m first; echo index > m.txt;
 * git add m.txt; echo u > u.txt; mkdir d; echo x > d/f; git add d/f`, then `git rev-parse <spec>`):
 * `:nope.txt` → `fatal: path 'nope.txt' does not exist (neither on disk nor in the index)` (128); `:1:m.txt` →
 * `fatal: path 'm.txt' is in the index, but not at stage 1` (+ a hint line, not printed here) (128); `:u.txt` →
 * `fatal: path 'u.txt' exists on disk, but not in the index` (128); in d/: `:0:./f`, `:./f`, `:d/f` → d/f's blob.
 */
import { expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { createGitClient } from "../../../src/git/index.js";

it(":<path> / :<n>:<path> without an index entry fail as git; :0:./f is cwd-relative", { timeout: 20_000 }, async () => {
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
  const git = createGitClient()({ ws, defaultIdentity: { name: "A", email: "a@x" } });
  const run = async (cwd: string, ...argv: string[]) => {
    const r = await git.cli({ argv, cwd });
    return `${r.exitCode} ${r.stdout}${r.stderr}`;
  };
  await ws.fs.mkdir("/r");
  await run("/r", "init", "-q");
  await ws.fs.writeFile("/r/m.txt", "head\n");
  await run("/r", "add", "m.txt");
  expect(await run("/r", "commit", "-qm", "first")).toBe("0 ");
  await ws.fs.writeFile("/r/m.txt", "index\n");
  await run("/r", "add", "m.txt");
  await ws.fs.writeFile("/r/u.txt", "u\n");
  await ws.fs.mkdir("/r/d");
  await ws.fs.writeFile("/r/d/f", "x\n");
  await run("/r", "add", "d/f");

  expect(await run("/r", "rev-parse", ":nope.txt")).toMatch(/^128 .*path 'nope\.txt' does not exist \(neither on disk nor in the index\)\n$/);
  expect(await run("/r", "show", ":1:m.txt")).toMatch(/^128 .*path 'm\.txt' is in the index, but not at stage 1\n$/);
  expect(await run("/r", "cat-file", "-p", ":u.txt")).toMatch(/^128 .*path 'u\.txt' exists on disk, but not in the index\n$/);
  const f = "587be6b4c3f93f93c489c0111bba5596147a26cb"; // git hash-object of "x\n"
  expect(await run("/r/d", "rev-parse", ":0:./f", ":./f", ":d/f")).toBe(`0 ${f}\n${f}\n${f}\n`);
  expect(await run("/r", "show", ":0:m.txt")).toBe("0 index\n");
  await ws.close();
});

// git 2.39.5, the same history (`git commit --allow-empty` at the committer dates below; `side` from `first`):
// `:/fix` → `side fix` (the youngest match over every ref), `:/!-fix` → `third`, `:/^first` → `first`,
// `:/nomatch` and `:/!!x` → fatal, 128; `git show -s --format=%s :/fix` → `side fix`.
it(":/<text> is the youngest commit from any ref whose message matches, as git 2.39.5", { timeout: 20_000 }, async () => {
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
  const git = createGitClient()({ ws, defaultIdentity: { name: "A", email: "a@x" } });
  const run = async (argv: string[], time = 0) => {
    const env = { GIT_AUTHOR_DATE: `@${time} +0000`, GIT_COMMITTER_DATE: `@${time} +0000` };
    const r = await git.cli({ argv, cwd: "/r", env });
    return `${r.exitCode} ${r.stdout}`;
  };
  const commit = async (message: string, time: number) => {
    await ws.fs.writeFile("/r/f.txt", `${message}\n`);
    await run(["add", "f.txt"]);
    expect(await run(["commit", "-qm", message], time)).toBe("0 ");
  };
  await ws.fs.mkdir("/r");
  await run(["init", "-q", "-b", "main"]);
  await commit("first", 1000);
  await commit("second fix", 2000);
  await run(["checkout", "-q", "-b", "side", "HEAD~1"]);
  await commit("side fix", 2500);
  await run(["checkout", "-q", "main"]);
  await commit("third", 3000);
  const oid = async (rev: string) => (await run(["rev-parse", rev])).slice(2);
  expect({ fix: await oid(":/fix"), notFix: await oid(":/!-fix"), first: await oid(":/^first") }).toEqual({
    fix: await oid("side"),
    notFix: await oid("main"),
    first: await oid("main~2"),
  });
  expect(await run(["show", "-s", "--format=%s", ":/fix"])).toBe("0 side fix\n");
  expect((await run(["rev-parse", ":/nomatch"])).slice(0, 4)).toBe("128 ");
  expect((await run(["rev-parse", ":/!!x"])).slice(0, 4)).toBe("128 ");
  await ws.close();
});
