/**
 * Issue 20, twenty-second attack run: a push that runs out of space in the container leaves a torn file there, and
 * the pull copies that torn file over the Workspace's good version.
 *
 * The daemon's `write` op (container/lib/sync.mjs `applyOne`) writes a file of at most 1 MiB in place: it opens the
 * path (O_CREAT, no O_TRUNC), writes the bytes, then truncates. When the container's disk fills up part way
 * (ENOSPC — `npm ci`, a build, a log filling the disk), the op fails but the file stays as far as it got: a prefix of
 * the new bytes (over the old ones, for an existing file), with a new mtime/ctime. The host (src/runtime/sync.ts
 * `#pushEntries`) reports the refusal in `skipped` and moves its push cursor past the entry, recording nothing. The
 * pull after the command then sees a file in the container that differs from the manifest and — "container changes
 * win" — copies the torn file into the Workspace, the durable copy. The Workspace's version is gone, and as the push
 * cursor moved on, nothing ever sends it again.
 *
 * Tried: the real daemon in process (`Computerd`, attack18c/real-daemon.ts) whose mount point is on a 64 KiB tmpfs
 * (needs root to mount; skipped elsewhere). A command fills 50,000 bytes; the Workspace writes config.txt (30,000
 * bytes) — the push fails ENOSPC; the command run with it frees the space (`rm filler`); then `wc -c config.txt`.
 * Held: the push reports `{ path: "/workspace/config.txt", reason: "ENOSPC: no space left on device (config.txt)" }`
 * in the run's `skipped`; the command still runs.
 *
 * Found (high; 3 of 3 runs): the container holds an 8,192-byte config.txt (the first page the tmpfs took), the pull
 * copies it into the Workspace (`pulled` 2: filler's deletion and config.txt) — /workspace/config.txt is 8,192 bytes of
 * the 30,000 — and the next command's push sends nothing (`wc -c` → 8192).
 *
 * Suggested fix: in the daemon, write a whole-file `write` (offset 0, truncate) to a temporary name beside the file and
 * rename it into place (as pieces already are), removing the temporary on failure — the old file stays whole; and in
 * the host, keep a refused entry owed (do not record its revision as pushed, or mark its manifest row so that a pull
 * never takes the container's version of a path whose push failed over the Workspace's newer one), so the next push
 * sends it again.
 *
 * Fixed (daemon side, fixer FCD): a whole-file `write` (offset 0, truncate) goes to a new file beside the path
 * (`.ws-sync-write-<16 hex>`, O_EXCL) renamed into place once all its bytes are written (container/lib/sync.mjs
 * `writeWhole`); a failed write removes the temporary, so the container keeps the old file whole (here: no
 * config.txt at all) and the pull has nothing torn to copy. The old file's mode (unless the op gives one), owner and
 * group pass to the new one; a write at an offset (a piece of a large file, into its own temporary) stays in place.
 * The host keeps the refused entry owed (fixer FCH, src/runtime/sync.ts), so the next push sends config.txt whole.
 * Siblings (a live reader, a running executable, modes, owners, links, PATH_MAX): test/node/fix22/container-write-renamed-into-place.test.ts.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { daemonOn, workspaceOver } from "../attack18c/real-daemon.js";
import { tinyDisk } from "../container/tiny-disk.js";

const disk = tinyDisk();
disk?.release();

describe("attack22c: a push that fills the container's disk", () => {
  (disk ? it : it.skip)("never replaces the Workspace's file by the torn copy it left", { timeout: 60_000 }, async () => {
    const mounted = tinyDisk()!;
    const mount = path.join(mounted.dir, "ws");
    fs.mkdirSync(mount);
    const ws = await workspaceOver(await daemonOn(mount, "boot-1"));
    const run = async (command: string) => (await ws.runtime.exec(command, { backend: "box", encoding: "utf8" })).result();
    try {
      expect((await run("head -c 50000 /dev/zero > filler")).exitCode).toBe(0);
      const content = "x".repeat(29_999) + "\n";
      await ws.fs.writeFile("/workspace/config.txt", content);
      const second = await run("rm filler");
      expect(second.skipped).toEqual([{ path: "/workspace/config.txt", reason: "ENOSPC: no space left on device (config.txt)" }]);
      const workspaceSize = (await ws.fs.stat("/workspace/config.txt")).size;
      const third = await run("wc -c < config.txt");
      // Found: { workspace: 8192, container: "8192\n" } — the Workspace holds the torn copy, and nothing re-sends it.
      expect({ workspace: workspaceSize, container: third.stdout }).toEqual({ workspace: 30_000, container: "30000\n" });
      expect(await ws.fs.readFile("/workspace/config.txt", "utf8")).toBe(content);
    } finally {
      await ws.close();
      mounted.release();
    }
  });
});
