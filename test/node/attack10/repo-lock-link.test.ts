/**
 * Issue 20 tenth attack run, category 1/3 (a link where git expects its own
 * file): the repository lock `.git/agent-computer.lock` (src/git/repo-lock.ts
 * `withRepoLock`) when it is a symbolic link to an existing file.
 *
 * Run 9 (attack9b repo-lock-hostile) made a lock path that is a directory or
 * a DANGLING link fail ELOCKED. A link to an existing file is not handled:
 * the exclusive create fails EEXIST (the link is there), `readFile` follows
 * the link and reads the target's text, which is not `<owner> <expires-ms>`,
 * so the lock is "corrupt" and taken over at once — with a compare-and-swap
 * `writeFile` that follows the link and overwrites the TARGET with the lock
 * body; at the end the lock is released by removing the link, and the
 * target keeps `<uuid> <ms>\n` for good.
 *
 * DEFECT (medium: data loss outside the repository) — reproduction (Node):
 *   await ws.fs.writeFile("/notes.txt", "my notes\n");
 *   await ws.fs.symlink("/notes.txt", "/repo/.git/agent-computer.lock");
 *   await ws.git.add({ dir: "/repo", paths: ["a"] });   // resolves
 *   await ws.fs.readFile("/notes.txt", "utf8");          // "3f1c…-… 1796…\n": the notes are gone
 * Real git creates its lock (`index.lock`) with O_CREAT|O_EXCL, which fails
 * on any existing link ("Unable to create '…/index.lock': File exists") and
 * never writes through it. Expected: the operation fails (GitError ELOCKED,
 * as for a dangling link or a directory) or the link itself is replaced —
 * never the link's target written.
 *
 * FIXED: any link at the lock path (dangling or not) fails ELOCKED before
 * it is read; a takeover write also carries `ifInode`, so a link swapped in
 * after that check fails the write instead of going through it.
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { createGitClient } from "../../../src/git/index.js";

const ID = { name: "A", email: "a@example.com" };

describe("attack10: the repository lock is a link to an existing file", () => {
  it("a git write never overwrites the file the lock link points to", { timeout: 30_000 }, async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), git: createGitClient(), defaultGitIdentity: ID });
    await ws.fs.mkdir("/repo", { recursive: true });
    await ws.git!.init({ dir: "/repo" });
    await ws.fs.writeFile("/repo/a", "a\n");
    await ws.fs.writeFile("/notes.txt", "my notes\n");
    await ws.fs.symlink("/notes.txt", "/repo/.git/agent-computer.lock");
    const outcome = await ws.git!.add({ dir: "/repo", paths: ["a"] }).then(
      () => "added",
      (e: { code?: string }) => `rejected ${e.code}`,
    );
    // Actual: "added", and /notes.txt holds "<uuid> <ms>\n".
    expect(await ws.fs.readFile("/notes.txt", "utf8")).toBe("my notes\n");
    expect(["added", "rejected ELOCKED"]).toContain(outcome);
  });
});
