/**
 * Issue 20, run 40, attacker e: `:<path>` (git's "the index's entry for <path>", gitrevisions(7): `:<n>:<path>`,
 * stage 0 when `<n>` is left out) is read as `HEAD:<path>` by `git show`, `git cat-file` and `git rev-parse`. An
 * agent checking what it staged (`git show :file`) is shown the COMMITTED content instead — silently wrong — and a
 * newly staged file is "not in HEAD".
 * Reproduction: `git init; echo head > m.txt; git add m.txt; git commit -m first; echo index > m.txt; git add m.txt;
 * echo worktree > m.txt; echo new > n.txt; git add n.txt; git show :m.txt; git cat-file -p :m.txt;
 * git rev-parse :m.txt; git show :0:m.txt; git show :n.txt`.
 * Today: `head` (exit 0), `head`, the HEAD blob's oid 564b12f…, `path '0:m.txt' does not exist in 'HEAD'` (128),
 * `path 'n.txt' does not exist in 'HEAD'` (128).
 * git 2.39.5 (the same commands in /tmp with `git -C`): `index`, `index`, 9015a7a32ca0681be64471d3ac2f8c1f24c1040d
 * (`git hash-object` of "index\n"), `index`, `new` — all exit 0.
 * Cause: src/git/ops/rev.ts (the `<rev>:<path>` parse): `expr.slice(0, colon) || "HEAD"` turns an empty revision
 * into HEAD instead of reading the index.
 * Fixed in run 40 by fixer f40g1: ops/rev.ts reads `:<path>` / `:<n>:<path>` from the index (show/cat-file through it); `:/<text>` searches commit messages as git.
 */
import { expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { createGitClient } from "../../../src/git/index.js";

it("git show / cat-file -p / rev-parse of :<path> read the index entry, as git 2.39.5", { timeout: 20_000 }, async () => {
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
  const git = createGitClient()({ ws, defaultIdentity: { name: "A", email: "a@x" } });
  const run = async (...argv: string[]) => {
    const r = await git.cli({ argv, cwd: "/r" });
    return `${r.exitCode} ${r.stdout}${r.stderr}`;
  };
  await ws.fs.mkdir("/r");
  expect(await run("init", "-q")).toBe("0 ");
  await ws.fs.writeFile("/r/m.txt", "head\n");
  await run("add", "m.txt");
  expect(await run("commit", "-qm", "first")).toBe("0 ");
  await ws.fs.writeFile("/r/m.txt", "index\n");
  await run("add", "m.txt");
  await ws.fs.writeFile("/r/m.txt", "worktree\n");
  await ws.fs.writeFile("/r/n.txt", "new\n");
  await run("add", "n.txt");
  expect(await run("status", "--porcelain=v1")).toBe("0 MM m.txt\nA  n.txt\n");

  expect({
    show: await run("show", ":m.txt"), // today: "0 head\n"
    catFile: await run("cat-file", "-p", ":m.txt"), // today: "0 head\n"
    revParse: await run("rev-parse", ":m.txt"), // today: the HEAD blob 564b12f…
    stage0: await run("show", ":0:m.txt"), // today: 128 path '0:m.txt' does not exist in 'HEAD'
    newFile: await run("show", ":n.txt"), // today: 128 path 'n.txt' does not exist in 'HEAD'
  }).toEqual({
    show: "0 index\n",
    catFile: "0 index\n",
    revParse: "0 9015a7a32ca0681be64471d3ac2f8c1f24c1040d\n",
    stage0: "0 index\n",
    newFile: "0 new\n",
  });
  await ws.close();
});
