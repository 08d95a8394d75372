/**
 * Issue 20, run 40, fixer f40g1 (sibling of attack40e/git-show-colon-path-reads-head-not-index): `:<path>` and
 * `:<n>:<path>` naming no index entry fail as git 2.39.5 (exit 128, git's message), a `./` path after `:0:` is
 * relative to the cwd, and `:/<text>` (commit-message search, not implemented) is refused saying so.
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

it(":<path> / :<n>:<path> without an index entry fail as git; :0:./f is cwd-relative; :/ is refused", { timeout: 20_000 }, async () => {
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
  expect(await run("/r", "rev-parse", ":/first")).toMatch(/^1 .*':\/first': a commit-message search \(:\/<text>\) is not supported/);
  await ws.close();
});
