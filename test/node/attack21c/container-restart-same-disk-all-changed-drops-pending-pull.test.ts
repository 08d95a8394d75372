/**
 * Issue 20, twenty-first attack run: on a new daemon boot, `#adopt` keeps the manifest only when `#sameDisk` finds one
 * file or link still exactly as recorded (src/runtime/sync.ts); otherwise it takes the daemon for another disk: the
 * manifest is dropped, the push cursor reset, and `pull_pending` cleared. The module's contract: "a restarted daemon on
 * the same disk … keeps it, so a pull left pending completes without overwriting the Workspace's later changes". A
 * command that changed every synced file (a formatter, `sed -i` over the tree, a codemod, `git checkout` of another
 * branch) before its pull ran leaves no file as recorded — so after a daemon restart on the same disk its pull is
 * dropped, and the next push sends the whole Workspace tree over the container's: every change the command made is
 * overwritten by the Workspace's older copy, on both sides.
 *
 * Tried: two real daemons (`Computerd` in process) over the same directory, boot ids "boot-1" then "boot-2" (the
 * daemon restarted; its disk kept — what the local container host's `restart` does, and the case the contract names);
 * a Workspace whose backend `box` reconnects after its transport reports closed. a.txt/b.txt pushed by a first command;
 * a second command with `sync: "defer"` (its pull left pending, as when the object dies while the command runs) runs
 * `sed -i s/old/new/` over both; the daemon restarts; then the next command (`cat a.txt b.txt`), whose push comes first.
 * Held: with one untouched file beside (c.txt kept as recorded) the next command gets both files "new" (the contract's
 * case, test/workers/container/sync-failure.test.ts too); an explicit `workspace.pull()` right after the restart pulls
 * the edits even in the all-changed case (the dropped manifest makes every container entry new to it) — only the
 * push-first path loses them.
 *
 * Found (medium; 2 of 2 runs): after the restart the next command's push re-sends the whole tree (the manifest and the
 * pending mark dropped) and the container's a.txt/b.txt read "old" again; the Workspace too — the command's edits are lost everywhere, with no
 * `skipped` entry or error.
 *
 * Suggested fix: do not decide "another disk" from file stats alone — have the daemon announce a disk id (a random id
 * it writes beside the mount point on first boot, kept with the disk) and compare it; or, when the stats do not match
 * but a pull is pending, pull before dropping anything (a pull on a truly new disk finds nothing newer to bring).
 *
 * Fixed: the disk id (see container-new-disk-with-image-file-deletes-workspace.test.ts): both daemons read the same
 * `.<name>.computerd-disk` beside the directory, so the manifest and the pending pull are kept however many files the
 * command changed; the next push pulls first and the command's edits win on both sides.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { daemonOn, relaunchableWorkspace } from "../attack18c/real-daemon.js";

async function scenario(keepOne: boolean): Promise<{ workspace: string[]; container: string[] }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "attack21c-restart-"));
  const { ws, relaunch } = relaunchableWorkspace(await daemonOn(dir, "boot-1"));
  try {
    await ws.fs.mkdir("/workspace", { recursive: true });
    await ws.fs.writeFile("/workspace/a.txt", "old a\n");
    await ws.fs.writeFile("/workspace/b.txt", "old b\n");
    if (keepOne) await ws.fs.writeFile("/workspace/c.txt", "untouched\n");
    expect((await (await ws.runtime.exec("true", { backend: "box" })).result()).exitCode).toBe(0);
    const edit = await (await ws.runtime.exec("sed -i s/old/new/ a.txt b.txt", { backend: "box", sync: "defer" })).result();
    expect(edit.exitCode).toBe(0);
    expect(edit.sync?.status).toBe("pending");
    // The daemon restarts on the same disk: the transport goes, a new boot answers over the same directory.
    relaunch(await daemonOn(dir, "boot-2"));
    await new Promise((r) => setTimeout(r, 50));
    const after = await (await ws.runtime.exec("cat a.txt b.txt", { backend: "box", encoding: "utf8" })).result();
    return {
      workspace: [await ws.fs.readFile("/workspace/a.txt", "utf8"), await ws.fs.readFile("/workspace/b.txt", "utf8")],
      container: [after.stdout as string],
    };
  } finally {
    await ws.close();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(path.join(path.dirname(dir), `.${path.basename(dir)}.computerd-disk`), { force: true });
  }
}

describe("attack21c: a daemon restarted on the same disk after a command changed every synced file", () => {
  it("held: with one file still as recorded, the pending pull completes", { timeout: 60_000 }, async () => {
    expect(await scenario(true)).toEqual({ workspace: ["new a\n", "new b\n"], container: ["new a\nnew b\n"] });
  });

  it("the pending pull completes all the same: the command's edits win", { timeout: 60_000 }, async () => {
    // Found: { workspace: ["old a\n", "old b\n"], container: ["old a\nold b\n"] }.
    expect(await scenario(false)).toEqual({ workspace: ["new a\n", "new b\n"], container: ["new a\nnew b\n"] });
  });
});
