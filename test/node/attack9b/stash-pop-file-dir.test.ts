/**
 * Issue 20 ninth attack run (part B), category 1 (files replaced by
 * directories): `git stash pop` when the stash adds `n/y` and a commit made
 * since puts a FILE at `n`.
 * (The mirror case — the stash changes file `d`, HEAD now has `d/x` — is
 * refused cleanly: "stash conflicts with changes committed since in d".)
 *
 * FIXED — `stashPop` checks, before writing anything, every path it writes
 * against HEAD and the index: a leading directory that is a file there (or
 * the path itself a directory there), unless the stash removes it, refuses
 * with `stash conflicts with changes committed since in n` (only in the
 * index: `your local changes … would be overwritten by stash: n`); an
 * untracked file to restore under a path that is now a file counts as
 * existing (`could not restore untracked files from stash: …`).
 *
 * DEFECT (low) — the pop's conflict check misses a stash path whose parent
 * is now a file: it starts writing the working tree and fails half-way with
 * a raw filesystem error, `git stash: EEXIST: file already exists, mkdir:
 * /repo/n` (exit 1). Paths sorted before `n/y` (here `a`) are already
 * written, the index is not (it is written once at the end), the stash is
 * kept: the tree holds part of the stash as unstaged changes, and the next
 * `stash pop` refuses ("would be overwritten") until they are reset.
 * Expected (real git): no working-tree change before the conflict is found,
 * a git message naming `n` (as for the mirror case), the stash kept.
 * Reproduction: repo with a, d; `echo a2 > a; mkdir n; echo y > n/y; git
 * add n/y; git stash; echo file > n; git add n; git commit -m n; git stash pop`.
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { createGitClient } from "../../../src/git/index.js";

const ID = { name: "A", email: "a@example.com" };

describe("attack9b: stash pop onto a file where the stash has a directory", () => {
  it("refuses before writing anything, with a git message naming the path", { timeout: 30_000 }, async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), git: createGitClient(), defaultGitIdentity: ID });
    const cli = (...argv: string[]) => ws.git!.cli({ argv, cwd: "/repo" });
    await ws.fs.mkdir("/repo", { recursive: true });
    await ws.fs.writeFile("/repo/a", "a\n");
    await ws.fs.writeFile("/repo/d", "d\n");
    await cli("init");
    await cli("add", ".");
    await cli("commit", "-m", "base");
    await ws.fs.writeFile("/repo/a", "a2\n");
    await ws.fs.mkdir("/repo/n");
    await ws.fs.writeFile("/repo/n/y", "y\n");
    await cli("add", "n/y");
    expect((await cli("stash")).exitCode).toBe(0);
    await ws.fs.writeFile("/repo/n", "file n\n");
    await cli("add", "n");
    expect((await cli("commit", "-m", "n file")).exitCode).toBe(0);

    const pop = await cli("stash", "pop");
    const a = await ws.fs.readFile("/repo/a", "utf8");
    const list = (await cli("stash", "list")).stdout;
    expect(list).toMatch(/^stash@\{0\}: WIP on main/);
    // Actual: { exitCode: 1, stderr: "git stash: EEXIST: file already exists, mkdir: /repo/n\n", a: "a2\n" }.
    expect({ exitCode: pop.exitCode, stderr: pop.stderr.includes("EEXIST"), mentionsN: / n\b|'n'|\bn\n/.test(pop.stderr), a }).toEqual({
      exitCode: 1,
      stderr: false,
      mentionsN: true,
      a: "a\n",
    });
  });
});
