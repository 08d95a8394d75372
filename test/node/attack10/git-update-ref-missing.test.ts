/**
 * Issue 20 tenth attack run, category 3 (bad tool input that damages state):
 * `git update-ref` (src/git/cli/commands.ts `updateRef`, src/git/ops/repo.ts
 * `updateRef`) with a 40-hex value that names no object in the repository —
 * a mistyped or truncated-and-padded oid, or one copied from another
 * repository.
 *
 * The CLI passes any 40-hex value through unchecked and the client writes
 * it; `git tag t <oid>` and `git branch b <oid>` refuse the same value
 * ("unknown revision", "does not name a commit").
 *
 * DEFECT (low–medium: a branch's history made unreachable by one command) —
 * reproduction:
 *   git init -b main; git add a; git commit -m base
 *   git update-ref --force refs/heads/main 0123456789abcdef0123456789abcdef01234567   → exit 0
 *   git log    → 1 "revision 'HEAD' does not name a commit"
 *   git status → 1 "Could not find 0123456789abcdef0123456789abcdef01234567."
 * The commit `base` is now reachable from no ref (the Workspace's git keeps
 * no branch reflog to find it by). Real git refuses before writing:
 * "fatal: update_ref failed for ref 'refs/heads/main': cannot update ref
 * 'refs/heads/main': trying to write ref 'refs/heads/main' with nonexistent
 * object 0123…" (exit 128), as `tag` and `branch` here already do.
 * Expected: update-ref of a value naming no object fails and leaves the ref
 * as it was (HEAD still names `base`).
 *
 * FIXED: updateRef reads the object first (EUPDATEREFFAIL naming it, real
 * git's text), and a branch or HEAD takes only a commit.
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { createGitClient } from "../../../src/git/index.js";

const ID = { name: "A", email: "a@example.com" };
const MISSING = "0123456789abcdef0123456789abcdef01234567";

describe("attack10: git update-ref to an object the repository does not have", () => {
  it("is refused and leaves the branch where it was", { timeout: 60_000 }, async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), git: createGitClient(), defaultGitIdentity: ID });
    const cli = (...argv: string[]) => ws.git!.cli({ argv, cwd: "/r" });
    await ws.fs.mkdir("/r", { recursive: true });
    await cli("init", "-b", "main");
    await ws.fs.writeFile("/r/a", "a\n");
    await cli("add", "a");
    expect((await cli("commit", "-m", "base")).exitCode).toBe(0);
    // Held: tag and branch check the object.
    expect((await cli("tag", "t", MISSING)).exitCode).toBe(128); // real git's fatal: (1 before issue 20's run 25)
    const update = await cli("update-ref", "--force", "refs/heads/main", MISSING);
    const log = await cli("log", "--format=%s");
    // Actual: update-ref exits 0; log exits 1 "revision 'HEAD' does not name a commit".
    expect({ updated: update.exitCode === 0, log: log.stdout }).toEqual({ updated: false, log: "base\n" });
    expect(update.stderr).toBe(`git update-ref: cannot update ref 'refs/heads/main': trying to write ref 'refs/heads/main' with nonexistent object ${MISSING}\n`);
    // A branch takes only a commit: the base commit's tree is refused too.
    const tree = (await cli("rev-parse", "HEAD^{tree}")).stdout.trim();
    const toTree = await cli("update-ref", "--force", "refs/heads/main", tree);
    expect(toTree.stderr).toBe(`git update-ref: cannot update ref 'refs/heads/main': trying to write non-commit object ${tree} to branch 'refs/heads/main'\n`);
    expect((await cli("log", "--format=%s")).stdout).toBe("base\n");
    await ws.close();
  });
});
