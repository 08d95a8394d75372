/**
 * Issue 20, twenty-first attack run: on a new daemon boot RemoteSync decides whether the container is on the same disk
 * (keep the manifest) or another (drop it, push the whole tree again) — src/runtime/sync.ts `#adopt` / `#sameDisk`:
 * "a restarted daemon on the same disk (an entry is there with the recorded stat, ctime included) keeps it". One file
 * or link that matches is enough. A file that comes with the container's image is such a file on every disk: an image
 * that puts anything under /workspace (WORKDIR /workspace + COPY/RUN, a base image's template, a .gitkeep) gives each
 * new instance that file from the image's read-only layer — on overlayfs the lower inode's stat (mtime, ctime, size,
 * mode) is the same in every container started from the extracted image, and a VM root disk made from the image
 * carries its inodes' times as they are. So a relaunched container (a fresh disk: nothing the Workspace pushed is
 * there) is taken for the old disk: the manifest stays, the next push sends nothing (the container "has" it all), and
 * the pull finds every pushed entry gone and deletes it from the Workspace — the durable copy.
 *
 * Tried: two real daemons (`Computerd` in process, as attack18c/real-daemon.ts builds one) on two directories that
 * both hold `image.txt` as the same inode (a hard link made before anything ran: identical mtime/ctime/size/mode, as an
 * image layer's file); a Workspace whose backend `box` connects to the first, then — after its transport reports
 * closed — to the second (a relaunched container: new boot id, new disk). /workspace/project/{a,b}.txt are pushed by a
 * first command; the second command (`ls`) runs on the new disk.
 * Held: the control — the same steps with the second disk's image.txt written 100 ms later (same bytes, another
 * ctime) — re-pushes everything (pushed 4, `ls -R` shows project/a.txt and b.txt, nothing deleted); a new disk without
 * any file (test/workers/container/sync-failure.test.ts "another disk") does too.
 *
 * Found (high; 3 of 3 runs): the second command's push sends 0 entries, `ls -R` shows only image.txt, and its pull
 * deletes /workspace/project and both files from the Workspace (sync.applied 1, skipped []): the model's work is gone
 * everywhere once a container with a file of its image under /workspace is relaunched.
 *
 * Suggested fix: identify the disk by something the image cannot share — a random disk id the daemon writes on first
 * boot (e.g. `<MOUNT_POINT>/../.computerd-disk` or a file outside the synced tree, announced in info()), compared with
 * the one recorded — or require that the check match an entry the Workspace pushed (its manifest row has a Workspace
 * revision and was recorded from an apply on this disk), never one the container had from the start.
 *
 * Fixed: the daemon announces a disk id (`info().diskId`, container/lib/disk.mjs): a random UUID it writes on first boot
 * beside its mount point (`<parent>/.<name>.computerd-disk`, `/.workspace.computerd-disk` in the image — outside the
 * synced tree, gone with the disk); the host records it per backend (`__ws_sync_state.disk`) and `#adopt` decides "the
 * same disk" by it alone, whatever the files hold. The stat check is kept only for a daemon or a record without one.
 * Siblings: test/node/fix21/container-sync-disk-id-and-live-runs.test.ts.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { daemonOn, relaunchableWorkspace } from "../attack18c/real-daemon.js";

describe("attack21c: a relaunched container whose image holds a file under /workspace", () => {
  it("is a new disk: the Workspace keeps its files and pushes them again", { timeout: 60_000 }, async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "attack21c-disk-"));
    const disk1 = path.join(root, "disk1");
    const disk2 = path.join(root, "disk2");
    fs.mkdirSync(disk1);
    fs.mkdirSync(disk2);
    // The image's file: one inode in both instances (its stat identical, as a read-only image layer's file).
    fs.writeFileSync(path.join(disk1, "image.txt"), "from the image\n");
    fs.linkSync(path.join(disk1, "image.txt"), path.join(disk2, "image.txt"));
    const { ws, relaunch } = relaunchableWorkspace(await daemonOn(disk1, "boot-1"));
    try {
      await ws.fs.mkdir("/workspace/project", { recursive: true });
      await ws.fs.writeFile("/workspace/project/a.txt", "a");
      await ws.fs.writeFile("/workspace/project/b.txt", "b");
      const first = await (await ws.runtime.exec("true", { backend: "box" })).result();
      expect([first.exitCode, first.pushed, first.pulled]).toEqual([0, 3, 1]);
      expect(await ws.fs.readFile("/workspace/image.txt", "utf8")).toBe("from the image\n");

      // The container is relaunched on a fresh disk (from the same image): the transport goes, a new daemon answers.
      relaunch(await daemonOn(disk2, "boot-2"));
      await new Promise((r) => setTimeout(r, 50));
      const second = await (await ws.runtime.exec("ls -R", { backend: "box", encoding: "utf8" })).result();
      expect(second.exitCode).toBe(0);
      // Found: pushed 0, stdout ".:\nimage.txt\n", sync { status: "complete", applied: 1, skipped: [] }, and
      // /workspace/project gone from the Workspace.
      expect(await ws.fs.readFile("/workspace/project/a.txt", "utf8")).toBe("a");
      expect(await ws.fs.readFile("/workspace/project/b.txt", "utf8")).toBe("b");
      expect(second.stdout).toBe(".:\nimage.txt\nproject\n\n./project:\na.txt\nb.txt\n");
    } finally {
      await ws.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
