/**
 * Issue 20, twenty-first attack run: the daemon confines every path to MOUNT_POINT — `Mount.resolve` realpaths each
 * parent, so a read or write through a link that leaves it is EACCES. The scan does not: it lstat()s the mount point
 * (container/lib/sync.mjs `scan`: `fs.lstat(mount.real)`) and walks it whatever it is, and `readdir` follows a link. A
 * command that replaces the mount point by a link (`cd / && rm -rf /workspace && ln -s /data /workspace`, `mv
 * /workspace /old && ln -s /old /workspace`) makes every later walk list the tree the link leads to: its directory
 * structure is created in the Workspace (each directory "pulled"), each of its files named in `skipped` ("EACCES: path
 * leads out of the mount point …"), each of its files read-ahead attempted. `ln -s / /workspace` walks the whole
 * container filesystem (/proc, /sys, /usr …) on every pull, making its directories in the Workspace. And from then on
 * every command fails before it runs (`EACCES: cwd leads out of the mount point through a symlink: ""`), and so does
 * every push — the Workspace cannot repair it; only a container restart (documented nowhere) does.
 *
 * Tried: the real daemon (`Computerd` in process, attack18c/real-daemon.ts); a directory outside the mount point with
 * secret.txt and sub/s2; a command `cd / && rm -rf "$OLDPWD" && ln -s <outside> "$OLDPWD"`; then two more commands.
 * Held: the files outside are not read into the Workspace (EACCES skips) and not written by a push; a mount point
 * merely deleted by a command is recreated by the next push and commands run again.
 *
 * Found (medium; 2 of 2 runs): after the command /workspace holds `sub` — a directory of the outside tree — and
 * `skipped` names /workspace/secret.txt and /workspace/sub/s2 (the outside file names); the next two commands reject
 * EACCES before running.
 *
 * Suggested fix: the scan refuses a mount point that is no longer the directory it opened (lstat: not a directory,
 * or another dev/ino than at start) with an error the pull reports (pull pending, no entry applied); `exec` says the
 * mount point was replaced and that restarting the container (or removing the link) restores it — or the daemon
 * repairs it itself (unlinks a link at MOUNT_POINT and recreates the directory, as a deleted one is recreated).
 *
 * Fixed: the scan (container/lib/sync.mjs `mountStat`) refuses a mount point that is not a directory (lstat: a symlink,
 * a file, a special file) with `ENOTDIR` naming what is there and what happens next — the pull stays pending, nothing
 * applied or walked; `exec` and `apply` (`repairMount`) remove such an entry (never what a link leads to) and make the
 * mount point an empty directory again, as they recreate a removed one, so the next command runs and its pull finds
 * the old tree deleted. Siblings: test/node/fix21/container-mount-point-repaired.test.ts (a file at the mount point,
 * a removed one, apply).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { realDaemonWorkspace } from "../attack18c/real-daemon.js";

describe("attack21c: a command replaces the mount point by a link out of it", () => {
  it("the pull applies nothing from where the link leads, and names none of it", { timeout: 60_000 }, async () => {
    const real = await realDaemonWorkspace();
    const { ws, dir } = real;
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "attack21c-outside-"));
    fs.writeFileSync(path.join(outside, "secret.txt"), "outside");
    fs.mkdirSync(path.join(outside, "sub"));
    fs.writeFileSync(path.join(outside, "sub", "s2"), "outside 2");
    try {
      const result = await (await ws.runtime.exec(`cd / && rm -rf "$OLDPWD" && ln -s '${outside}' "$OLDPWD"`, { backend: "box" })).result();
      expect(result.exitCode).toBe(0);
      expect(fs.lstatSync(dir).isSymbolicLink()).toBe(true);
      const names = (await ws.fs.readdir("/workspace")).map((e) => e.name);
      const skipped = (result.sync?.skipped ?? []).map((s) => s.path);
      // Found: { names: ["sub"], skipped: ["/workspace/secret.txt", "/workspace/sub/s2"] }.
      expect({ names, skipped }).toEqual({ names: [], skipped: [] });
      // The pull refuses the walk, naming what happened; nothing applied, the pull stays pending.
      expect(result.sync).toMatchObject({ status: "pending", applied: 0, skipped: [] });
      expect((result.sync as { error?: string } | undefined)?.error).toBe(
        `ENOTDIR: the mount point ${dir} is no longer a directory but a symlink to ${JSON.stringify(outside)}: a command replaced it, and nothing is synced through it. The next command (or push) makes it an empty directory again (what the link leads to is left alone), and the pull after it finds everything that was under it deleted`,
      );
      // The next command runs in the mount point made a directory again; the outside tree is left as it was.
      const next = await (await ws.runtime.exec("pwd; ls -A; echo new > made.txt", { backend: "box", encoding: "utf8" })).result();
      expect({ exitCode: next.exitCode, stdout: next.stdout, sync: next.sync }).toEqual({ exitCode: 0, stdout: `${dir}\n`, sync: { status: "complete", applied: 1, skipped: [] } });
      expect(fs.lstatSync(dir).isDirectory()).toBe(true);
      expect(fs.readdirSync(outside).sort()).toEqual(["secret.txt", "sub"]);
      expect(await ws.fs.readFile("/workspace/made.txt", "utf8")).toBe("new\n");
      expect((await ws.fs.readdir("/workspace")).map((e) => e.name)).toEqual(["made.txt"]);
    } finally {
      await ws.close();
      fs.rmSync(dir, { recursive: true, force: true }); // the link, or the directory made in its place
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
