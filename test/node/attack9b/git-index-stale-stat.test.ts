/**
 * Issue 20 ninth attack run (part B), category 1/2: the git layer's new
 * "working tree first, `.git/index` once at the end" (src/git/ops/tree-state.ts
 * `applyChanges` → `placed()` → scripts/gen-git.mjs `updateIndexMany` with
 * `stat: true`).
 *
 * FIXED — each file's stats are taken when the checkout writes it (or, for a
 * file already holding the target, before it is hashed) and passed to
 * `updateIndexMany` with the oid; a later write changes the stats, so status
 * looks at the content again.
 *
 * DEFECT (medium) — a write to a checked-out file made by anyone else while a
 * checkout is still running is hidden from git: `updateIndexMany` takes the
 * file's stats when the index is written (at the END of the operation), not
 * when the checkout wrote the file, and records them with the blob oid the
 * checkout wrote. A file changed in between (another Workspace on the same
 * storage, the shell, an exec run, a plain `ws.fs.writeFile` — the repo lock
 * only orders git operations) then has index stats that match its new bytes
 * while the index oid names the old bytes, so status/diff compare stats only
 * and see nothing.
 * Reproduction (one Workspace, node:sqlite): repo with f0..f9 on `main` and
 * `topic`; during `git checkout topic`, right after the checkout wrote
 * f5.txt, something writes "someone else\n" to f0.txt (already written by
 * the checkout). Then:
 *   expected (real git: it lstat's each file as it writes it, so a later write
 *   changes size/mtime): `git status --porcelain` → " M f0.txt"; `commit -a`
 *   records it.
 *   actual: status "" and diff "", `commit -a` → "nothing to commit" (exit 1):
 *   the edit is invisible to every stat-based command (a later checkout
 *   still refuses to overwrite it: it compares content).
 * Before this change each file was staged right after it was written
 * (updateIndex add:true, read back and hashed), so the window did not exist.
 * Same pattern: stash pop (`placed` for paths not in HEAD), checkout of
 * paths, reset --mixed (`placed` when the file matched at the start).
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { createGitClient } from "../../../src/git/index.js";

const ID = { name: "A", email: "a@example.com" };

describe("attack9b: a write during a checkout", () => {
  it("is seen by status after the checkout (git records stats taken when the index is written, at the end)", { timeout: 60_000 }, async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), git: createGitClient(), defaultGitIdentity: ID });
    const cli = (...argv: string[]) => ws.git!.cli({ argv, cwd: "/repo" });
    await ws.fs.mkdir("/repo", { recursive: true });
    for (let i = 0; i < 10; i++) await ws.fs.writeFile(`/repo/f${i}.txt`, `base ${i}\n`);
    await cli("init");
    await cli("add", ".");
    await cli("commit", "-m", "base");
    await cli("checkout", "-b", "topic");
    for (let i = 0; i < 10; i++) await ws.fs.writeFile(`/repo/f${i}.txt`, `topic ${i}\n`);
    await cli("commit", "-a", "-m", "topic");
    expect((await cli("checkout", "main")).exitCode).toBe(0);

    // Another writer edits f0.txt (already checked out) while the checkout goes on.
    const fs = ws.fs as unknown as Record<string, (...x: unknown[]) => Promise<unknown>>;
    const write = fs.writeFile!.bind(ws.fs);
    let armed = true;
    fs.writeFile = async (...x: unknown[]) => {
      const done = await write(...x);
      if (armed && String(x[0]) === "/repo/f5.txt") {
        armed = false;
        await write("/repo/f0.txt", "someone else\n");
      }
      return done;
    };
    expect((await cli("checkout", "topic")).exitCode).toBe(0);
    fs.writeFile = write;
    expect(armed).toBe(false);
    expect(await ws.fs.readFile("/repo/f0.txt", "utf8")).toBe("someone else\n");

    const status = (await cli("status", "--porcelain=v1")).stdout;
    const diff = (await cli("diff", "--stat")).stdout;
    const commit = await cli("commit", "-a", "-m", "edit");
    // Actual: status "", diff "", commit -a exit 1 "nothing to commit, working tree clean".
    expect({ status, diff: diff !== "", commit: commit.exitCode }).toEqual({ status: " M f0.txt\n", diff: true, commit: 0 });
  });
});
