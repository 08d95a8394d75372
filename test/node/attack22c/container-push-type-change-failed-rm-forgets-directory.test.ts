/**
 * Issue 20, twenty-second attack run: a push that replaces a container directory by the Workspace's file forgets the
 * directory even when the container refused to remove it — and the next pull then deletes the Workspace's file.
 *
 * `RemoteSync.#pushEntries` (src/runtime/sync.ts): when the manifest holds another kind at the path (a directory where
 * the Workspace now has a file), it queues `{ op: "rm", path }` with the callback `() => this.#forget(wire)` — which runs
 * whatever the result. The deletion path beside it forgets only on success or ENOENT. So when the container cannot
 * remove the directory (EBUSY: something is mounted under it; ENOTEMPTY: a live run writes into it while it is removed;
 * EPERM: an immutable file), the manifest drops the directory and everything under it, the file's `write` fails EISDIR
 * (both reported in `skipped`) — and the pull, finding a directory the manifest no longer knows, takes it for the
 * container's new work: "container changes win", so the Workspace's file is removed and the directory made in its place.
 *
 * Tried: the real daemon in process (`Computerd`, attack18c/real-daemon.ts); /workspace/d/a.txt synced, then a
 * directory d/mnt that has a 64 KiB tmpfs mounted on it (needs root to mount; skipped elsewhere) — what `rm -r` of d
 * cannot remove (EBUSY). The Workspace removes d and writes d as a file "workspace file"; a command runs.
 * Held: the push reports both refusals — `EBUSY: resource busy or locked (d)` (the deletion tombstone, whose rows
 * stay) and `EISDIR: illegal operation on a directory (d)` (the write); the command still runs.
 *
 * Found (medium; 3 of 3 runs): the same command's pull makes /workspace/d a directory again (d/mnt pulled in): the file
 * and its "workspace file" are gone from the Workspace, and the pull's `sync.skipped` is [] (applied 2).
 *
 * Suggested fix: forget the rows only when the `rm` succeeded (or was ENOENT), as the deletion path does; on any other
 * refusal keep the manifest as it was (and the entry owed), so the pull sees the directory as unchanged.
 *
 * Fixed (fix22 FCH): `RemoteSync.#pushEntries` forgets the rows of a kind change's `rm` only when it succeeded or
 * was ENOENT, as the deletion path does; a refused one leaves the manifest as it was (the write's EISDIR reports the
 * entry), so the pull sees the directory unchanged and the Workspace keeps its file. The entry stays owed (EBUSY is
 * a refusal that passes, see container-push-refused-entry-never-resent.test.ts): once the mount is gone, the next
 * push removes the directory and writes the file.
 * Run 35 (lead): the write's EISDIR reason ends with `: ${IN_THE_WAY}` — a refusal because the container's entry is
 * in the way stays owed and says so (fixer CR, test/workers/fix35/container-sync-refused.test.ts).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { realDaemonWorkspace } from "../attack18c/real-daemon.js";
import { canMount } from "../container/tiny-disk.js";
import { IN_THE_WAY } from "../../../src/runtime/sync.js";

describe("attack22c: a push whose type-change rm the container refuses", () => {
  (canMount() ? it : it.skip)("keeps the manifest: the Workspace's file is not replaced by the directory", { timeout: 60_000 }, async () => {
    const { ws, dir, close } = await realDaemonWorkspace();
    const run = async (command: string) => (await ws.runtime.exec(command, { backend: "box", encoding: "utf8" })).result();
    const mnt = path.join(dir, "d/mnt");
    let mounted = false;
    try {
      await ws.fs.mkdir("/workspace/d");
      await ws.fs.writeFile("/workspace/d/a.txt", "a\n");
      expect((await run("mkdir d/mnt")).exitCode).toBe(0);
      execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", mnt], { stdio: "ignore" });
      mounted = true;
      expect((await run("true")).exitCode).toBe(0);

      await ws.fs.rm("/workspace/d", { recursive: true });
      await ws.fs.writeFile("/workspace/d", "workspace file\n");
      const first = await run("true");
      expect(first.skipped).toEqual([
        { path: "/workspace/d", reason: "EBUSY: resource busy or locked (d)" },
        { path: "/workspace/d", reason: `EISDIR: illegal operation on a directory (d): ${IN_THE_WAY}` },
      ]);
      const kind = (await ws.fs.lstat("/workspace/d")).isDirectory ? "directory" : "file";
      // Found: "directory" (d/mnt pulled in), the file gone.
      expect(kind).toBe("file");
      expect(await ws.fs.readFile("/workspace/d", "utf8")).toBe("workspace file\n");
      // Still mounted: refused again, reported again; the Workspace still keeps its file.
      expect((await run("true")).skipped).toEqual([
        { path: "/workspace/d", reason: `EISDIR: illegal operation on a directory (d): ${IN_THE_WAY}` },
      ]);
      execFileSync("umount", [mnt], { stdio: "ignore" });
      mounted = false;
      const last = await run("cat d");
      expect([last.stdout, last.skipped]).toEqual(["workspace file\n", []]);
      expect(fs.readFileSync(path.join(dir, "d"), "utf8")).toBe("workspace file\n");
      expect(await ws.fs.readFile("/workspace/d", "utf8")).toBe("workspace file\n");
    } finally {
      if (mounted) execFileSync("umount", [mnt], { stdio: "ignore" });
      await close();
    }
  });
});
