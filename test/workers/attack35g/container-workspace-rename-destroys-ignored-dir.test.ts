/**
 * Issue 20, thirty-fifth attack run: a Workspace rename of a directory is pushed to the container as a recursive
 * `rm` of the old path and a re-creation of the new one (src/runtime/sync.ts `#pushEntries`: the change log's
 * deletion becomes `{ op: "rm" }`, the daemon's `fs.rm(…, { recursive: true })`), so what the container holds there
 * under an ignored glob — `npm ci`'s `node_modules`, a `.venv`, a build cache, a local database directory, which by
 * design live in the container only (docs/container.md, Ignore rules: "ignored paths are neither pushed nor pulled")
 * — is destroyed, not moved, and nothing says so: `skipped: []`. An agent that moves `proj/` to `proj2/` with the
 * file tools (or the in-Worker shell's `mv`) after installing dependencies in the container finds them gone on the
 * next command; a `mv` in a real file system (and rsync's receiver, which keeps excluded files) keeps them.
 * docs/container.md says a push sends "renames"; it sends a deletion.
 * Tried: `MOUNT_IGNORE=**\/node_modules`, `proj/a.js` from the Workspace, `mkdir -p proj/node_modules/p && echo i >
 * proj/node_modules/p/i.js` in the container, then `ws.fs.rename("/workspace/proj", "/workspace/proj2")` and
 * `find . | sort` in the container; differential: `mv proj proj2` in bash keeps `proj2/node_modules/p/i.js`.
 * Held: the Workspace's own files move (`proj2/a.js`), nothing ignored is pulled; a relaunch on a fresh disk pushes
 * back modes (0o4755, 0o1777, 0o555 with contents, 0o600), empty directories, dangling links and names with newlines
 * exactly.
 * Found (medium — container-only data the user chose not to sync is destroyed by a Workspace rename, silently;
 * 2 of 2 runs): after the rename the container holds `.`, `proj2`, `proj2/a.js` only; `proj2/node_modules` missing,
 * `pushed: 3` (rm proj, proj2, proj2/a.js), `skipped: []`.
 * Suggested fix: src/runtime/sync.ts — push a Workspace directory rename as the daemon's `rename` op (it has one,
 * container/lib/sync.mjs `applyOne`) when the change log shows one, or make a pushed `rm` of a directory keep (and
 * report) the ignored entries under it, as rsync's receiver does.
 * Not fixed (issue 20, run 35, fixer CR), left `it.fails` for the lead: the sync cannot tell a rename today — the
 * change log (src/fs/changes.ts) records `rename` as a subtree tombstone at the old path plus the moved nodes
 * stamped at the new one, as `rm -r` and a re-creation in one transaction would be, and `__ws_sync_manifest` keeps
 * no Workspace identity. The rule is documented in docs/container.md (Sync, Push). A fix: record the Workspace
 * `inode` of each synced directory in the manifest (a new column); at a subtree deletion of a recorded directory,
 * when a directory entry of the same revision in the change log has that inode, send the daemon's `rename` op,
 * move the manifest rows by prefix (one range statement), then push the moved entries as usual (linear in the tree). * Fixed: src/runtime/sync.ts `#pushRename` — the manifest records each entry's Workspace inode and signature
 * (`ino`, `wsig`, added to existing tables); a subtree deletion (or a directory entry met first at its new path) of a
 * recorded directory whose inode now lives at another synced path is pushed as the daemon's `rename` op, the manifest
 * rows move by two range statements, what the Workspace removed inside the moved tree is removed, and moved entries
 * whose inode and signature are unchanged are not resent (src/fs/filesystem.ts `inodeOf`, `inodePath`) (issue 20,
 * run 36, fixer RN). Siblings: test/workers/fix36/container-rename.test.ts.
 */
import { describe, expect, it } from "vitest";
import { inWorkspace, sh, startContainer } from "../container/helpers.js";

describe("attack35g: a Workspace rename of a directory holding ignored container-only entries", () => {
  it("moves them with it in the container, as mv does", async () => {
    const c = await startContainer({ MOUNT_IGNORE: "**/node_modules" });
    await inWorkspace(c, async (ws) => {
      await ws.fs.mkdir("/workspace/proj", { recursive: true });
      await ws.fs.writeFile("/workspace/proj/a.js", "a");
      const install = await sh(ws, "mkdir -p proj/node_modules/p && echo i > proj/node_modules/p/i.js");
      expect([install.exitCode, install.pushed, install.pulled]).toEqual([0, 2, 0]);
      await ws.fs.rename("/workspace/proj", "/workspace/proj2");
      const next = await sh(ws, "find . | sort");
      expect(next.skipped).toEqual([]);
      // Was: ".\n./proj2\n./proj2/a.js\n" — proj/node_modules removed with proj, never moved.
      expect(next.stdout).toBe(".\n./proj2\n./proj2/a.js\n./proj2/node_modules\n./proj2/node_modules/p\n./proj2/node_modules/p/i.js\n");
      expect(await c.text("proj2/node_modules/p/i.js")).toBe("i\n");
    });
  });
});
